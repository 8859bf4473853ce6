// The machine's fp32 fused-multiply-add peak, measured: every hardware thread runs independent
// FMA chains on full-width vectors (16 lanes with AVX-512, 8 with AVX2), enough of them in flight
// to cover the FMA latency. Benchmarks compare their GFLOP/s to this figure instead of a quoted
// one. Usage: peak_fma [rounds]
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

constexpr int kChains = 16;        // independent accumulators per thread
constexpr long kIterations = 20'000'000;

// Returns a value depending on every accumulator, so that nothing is optimised away.
__attribute__((target("avx512f"))) float fma_avx512(long iterations) {
    __m512 acc[kChains];
    for (int i = 0; i < kChains; i++) acc[i] = _mm512_set1_ps(float(i) * 1e-3f);
    const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
    for (long n = 0; n < iterations; n++) {
        // Unrolled, so that the accumulators live in registers.
#pragma GCC unroll 16
        for (int i = 0; i < kChains; i++) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
    }
    __m512 s = acc[0];
    for (int i = 1; i < kChains; i++) s = _mm512_add_ps(s, acc[i]);
    return _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) float fma_avx2(long iterations) {
    __m256 acc[kChains];
    for (int i = 0; i < kChains; i++) acc[i] = _mm256_set1_ps(float(i) * 1e-3f);
    const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
    for (long n = 0; n < iterations; n++) {
#pragma GCC unroll 16
        for (int i = 0; i < kChains; i++) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
    }
    __m256 s = acc[0];
    for (int i = 1; i < kChains; i++) s = _mm256_add_ps(s, acc[i]);
    float out[8];
    _mm256_storeu_ps(out, s);
    return out[0] + out[7];
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 7;
    bool avx512 = __builtin_cpu_supports("avx512f");
    bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    if (!avx512 && !avx2) {
        std::printf("no AVX2+FMA on this machine: nothing to measure\n");
        return 0;
    }
    const int lanes = avx512 ? 16 : 8;
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<double> gflops;
    float sink = 0;
    for (int r = 0; r < rounds; r++) {
        std::vector<float> results(threads);
        auto start = std::chrono::steady_clock::now();
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; t++) {
            pool.emplace_back([&, t] { results[t] = avx512 ? fma_avx512(kIterations) : fma_avx2(kIterations); });
        }
        for (auto &th : pool) th.join();
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (float v : results) sink += v;
        double flops = 2.0 * lanes * kChains * double(kIterations) * threads;
        gflops.push_back(flops / s * 1e-9);
    }
    std::sort(gflops.begin(), gflops.end());
    std::printf("fp32 FMA peak, %u threads x %d-lane vectors x %d chains, %d rounds: median %.1f GFLOP/s, best %.1f "
                "(checksum %g)\n",
                threads, lanes, kChains, rounds, gflops[gflops.size() / 2], gflops.back(), double(sink));
    return 0;
}
