// Randomized differential testing of arithmetic: random expression trees over every scalar
// type (casts, shifts, bitwise ops, Euclidean / and %, min/max, select, saturating_cast) with
// inputs full of edge values (MIN, MAX, -1, NaN, infinities, huge floats), compiled scalar and
// vectorized against the reference evaluator; and the bounds of random narrow-integer index
// expressions against the values they take. HALO_ARITH_FUZZ_CASES sets the number of cases
// and HALO_ARITH_FUZZ_SEED the first seed; a failure prints the seed and the expression.
#include "TestUtil.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>

#include "lower/Bounds.h"
#include "lower/Simplify.h"

using namespace halo;

namespace {

constexpr int N = 40;

class ExprGenerator {
public:
    explicit ExprGenerator(unsigned seed) : rng_(seed) {}

    int rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    Type any_type() { return types()[rand(10)]; }
    Type any_int_type() { return types()[rand(8)]; }

    // An expression of type t with at most depth levels of operations, reading inputs at x + k.
    // Sometimes one made before, of the same type: operands that repeat (min(a, max(b, a)),
    // a - a) are what the simplifier's rewrites look for.
    Expr make(Type t, int depth, const Var &x) {
        std::vector<Expr> &made = made_[t.to_string()];
        if (!made.empty() && rand(6) == 0) return made[rand(int(made.size()))];
        Expr e = make_new(t, depth, x);
        made.push_back(e);
        return e;
    }

    std::map<std::string, Buffer<>> inputs;

private:
    std::mt19937 rng_;
    std::map<std::string, std::vector<Expr>> made_;  // by type

    Expr make_new(Type t, int depth, const Var &x) {
        if (depth <= 0 || rand(5) == 0) return leaf(t, x);
        if (t.is_float()) return make_float(t, depth, x);
        Expr a = make(t, depth - 1, x);
        switch (rand(15)) {
        case 0: return a + make(t, depth - 1, x);
        case 1: return a - make(t, depth - 1, x);
        case 2: return a * make(t, depth - 1, x);
        case 3: return a / make(t, depth - 1, x);
        case 4: return a % make(t, depth - 1, x);
        case 5: return rand(2) ? max(a, make(t, depth - 1, x)) : min(a, make(t, depth - 1, x));
        // A wider amount widens the shift (as in Halide): cast back to t.
        case 6: return cast(t, a << make(any_int_type(), depth - 1, x));
        case 7: return cast(t, a >> make(any_int_type(), depth - 1, x));
        case 8: return rand(2) ? (a ^ make(t, depth - 1, x)) : (a & make(t, depth - 1, x));
        case 9: return ~a | make(t, depth - 1, x);
        case 10: return cast(t, make(rand(2) ? Float(32) : Float(64), depth - 1, x));
        case 11: return cast(t, make(any_int_type(), depth - 1, x));
        case 12: return select(make(any_int_type(), depth - 1, x) >= make(any_int_type(), depth - 1, x), a, make(t, depth - 1, x));
        case 13: return saturating_cast(t, make(any_type(), depth - 1, x));
        default: return t.is_int() ? cast(t, abs(a)) : a / 3;
        }
    }

    static const std::vector<Type> &types() {
        static const std::vector<Type> t = {Int(8), Int(16), Int(32), Int(64), UInt(8), UInt(16), UInt(32), UInt(64),
                                            Float(32), Float(64)};
        return t;
    }

