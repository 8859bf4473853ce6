// HALO_TIME_PASSES=1: the time of every lowering pass and of LLVM's optimization and code
// generation, printed to stderr as each finishes ("halo time: <pipeline> <step> <ms> ms").
// HALO_TIME_PASSES=llvm: the same, plus LLVM's own report of every optimization and
// code-generation pass after each compile.
#pragma once

#include <chrono>
#include <string>

namespace halo {

bool time_passes_enabled();
// HALO_TIME_PASSES=llvm.
bool llvm_time_passes_enabled();

// Measures from its construction (or the last lap) and prints each lap when enabled.
class PassTimer {
public:
    explicit PassTimer(std::string pipeline) : pipeline_(std::move(pipeline)), start_(Clock::now()) {}
    // Prints the time since the previous lap (or construction) under `step`.
    void lap(const char *step);

private:
    using Clock = std::chrono::steady_clock;
    std::string pipeline_;
    Clock::time_point start_;
};

}  // namespace halo
