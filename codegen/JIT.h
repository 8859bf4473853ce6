// Compiles a lowered pipeline to machine code for this CPU with LLVM's ORC JIT.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "Target.h"
#include "lower/Lower.h"

namespace halo {

using PipelineEntry = int32_t (*)(void **args);

class JITModule {
public:
    // Generates, optimises (LLVM O2) and JIT-compiles the pipeline.
    JITModule(const LoweredPipeline &p, const Target &target);
    ~JITModule();
    PipelineEntry entry() const { return entry_; }
    // The optimised LLVM IR and the machine code as assembly text: made on the first request,
    // from the lowered pipeline again (compiling does not pay for them), and kept. Safe to call
    // from several threads.
    std::string llvm_ir() const;
    std::string assembly() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    PipelineEntry entry_ = nullptr;
};

// Target triple, CPU and features of this machine, as LLVM names them.
std::string host_target_description();

// Where a JIT pipeline's output check found the output's loops would write outside its buffer
// (the run-time error halo_error_output_bounds), or a later output reads it outside its buffer
// (halo_error_output_read), recorded on the calling thread, which is the
// one that runs the checks: realize(sizes) grows the output to this region and crops the
// result back (as Halide's realize does after its bounds query).
struct OutputOverreach {
    std::string output, dim;  // the output Func and the Var of the dimension
    int64_t write_min = 0, write_max = -1;
};
// The last overreach recorded on this thread since the previous call, if any (and forgets it).
std::optional<OutputOverreach> take_output_overreach();

}  // namespace halo
