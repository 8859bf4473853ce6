#include "Bounds.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <set>
#include <unordered_set>

#include "EuclideanDivision.h"
#include "IREquality.h"
#include "Simplify.h"
#include "SlidingWarmup.h"
#include "SolveForVariable.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

Expr min_or_undef(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) return Expr();
    return Min::make(a, b);
}
Expr max_or_undef(const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) return Expr();
    return Max::make(a, b);
}

// Integer types whose arithmetic wraps: all but int32 and int64, whose overflow is undefined
// (so a valid program never overflows them, and their intervals are computed symbolically).
bool wraps(Type t) { return !t.is_float() && !(t.is_int() && t.bits() >= 32); }

// The type's full range, for values we know nothing else about (unbounded for int32, int64
// and floats).
Interval type_range(Type t) {
    if (!wraps(t) || t.lanes() > 1) return Interval();
    Expr hi = t.is_uint() && t.bits() == 64 ? UIntImm::make(t, UINT64_MAX) : make_const(t, t.max_int());
    return Interval(make_const(t, t.min_int()), hi);
}

using Wide = __int128;

// The value bounds installed by UseFuncValueBounds on this thread (none: nullptr).
thread_local const FuncValueBounds *installed_value_bounds = nullptr;

// The values of a call to a Func that has value bounds, if it has.
std::optional<Interval> func_value_bounds(const Call *op) {
    if (!installed_value_bounds || op->call_type != Call::Halo || op->type.lanes() != 1) return std::nullopt;
    auto it = installed_value_bounds->find({op->name, op->value_index});
    if (it == installed_value_bounds->end()) return std::nullopt;
    return it->second;
}

// Constant bounds of an interval end: a value certainly <= e (lower) or >= e (upper).
// Every integer expression lies in its type's range, which is the fallback.
std::optional<Wide> const_bound(const Expr &e, bool upper);
std::optional<Wide> type_bound(Type t, bool upper) {
    if (t.is_float() || t.lanes() > 1) return std::nullopt;
    if (upper) return t.is_uint() && t.bits() == 64 ? Wide(UINT64_MAX) : Wide(t.max_int());
    return Wide(t.min_int());
}
std::optional<Wide> const_bound(const Expr &e, bool upper) {
    if (!e.defined()) return std::nullopt;
    Type t = e.type();
    std::optional<Wide> fallback = type_bound(t, upper);
    if (!fallback) return std::nullopt;
    if (auto i = e.as<IntImm>()) return Wide(i->value);
    if (auto u = e.as<UIntImm>()) return Wide(u->value);
    auto pick = [&](std::optional<Wide> a, std::optional<Wide> b, bool take_max) -> std::optional<Wide> {
        if (!a || !b) return std::nullopt;
        return take_max ? std::max(*a, *b) : std::min(*a, *b);
    };
    std::optional<Wide> r;
    if (auto m = e.as<Min>()) {
        // min(a, b) <= either upper bound; >= the smaller lower bound
        auto a = const_bound(m->a, upper), b = const_bound(m->b, upper);
        r = upper ? (a && b ? std::min(*a, *b) : a ? a : b) : pick(a, b, false);
    } else if (auto m = e.as<Max>()) {
        auto a = const_bound(m->a, upper), b = const_bound(m->b, upper);
        r = upper ? pick(a, b, true) : (a && b ? std::max(*a, *b) : a ? a : b);
    } else if (auto c = e.as<Cast>(); c && !c->value.type().is_float()) {
        // A cast keeps the value when the value's bounds fit the target type.
        auto lo = const_bound(c->value, false), hi = const_bound(c->value, true);
        if (lo && hi && *lo >= *type_bound(t, false) && *hi <= *type_bound(t, true)) r = upper ? hi : lo;
    } else if (!wraps(t)) {
        // int32 and int64 arithmetic does not overflow
        if (auto a = e.as<Add>()) {
            auto x = const_bound(a->a, upper), y = const_bound(a->b, upper);
            if (x && y) r = *x + *y;
        } else if (auto s = e.as<Sub>()) {
            auto x = const_bound(s->a, upper), y = const_bound(s->b, !upper);
            if (x && y) r = *x - *y;
        }
    }
    if (!r) return fallback;
    return upper ? std::min(*r, *fallback) : std::max(*r, *fallback);
}

}  // namespace

std::optional<int64_t> constant_upper_bound(const Expr &e) {
    std::optional<Wide> b = const_bound(e, true);
    // The type's own end is what const_bound falls back to when it knows nothing.
    if (!b || b == type_bound(e.type(), true) || *b > INT64_MAX || *b < INT64_MIN) return std::nullopt;
    return int64_t(*b);
}

namespace {

// Whether an interval's end is large enough to be named rather than written out where it is
// used (more than 64 nodes): see BoxFinder::lift_if_large and BoundsOfExpr's Let.
bool is_large(const Expr &e) {
    constexpr int kLargeNodes = 64;
    struct Counter : IRVisitor {
        int n = 0;
#define HALO_COUNT_NODE(N)                     \
    void visit(const N *op) override {         \
        if (++n > kLargeNodes) return;         \
        IRVisitor::visit(op);                  \
    }
        HALO_FOR_EACH_EXPR_NODE(HALO_COUNT_NODE)
#undef HALO_COUNT_NODE
    } c;
    if (e.defined()) e.accept(&c);
    return c.n > kLargeNodes;
}

// e inside Lets of those of the names it uses (transitively), each around the ones made after it.
Expr with_lets(Expr e, const std::vector<std::pair<std::string, Expr>> &lets) {
    for (size_t k = lets.size(); k-- > 0;) {
        if (e.defined() && expr_uses_var(e, lets[k].first)) e = Let::make(lets[k].first, lets[k].second, e);
    }
    return e;
}

// c folded, if it is made of constants only (0 == 0, or a mux's index given as a literal): a
// select on it reads only the side it takes, as the simplifier removes the other before code
// is generated. (A condition that reads anything is left as it is.)
Expr folded_if_constant(const Expr &c) {
    if (is_const(c)) return c;
    struct Finder : IRVisitor {
        bool varies = false;
        using IRVisitor::visit;
        void visit(const Variable *) override { varies = true; }
        void visit(const Load *) override { varies = true; }
        void visit(const Call *op) override {
            varies = varies || op->call_type != Call::Intrinsic || op->is_effect_intrinsic();
            if (!varies) IRVisitor::visit(op);
        }
    } finder;
    c.accept(&finder);
    return finder.varies ? c : simplify(c);
}

class BoundsOfExpr : public IRVisitor {
public:
    explicit BoundsOfExpr(const Scope &s) : scope(s) {}
    Scope scope;
    Interval result;

