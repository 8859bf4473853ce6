#include "Associativity.h"

#include "Func.h"
#include "IROperator.h"
#include "IRVisitor.h"
#include "lower/IREquality.h"
#include "lower/Simplify.h"
#include "lower/Substitute.h"

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

// ---------------------------------------------------------------- the values as forms of x and y

// The update's reads of its own values at its left side, written as placeholder variables x_i
// (names no user Var can have), so that the forms below are matched on one kind of node.
const char *const kSelfPrefix = "assoc$x";
std::string self_name(int i) { return kSelfPrefix + std::to_string(i); }
bool is_self(const Expr &e, int i) {
    const Variable *v = e.as<Variable>();
    return v && v->name == self_name(i);
}
bool uses_self(const Expr &e, int values) {
    for (int i = 0; i < values; i++) {
        if (expr_uses_var(e, self_name(i))) return true;
    }
    return false;
}

class ReplaceSelfReads : public IRMutator {
public:
    ReplaceSelfReads(const FunctionContents &f, const std::vector<Expr> &args) : f_(f), args_(args) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (is_self_read(self(op), f_, args_, op->value_index)) return Variable::make(op->type, self_name(op->value_index));
        return IRMutator::visit(op);
    }

private:
    const FunctionContents &f_;
    const std::vector<Expr> &args_;
};

// The operands of a chain of one associative operation (min(min(a, b), c): a, b, c).
template <typename Node>
void flatten(const Expr &e, std::vector<Expr> &terms) {
    if (const Node *n = e.as<Node>()) {
        flatten<Node>(n->a, terms);
        flatten<Node>(n->b, terms);
    } else {
        terms.push_back(e);
    }
}

// The terms of a sum and difference, each with its sign (a - (b + c): +a, -b, -c).
void flatten_sum(const Expr &e, bool negated, std::vector<std::pair<Expr, bool>> &terms) {
    if (const Add *n = e.as<Add>()) {
        flatten_sum(n->a, negated, terms);
        flatten_sum(n->b, negated, terms);
    } else if (const Sub *n = e.as<Sub>()) {
        flatten_sum(n->a, negated, terms);
        flatten_sum(n->b, !negated, terms);
    } else {
        terms.push_back({e, negated});
    }
}

// -t, for a term of a sum. A constant is negated here, wrapping: constant folding 0 - INT32_MIN
// would be an overflow error, where x - INT32_MIN and x + INT32_MIN are the same bits.
Expr negate(const Expr &t) {
    if (const int64_t *v = as_const_int(t)) {
        const Type ty = t.type();
        return *v == ty.min_int() ? t : make_const(ty, -*v);
    }
    return -t;
}

// A sum is x_i + y: x_i once and added, no other term reading any x. y is undefined when x_i
// is the only term.
bool split_sum(const Expr &e, int i, int values, Expr &y) {
    std::vector<std::pair<Expr, bool>> terms;
    flatten_sum(e, false, terms);
    int selves = 0;
    y = Expr();
    for (auto &[t, negated] : terms) {
        if (is_self(t, i) && !negated) {
            selves++;
            continue;
        }
        if (uses_self(t, values)) return false;
        if (!y.defined()) y = negated ? negate(t) : t;
        else y = negated ? y - t : y + t;
    }
    return selves == 1;
}

// A chain of Node is Node(x_i, y), y the chain of the other operands.
template <typename Node>
bool split_chain(const Expr &e, int i, int values, const std::function<Expr(Expr, Expr)> &join, Expr &y) {
    if (!e.as<Node>()) return false;
    std::vector<Expr> terms;
    flatten<Node>(e, terms);
    int selves = 0;
    y = Expr();
    for (const Expr &t : terms) {
        if (is_self(t, i)) {
            selves++;
            continue;
        }
        if (uses_self(t, values)) return false;
        y = y.defined() ? join(y, t) : t;
    }
    return selves == 1 && y.defined();
}

// ---------------------------------------------------------------- rewrites to the forms