    // No float multiplication: a * b + c may be contracted into a fused multiply-add when
    // compiled, which rounds differently from the evaluator (as Halide allows).
    Expr make_float(Type t, int depth, const Var &x) {
        switch (rand(8)) {
        case 6: {
            // A select of the compared operands: a min or max in all but its NaN and signed-zero
            // results, the shape LLVM's InstCombine matches.
            Expr p = make(t, depth - 1, x), q = make(t, depth - 1, x);
            // Often an operand of a select just made: nested selects sharing an operand are
            // what InstCombine folds as min(min(a, b), a).
            if (auto inner = p.as<Select>(); inner && rand(2)) q = rand(2) ? inner->true_value : inner->false_value;
            int op = rand(4);
            Expr c = op == 0 ? p < q : op == 1 ? p <= q : op == 2 ? p > q : p >= q;
            return rand(2) ? select(c, p, q) : select(c, q, p);
        }
        case 0: return make(t, depth - 1, x) + make(t, depth - 1, x);
        case 1: return make(t, depth - 1, x) - make(t, depth - 1, x);
        case 2: return make(t, depth - 1, x) / make(t, depth - 1, x);
        case 3: return rand(2) ? min(make(t, depth - 1, x), make(t, depth - 1, x)) : max(make(t, depth - 1, x), make(t, depth - 1, x));
        case 4: return select(make(any_int_type(), depth - 1, x) < make(any_int_type(), depth - 1, x), make(t, depth - 1, x), make(t, depth - 1, x));
        case 5: return cast(t, make(any_int_type(), depth - 1, x));
        default: return cast(t, make(t.bits() == 32 ? Float(64) : Float(32), depth - 1, x));
        }
    }

    Expr leaf(Type t, const Var &x) {
        if (rand(3) == 0) {
            if (t.is_float()) {
                if (rand(8) == 0) return make_const(t, rand(3) == 0 ? NAN : rand(2) ? INFINITY : -INFINITY);
                return make_const(t, double(rand(2000) - 1000) / 4);
            }
            // Large constants too: products of two of them once made the simplifier write an
            // int32 constant as a hundred million pieces.
            int64_t large = t.bits() >= 32 ? int64_t(rng_() % 1000000000u) * (rand(2) ? 1 : -1) : rand(200) - 100;
            int64_t v = rand(3) == 0 ? t.max_int() : rand(4) == 0 ? large : rand(200) - 100;
            if (t.is_uint() && v < 0) v = -v;
            return make_const(t, v);
        }
        return input(t)(Expr(x) + rand(8));
    }

    // One input buffer per type, mostly edge values.
    Buffer<> &input(Type t) {
        std::string key = t.to_string();
        auto it = inputs.find(key);
        if (it != inputs.end()) return it->second;
        Buffer<> b(t, {N + 8}, "in_" + key);
        std::mt19937 r(unsigned(inputs.size() * 7919 + 1));
        for (int i = 0; i < N + 8; i++) {
            if (t.is_float()) {
                const double special[] = {0.0, -0.0, 0.5, -0.5, 1e10, -1e10, 3e9, -3e9, 255.5, 300.0, -1.5, 65535.9,
                                          NAN, INFINITY, -INFINITY, 2147483648.0, 1e19, 42.25};
                double v = r() % 3 ? special[r() % 18] : std::uniform_real_distribution<double>(-1000, 1000)(r);
                b.set_value({i}, v);
            } else {
                int64_t lo = t.min_int(), hi = t.is_uint() && t.bits() == 64 ? INT64_MAX : t.max_int();
                const int64_t special[] = {0, 1, -1, 2, lo, hi, lo + 1, hi - 1, 7, -7, 8, 16, 31, 32, 33, 63, 64, -64};
                int64_t v = r() % 2 ? special[r() % 18]
                                    : std::uniform_int_distribution<int64_t>(std::max<int64_t>(lo, -100), std::min<int64_t>(hi, 100))(r);
                std::memcpy(b.contents->host + size_t(i) * t.bytes(), &v, t.bytes());  // little-endian low bytes
            }
        }
        return inputs.emplace(key, b).first->second;
    }
};

bool same_element(const Buffer<> &a, const Buffer<> &b, int i) {
    Type t = a.type();
    if (t.is_float()) {
        double p = a.get_as_double({i}), q = b.get_as_double({i});
        return (std::isnan(p) && std::isnan(q)) || p == q;
    }
    return std::memcmp(a.contents->host + size_t(i) * t.bytes(), b.contents->host + size_t(i) * t.bytes(), t.bytes()) == 0;
}

}  // namespace

