// Integer / and % are Euclidean: a == (a / b) * b + a % b with 0 <= a % b < |b|; x / 0 == 0.
// Checked for int8/16/32 (and unsigned) with constant and run-time divisors of both signs.
#include "TestUtil.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace halo;

namespace {

constexpr int N = 203;  // not a multiple of any vector width

template <typename T>
T wrap(int64_t v) { return T(uint64_t(v)); }

template <typename T>
T ediv(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_unsigned_v<T>) {
        return a / b;
    } else {
        int64_t q = int64_t(a) / int64_t(b), r = int64_t(a) % int64_t(b);
        if (r < 0) q += b > 0 ? -1 : 1;
        return wrap<T>(q);
    }
}
template <typename T>
T emod(T a, T b) {
    if (b == 0) return 0;
    if constexpr (std::is_unsigned_v<T>) {
        return a % b;
    } else {
        int64_t r = int64_t(a) % int64_t(b);
        if (r < 0) r += b > 0 ? int64_t(b) : -int64_t(b);
        return T(r);
    }
}

// Sanity of the C++ reference itself.

TEST_CASE("reference Euclidean helpers") {
    CHECK(ediv<int>(-7, 2) == -4);
    CHECK(emod<int>(-7, 2) == 1);
    CHECK(ediv<int>(7, -2) == -3);
    CHECK(emod<int>(7, -2) == 1);
    CHECK(ediv<int>(-7, -2) == 4);
    CHECK(emod<int>(-7, -2) == 1);
    CHECK(ediv<int>(-6, 3) == -2);
    CHECK(emod<int>(-6, 3) == 0);
}

template <typename T>
Buffer<T> dividends(unsigned seed) {
    Buffer<T> a(N);
    std::mt19937 rng(seed);
    int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
    for (int i = 0; i < N; i++) {
        int64_t v;
        if (i < 40) v = i - 20;  // every small value, around zero
        else if (i % 2) v = std::uniform_int_distribution<int64_t>(lo, hi)(rng);
        else v = std::uniform_int_distribution<int64_t>(-1000, 1000)(rng);
        a(i) = T(std::min(std::max(v, lo), hi));
    }
    a(40) = T(lo + 1);
    a(41) = T(hi);
    a(42) = T(lo);
    return a;
}

// Realizes f over [0, N) scalar and vectorized; compares with expect(i).
template <typename T, typename Expect>
void check_func(const std::string &what, const std::function<Expr(Var)> &def, Expect expect) {
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f("f");
        f(x) = def(x);
        if (vec) f.vectorize(x, 16);
        REQUIRE(f.output_type() == type_of<T>());
        Buffer<T> out = f.realize({N});
        int bad = 0;
        std::string first;
        for (int i = 0; i < N; i++) {
            T e = expect(i);
            if (out(i) != e) {
                if (!bad++) first = "at " + std::to_string(i) + ": got " + std::to_string(int64_t(out(i))) +
                                    ", expected " + std::to_string(int64_t(e));
            }
        }
        std::string ctx = what + (vec ? " (vectorized)" : " (scalar)");
        INFO(ctx);
        CHECK_MESSAGE(bad == 0, first);
    }
}

template <typename T>
void check_runtime_divisors(unsigned seed) {
    Buffer<T> a = dividends<T>(seed);
    Buffer<T> b(N);
    std::mt19937 rng(seed + 7);
    for (int i = 0; i < N; i++) {
        int64_t v = std::uniform_int_distribution<int64_t>(-20, 20)(rng);
        if (i % 5 == 0 && std::is_signed_v<T>) v = std::uniform_int_distribution<int64_t>(std::numeric_limits<T>::min(), -1)(rng);
        if (i % 5 == 1) v = std::uniform_int_distribution<int64_t>(1, std::numeric_limits<T>::max())(rng);
        if (std::is_unsigned_v<T> && v < 0) v = -v;
        b(i) = T(v);
        if (std::is_signed_v<T> && a(i) == std::numeric_limits<T>::min() && b(i) == T(-1)) b(i) = T(-2);
    }
    check_func<T>("a / b", [&](Var x) { return a(x) / b(x); }, [&](int i) { return ediv<T>(a(i), b(i)); });
    check_func<T>("a % b", [&](Var x) { return a(x) % b(x); }, [&](int i) { return emod<T>(a(i), b(i)); });
    // The identity a == (a / b) * b + a % b, and the range of a % b.
    Var x("x");
    Func q("q"), r("r"), ok("ok");
    q(x) = a(x) / b(x);
    r(x) = a(x) % b(x);
    ok(x) = cast<uint8_t>(b(x) == 0 || (q(x) * b(x) + r(x) == a(x) && r(x) >= 0 && cast<int64_t>(r(x)) < abs(cast<int64_t>(b(x)))));
    Buffer<uint8_t> o = ok.realize({N});
    for (int i = 0; i < N; i++) CHECK_MESSAGE(o(i) == 1, "identity fails for a=" << int64_t(a(i)) << " b=" << int64_t(b(i)));
}