// Rewrites, innermost first, that bring an update to one of the forms match_alone knows, each
// exact for the types it is applied to (Halide's simplifier makes the same ones before its
// associativity prover matches, so Halide accepts these updates):
// - max(x + a, x + b) is x + max(a, b), and min likewise (max(f + e, f) is f + max(e, 0)). Only
//   for 32- and 64-bit signed integers, whose overflow is undefined (as for any sum rfactor or a
//   reorder of RVars reassociates). Not where sums wrap (unsigned or narrower types: max(f + e,
//   f) keeps f where f + e wraps, f + max(e, 0) does not), nor for floats: with infinities
//   max(f + e, f) depends on the order (inf, then -inf: NaN; the other way: inf), and a NaN e is
//   dropped or kept by the operand order.
// - select(a < b, a, b) is min(a, b) and select(a < b, b, a) is max(a, b), for every type: that
//   is how min and max are computed (lower/CodeGenLLVM.cpp), NaNs included. With <= or >= only
//   for integers, where a tie picks the same value either way (floats: +0 or -0).
// - select(c, x + a, x + b) is x + select(c, a, b) (a or b may be absent: 0), c not reading x.
//   Exact where sums wrap too; for floats only the sign of a zero sum may differ, as it does
//   anyway where rfactor starts a float sum from +0.
// - In an integer sum (wrapping, all exact): max(a, b) + min(a, b) is a + b; and a sum whose
//   every term is x or x * k (k not reading x) is x * (the sum of the k).
class RewriteToForms : public IRMutator {
public:
    explicit RewriteToForms(int values) : values_(values) {}
    using IRMutator::visit;
    Expr visit(const Min *op) override { return clamped_sum(IRMutator::visit(op)); }
    Expr visit(const Max *op) override { return clamped_sum(IRMutator::visit(op)); }
    Expr visit(const Add *op) override { return integer_sum(IRMutator::visit(op)); }
    Expr visit(const Sub *op) override { return integer_sum(IRMutator::visit(op)); }
    Expr visit(const Select *op) override { return select_form(IRMutator::visit(op)); }

private:
    const int values_;

    Expr self(int i, Type t) const { return Variable::make(t, self_name(i)); }

    // e is x_i + y for some i (y 0 where e is x_i alone): fills i and y.
    bool self_plus(const Expr &e, int &i, Expr &y) const {
        for (i = 0; i < values_; i++) {
            if (split_sum(e, i, values_, y)) {
                if (!y.defined()) y = make_zero(e.type());
                return true;
            }
        }
        return false;
    }

    Expr clamped_sum(Expr e) const {
        const Type t = e.type();
        if (!t.is_int() || t.bits() < 32) return e;
        const Max *mx = e.as<Max>();
        const Min *mn = e.as<Min>();
        if (!mx && !mn) return e;
        int i, j;
        Expr ya, yb;
        if (!self_plus(mx ? mx->a : mn->a, i, ya) || !self_plus(mx ? mx->b : mn->b, j, yb) || i != j) return e;
        return self(i, t) + (mx ? max(ya, yb) : min(ya, yb));
    }

    Expr select_form(Expr e) const {
        const Select *s = e.as<Select>();
        if (!s || s->type.is_bool() || !uses_self(e, values_)) return e;
        if (Expr m = select_as_min_max(*s); m.defined()) return m;
        int i, j;
        Expr yt, yf;
        if (uses_self(s->condition, values_) || !self_plus(s->true_value, i, yt) || !self_plus(s->false_value, j, yf) || i != j) {
            return e;
        }
        return self(i, s->type) + select(s->condition, yt, yf);
    }

