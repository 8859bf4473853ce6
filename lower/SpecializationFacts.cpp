#include "SpecializationFacts.h"

#include "Substitute.h"
#include "dsl/IROperator.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

enum class Cmp { LT, LE, GT, GE, EQ, NE };

// An integer constant that fits in int64_t.
std::optional<int64_t> int_constant(const Expr &e) {
    if (auto i = e.as<IntImm>()) return i->value;
    if (auto u = e.as<UIntImm>(); u && u->value <= uint64_t(INT64_MAX)) return int64_t(u->value);
    return std::nullopt;
}

// A comparison of an integer scalar Param with a constant, as p CMP k (k < p becomes p > k).
struct ParamComparison {
    std::string param;
    Cmp cmp;
    int64_t k;
};

std::optional<ParamComparison> param_comparison(const Expr &e) {
    Expr a, b;
    Cmp c;
    if (auto n = e.as<LT>()) a = n->a, b = n->b, c = Cmp::LT;
    else if (auto n = e.as<LE>()) a = n->a, b = n->b, c = Cmp::LE;
    else if (auto n = e.as<GT>()) a = n->a, b = n->b, c = Cmp::GT;
    else if (auto n = e.as<GE>()) a = n->a, b = n->b, c = Cmp::GE;
    else if (auto n = e.as<EQ>()) a = n->a, b = n->b, c = Cmp::EQ;
    else if (auto n = e.as<NE>()) a = n->a, b = n->b, c = Cmp::NE;
    else return std::nullopt;
    if (!a.type().is_int() && !a.type().is_uint()) return std::nullopt;
    if (a.type().bits() > 32) return std::nullopt;  // every value fits int64_t
    auto as_param = [](const Expr &x) {
        auto v = x.as<Variable>();
        return v && v->param ? v : nullptr;
    };
    if (auto v = as_param(a); v && int_constant(b)) return ParamComparison{v->name, c, *int_constant(b)};
    if (auto v = as_param(b); v && int_constant(a)) {
        Cmp mirrored[] = {Cmp::GT, Cmp::GE, Cmp::LT, Cmp::LE, Cmp::EQ, Cmp::NE};
        return ParamComparison{v->name, mirrored[int(c)], *int_constant(a)};
    }
    return std::nullopt;
}

Cmp negated(Cmp c) {
    Cmp n[] = {Cmp::GE, Cmp::GT, Cmp::LE, Cmp::LT, Cmp::NE, Cmp::EQ};
    return n[int(c)];
}

using Range = std::pair<std::optional<int64_t>, std::optional<int64_t>>;

void narrow(Range &r, Cmp c, int64_t k) {
    // k is a value of a type of at most 32 bits, so k +- 1 cannot overflow.
    auto at_least = [&](int64_t lo) { r.first = r.first ? std::max(*r.first, lo) : lo; };
    auto at_most = [&](int64_t hi) { r.second = r.second ? std::min(*r.second, hi) : hi; };
    switch (c) {
    case Cmp::LT: at_most(k - 1); break;
    case Cmp::LE: at_most(k); break;
    case Cmp::GT: at_least(k + 1); break;
    case Cmp::GE: at_least(k); break;
    case Cmp::EQ: at_least(k), at_most(k); break;
    case Cmp::NE: break;
    }
}

// Whether p CMP k is decided by p lying in r.
std::optional<bool> decide(const Range &r, Cmp c, int64_t k) {
    const auto &lo = r.first, &hi = r.second;
    switch (c) {
    case Cmp::LT:
        if (hi && *hi < k) return true;
        if (lo && *lo >= k) return false;
        break;
    case Cmp::LE:
        if (hi && *hi <= k) return true;
        if (lo && *lo > k) return false;
        break;
    case Cmp::GT:
        if (lo && *lo > k) return true;
        if (hi && *hi <= k) return false;
        break;
    case Cmp::GE:
        if (lo && *lo >= k) return true;
        if (hi && *hi < k) return false;
        break;
    case Cmp::EQ:
    case Cmp::NE: {
        std::optional<bool> eq;
        if ((lo && k < *lo) || (hi && k > *hi)) eq = false;
        else if (lo && hi && *lo == k && *hi == k) eq = true;
        if (eq && c == Cmp::NE) return !*eq;
        return eq;
    }
    }
    return std::nullopt;
}

// Replaces the comparisons of Params with constants that the known ranges decide.
class DecideComparisons : public IRMutator {
public:
    explicit DecideComparisons(const KnownInBranch &k) : known_(k) {}
    using IRMutator::visit;

private:
    const KnownInBranch &known_;

    Expr decided(const Expr &e) {
        auto pc = param_comparison(e);
        if (!pc) return e;
        auto r = known_.ranges.find(pc->param);
        if (r == known_.ranges.end()) return e;
        auto d = decide(r->second, pc->cmp, pc->k);
        return d ? Expr::make_bool(*d) : e;
    }
#define HALO_DECIDE(N) \
    Expr visit(const N *op) override { return decided(IRMutator::visit(op)); }
    HALO_DECIDE(LT)
    HALO_DECIDE(LE)
    HALO_DECIDE(GT)
    HALO_DECIDE(GE)
    HALO_DECIDE(EQ)
    HALO_DECIDE(NE)
#undef HALO_DECIDE
};

}  // namespace

void learn_from_condition(const Expr &cond, bool holds, KnownInBranch &known) {
    if (auto v = cond.as<Variable>(); v && v->param) {
        known.params[v->name] = Expr::make_bool(holds);
        return;
    }
    if (!is_const(cond)) known.conditions.push_back({cond, Expr::make_bool(holds)});
    if (auto pc = param_comparison(cond)) {
        narrow(known.ranges[pc->param], holds ? pc->cmp : negated(pc->cmp), pc->k);
    }
    if (auto n = cond.as<Not>()) {
        learn_from_condition(n->a, !holds, known);
    } else if (auto a = cond.as<And>(); a && holds) {
        learn_from_condition(a->a, true, known);
        learn_from_condition(a->b, true, known);
    } else if (auto o = cond.as<Or>(); o && !holds) {
        learn_from_condition(o->a, false, known);
        learn_from_condition(o->b, false, known);
    } else if (auto e = cond.as<EQ>(); e && holds) {
        auto v = e->a.as<Variable>();
        // Not from floats: p == 0.0f holds for p = -0.0f too, whose sign 1 / p would see.
        if (v && v->param && is_const(e->b) && !e->b.type().is_float()) known.params[v->name] = e->b;
    }
}

Definition with_known(const Definition &def, const KnownInBranch &known) {
    if (known.params.empty() && known.conditions.empty() && known.ranges.empty()) return def;
    Definition d = def;
    DecideComparisons decide_comparisons(known);
    auto apply = [&](Expr e) {
        for (auto &[c, value] : known.conditions) e = substitute_expr(c, value, e);
        if (!known.ranges.empty()) e = decide_comparisons.mutate(e);
        return known.params.empty() ? e : substitute(known.params, e);
    };
    for (auto &v : d.values) v = apply(v);
    for (auto &a : d.args) a = apply(a);
    return d;
}

}  // namespace halo
