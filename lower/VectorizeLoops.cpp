#include "VectorizeLoops.h"

#include <algorithm>
#include <map>

#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

Expr widen(const Expr &e, int lanes) {
    if (e.type().lanes() == lanes) return e;
    internal_assert(e.type().lanes() == 1) << "widening a vector of the wrong width";
    return Broadcast::make(e, lanes);
}

// Can this statement be vectorized as straight-line vector code (with inner serial loops)?
class CanVectorize : public IRVisitor {
public:
    CanVectorize(const std::string &var) : var_(var) {}
    bool ok = true;

private:
    const std::string &var_;
    void visit(const IfThenElse *op) override {
        // Conditions that vary across lanes would need predication: scalarize instead, unless
        // the condition only decides which points are stored (a store guard around stores
        // of vectors), which the vector code does under a mask.
        bool varies = expr_uses_var(op->condition, var_) || depends_on_lets(op->condition);
        if (varies && !(is_store_guard(op->condition) && !op->else_case.defined() && stores_vectors(op->then_case))) {
            ok = false;
        }
        IRVisitor::visit(op);
    }
    // Is s made of stores at indices that vary across lanes (and of lets, blocks and store
    // guards), and nothing else?
    bool stores_vectors(const Stmt &s) {
        if (const Store *st = s.as<Store>()) return expr_uses_var(st->index, var_) || depends_on_lets(st->index);
        if (const Block *b = s.as<Block>()) return stores_vectors(b->first) && stores_vectors(b->rest);
        if (const LetStmt *l = s.as<LetStmt>()) {
            // (The let's own lane dependence is recorded when visit(LetStmt) reaches it.)
            bool pushed = expr_uses_var(l->value, var_) || depends_on_lets(l->value);
            if (pushed) vector_lets_.push_back(l->name);
            bool ok_inside = stores_vectors(l->body);
            if (pushed) vector_lets_.pop_back();
            return ok_inside;
        }
        if (const IfThenElse *i = s.as<IfThenElse>()) {
            return is_store_guard(i->condition) && !i->else_case.defined() && stores_vectors(i->then_case);
        }
        return false;
    }
    void visit(const For *op) override {
        if (expr_uses_var(op->min, var_) || expr_uses_var(op->extent, var_) ||
            depends_on_lets(op->min) || depends_on_lets(op->extent) || op->for_type != ForType::Serial) {
            ok = false;
        }
        IRVisitor::visit(op);
    }
    // Already vector code (an inner loop was vectorized first): vectorizing this loop too
    // would need vectors of vectors; it stays a serial loop around the inner vectors.
    void visit(const Ramp *) override { ok = false; }
    void visit(const Broadcast *) override { ok = false; }
    void visit(const Variable *op) override {
        if (op->type.is_vector()) ok = false;
    }
    void visit(const Allocate *) override { ok = false; }
    // A check that is the same for every lane (the overflow checks of inner loops' bounds)
    // stays a scalar assert in the vector body; one that varies across lanes would need a
    // check per lane.
    void visit(const AssertStmt *op) override {
        if (expr_uses_var(op->condition, var_) || depends_on_lets(op->condition) ||
            expr_uses_var(op->message, var_) || depends_on_lets(op->message)) {
            ok = false;
        }
    }
    void visit(const Realize *) override { ok = false; }
    // A Func computed inside the loop (compute_at the lane loop) is computed once per lane,
    // over regions that overlap from lane to lane: all lanes at once would apply its updates
    // to the shared points once per lane (seed 1026246: a max-update applied twice).
    void visit(const ProducerConsumer *op) override {
        if (op->is_producer) ok = false;
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (call_runs_lane_by_lane(*op)) ok = false;
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        if (expr_uses_var(op->value, var_) || depends_on_lets(op->value)) vector_lets_.push_back(op->name);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        if (expr_uses_var(op->value, var_) || depends_on_lets(op->value)) vector_lets_.push_back(op->name);
        IRVisitor::visit(op);
    }
    bool depends_on_lets(const Expr &e) {
        for (auto &n : vector_lets_)
            if (expr_uses_var(e, n)) return true;
        return false;
    }
    std::vector<std::string> vector_lets_;
};

// Rewrites the body of a vectorized loop, with the loop variable replaced by a Ramp.
class Widen : public IRMutator {
public:
    Widen(const std::string &var, Expr replacement, int lanes)
        : loop_(var), lanes_(lanes) {
        vectors_[var] = replacement;
    }
    using IRMutator::mutate;
    using IRMutator::visit;

private:
    std::string loop_;
    int lanes_;
    std::map<std::string, Expr> vectors_;  // variables that now hold vectors

    // A let whose value became a vector binds a vector variable of its own.
    template <typename LetNode, typename Make>
    auto bind_vector(const LetNode *op, const Expr &v, Make make) {
        std::string vn = op->name + ".v";
        vectors_[op->name] = Variable::make(v.type(), vn);
        auto b = mutate(op->body);
        vectors_.erase(op->name);
        return make(vn, v, b);
    }

