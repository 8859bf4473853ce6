#include "UnrollClampedLoops.h"

#include "Simplify.h"
#include "UnrollLoops.h"
#include "dsl/IROperator.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// Longest loop unrolled, and the most IR nodes all copies may have together.
const int64_t max_copies = 32;
const int64_t max_unrolled_nodes = 8192;

// Counts IR nodes, and among them loops, allocations and clamps (min and max).
class Census : public IRVisitor {
public:
    using IRVisitor::visit;
    int64_t nodes = 0, clamps = 0;
    bool has_loop_or_allocation = false;

#define HALO_COUNT_NODE(N)                  \
    void visit(const N *op) override {      \
        note(op);                           \
        IRVisitor::visit(op);               \
    }
    HALO_FOR_EACH_EXPR_NODE(HALO_COUNT_NODE)
    HALO_FOR_EACH_STMT_NODE(HALO_COUNT_NODE)
#undef HALO_COUNT_NODE

private:
    template <typename Node>
    void note(const Node *) {
        nodes++;
    }
    void note(const Min *) { nodes++, clamps++; }
    void note(const Max *) { nodes++, clamps++; }
    void note(const For *) { nodes++, has_loop_or_allocation = true; }
    void note(const Allocate *) { nodes++, has_loop_or_allocation = true; }
};

Census census(const Stmt &s) {
    Census c;
    s.accept(&c);
    return c;
}

class Unroller : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Serial) return IRMutator::visit(op);
        const int64_t *mn = as_const_int(op->min), *ex = as_const_int(op->extent);
        if (!mn || !ex || *ex < 2 || *ex > max_copies) return IRMutator::visit(op);
        Census body = census(op->body);
        if (body.has_loop_or_allocation || body.clamps == 0 || body.nodes * *ex > max_unrolled_nodes) {
            return IRMutator::visit(op);
        }
        // Unrolled only where a copy (the first; the others differ only in a constant) has
        // fewer clamps than the loop body: a loop whose clamps stay gains nothing.
        Stmt first = simplify(LetStmt::make(op->name, op->min, op->body));
        if (census(first).clamps >= body.clamps) return IRMutator::visit(op);
        return unrolled_copies(op, *ex, op->body);
    }
};

}  // namespace

Stmt unroll_clamped_loops(const Stmt &s) { return Unroller().mutate(s); }

}  // namespace halo
