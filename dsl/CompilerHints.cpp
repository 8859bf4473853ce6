#include "CompilerHints.h"

#include "Error.h"
#include "IROperator.h"
#include "IRPrinter.h"

namespace halo {

Expr likely_if_innermost(Expr x) {
    user_assert(x.defined()) << "likely_if_innermost() of an undefined Expr";
    return likely(std::move(x));
}

Expr strict_float(Expr x) {
    user_assert(x.defined()) << "strict_float() of an undefined Expr";
    Type t = x.type();
    return Call::make(t, Call::strict_float, {std::move(x)}, Call::Intrinsic);
}

namespace {
// A bound of unsafe_promise_clamped in value's type; undefined: the type's own limit. A
// constant of another type is cast when the type holds it; other Exprs must have the type.
Expr promise_bound(const Expr &bound, Type t, Expr limit, const char *which) {
    if (!bound.defined()) return limit;
    if (bound.type() == t) return bound;
    const int64_t *i = as_const_int(bound);
    user_assert(i && t.can_represent(*i))
        << "unsafe_promise_clamped: the " << which << " " << bound << " (of type " << bound.type().to_string()
        << ") is not a value of the promised Expr's type " << t.to_string() << "; give a bound of that type";
    return make_const(t, *i);
}
}  // namespace

Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    user_assert(value.defined()) << "unsafe_promise_clamped() of an undefined Expr";
    Type t = value.type();
    Expr lo = promise_bound(min, t, t.min(), "min");
    Expr hi = promise_bound(max, t, t.max(), "max");
    return Call::make(t, Call::unsafe_promise_clamped, {value, lo, hi}, Call::Intrinsic);
}

}  // namespace halo
