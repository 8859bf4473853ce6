// Integer division and modulo as Halo defines them: Euclidean (the remainder is in [0, |b|)),
// a zero divisor gives 0, and MIN / -1 wraps (to MIN; the remainder is 0) instead of
// faulting. Shared by the simplifier's constant folding, the reference evaluator and the
// redundancy report's loop counter. The arguments are values sign-extended to 64 bits; the
// caller wraps the quotient to the operation's type (for int8..int32 MIN / -1 gives -MIN,
// which wraps back to MIN).
#pragma once

#include <cstdint>

namespace halo {

inline int64_t euclidean_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    if (b == -1) return int64_t(0 - uint64_t(a));  // INT64_MIN / -1 wraps to INT64_MIN
    int64_t q = a / b, r = a % b;
    if (r < 0) q += b > 0 ? -1 : 1;
    return q;
}

inline int64_t euclidean_mod(int64_t a, int64_t b) {
    if (b == 0 || b == -1) return 0;
    int64_t r = a % b;
    // |b| may be 2^63 (b = INT64_MIN): add it as unsigned; the sum, in [0, |b|), fits.
    if (r < 0) r = int64_t(uint64_t(r) + (b < 0 ? 0 - uint64_t(b) : uint64_t(b)));
    return r;
}

}  // namespace halo
