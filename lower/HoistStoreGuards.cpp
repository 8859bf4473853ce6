#include "HoistStoreGuards.h"

#include <optional>
#include <vector>

#include "Substitute.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

class HoistStoreGuards : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        // Guards that leave, outermost first (the store guards of two dimensions may both).
        std::vector<Expr> hoisted;
        while (std::optional<Expr> guard = take_invariant_guard(op->name, body)) hoisted.push_back(*guard);
        Stmt loop = body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        for (auto it = hoisted.rbegin(); it != hoisted.rend(); ++it) loop = IfThenElse::make(*it, loop);
        return loop;
    }

private:
    // If body is lets and then a store guard whose condition uses neither the loop variable
    // nor those lets, removes the guard from body (keeping the lets) and returns its
    // condition. Skipping the whole loop is then the same as skipping every iteration's body.
    // (Only a body that is nothing but the guard: anything beside it, such as a producer
    // computed per iteration, must still run.)
    static std::optional<Expr> take_invariant_guard(const std::string &loop_var, Stmt &body) {
        std::vector<const LetStmt *> lets;
        Stmt s = body;
        while (const LetStmt *let = s.as<LetStmt>()) {
            lets.push_back(let);
            s = let->body;
        }
        const IfThenElse *guard = s.as<IfThenElse>();
        if (!guard || guard->else_case.defined() || !is_store_guard(guard->condition) ||
            uses_any(guard->condition, loop_var, lets)) {
            return std::nullopt;
        }
        Expr condition = guard->condition;
        Stmt inner = guard->then_case;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) inner = LetStmt::make((*it)->name, (*it)->value, inner);
        body = inner;
        return condition;
    }
    static bool uses_any(const Expr &e, const std::string &loop_var, const std::vector<const LetStmt *> &lets) {
        if (expr_uses_var(e, loop_var)) return true;
        for (const LetStmt *let : lets)
            if (expr_uses_var(e, let->name)) return true;
        return false;
    }
};

}  // namespace

Stmt hoist_store_guards(const Stmt &s) { return HoistStoreGuards().mutate(s); }

}  // namespace halo