    static Expr select_as_min_max(const Select &s) {
        Expr p, q;
        bool less, strict;  // the condition is p < q, p <= q, p > q or p >= q
        if (auto n = s.condition.as<LT>()) p = n->a, q = n->b, less = true, strict = true;
        else if (auto n = s.condition.as<LE>()) p = n->a, q = n->b, less = true, strict = false;
        else if (auto n = s.condition.as<GT>()) p = n->a, q = n->b, less = false, strict = true;
        else if (auto n = s.condition.as<GE>()) p = n->a, q = n->b, less = false, strict = false;
        else return Expr();
        if (!strict && s.type.is_float()) return Expr();
        auto same = [](const Expr &a, const Expr &b) { return compare_expr(a, b) == 0; };
        bool picks_p;
        if (same(s.true_value, p) && same(s.false_value, q)) picks_p = true;
        else if (same(s.true_value, q) && same(s.false_value, p)) picks_p = false;
        else return Expr();
        if (!less) std::swap(p, q);  // p > q is q < p: the condition is now p < q (or <=)
        const bool is_min = less == picks_p;
        return is_min ? min(p, q) : max(p, q);
    }

    Expr integer_sum(Expr e) const {
        const Type t = e.type();
        if (t.is_float() || t.is_bool()) return e;
        std::vector<std::pair<Expr, bool>> terms;
        flatten_sum(e, false, terms);
        const bool paired = pair_max_with_min(terms);
        if (Expr product = common_factor(terms); product.defined()) return product;
        return paired ? rebuild_sum(terms) : e;
    }

    // max(a, b) and min(a, b) (either order) of the same sign become a and b.
    static bool pair_max_with_min(std::vector<std::pair<Expr, bool>> &terms) {
        bool changed = false;
        for (size_t m = 0; m < terms.size(); m++) {
            const Max *mx = terms[m].first.as<Max>();
            if (!mx) continue;
            for (size_t n = 0; n < terms.size(); n++) {
                const Min *mn = terms[n].first.as<Min>();
                if (!mn || terms[n].second != terms[m].second) continue;
                const bool same_order = compare_expr(mx->a, mn->a) == 0 && compare_expr(mx->b, mn->b) == 0;
                const bool swapped = compare_expr(mx->a, mn->b) == 0 && compare_expr(mx->b, mn->a) == 0;
                if (!same_order && !swapped) continue;
                Expr a = mx->a, b = mx->b;
                terms[m].first = a;
                terms[n].first = b;
                changed = true;
                break;
            }
        }
        return changed;
    }

    // x * (k1 + k2 + ...) where every term is x or x * k, at least two of them.
    Expr common_factor(const std::vector<std::pair<Expr, bool>> &terms) const {
        if (terms.size() < 2) return Expr();
        const Type t = terms[0].first.type();
        int index = -1;
        Expr factor;
        for (auto &[term, negated] : terms) {
            int i = -1;
            Expr k;
            for (int c = 0; c < values_ && i < 0; c++) {
                if (is_self(term, c)) i = c, k = make_one(t);
                else if (const Mul *m = term.as<Mul>(); m && is_self(m->a, c) && !uses_self(m->b, values_)) i = c, k = m->b;
                else if (m && is_self(m->b, c) && !uses_self(m->a, values_)) i = c, k = m->a;
            }
            if (i < 0 || (index >= 0 && i != index)) return Expr();
            index = i;
            factor = !factor.defined() ? (negated ? negate(k) : k) : negated ? factor - k : factor + k;
        }
        return self(index, t) * factor;
    }

    static Expr rebuild_sum(const std::vector<std::pair<Expr, bool>> &terms) {
        Expr sum;
        for (auto &[term, negated] : terms) {
            sum = !sum.defined() ? (negated ? negate(term) : term) : negated ? sum - term : sum + term;
        }
        return sum;
    }
};

// Casts that keep every value (uint8 -> uint16, uint16 -> int32), removed.
Expr strip_widening(Expr e) {
    while (const Cast *c = e.as<Cast>()) {
        Type from = c->value.type(), to = c->type;
        bool lossless = !from.is_float() && !to.is_float() && from.bits() < to.bits() && (from.is_uint() || to.is_int());
        if (!lossless) break;
        e = c->value;
    }
    return e;
}

