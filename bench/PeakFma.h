// The machine's fp32 fused-multiply-add peak, measured: each of as many threads as Halo's
// parallel loops use runs independent FMA chains on full-width vectors (16 lanes with AVX-512, 8
// with AVX2), enough of them in flight to cover the FMA latency. Benchmarks compare their GFLOP/s
// to this figure instead of a quoted one (peak_fma prints it alone; app_bench times it
// interleaved with the cases of its GFLOP/s tables, so that the ratio is of one run on this
// shared, noisy machine).
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <vector>

namespace bench {

namespace fma_detail {

constexpr int kChains = 16;  // independent accumulators per thread

// Returns a value depending on every accumulator, so that nothing is optimised away.
__attribute__((target("avx512f"))) inline float fma_avx512(long iterations) {
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

__attribute__((target("avx2,fma"))) inline float fma_avx2(long iterations) {
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

}  // namespace fma_detail

// One run: `iterations` x 16 chains of vector FMAs on each of threads() threads.
class FmaPeak {
public:
    explicit FmaPeak(long iterations) : iterations_(iterations) {}

    bool available() const { return avx512_ || avx2_; }
    int lanes() const { return avx512_ ? 16 : 8; }
    unsigned threads() const { return threads_; }
    int chains() const { return fma_detail::kChains; }
    // Floating-point operations of one run (an FMA is two).
    double flops() const { return 2.0 * lanes() * fma_detail::kChains * double(iterations_) * threads_; }

    // Runs once on all threads; returns a checksum of the results.
    float run() const {
        std::vector<float> results(threads_);
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads_; t++) {
            pool.emplace_back([&, t] {
                results[t] = avx512_ ? fma_detail::fma_avx512(iterations_) : fma_detail::fma_avx2(iterations_);
            });
        }
        for (auto &th : pool) th.join();
        float sum = 0;
        for (float v : results) sum += v;
        return sum;
    }

private:
    long iterations_;
    bool avx512_ = __builtin_cpu_supports("avx512f");
    bool avx2_ = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    unsigned threads_ = threads_of_pipelines();

    // As many threads as Halo's parallel loops use (runtime/ThreadPool.cpp reads the same
    // variables), so that a share of the peak compares like with like.
    static unsigned threads_of_pipelines() {
        for (const char *name : {"HALO_NUM_THREADS", "OMP_NUM_THREADS"}) {
            const char *v = std::getenv(name);
            if (v && std::atoi(v) > 0) return unsigned(std::atoi(v));
        }
        return std::max(1u, std::thread::hardware_concurrency());
    }
};

}  // namespace bench
