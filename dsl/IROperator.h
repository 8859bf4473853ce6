// The operators and functions users combine Exprs with, and Halide's implicit type coercion.
//
// Two Exprs (match_types): equal types stay; a scalar meets a vector -> broadcast; float meets
// non-float -> the non-float is cast to the float type; two floats, two unsigned or two signed
// types -> the narrower widens; signed meets unsigned -> both become a signed int of the
// greater width (int8 with uint16 -> int16). Bool is UInt(1) for these rules.
//
// A C++ int literal next to an Expr (+ - * / %, comparisons, min, max, & | ^) takes the
// Expr's type and must be representable in it (else a CompileError); a C++ float or double
// literal becomes a float of the Expr's float type (Float(32) next to an integer Expr) and
// then follows match_types, so int32 expr + 1.5f is float32. An Expr that happens to be a
// constant gets no special treatment: Expr(1) is an int32 like any other.
#pragma once

#include <type_traits>

#include "IR.h"

namespace halo {

// Make a and b the same type by the rules above.
void match_types(Expr &a, Expr &b);

Expr operator+(Expr a, Expr b);
Expr operator-(Expr a, Expr b);
Expr operator*(Expr a, Expr b);
// Integer division rounds toward negative infinity; x / 0 is 0.
Expr operator/(Expr a, Expr b);
// Integer modulo has the sign of the divisor's magnitude: the result is in [0, |b|).
Expr operator%(Expr a, Expr b);
Expr operator-(Expr a);
Expr operator==(Expr a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator>(Expr a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator&&(Expr a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator!(Expr a);
Expr operator&(Expr a, Expr b);
Expr operator|(Expr a, Expr b);
Expr operator^(Expr a, Expr b);
Expr operator~(Expr a);
Expr operator<<(Expr a, Expr b);
Expr operator>>(Expr a, Expr b);

// Mixed with C++ literals: an int takes the Expr's type (checked to fit); a float or double
// is a float constant (of the Expr's type if that is a float, else Float(32)).
#define HALO_LITERAL_OPS(OP)                     \
    Expr operator OP(Expr a, int b);             \
    Expr operator OP(int a, Expr b);             \
    Expr operator OP(Expr a, double b);          \
    Expr operator OP(double a, Expr b);
HALO_LITERAL_OPS(+) HALO_LITERAL_OPS(-) HALO_LITERAL_OPS(*) HALO_LITERAL_OPS(/)
HALO_LITERAL_OPS(%) HALO_LITERAL_OPS(==) HALO_LITERAL_OPS(!=) HALO_LITERAL_OPS(<)
HALO_LITERAL_OPS(<=) HALO_LITERAL_OPS(>) HALO_LITERAL_OPS(>=)
#undef HALO_LITERAL_OPS

// Bitwise operators need integer operands that are both signed or both unsigned (the
// narrower widens); an int literal takes the Expr's type.
Expr operator&(Expr a, int b);
Expr operator&(int a, Expr b);
Expr operator|(Expr a, int b);
Expr operator|(int a, Expr b);
Expr operator^(Expr a, int b);
Expr operator^(int a, Expr b);
// Shifts have the type of the first argument. Shifting by at least its bit width gives 0 (or
// for >> of a signed value, its sign fill 0 or -1); a negative amount shifts the other way.
Expr operator<<(Expr a, int b);
Expr operator>>(Expr a, int b);

// a = a op b with b cast to a's type (as in Halide).
Expr &operator+=(Expr &a, Expr b);
Expr &operator-=(Expr &a, Expr b);
Expr &operator*=(Expr &a, Expr b);
Expr &operator/=(Expr &a, Expr b);

// As in Halide, the arms must have one type: an integer constant arm (such as a C++ int) is
// cast to the other arm's type (wrapping, as Halide's cast does), a float constant arm takes
// the other arm's float type, and any other difference is a CompileError (cast one arm).
Expr select(Expr condition, Expr true_value, Expr false_value);
// select(c1, v1, c2, v2, ..., default)
template <typename... Rest>
Expr select(Expr c1, Expr v1, Expr c2, Expr v2, Rest &&...rest) {
    return select(std::move(c1), std::move(v1),
                  select(std::move(c2), std::move(v2), std::forward<Rest>(rest)...));
}
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
// With a C++ literal: as for the arithmetic operators.
Expr min(Expr a, int b);
Expr min(int a, Expr b);
Expr min(Expr a, double b);
Expr min(double a, Expr b);
Expr max(Expr a, int b);
Expr max(int a, Expr b);
Expr max(Expr a, double b);
Expr max(double a, Expr b);
// min(a, b, c, ...) folds from the right, as in Halide: min(a, min(b, min(c, ...))), so the
// types are matched from the last pair outwards (min(u8, 300, i32) is int32). Two C++ literals
// at the end, which Halide cannot pair, each meet the Expr before them: min(x, 3, 4) is
// min(min(x, 3), 4).
template <typename A, typename B, typename C, typename... Rest>
Expr min(A a, B b, C c, Rest... rest) {
    if constexpr (sizeof...(Rest) == 0 && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>) return min(min(a, b), c);
    else return min(a, min(b, c, rest...));
}
template <typename A, typename B, typename C, typename... Rest>
Expr max(A a, B b, C c, Rest... rest) {
    if constexpr (sizeof...(Rest) == 0 && std::is_arithmetic_v<B> && std::is_arithmetic_v<C>) return max(max(a, b), c);
    else return max(a, max(b, c, rest...));
}
// The bounds take x's type where no value of theirs can change (lossless_cast, as in Halide):
// clamp(i16, u8_expr, 100) is accepted, clamp(i16, i32_expr, 100) and clamp(u8, -1, 100) are
// CompileErrors. A float constant bound of a float x rounds to x's type.
Expr clamp(Expr x, Expr lo, Expr hi);
// |x|; for signed integers the result is the unsigned type of the same width (as in Halide).
Expr abs(Expr x);
Expr cast(Type t, Expr x);
template <typename T>
Expr cast(Expr x) { return cast(type_of<T>(), std::move(x)); }
// Integer -> integer casts wrap (keep the low bits); float -> integer casts round toward zero
// and saturate to the target type's range, with NaN giving 0.
// saturating_cast also clamps integer sources to the target type's range instead of wrapping.
Expr saturating_cast(Type t, Expr x);
template <typename T>
Expr saturating_cast(Expr x) { return saturating_cast(type_of<T>(), std::move(x)); }

// Floating-point functions; integer arguments are converted to Float(32).
Expr sqrt(Expr x);
Expr exp(Expr x);
Expr log(Expr x);
// As in Halide 14: an integer-constant exponent multiplies x by itself in x's type
// (pow(i16, 2) is i16 * i16, pow(f32, 3) is (x * x) * x, pow(f32, -2) is 1 / (x * x));
// otherwise y takes x's type where x is a float, and both are Float(32) where it is not.
Expr pow(Expr x, Expr y);
Expr floor(Expr x);
Expr ceil(Expr x);
Expr round(Expr x);  // to nearest, ties to even
Expr trunc(Expr x);
Expr sin(Expr x);
Expr cos(Expr x);
Expr tan(Expr x);
// x takes y's type where y is a float (atan2(f32, f64) is float32); else both are Float(32).
Expr atan2(Expr y, Expr x);
Expr fast_inverse(Expr x);
// The value as is; tells codegen the condition is usually true.
Expr likely(Expr x);
// The condition of an if that decides only which points are stored (Call::store_guard; made by
// lowering for parallel ShiftInwards splits), and whether e is one.
Expr store_guard(Expr condition);
bool is_store_guard(const Expr &e);
// likely(x) and store_guard(x): hints to lowering and codegen whose value is x.
bool is_value_hint(const Call &c);

// An argument of a call to a Func, Buffer or ImageParam (`callee` names it, as "Func 'f'"), as
// Halide takes it: an int32, or an 8- or 16-bit integer (or bool), which is cast to int32. Floats
// and wider integers (uint32, 64-bit) are an error that asks for an explicit cast.
Expr call_argument(Expr a, const std::string &callee, size_t index);

namespace internal {
Expr make_intrinsic(Type t, const char *name, std::vector<Expr> args);
Expr raw_add(Expr a, Expr b);  // no coercion; types must match
}  // namespace internal

}  // namespace halo
