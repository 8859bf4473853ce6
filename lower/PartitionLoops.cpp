#include "PartitionLoops.h"

#include <functional>
#include <map>
#include <set>

#include "Bounds.h"
#include "IREquality.h"
#include "ScheduleFunctions.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

bool is_likely_guard(const IfThenElse *op, const LE **le) {
    auto c = op->condition.as<Call>();
    if (!c || !c->is_intrinsic(Call::likely) || op->else_case.defined()) return false;
    *le = c->args[0].as<LE>();
    return *le != nullptr;
}

// Is e of the form c * var + rest (rest free of var), syntactically? The guard limit below
// checks linearity at var = 0, 1, 2 only, which lets through terms such as var % 8 (a fused
// loop's inner variable) and min(var * 8, m) (a ShiftInwards split): linear there, not past.
bool affine_in(const Expr &e, const std::string &var) {
    if (!expr_uses_var(e, var)) return true;
    if (const Variable *v = e.as<Variable>()) return v->name == var;
    if (const Add *a = e.as<Add>()) return affine_in(a->a, var) && affine_in(a->b, var);
    if (const Sub *d = e.as<Sub>()) return affine_in(d->a, var) && affine_in(d->b, var);
    if (const Mul *m = e.as<Mul>()) {
        return (is_const(m->a) && affine_in(m->b, var)) || (is_const(m->b) && affine_in(m->a, var));
    }
    return false;
}

// Finds the guards inside a loop body and, for each, the largest value of the loop variable
// for which the guard holds on every inner iteration.
class FindGuardLimit : public IRVisitor {
public:
    // collect_clamps: also collect the clamps min(A, B) of an innermost loop (visit(const Min *)).
    FindGuardLimit(const std::string &var, bool collect_clamps) : var_(var), collect_clamps_(collect_clamps) {}
    Expr limit;  // var <= limit makes every guard in `guards` true and every clamp take its A
    bool unsupported = false;
    std::set<const IfThenElse *> guards;
    // Clamps min(A, B), with A increasing in the loop variable and B free of it, that provably
    // take A up to the limit (by node, and which operand A is: true for a, false for b).
    std::map<const Min *, bool> clamps;

private:
    const std::string &var_;
    const bool collect_clamps_;
    Scope scope_;
    std::set<const Min *> clamps_not_removed_;

    // The largest var for which u <= 0, if u is coeff * var + rest (coeff > 0, rest free of var).
    Expr limit_of(const Expr &u) const {
        Expr rest = simplify(substitute(var_, Expr(0), u));
        Expr coeff = simplify(substitute(var_, Expr(1), u) - rest);
        const int64_t *c = as_const_int(coeff);
        if (!c || *c <= 0 || expr_uses_var(rest, var_) || !affine_in(u, var_) ||
            !can_prove(simplify(substitute(var_, Expr(2), u) - rest) == coeff * 2)) {
            return Expr();
        }
        // coeff * var + rest <= 0  <=>  var <= floor(-rest / coeff)
        return simplify((0 - rest) / coeff);
    }
    void tighten(const Expr &lim) { limit = limit.defined() ? simplify(min(limit, lim)) : lim; }
    // Whether e names a variable bound inside the loop (a limit is evaluated before it).
    bool uses_inner_name(const Expr &e) const {
        class Find : public IRVisitor {
        public:
            explicit Find(const std::set<std::string> &n) : names(n) {}
            const std::set<std::string> &names;
            bool found = false;
            void visit(const Variable *op) override { found = found || names.count(op->name) > 0; }
        } f(inner_names_);
        e.accept(&f);
        return f.found;
    }
    std::set<std::string> inner_names_;

