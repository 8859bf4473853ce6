#include "Associativity.h"

#include "Func.h"
#include "IROperator.h"
#include "IRVisitor.h"
#include "lower/IREquality.h"

namespace halo {

namespace {

using Op = AssociativeUpdate::Op;

// A call to f itself, by identity: another Func may have f's name (lowering numbers the
// copies of such Funcs apart, lower/DistinctNames.h).
bool is_call_to(const Call *c, const FunctionContents &f) {
    return c && c->call_type == Call::Halo && c->func.identity() == &f;
}

// Whether e is value `index` of f at exactly the update's own left side.
bool is_self_read(const Expr &e, const FunctionContents &f, const std::vector<Expr> &args, int index) {
    const Call *c = e.as<Call>();
    if (!is_call_to(c, f) || c->value_index != index || c->args.size() != args.size()) return false;
    for (size_t i = 0; i < args.size(); i++) {
        if (compare_expr(c->args[i], args[i]) != 0) return false;
    }
    return true;
}

// A cast to the type the value already has says nothing.
Expr strip_identity_cast(const Expr &e) {
    if (const Cast *c = e.as<Cast>(); c && c->value.type() == c->type) return c->value;
    return e;
}

// max(f + e, f) is f + max(e, 0), and min(f + e, f) is f + min(e, 0): a sum, in any order
// (Halide's associativity prover finds these too). Only for 32- and 64-bit signed integers,
// whose overflow is undefined (as for any sum rfactor or a reorder of RVars reassociates). Not
// where sums wrap (unsigned or narrower types: max(f + e, f) keeps f where f + e wraps, f +
// max(e, 0) does not), nor for floats: with infinities max(f + e, f) depends on the order
// (inf, then -inf: NaN; the other way: inf), and a NaN e is dropped or kept by the operand order.
bool match_clamped_sum(const Expr &v, const FunctionContents &f, const std::vector<Expr> &args, int index, Expr &other) {
    Type t = v.type();
    if (!t.is_int() || t.bits < 32) return false;
    const bool is_max = v.as<Max>() != nullptr;
    Expr a, b;
    if (auto *n = v.as<Max>()) a = n->a, b = n->b;
    else if (auto *n = v.as<Min>()) a = n->a, b = n->b;
    else return false;
    for (auto [sum, self] : {std::pair{a, b}, std::pair{b, a}}) {
        const Add *add = sum.as<Add>();
        if (!add || !is_self_read(self, f, args, index)) continue;
        for (auto [self2, e] : {std::pair{add->a, add->b}, std::pair{add->b, add->a}}) {
            if (is_self_read(self2, f, args, index) && !calls_func(e, f)) {
                other = is_max ? max(e, make_zero(t)) : min(e, make_zero(t));
                return true;
            }
        }
    }
    return false;
}

// Value `index` of the update is f[index] op e: fills op and e.
bool match_one_value(const Expr &value, const FunctionContents &f, const std::vector<Expr> &args, int index, Op &op,
                     Expr &other) {
    Expr v = strip_identity_cast(value);
    auto try_pair = [&](Op o, const Expr &a, const Expr &b) {
        for (auto [self, e] : {std::pair{a, b}, std::pair{b, a}}) {
            if (is_self_read(self, f, args, index) && !calls_func(e, f)) {
                op = o;
                other = e;
                return true;
            }
        }
        return false;
    };
    if (auto *n = v.as<Add>()) return try_pair(Op::Add, n->a, n->b);
    if (auto *n = v.as<Mul>()) return try_pair(Op::Mul, n->a, n->b);
    if (match_clamped_sum(v, f, args, index, other)) {
        op = Op::Add;
        return true;
    }
    if (auto *n = v.as<Min>()) return try_pair(Op::Min, n->a, n->b);
    if (auto *n = v.as<Max>()) return try_pair(Op::Max, n->a, n->b);
    return false;
}

// e is f[index] * y (either order) with y not reading f: fills y.
bool match_self_product(const Expr &e, const FunctionContents &f, const std::vector<Expr> &args, int index, Expr &y) {
    const Mul *m = e.as<Mul>();
    if (!m) return false;
    for (auto [self, other] : {std::pair{m->a, m->b}, std::pair{m->b, m->a}}) {
        if (is_self_read(self, f, args, index) && !calls_func(other, f)) {
            y = other;
            return true;
        }
    }
    return false;
}

// e is f[index] * y for this y (either order).
bool is_self_product(const Expr &e, const FunctionContents &f, const std::vector<Expr> &args, int index, const Expr &y) {
    Expr found;
    return match_self_product(e, f, args, index, found) && compare_expr(found, y) == 0;
}

// (f0 * y0 - f1 * y1, f1 * y0 + f0 * y1), the terms of each product and of the sum in any order.
bool match_complex_mul(const std::vector<Expr> &values, const FunctionContents &f, const std::vector<Expr> &args,
                       AssociativeUpdate &out) {
    if (values.size() != 2 || values[0].type() != values[1].type()) return false;
    const Sub *re = strip_identity_cast(values[0]).as<Sub>();
    const Add *im = strip_identity_cast(values[1]).as<Add>();
    Expr y0, y1;
    if (!re || !im || !match_self_product(re->a, f, args, 0, y0) || !match_self_product(re->b, f, args, 1, y1)) {
        return false;
    }
    for (auto [a, b] : {std::pair{im->a, im->b}, std::pair{im->b, im->a}}) {
        if (is_self_product(a, f, args, 1, y0) && is_self_product(b, f, args, 0, y1)) {
            out = AssociativeUpdate{true, {}, {y0, y1}};
            return true;
        }
    }
    return false;
}

}  // namespace

bool calls_func(const Expr &e, const FunctionContents &f) {
    return has_call(e, [&](const Call &c) { return is_call_to(&c, f); });
}

std::vector<Expr> AssociativeUpdate::identity(const std::vector<Type> &types) const {
    if (complex_mul) return {make_one(types[0]), make_zero(types[1])};
    std::vector<Expr> out;
    for (size_t i = 0; i < types.size(); i++) {
        switch (ops[i]) {
        case Op::Add: out.push_back(make_zero(types[i])); break;
        case Op::Mul: out.push_back(make_one(types[i])); break;
        case Op::Min: out.push_back(highest(types[i])); break;
        default: out.push_back(lowest(types[i])); break;
        }
    }
    return out;
}

std::vector<Expr> AssociativeUpdate::combine(const std::vector<Expr> &a, const std::vector<Expr> &b) const {
    if (complex_mul) return {a[0] * b[0] - a[1] * b[1], a[1] * b[0] + a[0] * b[1]};
    std::vector<Expr> out;
    for (size_t i = 0; i < a.size(); i++) {
        switch (ops[i]) {
        case Op::Add: out.push_back(a[i] + b[i]); break;
        case Op::Mul: out.push_back(a[i] * b[i]); break;
        case Op::Min: out.push_back(min(a[i], b[i])); break;
        default: out.push_back(max(a[i], b[i])); break;
        }
    }
    return out;
}

bool match_associative(const std::vector<Expr> &values, const FunctionContents &f, const std::vector<Expr> &args,
                       AssociativeUpdate &out) {
    // A left side that reads f (f(f(r)) += 1) writes where earlier iterations decide: no order
    // of the iterations can be changed.
    for (auto &a : args) {
        if (calls_func(a, f)) return false;
    }
    AssociativeUpdate each;
    each.ops.resize(values.size());
    each.others.resize(values.size());
    bool every_value = true;
    for (size_t i = 0; i < values.size() && every_value; i++) {
        every_value = match_one_value(values[i], f, args, int(i), each.ops[i], each.others[i]);
    }
    if (every_value) {
        out = each;
        return true;
    }
    return match_complex_mul(values, f, args, out);
}

}  // namespace halo
