// Scalar parameters and input images whose values are given at run time.
#pragma once

#include <memory>
#include <string>
#include <type_traits>

#include "Buffer.h"
#include "Dimension.h"
#include "IROperator.h"
#include "Parameter.h"

namespace halo {

class Func;

// Param<T>::set_min_value / set_max_value: checks and stores the bound (is_max: the largest).
void set_param_bound(ParameterContents &p, const Expr &bound, bool is_max);

template <typename T>
class Param {
public:
    Param() : Param(unique_name('p')) {}
    explicit Param(const std::string &name) : p_(std::make_shared<ParameterContents>()) {
        p_->name = name;
        p_->type = type_of<T>();
    }
    Param(const std::string &name, T value) : Param(name) { set(value); }
    // With the range its values must lie in (Halide's Param(name, value, min, max)).
    Param(const std::string &name, T value, const Expr &min, const Expr &max) : Param(name, value) {
        set_range(min, max);
    }
    void set(T v) { p_->set_scalar(v); }
    T get() const { return p_->get_scalar<T>(); }

    // The smallest and largest values a call may give (constants of any numeric type, cast to
    // T; an undefined Expr removes the bound). A value outside them makes the pipeline fail with
    // halo_error_code_param_out_of_range and a message naming the Param, before anything runs.
    void set_range(const Expr &min, const Expr &max) {
        set_min_value(min);
        set_max_value(max);
    }
    void set_min_value(const Expr &min) { set_param_bound(*p_, min, false); }
    void set_max_value(const Expr &max) { set_param_bound(*p_, max, true); }
    Expr min_value() const { return p_->min_value; }
    Expr max_value() const { return p_->max_value; }
    // A typical value, for schedulers (Halide's set_estimate); it does not change the results.
    void set_estimate(T v) {
        if constexpr (std::is_floating_point_v<T>) p_->estimate = make_const(p_->type, double(v));
        else p_->estimate = make_const(p_->type, int64_t(v));
    }
    const std::string &name() const { return p_->name; }
    operator Expr() const { return Variable::make(p_->type, p_->name, p_); }
    const std::shared_ptr<ParameterContents> &parameter() const { return p_; }

private:
    std::shared_ptr<ParameterContents> p_;
};

// A buffer input of a given element type and dimensionality, bound with set() before realize.
class ImageParam {
public:
    ImageParam() = default;
    ImageParam(Type t, int dimensions, const std::string &name = "");

    void set(const Buffer<> &b);
    Buffer<> get() const;
    const std::string &name() const { return p_->name; }
    Type type() const { return p_->type; }
    int dimensions() const { return p_->dimensions; }

    Expr operator()(std::vector<Expr> args) const;
    template <typename... Args>
    Expr operator()(Args &&...args) const { return (*this)(std::vector<Expr>{Expr(args)...}); }

    // A dimension of the bound buffer: its min, extent and stride as Exprs evaluated at run
    // time, and constraints on them (see Dimension.h).
    Dimension dim(int i) const;
    Expr width() const { return dim(0).extent(); }
    Expr height() const { return dim(1).extent(); }
    Expr channels() const { return dim(2).extent(); }
    // Halide's names for the edges of the first two dimensions (inclusive).
    Expr left() const { return dim(0).min(); }
    Expr right() const { return dim(0).max(); }
    Expr top() const { return dim(1).min(); }
    Expr bottom() const { return dim(1).max(); }
    const std::shared_ptr<ParameterContents> &parameter() const { return p_; }

    // Wrappers (Halide's ImageParam::in): an identity Func that the consumer reads instead of
    // the image, to schedule on its own (e.g. im.in().compute_root() copies the needed part of
    // the input into a buffer of the pipeline's). Asking again returns the same wrapper.
    Func in(const Func &consumer);
    Func in(const std::vector<Func> &consumers);
    // The global wrapper: every consumer reads it (but the image's other wrappers).
    Func in();

    // The image as a Func (Halide's conversion: Func f = im, or a helper taking a Func called
    // with the image): a Func of the image's name whose values are the image's, inlined unless
    // scheduled. The same Func each time.
    operator Func() const;
    // The expected (min, extent) of each dimension, for schedulers, as Halide's set_estimates;
    // auto_schedule sizes inputs from the outputs' estimates, so the values are not used.
    ImageParam &set_estimates(const std::vector<std::pair<Expr, Expr>> &region);
    // Halide's promise that the bound buffer's host pointer is a multiple of `bytes` (a
    // positive number): checked when the pipeline is called, an error naming the buffer if not.
    ImageParam &set_host_alignment(int bytes);

private:
    Func image_wrapper(const std::string &name);
    // A read of the image; `holding_wrappers` for a user's reads (see ImageParamWrappers), not
    // for the wrappers' own.
    Expr read(std::vector<Expr> args, bool holding_wrappers) const;
    std::shared_ptr<ParameterContents> p_;
    std::shared_ptr<ImageParamWrappers> wrappers_;
    // p_ as a pointer that also owns wrappers_ (std::shared_ptr's aliasing constructor): what a
    // user's reads of the image carry, so that they keep the wrappers alive.
    std::shared_ptr<ParameterContents> p_holding_wrappers_;
};

// Checks that b can be bound to the ImageParam p (defined, its type and dimensions); `how` says
// how it was being bound, for the message ("set to", "mapped to").
void check_image_param_buffer(const ParameterContents &p, const Buffer<> &b, const char *how);

// The Variable that stands for field ("min", "extent", "stride") of a buffer's dimension d.
Expr buffer_field(const std::shared_ptr<ParameterContents> &p, const char *field, int d);

}  // namespace halo
