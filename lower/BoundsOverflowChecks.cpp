#include "BoundsOverflowChecks.h"

#include <cstdint>
#include <utility>
#include <vector>

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
    Expr visit(const Variable *op) override {
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) {
            if (it->first == op->name) return it->second ? Variable::make(Int(64), wide_name(op->name)) : self(op);
        }
        return leaf(self(op));
    }
    Expr visit(const Cast *op) override { return leaf(self(op)); }
    Expr visit(const Load *op) override { return leaf(self(op)); }
    Expr visit(const Call *op) override { return leaf(self(op)); }
    // A let's body is computed exactly too, from the let's value computed exactly (bound beside
    // it, as name$int64: the parts of the body taken as they are, a cast's or a call's operand,
    // still read the 32-bit one). The lets that bounds inference makes of large interval ends
    // (x.hi$0 = ... in x.hi$0 + 1) are 32-bit sums that can wrap: an output of 2^30 + 1 columns
    // in tiles of 16 rounded its producer's vector loop up past INT32_MAX, and the input check
    // passed on the wrapped value.
    Expr visit(const Let *op) override {
        bool widened = is_int32(op->value);
        lets_.push_back({op->name, widened});
        Expr body = mutate(op->body);
        lets_.pop_back();
        if (widened) body = Let::make(wide_name(op->name), mutate(op->value), body);
        return Let::make(op->name, op->value, body);
    }

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

private:
    // The enclosing Lets, innermost last, and whether each one has an exact (int64) copy.
    std::vector<std::pair<std::string, bool>> lets_;
    static std::string wide_name(const std::string &name) { return name + "$int64"; }
};

Expr overflow_error(const std::string &name, const Expr &value) {
    return Call::make(Int(32), "halo_error_bounds_overflow", {StringImm::make(name), value}, Call::Extern);
}

// Asserts that min + extent - 1 (for a positive extent) is at most INT32_MAX.
Stmt last_fits(const std::string &name, const Expr &min, const Expr &extent) {
    Expr last = Widen64().mutate(min) + Widen64().mutate(extent) - Expr(int64_t(1));
    return AssertStmt::make(extent <= 0 || last <= Expr(int64_t(INT32_MAX)), overflow_error(name, last));
}

}  // namespace

// Whether a let inside loops computes bounds (a stage's loop min/max, a realization's
// min/extent): those are computed once per tile, from per-tile values that can still wrap
// near the ends of the range (a vector loop rounded up past INT_MAX, then clamped).
bool is_bound_name(const std::string &n) {
    auto ends_with = [&](const char *suffix) {
        std::string s(suffix);
        return n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0;
    };
    return ends_with(".min") || ends_with(".max") || ends_with(".extent");
}

namespace {

class AddChecks : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    // A loop's last value, min + extent - 1, must be a 32-bit coordinate too (the simplifier
    // may have folded the max it came from into the extent). Checked at every depth: a
    // producer computed inside a consumer's loop covers a per-iteration region that can
    // reach past the consumer's (a stencil's x + 1 at INT_MAX). One compare per loop entry.
    Stmt visit(const For *op) override {
        loop_depth_++;
        Stmt body = mutate(op->body);
        loop_depth_--;
        Stmt loop = For::make(op->name, op->min, op->extent, op->for_type, body);
        return Block::make(last_fits(op->name + ".last", op->min, op->extent), loop);
    }

    // Likewise the last coordinate of every region realized outside loops.
    Stmt visit(const Realize *op) override {
        std::vector<Stmt> checks;
        for (size_t d = 0; d < op->bounds.size() && loop_depth_ == 0; d++) {
            const Range &r = op->bounds[d];
            checks.push_back(last_fits(op->name + ".realize." + std::to_string(d) + ".max", r.min, r.extent));
        }
        checks.push_back(Realize::make(op->name, op->types, op->bounds, mutate(op->body)));
        return Block::make(checks);
    }

    // Outside loops every integer let is rechecked; inside them, the bounds.
    Stmt visit(const LetStmt *op) override {
        Stmt body = mutate(op->body);
        bool check = loop_depth_ == 0 || is_bound_name(op->name);
        if (check && is_int32(op->value) && !is_const(op->value) && !op->value.as<Variable>()) {
            Expr exact = Widen64().mutate(op->value);
            Expr var = Variable::make(Int(32), op->name);
            body = Block::make(AssertStmt::make(exact == Cast::make(Int(64), var), overflow_error(op->name, exact)), body);
        }
        return LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const AssertStmt *op) override {
        return AssertStmt::make(Widen64().mutate(op->condition), op->message);
    }

private:
    int loop_depth_ = 0;
};

}  // namespace

Stmt add_bounds_overflow_checks(const Stmt &s) { return AddChecks().mutate(s); }

Expr exact_int64(const Expr &e) { return Widen64().mutate(e); }

}  // namespace halo
