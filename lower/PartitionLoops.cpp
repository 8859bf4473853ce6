#include "PartitionLoops.h"

#include <set>

#include "Bounds.h"
#include "IREquality.h"
#include "Simplify.h"
#include "Substitute.h"
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
    explicit FindGuardLimit(const std::string &var) : var_(var) {}
    Expr limit;  // var <= limit makes every guard in `guards` true
    bool unsupported = false;
    std::set<const IfThenElse *> guards;

private:
    const std::string &var_;
    Scope scope_;

    void visit(const For *op) override {
        Interval mn = bounds_of_expr_in_scope(op->min, scope_);
        Interval mx = bounds_of_expr_in_scope(simplify(op->min + op->extent - 1), scope_);
        auto saved = scope_;
        scope_[op->name] = Interval(mn.min, mx.max);
        op->body.accept(this);
        scope_ = saved;
    }
    void visit(const LetStmt *op) override {
        auto saved = scope_;
        scope_[op->name] = bounds_of_expr_in_scope(op->value, scope_);
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
        Expr rest = simplify(substitute(var_, Expr(0), u));
        Expr coeff = simplify(substitute(var_, Expr(1), u) - rest);
        const int64_t *c = as_const_int(coeff);
        if (!c || *c <= 0 || expr_uses_var(rest, var_) || !affine_in(u, var_) ||
            !can_prove(simplify(substitute(var_, Expr(2), u) - rest) == coeff * 2)) {
            unsupported = true;
            return;
        }
        // coeff * var + rest <= 0  <=>  var <= floor(-rest / coeff)
        Expr lim = simplify((0 - rest) / coeff);
        limit = limit.defined() ? simplify(min(limit, lim)) : lim;
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

public:
    // Guards found somewhere where they do not depend on the loop: kept everywhere.
    std::set<const IfThenElse *> not_removed;
    // Whether the guards' limits differ, or one is inside another: past the limit some guard
    // may then still hold, so the tail is not empty even if the body is nothing but guarded code.
    bool mixed_limits = false;
};

class RemoveGuards : public IRMutator {
public:
    explicit RemoveGuards(const std::set<const IfThenElse *> &g) : guards_(g) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        if (guards_.count(op)) return mutate(op->then_case);
        return IRMutator::visit(op);
    }

private:
    const std::set<const IfThenElse *> &guards_;
};

// Does s do nothing unless one of the guards holds (it is only lets around guarded code)?
bool only_guarded(const Stmt &s, const std::set<const IfThenElse *> &guards) {
    if (auto l = s.as<LetStmt>()) return only_guarded(l->body, guards);
    if (auto b = s.as<Block>()) return only_guarded(b->first, guards) && only_guarded(b->rest, guards);
    if (auto i = s.as<IfThenElse>()) return guards.count(i) > 0;
    return false;
}

class Partition : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->for_type != ForType::Serial && op->for_type != ForType::Parallel) {
            return For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        FindGuardLimit finder(op->name);
        body.accept(&finder);
        for (const IfThenElse *g : finder.not_removed) finder.guards.erase(g);
        if (finder.unsupported || !finder.limit.defined() || finder.guards.empty()) {
            return For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        // steady: [min, split), tail: [split, min + extent)
        std::string split_name = op->name + ".steady_end";
        Expr end = op->min + op->extent;
        Expr split = Variable::make(Int(32), split_name);
        Stmt steady = For::make(op->name, op->min, split - op->min, op->for_type, RemoveGuards(finder.guards).mutate(body));
        Stmt tail = For::make(op->name, split, end - split, op->for_type, body);
        Expr split_value = simplify(max(min(finder.limit + 1, end), op->min));
        // Past the limit every guard fails: if the body is nothing but guarded code, the tail
        // iterations do nothing at all (a split by a factor far larger than the loop would
        // otherwise spin through them).
        if (!finder.mixed_limits && only_guarded(body, finder.guards)) return LetStmt::make(split_name, split_value, steady);
        return LetStmt::make(split_name, split_value, Block::make(steady, tail));
    }
};

}  // namespace

Stmt partition_loops(const Stmt &s) { return Partition().mutate(s); }

}  // namespace halo
