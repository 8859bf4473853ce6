// Integer division and modulo as Halo defines them: Euclidean (the remainder is in [0, |b|)),
// and a zero divisor gives 0. Shared by the simplifier's constant folding, the reference
// evaluator and the redundancy report's loop counter.
#pragma once

#include <cstdint>

namespace halo {

inline int64_t euclidean_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b, r = a % b;
    if (r < 0) q += b > 0 ? -1 : 1;
    return q;
}

inline int64_t euclidean_mod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    if (r < 0) r += b < 0 ? -b : b;
    return r;
}

}  // namespace halo
