#include "SolveForVariable.h"

#include <cstdint>

#include "Substitute.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

bool is_int32(const Expr &e) { return e.type().is_int() && e.type().bits() == 32 && e.type().is_scalar(); }

// The number of times var is named in e.
struct CountUses : IRVisitor {
    const std::string &var;
    int count = 0;
    explicit CountUses(const std::string &v) : var(v) {}
    void visit(const Variable *op) override { count += op->name == var; }
};

// The bounds are computed in 64 bits, where sums and differences of int32 values do not wrap.
Expr wide(const Expr &a) { return a.type() == Int(64) ? a : Cast::make(Int(64), a); }
Expr sub_or_undef(const Expr &a, const Expr &b) {
    return a.defined() && b.defined() ? Sub::make(wide(a), wide(b)) : Expr();
}
Expr add_or_undef(const Expr &a, const Expr &b) {
    return a.defined() && b.defined() ? Add::make(wide(a), wide(b)) : Expr();
}

// Integer division rounding down, and up, by k > 0 (Div rounds down for a positive divisor).
Expr floor_div(const Expr &a, int64_t k) { return a.defined() ? Div::make(a, make_const(Int(64), k)) : Expr(); }
Expr ceil_div(const Expr &a, int64_t k) {
    return a.defined() ? Div::make(Add::make(a, make_const(Int(64), k - 1)), make_const(Int(64), k)) : Expr();
}
Expr negate(const Expr &a) { return a.defined() ? Sub::make(make_zero(Int(64)), a) : Expr(); }

// `growth` is the product of the divisors solved through so far: each multiplies the bounds,
// and bounds of int32 values times at most 2^20 stay far inside int64.
bool solve(const Expr &e, const std::string &var, const Expr &upper, const Expr &lower, VariableBounds *result,
           int64_t growth = 1) {
    if (!is_int32(e)) return false;
    if (const Variable *v = e.as<Variable>()) {
        if (v->name != var) return false;
        *result = {upper.defined() ? wide(upper) : upper, lower.defined() ? wide(lower) : lower};
        return true;
    }
    if (const Add *op = e.as<Add>()) {
        // x + b <= U  <=>  x <= U - b (and the same below).
        const bool in_a = expr_uses_var(op->a, var);
        const Expr &x = in_a ? op->a : op->b, &rest = in_a ? op->b : op->a;
        return solve(x, var, sub_or_undef(upper, rest), sub_or_undef(lower, rest), result, growth);
    }
    if (const Sub *op = e.as<Sub>()) {
        if (expr_uses_var(op->a, var)) {
            return solve(op->a, var, add_or_undef(upper, op->b), add_or_undef(lower, op->b), result, growth);
        }
        // a - x <= U  <=>  x >= a - U;  a - x >= L  <=>  x <= a - L.
        return solve(op->b, var, sub_or_undef(op->a, lower), sub_or_undef(op->a, upper), result, growth);
    }
    if (const Mul *op = e.as<Mul>()) {
        const int64_t *c = as_const_int(op->b);
        const Expr *x = &op->a;
        if (!c) {
            c = as_const_int(op->a);
            x = &op->b;
        }
        if (!c || *c == 0 || *c > (1 << 20) || *c < -(1 << 20)) return false;
        if (*c > 0) {
            // x * k <= U  <=>  x <= floor(U / k);  x * k >= L  <=>  x >= ceil(L / k).
            return solve(*x, var, floor_div(upper, *c), ceil_div(lower, *c), result, growth);
        }
        // x * -k <= U  <=>  x >= ceil(-U / k);  x * -k >= L  <=>  x <= floor(-L / k).
        const int64_t k = -*c;
        return solve(*x, var, floor_div(negate(lower), k), ceil_div(negate(upper), k), result, growth);
    }
    if (const Div *op = e.as<Div>()) {
        // Rounding down, by k > 0: x / k <= U  <=>  x <= U * k + k - 1;  x / k >= L  <=>  x >= L * k.
        const int64_t *k = as_const_int(op->b);
        if (!k || *k <= 0 || growth * *k > (1 << 20)) return false;
        Expr kk = make_const(Int(64), *k);
        Expr u = upper.defined() ? Add::make(Mul::make(upper, kk), make_const(Int(64), *k - 1)) : Expr();
        Expr l = lower.defined() ? Mul::make(lower, kk) : Expr();
        return solve(op->a, var, u, l, result, growth * *k);
    }
    if (e.as<Min>() || e.as<Max>()) {
        // What must hold, not an equivalence: min(x, c) >= L gives x >= L, and min(x, c) <= U
        // gives x <= U where c > U (else nothing: x's largest int32); max the other way round.
        const bool is_min = e.as<Min>() != nullptr;
        const Expr &a = is_min ? e.as<Min>()->a : e.as<Max>()->a, &b = is_min ? e.as<Min>()->b : e.as<Max>()->b;
        const bool in_a = expr_uses_var(a, var);
        const Expr &x = in_a ? a : b, &c = in_a ? b : a;
        if (is_min) {
            Expr u = upper.defined() ? Select::make(LT::make(upper, wide(c)), upper, make_const(Int(64), int64_t(INT32_MAX))) : Expr();
            return solve(x, var, u, lower, result, growth);
        }
        Expr l = lower.defined() ? Select::make(LT::make(wide(c), lower), lower, make_const(Int(64), int64_t(INT32_MIN))) : Expr();
        return solve(x, var, upper, l, result, growth);
    }
    return false;
}

}  // namespace

bool solve_for_variable(const Expr &e, const std::string &var, const Expr &upper, const Expr &lower,
                        VariableBounds *result) {
    CountUses uses(var);
    e.accept(&uses);
    if (uses.count != 1) return false;
    auto int32_or_64 = [](const Expr &b) { return !b.defined() || is_int32(b) || b.type() == Int(64); };
    if (!int32_or_64(upper) || !int32_or_64(lower)) return false;
    return solve(e, var, upper.defined() ? wide(upper) : upper, lower.defined() ? wide(lower) : lower, result);
}

}  // namespace halo
