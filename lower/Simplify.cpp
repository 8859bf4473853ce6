#include "Simplify.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include "BoundsOverflowChecks.h"
#include "EuclideanDivision.h"
#include "IREquality.h"
#include "Substitute.h"
#include "dsl/Arithmetic.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

// Integer arithmetic of 32 or 64 bits is treated as not overflowing (as in Halide), which is
// what lets a + b - a become b. Narrow integer types wrap, so they only get constant folding.
bool is_affine_type(Type t) { return t.is_int() && t.bits() >= 32 && t.lanes() == 1; }

// sum of coeff * term, plus constant. Coefficients wrap modulo 2^64, which is exact modulo the
// type's width; the constant also records whether it is the exact (unwrapped) value, which
// decisions about order (min, max, comparisons) need.
struct Linear {
    std::map<Expr, int64_t, ExprLess> terms;
    int64_t constant = 0;
    bool exact = true;

    void add(const Linear &o, int64_t scale) {
        for (auto &[t, c] : o.terms) {
            int64_t &dst = terms[t];
            dst = int64_t(uint64_t(dst) + uint64_t(c) * uint64_t(scale));
            if (dst == 0) terms.erase(t);
        }
        int64_t product, sum;
        bool overflow = __builtin_mul_overflow(o.constant, scale, &product);
        overflow |= __builtin_add_overflow(constant, product, &sum);
        constant = sum;
        exact = exact && o.exact && !overflow;
    }
    bool is_constant() const { return terms.empty(); }
};

Linear to_linear(const Expr &e) {
    Linear l;
    if (auto i = e.as<IntImm>()) {
        l.constant = i->value;
    } else if (auto a = e.as<Add>()) {
        l = to_linear(a->a);
        l.add(to_linear(a->b), 1);
    } else if (auto s = e.as<Sub>()) {
        l = to_linear(s->a);
        l.add(to_linear(s->b), -1);
    } else if (auto m = e.as<Mul>(); m && as_const_int(m->b)) {
        l.add(to_linear(m->a), *as_const_int(m->b));
    } else if (auto m = e.as<Mul>(); m && as_const_int(m->a)) {
        l.add(to_linear(m->b), *as_const_int(m->a));
    } else {
        l.terms[e] = 1;
    }
    return l;
}

Expr from_linear(const Linear &l, Type t) {
    Expr pos, neg;
    for (auto &[term, c] : l.terms) {
        // |c| in wrapping arithmetic: a coefficient of INT64_MIN (x * 2^62 * 2) is its own
        // magnitude, and x * INT64_MIN subtracted is x * INT64_MIN added, modulo 2^64.
        int64_t mag = int64_t(c < 0 ? 0 - uint64_t(c) : uint64_t(c));
        Expr x = mag == 1 ? term : Mul::make(term, make_const(t, mag));
        Expr &acc = c > 0 ? pos : neg;
        acc = acc.defined() ? Add::make(acc, x) : x;
    }
    Expr result = pos;
    if (neg.defined()) result = result.defined() ? Sub::make(result, neg) : Sub::make(make_zero(t), neg);
    if (!result.defined()) return make_const(t, l.constant);
    // The constant goes in as pieces the type can hold: x - INT_MIN is x + 2^31, which int32
    // cannot hold; written x + INT_MIN (the wrapped value) it would overflow where the
    // original did not, and widening it to int64 later would add -2^31 instead of 2^31.
    // (Wrapping types keep the low bits: make_const wraps, which is their arithmetic.)
    int64_t rest = l.constant;
    bool exact_pieces = t.is_int() && t.bits() == 32;
    int64_t lo = exact_pieces ? INT32_MIN : INT64_MIN, hi = exact_pieces ? INT32_MAX : INT64_MAX;
    while (rest != 0) {
        if (rest > 0 && rest <= hi) {
            result = Add::make(result, make_const(t, rest));
        } else if (rest < 0 && rest >= -hi) {
            result = Sub::make(result, make_const(t, -rest));
        } else if (rest != INT64_MIN && -rest >= lo && -rest <= hi) {  // 2^31 for int32
            result = rest > 0 ? Sub::make(result, make_const(t, -rest)) : Add::make(result, make_const(t, rest));
        } else {
            int64_t piece = rest > 0 ? hi : lo;
            result = Add::make(result, make_const(t, piece));
            rest -= piece;
            continue;
        }
        break;
    }
    return result;
}


