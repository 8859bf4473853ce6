// The proof behind parallel() and vectorize() of an RVar loop. Two iterations A and B of the
// loop differ in the variables the loop stands for (the set S: the RVar it was split from, or
// every Var and RVar fused into it); every other loop variable may differ too (inner loops run
// all their values in each iteration), so each copy gets its own. The loop is race-free when,
// for every write of A and every access (write or read) of B, some dimension of the two
// positions can never be equal while A and B are distinct iterations:
//  - the difference is a nonzero constant (f(r, 0) += f(r - 1, 1): rows 0 and 1);
//  - with one variable r in S, the difference is k (r_A - r_B) + c with c = 0, with c not a
//    multiple of k, or with |c / k| beyond what r_A - r_B can reach in the RDom (f(2r + 1) +=
//    f(2r); f(r) += f(r + 20) over an RDom of 20);
//  - with several, each of them alone makes up the difference of some dimension (f(r.x, r.y)
//    += 1 under fuse(r.x, r.y, t)).
// Anything else (a position not affine in the loop variables, or a difference that could be
// zero) is not proven, and the directive is refused.
#include "ParallelRVar.h"

#include <map>
#include <optional>
#include <set>

#include "IROperator.h"
#include "IRVisitor.h"
#include "lower/Simplify.h"
#include "lower/Substitute.h"

namespace halo {

namespace {

// The Vars and RVars a loop of def stands for: itself for a Var or RVar, what it was split
// from, or everything fused into it.
std::set<std::string> loop_origins(const Definition &def, const std::string &loop) {
    std::map<std::string, std::set<std::string>> origin;
    if (def.rdom) {
        for (auto &rv : def.rdom->vars) origin[rv.name] = {rv.name};
    }
    auto of = [&](const std::string &v) {
        auto it = origin.find(v);
        return it == origin.end() ? std::set<std::string>{v} : it->second;
    };
    for (const Split &s : def.schedule.splits) {
        if (s.kind == Split::FuseVars) {
            std::set<std::string> both = of(s.inner), outer = of(s.outer);
            both.insert(outer.begin(), outer.end());
            origin[s.old_var] = both;
            continue;
        }
        std::set<std::string> from = of(s.old_var);
        origin[s.outer] = from;
        if (s.kind == Split::SplitVar) origin[s.inner] = from;
    }
    return of(loop);
}

// e as sum of k_v * v plus a constant, when it is one (sums, differences, products by
// constants of variables and integer constants).
struct LinearForm {
    std::map<std::string, int64_t> k;
    int64_t c = 0;
};

std::optional<LinearForm> linear_form(const Expr &e) {
    if (const int64_t *c = as_const_int(e)) return LinearForm{{}, *c};
    if (auto v = e.as<Variable>()) return LinearForm{{{v->name, 1}}, 0};
    auto combine = [](LinearForm a, const LinearForm &b, int64_t sign) {
        for (auto &[name, k] : b.k) a.k[name] += sign * k;
        a.c += sign * b.c;
        return a;
    };
    if (auto a = e.as<Add>()) {
        auto x = linear_form(a->a), y = linear_form(a->b);
        if (x && y) return combine(*x, *y, 1);
    } else if (auto s = e.as<Sub>()) {
        auto x = linear_form(s->a), y = linear_form(s->b);
        if (x && y) return combine(*x, *y, -1);
    } else if (auto m = e.as<Mul>()) {
        for (auto [k, other] : {std::pair{m->a, m->b}, std::pair{m->b, m->a}}) {
            const int64_t *c = as_const_int(k);
            auto x = linear_form(other);
            if (c && x) return combine(LinearForm{}, *x, *c);
        }
    }
    return std::nullopt;
}

struct Access {
    std::vector<Expr> args;
};

// Every read of func in def: its values, its left side's arguments and its RDom's predicates.
// (By identity: another Func may have func's name; lowering numbers only its copies apart.)
std::vector<Access> reads_of(const FunctionContents &func, const Definition &def) {
    struct Reads : IRVisitor {
        const FunctionContents &f;
        std::vector<Access> found;
        explicit Reads(const FunctionContents &g) : f(g) {}
        void visit(const Call *op) override {
            IRVisitor::visit(op);
            if (op->call_type == Call::Halo && op->func.identity() == &f) found.push_back({op->args});
        }
    } reads(func);
    for (auto &v : def.values) v.accept(&reads);
    for (auto &a : def.args) a.accept(&reads);
    if (def.rdom) {
        for (auto &p : def.rdom->predicates) p.accept(&reads);
    }
    return reads.found;
}

class RaceProof {
public:
    RaceProof(const Definition &def, std::set<std::string> varying) : def_(def), varying_(std::move(varying)) {}