    void visit(const For *op) override {
        Interval mn = bounds_of_expr_in_scope(op->min, scope_);
        Interval mx = bounds_of_expr_in_scope(simplify(op->min + op->extent - 1), scope_);
        auto saved = scope_;
        scope_[op->name] = Interval(mn.min, mx.max);
        inner_names_.insert(op->name);
        op->body.accept(this);
        scope_ = saved;
    }
    void visit(const LetStmt *op) override { visit_let(op); }
    void visit(const Let *op) override { visit_let(op); }
    // A let's body sees the bounds of its value (clamps may be in the value too).
    template <typename LetNode>
    void visit_let(const LetNode *op) {
        if (collect_clamps_) op->value.accept(this);
        auto saved = scope_;
        scope_[op->name] = bounds_of_expr_in_scope(op->value, scope_);
        inner_names_.insert(op->name);
        op->body.accept(this);
        scope_ = saved;
    }
    void visit(const IfThenElse *op) override {
        const LE *le = nullptr;
        if (!is_likely_guard(op, &le)) {
            IRVisitor::visit(op);
            return;
        }
        // The guard a <= b holds for every inner iteration iff max(a - b) <= 0.
        Interval d = bounds_of_expr_in_scope(simplify(le->a - le->b), scope_);
        if (!d.max.defined()) {
            unsupported = true;
            return;
        }
        Expr u = simplify(d.max);
        if (!expr_uses_var(u, var_)) {
            // A guard of another loop; nested guards of this one may be inside.
            not_removed.insert(op);
            visit_nested(op->then_case);
            return;
        }
        // u must be coeff * var + rest with a positive constant coeff and rest free of var.
        Expr lim = limit_of(u);
        if (!lim.defined() || uses_inner_name(lim)) {
            unsupported = true;
            return;
        }
        tighten(lim);
        guards.insert(op);
        if (guard_depth_ > 0 || (last_limit_.defined() && !equal(last_limit_, lim))) mixed_limits = true;
        last_limit_ = lim;
        // Guards nested inside count too: an inner loop partitioned before this one shares the
        // nodes below its own guards between its steady state and its tail, so one guard node
        // can be in both, under different ranges of that loop. Each place it is found in
        // tightens the limit, and it is removed only if every place allows it.
        visit_nested(op->then_case);
    }
    void visit_nested(const Stmt &s) {
        guard_depth_++;
        s.accept(this);
        guard_depth_--;
    }
    int guard_depth_ = 0;  // guards around the node visited
    Expr last_limit_;      // of the guard found last

    // A clamp min(A, B) of a ShiftInwards split, min(xo * 16 + x.min, x.max - 15), or of the
    // algorithm: where A <= B for every inner iteration it is A. Only in innermost loops, as
    // Halide's likely_if_innermost: partitioning an outer loop would copy all of its body for
    // a clamp evaluated once per iteration. One that cannot be analysed stays, and so does a
    // node that is also found where it cannot (nodes are shared between an inner loop's steady
    // state and tail).
    void visit(const Min *op) override {
        IRVisitor::visit(op);
        if (!collect_clamps_ || op->type != Int(32) || clamps_not_removed_.count(op)) return;
        bool a_moves = expr_uses_var(op->a, var_), b_moves = expr_uses_var(op->b, var_);
        if (a_moves == b_moves) return;
        const Expr &a = a_moves ? op->a : op->b, &b = a_moves ? op->b : op->a;
        Expr lim;
        if (affine_in(a, var_)) {
            Interval d = bounds_of_expr_in_scope(simplify(a - b), scope_);
            if (d.max.defined()) {
                Expr u = simplify(d.max);
                if (expr_uses_var(u, var_)) lim = limit_of(u);
            }
        }
        if (!lim.defined() || uses_inner_name(lim)) {
            clamps.erase(op);
            clamps_not_removed_.insert(op);
            return;
        }
        tighten(lim);
        clamps[op] = a_moves;
    }

public:
    // Guards found somewhere where they do not depend on the loop: kept everywhere.
    std::set<const IfThenElse *> not_removed;
    // Whether the guards' limits differ, or one is inside another: past the limit some guard
    // may then still hold, so the tail is not empty even if the body is nothing but guarded code.
    bool mixed_limits = false;
};

// The steady state's body: the guards removed, the clamps replaced by the operand they take.
class RemoveGuards : public IRMutator {
public:
    RemoveGuards(const std::set<const IfThenElse *> &g, const std::map<const Min *, bool> &c) : guards_(g), clamps_(c) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        if (guards_.count(op)) return mutate(op->then_case);
        return IRMutator::visit(op);
    }
    Expr visit(const Min *op) override {
        auto it = clamps_.find(op);
        if (it != clamps_.end()) return mutate(it->second ? op->a : op->b);
        return IRMutator::visit(op);
    }

private:
    const std::set<const IfThenElse *> &guards_;
    const std::map<const Min *, bool> &clamps_;
};

// Is s straight code once vectorized and unrolled: no serial or parallel loop, and no
// unrolled loop of a variable extent? (Such a loop is unrolled by the constant upper bound
// of its extent, which bounds analysis of a partially unclamped extent may no longer find.)
bool is_innermost(const Stmt &s) {
    class Find : public IRVisitor {
    public:
        bool found = false;
        void visit(const For *op) override {
            if (op->for_type == ForType::Serial || op->for_type == ForType::Parallel ||
                (op->for_type == ForType::Unrolled && !is_const(op->extent))) {
                found = true;
            } else {
                IRVisitor::visit(op);
            }
        }
    } f;
    s.accept(&f);
    return !f.found;
}

