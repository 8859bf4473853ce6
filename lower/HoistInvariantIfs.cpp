#include "HoistInvariantIfs.h"

#include <set>
#include <string>

#include "IREquality.h"
#include "Substitute.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// What a statement does, as far as lifting an if goes: nothing at all, something only when
// `condition` is true, or something that no one condition guards.
struct Effect {
    enum Kind { Nothing, Under, Always } kind = Nothing;
    Expr condition;
    static Effect always() { return {Always, Expr()}; }
};

// Both a and b run (a block), or one of them does (the arms of an if).
Effect either(const Effect &a, const Effect &b) {
    if (a.kind == Effect::Nothing) return b;
    if (b.kind == Effect::Nothing) return a;
    if (a.kind == Effect::Under && b.kind == Effect::Under && equal(a.condition, b.condition)) return a;
    return Effect::always();
}

bool is_bounds_overflow_check(const AssertStmt *op) {
    const Call *message = op->message.as<Call>();
    return message && message->call_type == Call::Extern && message->name == "halo_error_bounds_overflow";
}

// Whether e has the same value in every iteration of a loop that binds the names in `inner`:
// it uses none of them, reads no memory and calls nothing but pure intrinsics.
bool is_invariant(const Expr &e, const std::set<std::string> &inner) {
    struct Checks : IRVisitor {
        const std::set<std::string> &inner;
        bool invariant = true;
        explicit Checks(const std::set<std::string> &names) : inner(names) {}
        using IRVisitor::visit;
        void visit(const Variable *op) override { invariant = invariant && !inner.count(op->name); }
        void visit(const Load *) override { invariant = false; }
        void visit(const Call *op) override {
            if (op->call_type != Call::Intrinsic || op->may_have_side_effects()) invariant = false;
            IRVisitor::visit(op);
        }
        void visit(const Let *op) override {
            // (A name bound inside the condition is the condition's own.)
            op->value.accept(this);
            bool bound = inner.count(op->name) > 0;
            if (bound) {
                op->body.accept(this);
            } else {
                std::set<std::string> with = inner;
                with.insert(op->name);
                Checks body(with);
                op->body.accept(&body);
                invariant = invariant && body.invariant;
            }
        }
    } checks(inner);
    e.accept(&checks);
    return checks.invariant;
}

bool may_have_side_effects(const Expr &e) {
    return has_call(e, [](const Call &c) { return c.may_have_side_effects(); });
}

// The effect of s, a statement inside a loop; `inner` holds the names bound between the loop
// and s (the loop's variable first).
Effect effect_of(const Stmt &s, std::set<std::string> &inner) {
    if (!s.defined()) return {};
    if (const Block *op = s.as<Block>()) {
        Effect first = effect_of(op->first, inner);
        if (first.kind == Effect::Always) return first;
        return either(first, effect_of(op->rest, inner));
    }
    if (const IfThenElse *op = s.as<IfThenElse>()) {
        if (may_have_side_effects(op->condition)) return Effect::always();
        Effect then_effect = effect_of(op->then_case, inner), else_effect = effect_of(op->else_case, inner);
        if (!op->else_case.defined() && then_effect.kind != Effect::Nothing && is_invariant(op->condition, inner)) {
            return {Effect::Under, op->condition};
        }
        return either(then_effect, else_effect);
    }
    // The statements that bind a name for their body: the name is the loop's own below.
    auto within = [&](const std::string &name, const Stmt &body) {
        bool added = inner.insert(name).second;
        Effect e = effect_of(body, inner);
        if (added) inner.erase(name);
        return e;
    };
    if (const LetStmt *op = s.as<LetStmt>()) {
        if (may_have_side_effects(op->value)) return Effect::always();
        return within(op->name, op->body);
    }
    if (const For *op = s.as<For>()) {
        if (may_have_side_effects(op->min) || may_have_side_effects(op->extent)) return Effect::always();
        return within(op->name, op->body);
    }
    if (const Allocate *op = s.as<Allocate>()) return within(op->name, op->body);
    if (const ProducerConsumer *op = s.as<ProducerConsumer>()) return effect_of(op->body, inner);
    if (const AssertStmt *op = s.as<AssertStmt>()) return is_bounds_overflow_check(op) ? Effect() : Effect::always();
    if (const Evaluate *op = s.as<Evaluate>()) {
        bool no_op = op->value.as<IntImm>() || op->value.as<UIntImm>();
        return no_op ? Effect() : Effect::always();
    }
    return Effect::always();  // a Store, or a node lowering has removed by now (Provide, Realize)
}

// Within an if on condition: the ifs on the same condition are true.
class DropIfsOn : public IRMutator {
public:
    explicit DropIfsOn(Expr condition) : condition_(std::move(condition)) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const IfThenElse *op) override {
        if (!op->else_case.defined() && equal(op->condition, condition_)) return mutate(op->then_case);
        return IRMutator::visit(op);
    }
    // Below a let or loop that binds a name the condition reads, an if on it tests another
    // value: left alone.
    Stmt visit(const LetStmt *op) override { return expr_uses_var(condition_, op->name) ? self(op) : IRMutator::visit(op); }
    Stmt visit(const For *op) override { return expr_uses_var(condition_, op->name) ? self(op) : IRMutator::visit(op); }

private:
    Expr condition_;
};

class HoistInvariantIfs : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        std::set<std::string> inner{op->name};
        Effect effect = effect_of(body, inner);
        Stmt loop = body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        if (effect.kind != Effect::Under) return loop;
        Stmt lifted_body = DropIfsOn(effect.condition).mutate(body);
        return IfThenElse::make(effect.condition, For::make(op->name, op->min, op->extent, op->for_type, lifted_body));
    }
};

}  // namespace

Stmt hoist_invariant_ifs(const Stmt &s) { return HoistInvariantIfs().mutate(s); }

}  // namespace halo
