// The associativity prover (dsl/Associativity.cpp) against the serial order, at random: random
// updates f(x) = h(f(x), e) built from f, the RDom's input values, small constants, + - *, min,
// max and selects. rfactor may refuse any of them; every one it accepts must give exactly the
// reference evaluator's result (integers: no rounding to excuse a difference), with the
// intermediate split, in parallel and vectorized. Random Tuple updates too: argmin and argmax
// shapes with random conditions, arms and tie rules (the valid ones must be accepted), complex
// products, values that read each other. HALO_RFACTOR_FUZZ_SEED picks other updates.
#include <cstdlib>
#include <random>

#include "TestUtil.h"
#include "lower/Substitute.h"

using namespace halo;

namespace {

class RandomUpdates {
public:
    explicit RandomUpdates(unsigned seed) : rng_(seed) {}
    int pick(int n) { return int(rng_() % unsigned(n)); }

    // An expression of f's type over f (the value being updated), e and e2 (two input values).
    Expr make(int depth, const Expr &f, const Expr &e, const Expr &e2) {
        if (depth == 0 || pick(4) == 0) {
            switch (pick(6)) {
            case 0:
            case 1: return f;
            case 2:
            case 3: return e;
            case 4: return e2;
            default: return make_const(f.type(), int64_t(pick(4)));
            }
        }
        auto sub = [&] { return make(depth - 1, f, e, e2); };
        switch (pick(8)) {
        case 0: return sub() + sub();
        case 1: return sub() - sub();
        case 2: return sub() * sub();
        case 3: return min(sub(), sub());
        case 4: return max(sub(), sub());
        default: {
            // A select, often in the shapes the prover rewrites: arms that are the compared
            // values, or sums with one arm's f in the other.
            Expr a = sub(), b = sub();
            Expr c;
            switch (pick(4)) {
            case 0: c = a < b; break;
            case 1: c = a > b; break;
            case 2: c = a <= b; break;
            default: c = a >= b; break;
            }
            switch (pick(3)) {
            case 0: return select(c, a, b);
            case 1: return select(c, b, a);
            default: return select(pick(2) ? c : e2 > e, sub(), sub());
            }
        }
        }
    }

