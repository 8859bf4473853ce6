// Instruments JIT-compiled pipelines for the sanitizer the host process is built with, so that
// AddressSanitizer sees their out-of-bounds and use-after-free accesses and ThreadSanitizer their
// data races, exactly as it sees Halo's own code. In a build without sanitizers it does nothing.
#pragma once

#include <utility>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace halo {

// Which sanitizer instrument_for_host_sanitizer applies: "address", "thread" or "" (none, or
// HALO_JIT_SANITIZE=0 in the environment).
const char *host_sanitizer_for_jit_code();

// Runs LLVM's AddressSanitizer or ThreadSanitizer instrumentation over every function of m
// (after optimization, as compilers do). The runtime is the host process's (GCC's libasan or
// libtsan), found by the JIT among the process's symbols; no module constructor is added.
void instrument_for_host_sanitizer(llvm::Module &m, llvm::TargetMachine &tm);

// Functions the instrumentation calls that the host's runtime names differently: LLVM's
// ThreadSanitizer calls __tsan_memcpy, __tsan_memmove and __tsan_memset, which GCC's libtsan
// does not define; it checks memcpy, memmove and memset themselves (its interceptors).
std::vector<std::pair<const char *, void *>> host_sanitizer_aliases();

}  // namespace halo