// Loops of a short constant extent are left to unroll_clamped_loops, whose copies each get a
// constant offset instead (same limit as its own).
bool short_constant_loop(const For *op) {
    const int64_t *ex = as_const_int(op->extent);
    return ex && *ex <= 32;
}

// Does s do nothing unless one of the guards holds (it is only lets around guarded code)?
bool only_guarded(const Stmt &s, const std::set<const IfThenElse *> &guards) {
    if (auto l = s.as<LetStmt>()) return only_guarded(l->body, guards);
    if (auto b = s.as<Block>()) return only_guarded(b->first, guards) && only_guarded(b->rest, guards);
    if (auto i = s.as<IfThenElse>()) return guards.count(i) > 0;
    return false;
}

class PartitionMutator : public IRMutator {
public:
    explicit PartitionMutator(const PartitionPolicies &policies) : policies_(policies) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    // The loops whose policy is Always: whether each was partitioned, or a loop inside it
    // (Halo peels a GuardWithIf tail off the inner loop of a split, where Halide peels it off
    // the outer), somewhere it is found.
    std::map<std::string, bool> always_partitioned;

    Stmt visit(const For *op) override {
        int before = partitions_;
        Stmt body = mutate(op->body);
        auto policy = policies_.find(op->name);
        Partition p = policy == policies_.end() ? Partition::Auto : policy->second.policy;
        Stmt s = partition(op, body, p);
        if (!s.as<For>()) partitions_++;
        if (p == Partition::Always) always_partitioned[op->name] |= partitions_ > before;
        return s;
    }

private:
    const PartitionPolicies &policies_;
    int partitions_ = 0;  // loops partitioned so far

    // The loop op with this body, partitioned if it can be and its policy allows (else a For again).
    Stmt partition(const For *op, const Stmt &body, Partition policy) {
        if (policy == Partition::Never || (op->for_type != ForType::Serial && op->for_type != ForType::Parallel)) {
            return For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        FindGuardLimit finder(op->name, !short_constant_loop(op) && is_innermost(body));
        body.accept(&finder);
        for (const IfThenElse *g : finder.not_removed) finder.guards.erase(g);
        if (finder.unsupported || !finder.limit.defined() || (finder.guards.empty() && finder.clamps.empty())) {
            return For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        // steady: [min, split), tail: [split, min + extent)
        std::string split_name = op->name + ".steady_end";
        Expr end = op->min + op->extent;
        Expr split = Variable::make(Int(32), split_name);
        Stmt steady = For::make(op->name, op->min, split - op->min, op->for_type,
                                RemoveGuards(finder.guards, finder.clamps).mutate(body));
        Stmt tail = For::make(op->name, split, end - split, op->for_type, body);
        Expr split_value = simplify(max(min(finder.limit + 1, end), op->min));
        // Past the limit every guard fails: if the body is nothing but guarded code, the tail
        // iterations do nothing at all (a split by a factor far larger than the loop would
        // otherwise spin through them).
        // (A clamp's limit may be the lower one: then guarded code still runs past it.)
        if (!finder.mixed_limits && finder.clamps.empty() && only_guarded(body, finder.guards)) return LetStmt::make(split_name, split_value, steady);
        return LetStmt::make(split_name, split_value, Block::make(steady, tail));
    }
};

}  // namespace

PartitionPolicies partition_policies(const Environment &env) {
    PartitionPolicies policies;
    std::function<void(const FunctionContents &, int, const Definition &)> add = [&](const FunctionContents &f, int stage,
                                                                                     const Definition &d) {
        for (const Dim &dim : d.schedule.dims) {
            if (dim.partition != Partition::Auto) {
                policies[stage_prefix(f.name, stage) + dim.var] = {dim.partition, f.name, dim.var};
            }
        }
        for (const Specialization &sp : d.specializations) add(f, stage, *sp.definition);
    };
    for (auto &[name, f] : env) {
        for (int k = 0; k < f->stages(); k++) add(*f, k, f->stage(k));
    }
    return policies;
}

Stmt partition_loops(const Stmt &s, const PartitionPolicies &policies) {
    PartitionMutator partition(policies);
    Stmt r = partition.mutate(s);
    for (auto &[loop, partitioned] : partition.always_partitioned) {
        const LoopPartitionPolicy &p = policies.at(loop);
        user_assert(partitioned) << "Func '" << p.func << "': loop " << loop << " has Partition::Always ("
                                 << "partition(" << p.var << ", Partition::Always) or always_partition), but there "
                                 << "was nothing to partition in it or in the loops inside it: no GuardWithIf tail or "
                                 << "clamp of a split to peel off. Use Partition::Auto, or split it with a tail that leaves one";
    }
    return r;
}

}  // namespace halo
