// Base classes for walking (IRVisitor) and rewriting (IRMutator) the IR. Every pass derives
// from one of them and overrides only the nodes it cares about.
#pragma once

#include <functional>
#include <unordered_map>
#include <utility>

#include "IR.h"

namespace halo {

#define HALO_FOR_EACH_EXPR_NODE(X)                                                          \
    X(IntImm) X(UIntImm) X(FloatImm) X(StringImm) X(Cast) X(Variable) X(Add) X(Sub) X(Mul)  \
    X(Div) X(Mod) X(Min) X(Max) X(EQ) X(NE) X(LT) X(LE) X(GT) X(GE) X(And) X(Or) X(Not)     \
    X(Select) X(Load) X(Ramp) X(Broadcast) X(Call) X(Let)
#define HALO_FOR_EACH_STMT_NODE(X)                                                        \
    X(LetStmt) X(AssertStmt) X(ProducerConsumer) X(For) X(Store) X(Provide) X(Allocate)   \
    X(Realize) X(Block) X(IfThenElse) X(Evaluate)

class IRVisitor {
public:
    virtual ~IRVisitor() = default;
#define HALO_DECLARE_VISIT(N) virtual void visit(const N *op);
    HALO_FOR_EACH_EXPR_NODE(HALO_DECLARE_VISIT)
    HALO_FOR_EACH_STMT_NODE(HALO_DECLARE_VISIT)
#undef HALO_DECLARE_VISIT
};

class IRMutator {
public:
    virtual ~IRMutator() = default;
    virtual Expr mutate(const Expr &e) { return e.defined() ? e.get()->mutate(this) : e; }
    virtual Stmt mutate(const Stmt &s) { return s.defined() ? s.get()->mutate(this) : s; }
#define HALO_DECLARE_EXPR_VISIT(N) virtual Expr visit(const N *op);
#define HALO_DECLARE_STMT_VISIT(N) virtual Stmt visit(const N *op);
    HALO_FOR_EACH_EXPR_NODE(HALO_DECLARE_EXPR_VISIT)
    HALO_FOR_EACH_STMT_NODE(HALO_DECLARE_STMT_VISIT)
#undef HALO_DECLARE_EXPR_VISIT
#undef HALO_DECLARE_STMT_VISIT

    // The handle of a node that a visit leaves unchanged.
    static Expr self(const BaseExprNode *op) {
        return Expr(std::static_pointer_cast<const BaseExprNode>(op->shared_from_this()));
    }
    static Stmt self(const BaseStmtNode *op) {
        return Stmt(std::static_pointer_cast<const BaseStmtNode>(op->shared_from_this()));
    }
};

// Whether e (if defined) contains a Call for which `matches` holds.
inline bool has_call(const Expr &e, const std::function<bool(const Call &)> &matches) {
    struct Finds : IRVisitor {
        const std::function<bool(const Call &)> &matches;
        bool found = false;
        explicit Finds(const std::function<bool(const Call &)> &m) : matches(m) {}
        void visit(const Call *op) override {
            found = found || matches(*op);
            IRVisitor::visit(op);
        }
    } finds(matches);
    if (e.defined()) e.accept(&finds);
    return finds.found;
}

// Whether ir (an Expr or a Stmt) contains a node of type Node.
template <typename Node, typename IR>
bool contains_node(const IR &ir) {
    struct Finds : IRVisitor {
        bool found = false;
        using IRVisitor::visit;
        void visit(const Node *) override { found = true; }
    } finds;
    ir.accept(&finds);
    return finds.found;
}

// The results of a mutator's visits by node, for a mutator whose result for a node depends on
// the node alone: an expression is a graph (e + e, a value reused), and mutating it node by node
// along every path would take time, and build a tree, exponential in its depth.
class MutationMemo {
public:
    template <typename MutateOnce>
    Expr get(const Expr &e, MutateOnce mutate_once) {
        if (!e.defined()) return e;
        auto done = results_.find(e.get());
        if (done != results_.end()) return done->second.second;
        Expr r = mutate_once(e);
        results_.emplace(e.get(), std::make_pair(e, r));  // keeps e alive: its address stays unique
        return r;
    }
    void clear() { results_.clear(); }
    void swap(MutationMemo &other) { results_.swap(other.results_); }

private:
    std::unordered_map<const BaseExprNode *, std::pair<Expr, Expr>> results_;  // node -> (node, result)
};

template <typename T, IRNodeType NT>
void ExprNode<T, NT>::accept(IRVisitor *v) const { v->visit(static_cast<const T *>(this)); }
template <typename T, IRNodeType NT>
Expr ExprNode<T, NT>::mutate(IRMutator *m) const { return m->visit(static_cast<const T *>(this)); }
template <typename T, IRNodeType NT>
void StmtNode<T, NT>::accept(IRVisitor *v) const { v->visit(static_cast<const T *>(this)); }
template <typename T, IRNodeType NT>
Stmt StmtNode<T, NT>::mutate(IRMutator *m) const { return m->visit(static_cast<const T *>(this)); }

}  // namespace halo