    Interval get(const Expr &e) {
        e.accept(this);
        return result;
    }

private:
    // Operands that are single values (symbols, not ranges) give a single value: the same
    // Expr at both ends, so that later operations still see a point (min and max built
    // separately would be different Exprs, and division or multiplication by a symbol could
    // not be bounded any more).
    template <typename Node>
    bool both_points(const Interval &a, const Interval &b) {
        if (!a.min.defined() || !b.min.defined() || !a.min.same_as(a.max) || !b.min.same_as(b.max)) return false;
        result = Interval::point(Node::make(a.min, b.min));
        return true;
    }
    void visit(const IntImm *op) override { result = Interval::point(IRMutator::self(op)); }
    void visit(const UIntImm *op) override { result = Interval::point(IRMutator::self(op)); }
    void visit(const FloatImm *op) override { result = Interval::point(IRMutator::self(op)); }
    void visit(const StringImm *op) override { result = Interval::point(IRMutator::self(op)); }
    void visit(const Variable *op) override {
        auto it = scope.find(op->name);
        result = it != scope.end() ? it->second : Interval::point(IRMutator::self(op));
    }
    void visit(const Cast *op) override {
        Type from = op->value.type(), to = op->type;
        if (auto c = op->value.as<Call>(); c && c->is_intrinsic(Call::abs) && from.is_uint() && to == Int(32) &&
                                           c->args[0].type().is_int() && c->args[0].type().bits() <= 32) {
            // int32(abs(a)) of an int32 a (Halide's way to index by a distance): abs(a) is a
            // uint32 only because |INT_MIN| is not an int32; the bounds, computed in int32,
            // overflow exactly then, which the bounds' overflow checks report at run time.
            Interval a = get(c->args[0]);
            Type at = c->args[0].type();
            auto wide = [&](const Expr &e) { return at == to ? e : Cast::make(to, e); };
            Expr zero = make_zero(to);
            Expr lo = zero;
            if (a.min.defined()) lo = Max::make(lo, wide(a.min));
            if (a.max.defined()) lo = Max::make(lo, Sub::make(zero, wide(a.max)));
            Expr hi = a.is_bounded() ? Max::make(Sub::make(zero, wide(a.min)), wide(a.max)) : Expr();
            result = Interval(lo, hi);
            return;
        }
        Interval a = get(op->value);
        bool monotone = to.is_float() || from.is_float() ||
                        (to.bits() > from.bits() && !(from.is_int() && to.is_uint())) ||
                        (to.bits() == from.bits() && to.code() == from.code());
        bool fits = false;
        if (equal_ends(a) && a.min.defined()) {
            // A single value: the cast of it.
            result = Interval::point(Cast::make(to, a.min));
            return;
        }
        if (!monotone && !to.is_float() && !from.is_float()) {
            // A narrowing cast keeps the values if they all fit the target type.
            auto lo = const_bound(a.min.defined() ? simplify(a.min) : a.min, false);
            auto hi = const_bound(a.max.defined() ? simplify(a.max) : a.max, true);
            fits = lo && hi && *lo >= *type_bound(to, false) && *hi <= *type_bound(to, true);
            if (fits) {
                result = Interval(make_const(to, int64_t(*lo)), to.is_uint() && to.bits() == 64 ? UIntImm::make(to, uint64_t(*hi)) : make_const(to, int64_t(*hi)));
                return;
            }
        }
        if (monotone) {
            // Float-to-integer casts saturate, so an unbounded end of a cast to an 8- or 16-bit
            // type is that type's end (uint8(f) indexes a table of 256). To 32 or 64 bits it
            // stays unbounded: the type's range is no useful bound on a region.
            Interval range = from.is_float() && !to.is_float() && to.bits() < 32 ? type_range(to) : Interval();
            result = Interval(a.min.defined() ? Cast::make(to, a.min) : range.min,
                              a.max.defined() ? Cast::make(to, a.max) : range.max);
        } else {
            result = type_range(to);
        }
    }
    // a << c and a >> c by a constant c in [0, bits): a * 2^c and a / 2^c (which rounds down,
    // as the arithmetic shift does), wrapping as those do in the types that wrap. As in
    // Halide's bounds, f(x >> 1) and f(x << 12) are bounded.
    bool shift_bounds(const Call *op) {
        Type t = op->type;
        if (!t.is_int() && !t.is_uint()) return false;
        Expr amount = simplify(op->args[1]);
        std::optional<Wide> c;
        if (auto i = amount.as<IntImm>()) c = Wide(i->value);
        if (auto u = amount.as<UIntImm>()) c = Wide(u->value);
        // 2^c must be a value of the type: c < bits - 1 for a signed type.
        if (!c || *c < 0 || *c >= Wide(t.bits() - (t.is_int() ? 1 : 0)) || t.lanes() > 1) return false;
        if (t.is_uint() && t.bits() == 64 && *c == 63) return false;  // make_const takes an int64
        Expr factor = make_const(t, int64_t(1) << int(*c));
        Expr equivalent = op->is_intrinsic(Call::shift_left) ? Mul::make(op->args[0], factor)
                                                             : Div::make(op->args[0], factor);
        result = get(equivalent);
        return true;
    }

    // a | b of non-negative a and b with constant bounds: at least the larger minimum, and
    // below the next power of two above both maxima (a | b sets no higher bit than they do).
    bool bitwise_or_bounds(const Call *op) {
        Type t = op->type;
        if ((!t.is_int() && !t.is_uint()) || t.lanes() > 1) return false;
        Interval a = get(op->args[0]), b = get(op->args[1]);
        auto amin = const_bound(a.min.defined() ? simplify(a.min) : a.min, false);
        auto amax = const_bound(a.max.defined() ? simplify(a.max) : a.max, true);
        auto bmin = const_bound(b.min.defined() ? simplify(b.min) : b.min, false);
        auto bmax = const_bound(b.max.defined() ? simplify(b.max) : b.max, true);
        if (!amin || !amax || !bmin || !bmax || *amin < 0 || *bmin < 0) return false;
        Wide mask = 0;
        while (mask < std::max(*amax, *bmax)) mask = mask * 2 + 1;
        if (mask > Wide(INT64_MAX)) return false;
        result = Interval(make_const(t, int64_t(std::max(*amin, *bmin))), make_const(t, int64_t(mask)));
        return true;
    }

