#include "BoundConstantExtentLoops.h"

#include <algorithm>
#include <map>
#include <optional>

#include "Bounds.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/IROperator.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

class BoundLoops : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const LetStmt *op) override {
        Interval value = bounds_of_expr_in_scope(op->value, scope_);
        auto saved_value = bind(lets_, op->name, op->value);
        Stmt body = with(op->name, value, op->body);
        restore(lets_, op->name, saved_value);
        return body.same_as(op->body) ? self(op) : LetStmt::make(op->name, op->value, body);
    }

    Stmt visit(const For *op) override {
        bool wants_constant = op->for_type == ForType::Unrolled || op->for_type == ForType::Vectorized;
        std::optional<int64_t> n;
        Expr extent = simplify(op->extent);
        if (wants_constant && !as_const_int(extent)) n = constant_bound(op->extent);
        // A bound is worth having only where it makes copies or vectors (unroll_loops makes
        // at most 256 copies; vectorize_loops makes vectors of up to 64 lanes). Beyond, the
        // loop would run all of its bound every time (an extent bounded only by 2^31 - 1 ran
        // for minutes), so it is left as it is.
        const int64_t useful = op->for_type == ForType::Unrolled ? 256 : 64;
        if (n && *n > useful) n.reset();
        if (!n) {
            // A constant extent already, or none to be found: unroll_loops reports the latter;
            // a vectorized loop stays serial.
            Stmt body = with(op->name, loop_range(op->min, simplify(op->min + op->extent - 1)), op->body);
            return body.same_as(op->body) ? self(op) : For::make(op->name, op->min, op->extent, op->for_type, body);
        }
        Expr constant = Expr(int32_t(std::max<int64_t>(*n, 0)));
        Stmt body = with(op->name, loop_range(op->min, simplify(op->min + constant - 1)), op->body);
        Expr var = Variable::make(Int(32), op->name);
        body = IfThenElse::make(likely(var < op->min + op->extent), body);
        return For::make(op->name, op->min, constant, op->for_type, body);
    }

