// lossless_cast(t, e), which clamp uses for its bounds: wherever it answers, the cast keeps
// every value. Random expressions of casts, sums, differences and products over variables of
// all integer types are evaluated at random points (by the simplifier's constant folding, which
// wraps in each type) before and after the cast, and must agree as numbers.
#include "TestUtil.h"

#include "dsl/LosslessCast.h"
#include "lower/Simplify.h"
#include "lower/Substitute.h"

using namespace halo;

namespace {

const std::vector<Type> kIntTypes = {Int(8), Int(16), Int(32), Int(64), UInt(8), UInt(16), UInt(32), UInt(64)};

struct RandomExprs {
    std::mt19937_64 rng;
    explicit RandomExprs(uint64_t seed) : rng(seed) {}
    int pick(int n) { return int(rng() % uint64_t(n)); }
    Type any_type() { return kIntTypes[pick(int(kIntTypes.size()))]; }

    // A leaf is a variable of int64 cast to some type, or a small constant of some type.
    Expr leaf(Type t) {
        if (pick(4) == 0) return make_const(t, int64_t(pick(9)) * (t.is_int() && pick(2) ? -1 : 1));
        return cast(t, Variable::make(Int(64), "v" + std::to_string(pick(3))));
    }
    Expr make(int depth) {
        Type t = any_type();
        if (depth == 0) return leaf(t);
        switch (pick(5)) {
        case 0: return cast(t, make(depth - 1));
        case 1: return leaf(t);
        default: {
            Expr a = make(depth - 1);
            Expr b = cast(a.type(), make(depth - 1));
            int op = pick(3);
            return op == 0 ? Add::make(a, b) : op == 1 ? Sub::make(a, b) : Mul::make(a, b);
        }
        }
    }
    int64_t value() {
        switch (pick(4)) {
        case 0: return int64_t(pick(5)) - 2;
        case 1: return int64_t(rng());
        case 2: return (int64_t(1) << pick(63)) - pick(2);
        default: return int64_t(pick(600)) - 300;
        }
    }
};

// The folded value of a constant integer Expr as a signed 128-bit number, if it folds: the
// simplifier leaves a 32- or 64-bit signed overflow unfolded (undefined, as in Halide).
bool folded(const Expr &e, __int128 &value) {
    Expr c = simplify(e);
    if (auto i = c.as<IntImm>()) value = i->value;
    else if (auto u = c.as<UIntImm>()) value = u->value;
    else return false;
    return true;
}

}  // namespace

TEST_CASE("lossless_cast keeps the value of every expression it converts") {
    const char *seed = std::getenv("HALO_LOSSLESS_SEED");  // another seed, to search further
    RandomExprs gen(seed ? std::strtoull(seed, nullptr, 10) : 20261130);
    int converted = 0, refused = 0, compared = 0;
    for (int i = 0; i < 4000; i++) {
        Expr e = gen.make(1 + gen.pick(3));
        Type t = gen.any_type();
        Expr lossless = lossless_cast(t, e);
        if (!lossless.defined()) {
            refused++;
            continue;
        }
        converted++;
        REQUIRE(lossless.type() == t);
        for (int k = 0; k < 8; k++) {
            std::map<std::string, Expr> point;
            for (int v = 0; v < 3; v++) point["v" + std::to_string(v)] = make_const(Int(64), gen.value());
            __int128 before = 0, after = 0;
            // A signed 32- or 64-bit overflow, in either, may have any value.
            if (!folded(substitute(point, e), before) || !folded(substitute(point, lossless), after)) continue;
            INFO("e = " << e << ", as " << t.to_string() << ": " << lossless);
            compared++;
            REQUIRE(int64_t(before) == int64_t(after));
            REQUIRE(int64_t(before >> 64) == int64_t(after >> 64));
        }
    }
    // Both answers are common enough for the test to mean something.
    CHECK(converted > 800);
    CHECK(refused > 800);
    CHECK(compared > 4 * converted);
}

TEST_CASE("lossless_cast follows Halide 14 where that is sound") {
    Var x("x");
    Expr i8 = cast<int8_t>(x), u8 = cast<uint8_t>(x), u16 = cast<uint16_t>(x);
    CHECK(lossless_cast(Int(16), u8).defined());
    CHECK_FALSE(lossless_cast(Int(16), Expr(x)).defined());
    CHECK(lossless_cast(Int(16), cast<int32_t>(u8)).defined());
    CHECK_FALSE(lossless_cast(Int(16), cast<int32_t>(u16)).defined());
    CHECK(lossless_cast(Int(16), cast<int32_t>(i8) * 2).defined());
    CHECK_FALSE(lossless_cast(Int(8), cast<int32_t>(i8) * 2).defined());
    CHECK(lossless_cast(UInt(16), cast<uint32_t>(u8) + cast<uint32_t>(u8)).defined());
    CHECK_FALSE(lossless_cast(UInt(16), cast<uint32_t>(u8) - cast<uint32_t>(u8)).defined());
    CHECK(lossless_cast(Int(16), cast<int32_t>(i8) - cast<int32_t>(i8)).defined());
    CHECK_FALSE(lossless_cast(Int(16), max(cast<int32_t>(i8), 3)).defined());
    CHECK(lossless_cast(Float(32), cast<int16_t>(x)).defined());
    CHECK_FALSE(lossless_cast(Float(32), Expr(x)).defined());
    CHECK(lossless_cast(Float(64), Expr(x)).defined());
    CHECK_FALSE(lossless_cast(Int(32), Expr(0.5f)).defined());
    CHECK(lossless_cast(UInt(8), Expr(255.0f)).defined());
    CHECK_FALSE(lossless_cast(Float(32), Expr(16777217)).defined());
    CHECK(lossless_cast(Int(16), Broadcast::make(cast<int32_t>(u8), 8)).type() == Int(16, 8));
}
