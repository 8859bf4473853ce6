#include "MathFunctions.h"

#include "Error.h"
#include "IRPrinter.h"

namespace halo {

namespace {

Expr to_float(Expr x, const char *fn) {
    user_assert(x.defined()) << fn << " of an undefined Expr";
    if (x.type().is_float()) return x;
    Type f32 = Float(32, x.type().lanes());  // before x is moved from
    return cast(f32, std::move(x));
}

// A function of floats that compiled code computes with the C library's (lane by lane).
Expr libm_call(const char *name, std::vector<Expr> args) {
    for (auto &a : args) a = to_float(std::move(a), name);
    if (args.size() == 2) match_types(args[0], args[1]);
    Type t = args[0].type();
    return internal::make_intrinsic(t, name, std::move(args));
}

Expr float_class(const char *name, Expr x) {
    user_assert(x.defined()) << name << " of an undefined Expr";
    user_assert(x.type().is_float()) << name << "(" << x << "): the argument is " << x.type()
                                     << "; only floating-point values can be NaN or infinite";
    Type t = Bool(x.type().lanes());
    return internal::make_intrinsic(t, name, {std::move(x)});
}

}  // namespace

Expr asin(Expr x) { return libm_call("asin", {std::move(x)}); }
Expr acos(Expr x) { return libm_call("acos", {std::move(x)}); }
Expr atan(Expr x) { return libm_call("atan", {std::move(x)}); }
Expr sinh(Expr x) { return libm_call("sinh", {std::move(x)}); }
Expr cosh(Expr x) { return libm_call("cosh", {std::move(x)}); }
Expr tanh(Expr x) { return libm_call("tanh", {std::move(x)}); }
Expr asinh(Expr x) { return libm_call("asinh", {std::move(x)}); }
Expr acosh(Expr x) { return libm_call("acosh", {std::move(x)}); }
Expr atanh(Expr x) { return libm_call("atanh", {std::move(x)}); }
// As Halide 14 defines it, sqrt(x * x + y * y) by the usual operator rules: an integer is
// squared in its own type, and the squares may overflow where C's hypot would not.
Expr hypot(Expr x, Expr y) {
    user_assert(x.defined() && y.defined()) << "hypot of an undefined Expr";
    return sqrt(x * x + y * y);
}
Expr erf(Expr x) { return libm_call("erf", {std::move(x)}); }

Expr is_nan(Expr x) { return float_class("is_nan", std::move(x)); }
Expr is_inf(Expr x) { return float_class("is_inf", std::move(x)); }
Expr is_finite(Expr x) { return float_class("is_finite", std::move(x)); }

Expr fract(Expr x) {
    x = to_float(std::move(x), "fract");
    return x - trunc(x);
}

Expr absd(Expr a, Expr b) {
    user_assert(a.defined() && b.defined()) << "absd of an undefined Expr";
    match_types(a, b);
    Type t = a.type();
    if (t.is_float()) return abs(a - b);
    // The difference of two n-bit values fits in n unsigned bits; unsigned subtraction wraps
    // to exactly that difference.
    Type u = UInt(t.bits(), t.lanes());
    Expr ua = cast(u, a), ub = cast(u, b);
    return select(a > b, ua - ub, ub - ua);
}

namespace {
Expr bit_count(const char *name, Expr x) {
    user_assert(x.defined()) << name << " of an undefined Expr";
    user_assert((x.type().is_int() || x.type().is_uint()) && !x.type().is_bool())
        << name << "(" << x << "): the argument is " << x.type() << "; it must be an integer";
    Type t = x.type();
    return Call::make(t, name, {std::move(x)}, Call::Intrinsic);
}

// Euclidean quotient and remainder of a / b, and whether they differ from the truncating ones
// (a negative, not a multiple of b).
struct TruncatingParts {
    Expr q, r, adjust;
};
TruncatingParts truncating_parts(const char *name, Expr &a, Expr &b) {
    user_assert(a.defined() && b.defined()) << name << " of an undefined Expr";
    match_types(a, b);
    user_assert((a.type().is_int() || a.type().is_uint()) && !a.type().is_bool())
        << name << "(" << a << ", " << b << "): the arguments are " << a.type() << "; they must be integers";
    Expr q = a / b, r = a % b;
    Expr adjust = a.type().is_uint() ? Expr() : (a < make_zero(a.type()) && r != make_zero(a.type()));
    return {q, r, adjust};
}
}  // namespace

Expr popcount(Expr x) { return bit_count(Call::popcount, std::move(x)); }
Expr count_leading_zeros(Expr x) { return bit_count(Call::count_leading_zeros, std::move(x)); }
Expr count_trailing_zeros(Expr x) { return bit_count(Call::count_trailing_zeros, std::move(x)); }

Expr reinterpret(Type t, Expr x) {
    user_assert(x.defined()) << "reinterpret of an undefined Expr";
    Type from = x.type();
    if (t.lanes() == 1) t = t.with_lanes(from.lanes());
    auto reinterpretable = [](Type u) { return !u.is_bool() && (!u.is_float() || u.bits() == 32 || u.bits() == 64); };
    user_assert(reinterpretable(from) && reinterpretable(t) && from.bits() == t.bits() && from.lanes() == t.lanes())
        << "reinterpret<" << t << ">(" << x << "): the argument is " << from
        << "; reinterpret needs the same number of bits per lane (integers or 32-/64-bit floats, not bool). "
        << "Use cast<" << t.element_of() << "> to convert the value instead";
    if (from == t) return x;
    return Call::make(t, Call::reinterpret, {std::move(x)}, Call::Intrinsic);
}

Expr div_round_to_zero(Expr a, Expr b) {
    TruncatingParts p = truncating_parts("div_round_to_zero", a, b);
    if (!p.adjust.defined()) return p.q;
    // a = q b + r with 0 <= r < |b|; for a negative a with r > 0 the truncated quotient is one
    // step towards zero: q + sign(b).
    Type t = a.type();
    return p.q + select(p.adjust, select(b < make_zero(t), make_zero(t) - make_one(t), make_one(t)), make_zero(t));
}

Expr mod_round_to_zero(Expr a, Expr b) {
    TruncatingParts p = truncating_parts("mod_round_to_zero", a, b);
    if (!p.adjust.defined()) return p.r;
    // The remainder with a's sign: r - |b|, written r + b or r - b so that |MIN| never appears.
    Type t = a.type();
    return select(p.adjust, p.r + select(b < make_zero(t), b, make_zero(t) - b), p.r);
}

namespace {

// e with `lanes` lanes: a scalar is broadcast (lerp's values and weight may differ in lanes).
Expr with_lanes(const Expr &e, int lanes) {
    if (e.type().lanes() == lanes) return e;
    return Broadcast::make(e, lanes);
}

// The weight of an integer lerp as an unsigned integer u of the values' width: the lerp goes
// u / (2^bits - 1) of the way. As Halide computes it: a float weight is scaled by 2^bits - 1
// in its own type and truncated (clamped to [0, 1] first: out of range, Halide's conversion
// is undefined), an unsigned weight is rescaled by a factor of (2^(n/2) + 1) per halving of
// the width (65535 = 255 * 257), dividing (so truncating) when it is wider than the values.
Expr integer_lerp_weight(const Expr &weight, Type u) {
    Type wt = weight.type();
    if (wt.is_float()) {
        Expr w = clamp(weight, make_const(wt, 0.0), make_const(wt, 1.0));
        if (u.bits() == 32) {
            // 2^32 - 1 = 65535 * 65537, in double so that every weight keeps its precision.
            Type f64 = Float(64, wt.lanes());
            return cast(u, make_const(f64, 65535.0 * 65537.0) * cast(f64, w));
        }
        return cast(u, make_const(wt, double((uint64_t(1) << u.bits()) - 1)) * w);
    }
    if (wt.bits() == u.bits()) return weight;
    int narrow = std::min(wt.bits(), u.bits()), wide = std::max(wt.bits(), u.bits());
    uint64_t factor = 1;
    for (int shift = narrow, left = wide - narrow; left > 0; left -= shift, shift *= 2) factor += factor << shift;
    if (wt.bits() < u.bits()) return cast(u, weight) * make_const(u, int64_t(factor));
    return cast(u, weight / make_const(wt, int64_t(factor)));
}

}  // namespace

Expr lerp(Expr zero_val, Expr one_val, Expr weight) {
    user_assert(zero_val.defined() && one_val.defined() && weight.defined()) << "lerp of an undefined Expr";
    // As in Halide, an integer constant takes the other value's type: lerp(0, cast<uint8_t>(x), w).
    if (zero_val.as<IntImm>() && !one_val.as<IntImm>()) zero_val = cast(one_val.type(), zero_val);
    if (one_val.as<IntImm>() && !zero_val.as<IntImm>()) one_val = cast(zero_val.type(), one_val);
    user_assert(zero_val.type() == one_val.type())
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the values are " << zero_val.type()
        << " and " << one_val.type() << "; lerp needs both of one type (cast one of them)";
    Type wt = weight.type();
    user_assert(wt.is_float() || (wt.is_uint() && !wt.is_bool()))
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the weight is " << wt
        << "; it must be a float in [0, 1] or an unsigned integer (a fraction of its maximum)";
    // As in Halide, 64-bit integer values or weights are refused (their products would need
    // 128 bits); float64 values are fine.
    user_assert((zero_val.type().is_float() || zero_val.type().bits() <= 32) && (wt.is_float() || wt.bits() <= 32))
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): 64-bit integer values or weights are "
        << "not supported (as in Halide); lerp in 32 bits or in float64 instead";
    Expr wc = weight.as<Broadcast>() ? weight.as<Broadcast>()->value : weight;
    if (const FloatImm *c = wc.as<FloatImm>(); c && !zero_val.type().is_float()) {
        // A constant weight outside [0, 1] of integer values is a mistake (Halide refuses it
        // too); float values extrapolate (lerp(0.0f, 1.0f, 2.0f) is 2, as in Halide).
        user_assert(c->value >= 0.0 && c->value <= 1.0)
            << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the constant float weight " << c->value
            << " is not in [0, 1]; a float weight is the fraction of the way from the first value to the second";
    }
    int lanes = std::max<int>(zero_val.type().lanes(), wt.lanes());
    zero_val = with_lanes(zero_val, lanes), one_val = with_lanes(one_val, lanes), weight = with_lanes(weight, lanes);
    Type t = zero_val.type();
    wt = weight.type();
    if (t.is_float()) {
        Expr w = weight;
        if (!wt.is_float()) {
            // As Halide: the fraction of the weight's maximum, in float32 below 32 bits (in
            // float64 for float64 values: lerp(-2.25, 100.1, uint8 1) was off by 2.4e-8).
            Type ft = wt.bits() == 32 || t.bits() == 64 ? Float(64, lanes) : Float(32, lanes);
            w = cast(ft, weight) / make_const(ft, double((uint64_t(1) << wt.bits()) - 1));
        }
        w = cast(t, w);
        return zero_val * (make_const(t, 1.0) - w) + one_val * w;
    }
    if (t.is_bool()) {
        Expr half = wt.is_float() ? make_const(wt, 0.5) : make_const(wt, int64_t(((uint64_t(1) << wt.bits()) - 1) / 2));
        return select(weight > half, one_val, zero_val);
    }
    // Integers: in the unsigned type of their width, signed values shifted by -MIN (wrapping).
    Type u = UInt(t.bits(), lanes), wide = UInt(2 * t.bits(), lanes);
    Expr bias = t.is_int() ? cast(u, t.min()) : Expr();
    Expr z = cast(u, zero_val), o = cast(u, one_val);
    if (bias.defined()) z = z - bias, o = o - bias;
    Expr w = integer_lerp_weight(weight, u);
    Expr inverse = make_const(u, int64_t((uint64_t(1) << t.bits()) - 1)) - w;
    // (z (M - w) + o w) / M rounded to nearest, with M = 2^bits - 1: ((p >> bits) + p) >> bits
    // for p = the sum + 2^(bits - 1) is exactly that, without a division.
    Expr p = cast(wide, z) * cast(wide, inverse) + cast(wide, o) * cast(wide, w) +
             make_const(wide, int64_t(1) << (t.bits() - 1));
    Expr r = cast(u, ((p >> t.bits()) + p) >> t.bits());
    if (bias.defined()) r = r + bias;
    return cast(t, r);
}