    // Arithmetic on a type that wraps: a single value stays exact (it is computed the same
    // way); otherwise the interval is computed exactly from constant bounds of the operands and
    // kept if it fits the type, which proves nothing wrapped. Else the type's whole range.
    bool wrapping_arith(const BaseExprNode *op, const Interval &a, const Interval &b) {
        Type t = op->type;
        if (!wraps(t)) return false;
        if (equal_ends(a) && equal_ends(b) && a.min.defined() && b.min.defined()) {
            switch (op->node_type) {
            case IRNodeType::Add: result = Interval::point(Add::make(a.min, b.min)); break;
            case IRNodeType::Sub: result = Interval::point(Sub::make(a.min, b.min)); break;
            case IRNodeType::Mul: result = Interval::point(Mul::make(a.min, b.min)); break;
            case IRNodeType::Div: result = Interval::point(Div::make(a.min, b.min)); break;
            default: result = Interval::point(Mod::make(a.min, b.min)); break;
            }
            return true;
        }
        result = type_range(t);
        auto amin = const_bound(a.min.defined() ? simplify(a.min) : a.min, false);
        auto amax = const_bound(a.max.defined() ? simplify(a.max) : a.max, true);
        auto bmin = const_bound(b.min.defined() ? simplify(b.min) : b.min, false);
        auto bmax = const_bound(b.max.defined() ? simplify(b.max) : b.max, true);
        if (!amin || !amax || !bmin || !bmax) return true;
        Wide lo, hi;
        switch (op->node_type) {
        case IRNodeType::Add: lo = *amin + *bmin, hi = *amax + *bmax; break;
        case IRNodeType::Sub: lo = *amin - *bmax, hi = *amax - *bmin; break;
        case IRNodeType::Mul: {
            // |values| < 2^64, but two uint64 near 2^64 multiply past 2^127: such a product is
            // the type's range (checked, not overflowed).
            const Wide xs[] = {*amin, *amin, *amax, *amax}, ys[] = {*bmin, *bmax, *bmin, *bmax};
            Wide p[4];
            for (int i = 0; i < 4; i++) {
                if (__builtin_mul_overflow(xs[i], ys[i], &p[i])) return true;
            }
            lo = *std::min_element(p, p + 4), hi = *std::max_element(p, p + 4);
            break;
        }
        case IRNodeType::Div: {
            // Euclidean division by one known nonzero divisor is monotone in the dividend.
            if (*bmin != *bmax || *bmin == 0 || t.bits() == 64) return true;
            Wide q1 = euclidean_div(int64_t(*amin), int64_t(*bmin)), q2 = euclidean_div(int64_t(*amax), int64_t(*bmin));
            if (*bmin == -1) q1 = -*amin, q2 = -*amax;  // -MIN does not wrap here, so it fails the fit test
            lo = std::min(q1, q2), hi = std::max(q1, q2);
            break;
        }
        default: {
            // Euclidean modulo lies in [0, |b| - 1] (x % 0 is 0)
            Wide m = std::max(*bmax < 0 ? -*bmax : *bmax, *bmin < 0 ? -*bmin : *bmin);
            lo = 0, hi = std::max<Wide>(m - 1, 0);
            break;
        }
        }
        auto fits = [&](Wide v) { return v >= *type_bound(t, false) && v <= *type_bound(t, true); };
        if (fits(lo) && fits(hi)) {
            auto make = [&](Wide v) { return t.is_uint() && t.bits() == 64 ? UIntImm::make(t, uint64_t(v)) : make_const(t, int64_t(v)); };
            result = Interval(make(lo), make(hi));
        }
        return true;
    }
    static void sum_terms(const Expr &e, std::vector<Expr> &terms) {
        if (const Add *a = e.as<Add>()) {
            sum_terms(a->a, terms);
            sum_terms(a->b, terms);
        } else {
            terms.push_back(e);
        }
    }
    // A sum with the terms m and ((M - m) / F) * F, F a positive constant (a RoundUp split's
    // last iteration: min + ((max - min) / F) * F + F - 1): those two lie in [M - F + 1, M]
    // whatever m is. Bounded term by term, M's largest value less m's smallest would be
    // divided instead (a producer computed per strip then asked its input for twice the rows).
    bool bounds_of_rounded_down_difference(const Add *op) {
        if (wraps(op->type)) return false;
        std::vector<Expr> terms;
        sum_terms(op->a, terms);
        sum_terms(op->b, terms);
        for (size_t i = 0; i < terms.size(); i++) {
            const Mul *mul = terms[i].as<Mul>();
            const Div *div = mul ? mul->a.as<Div>() : nullptr;
            const Sub *sub = div ? div->a.as<Sub>() : nullptr;
            const int64_t *f = mul ? as_const_int(mul->b) : nullptr, *d = div ? as_const_int(div->b) : nullptr;
            if (!sub || !f || !d || *f != *d || *f <= 0) continue;
            for (size_t j = 0; j < terms.size(); j++) {
                if (j == i || !equal(terms[j], sub->b)) continue;
                // (A single value m loses nothing: m + ((M's max - m) / F) * F is tighter.)
                if (Interval small = get(sub->b); small.min.defined() && equal_ends(small)) return false;
                Interval big = get(sub->a);
                Expr rest;
                for (size_t k = 0; k < terms.size(); k++) {
                    if (k != i && k != j) rest = rest.defined() ? Add::make(rest, terms[k]) : terms[k];
                }
                Interval r = rest.defined() ? get(rest) : Interval::point(make_const(op->type, int64_t(0)));
                Expr lo = big.min.defined() && r.min.defined() ? Add::make(Sub::make(big.min, make_const(op->type, *f - 1)), r.min) : Expr();
                Expr hi = big.max.defined() && r.max.defined() ? Add::make(big.max, r.max) : Expr();
                if (!lo.defined() && !hi.defined()) return false;
                result = Interval(lo, hi);
                return true;
            }
        }
        return false;
    }
    void visit(const Add *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (wrapping_arith(op, a, b)) return;
        if (both_points<Add>(a, b)) return;
        if (bounds_of_rounded_down_difference(op)) return;
        result = Interval(a.min.defined() && b.min.defined() ? Add::make(a.min, b.min) : Expr(),
                          a.max.defined() && b.max.defined() ? Add::make(a.max, b.max) : Expr());
    }
    void visit(const Sub *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (wrapping_arith(op, a, b)) return;
        if (both_points<Sub>(a, b)) return;
        result = Interval(a.min.defined() && b.max.defined() ? Sub::make(a.min, b.max) : Expr(),
                          a.max.defined() && b.min.defined() ? Sub::make(a.max, b.min) : Expr());
    }
    void visit(const Mul *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (wrapping_arith(op, a, b)) return;
        if (both_points<Mul>(a, b)) return;
        if (a.min.defined() && a.max.defined() && equal_ends(a) && b.min.defined() && equal_ends(b)) {
            result = Interval::point(Mul::make(a.min, b.min));
        } else if (auto c = constant_of(b); c) {
            scale(a, b.min, *c >= 0);
        } else if (auto c2 = constant_of(a); c2) {
            scale(b, a.min, *c2 >= 0);
        } else if (a.is_bounded() && b.is_bounded()) {
            Expr p[] = {Mul::make(a.min, b.min), Mul::make(a.min, b.max), Mul::make(a.max, b.min),
                        Mul::make(a.max, b.max)};
            result = Interval(Min::make(Min::make(p[0], p[1]), Min::make(p[2], p[3])),
                              Max::make(Max::make(p[0], p[1]), Max::make(p[2], p[3])));
        } else {
            result = Interval();
        }
    }
    // The value of a single-point interval that simplifies to an integer constant.
    static std::optional<int64_t> constant_of(const Interval &i) {
        if (!i.min.defined() || !equal_ends(i)) return std::nullopt;
        Expr simplified = simplify(i.min);  // as_const_int points into it: keep it alive
        const int64_t *c = as_const_int(simplified);
        return c ? std::optional<int64_t>(*c) : std::nullopt;
    }
    void scale(const Interval &a, const Expr &c, bool positive) {
        Expr lo = a.min.defined() ? Mul::make(a.min, c) : Expr();
        Expr hi = a.max.defined() ? Mul::make(a.max, c) : Expr();
        result = positive ? Interval(lo, hi) : Interval(hi, lo);
    }
    static bool equal_ends(const Interval &i) { return i.min.same_as(i.max); }
    void visit(const Div *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (wrapping_arith(op, a, b)) return;
        if (both_points<Div>(a, b)) return;
        Expr bs = b.min.defined() ? simplify(b.min) : Expr();
        const int64_t *c = bs.defined() && equal_ends(b) ? as_const_int(bs) : nullptr;
        if (op->type.is_float() && bs.defined() && equal_ends(b) && is_const(bs) && !is_zero(bs)) {
            bool pos = bs.as<FloatImm>() && bs.as<FloatImm>()->value > 0;
            Expr lo = a.min.defined() ? Div::make(a.min, b.min) : Expr();
            Expr hi = a.max.defined() ? Div::make(a.max, b.min) : Expr();
            result = pos ? Interval(lo, hi) : Interval(hi, lo);
        } else if (c && *c != 0) {
            Expr lo = a.min.defined() ? Div::make(a.min, b.min) : Expr();
            Expr hi = a.max.defined() ? Div::make(a.max, b.min) : Expr();
            result = *c > 0 ? Interval(lo, hi) : Interval(hi, lo);
        } else if (equal_ends(a) && equal_ends(b) && a.min.defined() && b.min.defined()) {
            result = Interval::point(Div::make(a.min, b.min));
        } else if (equal_ends(b) && b.min.defined() && a.is_bounded()) {
            // Division by one symbolic value (a Param split factor, say) of unknown sign:
            // Euclidean division by a fixed b is monotone in the dividend (rising for b > 0,
            // falling for b < 0, and an integer x / 0 is 0), so the quotients of the two ends
            // bound it; so do they a float division by a non-zero b. A float division by zero
            // gives -inf, +inf and (for 0 / 0) NaN, which an int cast makes 0: its ends are then
            // the infinities. (The quotients of the ends, 0 / 0 and 3 / 0, made [NaN, inf],
            // which the int cast turned into the empty [INT_MAX, 0]: no bounds check failed, and
            // the pipeline read at INT_MAX.)
            Expr q1 = Div::make(a.min, b.min), q2 = Div::make(a.max, b.min);
            Expr lo = Min::make(q1, q2), hi = Max::make(q1, q2);
            if (op->type.is_float()) {
                Type t = op->type;
                Expr by_zero = EQ::make(b.min, make_zero(t));
                lo = Select::make(by_zero, make_const(t, -std::numeric_limits<double>::infinity()), lo);
                hi = Select::make(by_zero, make_const(t, std::numeric_limits<double>::infinity()), hi);
            }
            result = Interval(lo, hi);
        } else if (a.is_bounded() && b.is_bounded() &&
                   (is_one(simplify(b.min > make_zero(b.min.type()))) || is_one(simplify(b.max < make_zero(b.max.type()))))) {
            // A divisor of one sign (a float Param's declared range, say): the quotient is
            // monotone in each operand, so its extremes are among the four corners.
            Expr q[4] = {Div::make(a.min, b.min), Div::make(a.min, b.max), Div::make(a.max, b.min),
                         Div::make(a.max, b.max)};
            result = Interval(Min::make(Min::make(q[0], q[1]), Min::make(q[2], q[3])),
                              Max::make(Max::make(q[0], q[1]), Max::make(q[2], q[3])));
        } else {
            result = type_range(op->type);
        }
    }
    void visit(const Mod *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (wrapping_arith(op, a, b)) return;
        if (both_points<Mod>(a, b)) return;
        if (equal_ends(a) && equal_ends(b) && a.min.defined() && b.min.defined()) {
            result = Interval::point(Mod::make(a.min, b.min));
        } else if (!op->type.is_float() && b.is_bounded()) {
            // Euclidean modulo lies in [0, |b| - 1], and x % 0 is 0
            Expr bmax = Max::make(b.max, Sub::make(make_zero(b.min.type()), b.min));
            result = Interval(make_zero(op->type), Max::make(Sub::make(bmax, make_one(op->type)), make_zero(op->type)));
        } else {
            result = type_range(op->type);
        }
    }
    void visit(const Min *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (both_points<Min>(a, b)) return;
        Expr lo = min_or_undef(a.min, b.min);
        Expr hi = !a.max.defined() ? b.max : !b.max.defined() ? a.max : Min::make(a.max, b.max);
        result = Interval(lo, hi);
    }
    void visit(const Max *op) override {
        Interval a = get(op->a), b = get(op->b);
        if (both_points<Max>(a, b)) return;
        Expr lo = !a.min.defined() ? b.min : !b.min.defined() ? a.min : Max::make(a.min, b.min);
        Expr hi = max_or_undef(a.max, b.max);
        result = Interval(lo, hi);
    }
    void bool_result(const BaseExprNode *op) {
        IRVisitor *self = this;
        (void)self;
        result = Interval(make_zero(op->type), make_one(op->type));
    }
    void visit(const EQ *op) override { bool_result(op); }
    void visit(const NE *op) override { bool_result(op); }
    void visit(const LT *op) override { bool_result(op); }
    void visit(const LE *op) override { bool_result(op); }
    void visit(const GT *op) override { bool_result(op); }
    void visit(const GE *op) override { bool_result(op); }
    void visit(const And *op) override { bool_result(op); }
    void visit(const Or *op) override { bool_result(op); }
    void visit(const Not *op) override { bool_result(op); }
    void visit(const Select *op) override {
        Expr condition = folded_if_constant(op->condition);
        if (is_one(condition)) return op->true_value.accept(this);
        if (is_zero(condition)) return op->false_value.accept(this);
        Interval t = get(op->true_value), f = get(op->false_value);
        // A single value where the condition and both sides are (a sliding window's start,
        // select(loop > first, ...), read where its loop variable is fixed): the union would
        // lose which side holds.
        auto single = [](const Interval &i) { return i.min.defined() && i.max.defined() && equal(i.min, i.max); };
        if (single(t) && single(f) && !reads_scope(op->condition)) {
            result = Interval::point(Select::make(op->condition, t.min, f.min));
            return;
        }
        result = interval_union(t, f);
    }
    // Whether e reads a name bound here, memory (a load), or a Func, image or extern call: a
    // condition that does may not be copied into a region (a region's ends are computed before
    // anything is read, and where the read is not checked).
    bool reads_scope(const Expr &e) const {
        struct Finder : IRVisitor {
            const Scope &scope;
            bool found = false;
            explicit Finder(const Scope &s) : scope(s) {}
            using IRVisitor::visit;
            void visit(const Variable *v) override { found |= scope.count(v->name) > 0; }
            void visit(const Load *) override { found = true; }
            void visit(const Call *c) override {
                found |= c->call_type != Call::Intrinsic || c->is_effect_intrinsic();
                IRVisitor::visit(c);
            }
        } finder(scope);
        e.accept(&finder);
        return finder.found;
    }
    void visit(const Load *op) override { result = type_range(op->type); }
    void visit(const Ramp *op) override {
        Expr last = Add::make(op->base, Mul::make(op->stride, make_const(op->stride.type(), int64_t(op->lanes - 1))));
        Interval a = get(op->base), b = get(last);
        result = interval_union(a, b);
    }
    void visit(const Broadcast *op) override { op->value.accept(this); }
    void visit(const Call *op) override {
        if (is_value_hint(*op) || op->is_intrinsic(Call::print)) {
            op->args[0].accept(this);
            return;
        }
        if (op->is_intrinsic(Call::print_when) || op->is_intrinsic(Call::require)) {
            op->args[1].accept(this);
            return;
        }
        if (op->is_intrinsic(Call::promise_clamped) || op->is_intrinsic(Call::unsafe_promise_clamped)) {
            Interval v = get(op->args[0]), lo = get(op->args[1]), hi = get(op->args[2]);
            Expr mn = !lo.min.defined() ? v.min : !v.min.defined() ? lo.min : Max::make(v.min, lo.min);
            Expr mx = !hi.max.defined() ? v.max : !v.max.defined() ? hi.max : Min::make(v.max, hi.max);
            // Every value lies in [lo, hi], so the largest is at least lo and the smallest at
            // most hi. Saying so keeps the interval bounded when it is bounded again over an
            // outer loop: the largest split value of a tile, min(outer * factor + ..., hi),
            // has no lower bound over the outer loop when the factor is a Param, but lo is one.
            // The range may be empty (hi < lo: a loop fused from one of no iterations), and
            // then nothing lies in it: the bounds become [lo, hi] (as an empty RDom's are),
            // not a point outside it (hi as the smallest value once made the region of an
            // empty fused RDom start at -1, past the output buffer).
            if (mx.defined() && lo.min.defined() && !is_const(mx)) {
                mx = Max::make(mx, hi.max.defined() ? Min::make(lo.min, hi.max) : lo.min);
            }
            if (mn.defined() && hi.max.defined() && !is_const(mn)) {
                mn = Min::make(mn, lo.min.defined() ? Max::make(hi.max, lo.min) : hi.max);
            }
            // A single value (a fused loop's variable, inside that loop): the largest is
            // c + min(hi - lo, 0) for c the smallest (c = v clamped to [lo, hi] where the range
            // is not empty, then the largest is c; where it is, c = lo and the largest hi), the
            // same values as max(min(v, hi), min(lo, hi)), but in a form whose difference from c
            // cancels: a producer computed per iteration of a fused loop had no constant extent
            // to unroll (depthwise_separable_conv's schedule).
            if (v.is_bounded() && mn.defined() && hi.max.defined() && lo.min.defined() && !is_const(mn) &&
                (v.min.same_as(v.max) || equal(v.min, v.max))) {
                mx = Add::make(mn, Min::make(Sub::make(hi.max, lo.min), make_zero(mn.type())));
            }
            result = Interval(mn, mx);
            return;
        }
        if (op->is_intrinsic(Call::abs) && op->type.is_float()) {
            // |a| lies in [max(a.min, -a.max, 0), max(-a.min, a.max)] (unbounded above if a is).
            Interval a = get(op->args[0]);
            Expr zero = make_zero(op->type);
            Expr lo = zero;
            if (a.min.defined()) lo = Max::make(lo, a.min);
            if (a.max.defined()) lo = Max::make(lo, Sub::make(zero, a.max));
            Expr hi = a.is_bounded() ? Max::make(Sub::make(zero, a.min), a.max) : Expr();
            result = Interval(lo, hi);
            return;
        }
        if (op->call_type == Call::Intrinsic && op->args.size() == 1 && op->type.is_float() &&
            (op->name == "floor" || op->name == "ceil" || op->name == "round" || op->name == "trunc")) {
            // Non-decreasing: the function of each end.
            Interval a = get(op->args[0]);
            auto at = [&](const Expr &e) {
                return e.defined() ? Call::make(op->type, op->name, {e}, op->call_type) : Expr();
            };
            result = Interval(at(a.min), at(a.max));
            return;
        }
        if (op->is_intrinsic(Call::abs) && !op->type.is_float()) {
            Interval a = get(op->args[0]);
            Type at = op->args[0].type();
            if (a.is_bounded() && at.bits() <= 32) {
                // |MIN| does not fit the argument's type: compute in 64 bits.
                Type wide = Int(64);
                Expr m = Max::make(Sub::make(make_zero(wide), Cast::make(wide, a.min)), Cast::make(wide, a.max));
                result = Interval(make_zero(op->type), Cast::make(op->type, m));
            } else if (a.is_bounded() && at.is_uint()) {
                result = Interval(make_zero(op->type), a.max);
            } else {
                result = Interval(make_zero(op->type), Expr());
            }
            return;
        }
        if (op->is_intrinsic(Call::bitwise_and) && !op->type.is_float()) {
            Interval b = get(op->args[1]);
            Interval a = get(op->args[0]);
            Expr bc = b.min.defined() ? simplify(b.min) : Expr();
            if (bc.defined() && equal_ends(b) && as_const_int(bc) && *as_const_int(bc) >= 0) {
                result = Interval(make_zero(op->type), bc);
                return;
            }
            (void)a;
        }
        if ((op->is_intrinsic(Call::shift_left) || op->is_intrinsic(Call::shift_right)) && shift_bounds(op)) return;
        if (op->is_intrinsic(Call::bitwise_or) && bitwise_or_bounds(op)) return;
        if (op->is_intrinsic(Call::popcount) || op->is_intrinsic(Call::count_leading_zeros) ||
            op->is_intrinsic(Call::count_trailing_zeros)) {
            // A count of bits: from 0 to the bit width (a lookup table of 9 entries serves a
            // uint8's popcount, as in Halide).
            result = Interval(make_zero(op->type), make_const(op->type, int64_t(op->args[0].type().bits())));
            return;
        }
        if (auto values = func_value_bounds(op)) {
            result = *values;
            return;
        }
        if (op->call_type == Call::Intrinsic) {
            // A pure operation of values fixed in the scope is that value
            // (cast<int>(hypot(input.width(), input.height())) divides an RDom in Halide's
            // dynamic_reduction_bounds test).
            std::vector<Expr> points;
            for (auto &arg : op->args) {
                Interval i = get(arg);
                if (!i.min.defined() || !equal_ends(i)) break;
                points.push_back(i.min);
            }
            if (points.size() == op->args.size()) {
                result = Interval::point(Call::make(op->type, op->name, points, op->call_type));
                return;
            }
        }
        result = type_range(op->type);
    }
    // A large end of the value's interval is named by a Let around the body's ends instead of
    // written out at every use (bounds inference's own ends are such Lets, nested one per stage
    // of a pyramid: written out, they doubled with every stage). A value that is a single
    // point keeps the Let's own name.
    void visit(const Let *op) override {
        Interval v = get(op->value);
        std::vector<std::pair<std::string, Expr>> named;
        auto name_if_large = [&](Expr &end, const std::string &name) {
            if (!is_large(end)) return;
            named.push_back({name, end});
            end = Variable::make(end.type(), name);
        };
        if (v.min.defined() && v.min.same_as(v.max)) {
            name_if_large(v.min, op->name);
            v.max = v.min;
        } else {
            name_if_large(v.min, op->name + ".lo");
            name_if_large(v.max, op->name + ".hi");
        }
        auto old = scope.find(op->name);
        bool had = old != scope.end();
        Interval saved = had ? old->second : Interval();
        scope[op->name] = v;
        op->body.accept(this);
        if (had) scope[op->name] = saved;
        else scope.erase(op->name);
        if (named.empty()) return;
        bool point = result.min.same_as(result.max);
        result.min = with_lets(result.min, named);
        result.max = point ? result.min : with_lets(result.max, named);
    }
};

// select(c, a, b), undefined (unbounded) if either is, and just a when both are the same.
Expr select_end(const Expr &c, const Expr &a, const Expr &b) {
    if (!a.defined() || !b.defined()) return Expr();
    if (equal(a, b)) return a;
    return simplify(Select::make(c, a, b));
}

// Whether a and b can never both hold, as written: one is the other's negation.
bool complementary(const Expr &a, const Expr &b) {
    return equal(simplify(Not::make(a)), simplify(b)) || equal(simplify(Not::make(b)), simplify(a));
}

// Whether e, counted as a tree (as the simplifier walks it), has more than `limit` nodes.
bool larger_than(const Expr &e, int limit) {
    struct Counter : IRVisitor {
        int left;
#define HALO_COUNT_EXPR(N)                  \
    void visit(const N *op) override {      \
        if (--left < 0) return;             \
        IRVisitor::visit(op);               \
    }
        HALO_FOR_EACH_EXPR_NODE(HALO_COUNT_EXPR)
#undef HALO_COUNT_EXPR
    } counter;
    counter.left = limit;
    e.accept(&counter);
    return counter.left < 0;
}

// Halide's merge of boxes that may be unused: the union where both are touched, the one
// touched where only one is. Each such merge names the ends of dst twice, so a Func read
// under many conditions would grow its ends exponentially: past a size, the plain union
// (larger than needed when a box is unused, never smaller).
Box &merge_into(Box &dst, const Box &src) {
    if (src.empty()) return dst;
    if (dst.empty()) return dst = src;
    size_t n = std::min(dst.dims.size(), src.dims.size());
    if (!dst.maybe_unused() && !src.maybe_unused()) {
        for (size_t i = 0; i < n; i++) dst.dims[i] = interval_union(dst.dims[i], src.dims[i]);
        return dst;
    }
    // (Each test simplifies two negations: once per merge, not per dimension.)
    const bool either_one = dst.maybe_unused() && src.maybe_unused() && complementary(dst.used_if, src.used_if);
    for (size_t i = 0; i < n; i++) {
        const Interval &a = dst.dims[i], &b = src.dims[i];
        Interval both = interval_union(a, b), r;
        if (!src.maybe_unused()) {  // b always touched: a adds to it where a is touched
            r = Interval(select_end(dst.used_if, both.min, b.min), select_end(dst.used_if, both.max, b.max));
        } else if (!dst.maybe_unused()) {
            r = Interval(select_end(src.used_if, both.min, a.min), select_end(src.used_if, both.max, a.max));
        } else if (either_one) {
            r = Interval(select_end(dst.used_if, a.min, b.min), select_end(dst.used_if, a.max, b.max));
        } else {
            Expr ab = dst.used_if && src.used_if;
            r = Interval(select_end(ab, both.min, select_end(dst.used_if, a.min, b.min)),
                         select_end(ab, both.max, select_end(dst.used_if, a.max, b.max)));
        }
        const int kLargestEnd = 400;
        if ((r.min.defined() && larger_than(r.min, kLargestEnd)) || (r.max.defined() && larger_than(r.max, kLargestEnd))) {
            r = both;
        }
        dst.dims[i] = r;
    }
    if (!dst.maybe_unused() || !src.maybe_unused() || either_one) {
        dst.used_if = Expr();
    } else {
        dst.used_if = simplify(dst.used_if || src.used_if);
    }
    return dst;
}

// The statements of s that touch Func or image `name` (call it, or with provides, write it)
// anywhere inside, their expressions included. A box of one Func need not walk the rest: in
// local Laplacian most of a consumer's statement is other Funcs' loops and lets, whose bounds
// BoxFinder would otherwise compute and simplify for nothing.
class StatementsTouching : public IRVisitor {
public:
    StatementsTouching(const std::string &name, bool provides) : name_(name), provides_(provides) {}
    std::unordered_set<const IRNode *> found;

private:
    const std::string &name_;
    bool provides_;
    bool touched_ = false;