template <typename T>
void check_constant_divisors(unsigned seed) {
    Buffer<T> a = dividends<T>(seed);
    std::vector<int64_t> divisors = {1, 2, 3, 4, 5, 7, 8, 10, 16, 17, 64, 100, 127};
    if (std::is_signed_v<T>) {
        for (int64_t d : std::vector<int64_t>(divisors)) divisors.push_back(-d);
        divisors.push_back(std::numeric_limits<T>::min());
    } else {
        divisors.push_back(std::numeric_limits<T>::max());
    }
    if (sizeof(T) >= 2) {
        divisors.push_back(1000);
        divisors.push_back(32767);
        if (std::is_signed_v<T>) divisors.push_back(-1000);
    }
    for (int64_t dv : divisors) {
        T d = T(dv);
        Buffer<T> ac = a.copy();
        if (dv == -1) ac(42) = 0;  // min / -1 overflows
        check_func<T>("a / " + std::to_string(dv), [&](Var x) { return ac(x) / Expr(d); },
                      [&](int i) { return ediv<T>(ac(i), d); });
        check_func<T>("a % " + std::to_string(dv), [&](Var x) { return ac(x) % Expr(d); },
                      [&](int i) { return emod<T>(ac(i), d); });
    }
}

}  // namespace

TEST_CASE("int8 division by run-time divisors") { check_runtime_divisors<int8_t>(1); }
TEST_CASE("int16 division by run-time divisors") { check_runtime_divisors<int16_t>(2); }
TEST_CASE("int32 division by run-time divisors") { check_runtime_divisors<int32_t>(3); }
TEST_CASE("uint8 division by run-time divisors") { check_runtime_divisors<uint8_t>(4); }
TEST_CASE("uint16 division by run-time divisors") { check_runtime_divisors<uint16_t>(5); }
TEST_CASE("uint32 division by run-time divisors") { check_runtime_divisors<uint32_t>(6); }

TEST_CASE("int8 division by constants") { check_constant_divisors<int8_t>(11); }
TEST_CASE("int16 division by constants") { check_constant_divisors<int16_t>(12); }
TEST_CASE("int32 division by constants") { check_constant_divisors<int32_t>(13); }
TEST_CASE("uint8 division by constants") { check_constant_divisors<uint8_t>(14); }
TEST_CASE("uint16 division by constants") { check_constant_divisors<uint16_t>(15); }
TEST_CASE("uint32 division by constants") { check_constant_divisors<uint32_t>(16); }

TEST_CASE("division of the loop variable over negative coordinates") {
    // x / 3 and x % 3 where x itself is negative: the simplifier and the codegen both see it.
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f("f"), g("g"), h("h");
        f(x) = x / 3 * 1000 + x % 3;
        g(x) = (x - 7) / -4 * 1000 + (x - 7) % -4;
        h(x) = (2 * x + 1) / 2 - x;  // always 0 with floor semantics
        if (vec) {
            f.vectorize(x, 8);
            g.vectorize(x, 8);
            h.vectorize(x, 4);
        }
        Buffer<int32_t> of(101), og(101), oh(101);
        of.set_min(-60);
        og.set_min(-60);
        oh.set_min(-60);
        f.realize(of);
        g.realize(og);
        h.realize(oh);
        for (int i = -60; i < 41; i++) {
            CHECK_MESSAGE(of(i) == ediv(i, 3) * 1000 + emod(i, 3), "x=" << i << " vec=" << vec);
            CHECK_MESSAGE(og(i) == ediv(i - 7, -4) * 1000 + emod(i - 7, -4), "x=" << i << " vec=" << vec);
            CHECK_MESSAGE(oh(i) == 0, "x=" << i << " vec=" << vec);
        }
    }
}