// A saturating add of unsigned integers of type t (at most 32 bits): x + y, or t's largest
// value where that is larger. Spelled as the narrowed min of a wide sum (saturating_cast gives
// that with a max(..., 0) around the min), or as a select on x > max - y or x < ~y.
bool split_saturating_add(const Expr &v, int i, int values, Expr &y) {
    const Type t = v.type();
    if (!t.is_uint() || t.bits() < 8 || t.bits() > 32) return false;
    const int64_t top = t.max_int();
    // x + e, either order: fills e.
    auto sum_of_self = [&](const Expr &s, Expr &e) {
        const Add *a = s.as<Add>();
        if (!a) return false;
        for (auto [p, q] : {std::pair{a->a, a->b}, std::pair{a->b, a->a}}) {
            if (is_self(p, i) && !uses_self(q, values)) {
                e = q;
                return true;
            }
        }
        return false;
    };
    auto same = [](const Expr &a, const Expr &b) { return compare_expr(a, b) == 0; };
    // max - e or ~e.
    auto is_room_for = [&](const Expr &r, const Expr &e) {
        if (const Sub *s = r.as<Sub>()) return is_const(s->a, top) && same(s->b, e);
        const Call *c = r.as<Call>();
        return c && c->call_type == Call::Intrinsic && c->name == Call::bitwise_not && same(c->args[0], e);
    };
    if (const Select *s = v.as<Select>()) {
        // select(x > max - e, max, x + e) or select(x < max - e, x + e, max), either comparison
        // written either way round.
        const bool saturates_if_true = is_const(s->true_value, top);
        const Expr &saturated = saturates_if_true ? s->true_value : s->false_value;
        const Expr &sum = saturates_if_true ? s->false_value : s->true_value;
        Expr e, x, room;
        if (!is_const(saturated, top) || !sum_of_self(sum, e)) return false;
        if (const GT *gt = s->condition.as<GT>()) {
            x = saturates_if_true ? gt->a : gt->b;
            room = saturates_if_true ? gt->b : gt->a;
        } else if (const LT *lt = s->condition.as<LT>()) {
            x = saturates_if_true ? lt->b : lt->a;
            room = saturates_if_true ? lt->a : lt->b;
        } else {
            return false;
        }
        if (!is_self(x, i) || !is_room_for(room, e)) return false;
        y = e;
        return true;
    }
    const Cast *narrow = v.as<Cast>();
    if (!narrow) return false;
    Expr inner = narrow->value;
    if (const Max *m = inner.as<Max>()) {  // saturating_cast's lower clamp, of a sum that is not negative
        if (is_zero(m->b)) inner = m->a;
        else if (is_zero(m->a)) inner = m->b;
    }
    const Min *m = inner.as<Min>();
    if (!m) return false;
    Expr wide_sum = is_const(m->b, top) ? m->a : is_const(m->a, top) ? m->b : Expr();
    if (!wide_sum.defined()) return false;
    const Add *add = strip_widening(wide_sum).as<Add>();
    // The sum must not wrap: two values of t need t.bits() + 1 bits (+ 2 when signed).
    if (!add || add->type.is_float() || add->type.bits() < t.bits() + (add->type.is_int() ? 2 : 1)) return false;
    for (auto [p, q] : {std::pair{add->a, add->b}, std::pair{add->b, add->a}}) {
        Expr self_part = strip_widening(p), other = strip_widening(q);
        if (!is_self(self_part, i) || uses_self(other, values)) continue;
        Type ot = other.type();
        if (!ot.is_uint() || ot.bits() > t.bits()) continue;
        y = ot == t ? other : cast(t, other);
        return true;
    }
    return false;
}

// Value i (with placeholders) as one of the forms that stand alone: fills op and y.
bool match_alone(const Expr &value, int i, int values, Op &op, Expr &y) {
    Expr v = strip_identity_cast(value);
    if (is_self(v, i)) {
        op = Op::Keep;
        y = Expr();
        return true;
    }
    auto take = [&](Op o) {
        op = o;
        return true;
    };
    if ((v.as<Add>() || v.as<Sub>()) && split_sum(v, i, values, y) && y.defined()) return take(Op::Add);
    if (split_chain<Mul>(v, i, values, [](Expr a, Expr b) { return a * b; }, y)) return take(Op::Mul);
    if (split_chain<Min>(v, i, values, [](Expr a, Expr b) { return min(a, b); }, y)) return take(Op::Min);
    if (split_chain<Max>(v, i, values, [](Expr a, Expr b) { return max(a, b); }, y)) return take(Op::Max);
    if (v.type().is_bool()) {
        if (split_chain<And>(v, i, values, [](Expr a, Expr b) { return a && b; }, y)) return take(Op::And);
        if (split_chain<Or>(v, i, values, [](Expr a, Expr b) { return a || b; }, y)) return take(Op::Or);
    }
    if (split_saturating_add(v, i, values, y)) return take(Op::SaturatingAdd);
    return false;
}