class Simplifier : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    // Values of the enclosing lets, so that v - (value of v) can cancel: the caller's, not
    // copied (bounds inference simplifies thousands of expressions under the same few thousand
    // lets: copying them for each was most of local Laplacian's lowering time), under those
    // bound inside the expression. An undefined inner value hides an outer one.
    struct KnownLets {
        const std::map<std::string, Expr> *outer = nullptr;
        std::map<std::string, Expr> inner;
        Expr value(const std::string &name) const {
            if (auto it = inner.find(name); it != inner.end()) return it->second;
            if (outer) {
                if (auto it = outer->find(name); it != outer->end()) return it->second;
            }
            return Expr();
        }
        // Binds (or, with an undefined value, hides) a name; returns what restore() puts back.
        std::optional<Expr> bind(const std::string &name, Expr v) {
            auto it = inner.find(name);
            std::optional<Expr> saved = it == inner.end() ? std::nullopt : std::optional<Expr>(it->second);
            inner[name] = std::move(v);
            return saved;
        }
        void restore(const std::string &name, const std::optional<Expr> &saved) {
            if (saved) inner[name] = *saved;
            else inner.erase(name);
        }
    } let_values_;

    // An int32 or int64 operation on constants that overflows is never folded (that would
    // silently produce a value for undefined behaviour). When checking a Func's definition
    // (strict_func_ names it), such an operation that is always evaluated is a CompileError;
    // one inside a select arm (which may never run) is left unfolded.
    std::string strict_func_;
    int conditional_depth_ = 0;

    // Folds a op b for integer constants; returns an undefined Expr if it would overflow.
    Expr fold_int(Type t, IntArith op, int64_t a, int64_t b) {
        bool overflowed = false;
        int64_t r = int_arith(t, op, a, b, &overflowed);
        if (!overflowed) return make_const(t, r);
        user_assert(strict_func_.empty() || conditional_depth_ > 0)
            << signed_overflow_message("Func '" + strict_func_ + "'", t, op, a, b)
            << " (found while constant-folding the definition)";
        return Expr();
    }

    // The value of an enclosing let, with the variables an enclosing if fixes (known_values_)
    // replaced by their constants.
    Expr let_value(const std::string &name) {
        Expr value = let_values_.value(name);
        if (!value.defined() || known_values_.empty()) return value;
        bool uses_known = false;
        for (auto &[var, constant] : known_values_) uses_known |= expr_uses_var(value, var);
        return uses_known ? mutate(value) : value;  // (visit(Variable) puts the constants in)
    }

    // Replaces every let-bound term by its value, many levels deep (up to 16).
    Linear expand_all_lets(const Linear &l) {
        Linear full = l;
        for (int depth = 0; depth < 16; depth++) {
            Linear next;
            next.constant = full.constant;
            next.exact = full.exact;
            bool any = false;
            for (auto &[term, coeff] : full.terms) {
                auto v = term.as<Variable>();
                Expr value = v ? let_value(v->name) : Expr();
                Linear part;
                if (value.defined() && is_affine_type(value.type())) {
                    part = to_linear(value);
                    any = true;
                } else {
                    part.terms[term] = 1;
                }
                next.add(part, coeff);
            }
            full = next;
            if (!any) break;
        }
        return full;
    }

    // Replaces let-bound terms by their values where that makes the sum shorter.
    Linear expand_lets(Linear l) {
        // First try replacing every let-bound term at once, many levels deep (the bounds of one
        // stage name those of its consumers): catches v_max - v_min where both are lets of the
        // same base.
        Linear full = expand_all_lets(l);
        if (full.terms.size() < l.terms.size()) return full;
        bool changed = true;
        while (changed) {
            changed = false;
            for (auto &[term, coeff] : l.terms) {
                auto v = term.as<Variable>();
                if (!v) continue;
                Expr value = let_value(v->name);
                if (!value.defined() || !is_affine_type(value.type())) continue;
                Linear candidate = l;
                int64_t c = coeff;
                candidate.terms.erase(term);
                candidate.add(to_linear(value), c);
                if (candidate.terms.size() < l.terms.size()) {
                    l = candidate;
                    changed = true;
                    break;
                }
            }
        }
        return l;
    }
    // For a let inside a loop whose value is e + c or e - c (c constant): moves c into the
    // uses, let v = e and v + c where v was (*rest = e, *use = v + c); false if it does not
    // apply. The unrolled copies of a split variable (let x = xo * 8 + x.min + k) then share
    // one value, and their flat indices (int64(x) * 32 + 32 * k) one base plus constants,
    // which LLVM keeps in registers: it cannot widen a 32-bit x + k to int64(x) + k itself.
    // Exact in any integer type (the sum is only regrouped). Not outside loops, nor for the
    // bounds checked inside them: the overflow checks compare each such let with its exact
    // value, and must see the whole sum.
    bool move_constant_offset(const std::string &name, const Expr &v, Expr *rest, Expr *use) const {
        if (loop_depth_ == 0 || !v.type().is_int() || !v.type().is_scalar() || is_bound_name(name)) return false;
        Expr var = Variable::make(v.type(), name);
        if (auto a = v.as<Add>(); a && is_const(a->b)) {
            *rest = a->a;
            *use = Add::make(var, a->b);
            return true;
        }
        if (auto s = v.as<Sub>(); s && is_const(s->b)) {
            *rest = s->a;
            *use = Sub::make(var, s->b);
            return true;
        }
        return false;
    }
    int loop_depth_ = 0;

    // The constant ranges of the enclosing loops' variables (loops with a constant min and
    // extent), so that a guard such as v <= 31 inside for (v, 0, 16) is known to hold.
    std::map<std::string, std::pair<int64_t, int64_t>> loop_ranges_;

    // The variables an enclosing if's condition says equal a constant (in its then case).
    std::map<std::string, Expr> known_values_;

    // The lets being removed whose values are constants or variables: each use of the name is
    // replaced by the value as the body is simplified. (Substituting into the body first took
    // a walk of the whole body per let; the bounds and strides a pipeline binds at its top are
    // dozens of such lets over all of its code: 5% of cnn_block's compile time.)
    std::map<std::string, Expr> replacements_;

    // Hides what is known of a name (a loop variable's range, a variable's value) while a let
    // or an inner loop of the same name is in scope (a loop then sets its own range, if
    // constant); puts it back at the end of the scope.
    template <typename Map>
    class Hide {
    public:
        Hide(Map &known, const std::string &name) : known_(known), name_(name) {
            auto it = known_.find(name_);
            if (it != known_.end()) {
                saved_ = it->second;
                known_.erase(it);
            }
        }
        ~Hide() {
            known_.erase(name_);
            if (saved_) known_[name_] = *saved_;
        }

    private:
        Map &known_;
        std::string name_;
        std::optional<typename Map::mapped_type> saved_;
    };
    class HideKnown {
    public:
        HideKnown(Simplifier &s, const std::string &name)
            : range_(s.loop_ranges_, name), value_(s.known_values_, name), replacement_(s.replacements_, name) {}

    private:
        Hide<std::map<std::string, std::pair<int64_t, int64_t>>> range_;
        Hide<std::map<std::string, Expr>> value_;
        Hide<std::map<std::string, Expr>> replacement_;
    };
    // The body of a let whose value v is a constant or a variable, simplified with the name
    // replaced by v (which is already simplified).
    template <typename Body>
    Body mutate_replacing(const std::string &name, const Expr &v, const Body &body) {
        HideKnown hidden(*this, name);
        replacements_[name] = v;
        return mutate(body);
    }
    Expr known_value(const Variable *op) {
        auto it = known_values_.find(op->name);
        return it == known_values_.end() || it->second.type() != op->type ? Expr() : it->second;
    }
    Expr visit(const Variable *op) override {
        if (!replacements_.empty()) {
            if (auto it = replacements_.find(op->name); it != replacements_.end()) {
                // A variable put in is simplified as a use of it would be: an enclosing if may
                // fix its value. (Not its own replacement: it was already applied to v.)
                const Variable *w = it->second.as<Variable>();
                Expr known = w && !known_values_.empty() ? known_value(w) : Expr();
                return known.defined() ? known : it->second;
            }
        }
        if (known_values_.empty()) return self(op);
        Expr known = known_value(op);
        return known.defined() ? known : self(op);
    }

    // The range of a - b where every term left after expanding lets is a variable of an
    // enclosing loop with constant bounds (false if some term is not).
    bool difference_range(const Expr &a, const Expr &b, int64_t *lo, int64_t *hi) {
        if (loop_ranges_.empty() || !is_affine_type(a.type())) return false;
        Linear l = to_linear(a);
        l.add(to_linear(b), -1);
        l = expand_all_lets(l);
        if (!l.exact) return false;
        __int128 mn = l.constant, mx = l.constant;
        for (auto &[term, coeff] : l.terms) {
            auto v = term.as<Variable>();
            auto it = v ? loop_ranges_.find(v->name) : loop_ranges_.end();
            if (it == loop_ranges_.end() || coeff > (int64_t(1) << 31) || coeff < -(int64_t(1) << 31)) return false;
            __int128 x = __int128(coeff) * it->second.first, y = __int128(coeff) * it->second.second;
            mn += std::min(x, y);
            mx += std::max(x, y);
        }
        const __int128 limit = __int128(1) << 62;
        if (mn < -limit || mx > limit) return false;
        *lo = int64_t(mn);
        *hi = int64_t(mx);
        return true;
    }

    // Whether every term of l is a variable of an enclosing loop with a constant range.
    bool only_ranged_loop_variables(const Linear &l) const {
        for (auto &[term, coeff] : l.terms) {
            auto v = term.as<Variable>();
            if (!v || !loop_ranges_.count(v->name)) return false;
        }
        return true;
    }

    // The range of a - b when it is m ((E / c) * c - E) + k for a positive constant c (E / c
    // rounding down, so (E / c) * c - E is in [-(c - 1), 0]) and constants m and k. That is the
    // difference between the last vector of a ShiftInwards split, x.min + ((x.max - x.min) / c)
    // * c, and its clamp x.max - (c - 1): deciding their min keeps the bounds of a chain of
    // vectorized stages linear in its length, where both ends of each stage's region would
    // otherwise appear in the next one's and double at every stage.
    bool rounding_difference_range(const Expr &a, const Expr &b, int64_t *lo, int64_t *hi) {
        if (!is_affine_type(a.type())) return false;
        Linear l = to_linear(a);
        l.add(to_linear(b), -1);
        if (!l.exact) return false;
        for (auto &[term, coeff] : l.terms) {
            auto div = term.as<Div>();
            const int64_t *c = div ? as_const_int(div->b) : nullptr;
            if (!c || *c <= 1 || coeff % *c != 0) continue;
            int64_t m = coeff / *c;
            // l = m c (E / c) + rest; the rest must be -m E + k.
            Linear rest = l;
            rest.terms.erase(term);
            rest.add(to_linear(div->a), m);
            if (!rest.exact || !rest.is_constant()) continue;
            int64_t k = rest.constant, span = m * (*c - 1);  // m ((E / c) * c - E) in [-span, 0] (m > 0)
            *lo = m > 0 ? k - span : k;
            *hi = m > 0 ? k : k - span;
            return true;
        }
        return false;
    }

    bool constant_difference(const Expr &a, const Expr &b, int64_t *diff) {
        if (!is_affine_type(a.type())) return false;
        Linear l = to_linear(a);
        l.add(to_linear(b), -1);
        l = expand_lets(l);
        if (!l.is_constant() || !l.exact) return false;
        *diff = l.constant;
        return true;
    }

    Expr visit(const Cast *op) override {
        Expr v = mutate(op->value);
        Type t = op->type;
        if (v.type() == t) return v;
        if (t.is_scalar()) {
            if (auto i = v.as<IntImm>()) return t.is_float() ? make_const(t, double(i->value)) : make_const(t, i->value);
            if (auto u = v.as<UIntImm>()) {
                if (t.is_float()) return make_const(t, double(u->value));
                return t.is_uint() ? UIntImm::make(t, u->value) : make_const(t, int64_t(u->value));
            }
            if (auto f = v.as<FloatImm>()) {
                if (t.is_float()) return make_const(t, f->value);
                // rounds toward zero, saturates; NaN gives 0
                return make_const(t, saturating_float_to_int(t, f->value));
            }
        }
        if (t == Int(64) && v.type() == Int(32) && (v.as<Add>() || v.as<Sub>() || v.as<Mul>())) {
            // Widening a 32-bit index sum (flat indices are 64-bit): widen each term instead,
            // so that sums of widened coordinates keep cancelling and offsets stay visible
            // constants (exact, since signed 32-bit overflow is undefined).
            Linear l = to_linear(v), wide;
            for (auto &[term, coeff] : l.terms) wide.terms[Cast::make(t, term)] = coeff;
            wide.constant = l.constant;
            return from_linear(wide, t);
        }
        if (t.is_vector()) {
            // Widening a vector index: cast the Ramp's base and stride instead, so the access
            // stays a visible dense Ramp (exact, since signed 32-bit overflow is undefined).
            Type from = v.type();
            if (auto r = v.as<Ramp>(); r && from.is_int() && t.is_int() && t.bits() > from.bits()) {
                return Ramp::make(mutate(Cast::make(t.element_of(), r->base)),
                                  mutate(Cast::make(t.element_of(), r->stride)), r->lanes);
            }
            if (auto b = v.as<Broadcast>()) return Broadcast::make(mutate(Cast::make(t.element_of(), b->value)), b->lanes);
        }
        return v.same_as(op->value) ? self(op) : Cast::make(t, v);
    }

    Expr visit(const Add *op) override { return arith(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const Sub *op) override { return arith(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const Mul *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (is_const(a) && !is_const(b)) std::swap(a, b);
        if (is_zero(b) && !a.type().is_float()) return b;
        if (is_one(b)) return a;
        return arith(op, a, b);
    }

    Expr visit(const Div *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        Type t = op->type;
        if (t.is_scalar()) {
            if (Expr f = fold_float(a, b, [](double x, double y) { return x / y; }); f.defined()) return f;
            if (auto ia = a.as<IntImm>(), ib = b.as<IntImm>(); ia && ib) return make_const(t, euclidean_div(ia->value, ib->value));
            if (auto ua = a.as<UIntImm>(), ub = b.as<UIntImm>(); ua && ub)
                return UIntImm::make(t, ub->value ? ua->value / ub->value : 0);
        }
        if (is_one(b)) return a;
        if (is_affine_type(t)) {
            if (const int64_t *c = as_const_int(b); c && *c > 0) {
                // (c*K + r) / c == K + r / c for integer K
                Linear l = to_linear(a);
                Linear q, rest;
                for (auto &[term, coeff] : l.terms) {
                    if (coeff % *c == 0) q.terms[term] = coeff / *c;
                    else rest.terms[term] = coeff;
                }
                if (!q.terms.empty() || rest.terms.empty()) {
                    if (rest.terms.empty()) {
                        q.constant = euclidean_div(l.constant, *c);
                        return from_linear(q, t);
                    }
                    rest.constant = l.constant;
                    return Add::make(from_linear(q, t), Div::make(from_linear(rest, t), b));
                }
            }
        }
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Div::make(a, b);
    }

    Expr visit(const Mod *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        Type t = op->type;
        if (t.is_scalar()) {
            if (auto ia = a.as<IntImm>(), ib = b.as<IntImm>(); ia && ib) return make_const(t, euclidean_mod(ia->value, ib->value));
            if (auto ua = a.as<UIntImm>(), ub = b.as<UIntImm>(); ua && ub)
                return UIntImm::make(t, ub->value ? ua->value % ub->value : 0);
        }
        if (is_affine_type(t)) {
            if (const int64_t *c = as_const_int(b); c && *c > 0) {
                if (*c == 1) return make_zero(t);
                Linear l = to_linear(a), rest;
                bool dropped = false;
                for (auto &[term, coeff] : l.terms) {
                    if (coeff % *c == 0) dropped = true;
                    else rest.terms[term] = coeff;
                }
                rest.constant = euclidean_mod(l.constant, *c);
                if (rest.terms.empty()) return make_const(t, rest.constant);
                if (dropped || rest.constant != l.constant) return Mod::make(from_linear(rest, t), b);
            }
        }
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Mod::make(a, b);
    }

    // Bitwise operations, shifts and abs of integer constants.
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        // A requirement that holds at compile time checks nothing.
        if (c && c->is_intrinsic(Call::require) && is_one(c->args[0])) return c->args[1];
        if (!c || c->call_type != Call::Intrinsic || !c->type.is_scalar() || c->type.is_float()) return e;
        // A guard decided at compile time is no longer a hint to partition loops by.
        if (is_value_hint(*c) && c->args.size() == 1 && is_const(c->args[0])) return c->args[0];
        std::vector<int64_t> v;
        for (auto &a : c->args) {
            if (auto i = a.as<IntImm>()) v.push_back(i->value);
            else if (auto u = a.as<UIntImm>()) v.push_back(int64_t(u->value));
            else return e;
        }
        Type t = c->type;
        const std::string &n = c->name;
        if (v.size() == 1 && n == Call::bitwise_not) return make_const(t, ~v[0]);
        if (v.size() == 1 && n == Call::abs) {
            bool negative = c->args[0].type().is_int() && v[0] < 0;
            return make_const(t, negative ? int64_t(0 - uint64_t(v[0])) : v[0]);
        }
        if (v.size() != 2) return e;
        if (n == Call::bitwise_and) return make_const(t, v[0] & v[1]);
        if (n == Call::bitwise_or) return make_const(t, v[0] | v[1]);
        if (n == Call::bitwise_xor) return make_const(t, v[0] ^ v[1]);
        if (n == Call::shift_left || n == Call::shift_right) {
            return make_const(t, shift_value(t, v[0], v[1], c->args[1].type().is_int(), n == Call::shift_left));
        }
        return e;
    }

    Expr visit(const Min *op) override { return min_max(op, true); }
    Expr visit(const Max *op) override { return min_max(op, false); }

    Expr visit(const EQ *op) override { return compare(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const NE *op) override { return compare(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const LT *op) override { return compare(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const LE *op) override { return compare(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const GT *op) override { return compare(op, mutate(op->a), mutate(op->b)); }
    Expr visit(const GE *op) override { return compare(op, mutate(op->a), mutate(op->b)); }

    // Whether e is an Or (resp. And) one of whose operands, at any depth of that same
    // operator, equals x.
    static bool or_has_operand(const Expr &e, const Expr &x) {
        const Or *o = e.as<Or>();
        return o && (equal(o->a, x) || equal(o->b, x) || or_has_operand(o->a, x) || or_has_operand(o->b, x));
    }
    static bool and_has_operand(const Expr &e, const Expr &x) {
        const And *o = e.as<And>();
        return o && (equal(o->a, x) || equal(o->b, x) || and_has_operand(o->a, x) || and_has_operand(o->b, x));
    }

    Expr visit(const And *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (is_one(a)) return b;
        if (is_one(b)) return a;
        if (is_zero(a)) return a;
        if (is_zero(b)) return b;
        // a && a, and a && (a || c) (the conditions of nested specializations repeat); as in
        // Halide, a print() in a repeated a then runs once
        if (equal(a, b) || or_has_operand(b, a)) return a;
        if (or_has_operand(a, b)) return b;
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : And::make(a, b);
    }
    Expr visit(const Or *op) override {
        Expr a = mutate(op->a), b = mutate(op->b);
        if (is_one(a)) return a;
        if (is_one(b)) return b;
        if (is_zero(a)) return b;
        if (is_zero(b)) return a;
        // a || a, and a || (a && c)
        if (equal(a, b) || and_has_operand(b, a)) return a;
        if (and_has_operand(a, b)) return b;
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Or::make(a, b);
    }
    Expr visit(const Not *op) override {
        Expr a = mutate(op->a);
        if (is_one(a)) return make_zero(op->type);
        if (is_zero(a)) return make_one(op->type);
        if (auto n = a.as<Not>()) return n->a;
        return a.same_as(op->a) ? self(op) : Not::make(a);
    }
    Expr visit(const Select *op) override {
        Expr c = mutate(op->condition);
        // A constant condition: only the arm it takes (a mux of n values indexed by a constant,
        // n unrolled copies of it, costs log n per copy, not n).
        if (is_one(c)) return mutate(op->true_value);
        if (is_zero(c)) return mutate(op->false_value);
        conditional_depth_++;
        Expr t = mutate(op->true_value), f = mutate(op->false_value);
        conditional_depth_--;
        // select(c, select(c, a, b), d) is select(c, a, d); likewise in the false arm.
        if (const Select *inner = t.as<Select>(); inner && equal(inner->condition, c)) t = inner->true_value;
        if (const Select *inner = f.as<Select>(); inner && equal(inner->condition, c)) f = inner->false_value;
        if (equal(t, f)) return t;
        if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self(op);
        return Select::make(c, t, f);
    }
    Expr visit(const Let *op) override {
        Expr v = mutate(op->value);
        if (is_const(v) || v.as<Variable>()) return mutate_replacing(op->name, v, op->body);
        // let n = v in n is v (bounds name a shared end so; left as a let it hides v's form
        // from the passes that take a difference of two ends apart).
        if (const Variable *b = op->body.as<Variable>(); b && b->name == op->name && !b->param) return v;
        if (Expr rest, use; move_constant_offset(op->name, v, &rest, &use)) {
            return mutate(Let::make(op->name, rest, substitute(op->name, use, op->body)));
        }
        Expr b;
        {
            HideKnown hidden(*this, op->name);
            b = mutate(op->body);
        }
        if (!expr_uses_var(b, op->name)) return b;
        return v.same_as(op->value) && b.same_as(op->body) ? self(op) : Let::make(op->name, v, b);
    }

    Stmt visit(const LetStmt *op) override {
        Expr v = mutate(op->value);
        if (is_const(v) || (v.as<Variable>() && !v.as<Variable>()->param)) return mutate_replacing(op->name, v, op->body);
        if (Expr rest, use; move_constant_offset(op->name, v, &rest, &use)) {
            return mutate(LetStmt::make(op->name, rest, substitute(op->name, use, op->body)));
        }
        auto saved = let_values_.bind(op->name, v);
        Stmt b;
        {
            HideKnown hidden(*this, op->name);  // a let of a loop's name hides the loop
            b = mutate(op->body);
        }
        let_values_.restore(op->name, saved);
        if (!stmt_uses_var(b, op->name)) return b;
        return v.same_as(op->value) && b.same_as(op->body) ? self(op) : LetStmt::make(op->name, v, b);
    }
    Stmt visit(const For *op) override {
        Expr mn = mutate(op->min), ex = mutate(op->extent);
        if (const int64_t *e = as_const_int(ex); e && *e <= 0) return Evaluate::make(0);
        if (is_one(ex) && op->for_type != ForType::Parallel) {
            return mutate(LetStmt::make(op->name, mn, op->body));
        }
        auto saved = let_values_.bind(op->name, Expr());  // the loop's variable hides a let of its name
        Stmt b;
        {
            HideKnown hidden(*this, op->name);
            loop_depth_++;
            const int64_t *cmin = as_const_int(mn), *cext = as_const_int(ex);
            if (cmin && cext && *cext > 0 && *cext < (int64_t(1) << 40)) loop_ranges_[op->name] = {*cmin, *cmin + *cext - 1};
            b = mutate(op->body);
            loop_depth_--;
        }
        let_values_.restore(op->name, saved);
        if (is_no_op(b)) return b;
        if (mn.same_as(op->min) && ex.same_as(op->extent) && b.same_as(op->body)) return self(op);
        return For::make(op->name, mn, ex, op->for_type, b);
    }
    // The (variable, constant) pairs that c, a conjunction, says are equal.
    static std::vector<std::pair<std::string, Expr>> equalities_in(const Expr &c) {
        std::vector<std::pair<std::string, Expr>> r;
        if (auto a = c.as<And>()) {
            r = equalities_in(a->a);
            for (auto &p : equalities_in(a->b)) r.push_back(p);
        } else if (auto eq = c.as<EQ>()) {
            for (auto [side, other] : {std::pair{eq->a, eq->b}, std::pair{eq->b, eq->a}}) {
                auto v = side.as<Variable>();
                if (v && v->type.is_scalar() && !v->type.is_float() && is_const(other)) {
                    r.push_back({v->name, other});
                    break;
                }
            }
        }
        return r;
    }
    Stmt visit(const IfThenElse *op) override {
        Expr c = mutate(op->condition);
        if (is_one(c)) return mutate(op->then_case);
        if (is_zero(c)) return op->else_case.defined() ? mutate(op->else_case) : Evaluate::make(0);
        // Where the condition says a variable equals a constant (a specialization on an extent,
        // f.specialize(w == 3)), the then case uses the constant, as in Halide: its loops get
        // constant extents that can be unrolled or vectorized.
        Stmt t;
        {
            std::map<std::string, Expr> saved = known_values_;
            for (auto &[name, value] : equalities_in(c)) known_values_[name] = value;
            t = mutate(op->then_case);
            known_values_ = std::move(saved);
        }
        Stmt e = mutate(op->else_case);
        if (is_no_op(t) && (!e.defined() || is_no_op(e))) return Evaluate::make(0);
        if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) return self(op);
        return IfThenElse::make(c, t, e);
    }
    Stmt visit(const Block *op) override {
        Stmt f = mutate(op->first), r = mutate(op->rest);
        if (is_no_op(f)) return r;
        if (is_no_op(r)) return f;
        return f.same_as(op->first) && r.same_as(op->rest) ? self(op) : Block::make(f, r);
    }
    Stmt visit(const AssertStmt *op) override {
        Expr c = mutate(op->condition);
        if (is_one(c)) return Evaluate::make(0);
        // The message is not simplified (it reports values as the checks compute them), but
        // the names of removed lets in it are replaced.
        Expr m = replacements_.empty() ? op->message : substitute(replacements_, op->message);
        return c.same_as(op->condition) && m.same_as(op->message) ? self(op) : AssertStmt::make(c, m);
    }

private:
    static bool is_no_op(const Stmt &s) {
        if (!s.defined()) return true;
        auto e = s.as<Evaluate>();
        return e && is_const(e->value);
    }

    template <typename F>
    static Expr fold_float(const Expr &a, const Expr &b, F f) {
        auto fa = a.as<FloatImm>(), fb = b.as<FloatImm>();
        if (fa && fb) return make_const(a.type(), f(fa->value, fb->value));
        return Expr();
    }

    template <typename Node>
    Expr arith(const Node *op, Expr a, Expr b) {
        Type t = op->type;
        constexpr bool is_add = std::is_same_v<Node, Add>, is_sub = std::is_same_v<Node, Sub>;
        if (t.is_scalar()) {
            auto f = [](double x, double y) { return is_add ? x + y : is_sub ? x - y : x * y; };
            if (Expr r = fold_float(a, b, f); r.defined()) return r;
            if (auto ia = a.as<IntImm>(), ib = b.as<IntImm>(); ia && ib) {
                IntArith iop = is_add ? IntArith::Add : is_sub ? IntArith::Sub : IntArith::Mul;
                if (Expr r = fold_int(t, iop, ia->value, ib->value); r.defined()) return r;
                // int32 or int64 overflow: undefined; left as it is
                return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Node::make(a, b);
            }
            if (auto ua = a.as<UIntImm>(), ub = b.as<UIntImm>(); ua && ub) {
                uint64_t x = ua->value, y = ub->value;
                return UIntImm::make(t, is_add ? x + y : is_sub ? x - y : x * y);
            }
        }
        if (is_affine_type(t)) {
            Linear l = expand_lets(to_linear(Node::make(a, b)));
            // A sum that cancels to a constant that does not fit the type must have
            // overflowed somewhere: left as it is rather than folded to a wrapped value.
            bool fits = l.exact && t.can_represent(l.constant);
            // from_linear writes an int32 constant beyond int32's range as several additions
            // of pieces that fit; the product of two large constants ((x + 504663802) *
            // 504696571) would take a hundred million of them: such a sum is left as it is.
            bool few_pieces = !(t.is_int() && t.bits() == 32) ||
                              (l.constant >= 4 * int64_t(INT32_MIN) && l.constant <= 4 * int64_t(INT32_MAX));
            if ((!l.is_constant() && few_pieces) || fits) return from_linear(l, t);
        }
        if (t.is_vector() && !t.is_float()) {
            // Keep vector index arithmetic as one Ramp or Broadcast so loads stay dense.
            auto ra = a.as<Ramp>(), rb = b.as<Ramp>();
            auto ba = a.as<Broadcast>(), bb = b.as<Broadcast>();
            int n = t.lanes();
            if (ba && bb) return Broadcast::make(mutate(Node::make(ba->value, bb->value)), n);
            if (!std::is_same_v<Node, Mul>) {
                if (ra && bb) return Ramp::make(mutate(Node::make(ra->base, bb->value)), ra->stride, n);
                if (ba && rb && is_add) return Ramp::make(mutate(Add::make(ba->value, rb->base)), rb->stride, n);
                if (ba && rb && is_sub) {
                    return Ramp::make(mutate(Sub::make(ba->value, rb->base)),
                                      mutate(Sub::make(make_zero(rb->stride.type()), rb->stride)), n);
                }
                if (ra && rb) {
                    return Ramp::make(mutate(Node::make(ra->base, rb->base)),
                                      mutate(Node::make(ra->stride, rb->stride)), n);
                }
            } else {
                if (ra && bb) return Ramp::make(mutate(Mul::make(ra->base, bb->value)), mutate(Mul::make(ra->stride, bb->value)), n);
                if (ba && rb) return Ramp::make(mutate(Mul::make(ba->value, rb->base)), mutate(Mul::make(ba->value, rb->stride)), n);
            }
        }
        if (!t.is_float()) {
            if ((is_add || is_sub) && is_zero(b)) return a;
            if (is_add && is_zero(a)) return b;
        }
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Node::make(a, b);
    }

    template <typename Node>
    Expr min_max(const Node *op, bool is_min) {
        Expr a = mutate(op->a), b = mutate(op->b);
        Type t = op->type;
        if (t.is_scalar()) {
            // As the generated code and the reference evaluator compute them: min is
            // a < b ? a : b, max is a < b ? b : a (with a NaN, the comparison is false).
            auto pick = [&](auto x, auto y) { return is_min ? (x < y ? a : b) : (x < y ? b : a); };
            if (auto ia = a.as<IntImm>(), ib = b.as<IntImm>(); ia && ib) return pick(ia->value, ib->value);
            if (auto ua = a.as<UIntImm>(), ub = b.as<UIntImm>(); ua && ub) return pick(ua->value, ub->value);
            if (auto fa = a.as<FloatImm>(), fb = b.as<FloatImm>(); fa && fb) return pick(fa->value, fb->value);
        }
        if (equal(a, b)) return a;
        int64_t d;
        if (constant_difference(a, b, &d)) return (d <= 0) == is_min ? a : b;
        // Decided by the ranges of the enclosing constant loops: min(xo * 16, 240) inside
        // for (xo, 0, 16) is xo * 16 (the shift of a split whose factor divides its extent).
        if (int64_t lo, hi; difference_range(a, b, &lo, &hi)) {
            if (hi <= 0) return is_min ? a : b;
            if (lo >= 0) return is_min ? b : a;
            // Not decided, but a - b depends on those loops only: min(b + (a - b), b) is
            // b + min(a - b, 0), a constant in each iteration of them. A ShiftInwards split's
            // min(x.min + xo * 16, x.max - 15), with x.max = x.min + 257 through lets, becomes
            // x.max - 15 + min(xo * 16 - 242, 0), which unroll_clamped_loops then unrolls into
            // copies with constant offsets.
            Linear d = to_linear(a);
            d.add(to_linear(b), -1);
            if (!only_ranged_loop_variables(d)) {  // else min(xo, 5) would gain nothing
                Expr diff = from_linear(expand_all_lets(d), t);
                return mutate(Add::make(b, Node::make(diff, make_zero(t))));
            }
        }
        if (int64_t lo, hi; rounding_difference_range(a, b, &lo, &hi)) {
            if (hi <= 0) return is_min ? a : b;
            if (lo >= 0) return is_min ? b : a;
        }
        // Constants to the right, and min(min(x, c1), c2) -> min(x, min(c1, c2)). Floats keep
        // their order: min(a, b) is b when either is NaN (select(a < b, a, b)). The rules below
        // hold for floats only without NaNs (min(x, max(y, x)) is y, not x, for x NaN, and
        // min(min(x, NaN), c) is c, not min(x, c)): integers only.
        if (t.is_float()) return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Node::make(a, b);
        if (is_const(a) && !is_const(b)) std::swap(a, b);
        if (auto inner = a.as<Node>(); inner && is_const(inner->b) && is_const(b)) {
            return mutate(Node::make(inner->a, Node::make(inner->b, b)));
        }
        // Absorption: max(x, min(y, x)) -> x and min(x, max(y, x)) -> x.
        using Other = std::conditional_t<std::is_same_v<Node, Min>, Max, Min>;
        if (auto o = b.template as<Other>(); o && (equal(o->a, a) || equal(o->b, a))) return a;
        if (auto o = a.template as<Other>(); o && (equal(o->a, b) || equal(o->b, b))) return b;
        // min(x, min(x, y)) -> min(x, y)
        if (auto inner = b.as<Node>(); inner && (equal(inner->a, a) || equal(inner->b, a))) return b;
        if (auto inner = a.as<Node>(); inner && (equal(inner->a, b) || equal(inner->b, b))) return a;
        // min(x + c1, min(x + c2, y)) -> min(x + min(c1, c2), y)
        if (auto inner = b.as<Node>()) {
            if (constant_difference(a, inner->a, &d)) {
                return mutate(Node::make((d <= 0) == is_min ? a : inner->a, inner->b));
            }
            if (constant_difference(a, inner->b, &d)) {
                return mutate(Node::make((d <= 0) == is_min ? a : inner->b, inner->a));
            }
        }
        if (auto inner = a.as<Node>()) {
            if (constant_difference(b, inner->a, &d)) {
                return mutate(Node::make((d <= 0) == is_min ? b : inner->a, inner->b));
            }
            if (constant_difference(b, inner->b, &d)) {
                return mutate(Node::make((d <= 0) == is_min ? b : inner->b, inner->a));
            }
        }
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Node::make(a, b);
    }

    template <typename Node>
    Expr compare(const Node *op, Expr a, Expr b) {
        Type t = a.type();
        auto decide = [&](auto x, auto y) -> Expr {
            bool r;
            if constexpr (std::is_same_v<Node, EQ>) r = x == y;
            else if constexpr (std::is_same_v<Node, NE>) r = x != y;
            else if constexpr (std::is_same_v<Node, LT>) r = x < y;
            else if constexpr (std::is_same_v<Node, LE>) r = x <= y;
            else if constexpr (std::is_same_v<Node, GT>) r = x > y;
            else r = x >= y;
            return make_const(op->type, int64_t(r));
        };
        if (t.is_scalar()) {
            if (auto ia = a.as<IntImm>(), ib = b.as<IntImm>(); ia && ib) return decide(ia->value, ib->value);
            if (auto ua = a.as<UIntImm>(), ub = b.as<UIntImm>(); ua && ub) return decide(ua->value, ub->value);
            if (auto fa = a.as<FloatImm>(), fb = b.as<FloatImm>(); fa && fb) return decide(fa->value, fb->value);
            int64_t d, lo, hi;
            if (constant_difference(a, b, &d)) return decide(d, int64_t(0));
            if (difference_range(a, b, &lo, &hi)) {
                // Decided when a - b compares the same way with 0 at both ends of its range.
                Expr at_lo = decide(lo, int64_t(0)), at_hi = decide(hi, int64_t(0));
                bool equality = std::is_same_v<Node, EQ> || std::is_same_v<Node, NE>;
                if (!equality && equal(at_lo, at_hi)) return at_lo;
                if (equality && (lo > 0 || hi < 0)) return decide(int64_t(1), int64_t(0));
            }
        }
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : Node::make(a, b);
    }
};

// Constant-folds the value and arguments of every Provide with overflow checking.
class OverflowChecker : public IRVisitor {
    void visit(const Provide *op) override {
        Simplifier s;
        s.strict_func_ = op->name;
        for (auto &v : op->values) s.mutate(v);
        for (auto &a : op->args) s.mutate(a);
    }
};

}  // namespace

void check_constant_overflow(const Stmt &s) {
    OverflowChecker c;
    s.accept(&c);
}

Expr simplify(const Expr &e) { return Simplifier().mutate(e); }
Expr simplify(const Expr &e, const std::map<std::string, Expr> &lets) {
    Simplifier s;
    s.let_values_.outer = &lets;
    return s.mutate(e);
}
Stmt simplify(const Stmt &s) { return Simplifier().mutate(s); }
bool can_prove(const Expr &e) { return is_one(simplify(e)); }

}  // namespace halo