    // An update in one of the shapes the prover knows or rewrites, or one a step away from
    // them: y and z are random expressions that do not read f, w one that may.
    Expr shaped(const Expr &f, const Expr &e, const Expr &e2) {
        Expr y = make(1 + pick(2), e, e, e2), z = make(pick(2), e2, e, e2), w = make(1, f, e, e2);
        Expr k = make_const(f.type(), int64_t(pick(3)));
        switch (pick(16)) {
        case 0: return f + y;
        case 1: return f - y + z;
        case 2: return min(f, y);
        case 3: return max(y, f);
        case 4: return f * y;
        case 5: return select(y > f, y, f);
        case 6: return select(f <= y, f, y);
        case 7: return select(y > z, f + y, f);
        case 8: return select(y >= z, f - z, f + y);
        case 9: return f * y + f;
        case 10: return f * y - f * z;
        case 11: return max(f, y) + min(y, f);
        case 12: return max(f + y, f) + z;
        case 13: return min(max(f + y, f - k), f + z);
        case 14: return select(w > z, f + y, f);      // a condition that may read f
        default: return max(f, y) + min(f, z);        // operands that do not pair
        }
    }

private:
    std::mt19937 rng_;
};

// One random update on type t: whether rfactor accepted it (checked against the reference).
template <typename T>
bool accepted_and_checked(RandomUpdates &gen, const Buffer<T> &in, unsigned seed) {
    Var x("x"), u("u");
    RVar ro("ro"), ri("ri");
    RDom r(0, 11, "r");
    Func f("f"), ref("ref");
    // The same tree for both Funcs: drawn once over placeholders, then substituted.
    Expr fv = Variable::make(type_of<T>(), "fuzz$f");
    Expr h;
    do {  // an update that reads both f and the RDom
        Expr e = in(r, x), e2 = in(10 - r, x);
        h = gen.pick(2) ? gen.shaped(fv, e, e2) : gen.make(1 + gen.pick(4), fv, e, e2);
    } while (to_string(h).find("fuzz$f") == std::string::npos || to_string(h).find("r.x") == std::string::npos);
    INFO("seed " << seed << ": f(x) = " << h);
    for (Func *g : {&f, &ref}) {
        (*g)(x) = cast(type_of<T>(), x + 1);
        (*g)(x) = substitute("fuzz$f", (*g)(x), h);
    }
    f.update().split(r.x, ro, ri, 1 + gen.pick(4));
    Func intm;
    try {
        intm = f.update().rfactor(ro, u);
    } catch (const CompileError &) {
        return false;
    }
    intm.compute_root().vectorize(u, 4).update().parallel(u);
    Buffer<T> want;
    try {
        want = reference_realize(ref, {4});
    } catch (const std::exception &err) {
        // int32 overflow is undefined (the reference reports it): no result to compare with.
        if (std::string(err.what()).find("overflow") != std::string::npos) return false;
        throw;
    }
    Buffer<T> got = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(int64_t(got(i)) == int64_t(want(i)));
    return true;
}

// A random Tuple update {v0, v1} over the pair's values f0 and f1 (placeholders): two values
// reduced on their own, argmin and argmax shapes whose condition, arms and tie rule vary (some
// valid, some a step away), complex products (some with a sign or a factor wrong), values that
// read each other, and random trees.
// valid_arg is set where the pair is an argmin or argmax Halide's rfactor takes (rfactor must too).
std::pair<Expr, Expr> random_pair(RandomUpdates &gen, const Expr &f0, const Expr &f1, const Expr &e, const Expr &e2,
                                  const Expr &at, bool &valid_arg) {
    valid_arg = false;
    switch (gen.pick(6)) {
    case 0: return {gen.shaped(f0, e, e2), gen.shaped(f1, e2, e)};
    case 1:
    case 2: {
        const bool is_min = gen.pick(2);
        Expr y = gen.pick(3) ? e : e + e2;
        Expr v0 = is_min ? (gen.pick(2) ? min(f0, y) : min(y, f0)) : (gen.pick(2) ? max(f0, y) : max(y, f0));
        const bool same_y = gen.pick(5) != 0;
        Expr cy = same_y ? y : e2;  // else compared with another value than the one reduced
        Expr p = f0, q = cy;
        const bool y_first = gen.pick(2);
        if (y_first) std::swap(p, q);
        const bool wrong_value = gen.pick(8) == 0;
        if (wrong_value) p = f1;  // compares the wrong value
        Expr c;
        const int rel = gen.pick(4);  // p < q, p <= q, p > q, p >= q
        switch (rel) {
        case 0: c = p < q; break;
        case 1: c = p <= q; break;
        case 2: c = p > q; break;
        default: c = p >= q; break;
        }
        Expr a;
        const int arm = gen.pick(6);
        switch (arm) {
        case 0: a = e2; break;
        case 1: a = at + e2; break;
        case 2: a = f1 + 1; break;  // reads the pair: not a position
        case 3: a = f0; break;
        default: a = at; break;
        }
        const bool new_if_true = gen.pick(2);
        // Under which relation of the new value y to f0 the new arm is taken: y < f0 (0), y <= f0
        // (1), y > f0 (2), y >= f0 (3). An argmin takes it where y is less (or equal), an argmax
        // where it is greater (or equal).
        int taken = y_first ? rel : (rel == 0 ? 2 : rel == 1 ? 3 : rel == 2 ? 0 : 1);
        if (!new_if_true) taken = taken == 0 ? 3 : taken == 1 ? 2 : taken == 2 ? 1 : 0;
        valid_arg = same_y && !wrong_value && arm != 2 && arm != 3 && (is_min ? taken <= 1 : taken >= 2);
        return {v0, new_if_true ? select(c, a, f1) : select(c, f1, a)};
    }
    case 3: {
        Expr a = gen.pick(2) ? e : e + 1, b = gen.pick(2) ? e2 : e2 - 1;
        Expr v0 = f0 * a - f1 * b, v1 = f0 * b + f1 * a;
        switch (gen.pick(5)) {
        case 0: v0 = f0 * a + f1 * b; break;  // a sign wrong
        case 1: v1 = f0 * a + f1 * b; break;  // a factor wrong
        case 2: std::swap(v0, v1); break;
        default: break;
        }
        return {v0, v1};
    }
    case 4: return {gen.shaped(f0, e, e2), f1 + gen.make(1, f0, e, e2)};  // v1 reads v0
    default: {
        Expr v0 = gen.make(1 + gen.pick(3), f0, e, e2);
        Expr v1 = gen.make(1 + gen.pick(3), gen.pick(3) ? f1 : f0, e, e2);
        return {v0, v1};
    }
    }
}

// One random Tuple update of two int32 values: whether rfactor accepted it (then checked).
bool accepted_pair_and_checked(RandomUpdates &gen, const Buffer<int32_t> &in, unsigned seed) {
    Var x("x"), u("u");
    RVar ro("ro"), ri("ri");
    RDom r(0, 11, "r");
    Func f("f"), ref("ref");
    Expr p0 = Variable::make(Int(32), "fuzz$f0"), p1 = Variable::make(Int(32), "fuzz$f1");
    Expr v0, v1;
    bool valid_arg;
    do {  // an update that reads the pair and the RDom
        std::tie(v0, v1) = random_pair(gen, p0, p1, in(r, x), in(10 - r, x), r.x, valid_arg);
    } while (!halo_test::contains(to_string(v0) + to_string(v1), "fuzz$f") ||
             !halo_test::contains(to_string(v0) + to_string(v1), "r.x"));
    INFO("seed " << seed << ": f(x) = {" << v0 << ", " << v1 << "}");
    for (Func *g : {&f, &ref}) {
        (*g)(x) = {x + 1, 1 - x};
        Expr s0 = (*g)(x)[0], s1 = (*g)(x)[1];
        (*g)(x) = {substitute("fuzz$f1", s1, substitute("fuzz$f0", s0, v0)), substitute("fuzz$f1", s1, substitute("fuzz$f0", s0, v1))};
    }
    const int factor = 1 + gen.pick(4);
    f.update().split(r.x, ro, ri, factor);
    Func intm;
    try {
        // (an argmin's inner loop may not be rfactored alone: ro goes too, or ro alone)
        intm = gen.pick(2) ? f.update().rfactor(ro, u) : f.update().rfactor({{ro, u}, {ri, Var("v")}});
    } catch (const CompileError &err) {
        CHECK_MESSAGE(!valid_arg, "an argmin or argmax was refused: " << err.what());
        return false;
    }
    intm.compute_root();
    if (gen.pick(2)) intm.update().parallel(u);
    std::vector<Buffer<>> want;
    try {
        Realization w = reference_realize(ref, {4});
        want = {w[0], w[1]};
    } catch (const std::exception &err) {
        if (std::string(err.what()).find("overflow") != std::string::npos) return false;
        throw;
    }
    Realization got = f.realize({4});
    for (int i = 0; i < 4; i++) {
        CHECK(Buffer<int32_t>(got[0])(i) == Buffer<int32_t>(want[0])(i));
        CHECK(Buffer<int32_t>(got[1])(i) == Buffer<int32_t>(want[1])(i));
    }
    return true;
}

}  // namespace

