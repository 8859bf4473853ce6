// The operators and functions users combine Exprs with, and the type coercion rules
// (Halide's): literals take the other side's type; int meets float -> float; narrower meets
// wider -> wider; signed meets unsigned of equal width -> signed.
#pragma once

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
// Shifts have the type of the first argument. Shifting by at least its bit width gives 0 (or
// for >> of a signed value, its sign fill 0 or -1); a negative amount shifts the other way.
Expr operator<<(Expr a, Expr b);
Expr operator>>(Expr a, Expr b);

// Mixed with C++ literals: the literal takes the Expr's type (checked to fit).
#define HALO_LITERAL_OPS(OP)                     \
    Expr operator OP(Expr a, int b);             \
    Expr operator OP(int a, Expr b);             \
    Expr operator OP(Expr a, double b);          \
    Expr operator OP(double a, Expr b);
HALO_LITERAL_OPS(+) HALO_LITERAL_OPS(-) HALO_LITERAL_OPS(*) HALO_LITERAL_OPS(/)
HALO_LITERAL_OPS(%) HALO_LITERAL_OPS(==) HALO_LITERAL_OPS(!=) HALO_LITERAL_OPS(<)
HALO_LITERAL_OPS(<=) HALO_LITERAL_OPS(>) HALO_LITERAL_OPS(>=)
#undef HALO_LITERAL_OPS

Expr &operator+=(Expr &a, Expr b);
Expr &operator-=(Expr &a, Expr b);
Expr &operator*=(Expr &a, Expr b);
Expr &operator/=(Expr &a, Expr b);

Expr select(Expr condition, Expr true_value, Expr false_value);
// select(c1, v1, c2, v2, ..., default)
template <typename... Rest>
Expr select(Expr c1, Expr v1, Expr c2, Expr v2, Rest &&...rest) {
    return select(std::move(c1), std::move(v1),
                  select(std::move(c2), std::move(v2), std::forward<Rest>(rest)...));
}
Expr min(Expr a, Expr b);
Expr max(Expr a, Expr b);
template <typename A, typename B, typename C, typename... Rest>
Expr min(A a, B b, C c, Rest... rest) { return min(min(Expr(a), Expr(b)), Expr(c), rest...); }
template <typename A, typename B, typename C, typename... Rest>
Expr max(A a, B b, C c, Rest... rest) { return max(max(Expr(a), Expr(b)), Expr(c), rest...); }
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
Expr pow(Expr x, Expr y);
Expr floor(Expr x);
Expr ceil(Expr x);
Expr round(Expr x);  // to nearest, ties to even
Expr trunc(Expr x);
Expr sin(Expr x);
Expr cos(Expr x);
Expr tan(Expr x);
Expr atan2(Expr y, Expr x);
Expr fast_inverse(Expr x);
// The value as is; tells codegen the condition is usually true.
Expr likely(Expr x);

namespace internal {
Expr make_intrinsic(Type t, const char *name, std::vector<Expr> args);
// Wraps v in a let-free form if it is not already a constant of type t.
Expr raw_add(Expr a, Expr b);  // no coercion; types must match
}  // namespace internal

}  // namespace halo
