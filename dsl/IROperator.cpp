#include "IROperator.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "Arithmetic.h"
#include "Error.h"
#include "IRPrinter.h"
#include "LosslessCast.h"

namespace halo {

namespace {

Expr broadcast_to(const Expr &e, int lanes) {
    if (e.type().lanes() == lanes) return e;
    internal_assert(e.type().lanes() == 1) << "cannot broadcast a vector of " << e.type().lanes()
                                         << " lanes to " << lanes;
    return Broadcast::make(e, lanes);
}

// Scalar and vector operands get the same number of lanes.
void match_lanes(Expr &a, Expr &b) {
    int la = a.type().lanes(), lb = b.type().lanes();
    user_assert(la == lb || la == 1 || lb == 1)
        << "Cannot combine a vector of " << la << " lanes with a vector of " << lb << " lanes";
    int lanes = std::max(la, lb);
    a = broadcast_to(a, lanes);
    b = broadcast_to(b, lanes);
}

// The value of an integer constant (IntImm, or a Broadcast of one), if e is one.
const int64_t *int_constant(const Expr &e) {
    if (auto b = e.as<Broadcast>()) return as_const_int(b->value);
    return as_const_int(e);
}

std::string type_name(Type t) { return t.element_of().to_string(); }

// The text of v after an implicit conversion to t.
std::string converted_text(Type t, int64_t v) {
    Type et = t.element_of();
    if (et.is_float()) {
        std::ostringstream s;
        s << std::setprecision(17) << (et.bits() == 32 ? double(float(v)) : double(v));
        return s.str();
    }
    int64_t w = wrap_to_type(et, v);
    return et.is_uint() && et.bits() == 64 ? std::to_string(uint64_t(w)) : std::to_string(w);
}

// The C++ int literal v as a constant of type t; it must keep its value.
Expr coerce_int(int64_t v, Type t) {
    user_assert(t.can_represent(v))
        << "Integer constant " << v << " would be implicitly coerced to type " << type_name(t)
        << ", which changes its value to " << converted_text(t, v)
        << "; cast the other operand to a wider type, or cast the constant explicitly";
    return make_const(t, v);
}

// A C++ float or double literal next to an Expr of type t: a float constant of t's float
// type, or Float(32) next to an integer type.
Expr float_literal(double v, Type t) {
    return make_const(t.is_float() ? t : Float(32, t.lanes()), v);
}

}  // namespace

void match_types(Expr &a, Expr &b) {
    user_assert(a.defined() && b.defined()) << "Use of an undefined Expr in an operation";
    if (a.type() == b.type()) return;
    match_lanes(a, b);
    Type ta = a.type(), tb = b.type();
    if (ta == tb) return;
    Type t;
    if (ta.is_float() != tb.is_float()) {
        t = ta.is_float() ? ta : tb;  // float meets non-float: the float type
    } else if (ta.code() == tb.code()) {
        t = ta.bits() >= tb.bits() ? ta : tb;  // both float, both unsigned or both signed: the wider
    } else {
        t = Int(std::max(ta.bits(), tb.bits()), ta.lanes());  // signed meets unsigned
    }
    a = cast(t, a);
    b = cast(t, b);
}

namespace {
template <typename Node>
Expr binary(Expr a, Expr b) {
    match_types(a, b);
    return Node::make(std::move(a), std::move(b));
}
// Expr op C++ int: the int takes the Expr's type.
template <typename Node>
Expr binary(Expr a, int b) {
    user_assert(a.defined()) << "Use of an undefined Expr in an operation";
    Expr c = coerce_int(b, a.type());
    return Node::make(std::move(a), std::move(c));
}
template <typename Node>
Expr binary(int a, Expr b) {
    user_assert(b.defined()) << "Use of an undefined Expr in an operation";
    Expr c = coerce_int(a, b.type());
    return Node::make(std::move(c), std::move(b));
}
template <typename Node>
Expr binary(Expr a, double b) {
    user_assert(a.defined()) << "Use of an undefined Expr in an operation";
    Expr c = float_literal(b, a.type());
    return binary<Node>(std::move(a), std::move(c));
}
template <typename Node>
Expr binary(double a, Expr b) {
    user_assert(b.defined()) << "Use of an undefined Expr in an operation";
    Expr c = float_literal(a, b.type());
    return binary<Node>(std::move(c), std::move(b));
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

#define HALO_LITERAL_OPS(OP, NODE)                                                               \
    Expr operator OP(Expr a, int b) { return binary<NODE>(std::move(a), b); }                    \
    Expr operator OP(int a, Expr b) { return binary<NODE>(a, std::move(b)); }                    \
    Expr operator OP(Expr a, double b) { return binary<NODE>(std::move(a), b); }                 \
    Expr operator OP(double a, Expr b) { return binary<NODE>(a, std::move(b)); }
HALO_LITERAL_OPS(+, Add) HALO_LITERAL_OPS(-, Sub) HALO_LITERAL_OPS(*, Mul) HALO_LITERAL_OPS(/, Div)
HALO_LITERAL_OPS(%, Mod) HALO_LITERAL_OPS(==, EQ) HALO_LITERAL_OPS(!=, NE) HALO_LITERAL_OPS(<, LT)
HALO_LITERAL_OPS(<=, LE) HALO_LITERAL_OPS(>, GT) HALO_LITERAL_OPS(>=, GE)
#undef HALO_LITERAL_OPS

namespace {
void check_integer_operand(const Expr &e, const char *name, const char *which) {
    user_assert(e.defined()) << "Bitwise operator " << name << " of an undefined Expr";
    user_assert(!e.type().is_float())
        << "Bitwise operator " << name << ": the " << which << " operand has floating-point type "
        << type_name(e.type()) << "; cast it to an integer type first";
}
Expr bitwise(const char *op, const char *name, Expr a, Expr b) {
    check_integer_operand(a, op, "first");
    check_integer_operand(b, op, "second");
    user_assert(a.type().is_int() == b.type().is_int())
        << "Bitwise operator " << op << " of " << type_name(a.type()) << " and " << type_name(b.type())
        << ": the operands must be both signed or both unsigned; cast one of them to the other's type";
    match_lanes(a, b);
    int bits = std::max(a.type().bits(), b.type().bits());
    a = cast(a.type().with_bits(bits), a);
    b = cast(b.type().with_bits(bits), b);
    Type t = a.type();
    return Call::make(t, name, {std::move(a), std::move(b)}, Call::Intrinsic);
}
Expr bitwise(const char *op, const char *name, Expr a, int b) {
    check_integer_operand(a, op, "first");
    Expr c = coerce_int(b, a.type());
    Type t = a.type();
    return Call::make(t, name, {std::move(a), std::move(c)}, Call::Intrinsic);
}
Expr bitwise(const char *op, const char *name, int a, Expr b) {
    check_integer_operand(b, op, "second");
    Expr c = coerce_int(a, b.type());
    Type t = b.type();
    return Call::make(t, name, {std::move(c), std::move(b)}, Call::Intrinsic);
}
// As Halide's match_bits: both operands widen to the wider of their widths, each keeping its
// signedness (u8 << u16 is uint16, i8 >> u32 is int32); the result has a's widened type, and
// the amount's signedness decides whether a negative amount shifts the other way.
Expr shift(const char *op, const char *name, Expr a, Expr b) {
    check_integer_operand(a, op, "first");
    check_integer_operand(b, op, "second");
    match_lanes(a, b);
    int bits = std::max(a.type().bits(), b.type().bits());
    a = cast(a.type().with_bits(bits), a);
    b = cast(b.type().with_bits(bits), b);
    Type t = a.type();
    return Call::make(t, name, {std::move(a), std::move(b)}, Call::Intrinsic);
}
}  // namespace

Expr operator&(Expr a, Expr b) { return bitwise("&", Call::bitwise_and, std::move(a), std::move(b)); }
Expr operator|(Expr a, Expr b) { return bitwise("|", Call::bitwise_or, std::move(a), std::move(b)); }
Expr operator^(Expr a, Expr b) { return bitwise("^", Call::bitwise_xor, std::move(a), std::move(b)); }
Expr operator&(Expr a, int b) { return bitwise("&", Call::bitwise_and, std::move(a), b); }
Expr operator&(int a, Expr b) { return bitwise("&", Call::bitwise_and, a, std::move(b)); }
Expr operator|(Expr a, int b) { return bitwise("|", Call::bitwise_or, std::move(a), b); }
Expr operator|(int a, Expr b) { return bitwise("|", Call::bitwise_or, a, std::move(b)); }
Expr operator^(Expr a, int b) { return bitwise("^", Call::bitwise_xor, std::move(a), b); }
Expr operator^(int a, Expr b) { return bitwise("^", Call::bitwise_xor, a, std::move(b)); }
Expr operator<<(Expr a, Expr b) { return shift("<<", Call::shift_left, std::move(a), std::move(b)); }
Expr operator>>(Expr a, Expr b) { return shift(">>", Call::shift_right, std::move(a), std::move(b)); }
namespace {
// x << int and x >> int: the amount as a constant of x's width (a negative one flips the
// direction, as it would at run time).
Expr shift_by_literal(const char *op, Expr a, int b, bool left) {
    check_integer_operand(a, op, "first");
    if (b < 0) left = !left;
    Type t = a.type().with_code(Type::UInt);
    Expr amount = coerce_int(b < 0 ? -int64_t(b) : int64_t(b), t);
    Type rt = a.type();
    return Call::make(rt, left ? Call::shift_left : Call::shift_right, {std::move(a), std::move(amount)},
                      Call::Intrinsic);
}
}  // namespace
Expr operator<<(Expr a, int b) { return shift_by_literal("<<", std::move(a), b, true); }
Expr operator>>(Expr a, int b) { return shift_by_literal(">>", std::move(a), b, false); }
Expr operator~(Expr a) {
    check_integer_operand(a, "~", "");
    Type t = a.type();
    return Call::make(t, Call::bitwise_not, {std::move(a)}, Call::Intrinsic);
}

namespace {
// a op= b keeps a's type (as in Halide): b is cast to it, a scalar side broadcast.
template <typename Node>
Expr &compound_assign(Expr &a, Expr b, const char *op) {
    user_assert(a.defined() && b.defined()) << "operator" << op << " with an undefined Expr";
    Expr widened = a;
    match_lanes(widened, b);
    return a = Node::make(widened, cast(widened.type(), std::move(b)));
}
}  // namespace
Expr &operator+=(Expr &a, Expr b) { return compound_assign<Add>(a, std::move(b), "+="); }
Expr &operator-=(Expr &a, Expr b) { return compound_assign<Sub>(a, std::move(b), "-="); }
Expr &operator*=(Expr &a, Expr b) { return compound_assign<Mul>(a, std::move(b), "*="); }
Expr &operator/=(Expr &a, Expr b) { return compound_assign<Div>(a, std::move(b), "/="); }

namespace {
// A constant select arm takes the other arm's type, as in Halide: an integer constant by a
// cast, which wraps a constant the type cannot hold (select(c, u8_value, 300) selects 44); a
// float constant (Halo's C++ double literals are float64) when the other arm is a float.
Expr coerce_arm(const Expr &arm, Type other) {
    if (arm.type().element_of() == other.element_of()) return arm;
    Expr v = arm.as<Broadcast>() ? arm.as<Broadcast>()->value : arm;
    bool float_constant_to_float = v.as<FloatImm>() && other.is_float();
    if (!int_constant(arm) && !float_constant_to_float) return arm;
    return cast(other.element_of().with_lanes(arm.type().lanes()), arm);
}
}  // namespace

Expr select(Expr c, Expr t, Expr f) {
    user_assert(c.defined() && t.defined() && f.defined()) << "select of an undefined Expr";
    c = as_bool(std::move(c), "select");
    if (int_constant(t)) {
        t = coerce_arm(t, f.type());
    } else if (int_constant(f)) {
        f = coerce_arm(f, t.type());
    } else {
        t = coerce_arm(t, f.type());
        f = coerce_arm(f, t.type());
    }
    // Halide's select converts nothing else: silently widening or rounding one arm is how
    // wrong answers hide, so differing arm types are refused.
    user_assert(t.type().element_of() == f.type().element_of())
        << "select(condition, true_value, false_value): the true value (" << t << ") has type "
        << type_name(t.type()) << " and the false value (" << f << ") has type " << type_name(f.type())
        << "; select does not convert between types, as in Halide: cast one value to the other's type";
    match_lanes(t, f);
    if (c.type().lanes() != t.type().lanes()) {
        int lanes = std::max(c.type().lanes(), t.type().lanes());
        c = broadcast_to(c, lanes);
        t = broadcast_to(t, lanes);
        f = broadcast_to(f, lanes);
    }
    return Select::make(std::move(c), std::move(t), std::move(f));
}

Expr min(Expr a, Expr b) { return binary<Min>(std::move(a), std::move(b)); }
Expr max(Expr a, Expr b) { return binary<Max>(std::move(a), std::move(b)); }
Expr min(Expr a, int b) { return binary<Min>(std::move(a), b); }
Expr min(int a, Expr b) { return binary<Min>(a, std::move(b)); }
Expr min(Expr a, double b) { return binary<Min>(std::move(a), b); }
Expr min(double a, Expr b) { return binary<Min>(a, std::move(b)); }
Expr max(Expr a, int b) { return binary<Max>(std::move(a), b); }
Expr max(int a, Expr b) { return binary<Max>(a, std::move(b)); }
Expr max(Expr a, double b) { return binary<Max>(std::move(a), b); }
Expr max(double a, Expr b) { return binary<Max>(a, std::move(b)); }

namespace {
// A clamp bound in x's type t, as Halide's clamp takes it: only where no value of the bound can
// change (lossless_cast), so a bound that might not fit t is refused instead of wrapping. A
// float constant bound of a float x rounds to x's type, as float literals do elsewhere (Halo's
// C++ double literals are float64 constants).
Expr clamp_bound(const Expr &bound, Type t, const char *which) {
    Type et = t.element_of();
    Expr v = bound.as<Broadcast>() ? bound.as<Broadcast>()->value : bound;
    if (et.is_float() && v.as<FloatImm>()) return cast(et, bound);
    Expr converted = lossless_cast(et, bound);
    if (converted.defined()) return converted;
    std::ostringstream text;
    if (auto i = v.as<IntImm>()) text << i->value;
    else if (auto u = v.as<UIntImm>()) text << u->value;
    else if (auto f = v.as<FloatImm>()) text << f->value;
    else text << "(" << bound << ") of type " << type_name(bound.type());
    user_assert(false) << "clamp(x, lo, hi) with x of type " << type_name(t) << ": the " << which
                       << " bound " << text.str() << " is not representable in " << type_name(t)
                       << " (clamp converts its bounds only where no value can change, as in Halide); "
                       << "cast the bound to " << type_name(t) << " explicitly, or cast x to a type that holds it";
    return Expr();
}
}  // namespace

Expr clamp(Expr x, Expr lo, Expr hi) {
    user_assert(x.defined() && lo.defined() && hi.defined()) << "clamp of an undefined Expr";
    Type t = x.type();
    lo = clamp_bound(lo, t, "lower");
    hi = clamp_bound(hi, t, "upper");
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
    if (x.type().lanes() != t.lanes()) {
        if (t.lanes() == 1) t = t.with_lanes(x.type().lanes());
        else x = broadcast_to(x, t.lanes());
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
    if (folded.defined()) return broadcast_to(folded, t.lanes());
    return Cast::make(t, std::move(x));
}

Expr saturating_cast(Type t, Expr x) {
    user_assert(x.defined()) << "saturating_cast of an undefined Expr";
    t = t.with_lanes(x.type().lanes());
    Type s = x.type();
    // The same type: every value fits (a uint64 was once clamped to INT64_MAX below).
    if (s == t) return x;
    // Float sources: the conversion itself saturates (and NaN gives 0).
    if (t.is_float() || s.is_float()) return cast(t, x);
    // Integer to integer: compare in a type that holds both ranges.
    Type wide = Int(64, s.lanes());
    if (s.is_uint() && s.bits() == 64) wide = s;
    Expr w = cast(wide, x);
    int64_t lo = t.min_int();
    int64_t hi = t.is_uint() && t.bits() == 64 ? INT64_MAX : t.max_int();
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
    return Cast::make(Float(32, x.type().lanes()), x);
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
namespace {
// x^p by squaring and multiplying in x's own type, as Halide 14 expands pow by an integer
// constant (integers wrap as their multiplication does; a negative p divides 1 by x^-p).
Expr raise_to_integer_power(const Expr &x, int64_t p) {
    if (p == 0) return make_one(x.type());
    if (p == 1) return x;
    if (p < 0) return make_one(x.type()) / raise_to_integer_power(x, p == INT64_MIN ? INT64_MAX : -p);
    Expr half = raise_to_integer_power(x, p / 2);
    Expr square = half * half;
    return p % 2 ? square * x : square;
}
// A function of two floats, converted as Halide 14 converts them: the second takes the first's
// type where the first is a float (pow(f64, i32) is float64, pow(f32, f64) float32); otherwise
// both become Float(32).
void two_float_args(Expr &a, Expr &b, const char *fn) {
    user_assert(a.defined() && b.defined()) << fn << " of an undefined Expr";
    match_lanes(a, b);
    Type t = a.type().is_float() ? a.type() : Float(32, a.type().lanes());
    a = cast(t, a);
    b = cast(t, b);
}
}  // namespace
Expr pow(Expr x, Expr y) {
    user_assert(x.defined() && y.defined()) << "pow of an undefined Expr";
    if (const int64_t *p = int_constant(y)) {
        if (x.type().lanes() < y.type().lanes()) x = broadcast_to(x, y.type().lanes());
        return raise_to_integer_power(x, *p);
    }
    two_float_args(x, y, "pow");
    Type t = x.type();
    return Call::make(t, "pow", {std::move(x), std::move(y)}, Call::Intrinsic);
}
Expr atan2(Expr y, Expr x) {
    two_float_args(y, x, "atan2");
    Type t = y.type();
    return Call::make(t, "atan2", {std::move(y), std::move(x)}, Call::Intrinsic);
}
Expr likely(Expr x) {
    Type t = x.type();
    return Call::make(t, Call::likely, {std::move(x)}, Call::Intrinsic);
}
Expr store_guard(Expr condition) {
    Type t = condition.type();
    return Call::make(t, Call::store_guard, {std::move(condition)}, Call::Intrinsic);
}
bool is_store_guard(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(Call::store_guard);
}
bool is_value_hint(const Call &c) {
    return c.is_intrinsic(Call::likely) || c.is_intrinsic(Call::store_guard) || c.is_intrinsic(Call::strict_float);
}

Expr call_argument(Expr a, const std::string &callee, size_t index) {
    user_assert(a.defined()) << callee << " called with an undefined Expr as argument " << index;
    Type t = a.type();
    user_assert(!t.is_float()) << callee << " called with an Expr of type " << t.to_string() << " as argument "
                               << index << ": coordinates are integers (use cast<int>())";
    user_assert(t.bits() <= 16 || t == Int(32))
        << callee << " called with an Expr of type " << t.to_string() << " as argument " << index
        << ": as in Halide, only int32 and 8- or 16-bit integers are cast implicitly to an int32 "
        << "coordinate; use an explicit cast (cast<int>(...)) if its values fit";
    return t == Int(32) ? a : Cast::make(Int(32), a);
}

}  // namespace halo
