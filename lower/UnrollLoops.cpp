#include "UnrollLoops.h"

#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

class Unroller : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) return IRMutator::visit(op);
        Expr extent = simplify(op->extent);
        const int64_t *n = as_const_int(extent);
        user_assert(n) << "unroll of loop '" << op->name << "' whose extent (" << extent
                       << ") is not a constant; unroll by a constant factor with unroll(var, factor)";
        Stmt body = mutate(op->body);
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < *n; i++) {
            copies.push_back(LetStmt::make(op->name, op->min + Expr(int32_t(i)), body));
        }
        return Block::make(copies);
    }
};

}  // namespace

Stmt unroll_loops(const Stmt &s) { return Unroller().mutate(s); }

}  // namespace halo