TEST_CASE("division by a Param divisor of either sign") {
    Buffer<int16_t> a = dividends<int16_t>(21);
    for (int d : {3, -3, 8, -8, 1, -1, 0, 255}) {
        Param<int16_t> p("p");
        p.set(int16_t(d));
        Buffer<int16_t> ac = a.copy();
        ac(42) = 0;
        check_func<int16_t>("a / p=" + std::to_string(d), [&](Var x) { return ac(x) / p; },
                            [&](int i) { return ediv<int16_t>(ac(i), int16_t(d)); });
        check_func<int16_t>("a % p=" + std::to_string(d), [&](Var x) { return ac(x) % p; },
                            [&](int i) { return emod<int16_t>(ac(i), int16_t(d)); });
    }
}

TEST_CASE("constant folding of division agrees with run-time division") {
    // Both operands constant: folded by the simplifier.
    Var x("x");
    Func f("f");
    f(x) = Expr(-7) / Expr(2) * 10000 + Expr(-7) % Expr(2) * 1000 + Expr(7) / Expr(-2) * 100 +
           Expr(7) % Expr(-2) * 10 + Expr(-7) % Expr(-2) + 0 * x;
    Buffer<int32_t> out = f.realize({3});
    CHECK(out(0) == -4 * 10000 + 1 * 1000 + -3 * 100 + 1 * 10 + 1);
    Func g("g");
    g(x) = Expr(int8_t(-128)) / Expr(int8_t(3)) + Expr(int8_t(-128)) % Expr(int8_t(3)) + cast<int8_t>(0 * x);
    Buffer<int8_t> og = g.realize({3});
    CHECK(int(og(0)) == ediv<int8_t>(-128, 3) + emod<int8_t>(-128, 3));
    Func h("h");
    h(x) = Expr(5) / Expr(0) + Expr(5) % Expr(0) + x;
    Buffer<int32_t> oh = h.realize({3});
    CHECK(oh(2) == 2);
}

TEST_CASE("float modulo is a - b * floor(a / b)") {
    Buffer<float> a(N), b(N);
    std::mt19937 rng(31);
    for (int i = 0; i < N; i++) {
        a(i) = float(std::uniform_real_distribution<double>(-50, 50)(rng));
        float m = float(std::uniform_real_distribution<double>(0.5, 10)(rng));
        b(i) = i % 2 ? m : -m;
    }
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f("f"), g("g");
        f(x) = a(x) % b(x);
        g(x) = a(x) % 2.5f;
        if (vec) {
            f.vectorize(x, 8);
            g.vectorize(x, 8);
        }
        Buffer<float> of = f.realize({N}), og = g.realize({N});
        for (int i = 0; i < N; i++) {
            float e = a(i) - b(i) * std::floor(a(i) / b(i));
            CHECK_MESSAGE(std::fabs(of(i) - e) <= 1e-4f, "a=" << a(i) << " b=" << b(i) << " got " << of(i));
            float e2 = a(i) - 2.5f * std::floor(a(i) / 2.5f);
            CHECK_MESSAGE(std::fabs(og(i) - e2) <= 1e-4f, "a=" << a(i) << " got " << og(i));
            CHECK(og(i) >= 0.0f);
            CHECK(og(i) < 2.5f + 1e-4f);
            if (b(i) > 0) CHECK(of(i) >= 0.0f);
        }
    }
}

TEST_CASE("double modulo") {
    Var x("x");
    Func f("f");
    f(x) = (cast<double>(x) - 30.25) % 4.0;
    Buffer<double> out = f.realize({61});
    for (int i = 0; i < 61; i++) {
        double a = double(i) - 30.25;
        CHECK(out(i) == doctest::Approx(a - 4.0 * std::floor(a / 4.0)));
    }
}
