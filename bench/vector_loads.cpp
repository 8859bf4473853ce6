// vector_loads: the cost of shifted vector loads at 32 and 64 bytes, from rows streamed from
// memory and from rows in the cache. This calibrates auto_schedule's vector width for
// memory-bound pipelines (lower/AutoSchedule.cpp, lanes_for): each kernel computes blur_x's
// row, out[i] = (in[i] + in[i + 1] + in[i + 2]) / 3 on uint16, so it loads three vectors shifted
// by one element from each other, as Halo's generated code does.
//
//   vector_loads [rounds]     (one thread; medians of interleaved rounds)
//
// On the AVX-512 machine of the README: streamed, 64-byte loads took 1.1-1.6x the time of
// 32-byte ones (it varies with the host's memory traffic); from the cache 0.75x.
#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

__attribute__((target("avx2"))) void row_32_bytes(const uint16_t *in, uint16_t *out, long n) {
    const __m256i third = _mm256_set1_epi16(int16_t(43691));  // x / 3 == mulhi(x, 43691) >> 1
    for (long i = 0; i + 16 <= n; i += 16) {
        __m256i s = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + i));
        s = _mm256_add_epi16(s, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + i + 1)));
        s = _mm256_add_epi16(s, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(in + i + 2)));
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + i), _mm256_srli_epi16(_mm256_mulhi_epu16(s, third), 1));
    }
}

__attribute__((target("avx512f,avx512bw"))) void row_64_bytes(const uint16_t *in, uint16_t *out, long n) {
    const __m512i third = _mm512_set1_epi16(int16_t(43691));
    for (long i = 0; i + 32 <= n; i += 32) {
        __m512i s = _mm512_loadu_si512(in + i);
        s = _mm512_add_epi16(s, _mm512_loadu_si512(in + i + 1));
        s = _mm512_add_epi16(s, _mm512_loadu_si512(in + i + 2));
        _mm512_storeu_si512(out + i, _mm512_srli_epi16(_mm512_mulhi_epu16(s, third), 1));
    }
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char **argv) {
    if (!__builtin_cpu_supports("avx512bw")) {
        std::printf("vector_loads: this CPU has no AVX-512BW; nothing to compare\n");
        return 0;
    }
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 11;
    const long W = 6400, H = 4800;  // the blur of app_bench: 61 MB of input
    std::vector<uint16_t> in(size_t(W) * (H + 1) + 64), out(size_t(W) * 4 + 64);
    for (size_t i = 0; i < in.size(); i++) in[i] = uint16_t(i * 2654435761u >> 20);
    // rows_in_cache == 0: every row once (streamed from memory); else the same few rows again.
    for (long rows_in_cache : {0L, 4L}) {
        std::vector<double> ms[2];
        for (int r = 0; r < rounds; r++) {
            for (int wide = 0; wide < 2; wide++) {
                auto start = std::chrono::steady_clock::now();
                for (long y = 0; y < H; y++) {
                    const uint16_t *row = in.data() + (rows_in_cache ? y % rows_in_cache : y) * W;
                    uint16_t *o = out.data() + (y % 4) * W;
                    if (wide) row_64_bytes(row, o, W);
                    else row_32_bytes(row, o, W);
                }
                ms[wide].push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            }
        }
        const double narrow = median(ms[0]), wide = median(ms[1]);
        std::printf("%-28s 32-byte loads %6.2f ms, 64-byte loads %6.2f ms: 64-byte take %.2fx the time\n",
                    rows_in_cache ? "rows in the cache:" : "rows streamed from memory:", narrow, wide, wide / narrow);
    }
    return 0;
}
