// The associativity prover (dsl/Associativity.cpp) against the serial order, at random: random
// updates f(x) = h(f(x), e) built from f, the RDom's input values, small constants, + - *, min,
// max and selects. rfactor may refuse any of them; every one it accepts must give exactly the
// reference evaluator's result (integers: no rounding to excuse a difference), with the
// intermediate split, in parallel and vectorized. HALO_RFACTOR_FUZZ_SEED picks other updates.
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