    bool touches(const Provide *op) const { return provides_ && op->name == name_; }
    bool touches(const IRNode *) const { return false; }

#define HALO_TRACK_STMT(N)                             \
    void visit(const N *op) override {                 \
        bool outer = touched_;                         \
        touched_ = touches(op);                        \
        IRVisitor::visit(op);                          \
        if (touched_) found.insert(op);                \
        touched_ = touched_ || outer;                  \
    }
    HALO_FOR_EACH_STMT_NODE(HALO_TRACK_STMT)
#undef HALO_TRACK_STMT

    void visit(const Call *op) override {
        if (!provides_ && op->name == name_ && (op->call_type == Call::Halo || op->call_type == Call::Image)) {
            touched_ = true;
        }
        IRVisitor::visit(op);
    }
};

// The constant c with e = c * v + (terms without v), if v appears in e only under additions,
// subtractions and multiplications by constants; nullopt otherwise.
std::optional<int64_t> coefficient_of(const Expr &e, const std::string &v) {
    if (!expr_uses_var(e, v)) return 0;
    if (const Variable *var = e.as<Variable>()) return var->name == v ? std::optional<int64_t>(1) : std::nullopt;
    auto combine = [&](const Expr &a, const Expr &b, int64_t sign) -> std::optional<int64_t> {
        auto ca = coefficient_of(a, v), cb = coefficient_of(b, v);
        if (!ca || !cb) return std::nullopt;
        return *ca + sign * *cb;
    };
    if (const Add *a = e.as<Add>()) return combine(a->a, a->b, 1);
    if (const Sub *d = e.as<Sub>()) return combine(d->a, d->b, -1);
    if (const Mul *m = e.as<Mul>()) {
        const int64_t *k = as_const_int(m->b);
        const Expr *other = &m->a;
        if (!k) k = as_const_int(m->a), other = &m->b;
        if (!k) return std::nullopt;
        auto c = coefficient_of(*other, v);
        if (!c || std::abs(*c) > (int64_t(1) << 31) || std::abs(*k) > (int64_t(1) << 31)) return std::nullopt;
        return *c * *k;
    }
    return std::nullopt;
}

// Walks a statement with loop variables and lets bound to their intervals and records the
// box of every Func or image call (or Provide) it meets; with a name, of that one only,
// skipping the statements that do not touch it.
class BoxFinder : public IRVisitor {
public:
    BoxFinder(const Scope &s, bool provides, const LetValues &outer_lets)
        : scope(s), provides_(provides), let_values_(outer_lets) {}
    Scope scope;
    std::map<std::string, Box> boxes;

