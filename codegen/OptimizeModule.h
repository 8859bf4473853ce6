// LLVM's optimization pipeline for a pipeline's module, shared by the JIT and ahead-of-time
// compilation.
#pragma once

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace halo {

// Runs LLVM's O2 pipeline (new pass manager) for the target; with llvm_loop_opt
// (Target::EnableLLVMLoopOpt) O3 and its loop vectorizer, interleaver and unroller. Loop
// strength reduction runs here, on the loops that gain from it, instead of in the code generator.
void optimize_module(llvm::Module &m, llvm::TargetMachine &tm, bool llvm_loop_opt);

// Sets the defaults of LLVM options this pipeline's compile depends on: the code generator
// leaves loop strength reduction to optimize_module, and induction variables are not widened
// (see OptimizeModule.cpp for the measurements). Called once, by initialize_llvm, before it
// reads HALO_LLVM_ARGS, so that "-disable-lsr=false" there turns the code generator's LSR back on
// (and optimize_module's off). LLVM's options are process-wide: a program that uses LLVM itself
// beside Halo (the shared libLLVM) gets these defaults too once Halo has compiled something.
void set_code_generation_defaults();

}  // namespace halo
