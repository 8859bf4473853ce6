// The lowering pipeline: from a Func and its schedule to a flat loop nest ready for codegen.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dsl/Function.h"
#include "dsl/IR.h"
#include "dsl/Parameter.h"

namespace halo {

struct LoweredPipeline {
    std::string name;
    Stmt body;
    // The output Func's buffers (not the Func: a compiled pipeline is owned by its output
    // Func, and must not own it back): one, named as the Func, or one per value of a Tuple
    // (f.0, f.1, ...), all over the same region. The compiled function takes them first.
    struct Output {
        std::string name;
        Type type;
        int dimensions = 0;
    };
    std::vector<Output> outputs;
    // Scalar Params and input buffers, in the order the compiled function takes them
    // (after the output buffers).
    std::vector<std::shared_ptr<ParameterContents>> params;
    // Input and output buffers whose dimension 0 may have any stride (input.dim(0).set_stride(s)
    // or out.output_buffer().dim(0).set_stride(s) with s not 1, or Expr() for none): their
    // addresses use the stride (vector stores become scatters), and the check on entry that
    // dimension 0 is dense is left out. Every other buffer's dimension 0 is dense.
    std::set<std::string> strided_buffers;
    // Input and output buffers whose host pointer must be a multiple of this many bytes
    // (set_host_alignment), checked on entry.
    std::map<std::string, int> host_alignments;
    // What lowering decided that the loop nest does not show by itself (sliding windows).
    std::vector<std::string> notes;
};

struct LowerOptions {
    // Stop before storage flattening (the loop nest still has Realize and Provide nodes).
    bool stop_before_flattening = false;
    // Ignore the schedule: every non-inlined Func at the root with its default loops
    // (what the redundancy report compares a schedule against).
    bool breadth_first = false;  // (which Funcs it inlines: inlined_when_breadth_first)
    // Only the loop nest's shape is wanted (the redundancy report counts its points): leave out
    // the run-time checks of inputs, Params and bounds, which would be thrown away.
    bool without_checks = false;
};

// Lowers the pipeline that computes `output`. If the environment variable HALO_DUMP_IR is
// set, prints the IR after every pass to stderr.
LoweredPipeline lower(const std::shared_ptr<FunctionContents> &output, const std::string &name,
                      const LowerOptions &options = LowerOptions());
// A pipeline of several outputs (Halide's Pipeline({f, g})): each is computed at the root over
// its own buffers, in an order where every output comes after those it reads. Its buffers
// are the outputs' in the order given (one per value of each).
LoweredPipeline lower(const std::vector<std::shared_ptr<FunctionContents>> &outputs, const std::string &name,
                      const LowerOptions &options = LowerOptions());

// Whether LowerOptions::breadth_first keeps f inlined (in the pipeline of `output`); every
// other Func goes to the root.
bool inlined_when_breadth_first(const FunctionContents &f, const std::string &output);

}  // namespace halo
