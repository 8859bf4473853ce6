// The machine's fp32 fused-multiply-add peak (bench/PeakFma.h), alone. Usage: peak_fma [rounds]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "PeakFma.h"

int main(int argc, char **argv) {
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    const bench::FmaPeak peak(20'000'000);
    if (!peak.available()) {
        std::printf("no AVX2+FMA on this machine: nothing to measure\n");
        return 0;
    }
    std::vector<double> gflops;
    float sink = 0;
    for (int r = 0; r < rounds; r++) {
        auto start = std::chrono::steady_clock::now();
        sink += peak.run();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        gflops.push_back(peak.flops() / s * 1e-9);
    }
    std::sort(gflops.begin(), gflops.end());
    std::printf("fp32 FMA peak, %u threads x %d-lane vectors x %d chains, %d rounds: median %.1f GFLOP/s, best %.1f "
                "(checksum %g)\n",
                peak.threads(), peak.lanes(), peak.chains(), rounds, gflops[gflops.size() / 2], gflops.back(), double(sink));
    return 0;
}