    // The boxes found, each end an expression of its own: the ends of large let intervals
    // they name are bound around them as Lets.
    std::map<std::string, Box> take_boxes() {
        for (auto &[name, b] : boxes) {
            for (Interval &i : b.dims) {
                i.min = with_lets(i.min, lifted_);
                i.max = with_lets(i.max, lifted_);
            }
            b.used_if = with_lets(b.used_if, lifted_);
        }
        return std::move(boxes);
    }

    void only(const std::string &name, const Stmt &s) {
        only_ = name;
        StatementsTouching t(name, provides_);
        s.accept(&t);
        touching_ = std::move(t.found);
    }

private:
    bool provides_;
    std::map<std::string, Expr> let_values_;  // values of the enclosing lets, for the simplifier
    std::vector<std::string> let_order_;      // the enclosing LetStmts, outermost first
    std::optional<std::string> only_;         // the one Func whose box is wanted, if any
    std::unordered_set<const IRNode *> touching_;

    // Whether a statement can add to the boxes wanted.
    bool wanted(const IRNode *op) const { return !only_ || touching_.count(op); }

    // The end of a let's interval, if it is large, becomes a new variable whose value is kept
    // aside, as Halide's BoxesTouched does: in a chain of stages computed inside a loop (a
    // pyramid's levels computed per row), each let's interval is built from the one before, and
    // written out in full, it doubled in size with every stage (10 levels of interpolate took
    // 13 s to compile, against Halide's 2 s). Small ends stay written out, so that the
    // simplifier still sees through them.
    std::vector<std::pair<std::string, Expr>> lifted_;  // in the order they were made
    std::map<std::string, int> times_lifted_;  // by the let's name and end, to name them apart
    Expr lift_if_large(const std::string &end_name, const Expr &end) {
        if (!is_large(end)) return end;
        // (Named by the let, so that the box of one Func is written as in the boxes of all.)
        std::string name = end_name + "$" + std::to_string(times_lifted_[end_name]++);
        lifted_.push_back({name, end});
        return Variable::make(end.type(), name);
    }

