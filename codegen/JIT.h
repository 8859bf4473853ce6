// Compiles a lowered pipeline to machine code for this CPU with LLVM's ORC JIT.
#pragma once

#include <memory>
#include <string>

#include "Target.h"
#include "lower/Lower.h"

namespace halo {

using PipelineEntry = int32_t (*)(void **args);

class JITModule {
public:
    // Generates, optimises (O3) and JIT-compiles the pipeline.
    JITModule(const LoweredPipeline &p, const Target &target);
    ~JITModule();
    PipelineEntry entry() const { return entry_; }
    const std::string &llvm_ir() const { return llvm_ir_; }
    // The machine code, as assembly text: made on the first request, from the optimised IR
    // (compiling does not pay for it).
    std::string assembly() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    PipelineEntry entry_ = nullptr;
    std::string llvm_ir_;
};

// Target triple, CPU and features of this machine, as LLVM names them.
std::string host_target_description();

}  // namespace halo