    Expr visit(const Variable *op) override {
        auto it = vectors_.find(op->name);
        return it == vectors_.end() ? self(op) : it->second;
    }
    template <typename Node>
    Expr binary(const Node *op) {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (a.same_as(op->a) && b.same_as(op->b)) return self(op);
        int l = std::max(a.type().lanes(), b.type().lanes());
        return Node::make(widen(a, l), widen(b, l));
    }
    Expr visit(const Add *op) override { return binary(op); }
    Expr visit(const Sub *op) override { return binary(op); }
    Expr visit(const Mul *op) override { return binary(op); }
    Expr visit(const Div *op) override { return binary(op); }
    Expr visit(const Mod *op) override { return binary(op); }
    Expr visit(const Min *op) override { return binary(op); }
    Expr visit(const Max *op) override { return binary(op); }
    Expr visit(const EQ *op) override { return binary(op); }
    Expr visit(const NE *op) override { return binary(op); }
    Expr visit(const LT *op) override { return binary(op); }
    Expr visit(const LE *op) override { return binary(op); }
    Expr visit(const GT *op) override { return binary(op); }
    Expr visit(const GE *op) override { return binary(op); }
    Expr visit(const And *op) override { return binary(op); }
    Expr visit(const Or *op) override { return binary(op); }
    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        if (v.same_as(op->value)) return self(op);
        return Cast::make(op->type.with_lanes(v.type().lanes()), v);
    }
    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
        if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self(op);
        int l = std::max({int(c.type().lanes()), int(t.type().lanes()), int(f.type().lanes())});
        return Select::make(widen(c, l), widen(t, l), widen(f, l));
    }
    Expr visit(const Load *op) override {
        Expr i = mutate(op->index);
        if (i.same_as(op->index)) return self(op);
        return Load::make(op->type.with_lanes(i.type().lanes()), op->name, i);
    }
    Expr visit(const Call *op) override {
        std::vector<Expr> args;
        bool changed = false;
        int l = 1;
        for (auto &a : op->args) {
            args.push_back(mutate(a));
            changed |= !args.back().same_as(a);
            l = std::max(l, int(args.back().type().lanes()));
        }
        if (!changed) return self(op);
        // (A string, as in a require()'s message, stays one.)
        for (auto &a : args) {
            if (!a.as<StringImm>()) a = widen(a, l);
        }
        return Call::make(op->type.with_lanes(l), op->name, args, op->call_type, op->func, op->param);
    }
    // A let (expression or statement) whose value may have widened. A Ramp or Broadcast is
    // substituted, not bound: index arithmetic on a visible Ramp folds into a dense access (a
    // common subexpression "x + 1" of the lane variable bound to a vector variable made every
    // load indexed by it a gather: 24 per pixel in harris). Another vector binds a vector
    // variable of its own.
    template <typename LetNode, typename Make>
    auto widen_let(const LetNode *op, Make make) {
        using Body = decltype(mutate(op->body));
        Expr v = mutate(op->value);
        if (v.type().is_vector()) v = simplify(v);
        if (v.as<Ramp>() || v.as<Broadcast>()) {
            vectors_[op->name] = v;
            Body b = mutate(op->body);
            vectors_.erase(op->name);
            return b;
        }
        if (v.type().is_vector()) return Body(bind_vector(op, v, make));
        Body b = mutate(op->body);
        return v.same_as(op->value) && b.same_as(op->body) ? Body(self(op)) : Body(make(op->name, v, b));
    }
    Expr visit(const Let *op) override { return widen_let(op, &Let::make); }
    Stmt visit(const LetStmt *op) override { return widen_let(op, &LetStmt::make); }
    Stmt visit(const Store *op) override {
        Expr v = mutate(op->value), i = mutate(op->index);
        if (v.same_as(op->value) && i.same_as(op->index)) return self(op);
        int l = std::max(v.type().lanes(), i.type().lanes());
        // (The atomic stage's own vectorized loops run unrolled: this is another Func's loop.)
        user_assert(!op->atomic) << "The atomic() update of '" << op->name << "' is computed inside the vectorized loop '"
                                 << loop_ << "', whose lanes would update it all at once; compute it at a loop "
                                 << "outside the vectorized one, or do not vectorize that loop";
        return Store::make(op->name, widen(v, l), widen(i, l));
    }
};

class VectorizeAll : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        if (op->for_type != ForType::Vectorized) {
            return body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        Expr extent = simplify(op->extent);
        const int64_t *n = as_const_int(extent);
        if (!n || *n <= 0 || *n > 64) {
            // Not a known width (vectorize(var) without a split): stays a scalar loop.
            return For::make(op->name, op->min, extent, ForType::Serial, body);
        }
        CanVectorize check(op->name);
        body.accept(&check);
        if (*n == 1) return LetStmt::make(op->name, op->min, body);
        if (!check.ok) {
            // Predicated or otherwise irregular bodies run lane by lane.
            return For::make(op->name, op->min, extent, ForType::Serial, body);
        }
        Expr ramp = Ramp::make(op->min, Expr(1), int(*n));
        return Widen(op->name, ramp, int(*n)).mutate(body);
    }
};

}  // namespace

bool call_runs_lane_by_lane(const Call &c) {
    return c.call_type == Call::Extern || c.call_type == Call::ExternC || c.is_intrinsic(Call::print) ||
           c.is_intrinsic(Call::print_when) || c.is_intrinsic(Call::atomic_lock);
}

Stmt vectorize_loops(const Stmt &s) { return VectorizeAll().mutate(s); }

}  // namespace halo
