#include "SanitizeJIT.h"

#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Instrumentation/AddressSanitizer.h>
#include <llvm/Transforms/Instrumentation/ThreadSanitizer.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace halo {

const char *host_sanitizer_for_jit_code() {
    const char *off = std::getenv("HALO_JIT_SANITIZE");
    if (off && std::strcmp(off, "0") == 0) return "";
#if defined(__SANITIZE_ADDRESS__)
    return "address";
#elif defined(__SANITIZE_THREAD__)
    return "thread";
#else
    return "";
#endif
}

std::vector<std::pair<const char *, void *>> host_sanitizer_aliases() {
    if (std::string(host_sanitizer_for_jit_code()) != "thread") return {};
    return {{"__tsan_memcpy", reinterpret_cast<void *>(&memcpy)},
            {"__tsan_memmove", reinterpret_cast<void *>(&memmove)},
            {"__tsan_memset", reinterpret_cast<void *>(&memset)}};
}

void instrument_for_host_sanitizer(llvm::Module &m, llvm::TargetMachine &tm) {
    const std::string which = host_sanitizer_for_jit_code();
    if (which.empty()) return;
    const llvm::Attribute::AttrKind attr =
        which == "address" ? llvm::Attribute::SanitizeAddress : llvm::Attribute::SanitizeThread;
    for (llvm::Function &f : m) {
        if (!f.isDeclaration()) f.addFnAttr(attr);
    }
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PassBuilder pb(&tm);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    if (which == "address") {
        llvm::AddressSanitizerOptions options;
        options.UseAfterReturn = llvm::AsanDetectStackUseAfterReturnMode::Never;
        options.InsertVersionCheck = false;  // the module has no constructor to check it in
        // The process's libasan is already initialized: no constructor or destructor, and
        // no registration of the module's globals (only constants of its own).
        mpm.addPass(llvm::AddressSanitizerPass(options, /*UseGlobalGC=*/false, /*UseOdrIndicator=*/false,
                                               llvm::AsanDtorKind::None, llvm::AsanCtorKind::None));
    } else {
        mpm.addPass(llvm::createModuleToFunctionPassAdaptor(llvm::ThreadSanitizerPass()));
    }
    mpm.run(m, mam);
}

}  // namespace halo