Expr fast_sin(Expr x) { return sin(std::move(x)); }
Expr fast_cos(Expr x) { return cos(std::move(x)); }

namespace {
// Halide's fast_integer_divide and _modulo take an integer numerator of up to 32 bits and a
// uint8 denominator; the result has the numerator's type.
void check_fast_integer_args(const Expr &a, const Expr &b, const char *fn) {
    user_assert(a.defined() && b.defined()) << fn << "() of an undefined Expr";
    user_assert((a.type().is_int() || a.type().is_uint()) && a.type().bits() <= 32)
        << fn << "(" << a << ", " << b << "): the numerator has type " << a.type().to_string()
        << "; give an integer of 8, 16 or 32 bits";
    user_assert(b.type().element_of() == UInt(8))
        << fn << "(" << a << ", " << b << "): the denominator has type " << b.type().to_string()
        << "; give a uint8 (cast<uint8_t>(...)), as Halide requires";
}
}  // namespace

namespace {
// The result's type: the numerator's, with the lanes of the wider argument.
Type fast_integer_result_type(const Expr &numerator, const Expr &denominator) {
    return numerator.type().with_lanes(std::max(numerator.type().lanes(), denominator.type().lanes()));
}
// The type to divide in: t, or for 8 bits the 16-bit type of t's signedness, which holds every
// uint8 denominator (int8 cannot hold 128..255) and 256.
Type fast_integer_work_type(Type t) { return t.bits() == 8 ? t.with_bits(16) : t; }
}  // namespace

