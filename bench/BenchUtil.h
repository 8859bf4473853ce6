// Timing helpers for the benchmarks: warm-up, then cases interleaved round-robin so that
// machine noise hits every case alike; report medians and minimums.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace bench {

// |a - b|, never NaN: infinite where exactly one is NaN, 0 where both are (or a == b), so that
// std::max over it cannot hide a NaN (std::max(worst, NaN) is worst).
inline double value_difference(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
    return a == b ? 0 : std::fabs(a - b);
}


struct Case {
    std::string name;
    std::function<void()> run;
    std::vector<double> ms;
    // For a case timed elsewhere (the Halide peer process): returns its own milliseconds.
    std::function<double()> timed;
    double median() const {
        std::vector<double> v = ms;
        std::sort(v.begin(), v.end());
        return v.empty() ? 0 : v[v.size() / 2];
    }
    double min() const { return ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end()); }
};

inline double time_ms(const std::function<void()> &f) {
    auto t = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

// Runs every case once to warm up, then `rounds` rounds of all cases in turn. A pause between
// cases lets the previous case's worker threads (Halo's or another process's pool, which spin
// for a while after a parallel loop) go idle before the next case is timed.
inline void run_interleaved(std::vector<Case> &cases, int rounds, int pause_ms = 0) {
    auto pause = [&] {
        if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
    };
    for (auto &c : cases) c.timed ? (void)c.timed() : c.run();
    for (int r = 0; r < rounds; r++) {
        for (auto &c : cases) {
            pause();
            c.ms.push_back(c.timed ? c.timed() : time_ms(c.run));
        }
    }
}

}  // namespace bench