    Interval bounds(const Expr &e) { return bounds_of_expr_in_scope(e, scope); }

    // A loop whose ends name enclosing lets (a RoundUp split's loop over fo in [0, (max -
    // min) / F], max and min the lets of the stage's region), with those lets' values: e linear
    // in the loop's variable is largest at the loop's last value, written with the lets, so that
    // min + ((max - min) / F) * F keeps min's correlation with itself (bounding the loop's
    // variable alone, the lets' ranges replace them separately).
    struct SymbolicLoop {
        Expr min, max;
        std::map<std::string, Expr> lets;
    };
    std::map<std::string, SymbolicLoop> symbolic_loops_;

    Interval bounds_in_loops(const Expr &e) {
        Interval v = bounds(e);
        for (auto &[loop, r] : symbolic_loops_) {
            if (!expr_uses_var(e, loop)) continue;
            bool same_lets = std::all_of(r.lets.begin(), r.lets.end(), [&](const auto &l) {
                auto now = let_values_.find(l.first);
                return now != let_values_.end() && now->second.same_as(l.second);
            });
            auto c = same_lets ? coefficient_of(e, loop) : std::nullopt;
            if (!c || *c == 0) continue;
            auto tighter = [&](const Expr &have, const Expr &bound, bool upper) {
                if (!bound.defined()) return have;
                if (!have.defined()) return bound;
                if (can_prove(upper ? bound <= have : bound >= have)) return bound;
                if (can_prove(upper ? have <= bound : have >= bound)) return have;
                return simplify(upper ? min(have, bound) : max(have, bound));
            };
            Expr at_max = simplify(substitute(loop, *c > 0 ? r.max : r.min, e), let_values_);
            Expr at_min = simplify(substitute(loop, *c > 0 ? r.min : r.max, e), let_values_);
            v.max = tighter(v.max, bounds(at_max).max, true);
            v.min = tighter(v.min, bounds(at_min).min, false);
        }
        return v;
    }

    void record(const std::string &name, const std::vector<Expr> &args) {
        if (only_ && name != *only_) return;
        Box b;
        b.used = true;
        for (auto &a : args) {
            // Simplify first: interval arithmetic on (v.min + (v.max - v.min)) loses the
            // correlation between the two ends that the simplifier cancels exactly.
            Interval i = bounds_in_loops(simplify(a, let_values_));
            i.min = i.min.defined() ? simplify(i.min, let_values_) : i.min;
            i.max = i.max.defined() ? simplify(i.max, let_values_) : i.max;
            b.dims.push_back(i);
        }
        merge_into(boxes[name], b);
    }

    template <typename F>
    void with_binding(const std::string &name, const Interval &i, F body) {
        auto old = scope.find(name);
        bool had = old != scope.end();
        Interval saved = had ? old->second : Interval();
        scope[name] = i;
        body();
        if (had) scope[name] = saved;
        else scope.erase(name);
    }