private:
    // The interval of a loop variable: constants where the loop's ends have constant bounds in
    // the enclosing scope (a partitioned loop's steady part runs to a let, steady_end = 2),
    // else the ends themselves.
    Interval loop_range(const Expr &first, const Expr &last) {
        std::optional<int64_t> lo = constant_in_scope(first, false), hi = constant_in_scope(last, true);
        if (lo && hi && *lo >= INT32_MIN && *hi <= INT32_MAX) {
            return Interval(Expr(int32_t(*lo)), Expr(int32_t(*hi)));
        }
        return Interval(first, last);
    }

    // A constant lower (upper) bound of e from constants and the variables whose intervals in
    // the scope are constants, through sums, differences, products by constants, min and max;
    // nothing otherwise. (Cheap on purpose: it runs for every loop, and intervals of whole
    // expressions built and simplified there made large pipelines compile for minutes.)
    std::optional<int64_t> constant_in_scope(const Expr &e, bool upper, int depth = 0) {
        if (depth > 64) return std::nullopt;
        if (const int64_t *k = as_const_int(e)) return *k;
        if (auto v = e.as<Variable>()) {
            auto it = scope_.find(v->name);
            if (it == scope_.end()) return std::nullopt;
            const Expr &end = upper ? it->second.max : it->second.min;
            if (!end.defined()) return std::nullopt;
            if (const int64_t *k = as_const_int(end)) return *k;
            if (end.as<Variable>() && end.as<Variable>()->name == v->name) return std::nullopt;
            return constant_in_scope(end, upper, depth + 1);
        }
        auto both = [&](const Expr &a, bool ua, const Expr &b, bool ub, auto combine) -> std::optional<int64_t> {
            auto x = constant_in_scope(a, ua, depth + 1);
            if (!x) return std::nullopt;
            auto y = constant_in_scope(b, ub, depth + 1);
            if (!y) return std::nullopt;
            return combine(*x, *y);
        };
        if (auto a = e.as<Add>()) return both(a->a, upper, a->b, upper, [](int64_t x, int64_t y) { return x + y; });
        if (auto s = e.as<Sub>()) return both(s->a, upper, s->b, !upper, [](int64_t x, int64_t y) { return x - y; });
        if (auto m = e.as<Min>()) return both(m->a, upper, m->b, upper, [](int64_t x, int64_t y) { return std::min(x, y); });
        if (auto m = e.as<Max>()) return both(m->a, upper, m->b, upper, [](int64_t x, int64_t y) { return std::max(x, y); });
        if (auto m = e.as<Mul>()) {
            for (auto [k, other] : {std::pair{m->a, m->b}, std::pair{m->b, m->a}}) {
                const int64_t *c = as_const_int(k);
                if (!c || *c > (1 << 20) || *c < -(1 << 20)) continue;
                auto x = constant_in_scope(other, *c >= 0 ? upper : !upper, depth + 1);
                if (x && *x < (int64_t(1) << 40) && *x > -(int64_t(1) << 40)) return *x * *c;
                return std::nullopt;
            }
        }
        return std::nullopt;
    }

    Scope scope_;                        // loop variables and lets: the intervals they lie in
    std::map<std::string, Expr> lets_;  // the lets' values
    int budget_ = 0;                     // steps upper_bound may still take for one extent

    // A constant upper bound of a loop extent: with the lets substituted, so that max - min
    // of one region can cancel; then from the intervals of the lets and loops.
    std::optional<int64_t> constant_bound(const Expr &extent) {
        Expr e = extent;
        for (int depth = 0; depth < 32; depth++) {
            Expr next = substitute(lets_, e);
            if (next.same_as(e)) break;
            e = next;
        }
        budget_ = 4096;
        Expr simple = simplify(e);
        if (auto k = upper_bound(simple)) return k;
        for (const Expr &candidate : {simple, e, extent}) {
            Interval b = bounds_of_expr_in_scope(candidate, scope_);
            if (!b.max.defined()) continue;
            Expr upper = simplify(b.max);
            if (const int64_t *k = as_const_int(upper)) return *k;
            if (auto k = constant_upper_bound(upper)) return k;
        }
        return std::nullopt;
    }

    // An upper bound of e. A region's extent is max - min + 1, both sides clamped with min,
    // max and select: the difference is taken apart into differences of their arms, whose
    // common terms cancel (max(a, b) - c is max(a - c, b - c), and c - min(a, b) is
    // max(c - a, c - b)). No bound is unbounded, so which side is taken apart first matters:
    // both orders are tried and the smaller bound kept.
    std::optional<int64_t> upper_bound(const Expr &e) {
        if (--budget_ < 0) return std::nullopt;
        if (const int64_t *k = as_const_int(e)) return *k;
        if (auto a = e.as<Add>()) {
            if (const int64_t *k = as_const_int(a->b)) {
                auto u = upper_bound(a->a);
                if (u) return *u + *k;
                return std::nullopt;
            }
        }
        if (auto m = e.as<Mul>()) {
            // k * e for a positive constant k: k times e's bound (2 * min(w, 0) is at most 0).
            for (auto [k, other] : {std::pair{m->a, m->b}, std::pair{m->b, m->a}}) {
                const int64_t *c = as_const_int(k);
                if (!c || *c <= 0 || *c > (1 << 20)) continue;
                auto u = upper_bound(other);
                if (u && *u < (int64_t(1) << 40) && *u > -(int64_t(1) << 40)) return *u * *c;
            }
        }
        if (auto m = e.as<Min>()) return smaller(upper_bound(m->a), upper_bound(m->b));
        if (auto m = e.as<Max>()) return larger(upper_bound(m->a), upper_bound(m->b));
        if (auto s = e.as<Select>()) return larger(upper_bound(s->true_value), upper_bound(s->false_value));
        if (auto d = e.as<Sub>()) {
            std::optional<int64_t> left = split_side(d->a, d->b, true), right = split_side(d->a, d->b, false);
            if (left || right) return smaller(left, right);
        }
        Expr simple = simplify(e);
        if (const int64_t *k = as_const_int(simple)) return *k;
        // The loops' and lets' constant ranges (0 - r * 2 is at most 0 for r in [0, 1]).
        if (auto k = constant_in_scope(simple, true)) return k;
        return constant_upper_bound(simple);
    }
    // The bound of a - b from the arms of a (first) or of b; nothing if that side has none.
    std::optional<int64_t> split_side(const Expr &a, const Expr &b, bool first) {
        auto diff = [&](const Expr &x, const Expr &y) { return upper_bound(simplify(x - y)); };
        if (first) {
            if (auto m = a.as<Min>()) return smaller(diff(m->a, b), diff(m->b, b));
            if (auto m = a.as<Max>()) return larger(diff(m->a, b), diff(m->b, b));
            if (auto s = a.as<Select>()) return larger(diff(s->true_value, b), diff(s->false_value, b));
        } else {
            if (auto m = b.as<Min>()) return larger(diff(a, m->a), diff(a, m->b));
            if (auto m = b.as<Max>()) return smaller(diff(a, m->a), diff(a, m->b));
            if (auto s = b.as<Select>()) return larger(diff(a, s->true_value), diff(a, s->false_value));
        }
        return std::nullopt;
    }
    // min and max of bounds where nothing stands for no bound (+infinity).
    static std::optional<int64_t> smaller(std::optional<int64_t> a, std::optional<int64_t> b) {
        if (!a) return b;
        if (!b) return a;
        return std::min(*a, *b);
    }
    static std::optional<int64_t> larger(std::optional<int64_t> a, std::optional<int64_t> b) {
        if (!a || !b) return std::nullopt;
        return std::max(*a, *b);
    }

    template <typename T>
    static std::optional<T> bind(std::map<std::string, T> &m, const std::string &name, const T &value) {
        auto old = m.find(name);
        std::optional<T> saved;
        if (old != m.end()) saved = old->second;
        m[name] = value;
        return saved;
    }
    template <typename T>
    static void restore(std::map<std::string, T> &m, const std::string &name, const std::optional<T> &saved) {
        if (saved) m[name] = *saved;
        else m.erase(name);
    }
    // Mutates s with name bound to the interval (shadowing any outer binding of it).
    Stmt with(const std::string &name, const Interval &value, const Stmt &s) {
        auto saved = bind(scope_, name, value);
        Stmt result = mutate(s);
        restore(scope_, name, saved);
        return result;
    }
};

}  // namespace

Stmt bound_constant_extent_loops(const Stmt &s) { return BoundLoops().mutate(s); }

}  // namespace halo
