#include "CompilerHints.h"

#include "Error.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "IRVisitor.h"
#include "lower/CSE.h"

namespace halo {

Expr likely_if_innermost(Expr x) {
    user_assert(x.defined()) << "likely_if_innermost() of an undefined Expr";
    return likely(std::move(x));
}

Expr strict_float(Expr x) {
    user_assert(x.defined()) << "strict_float() of an undefined Expr";
    // Each float product inside is marked too, not only the whole: common subexpression
    // elimination may lift parts of x out of the call into lets, and a marked product is never
    // contracted with the add that uses it (a fused multiply-add needs both to allow it).
    // (Shared subexpressions become lets first, so the walk is linear in a graph.)
    struct MarkProducts : IRMutator {
        using IRMutator::visit;
        Expr visit(const Mul *op) override {
            Expr e = IRMutator::visit(op);
            if (!e.type().is_float()) return e;
            return Call::make(e.type(), Call::strict_float, {e}, Call::Intrinsic);
        }
    } mark;
    x = mark.mutate(common_subexpression_elimination(x));
    Type t = x.type();
    return Call::make(t, Call::strict_float, {std::move(x)}, Call::Intrinsic);
}

namespace {
// A bound of unsafe_promise_clamped in value's type, as Halide takes it: one of another type
// counts only where it converts without loss (a constant the type holds); otherwise, or when
// undefined, that side has no promise (the type's own limit).
Expr promise_bound(const Expr &bound, Type t, Expr limit) {
    if (!bound.defined()) return limit;
    if (bound.type() == t) return bound;
    const int64_t *i = as_const_int(bound);
    if (i && t.can_represent(*i)) return make_const(t, *i);
    return limit;
}
}  // namespace

Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    user_assert(value.defined()) << "unsafe_promise_clamped() of an undefined Expr";
    Type t = value.type();
    Expr lo = promise_bound(min, t, t.min());
    Expr hi = promise_bound(max, t, t.max());
    return Call::make(t, Call::unsafe_promise_clamped, {value, lo, hi}, Call::Intrinsic);
}

}  // namespace halo