    void visit(const Call *op) override {
        IRVisitor::visit(op);
        if (!provides_ && (op->call_type == Call::Halo || op->call_type == Call::Image)) {
            record(op->name, op->args);
        }
    }
    void visit(const Provide *op) override {
        IRVisitor::visit(op);
        if (provides_) record(op->name, op->args);
    }
    // A select on a constant (a specialization's condition substituted into its stage) reads
    // only the side it takes: the simplifier removes the other before code is generated.
    void visit(const Select *op) override {
        Expr condition = folded_if_constant(op->condition);
        if (is_one(condition)) return op->true_value.accept(this);
        if (is_zero(condition)) return op->false_value.accept(this);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        with_binding(op->name, bounds(op->value), [&] { op->body.accept(this); });
    }
    void visit(const Block *op) override {
        if (!wanted(op)) return;
        IRVisitor::visit(op);
    }
    void visit(const LetStmt *op) override {
        if (!wanted(op)) return;
        op->value.accept(this);
        auto saved_value = let_values_.find(op->name) != let_values_.end() ? let_values_[op->name] : Expr();
        let_values_[op->name] = op->value;
        struct Restore {
            std::map<std::string, Expr> &m;
            std::string n;
            Expr v;
            ~Restore() {
                if (v.defined()) m[n] = v;
                else m.erase(n);
            }
        } restore{let_values_, op->name, saved_value};
        let_order_.push_back(op->name);
        with_binding(op->name, let_interval(op->name, op->value), [&] { op->body.accept(this); });
        let_order_.pop_back();
    }
    Interval let_interval(const std::string &name, const Expr &value) {
        Interval v = bounds_in_loops(simplify(value, let_values_));
        if (v.min.defined()) v.min = lift_if_large(name + ".lo", simplify(v.min));
        if (v.max.defined()) v.max = lift_if_large(name + ".hi", simplify(v.max));
        return v;
    }
    // Binds narrowed ranges of some variables around body (an if's then branch), and again the
    // enclosing lets whose values name them, directly or through another such let: a let bound
    // before the if (a consumer's coordinate, from its split's inner loop) would otherwise keep
    // the range it has over the whole loop. (A sliding window's warm-up guard on a ShiftInwards
    // split of x left g.s0.x = xi + ... outside it, and the output check then counted the
    // warm-up iteration's coordinate: a false "would be computed at x in [-1, 15]".)
    template <typename F>
    void with_narrowed(const std::vector<std::pair<std::string, Interval>> &narrowed, F body) {
        std::vector<std::pair<std::string, std::optional<Interval>>> saved;
        std::set<std::string> changed;
        auto bind = [&](const std::string &name, const Interval &i) {
            auto old = scope.find(name);
            saved.push_back({name, old == scope.end() ? std::nullopt : std::optional<Interval>(old->second)});
            scope[name] = i;
            changed.insert(name);
        };
        for (auto &[name, i] : narrowed) bind(name, i);
        for (const std::string &let : let_order_) {
            auto value = let_values_.find(let);
            if (value == let_values_.end() || changed.count(let)) continue;
            std::set<std::string> names;
            collect_variables(value->second, names);
            bool depends = std::any_of(names.begin(), names.end(), [&](const std::string &n) { return changed.count(n) > 0; });
            if (depends) bind(let, let_interval(let, value->second));
        }
        body();
        for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
            if (it->second) scope[it->first] = *it->second;
            else scope.erase(it->first);
        }
    }
    void visit(const For *op) override {
        if (!wanted(op)) return;
        op->min.accept(this);
        op->extent.accept(this);
        Interval mn = bounds(op->min);
        // Simplify first so that min + ((max - min) + 1) - 1 becomes max: interval arithmetic
        // alone would lose the correlation between min and max.
        Interval last = bounds(simplify(Sub::make(Add::make(op->min, op->extent), make_one(op->min.type())), let_values_));
        Interval v(mn.min.defined() ? simplify(mn.min) : Expr(),
                   last.max.defined() ? simplify(last.max) : Expr());
        SymbolicLoop symbolic{op->min, simplify(Sub::make(Add::make(op->min, op->extent), make_one(op->min.type())))};
        std::set<std::string> names;
        collect_variables(symbolic.min, names);
        collect_variables(symbolic.max, names);
        // (Only an end that is a difference or a quotient is worth the work, as in [0, max -
        // min] or [0, (max - min) / F]: a plain loop from m to M is bounded as well by the lets'
        // ranges.)
        struct HasDifference : IRVisitor {
            bool found = false;
            using IRVisitor::visit;
            void visit(const Div *) override { found = true; }
            void visit(const Sub *) override { found = true; }
        } difference;
        symbolic.max.accept(&difference);
        for (const std::string &n : names) {
            if (auto l = let_values_.find(n); difference.found && l != let_values_.end()) symbolic.lets[n] = l->second;
        }
        auto outer = symbolic_loops_.find(op->name);
        std::optional<SymbolicLoop> saved;
        if (outer != symbolic_loops_.end()) saved = outer->second;
        if (symbolic.lets.empty()) symbolic_loops_.erase(op->name);
        else symbolic_loops_[op->name] = symbolic;
        with_binding(op->name, v, [&] { op->body.accept(this); });
        if (saved) symbolic_loops_[op->name] = *saved;
        else symbolic_loops_.erase(op->name);
    }
    // Whether e is fixed for the whole call: it reads only Params, buffer fields and the like,
    // no loop variable or let of the statement (anything bound here) and no Func, image or
    // extern call (an RDom's where() may read the Func being reduced).
    bool fixed_for_the_call(const Expr &e) {
        struct Finder : IRVisitor {
            const BoxFinder &f;
            bool varies = false;
            explicit Finder(const BoxFinder &b) : f(b) {}
            void visit(const Variable *v) override {
                varies |= f.scope.count(v->name) > 0 || f.let_values_.count(v->name) > 0;
            }
            void visit(const Call *c) override {
                // (print() has an effect: copied into a check's guard, it would print more.)
                varies |= c->call_type != Call::Intrinsic || c->is_effect_intrinsic();
                IRVisitor::visit(c);
            }
        } finder(*this);
        e.accept(&finder);
        return !finder.varies;
    }

    // An if on a condition fixed for the call (the branches of a specialized stage, or an if
    // on Params): what a branch touches is touched only when the branch is taken. A region
    // touched by both branches is the taken branch's, select(c, then, else), not the union (a
    // vectorized branch taken only for wide outputs may touch more than a narrow output holds,
    // and must not make the narrow case fail its bounds check); one touched by one branch only
    // may be unused (an input read only by a specialization not taken need not cover it).
    void visit_fixed_branches(const IfThenElse *op) {
        op->condition.accept(this);
        std::map<std::string, Box> outer = std::move(boxes);
        boxes.clear();
        op->then_case.accept(this);
        std::map<std::string, Box> then_boxes = std::move(boxes);
        boxes.clear();
        if (op->else_case.defined()) op->else_case.accept(this);
        std::map<std::string, Box> else_boxes = std::move(boxes);
        boxes = std::move(outer);
        // (The ends simplified knowing the enclosing lets, so that the two branches' ends
        // compare equal where they are, and need no select.)
        auto only_if = [&](std::map<std::string, Box> &side, const Expr &c) {
            for (auto &entry : side) {
                Box &b = entry.second;
                b.used_if = b.maybe_unused() ? simplify(c && b.used_if) : c;
                for (Interval &i : b.dims) {
                    if (i.min.defined()) i.min = simplify(i.min, let_values_);
                    if (i.max.defined()) i.max = simplify(i.max, let_values_);
                }
            }
        };
        only_if(then_boxes, op->condition);
        only_if(else_boxes, simplify(Not::make(op->condition)));
        for (auto &[name, t] : then_boxes) {
            auto e = else_boxes.find(name);
            if (e != else_boxes.end() && e->second.dims.size() == t.dims.size()) {
                merge_into(t, e->second);
                else_boxes.erase(e);
            }
            merge_into(boxes[name], t);
        }
        for (auto &[name, b] : else_boxes) merge_into(boxes[name], b);
    }

    static bool contains_likely(const Expr &e) {
        struct Finder : IRVisitor {
            bool found = false;
            void visit(const Call *c) override {
                found |= c->is_intrinsic(Call::likely);
                IRVisitor::visit(c);
            }
        } finder;
        e.accept(&finder);
        return finder.found;
    }

    // The narrower ranges of the variables in scope that a condition (a conjunction of
    // comparisons of a variable with an expression that does not use it) implies.
    void narrow_by(const Expr &condition, std::vector<std::pair<std::string, Interval>> &narrowed) {
        if (!condition.type().is_scalar()) return;
        if (const And *a = condition.as<And>()) {
            narrow_by(a->a, narrowed);
            narrow_by(a->b, narrowed);
            return;
        }
        // min(v, e) == v holds where v <= e, and max(v, e) == v where v >= e (as Halide solves).
        if (const EQ *o = condition.as<EQ>()) {
            for (int side = 0; side < 2; side++) {
                const Expr &both = side ? o->b : o->a, &alone = side ? o->a : o->b;
                const Min *mn = both.as<Min>();
                const Max *mx = both.as<Max>();
                if (!alone.as<Variable>() || (!mn && !mx)) continue;
                const Expr &a = mn ? mn->a : mx->a, &b = mn ? mn->b : mx->b;
                const Expr *bound = equal(a, alone) ? &b : equal(b, alone) ? &a : nullptr;
                if (!bound || expr_uses_var(*bound, alone.as<Variable>()->name)) continue;
                return narrow_by(mn ? LE::make(alone, *bound) : GE::make(alone, *bound), narrowed);
            }
        }
        // v < e, v <= e, v > e, v >= e, v == e, with v on either side, or the negation of one of
        // the first four (as undef() in the true arm of a select on an update's left side gives).
        Expr lhs, rhs;
        int upper_gap = -1, lower_gap = -1;  // v <= rhs - upper_gap, v >= rhs + lower_gap
        Expr c = condition;
        bool negated = false;
        if (const Not *n = c.as<Not>()) c = n->a, negated = true;
        if (const LT *o = c.as<LT>()) lhs = o->a, rhs = o->b, (negated ? lower_gap : upper_gap) = negated ? 0 : 1;
        else if (const LE *o = c.as<LE>()) lhs = o->a, rhs = o->b, (negated ? lower_gap : upper_gap) = negated ? 1 : 0;
        else if (const GT *o = c.as<GT>()) lhs = o->a, rhs = o->b, (negated ? upper_gap : lower_gap) = negated ? 0 : 1;
        else if (const GE *o = c.as<GE>()) lhs = o->a, rhs = o->b, (negated ? upper_gap : lower_gap) = negated ? 1 : 0;
        else if (const EQ *o = c.as<EQ>(); o && !negated) lhs = o->a, rhs = o->b, upper_gap = lower_gap = 0;
        else return;
        const Variable *v = lhs.as<Variable>();
        if (!v || !scope.count(v->name)) {
            // e op v: the mirror image.
            v = rhs.as<Variable>();
            if (!v || !scope.count(v->name)) {
                // Neither side is a variable alone: solve for each variable of either side.
                narrow_by_solving(lhs, rhs, upper_gap, lower_gap, narrowed);
                narrow_by_solving(rhs, lhs, lower_gap, upper_gap, narrowed);
                return;
            }
            std::swap(lhs, rhs);
            std::swap(upper_gap, lower_gap);
        }
        if (!v->type.is_int() || v->type.bits() != 32 || expr_uses_var(rhs, v->name)) return;
        Interval have = narrowed_range(v->name, narrowed);
        Interval other = bounds(rhs);
        Interval now = have;
        // Each end stays inside the old range: a condition that never holds would otherwise
        // give an inverted range, and corners of products and quotients taken over it could
        // make a box wider than without the narrowing.
        if (upper_gap >= 0 && other.max.defined() && have.min.defined() && have.max.defined()) {
            Expr hi = simplify(other.max - upper_gap, let_values_);
            now.max = simplify(max(min(have.max, hi), have.min), let_values_);
        }
        if (lower_gap >= 0 && other.min.defined() && have.min.defined() && have.max.defined()) {
            Expr lo = simplify(other.min + lower_gap, let_values_);
            now.min = simplify(min(max(have.min, lo), have.max), let_values_);
        }
        narrowed.push_back({v->name, now});
    }

