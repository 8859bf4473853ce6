// Pipeline: Halide's handle to one or more output Funcs compiled and run together. Copies of a
// Pipeline share one compiled pipeline (PipelineContents), as Halide's do: `Pipeline p = f;`
// then `p.realize(...)`, `p.compile_to_static_library(...)`, `p.auto_schedule(target)`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "PipelineContents.h"
#include "dsl/Argument.h"
#include "dsl/Func.h"

namespace halo {

// What Pipeline::auto_schedule chose (Halide's AutoSchedulerResults).
struct AutoSchedulerResults {
    std::string scheduler_name;   // Halo has one auto-scheduler, lower/AutoSchedule.h
    Target target;                // the target it scheduled for
    std::string schedule_source;  // the schedule as C++, to paste into a schedule() and edit
};

class Pipeline {
public:
    // An undefined Pipeline (defined() is false); assign one to it.
    Pipeline() = default;
    // Implicit, as in Halide: `Pipeline p = f;`.
    Pipeline(const Func &output);
    // Several outputs computed by one pipeline (Halide's Pipeline({f, g})): realize fills one
    // buffer per output (per value of a Tuple-valued one), in this order. Each output is
    // computed at the root over its buffer. The pipeline keeps its output Funcs alive.
    Pipeline(const std::vector<Func> &outputs);

    bool defined() const { return contents_ != nullptr; }
    std::vector<Func> outputs() const;

    // Lowers and compiles, unless no Func of the pipeline changed since the last compile.
    void compile_jit();
    // Compiles for a given target (it must run on this machine).
    void compile_jit(const Target &target);
    // Whether the compiled code is that of the Funcs as they are now.
    bool is_current() const;
    // How many times this pipeline was compiled (lowered and JIT-compiled).
    int compile_count() const;
    // Computes the outputs over the buffers' regions. Parameters the map names take its values
    // for this call only; the others take those set on them (Param::set, ImageParam::set).
    void realize(Buffer<> &dst, const ParamMap &param_map = ParamMap::empty_map());
    // One buffer per output value, in the order of the outputs, all over the same region.
    void realize(Realization &dst, const ParamMap &param_map = ParamMap::empty_map());
    void realize(Realization &&dst, const ParamMap &param_map = ParamMap::empty_map()) { realize(dst, param_map); }
    // Over [0, sizes): outputs of fewer dimensions than others take the first sizes.
    Realization realize(const std::vector<int> &sizes = {}, const ParamMap &param_map = ParamMap::empty_map());
    // Halide's infer_input_bounds: binds every ImageParam the pipeline reads and that has no
    // buffer yet to a new zero-filled buffer covering exactly what realizing over `sizes` reads.
    void infer_input_bounds(const std::vector<int> &sizes);

    // The Func of this pipeline named `name` (an output or a Func they read): a handle to a
    // Func made by a library function (a boundary condition, an inline reduction). A
    // CompileError names the pipeline's Funcs if none has the name.
    Func get_func(const std::string &name) const;

    // Schedules the pipeline's output with Halo's auto-scheduler (lower/AutoSchedule.h) for
    // `target`, over the output's estimates (Func::set_estimates): the schedule is applied to
    // the Funcs, and its source returned. Halide's name argument (the plugin to use) is
    // accepted for porting; Halo has one auto-scheduler, which every name runs.
    AutoSchedulerResults auto_schedule(const Target &target = get_target_from_environment());
    AutoSchedulerResults auto_schedule(const std::string &autoscheduler_name, const Target &target);

    // The lowered loop nest, as text.
    std::string lowered_stmt();
    // Only the loops, with their kinds, and where each Func is produced (Halide's
    // print_loop_nest): printed to stdout, or returned.
    void print_loop_nest() const;
    std::string loop_nest() const;
    // The optimised LLVM IR, and the machine code as assembly, of the compiled pipeline.
    std::string llvm_ir();
    std::string assembly();
    // Milliseconds the last compile took (lowering + LLVM).
    double compile_time_ms() const;
    // Bytes held by this pipeline's arena of intermediate buffers, and giving them back.
    int64_t arena_bytes() const;
    void release_memory();
    static constexpr int arena_keep_calls = PipelineContents::arena_keep_calls;

    // Ahead-of-time compilation, as Halide's Pipeline::compile_to_*: a C-callable function
    // `fn_name` taking `args` (the ImageParams and Params the pipeline reads, in order) and then
    // one output buffer per output value, as codegen/AOT.h describes. <prefix>.a and <prefix>.h:
    void compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                   const std::string &fn_name, const Target &target = get_target_from_environment());
    // The ImageParams and Params the outputs read, as Func::infer_arguments orders them.
    std::vector<Argument> infer_arguments() const;
    // <prefix>.o and <prefix>.h:
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name, const Target &target = get_target_from_environment());
    // One file each:
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 StmtOutputFormat format = Text, const Target &target = get_target_from_environment());

private:
    // Checks that the Pipeline is defined, naming the method called.
    PipelineContents &contents(const char *method) const;
    std::shared_ptr<PipelineContents> contents_;
};

}  // namespace halo
