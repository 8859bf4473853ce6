#include "BoundsOverflowChecks.h"

#include "dsl/IROperator.h"

namespace halo {

namespace {

bool is_int32(const Expr &e) { return e.type() == Int(32); }

// The exact value of a 32-bit integer expression, computed in 64 bits (for the values these
// expressions take, no 64-bit operation overflows). Leaves (variables, loads, casts, calls)
// are taken as they are: the variables are earlier lets, already checked.
class Widen64 : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Expr leaf(const Expr &e) { return is_int32(e) ? Cast::make(Int(64), e) : e; }

    Expr visit(const IntImm *op) override {
        return op->type == Int(32) ? Expr(int64_t(op->value)) : self(op);
    }
    Expr visit(const Variable *op) override { return leaf(self(op)); }
    Expr visit(const Cast *op) override { return leaf(self(op)); }
    Expr visit(const Load *op) override { return leaf(self(op)); }
    Expr visit(const Call *op) override { return leaf(self(op)); }
    Expr visit(const Let *op) override { return leaf(self(op)); }

    template <typename Node>
    Expr arith(const Node *op) {
        if (!is_int32(op->a)) return self(op);
        return Node::make(mutate(op->a), mutate(op->b));
    }
    Expr visit(const Add *op) override { return arith(op); }
    Expr visit(const Sub *op) override { return arith(op); }
    Expr visit(const Mul *op) override { return arith(op); }
    Expr visit(const Div *op) override { return arith(op); }
    Expr visit(const Mod *op) override { return arith(op); }
    Expr visit(const Min *op) override { return arith(op); }
    Expr visit(const Max *op) override { return arith(op); }
    Expr visit(const EQ *op) override { return arith(op); }
    Expr visit(const NE *op) override { return arith(op); }
    Expr visit(const LT *op) override { return arith(op); }
    Expr visit(const LE *op) override { return arith(op); }
    Expr visit(const GT *op) override { return arith(op); }
    Expr visit(const GE *op) override { return arith(op); }
    Expr visit(const Select *op) override {
        if (!is_int32(op->true_value)) return self(op);
        return Select::make(mutate(op->condition), mutate(op->true_value), mutate(op->false_value));
    }
    // And, Or, Not: the default recursion widens the comparisons inside.
};

class AddChecks : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    // Inside loops, bounds are computed per iteration from the checked ones outside.
    Stmt visit(const For *op) override { return self(op); }

    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        if (is_int32(op->value) && !is_const(op->value) && !op->value.as<Variable>()) {
            Expr exact = Widen64().mutate(op->value);
            Expr var = Variable::make(Int(32), op->name);
            Expr msg = Call::make(Int(32), "halo_error_bounds_overflow",
                                  {StringImm::make(op->name), exact}, Call::Extern);
            body = Block::make(AssertStmt::make(exact == Cast::make(Int(64), var), msg), body);
        }
        return LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const AssertStmt *op) override {
        return AssertStmt::make(Widen64().mutate(op->condition), op->message);
    }
};

}  // namespace

Stmt add_bounds_overflow_checks(const Stmt &s) { return AddChecks().mutate(s); }

}  // namespace halo
