// What Halo's integer operations and conversions compute, written once for every place that
// computes them on known values: the simplifier's constant folding, the reference evaluator
// and the DSL's literal checks. Codegen emits the same rules as LLVM IR (CodeGenLLVM.cpp).
//
//   - int32 and int64 +, - and * must not overflow: that is undefined behaviour, as in Halide,
//     and the simplifier relies on it. int8, int16 and every unsigned type wrap.
//   - Casts to a narrower integer type wrap (keep the low bits).
//   - float -> integer conversions round toward zero and saturate to the target type's range;
//     NaN converts to 0.
//   - a << b and a >> b with b >= the bit width of a give 0, or for >> of a signed a the sign
//     fill (0 or -1); a negative (signed) b shifts the other way by |b|.
//   - Integer / and % are Euclidean, x / 0 and x % 0 are 0, and MIN / -1 wraps to MIN
//     (MIN % -1 is 0), in every signed width (see EuclideanDivision.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "Type.h"

namespace halo {

// v truncated to t's width: sign-extended for signed types, zero-extended for unsigned ones
// (a uint64 is kept as its bit pattern).
inline int64_t wrap_to_type(Type t, int64_t v) {
    if (t.bits() >= 64) return v;
    if (!t.is_int()) return int64_t(uint64_t(v) & ((uint64_t(1) << t.bits()) - 1));
    int s = 64 - t.bits();
    return int64_t(uint64_t(v) << s) >> s;
}

// True for the types whose overflow is undefined behaviour rather than wrapping.
inline bool signed_overflow_is_undefined(Type t) { return t.is_int() && t.bits() >= 32; }

enum class IntArith { Add, Sub, Mul };

inline const char *int_arith_symbol(IntArith op) {
    return op == IntArith::Add ? "+" : op == IntArith::Sub ? "-" : "*";
}

// Exact value of a op b (a and b are values of an integer type of at most 64 bits).
inline __int128 exact_int_arith(IntArith op, int64_t a, int64_t b) {
    __int128 x = a, y = b;
    return op == IntArith::Add ? x + y : op == IntArith::Sub ? x - y : x * y;
}

// a op b in the integer type t, wrapped to t. Sets *overflowed if t is int32 or int64 and the
// exact result does not fit (undefined behaviour; the wrapped value is still returned).
inline int64_t int_arith(Type t, IntArith op, int64_t a, int64_t b, bool *overflowed = nullptr) {
    uint64_t x = uint64_t(a), y = uint64_t(b);
    uint64_t w = op == IntArith::Add ? x + y : op == IntArith::Sub ? x - y : x * y;
    int64_t r = wrap_to_type(t, int64_t(w));
    if (overflowed) *overflowed = signed_overflow_is_undefined(t) && __int128(r) != exact_int_arith(op, a, b);
    return r;
}

// Decimal text of a 128-bit integer (for error messages).
inline std::string int128_to_string(__int128 v) {
    if (v == 0) return "0";
    bool neg = v < 0;
    unsigned __int128 m = neg ? 0 - (unsigned __int128)v : (unsigned __int128)v;
    std::string s;
    while (m) {
        s.insert(s.begin(), char('0' + int(m % 10)));
        m /= 10;
    }
    return neg ? "-" + s : s;
}

// The message for an int32 or int64 overflow of a op b (where names the Func, or is empty).
inline std::string signed_overflow_message(const std::string &where, Type t, IntArith op, int64_t a, int64_t b) {
    std::string s = "signed integer overflow";
    if (!where.empty()) s += " in " + where;
    s += ": " + t.element_of().to_string() + " " + std::to_string(a) + " " + int_arith_symbol(op) + " " +
         std::to_string(b) + " = " + int128_to_string(exact_int_arith(op, a, b)) + " overflows; " +
         "int32 and int64 overflow is undefined (as in Halide): widen the type or use an unsigned "
         "type for wrapping arithmetic";
    return s;
}

// A float converted to the integer type t: rounded toward zero, saturated to t's range, NaN
// gives 0. The result is t's value as an int64 (a uint64 as its bit pattern).
inline int64_t saturating_float_to_int(Type t, double v) {
    if (std::isnan(v)) return 0;
    if (!t.is_int()) {
        if (v <= 0) return 0;
        if (v >= std::ldexp(1.0, t.bits())) return int64_t(t.max_uint());
        return int64_t(uint64_t(v));
    }
    double lim = std::ldexp(1.0, t.bits() - 1);
    if (v <= -lim) return t.min_int();
    if (v >= lim) return t.max_int();
    return int64_t(v);
}

// a << b (left) or a >> b (!left), where a is a value of type t and b a shift amount that is
// signed if b_signed. Amounts of at least t.bits() shift everything out; a negative amount
// shifts the other way.
inline int64_t shift_value(Type t, int64_t a, int64_t b, bool b_signed, bool left) {
    bool negative = b_signed && b < 0;
    uint64_t amount = negative ? 0 - uint64_t(b) : uint64_t(b);
    if (negative) left = !left;
    const uint64_t bits = uint64_t(t.bits());
    if (left) {
        if (amount >= bits) return 0;
        return wrap_to_type(t, int64_t(uint64_t(a) << amount));
    }
    if (t.is_int()) {
        // arithmetic: a is sign-extended, so shifting by bits - 1 gives the sign fill
        if (amount >= bits) amount = bits - 1;
        return a < 0 ? ~int64_t(~uint64_t(a) >> amount) : int64_t(uint64_t(a) >> amount);
    }
    if (amount >= bits) return 0;
    return wrap_to_type(t, int64_t(uint64_t(a) >> amount));
}

}  // namespace halo
