#include "OptimizeModule.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/StandardInstrumentations.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopStrengthReduce.h>
#include <llvm/Transforms/Scalar/LoopUnrollPass.h>
#include <llvm/Transforms/Utils/CanonicalizeFreezeInLoops.h>

#include "dsl/Error.h"

namespace halo {

namespace {

// LLVM's loop strength reduction (LSR), on the loops where it is worth its time. LSR rewrites a
// loop's address arithmetic into pointers that step with the loop, saving a few instructions
// per iteration. Measured on the apps (interleaved runs, 2026-11-29), the time it takes grows
// with the addresses in a loop: 0.5-3 ms on blur's and harris's loops (4-19 loads and stores),
// but 8 ms on a 3-iteration loop of cnn_block's 3x3 taps and 25 ms on its 30-access remainder
// block, 30-40 ms of a 170 ms compile, without making cnn_block faster. Left out: loops that
// run a known small number of times (nothing to step), and loops of more than
// max_memory_accesses loads and stores (their arithmetic hides what LSR saves; no app's time
// changed by more than the noise, 1-2%, without LSR on them).
class BoundedLoopStrengthReduce : public llvm::PassInfoMixin<BoundedLoopStrengthReduce> {
public:
    static constexpr unsigned max_constant_trips = 4;
    static constexpr size_t max_memory_accesses = 24;

    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &am,
                                llvm::LoopStandardAnalysisResults &ar, llvm::LPMUpdater &updater) {
        unsigned trips = ar.SE.getSmallConstantTripCount(&loop);  // 0: not a known constant
        if (trips != 0 && trips <= max_constant_trips) return llvm::PreservedAnalyses::all();
        if (memory_accesses(loop) > max_memory_accesses) return llvm::PreservedAnalyses::all();
        return llvm::LoopStrengthReducePass().run(loop, am, ar, updater);
    }

private:
    // Loads and stores in the loop, inner loops included (masked ones and gathers are calls of
    // intrinsics that access memory).
    static size_t memory_accesses(const llvm::Loop &loop) {
        size_t n = 0;
        for (llvm::BasicBlock *block : loop.blocks())
            for (llvm::Instruction &i : *block)
                n += llvm::isa<llvm::LoadInst>(i) || llvm::isa<llvm::StoreInst>(i) ||
                     (llvm::isa<llvm::IntrinsicInst>(i) && i.mayReadOrWriteMemory());
        return n;
    }
};

llvm::cl::opt<bool> &bool_option(const char *name) {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find(name);
    internal_assert(it != options.end()) << "LLVM has no option -" << name << " (is this LLVM 19?)";
    return *static_cast<llvm::cl::opt<bool> *>(it->second);  // both options used here are bools
}

}  // namespace

void set_code_generation_defaults() {
    bool_option("disable-lsr").setInitialValue(true);
    // IndVarSimplify's widening of 32-bit induction variables to 64 bits (to drop the sign
    // extensions of loop variables in addresses) took 15-25 ms of cnn_block's compile, 2/3 of
    // the pass; without it no app ran slower than the noise (1-2%): an extension is one
    // instruction beside a loop's vector arithmetic.
    bool_option("indvars-widen-indvars").setInitialValue(false);
}

void optimize_module(llvm::Module &m, llvm::TargetMachine &tm, bool llvm_loop_opt) {
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions pto;
    // As Halide 15 and later: the schedule vectorizes and unrolls; LLVM's loop passes only with
    // Target::EnableLLVMLoopOpt (they double the compile time). No SLP vectorization: LLVM 19's
    // narrows integer arithmetic wrongly (its minimum-bitwidth analysis turned float(uint32(u8
    // - 300)) of two unrolled points into 16-bit lanes: 65243 for 4294967007; found by the typed
    // differential test), and the schedule's own vectors made it worth nothing measurable
    // (cnn_block, blur, harris: same times, less compile time).
    pto.LoopVectorization = llvm_loop_opt;
    pto.LoopInterleaving = llvm_loop_opt;
    pto.LoopUnrolling = llvm_loop_opt;
    pto.SLPVectorization = false;
    // With HALO_TIME_PASSES=llvm the instrumentation times every pass (the report is printed
    // after machine code generation, together with the code generator's passes).
    llvm::PassInstrumentationCallbacks pic;
    std::optional<llvm::StandardInstrumentations> si;
    if (llvm::TimePassesIsEnabled) {
        si.emplace(m.getContext(), false);
        si->registerCallbacks(pic, &mam);
    }
    llvm::PassBuilder pb(&tm, pto, std::nullopt, si ? &pic : nullptr);
    // Small loops of constant trip count (a 3x3 kernel's taps) are unrolled fully even without
    // the loop passes, as Halide 14's default pipeline does (seen in its assembly): a blocked
    // convolution then shares the loads, and the inlined max of a relu, that neighbouring taps
    // have in common. Kept as loops they made cnn_block's kernels 1.2x slower than Halide 14's.
    // Partial and runtime unrolling stay off (LLVM's own size thresholds bound the full one).
    if (!llvm_loop_opt)
        pb.registerLoopOptimizerEndEPCallback([](llvm::LoopPassManager &lpm, llvm::OptimizationLevel) {
            lpm.addPass(llvm::LoopFullUnrollPass(/*OptLevel=*/3, /*OnlyWhenForced=*/false,
                                                 /*ForgetAllSCEV=*/true));
        });
    // Loop strength reduction last, where the code generator would run it (after the loop
    // passes have put each loop in its final shape), on the loops where it pays.
    // (Unless HALO_LLVM_ARGS turned the code generator's own back on: "-disable-lsr=false".)
    if (bool_option("disable-lsr").getValue())
        pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
            llvm::LoopPassManager lpm;
            lpm.addPass(llvm::CanonicalizeFreezeInLoopsPass());
            lpm.addPass(BoundedLoopStrengthReduce());
            mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::createFunctionToLoopPassAdaptor(
                std::move(lpm), /*UseMemorySSA=*/false, /*UseBlockFrequencyInfo=*/false)));
        });
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    // O2, not the O3 that Halide 14 runs: O3 adds non-trivial loop unswitching, call-site
    // splitting and argument promotion, which pipelines of loops over buffers do not need; O2
    // compiled cnn_block 5% faster and no app ran slower than the noise (1-2%, interleaved runs
    // of blur, harris, unsharp, cnn_block, dw_pw and local Laplacian, 2026-11-29). The full
    // unrolling above keeps O3's size threshold. With LLVM's loop passes asked for
    // (Target::EnableLLVMLoopOpt) it stays O3: their thresholds are O3's there.
    llvm::OptimizationLevel level = llvm_loop_opt ? llvm::OptimizationLevel::O3 : llvm::OptimizationLevel::O2;
    llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(level);
    mpm.run(m, mam);
}

}  // namespace halo
