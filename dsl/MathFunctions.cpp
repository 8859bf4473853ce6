#include "MathFunctions.h"

#include "Error.h"
#include "IRPrinter.h"

namespace halo {

namespace {

Expr to_float(Expr x, const char *fn) {
    user_assert(x.defined()) << fn << " of an undefined Expr";
    if (x.type().is_float()) return x;
    Type f32 = Float(32, x.type().lanes);  // before x is moved from
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
    Type t = Bool(x.type().lanes);
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
Expr hypot(Expr x, Expr y) { return libm_call("hypot", {std::move(x), std::move(y)}); }
Expr erf(Expr x) { return libm_call("erf", {std::move(x)}); }

Expr is_nan(Expr x) { return float_class("is_nan", std::move(x)); }
Expr is_inf(Expr x) { return float_class("is_inf", std::move(x)); }
Expr is_finite(Expr x) { return float_class("is_finite", std::move(x)); }

Expr fract(Expr x) {
    x = to_float(std::move(x), "fract");
    return x - floor(x);
}

Expr absd(Expr a, Expr b) {
    user_assert(a.defined() && b.defined()) << "absd of an undefined Expr";
    match_types(a, b);
    Type t = a.type();
    if (t.is_float()) return abs(a - b);
    // The difference of two n-bit values fits in n unsigned bits; unsigned subtraction wraps
    // to exactly that difference.
    Type u = UInt(t.bits, t.lanes);
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
    if (t.lanes == 1) t = t.with_lanes(from.lanes);
    auto reinterpretable = [](Type u) { return !u.is_bool() && (!u.is_float() || u.bits == 32 || u.bits == 64); };
    user_assert(reinterpretable(from) && reinterpretable(t) && from.bits == t.bits && from.lanes == t.lanes)
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

Expr lerp(Expr zero_val, Expr one_val, Expr weight) {
    user_assert(zero_val.defined() && one_val.defined() && weight.defined()) << "lerp of an undefined Expr";
    user_assert(zero_val.type() == one_val.type())
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the values are " << zero_val.type()
        << " and " << one_val.type() << "; lerp needs both of one type (cast one of them)";
    Type t = zero_val.type(), wt = weight.type();
    user_assert(wt.is_float() || (wt.is_uint() && !wt.is_bool()))
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the weight is " << wt
        << "; it must be a float in [0, 1] or an unsigned integer (a fraction of its maximum)";
    if (t.is_float()) {
        Expr w = wt.is_float() ? cast(t.with_lanes(wt.lanes), weight)
                               : cast(t.with_lanes(wt.lanes), weight) / make_const(t.element_of(), double(~uint64_t(0) >> (64 - wt.bits)));
        return zero_val * (1.0f - w) + one_val * w;
    }
    user_assert((t.is_int() || t.is_uint()) && (t.bits == 8 || t.bits == 16))
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): values of type " << t
        << " are not supported; lerp takes floats or 8- or 16-bit integers (cast to float for others)";
    user_assert(!wt.is_uint() || wt.bits <= 32)
        << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): a " << wt
        << " weight is not supported; use an unsigned weight of at most 32 bits or a float";
    const int64_t M = (int64_t(1) << t.bits) - 1;
    int lanes = std::max<int>(t.lanes, wt.lanes);
    Type i64 = Int(64, lanes);
    Expr w;  // the weight as an integer in [0, M]
    if (wt.is_float()) {
        // A constant weight outside [0, 1] is a mistake (Halide refuses it); a computed one is
        // clamped.
        Expr wc = weight.as<Broadcast>() ? weight.as<Broadcast>()->value : weight;
        if (const FloatImm *c = wc.as<FloatImm>()) {
            user_assert(c->value >= 0.0 && c->value <= 1.0)
                << "lerp(" << zero_val << ", " << one_val << ", " << weight << "): the constant float weight "
                << c->value << " of an integer lerp is not in [0, 1]; a float weight is the fraction of the way "
                << "from the first value to the second";
        }
        Type f64 = Float(64, wt.lanes);
        Expr wf = clamp(cast(f64, weight), make_const(f64, 0.0), make_const(f64, 1.0));
        w = cast(i64, round(wf * make_const(f64, double(M))));
    } else {
        const int64_t weight_max = (int64_t(1) << wt.bits) - 1;
        Type wi64 = Int(64, wt.lanes);
        Expr wi = cast(wi64, weight);
        // Rescaled to [0, M], rounded to nearest.
        w = weight_max == M ? wi
                            : (wi * make_const(wi64, M) + make_const(wi64, weight_max / 2)) / make_const(wi64, weight_max);
        if (wt.lanes != lanes) w = cast(i64, w);
    }
    Expr num = cast(i64, zero_val) * (make_const(i64, M) - w) + cast(i64, one_val) * w;
    // num / M rounded to the nearest integer: M is odd, so no quotient ends in exactly one half.
    Expr r = (num + make_const(i64, (M - 1) / 2)) / make_const(i64, M);
    return cast(t.with_lanes(lanes), r);
}

Expr fast_log(Expr x) { return log(std::move(x)); }
Expr fast_exp(Expr x) { return exp(std::move(x)); }
Expr fast_pow(Expr x, Expr y) { return pow(std::move(x), std::move(y)); }
Expr fast_inverse_sqrt(Expr x) {
    x = to_float(std::move(x), "fast_inverse_sqrt");
    return make_const(x.type().element_of(), 1.0) / sqrt(x);
}

}  // namespace halo
