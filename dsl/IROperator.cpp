#include "IROperator.h"

#include <cmath>

#include "Arithmetic.h"
#include "Error.h"

namespace halo {

namespace {

bool is_literal(const Expr &e) {
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>();
}

// Converts a constant to type t, complaining if that changes its value.
Expr coerce_literal(const Expr &lit, Type t) {
    if (auto i = lit.as<IntImm>()) {
        user_assert(t.is_float() || t.can_represent(i->value))
            << "Integer constant " << i->value << " would be implicitly coerced to type "
            << t.to_string() << ", which changes its value; cast it explicitly with cast<>()";
        return make_const(t, i->value);
    }
    if (auto u = lit.as<UIntImm>()) return make_const(t, int64_t(u->value));
    if (auto f = lit.as<FloatImm>()) {
        if (t.is_float()) return make_const(t, f->value);
        return make_const(Float(32, t.lanes), f->value);
    }
    return cast(t, lit);
}

Expr broadcast_to(const Expr &e, int lanes) {
    if (e.type().lanes == lanes) return e;
    internal_assert(e.type().lanes == 1) << "cannot broadcast a vector of " << e.type().lanes
                                         << " lanes to " << lanes;
    return Broadcast::make(e, lanes);
}

}  // namespace

void match_types(Expr &a, Expr &b) {
    user_assert(a.defined() && b.defined()) << "Use of an undefined Expr in an operation";
    int lanes = std::max(a.type().lanes, b.type().lanes);
    a = broadcast_to(a, lanes);
    b = broadcast_to(b, lanes);
    Type ta = a.type(), tb = b.type();
    if (ta == tb) return;
    // A literal on one side takes the type of the other (floats win over ints).
    bool la = is_literal(a.as<Broadcast>() ? a.as<Broadcast>()->value : a);
    bool lb = is_literal(b.as<Broadcast>() ? b.as<Broadcast>()->value : b);
    if (lb && !la && !(tb.is_float() && !ta.is_float())) {
        b = coerce_literal(b.as<Broadcast>() ? b.as<Broadcast>()->value : b, ta.element_of());
        b = broadcast_to(b, lanes);
        return;
    }
    if (la && !lb && !(ta.is_float() && !tb.is_float())) {
        a = coerce_literal(a.as<Broadcast>() ? a.as<Broadcast>()->value : a, tb.element_of());
        a = broadcast_to(a, lanes);
        return;
    }
    if (ta.is_float() || tb.is_float()) {
        int bits = std::max(ta.is_float() ? int(ta.bits) : 0, tb.is_float() ? int(tb.bits) : 0);
        Type t = Float(bits, lanes);
        if (ta != t) a = Cast::make(t, a);
        if (tb != t) b = Cast::make(t, b);
        return;
    }
    if (ta.is_bool() != tb.is_bool()) {
        // bool meets an integer: the bool becomes that integer type
        if (ta.is_bool()) a = Cast::make(tb, a);
        else b = Cast::make(ta, b);
        return;
    }
    Type t;
    if (ta.code == tb.code) {
        t = ta.bits > tb.bits ? ta : tb;
    } else if (ta.bits == tb.bits) {
        t = Int(ta.bits, lanes);
    } else {
        t = ta.bits > tb.bits ? ta : tb;
    }
    if (ta != t) a = Cast::make(t, a);
    if (tb != t) b = Cast::make(t, b);
}

namespace {
template <typename Node>
Expr binary(Expr a, Expr b) {
    match_types(a, b);
    return Node::make(std::move(a), std::move(b));
}
Expr as_bool(Expr e, const char *op) {
    user_assert(e.defined()) << "Use of an undefined Expr in " << op;
    if (e.type().is_bool()) return e;
    return binary<NE>(e, make_zero(e.type()));
}
}  // namespace

Expr operator+(Expr a, Expr b) { return binary<Add>(std::move(a), std::move(b)); }
Expr operator-(Expr a, Expr b) { return binary<Sub>(std::move(a), std::move(b)); }
Expr operator*(Expr a, Expr b) { return binary<Mul>(std::move(a), std::move(b)); }
Expr operator/(Expr a, Expr b) { return binary<Div>(std::move(a), std::move(b)); }
Expr operator%(Expr a, Expr b) { return binary<Mod>(std::move(a), std::move(b)); }
Expr operator-(Expr a) {
    user_assert(a.defined()) << "Negation of an undefined Expr";
    return Sub::make(make_zero(a.type()), a);
}
Expr operator==(Expr a, Expr b) { return binary<EQ>(std::move(a), std::move(b)); }
Expr operator!=(Expr a, Expr b) { return binary<NE>(std::move(a), std::move(b)); }
Expr operator<(Expr a, Expr b) { return binary<LT>(std::move(a), std::move(b)); }
Expr operator<=(Expr a, Expr b) { return binary<LE>(std::move(a), std::move(b)); }
Expr operator>(Expr a, Expr b) { return binary<GT>(std::move(a), std::move(b)); }
Expr operator>=(Expr a, Expr b) { return binary<GE>(std::move(a), std::move(b)); }
Expr operator&&(Expr a, Expr b) {
    return binary<And>(as_bool(std::move(a), "&&"), as_bool(std::move(b), "&&"));
}
Expr operator||(Expr a, Expr b) {
    return binary<Or>(as_bool(std::move(a), "||"), as_bool(std::move(b), "||"));
}
Expr operator!(Expr a) { return Not::make(as_bool(std::move(a), "!")); }

namespace {
Expr bitwise(const char *name, Expr a, Expr b) {
    match_types(a, b);
    user_assert(!a.type().is_float()) << "Bitwise operator " << name
                                      << " applied to floating-point type "
                                      << a.type().to_string() << "; cast to an integer first";
    Type t = a.type();
    return Call::make(t, name, {std::move(a), std::move(b)}, Call::Intrinsic);
}
}  // namespace

Expr operator&(Expr a, Expr b) { return bitwise(Call::bitwise_and, std::move(a), std::move(b)); }
Expr operator|(Expr a, Expr b) { return bitwise(Call::bitwise_or, std::move(a), std::move(b)); }
Expr operator^(Expr a, Expr b) { return bitwise(Call::bitwise_xor, std::move(a), std::move(b)); }
namespace {
// The result has a's type; the amount keeps its own type (and signedness, which decides
// whether a negative amount shifts the other way).
Expr shift(const char *name, Expr a, Expr b) {
    user_assert(a.defined() && b.defined()) << "Shift of an undefined Expr";
    user_assert(!a.type().is_float() && !b.type().is_float())
        << "Shift of a floating-point value or by a floating-point amount; cast to an integer first";
    int lanes = std::max(a.type().lanes, b.type().lanes);
    a = broadcast_to(a, lanes);
    b = broadcast_to(b, lanes);
    Type t = a.type();
    return Call::make(t, name, {std::move(a), std::move(b)}, Call::Intrinsic);
}
}  // namespace
Expr operator<<(Expr a, Expr b) { return shift(Call::shift_left, std::move(a), std::move(b)); }
Expr operator>>(Expr a, Expr b) { return shift(Call::shift_right, std::move(a), std::move(b)); }
Expr operator~(Expr a) {
    user_assert(a.defined() && !a.type().is_float()) << "Operator ~ needs an integer Expr";
    Type t = a.type();
    return Call::make(t, Call::bitwise_not, {std::move(a)}, Call::Intrinsic);
}

#define HALO_LITERAL_OPS(OP)                                                                \
    Expr operator OP(Expr a, int b) { return std::move(a) OP Expr(int32_t(b)); }            \
    Expr operator OP(int a, Expr b) { return Expr(int32_t(a)) OP std::move(b); }            \
    Expr operator OP(Expr a, double b) {                                                    \
        user_assert(a.defined()) << "Use of an undefined Expr";                             \
        Type t = a.type().is_float() ? a.type() : Float(32, a.type().lanes);                \
        return std::move(a) OP make_const(t, b);                                            \
    }                                                                                       \
    Expr operator OP(double a, Expr b) {                                                    \
        user_assert(b.defined()) << "Use of an undefined Expr";                             \
        Type t = b.type().is_float() ? b.type() : Float(32, b.type().lanes);                \
        return make_const(t, a) OP std::move(b);                                            \
    }
HALO_LITERAL_OPS(+) HALO_LITERAL_OPS(-) HALO_LITERAL_OPS(*) HALO_LITERAL_OPS(/)
HALO_LITERAL_OPS(%) HALO_LITERAL_OPS(==) HALO_LITERAL_OPS(!=) HALO_LITERAL_OPS(<)
HALO_LITERAL_OPS(<=) HALO_LITERAL_OPS(>) HALO_LITERAL_OPS(>=)
#undef HALO_LITERAL_OPS

Expr &operator+=(Expr &a, Expr b) { return a = cast(a.type(), a + std::move(b)); }
Expr &operator-=(Expr &a, Expr b) { return a = cast(a.type(), a - std::move(b)); }
Expr &operator*=(Expr &a, Expr b) { return a = cast(a.type(), a * std::move(b)); }
Expr &operator/=(Expr &a, Expr b) { return a = cast(a.type(), a / std::move(b)); }

Expr select(Expr c, Expr t, Expr f) {
    user_assert(c.defined() && t.defined() && f.defined()) << "select of an undefined Expr";
    c = as_bool(std::move(c), "select");
    match_types(t, f);
    if (c.type().lanes != t.type().lanes) {
        int lanes = std::max(c.type().lanes, t.type().lanes);
        c = broadcast_to(c, lanes);
        t = broadcast_to(t, lanes);
        f = broadcast_to(f, lanes);
    }
    return Select::make(std::move(c), std::move(t), std::move(f));
}

Expr min(Expr a, Expr b) { return binary<Min>(std::move(a), std::move(b)); }
Expr max(Expr a, Expr b) { return binary<Max>(std::move(a), std::move(b)); }

Expr clamp(Expr x, Expr lo, Expr hi) {
    user_assert(x.defined() && lo.defined() && hi.defined()) << "clamp of an undefined Expr";
    Type t = x.type();
    lo = is_literal(lo) ? coerce_literal(lo, t.element_of()) : cast(t.element_of(), lo);
    hi = is_literal(hi) ? coerce_literal(hi, t.element_of()) : cast(t.element_of(), hi);
    return max(min(std::move(x), std::move(hi)), std::move(lo));
}

Expr abs(Expr x) {
    user_assert(x.defined()) << "abs of an undefined Expr";
    Type t = x.type();
    if (t.is_uint()) return x;
    Type rt = t.is_int() ? t.with_code(Type::UInt) : t;
    return Call::make(rt, Call::abs, {std::move(x)}, Call::Intrinsic);
}

Expr cast(Type t, Expr x) {
    user_assert(x.defined()) << "cast of an undefined Expr";
    if (x.type().lanes != t.lanes) {
        if (t.lanes == 1) t = t.with_lanes(x.type().lanes);
        else x = broadcast_to(x, t.lanes);
    }
    if (x.type() == t) return x;
    if (t.is_bool()) return x != make_zero(x.type());
    // Constants convert now (by the same rules as at run time).
    Expr v = x.as<Broadcast>() ? x.as<Broadcast>()->value : x;
    Type et = t.element_of();
    Expr folded;
    if (auto i = v.as<IntImm>()) {
        folded = et.is_float() ? make_const(et, double(i->value)) : make_const(et, i->value);
    } else if (auto u = v.as<UIntImm>()) {
        folded = et.is_float() ? make_const(et, double(u->value)) : make_const(et, int64_t(u->value));
    } else if (auto f = v.as<FloatImm>()) {
        folded = et.is_float() ? make_const(et, f->value) : make_const(et, saturating_float_to_int(et, f->value));
    }
    if (folded.defined()) return broadcast_to(folded, t.lanes);
    return Cast::make(t, std::move(x));
}

Expr saturating_cast(Type t, Expr x) {
    user_assert(x.defined()) << "saturating_cast of an undefined Expr";
    t = t.with_lanes(x.type().lanes);
    Type s = x.type();
    // Float sources: the conversion itself saturates (and NaN gives 0).
    if (t.is_float() || s.is_float()) return cast(t, x);
    // Integer to integer: compare in a type that holds both ranges.
    Type wide = Int(64, s.lanes);
    if (s.is_uint() && s.bits == 64) wide = s;
    Expr w = cast(wide, x);
    int64_t lo = t.min_int();
    int64_t hi = t.is_uint() && t.bits == 64 ? INT64_MAX : t.max_int();
    if (s.is_uint()) lo = 0;
    return cast(t, max(min(w, make_const(wide, hi)), make_const(wide, lo)));
}

namespace internal {
Expr make_intrinsic(Type t, const char *name, std::vector<Expr> args) {
    return Call::make(t, name, std::move(args), Call::Intrinsic);
}
Expr raw_add(Expr a, Expr b) { return Add::make(std::move(a), std::move(b)); }
}  // namespace internal

namespace {
Expr to_float(Expr x, const char *fn) {
    user_assert(x.defined()) << fn << " of an undefined Expr";
    if (x.type().is_float()) return x;
    return Cast::make(Float(32, x.type().lanes), x);
}
Expr math1(const char *name, Expr x) {
    x = to_float(std::move(x), name);
    Type t = x.type();
    return Call::make(t, name, {std::move(x)}, Call::Intrinsic);
}
}  // namespace

Expr sqrt(Expr x) { return math1("sqrt", std::move(x)); }
Expr exp(Expr x) { return math1("exp", std::move(x)); }
Expr log(Expr x) { return math1("log", std::move(x)); }
Expr floor(Expr x) { return math1("floor", std::move(x)); }
Expr ceil(Expr x) { return math1("ceil", std::move(x)); }
Expr round(Expr x) { return math1("round", std::move(x)); }
Expr trunc(Expr x) { return math1("trunc", std::move(x)); }
Expr sin(Expr x) { return math1("sin", std::move(x)); }
Expr cos(Expr x) { return math1("cos", std::move(x)); }
Expr tan(Expr x) { return math1("tan", std::move(x)); }
Expr fast_inverse(Expr x) { return 1.0f / to_float(std::move(x), "fast_inverse"); }
Expr pow(Expr x, Expr y) {
    x = to_float(std::move(x), "pow");
    y = to_float(std::move(y), "pow");
    match_types(x, y);
    Type t = x.type();
    return Call::make(t, "pow", {std::move(x), std::move(y)}, Call::Intrinsic);
}
Expr atan2(Expr y, Expr x) {
    y = to_float(std::move(y), "atan2");
    x = to_float(std::move(x), "atan2");
    match_types(y, x);
    Type t = y.type();
    return Call::make(t, "atan2", {std::move(y), std::move(x)}, Call::Intrinsic);
}
Expr likely(Expr x) {
    Type t = x.type();
    return Call::make(t, Call::likely, {std::move(x)}, Call::Intrinsic);
}

}  // namespace halo