// As Halide defines them: a denominator of 0 means 256 for the division, and the remainder is
// numerator - quotient * denominator, so a 0 denominator leaves the numerator.
Expr fast_integer_divide(Expr numerator, Expr denominator) {
    check_fast_integer_args(numerator, denominator, "fast_integer_divide");
    Type t = fast_integer_result_type(numerator, denominator);
    Type w = fast_integer_work_type(t);
    Expr d = cast(w, denominator);
    d = select(denominator == 0, make_const(w, int64_t(256)), d);
    return cast(t, cast(w, numerator) / d);
}
Expr fast_integer_modulo(Expr numerator, Expr denominator) {
    check_fast_integer_args(numerator, denominator, "fast_integer_modulo");
    Type t = fast_integer_result_type(numerator, denominator);
    Type w = fast_integer_work_type(t);
    // Euclidean % is numerator - quotient * denominator for every other denominator, without
    // the product's overflow (int32 MIN - MIN / 3 * 3 would overflow).
    Expr r = cast(t, cast(w, numerator) % cast(w, denominator));
    Expr n = t.lanes() == numerator.type().lanes() ? numerator : Expr(Broadcast::make(numerator, t.lanes()));
    return select(denominator == 0, n, r);
}

Expr fast_log(Expr x) { return log(std::move(x)); }
Expr fast_exp(Expr x) { return exp(std::move(x)); }
Expr fast_pow(Expr x, Expr y) { return pow(std::move(x), std::move(y)); }
Expr fast_inverse_sqrt(Expr x) {
    x = to_float(std::move(x), "fast_inverse_sqrt");
    return make_const(x.type().element_of(), 1.0) / sqrt(x);
}

}  // namespace halo