// Value k (with placeholders) as select(C, x_k, y_k) (or with the arms swapped), C comparing
// x_j and y_j of a min or max value j the way that value picks: fills out's Follow entries.
bool match_follow(const Expr &value, int k, int values, AssociativeUpdate &out) {
    const Select *s = strip_identity_cast(value).as<Select>();
    if (!s) return false;
    bool self_if_true;
    Expr y;
    if (is_self(s->true_value, k)) self_if_true = true, y = s->false_value;
    else if (is_self(s->false_value, k)) self_if_true = false, y = s->true_value;
    else return false;
    if (uses_self(y, values)) return false;
    enum Rel { Less, LessEq, Greater, GreaterEq };
    Expr p, q;
    Rel rel;
    if (auto n = s->condition.as<LT>()) p = n->a, q = n->b, rel = Less;
    else if (auto n = s->condition.as<LE>()) p = n->a, q = n->b, rel = LessEq;
    else if (auto n = s->condition.as<GT>()) p = n->a, q = n->b, rel = Greater;
    else if (auto n = s->condition.as<GE>()) p = n->a, q = n->b, rel = GreaterEq;
    else return false;
    for (int j = 0; j < values; j++) {
        if (j == k || (out.ops[j] != Op::Min && out.ops[j] != Op::Max)) continue;
        const Expr &yj = out.others[j];
        Rel r;  // the relation of x_j to y_j under which C holds
        if (is_self(p, j) && compare_expr(q, yj) == 0) r = rel;
        else if (is_self(q, j) && compare_expr(p, yj) == 0) r = rel == Less ? Greater : rel == LessEq ? GreaterEq : rel == Greater ? Less : LessEq;
        else continue;
        // The relation under which the select keeps x_k.
        if (!self_if_true) r = r == Less ? GreaterEq : r == LessEq ? Greater : r == Greater ? LessEq : Less;
        const bool is_min = out.ops[j] == Op::Min;
        if (is_min ? (r != Less && r != LessEq) : (r != Greater && r != GreaterEq)) return false;
        out.ops[k] = Op::Follow;
        out.others[k] = y;
        out.follows[k] = j;
        out.first_wins[k] = r == LessEq || r == GreaterEq;
        return true;
    }
    return false;
}

// Every value (with placeholders) in one of the forms.
bool match_values(const std::vector<Expr> &values, AssociativeUpdate &out) {
    const int n = int(values.size());
    AssociativeUpdate u;
    u.ops.assign(n, Op::Keep);
    u.others.assign(n, Expr());
    u.follows.assign(n, -1);
    u.first_wins.assign(n, false);
    std::vector<bool> matched(n, false);
    for (int i = 0; i < n; i++) matched[i] = match_alone(values[i], i, n, u.ops[i], u.others[i]);
    for (int k = 0; k < n; k++) {
        if (!matched[k] && !match_follow(values[k], k, n, u)) return false;
    }
    out = u;
    return true;
}

// ---------------------------------------------------------------- complex products

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
            out = AssociativeUpdate();
            out.complex_mul = true;
            out.others = {y0, y1};
            return true;
        }
    }
    return false;
}

}  // namespace

bool calls_func(const Expr &e, const FunctionContents &f) {
    return has_call(e, [&](const Call &c) { return is_call_to(&c, f); });
}

