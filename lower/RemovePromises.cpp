#include "RemovePromises.h"

namespace halo {

namespace {

class RemovePromises : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped)) {
            return mutate(op->args[0]);
        }
        return IRMutator::visit(op);
    }
};

}  // namespace

Stmt remove_promises(const Stmt &s) { return RemovePromises().mutate(s); }

}  // namespace halo
