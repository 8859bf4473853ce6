#include "HoistStoreGuards.h"

#include <vector>

#include "Substitute.h"

namespace halo {

namespace {

class HoistStoreGuards : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        // The lets at the top of the body, then the guard: the guard moves out only if its
        // condition uses neither the loop variable nor those lets. Skipping the whole body is
        // then the same as skipping every iteration's. (Only a body that is nothing but the
        // guard: anything beside it, such as a producer computed per iteration, must still run.)
        std::vector<const LetStmt *> lets;
        Stmt s = body;
        while (const LetStmt *let = s.as<LetStmt>()) {
            lets.push_back(let);
            s = let->body;
        }
        const IfThenElse *guard = s.as<IfThenElse>();
        if (!guard || guard->else_case.defined() || !is_store_guard(guard->condition) ||
            uses_any(guard->condition, op->name, lets)) {
            return body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        Stmt inner = guard->then_case;
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) inner = LetStmt::make((*it)->name, (*it)->value, inner);
        // The loop may have another guard to give up now (the store guards of two dimensions).
        Stmt loop = For::make(op->name, op->min, op->extent, op->for_type, inner);
        return IfThenElse::make(guard->condition, visit(loop.as<For>()));
    }

private:
    static bool is_store_guard(const Expr &e) {
        const Call *c = e.as<Call>();
        return c && c->is_intrinsic(Call::store_guard);
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
