// Ahead-of-time compilation: a pipeline to a static library holding one C-callable function
// (plus a C header declaring it), for a chosen target. The library needs only the small Halo
// runtime (libhalo_runtime.a), the C/C++ standard libraries and threads at run time.
#pragma once

#include <string>
#include <vector>

#include "Target.h"
#include "dsl/Argument.h"
#include "dsl/Type.h"

namespace halo {

class Func;

// One argument of the generated function, in the order the function takes them.
using AOTArgument = Argument;

struct AOTEmit {
    bool static_library = true;  // <dir>/lib<function>.a
    bool header = true;          // <dir>/<function>.h
    bool object = false;         // <dir>/<function>.o
    bool stmt = false;           // <dir>/<function>.stmt (the lowered loop nest)
    bool llvm_ir = false;        // <dir>/<function>.ll
    bool assembly = false;       // <dir>/<function>.s
    bool bitcode = false;        // <dir>/<function>.bc
    // Paths that replace the ones above where set (Func::compile_to_static_library and the
    // other Halide forms name each file).
    std::string static_library_path, header_path, object_path, stmt_path, llvm_ir_path, assembly_path, bitcode_path;
};

// Compiles `output` into `int32_t function_name(<inputs...>, halo_buffer_t *output)` and
// `int32_t function_name_with_context(halo_context_t *context, <inputs...>, halo_buffer_t *output)`.
// Inputs are the pipeline's ImageParams (as halo_buffer_t*) and Params (by value), in the
// given order; Buffers used directly by the algorithm are embedded as constant data.
void compile_to_files(const Func &output, const std::vector<AOTArgument> &inputs,
                      const std::string &function_name, const Target &target, const std::string &dir,
                      const AOTEmit &emit);
// A pipeline of several outputs: the function takes one output buffer per output (per value
// of a Tuple-valued one, named out_0, out_1, ...), after the inputs, in this order.
void compile_to_files(const std::vector<Func> &outputs, const std::vector<AOTArgument> &inputs,
                      const std::string &function_name, const Target &target, const std::string &dir,
                      const AOTEmit &emit);

}  // namespace halo
