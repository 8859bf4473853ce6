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

    // What codegen/Pipeline.h says of the methods of the same names.
    void compile_jit();
    void compile_jit(const Target &target);
    bool is_current() const;
    int compile_count() const;
    void realize(Buffer<> &dst, const ParamMap &param_map);
    void realize(Realization &dst, const ParamMap &param_map);
    Realization realize(const std::vector<int> &sizes, const ParamMap &param_map);
    void infer_input_bounds(const std::vector<int> &sizes);
    // (Two Funcs of the name are an error that says so: keep a handle to the one meant.)
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
    std::vector<std::pair<std::weak_ptr<FunctionContents>, std::array<uint64_t, 3>>> compiled_versions_;
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