TEST_CASE("random arithmetic expressions agree compiled and in the reference evaluator") {
    // Half under the sanitizers, where the reference evaluator runs ~4x slower.
    const int cases = halo_test::env_int("HALO_ARITH_FUZZ_CASES", HALO_TEST_SANITIZED ? 150 : 300);
    const unsigned seed0 = unsigned(halo_test::env_int("HALO_ARITH_FUZZ_SEED", 1));
    int defined = 0;
    for (int c = 0; c < cases; c++) {
        unsigned seed = seed0 + unsigned(c);
        ExprGenerator gen(seed);
        Var x("x");
        Type t = gen.any_type();
        Expr e;
        try {
            e = gen.make(t, 3 + gen.rand(3), x);
        } catch (const CompileError &) {
            continue;  // e.g. a constant that does not fit where a literal was coerced
        }
        INFO("seed " << seed << ": " << e);
        Buffer<> expected(t, {N});
        try {
            Func r("f");
            r(x) = e;
            reference_realize(r, expected);
        } catch (const UndefinedBehaviorError &) {
            continue;  // int32/int64 overflow somewhere: the program has no defined result
        }
        defined++;
        for (int vec = 0; vec < 2; vec++) {
            Func f("f");
            f(x) = e;
            if (vec) f.vectorize(x, 4 << gen.rand(4));
            Buffer<> out(t, {N});
            f.realize(out);
            int first_bad = -1;
            for (int i = 0; i < N && first_bad < 0; i++) {
                if (!same_element(out, expected, i)) first_bad = i;
            }
            CHECK_MESSAGE(first_bad < 0, (vec ? "vectorized" : "scalar") << " mismatch at " << first_bad << ": "
                                                                        << out.get_as_double({std::max(first_bad, 0)}) << " vs "
                                                                        << expected.get_as_double({std::max(first_bad, 0)}));
        }
    }
    CHECK(defined > cases / 2);
}

TEST_CASE("bounds of random narrow-integer index expressions contain every value they take") {
    const int cases = halo_test::env_int("HALO_ARITH_FUZZ_CASES", 300) * 10;
    const unsigned seed0 = unsigned(halo_test::env_int("HALO_ARITH_FUZZ_SEED", 1));
    const std::vector<Type> types = {Int(8), Int(16), UInt(8), UInt(16), UInt(32), Int(32)};
    const int W = 60;
    int bounded = 0;
    for (int c = 0; c < cases; c++) {
        std::mt19937 rng(seed0 + unsigned(c));
        auto rand = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
        Var x("x");
        std::function<Expr(Type, int)> make = [&](Type t, int depth) -> Expr {
            if (depth <= 0 || rand(4) == 0) {
                int k = rand(3);
                if (k == 0) {
                    int64_t v = rand(60) - 20;
                    return make_const(t, t.is_uint() && v < 0 ? -v : v);
                }
                if (k == 1) return cast(t, Expr(x));
                int lo = rand(40) - 20;
                return cast(t, clamp(Expr(x), lo, lo + rand(60)));
            }
            Expr a = make(t, depth - 1), b = make(t, depth - 1);
            switch (rand(9)) {
            case 0: return a + b;
            case 1: return a - b;
            case 2: return a * b;
            case 3: return a / b;
            case 4: return a % b;
            case 5: return min(a, b);
            case 6: return max(a, b);
            case 7: return cast(t, make(types[rand(6)], depth - 1));
            default: return t.is_int() ? cast(t, abs(a)) : a + b;
            }
        };
        Type t = types[rand(6)];
        Expr idx = cast<int32_t>(make(t, 1 + rand(3)));
        INFO("seed " << seed0 + c << ": " << idx);
        Buffer<int32_t> values(W);
        Func f("idx");
        f(x) = idx;
        Buffer<> dyn = values;
        reference_realize(f, dyn);
        Interval i = bounds_of_expr_in_scope(idx, {{"x", Interval(Expr(0), Expr(W - 1))}});
        if (!i.is_bounded()) continue;
        Expr lo = simplify(i.min), hi = simplify(i.max);
        const int64_t *l = as_const_int(lo), *h = as_const_int(hi);
        if (!l || !h) continue;
        bounded++;
        for (int k = 0; k < W; k++) {
            if (values(k) < *l || values(k) > *h) {
                CHECK_MESSAGE(false, "idx(" << k << ") = " << values(k) << " is outside [" << *l << ", " << *h << "]");
                break;
            }
        }
    }
    CHECK(bounded > cases / 2);
}