bool iterations_apply_one_map(const std::vector<Expr> &values, const FunctionContents &f,
                              const std::vector<Expr> &args, const std::vector<std::string> &rvars) {
    for (const Expr &a : args) {
        if (calls_func(a, f)) return false;
    }
    ReplaceSelfReads replace(f, args);
    for (const Expr &v : values) {
        Expr map = replace.mutate(v);
        if (calls_func(map, f)) return false;
        for (const std::string &r : rvars) {
            if (expr_uses_var(map, r)) return false;
        }
    }
    return true;
}

bool AssociativeUpdate::commutative() const {
    return !has_follow();
}

bool AssociativeUpdate::has_follow() const {
    return std::find(ops.begin(), ops.end(), Op::Follow) != ops.end();
}

std::vector<Expr> AssociativeUpdate::identity(const std::vector<Type> &types) const {
    if (complex_mul) return {make_one(types[0]), make_zero(types[1])};
    std::vector<Expr> out;
    for (size_t i = 0; i < types.size(); i++) {
        switch (ops[i]) {
        case Op::Mul: out.push_back(make_one(types[i])); break;
        case Op::Min: out.push_back(highest(types[i])); break;
        case Op::Max: out.push_back(lowest(types[i])); break;
        case Op::And: out.push_back(make_one(types[i])); break;
        // Add, Or, SaturatingAdd: 0. Keep and Follow: any value (a Keep value is never read, a
        // Follow value only where its min or max took the other side).
        default: out.push_back(make_zero(types[i])); break;
        }
    }
    return out;
}

std::vector<Expr> AssociativeUpdate::first(const std::vector<Expr> &initial, const std::vector<Expr> &b) const {
    if (complex_mul) return b;
    std::vector<Expr> out;
    for (size_t i = 0; i < b.size(); i++) out.push_back(ops[i] == Op::Keep ? initial[i] : b[i]);
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
        case Op::Max: out.push_back(max(a[i], b[i])); break;
        case Op::And: out.push_back(a[i] && b[i]); break;
        case Op::Or: out.push_back(a[i] || b[i]); break;
        case Op::SaturatingAdd: {
            Expr top = make_const(a[i].type(), a[i].type().max_int());
            out.push_back(select(a[i] > top - b[i], top, a[i] + b[i]));
            break;
        }
        case Op::Keep: out.push_back(a[i]); break;
        case Op::Follow: {
            const int j = follows[i];
            const bool is_min = ops[j] == Op::Min;
            Expr a_wins = is_min ? (first_wins[i] ? a[j] <= b[j] : a[j] < b[j]) : (first_wins[i] ? a[j] >= b[j] : a[j] > b[j]);
            out.push_back(select(a_wins, a[i], b[i]));
            break;
        }
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
    ReplaceSelfReads replace(f, args);
    std::vector<Expr> with_x;
    bool reads_elsewhere = false;
    for (const Expr &v : values) {
        with_x.push_back(replace.mutate(v));
        reads_elsewhere |= calls_func(with_x.back(), f);
    }
    if (!reads_elsewhere) {
        if (match_values(with_x, out)) return true;
        // As the simplifier writes them: max(max(min(f, g), f), g) is max(f, g), f - 3 is f + -3.
        // (A constant the simplifier cannot fold, an overflowing one, leaves the update as written:
        // lowering reports it where it belongs.)
        std::vector<Expr> simplified;
        try {
            for (const Expr &v : with_x) simplified.push_back(simplify(v));
        } catch (const CompileError &) {
            simplified.clear();
        }
        if (!simplified.empty() && match_values(simplified, out)) return true;
        // Rewritten to the forms (select(e > f, e, f) is max(f, e)), as written or simplified.
        for (const std::vector<Expr> *vs : {&with_x, &simplified}) {
            if (vs->empty()) continue;
            std::vector<Expr> rewritten;
            try {  // (a new constant sum that overflows is an error of the folding: no match)
                for (const Expr &v : *vs) rewritten.push_back(RewriteToForms(int(vs->size())).mutate(v));
            } catch (const CompileError &) {
                continue;
            }
            if (match_values(rewritten, out)) return true;
        }
    }
    return match_complex_mul(values, f, args, out);
}

}  // namespace halo