TEST_CASE("every random update rfactor accepts gives the serial result exactly") {
    const char *env = std::getenv("HALO_RFACTOR_FUZZ_SEED");
    const unsigned first = env ? unsigned(std::strtoul(env, nullptr, 10)) : 20261201;
    const int cases = 300;
    Buffer<int32_t> in32 = halo_test::random_image<int32_t>({11, 4}, first, -3, 3);
    Buffer<uint8_t> in8 = halo_test::random_image<uint8_t>({11, 4}, first + 1, 0, 255);
    int accepted = 0;
    for (int i = 0; i < cases; i++) {
        const unsigned seed = first + unsigned(i);
        RandomUpdates gen(seed);
        accepted += (i % 2) ? accepted_and_checked(gen, in8, seed) : accepted_and_checked(gen, in32, seed);
    }
    MESSAGE(accepted << " of " << cases << " random updates accepted and checked");
    CHECK(accepted >= cases / 10);  // the test says something only if some are accepted
}

TEST_CASE("every random Tuple update rfactor accepts gives the serial result exactly (argmin ties too)") {
    const char *env = std::getenv("HALO_RFACTOR_FUZZ_SEED");
    const unsigned first = env ? unsigned(std::strtoul(env, nullptr, 10)) : 20261201;
    const int cases = 300;
    // Values in [-2, 2] over 11 points: many ties for the argmins.
    Buffer<int32_t> in = halo_test::random_image<int32_t>({11, 4}, first + 2, -2, 2);
    int accepted = 0;
    for (int i = 0; i < cases; i++) {
        const unsigned seed = first + unsigned(i);
        RandomUpdates gen(seed);
        accepted += accepted_pair_and_checked(gen, in, seed);
    }
    MESSAGE(accepted << " of " << cases << " random Tuple updates accepted and checked");
    CHECK(accepted >= cases / 10);
}
