// The state behind a Pipeline handle (codegen/Pipeline.h) and behind a Func's own realize():
// lowers the outputs, JIT-compiles them once, and runs the code on buffers.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dsl/Buffer.h"
#include "dsl/Function.h"
#include "dsl/ParamMap.h"
#include "dsl/Tuple.h"
#include "Target.h"
#include "lower/Lower.h"

namespace halo {

class JITModule;
class Func;

// Thread-safe: any number of threads may realize it at once (each call has its own context,
// so errors go to the call that had them); compiling happens once, under a lock.
class PipelineContents {
public:
    // Whether the contents hold their outputs alive: a Func's own pipeline (Func::realize)
    // must not, since the Func holds it; a user's Pipeline does.
    enum class Ownership { OwnsOutputs, ReferredToByOutput };
    // Several outputs computed by one pipeline (Halide's Pipeline({f, g})): realize fills one
    // buffer per output (per value of a Tuple-valued one), in this order. Each output is
    // computed at the root over its buffer.
    PipelineContents(const std::vector<Func> &outputs, Ownership ownership);
    ~PipelineContents();
    PipelineContents(const PipelineContents &) = delete;
    PipelineContents &operator=(const PipelineContents &) = delete;

    // The output Funcs, in order.
    std::vector<std::shared_ptr<FunctionContents>> outputs() const;

    // Lowers and compiles, unless no Func of the pipeline changed since the last compile.
    void compile_jit();
    // Whether the compiled code is that of the Funcs as they are now.
    bool is_current() const;
    // How many times this pipeline was compiled (lowered and JIT-compiled).
    int compile_count() const;
    // Compiles for a given target (it must run on this machine).
    void compile_jit(const Target &target);
    // Computes the output over dst's region. Parameters the map names take its values for this
    // call only; the others take those set on them (Param::set, ImageParam::set).
    void realize(Buffer<> &dst, const ParamMap &param_map = ParamMap::empty_map());
    // A Tuple-valued output: one buffer per value, all over the same region.
    void realize(Realization &dst, const ParamMap &param_map = ParamMap::empty_map());
    void realize(Realization &&dst, const ParamMap &param_map = ParamMap::empty_map()) { realize(dst, param_map); }
    Realization realize(const std::vector<int> &sizes = {}, const ParamMap &param_map = ParamMap::empty_map());

    // Halide's infer_input_bounds: binds every ImageParam the pipeline reads and that has no
    // buffer yet to a new zero-filled buffer covering exactly what realizing over `sizes`
    // reads (its mins may be negative). ImageParams already bound keep their buffers.
    void infer_input_bounds(const std::vector<int> &sizes);

    // The Func of this pipeline named `name` (an output or a Func they read), as Halide's
    // get_func gives one by index: a handle to a Func made by a library function (a boundary
    // condition, an inline reduction), whose name auto_schedule's source uses. A CompileError
    // names the pipeline's Funcs if none has the name, and says so if several share it.
    Func get_func(const std::string &name) const;

    std::string lowered_stmt();
    std::string llvm_ir();
    std::string assembly();
    // Milliseconds the last compile took (lowering + LLVM).
    double compile_time_ms() const;
    // Bytes held by this pipeline's arena of intermediate buffers.
    int64_t arena_bytes() const { return halo_arena_bytes(arena_.get()); }
    // Returns the intermediate buffers kept for reuse to the system (the next realization
    // allocates afresh).
    void release_memory() { halo_arena_release_unused(arena_.get()); }
    // The arena's policy: a kept buffer that none of the last arena_keep_calls realizations
    // reused is freed, so memory held falls back after a realization at a large size.
    static constexpr int arena_keep_calls = HALO_ARENA_KEEP_CALLS;

private:
    // A Func owns the pipeline made by its realize(), so it is referred to weakly (it is alive
    // whenever one of its handles calls in here). A user's Pipeline holds its outputs
    // (owned_outputs_).
    std::vector<std::weak_ptr<FunctionContents>> outputs_;
    std::vector<std::shared_ptr<FunctionContents>> owned_outputs_;
    // "Func 'f'", or "the pipeline of 'f', 'g'" in messages.
    std::string describe() const;
    // Guards everything below but the arena (which has its own lock).
    mutable std::mutex mutex_;
    void compile_locked();
    bool is_current_locked() const;
    LoweredPipeline lowered_;
    // Shared with the calls running it, so that a recompile does not free code in use.
    std::shared_ptr<JITModule> jit_;
    // Every Func of the compiled pipeline and its version at the time, weakly as well.
    std::vector<std::pair<std::weak_ptr<FunctionContents>, uint64_t>> compiled_versions_;
    // The input buffers' constraints the code was compiled with (ImageParam::dim(d).set_...),
    // and whether each fixed Buffer's dimension 0 was strided (lower/BufferConstraints.h).
    struct CompiledParam {
        std::weak_ptr<ParameterContents> param;
        uint64_t constraints_version;
        bool strided_dim0;
    };
    std::vector<CompiledParam> compiled_constraints_;
    int compile_count_ = 0;
    Target target_ = get_jit_target_from_environment();
    double compile_ms_ = 0;
    // Intermediate buffers are reused across realizations.
    std::unique_ptr<halo_arena_t, void (*)(halo_arena_t *)> arena_;
};

}  // namespace halo
