#include "UnrollLoops.h"

#include <algorithm>

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
        user_assert(*n <= max_unroll_copies)
            << "loop '" << op->name << "' would be unrolled into " << *n << " copies (it is marked "
            << "unroll, and its extent is " << *n << "; a split of an unrolled loop keeps the mark on "
            << "both new loops). Halo unrolls at most " << max_unroll_copies << " copies: unroll the inner "
            << "loop of a split instead (unroll(x, factor)), or mark this loop serial()";
        user_assert(copies_ * *n <= max_nested_unroll_copies)
            << "loop '" << op->name << "' is unrolled inside other unrolled loops into "
            << copies_ * *n << " copies of its body in all; Halo unrolls at most " << max_nested_unroll_copies
            << ": unroll fewer of the nested loops";
        int64_t saved = copies_;
        copies_ *= std::max<int64_t>(*n, 1);
        Stmt body = mutate(op->body);
        copies_ = saved;
        return unrolled_copies(op, *n, body);
    }

private:
    int64_t copies_ = 1;  // copies the enclosing unrolled loops make
};

}  // namespace

Stmt unroll_loops(const Stmt &s) { return Unroller().mutate(s); }

Stmt unrolled_copies(const For *loop, int64_t copies, const Stmt &body) {
    std::vector<Stmt> result;
    for (int64_t i = 0; i < copies; i++) {
        result.push_back(LetStmt::make(loop->name, loop->min + Expr(int32_t(i)), body));
    }
    return Block::make(result);
}

}  // namespace halo