    // Whether a write of iteration A and an access of iteration B are never at one point.
    bool never_meet(const Access &write, const Access &other) const {
        if (write.args.size() != other.args.size()) return true;  // (a call of another arity is an error later)
        for (size_t d = 0; d < write.args.size(); d++) {
            if (constant_outside_writes(write.args[d], other.args[d])) return true;
        }
        std::vector<LinearForm> dims;
        for (size_t d = 0; d < write.args.size(); d++) {
            Expr diff = simplify(renamed(write.args[d], "$A") - renamed(other.args[d], "$B"));
            std::optional<LinearForm> form = linear_form(diff);
            if (!form) continue;
            if (auto delta = as_differences(*form)) dims.push_back(*delta);
        }
        for (const LinearForm &d : dims) {
            if (d.k.empty() && d.c != 0) return true;
        }
        if (varying_.size() == 1) {
            const std::string &r = *varying_.begin();
            for (const LinearForm &d : dims) {
                if (d.k.size() != 1) continue;
                int64_t k = d.k.begin()->second;
                if (d.c == 0 || d.c % k != 0) return true;
                std::optional<int64_t> reach = largest_difference(r);
                if (reach && (d.c / k > *reach || d.c / k < -*reach)) return true;
            }
            return false;
        }
        for (const std::string &v : varying_) {
            bool pinned = false;
            for (const LinearForm &d : dims) pinned |= d.c == 0 && d.k.size() == 1 && d.k.begin()->first == v;
            if (!pinned) return false;
        }
        return true;
    }

private:
    // Whether the other access is a constant position that the write never reaches in this
    // dimension: the write is affine in RVars of constant bounds, so its positions over the
    // whole RDom lie in one interval (f(r) = f(0) + 1 over r in [1, 10] writes [1, 10]).
    bool constant_outside_writes(const Expr &write, const Expr &other) const {
        Expr o = simplify(other);
        const int64_t *c = as_const_int(o);
        if (!c) return false;
        std::optional<LinearForm> form = linear_form(simplify(write));
        if (!form) return false;
        int64_t lo = form->c, hi = form->c;
        for (auto &[name, k] : form->k) {
            std::optional<std::pair<int64_t, int64_t>> range = rvar_range(name);
            if (!range) return false;
            lo += k > 0 ? k * range->first : k * range->second;
            hi += k > 0 ? k * range->second : k * range->first;
        }
        return *c < lo || *c > hi;
    }

    // The smallest and largest values of an RVar of the update whose bounds are constants.
    std::optional<std::pair<int64_t, int64_t>> rvar_range(const std::string &v) const {
        if (!def_.rdom) return std::nullopt;
        for (auto &rv : def_.rdom->vars) {
            if (rv.name != v) continue;
            Expr mn = simplify(rv.min), extent = simplify(rv.extent);
            const int64_t *m = as_const_int(mn), *e = as_const_int(extent);
            if (!m || !e || *e <= 0 || *m < -(int64_t(1) << 31) || *m + *e > (int64_t(1) << 31)) return std::nullopt;
            return std::pair<int64_t, int64_t>{*m, *m + *e - 1};
        }
        return std::nullopt;
    }

    // e with every loop variable of the update renamed for one copy (A or B).
    Expr renamed(const Expr &e, const std::string &copy) const {
        std::map<std::string, Expr> names;
        struct Vars : IRVisitor {
            std::set<std::string> found;
            void visit(const Variable *op) override {
                if (!op->param) found.insert(op->name);
            }
        } vars;
        e.accept(&vars);
        for (auto &v : vars.found) names[v] = Variable::make(Int(32), v + copy);
        return substitute(names, e);
    }

    // A difference of positions as k_v (v_A - v_B) over the varying variables v plus a
    // constant (written with k keyed by v), or nothing if other variables remain or the two
    // copies of a variable have different coefficients.
    std::optional<LinearForm> as_differences(const LinearForm &form) const {
        LinearForm out;
        out.c = form.c;
        std::map<std::string, std::pair<int64_t, int64_t>> per_var;  // v -> (k of v$A, k of v$B)
        for (auto &[name, k] : form.k) {
            if (k == 0) continue;
            size_t at = name.size() >= 2 ? name.size() - 2 : 0;
            std::string base = name.substr(0, at), copy = name.substr(at);
            if (copy == "$A") per_var[base].first += k;
            else if (copy == "$B") per_var[base].second += k;
            else return std::nullopt;
        }
        for (auto &[v, ks] : per_var) {
            if (ks.first == 0 && ks.second == 0) continue;
            if (!varying_.count(v) || ks.first != -ks.second) return std::nullopt;
            out.k[v] = ks.first;
        }
        return out;
    }

    // The largest |v_A - v_B| for an RVar v of constant extent.
    std::optional<int64_t> largest_difference(const std::string &v) const {
        if (!def_.rdom) return std::nullopt;
        for (auto &rv : def_.rdom->vars) {
            if (rv.name != v) continue;
            Expr extent = simplify(rv.extent);
            const int64_t *e = as_const_int(extent);
            if (e) return *e - 1;
        }
        return std::nullopt;
    }

    const Definition &def_;
    std::set<std::string> varying_;
};

}  // namespace

bool rvar_loop_is_race_free(const FunctionContents &func, const Definition &def, const std::string &loop) {
    RaceProof proof(def, loop_origins(def, loop));
    Access write{def.args};
    std::vector<Access> others = reads_of(func, def);
    others.push_back(write);
    for (const Access &other : others) {
        if (!proof.never_meet(write, other)) return false;
    }
    return true;
}

}  // namespace halo