    // The range of a variable of the scope, as narrowed so far.
    Interval narrowed_range(const std::string &name, const std::vector<std::pair<std::string, Interval>> &narrowed) {
        Interval have = scope[name];
        for (auto &[n, i] : narrowed) {
            if (n == name) have = i;
        }
        return have;
    }

    // lhs <= rhs - upper_gap (if upper_gap >= 0) and lhs >= rhs + lower_gap (if lower_gap >= 0),
    // where lhs is linear in a variable of the scope that rhs does not name (r + 3 < 13,
    // 2 * r < 20, -r > -10): the bounds solve_for_variable derives narrow that variable. They
    // are int64 and exact; each end stays inside the old range, as in narrow_by.
    void narrow_by_solving(const Expr &lhs, const Expr &rhs, int upper_gap, int lower_gap,
                           std::vector<std::pair<std::string, Interval>> &narrowed) {
        if (lhs.type() != Int(32) || rhs.type() != Int(32)) return;
        std::set<std::string> names;
        collect_variables(lhs, names);
        Expr wide_rhs = Cast::make(Int(64), rhs);
        Expr upper = upper_gap >= 0 ? Sub::make(wide_rhs, make_const(Int(64), int64_t(upper_gap))) : Expr();
        Expr lower = lower_gap >= 0 ? Add::make(wide_rhs, make_const(Int(64), int64_t(lower_gap))) : Expr();
        for (const std::string &name : names) {
            if (!scope.count(name) || expr_uses_var(rhs, name)) continue;
            VariableBounds solved;
            if (!solve_for_variable(lhs, name, upper, lower, &solved)) continue;
            Interval have = narrowed_range(name, narrowed);
            if (!have.min.defined() || !have.max.defined() || have.min.type() != Int(32)) continue;
            Expr have_min = Cast::make(Int(64), have.min), have_max = Cast::make(Int(64), have.max);
            Interval now = have;
            // (Simplified first: a min's or max's bound is a select that folds on constants.)
            if (solved.upper.defined()) {
                Interval u = bounds(simplify(solved.upper, let_values_));
                if (u.max.defined()) {
                    now.max = simplify(Cast::make(Int(32), max(min(have_max, u.max), have_min)), let_values_);
                }
            }
            if (solved.lower.defined()) {
                Interval l = bounds(simplify(solved.lower, let_values_));
                if (l.min.defined()) {
                    now.min = simplify(Cast::make(Int(32), min(max(have_min, l.min), have_max)), let_values_);
                }
            }
            narrowed.push_back({name, now});
        }
    }


    void visit(const IfThenElse *op) override {
        if (!wanted(op)) return;
        if (fixed_for_the_call(op->condition)) {
            visit_fixed_branches(op);
            return;
        }
        // A sliding window's warm-up guard (lower/SlidingWarmup.h): what it guards runs only
        // from the loop's original first iteration on, so it touches no more than before.
        if (std::string loop; is_warmup_guard(op->condition, &loop) && scope.count(loop) && !op->else_case.defined()) {
            Interval from = bounds(Variable::make(Int(32), warmup_original_min_name(loop)));
            Interval narrowed = scope[loop];
            if (from.min.defined()) narrowed.min = narrowed.min.defined() ? simplify(max(narrowed.min, from.min)) : from.min;
            op->condition.accept(this);
            with_narrowed({{loop, narrowed}}, [&] { op->then_case.accept(this); });
            return;
        }
        if (!contains_likely(op->condition)) {
            // Any other if (RDom::where, an update's undef() left side, a store condition):
            // its then branch runs only where the condition holds, so a comparison of a
            // variable there narrows the variable's range (as Halide's BoxesTouched does).
            op->condition.accept(this);
            std::vector<std::pair<std::string, Interval>> narrowed;
            narrow_by(op->condition, narrowed);
            with_narrowed(narrowed, [&] { op->then_case.accept(this); });
            if (op->else_case.defined()) op->else_case.accept(this);
            return;
        }
        // A GuardWithIf guard (likely(v <= e)) does not narrow v here: the split's let promises
        // its value's range (promise_clamped), which bounds every read through it. Narrowing v
        // too gave ends like max(min(m + ((M - m) / 16) * 16 + min(M - m, 15), M), min(m, M)),
        // equal to M but not simplified, which named M three times per stage and grew
        // exponentially along a chain of vectorized stages (8 stages compiled in 44 s), and whose
        // 32-bit computation could overflow near INT_MAX where M itself does not.
        op->condition.accept(this);
        op->then_case.accept(this);
        if (op->else_case.defined()) op->else_case.accept(this);
    }
};

}  // namespace

Interval interval_union(const Interval &a, const Interval &b) {
    return Interval(min_or_undef(a.min, b.min), max_or_undef(a.max, b.max));
}

Box box_union(const Box &a, const Box &b) {
    Box r = a;
    return merge_into(r, b);
}

Stmt guard_by_use(const Box &b, const Stmt &check) {
    return b.maybe_unused() ? IfThenElse::make(b.used_if, check) : check;
}

UseFuncValueBounds::UseFuncValueBounds(const FuncValueBounds &bounds) : previous_(installed_value_bounds) {
    installed_value_bounds = &bounds;
}
UseFuncValueBounds::~UseFuncValueBounds() { installed_value_bounds = previous_; }

Interval bounds_of_expr_in_scope(const Expr &e, const Scope &scope) {
    BoundsOfExpr b(scope);
    return b.get(e);
}

std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &scope, const LetValues &outer_lets) {
    BoxFinder f(scope, false, outer_lets);
    s.accept(&f);
    return f.take_boxes();
}

namespace {

// The box of one Func or image that s reads (or with provides, writes).
Box box_of(const Stmt &s, const std::string &name, bool provides, const Scope &scope, const LetValues &outer_lets) {
    BoxFinder f(scope, provides, outer_lets);
    f.only(name, s);
    s.accept(&f);
    std::map<std::string, Box> boxes = f.take_boxes();
    auto it = boxes.find(name);
    return it == boxes.end() ? Box() : it->second;
}

}  // namespace

Box box_required(const Stmt &s, const std::string &name, const Scope &scope, const LetValues &outer_lets) {
    return box_of(s, name, false, scope, outer_lets);
}

Box box_provided(const Stmt &s, const std::string &name, const Scope &scope, const LetValues &outer_lets) {
    return box_of(s, name, true, scope, outer_lets);
}

}  // namespace halo
