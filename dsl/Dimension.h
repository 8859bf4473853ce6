// One dimension of a buffer a pipeline reads (ImageParam::dim(d)) or writes
// (Func::output_buffer().dim(d)), as in Halide: its min, extent and stride as Exprs the
// pipeline evaluates when it runs, and constraints on them (set_min, set_extent, set_stride,
// set_bounds). A constraint is checked at every call, before anything runs (a RuntimeError
// naming the buffer, the field and the directive), and the compiler uses the value it
// requires: set_min(0) or a constant stride simplifies every address. An undefined Expr
// removes the constraint.
#pragma once

#include <memory>
#include <string>

#include "Function.h"
#include "IR.h"
#include "Parameter.h"

namespace halo {

// The name of a Var or RVar that e uses, or "" if it uses none (Params and buffer fields such
// as input.extent.0 do not count): for Exprs evaluated once per call, outside every loop.
std::string first_loop_variable(const Expr &e);

class Dimension {
public:
    Dimension(std::shared_ptr<ParameterContents> param, int d);
    Dimension(std::shared_ptr<FunctionContents> output, int d);

    Expr min() const;
    Expr extent() const;
    Expr max() const;
    Expr stride() const;  // in dimension 0: 1, unless set_stride said otherwise
    Dimension &set_min(Expr min);
    Dimension &set_extent(Expr extent);
    Dimension &set_stride(Expr stride);
    Dimension &set_bounds(Expr min, Expr extent);
    // Halide's size estimates for its auto-schedulers: accepted, and used for nothing yet.
    Dimension &set_estimate(const Expr &, const Expr &) { return *this; }
    Dimension &set_bounds_estimate(const Expr &, const Expr &) { return *this; }
    Dimension dim(int d) const;  // another dimension of the same buffer

private:
    std::shared_ptr<ParameterContents> param_;
    std::shared_ptr<FunctionContents> output_;
    int d_;

    const std::string &buffer_name() const;
    Expr field(const char *name) const;
    void constrain(Expr BufferDimConstraint::*field, const char *name, Expr value);
};

// Func::output_buffer(): the buffer the Func writes when it is a pipeline's output.
class OutputBuffer {
public:
    explicit OutputBuffer(std::shared_ptr<FunctionContents> f) : f_(std::move(f)) {}
    Dimension dim(int d) const { return Dimension(f_, d); }
    int dimensions() const { return f_->dimensions(); }
    const std::string &name() const { return f_->name; }
    Expr width() const { return dim(0).extent(); }
    Expr height() const { return dim(1).extent(); }
    Expr channels() const { return dim(2).extent(); }
    // The output buffer's host pointer must be a multiple of `bytes` (Halide's
    // set_host_alignment): checked when the pipeline is called.
    OutputBuffer &set_host_alignment(int bytes);

private:
    std::shared_ptr<FunctionContents> f_;
};

}  // namespace halo
