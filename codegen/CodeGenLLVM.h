// Translates a lowered loop nest into an LLVM module holding one function:
//   int32_t <name>(void **args)
// args[0] is the user_context (NULL or a halo_context_t*, which may carry an arena),
// args[1] the output's halo_buffer_t*, then one entry per parameter of the pipeline (a
// halo_buffer_t* for buffers, a pointer to the value for scalars). Returns 0 or an error code.
#pragma once

#include <memory>
#include <string>

#include "lower/Lower.h"

namespace llvm {
class LLVMContext;
class Module;
class TargetMachine;
}  // namespace llvm

namespace halo {

std::unique_ptr<llvm::Module> codegen_llvm(const LoweredPipeline &p, llvm::LLVMContext &ctx,
                                           llvm::TargetMachine &tm);

// Initializes the native target once per process, and reads LLVM's own options from the
// environment variable HALO_LLVM_ARGS (as Halide's HL_LLVM_ARGS: "-time-passes
// -print-after=instcombine"), for experiments with the code generator.
void initialize_llvm();

// With HALO_TIME_PASSES=llvm, LLVM times its passes while this lives and prints its report
// (optimization and code generation, pass by pass) to stderr when it ends. LLVM's switch is
// process-wide: meant for one compile at a time, when measuring.
class LLVMPassTimingScope {
public:
    LLVMPassTimingScope();
    ~LLVMPassTimingScope();
    LLVMPassTimingScope(const LLVMPassTimingScope &) = delete;
    LLVMPassTimingScope &operator=(const LLVMPassTimingScope &) = delete;

private:
    bool active_;
};

}  // namespace halo
