#include "PassTiming.h"

#include <cstdio>
#include <cstdlib>

namespace halo {

bool time_passes_enabled() {
    // Read at every use (a few times per compile), so a program may turn it on at any point.
    const char *v = std::getenv("HALO_TIME_PASSES");
    return v && *v && std::string(v) != "0";
}

bool llvm_time_passes_enabled() {
    const char *v = std::getenv("HALO_TIME_PASSES");
    return v && std::string(v) == "llvm";
}

void PassTimer::lap(const char *step) {
    Clock::time_point now = Clock::now();
    if (time_passes_enabled()) {
        double ms = std::chrono::duration<double, std::milli>(now - start_).count();
        std::fprintf(stderr, "halo time: %s %-28s %9.3f ms\n", pipeline_.c_str(), step, ms);
    }
    start_ = Clock::now();  // printing is not part of the next step
}

}  // namespace halo
