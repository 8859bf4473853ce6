// Halide's other math functions: inverse and hyperbolic trigonometry, hypot, erf, the
// floating-point class tests, fract, lerp, absd, and the "fast_" variants (here exact: they
// call the same functions as their exact names, so they are never less accurate than Halide's
// approximations). Integer arguments of the floating-point functions are converted to
// Float(32), as for sin and sqrt.
#pragma once

#include "IROperator.h"

namespace halo {

Expr asin(Expr x);
Expr acos(Expr x);
Expr atan(Expr x);
Expr sinh(Expr x);
Expr cosh(Expr x);
Expr tanh(Expr x);
Expr asinh(Expr x);
Expr acosh(Expr x);
Expr atanh(Expr x);
Expr hypot(Expr x, Expr y);
Expr erf(Expr x);

// True where x is NaN / +-infinity / neither (the result is a bool of x's lanes). Halo's code
// never assumes floats are finite, so these hold in compiled code as in the reference.
Expr is_nan(Expr x);
Expr is_inf(Expr x);
Expr is_finite(Expr x);

// x - trunc(x): the fractional part, with x's sign (as Halide defines it: fract(-1.25f) is
// -0.25f), in (-1, 1).
Expr fract(Expr x);

// |a - b| without overflow: the unsigned type of a's width for integers (a and b coerced by
// match_types first), the float type for floats.
Expr absd(Expr a, Expr b);

// zero_val + (one_val - zero_val) * weight, as Halide defines it:
//  * float values: zero_val * (1 - weight) + one_val * weight, weight converted to their type;
//  * integer values (8 or 16 bits, either sign): weight is a float in [0, 1] or an unsigned
//    integer taken as a fraction of its type's maximum; it is scaled to the values' width
//    (w in [0, M], M = 2^bits - 1) and the result is (zero_val (M - w) + one_val w) / M
//    rounded to the nearest integer, halves up, so it always lies between the two values.
//  Other value types are a CompileError.
Expr lerp(Expr zero_val, Expr one_val, Expr weight);

// The number of set bits, of leading zero bits and of trailing zero bits of an integer, in its
// own type (a zero has as many leading and trailing zeros as the type has bits).
Expr popcount(Expr x);
Expr count_leading_zeros(Expr x);
Expr count_trailing_zeros(Expr x);

// The bits of x read as type t (Halide's reinterpret): t has x's bits per lane (a float of 32 or
// 64 bits or an integer; not bool); a scalar t takes x's lanes. reinterpret<T>(x) uses T's type.
Expr reinterpret(Type t, Expr x);
template <typename T>
Expr reinterpret(Expr x) {
    return reinterpret(type_of<T>(), std::move(x));
}

// Integer division and remainder rounding toward zero, as C's / and %, for ports of code that
// relies on them (Halo's / and % are Euclidean, as Halide's): the remainder has a's sign.
// Division by zero gives 0, as Halo's /.
Expr div_round_to_zero(Expr a, Expr b);
Expr mod_round_to_zero(Expr a, Expr b);

Expr fast_sin(Expr x);
Expr fast_cos(Expr x);
// numerator / denominator and numerator % denominator (Euclidean, as / and %), for an integer
// numerator of up to 32 bits and a uint8 denominator, in the numerator's type (Halide's
// fast_integer_divide and fast_integer_modulo, which LLVM already makes multiplies and shifts
// for a constant denominator). As Halide documents, a zero denominator means 256 for the
// division, and the remainder by 0 is the numerator (numerator - quotient * 0).
Expr fast_integer_divide(Expr numerator, Expr denominator);
Expr fast_integer_modulo(Expr numerator, Expr denominator);
Expr fast_log(Expr x);
Expr fast_exp(Expr x);
Expr fast_pow(Expr x, Expr y);
Expr fast_inverse_sqrt(Expr x);

// Halide's ConciseCasts: i8(e) is cast<int8_t>(e), u8_sat(e) is saturating_cast<uint8_t>(e)...
namespace ConciseCasts {
inline Expr f64(Expr e) { return cast(Float(64), std::move(e)); }
inline Expr f32(Expr e) { return cast(Float(32), std::move(e)); }
inline Expr i64(Expr e) { return cast(Int(64), std::move(e)); }
inline Expr i32(Expr e) { return cast(Int(32), std::move(e)); }
inline Expr i16(Expr e) { return cast(Int(16), std::move(e)); }
inline Expr i8(Expr e) { return cast(Int(8), std::move(e)); }
inline Expr u64(Expr e) { return cast(UInt(64), std::move(e)); }
inline Expr u32(Expr e) { return cast(UInt(32), std::move(e)); }
inline Expr u16(Expr e) { return cast(UInt(16), std::move(e)); }
inline Expr u8(Expr e) { return cast(UInt(8), std::move(e)); }
inline Expr i8_sat(Expr e) { return saturating_cast(Int(8), std::move(e)); }
inline Expr u8_sat(Expr e) { return saturating_cast(UInt(8), std::move(e)); }
inline Expr i16_sat(Expr e) { return saturating_cast(Int(16), std::move(e)); }
inline Expr u16_sat(Expr e) { return saturating_cast(UInt(16), std::move(e)); }
inline Expr i32_sat(Expr e) { return saturating_cast(Int(32), std::move(e)); }
inline Expr u32_sat(Expr e) { return saturating_cast(UInt(32), std::move(e)); }
inline Expr i64_sat(Expr e) { return saturating_cast(Int(64), std::move(e)); }
inline Expr u64_sat(Expr e) { return saturating_cast(UInt(64), std::move(e)); }
}  // namespace ConciseCasts

}  // namespace halo
