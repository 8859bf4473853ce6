// Every scalar type and operator, compiled, against plain C++ computing Halo's semantics:
// integer arithmetic wraps in the narrow type, / and % are Euclidean, x / 0 == 0.
#include "TestUtil.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

using namespace halo;
using halo_test::compare;

namespace {

constexpr int N = 61;  // not a multiple of any vector width

// Random values over T's whole range (floats in [-100, 100]) with the edge values first.
template <typename T>
Buffer<T> random_buffer(unsigned seed, bool nonneg_small = false, int small_max = 0) {
    Buffer<T> b(N);
    std::mt19937 rng(seed);
    for (int i = 0; i < N; i++) {
        T v;
        if constexpr (std::is_floating_point_v<T>) {
            v = T(std::uniform_real_distribution<double>(-100, 100)(rng));
        } else if (nonneg_small) {
            v = T(std::uniform_int_distribution<int>(0, small_max)(rng));
        } else {
            int64_t lo = int64_t(std::numeric_limits<T>::min()), hi = int64_t(std::numeric_limits<T>::max());
            v = T(std::uniform_int_distribution<int64_t>(lo, hi)(rng));
            // A few small and edge values so that interesting cases always occur.
            const int64_t special[] = {0, 1, -1, 2, -2, 3, -7, lo, hi, 100, -100};
            if (i < int(std::size(special))) v = T(special[(i * 7 + seed) % std::size(special)]);
        }
        b(i) = v;
    }
    return b;
}

template <typename T>
T wrap(int64_t v) {
    if constexpr (std::is_floating_point_v<T>) return T(v);
    else return T(uint64_t(v));  // two's complement truncation
}

// Euclidean division and modulo with Halo's x / 0 == 0 and x % 0 == 0.
template <typename T>
T ediv(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a / b;
    } else {
        if (b == 0) return 0;
        if constexpr (std::is_unsigned_v<T>) return a / b;
        int64_t q = int64_t(a) / int64_t(b), r = int64_t(a) % int64_t(b);
        if (r < 0) q += b > 0 ? -1 : 1;
        return wrap<T>(q);
    }
}
template <typename T>
T emod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a - b * std::floor(a / b);
    } else {
        if (b == 0) return 0;
        if constexpr (std::is_unsigned_v<T>) return a % b;
        int64_t r = int64_t(a) % int64_t(b);
        if (r < 0) r += b > 0 ? int64_t(b) : -int64_t(b);
        return T(r);
    }
}

// Realizes op(a(x), b(x)) over [0, N), scalar and vectorized, and compares with cop.
template <typename T, typename R = T, typename HOp, typename COp>
void check_binary(const char *what, HOp hop, COp cop, const Buffer<T> &a, const Buffer<T> &b,
                  double tol = 0) {
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f(std::string("f_") + (vec ? "vec" : "scalar"));
        f(x) = hop(a(x), b(x));
        if (vec) f.vectorize(x, 8);
        std::string ctx = std::string(what) + " on " + type_of<T>().to_string() + (vec ? " (vectorized)" : " (scalar)");
        INFO(ctx);
        REQUIRE(f.output_type() == type_of<R>());
        Buffer<> out = f.realize({N});
        Buffer<> expected(type_of<R>(), {N});
        for (int i = 0; i < N; i++) expected.set_value({i}, double(R(cop(a(i), b(i)))));
        std::string err = compare(out, expected, tol);
        if (!err.empty()) {
            for (int i = 0; i < N; i++) {
                if (out.get_as_double({i}) != expected.get_as_double({i})) {
                    err += " (inputs a=" + std::to_string(double(a(i))) + " b=" + std::to_string(double(b(i))) + ")";
                    break;
                }
            }
        }
        CHECK_MESSAGE(err.empty(), err);
    }
}

template <typename T>
void check_arithmetic(unsigned seed) {
    Buffer<T> a = random_buffer<T>(seed), b = random_buffer<T>(seed + 1000);
    if constexpr (!std::is_floating_point_v<T>) {
        // Avoid the one undefined case of hardware division: min / -1.
        for (int i = 0; i < N; i++)
            if (std::is_signed_v<T> && a(i) == std::numeric_limits<T>::min() && b(i) == T(-1)) b(i) = 3;
    }
    auto wr = [](auto v) { return v; };
    (void)wr;
    if constexpr (std::is_floating_point_v<T>) {
        check_binary<T>("+", [](Expr p, Expr q) { return p + q; }, [](T p, T q) { return T(p + q); }, a, b);
        check_binary<T>("-", [](Expr p, Expr q) { return p - q; }, [](T p, T q) { return T(p - q); }, a, b);
        check_binary<T>("*", [](Expr p, Expr q) { return p * q; }, [](T p, T q) { return T(p * q); }, a, b);
        check_binary<T>("/", [](Expr p, Expr q) { return p / q; }, [](T p, T q) { return T(p / q); }, a, b);
    } else {
        check_binary<T>("+", [](Expr p, Expr q) { return p + q; },
                        [](T p, T q) { return wrap<T>(int64_t(p) + int64_t(q)); }, a, b);
        check_binary<T>("-", [](Expr p, Expr q) { return p - q; },
                        [](T p, T q) { return wrap<T>(int64_t(p) - int64_t(q)); }, a, b);
        check_binary<T>("*", [](Expr p, Expr q) { return p * q; },
                        [](T p, T q) { return wrap<T>(int64_t(uint64_t(int64_t(p)) * uint64_t(int64_t(q)))); }, a, b);
        check_binary<T>("/", [](Expr p, Expr q) { return p / q; }, [](T p, T q) { return ediv<T>(p, q); }, a, b);
        check_binary<T>("%", [](Expr p, Expr q) { return p % q; }, [](T p, T q) { return emod<T>(p, q); }, a, b);
    }
    check_binary<T>("min", [](Expr p, Expr q) { return min(p, q); }, [](T p, T q) { return std::min(p, q); }, a, b);
    check_binary<T>("max", [](Expr p, Expr q) { return max(p, q); }, [](T p, T q) { return std::max(p, q); }, a, b);
    // Comparisons give Bool; realize them as uint8.
    check_binary<T, uint8_t>("<", [](Expr p, Expr q) { return cast<uint8_t>(p < q); }, [](T p, T q) { return p < q; }, a, b);
    check_binary<T, uint8_t>("<=", [](Expr p, Expr q) { return cast<uint8_t>(p <= q); }, [](T p, T q) { return p <= q; }, a, b);
    check_binary<T, uint8_t>(">", [](Expr p, Expr q) { return cast<uint8_t>(p > q); }, [](T p, T q) { return p > q; }, a, b);
    check_binary<T, uint8_t>(">=", [](Expr p, Expr q) { return cast<uint8_t>(p >= q); }, [](T p, T q) { return p >= q; }, a, b);
    check_binary<T, uint8_t>("==", [](Expr p, Expr q) { return cast<uint8_t>(p == q || p == p * 0 + 1); },
                             [](T p, T q) { return p == q || p == T(1); }, a, b);
    check_binary<T, uint8_t>("!=", [](Expr p, Expr q) { return cast<uint8_t>(p != q); }, [](T p, T q) { return p != q; }, a, b);
    // Unary minus wraps for integers.
    check_binary<T>("neg", [](Expr p, Expr) { return -p; },
                    [](T p, T) {
                        if constexpr (std::is_floating_point_v<T>) return T(-p);
                        else return wrap<T>(-int64_t(p));
                    }, a, b);
}

}  // namespace

TEST_CASE("arithmetic uint8") { check_arithmetic<uint8_t>(1); }
TEST_CASE("arithmetic uint16") { check_arithmetic<uint16_t>(2); }
TEST_CASE("arithmetic uint32") { check_arithmetic<uint32_t>(3); }
TEST_CASE("arithmetic int8") { check_arithmetic<int8_t>(4); }
TEST_CASE("arithmetic int16") { check_arithmetic<int16_t>(5); }
TEST_CASE("arithmetic int32") { check_arithmetic<int32_t>(6); }
TEST_CASE("arithmetic float32") { check_arithmetic<float>(7); }
TEST_CASE("arithmetic float64") { check_arithmetic<double>(8); }

TEST_CASE("integer division and modulo by zero give zero") {
    Buffer<int32_t> a = random_buffer<int32_t>(11);
    Buffer<int32_t> z(N);
    z.fill(0);
    check_binary<int32_t>("/0", [](Expr p, Expr q) { return p / q; }, [](int32_t, int32_t) { return 0; }, a, z);
    check_binary<int32_t>("%0", [](Expr p, Expr q) { return p % q; }, [](int32_t, int32_t) { return 0; }, a, z);
    Buffer<uint8_t> a8 = random_buffer<uint8_t>(12);
    Buffer<uint8_t> z8(N);
    z8.fill(0);
    check_binary<uint8_t>("/0", [](Expr p, Expr q) { return p / q; }, [](uint8_t, uint8_t) { return 0; }, a8, z8);
    check_binary<uint8_t>("%0", [](Expr p, Expr q) { return p % q; }, [](uint8_t, uint8_t) { return 0; }, a8, z8);
}

namespace {
template <typename T>
void check_bitwise(unsigned seed) {
    constexpr int bits = 8 * sizeof(T);
    Buffer<T> a = random_buffer<T>(seed), b = random_buffer<T>(seed + 1);
    Buffer<T> s = random_buffer<T>(seed + 2, true, bits - 1);  // shift amounts in [0, bits)
    using U = std::make_unsigned_t<T>;
    check_binary<T>("&", [](Expr p, Expr q) { return p & q; }, [](T p, T q) { return T(p & q); }, a, b);
    check_binary<T>("|", [](Expr p, Expr q) { return p | q; }, [](T p, T q) { return T(p | q); }, a, b);
    check_binary<T>("^", [](Expr p, Expr q) { return p ^ q; }, [](T p, T q) { return T(p ^ q); }, a, b);
    check_binary<T>("~", [](Expr p, Expr) { return ~p; }, [](T p, T) { return T(~p); }, a, b);
    check_binary<T>("<<", [](Expr p, Expr q) { return p << q; },
                    [](T p, T q) { return T(U(U(p) << int(q))); }, a, s);
    // >> is arithmetic for signed types, logical for unsigned ones.
    check_binary<T>(">>", [](Expr p, Expr q) { return p >> q; },
                    [](T p, T q) { return T(p >> int(q)); }, a, s);
    // Shift by a constant.
    check_binary<T>("<< 3", [](Expr p, Expr) { return p << 3; }, [](T p, T) { return T(U(U(p) << 3)); }, a, s);
    check_binary<T>(">> 3", [](Expr p, Expr) { return p >> 3; }, [](T p, T) { return T(p >> 3); }, a, s);
}
}  // namespace

TEST_CASE("bitwise and shifts uint8") { check_bitwise<uint8_t>(21); }
TEST_CASE("bitwise and shifts uint16") { check_bitwise<uint16_t>(22); }
TEST_CASE("bitwise and shifts uint32") { check_bitwise<uint32_t>(23); }
TEST_CASE("bitwise and shifts int8") { check_bitwise<int8_t>(24); }
TEST_CASE("bitwise and shifts int16") { check_bitwise<int16_t>(25); }
TEST_CASE("bitwise and shifts int32") { check_bitwise<int32_t>(26); }

TEST_CASE("bitwise on float is a compile error") {
    Var x("x");
    Func f("f");
    std::string msg = halo_test::compile_error_of([&] { f(x) = cast<float>(x) & 1; });
    CHECK(msg.find("float") != std::string::npos);
}

TEST_CASE("coercion: result types of mixed expressions") {
    Param<uint8_t> u8("u8");
    Param<uint16_t> u16("u16");
    Param<uint32_t> u32("u32");
    Param<int8_t> i8("i8");
    Param<int16_t> i16("i16");
    Param<int32_t> i32("i32");
    Param<float> f32("f32");
    Param<double> f64("f64");
    Var x("x");
    // Integer literals take the other side's type.
    CHECK((Expr(u8) + 3).type() == UInt(8));
    CHECK((3 + Expr(u8)).type() == UInt(8));
    CHECK((Expr(u16) * 2).type() == UInt(16));
    CHECK((Expr(i8) - 1).type() == Int(8));
    CHECK((Expr(i16) / 2).type() == Int(16));
    CHECK((Expr(u32) % 7).type() == UInt(32));
    CHECK((Expr(f64) + 1).type() == Float(64));
    // Float literals with ints give float; with floats keep the float type.
    CHECK((Expr(x) + 1.5f).type() == Float(32));
    CHECK((Expr(i32) * 0.5).type() == Float(32));
    CHECK((Expr(u8) + 1.5).type() == Float(32));
    CHECK((Expr(f64) + 1.5f).type() == Float(64));
    CHECK((Expr(f32) + 1.5).type() == Float(32));
    // Narrower meets wider: wider; signed meets unsigned of equal width: signed.
    CHECK((Expr(u8) + Expr(u16)).type() == UInt(16));
    CHECK((Expr(i8) + Expr(i32)).type() == Int(32));
    CHECK((Expr(u8) + Expr(i8)).type() == Int(8));
    CHECK((Expr(u16) + Expr(i16)).type() == Int(16));
    CHECK((Expr(u32) + Expr(i32)).type() == Int(32));
    CHECK((Expr(i8) + Expr(u16)).type() == Int(16));  // signed meets unsigned: signed of the greater width
    CHECK((Expr(u8) + Expr(i32)).type() == Int(32));
    // int meets float: float; float meets double: double.
    CHECK((Expr(i32) + Expr(f32)).type() == Float(32));
    CHECK((Expr(u8) * Expr(f64)).type() == Float(64));
    CHECK((Expr(f32) + Expr(f64)).type() == Float(64));
    // Comparisons and logic are Bool.
    CHECK((Expr(u8) < 3).type() == Bool());
    CHECK((Expr(f32) == Expr(f64)).type() == Bool());
    CHECK(((Expr(x) > 1) && (Expr(x) < 5)).type() == Bool());
    CHECK((!(Expr(x) > 1)).type() == Bool());
    // Intrinsics.
    CHECK(abs(Expr(i8)).type() == UInt(8));
    CHECK(abs(Expr(i16)).type() == UInt(16));
    CHECK(abs(Expr(i32)).type() == UInt(32));
    CHECK(abs(Expr(u16)).type() == UInt(16));
    CHECK(abs(Expr(f32)).type() == Float(32));
    CHECK(sqrt(Expr(x)).type() == Float(32));
    CHECK(sqrt(Expr(f64)).type() == Float(64));
    CHECK(floor(Expr(f64)).type() == Float(64));
    CHECK(pow(Expr(f32), 2).type() == Float(32));
    CHECK(select(Expr(x) > 0, cast<uint16_t>(u8), Expr(u16)).type() == UInt(16));  // arms of one type, as in Halide
    CHECK(select(Expr(x) > 0, Expr(u8), 1).type() == UInt(8));
    CHECK(min(Expr(i16), 3).type() == Int(16));
    CHECK(max(Expr(u8), Expr(f32)).type() == Float(32));
    CHECK(clamp(Expr(u8), 10, 20).type() == UInt(8));
    CHECK(cast<int16_t>(Expr(u8)).type() == Int(16));
    CHECK(saturating_cast<uint8_t>(Expr(i32)).type() == UInt(8));
    CHECK(type_of<uint16_t>() == UInt(16));
    CHECK(type_of<double>() == Float(64));
    CHECK(type_of<bool>() == Bool());
}

TEST_CASE("coercion: literal that does not fit is an error") {
    Param<uint8_t> u8("u8");
    Param<int8_t> i8("i8");
    CHECK_THROWS_AS(Expr(u8) + 300, CompileError);
    CHECK_THROWS_AS(Expr(u8) + (-1), CompileError);
    CHECK_THROWS_AS(Expr(i8) * 200, CompileError);
    CHECK_NOTHROW(Expr(i8) * 127);
}

TEST_CASE("coercion: uint8 arithmetic with literals wraps in uint8") {
    Buffer<uint8_t> a = random_buffer<uint8_t>(31);
    Var x("x");
    Func f("f");
    f(x) = a(x) * 3 + 7;
    Buffer<uint8_t> out = f.realize({N});
    for (int i = 0; i < N; i++) CHECK(out(i) == uint8_t(a(i) * 3 + 7));
    // int Expr + float literal is computed in float.
    Func g("g");
    g(x) = x / 2 + 0.25f;
    Buffer<float> og = g.realize({N});
    for (int i = 0; i < N; i++) CHECK(og(i) == float(i / 2) + 0.25f);
    // Mixed u8 and i32: computed in i32, no wraparound.
    Func h("h");
    h(x) = a(x) * x - 500;
    Buffer<int32_t> oh = h.realize({N});
    for (int i = 0; i < N; i++) CHECK(oh(i) == int(a(i)) * i - 500);
}

namespace {
template <typename T>
void check_intrinsics(double tol) {
    Buffer<T> a(N), pos(N), ties(N);
    std::mt19937 rng(41);
    for (int i = 0; i < N; i++) {
        a(i) = T(std::uniform_real_distribution<double>(-10, 10)(rng));
        pos(i) = T(std::uniform_real_distribution<double>(0.01, 20)(rng));
        ties(i) = T(i - N / 2) * T(0.5);  // ... -1.5, -1, -0.5, 0, 0.5, 1, 1.5 ...
    }
    auto un = [&](const char *what, Expr (*hop)(Expr), T (*cop)(T), const Buffer<T> &in, double t) {
        check_binary<T>(what, [&](Expr p, Expr) { return hop(p); }, [&](T p, T) { return cop(p); }, in, in, t);
    };
    un("sqrt", halo::sqrt, [](T v) { return T(std::sqrt(v)); }, pos, tol);
    un("exp", halo::exp, [](T v) { return T(std::exp(v)); }, a, tol);
    un("log", halo::log, [](T v) { return T(std::log(v)); }, pos, tol);
    un("sin", halo::sin, [](T v) { return T(std::sin(v)); }, a, tol);
    un("cos", halo::cos, [](T v) { return T(std::cos(v)); }, a, tol);
    un("floor", halo::floor, [](T v) { return T(std::floor(v)); }, a, 0);
    un("ceil", halo::ceil, [](T v) { return T(std::ceil(v)); }, a, 0);
    un("trunc", halo::trunc, [](T v) { return T(std::trunc(v)); }, a, 0);
    un("round", halo::round, [](T v) { return T(std::nearbyint(v)); }, a, 0);
    un("round ties", halo::round, [](T v) { return T(std::nearbyint(v)); }, ties, 0);
    un("abs", halo::abs, [](T v) { return T(std::fabs(v)); }, a, 0);
    check_binary<T>("pow", [](Expr p, Expr q) { return pow(p, q); },
                    [](T p, T q) { return T(std::pow(p, q)); }, pos, Buffer<T>(ties), tol);
}
}  // namespace

TEST_CASE("float intrinsics float32") {
    REQUIRE(std::nearbyint(2.5) == 2.0);  // default rounding mode: ties to even
    check_intrinsics<float>(1e-5);
}
TEST_CASE("float intrinsics float64") { check_intrinsics<double>(1e-12); }

TEST_CASE("round is ties-to-even on exact halves") {
    Var x("x");
    Func f("f");
    f(x) = round(cast<float>(x - 10) + 0.5f);
    Buffer<float> out = f.realize({20});
    for (int i = 0; i < 20; i++) CHECK(out(i) == std::nearbyint(float(i - 10) + 0.5f));
    CHECK(out(10) == 0.0f);   // 0.5 -> 0
    CHECK(out(11) == 2.0f);   // 1.5 -> 2
    CHECK(out(12) == 2.0f);   // 2.5 -> 2
    CHECK(out(8) == -2.0f);   // -1.5 -> -2
}

TEST_CASE("abs of signed integers has an unsigned type") {
    Buffer<int8_t> a = random_buffer<int8_t>(51);
    a(0) = -128;
    check_binary<int8_t, uint8_t>("abs", [](Expr p, Expr) { return abs(p); },
                                  [](int8_t p, int8_t) { return uint8_t(p < 0 ? -int(p) : p); }, a, a);
    Buffer<int32_t> b = random_buffer<int32_t>(52);
    b(0) = std::numeric_limits<int32_t>::min();
    check_binary<int32_t, uint32_t>("abs", [](Expr p, Expr) { return abs(p); },
                                    [](int32_t p, int32_t) { return uint32_t(p < 0 ? -int64_t(p) : p); }, b, b);
    Buffer<int16_t> c = random_buffer<int16_t>(53);
    check_binary<int16_t, uint16_t>("abs", [](Expr p, Expr) { return abs(p); },
                                    [](int16_t p, int16_t) { return uint16_t(p < 0 ? -int(p) : p); }, c, c);
}

TEST_CASE("clamp") {
    Buffer<int16_t> a = random_buffer<int16_t>(61);
    check_binary<int16_t>("clamp", [](Expr p, Expr) { return clamp(p, -1000, 2000); },
                          [](int16_t p, int16_t) { return int16_t(std::min(std::max(int(p), -1000), 2000)); }, a, a);
    Buffer<float> f = random_buffer<float>(62);
    check_binary<float>("clamp", [](Expr p, Expr) { return clamp(p, -5.5f, 7.25f); },
                        [](float p, float) { return std::min(std::max(p, -5.5f), 7.25f); }, f, f);
    Buffer<uint8_t> u = random_buffer<uint8_t>(63);
    Buffer<uint8_t> lo = random_buffer<uint8_t>(64, true, 100);
    check_binary<uint8_t>("clamp(x, lo, lo+50)", [](Expr p, Expr q) { return clamp(p, q, q + 50); },
                          [](uint8_t p, uint8_t q) { return uint8_t(std::min(std::max(int(p), int(q)), q + 50)); }, u, lo);
}

TEST_CASE("casts wrap, truncate toward zero and sign-extend") {
    Buffer<int32_t> a = random_buffer<int32_t>(71);
    check_binary<int32_t, uint8_t>("cast u8", [](Expr p, Expr) { return cast<uint8_t>(p); },
                                   [](int32_t p, int32_t) { return uint8_t(p); }, a, a);
    check_binary<int32_t, int8_t>("cast i8", [](Expr p, Expr) { return cast<int8_t>(p); },
                                  [](int32_t p, int32_t) { return int8_t(uint8_t(p)); }, a, a);
    check_binary<int32_t, int16_t>("cast i16", [](Expr p, Expr) { return cast<int16_t>(p); },
                                   [](int32_t p, int32_t) { return int16_t(uint16_t(p)); }, a, a);
    check_binary<int32_t, float>("cast f32", [](Expr p, Expr) { return cast<float>(p); },
                                 [](int32_t p, int32_t) { return float(p); }, a, a);
    check_binary<int32_t, double>("cast f64", [](Expr p, Expr) { return cast<double>(p); },
                                  [](int32_t p, int32_t) { return double(p); }, a, a);
    Buffer<int8_t> s = random_buffer<int8_t>(72);
    check_binary<int8_t, uint16_t>("i8 -> u16 sign-extends", [](Expr p, Expr) { return cast<uint16_t>(p); },
                                   [](int8_t p, int8_t) { return uint16_t(p); }, s, s);
    check_binary<int8_t, int32_t>("i8 -> i32", [](Expr p, Expr) { return cast<int32_t>(p); },
                                  [](int8_t p, int8_t) { return int32_t(p); }, s, s);
    Buffer<uint8_t> u = random_buffer<uint8_t>(73);
    check_binary<uint8_t, int8_t>("u8 -> i8", [](Expr p, Expr) { return cast<int8_t>(p); },
                                  [](uint8_t p, uint8_t) { return int8_t(p); }, u, u);
    check_binary<uint8_t, int32_t>("u8 -> i32 zero-extends", [](Expr p, Expr) { return cast(Int(32), p); },
                                   [](uint8_t p, uint8_t) { return int32_t(p); }, u, u);
    Buffer<float> f = random_buffer<float>(74);
    check_binary<float, int32_t>("f32 -> i32 truncates", [](Expr p, Expr) { return cast<int32_t>(p); },
                                 [](float p, float) { return int32_t(p); }, f, f);
    check_binary<float, int16_t>("f32 -> i16", [](Expr p, Expr) { return cast<int16_t>(p); },
                                 [](float p, float) { return int16_t(p); }, f, f);
    check_binary<float, double>("f32 -> f64", [](Expr p, Expr) { return cast<double>(p); },
                                [](float p, float) { return double(p); }, f, f);
    Buffer<double> d = random_buffer<double>(75);
    check_binary<double, float>("f64 -> f32", [](Expr p, Expr) { return cast<float>(p); },
                                [](double p, double) { return float(p); }, d, d);
    // To Bool: nonzero is true.
    Buffer<int16_t> z = random_buffer<int16_t>(76, true, 2);
    check_binary<int16_t, uint8_t>("cast bool", [](Expr p, Expr) { return cast<uint8_t>(cast<bool>(p)); },
                                   [](int16_t p, int16_t) { return uint8_t(p != 0); }, z, z);
}

TEST_CASE("saturating_cast integer to integer") {
    Buffer<int32_t> a = random_buffer<int32_t>(81);
    for (int i = 0; i < N; i++) if (i % 3 == 0) a(i) = a(i) % 70000;  // some in-range values
    auto sat = [](int64_t v, int64_t lo, int64_t hi) { return std::min(std::max(v, lo), hi); };
    check_binary<int32_t, uint8_t>("i32 -> u8", [](Expr p, Expr) { return saturating_cast<uint8_t>(p); },
                                   [&](int32_t p, int32_t) { return uint8_t(sat(p, 0, 255)); }, a, a);
    check_binary<int32_t, int8_t>("i32 -> i8", [](Expr p, Expr) { return saturating_cast<int8_t>(p); },
                                  [&](int32_t p, int32_t) { return int8_t(sat(p, -128, 127)); }, a, a);
    check_binary<int32_t, uint16_t>("i32 -> u16", [](Expr p, Expr) { return saturating_cast<uint16_t>(p); },
                                    [&](int32_t p, int32_t) { return uint16_t(sat(p, 0, 65535)); }, a, a);
    check_binary<int32_t, int16_t>("i32 -> i16", [](Expr p, Expr) { return saturating_cast<int16_t>(p); },
                                   [&](int32_t p, int32_t) { return int16_t(sat(p, -32768, 32767)); }, a, a);
    check_binary<int32_t, uint32_t>("i32 -> u32", [](Expr p, Expr) { return saturating_cast<uint32_t>(p); },
                                    [&](int32_t p, int32_t) { return uint32_t(sat(p, 0, 4294967295LL)); }, a, a);
    Buffer<uint32_t> u = random_buffer<uint32_t>(82);
    check_binary<uint32_t, int32_t>("u32 -> i32", [](Expr p, Expr) { return saturating_cast<int32_t>(p); },
                                    [&](uint32_t p, uint32_t) { return int32_t(sat(p, 0, 2147483647)); }, u, u);
    check_binary<uint32_t, uint8_t>("u32 -> u8", [](Expr p, Expr) { return saturating_cast<uint8_t>(p); },
                                    [&](uint32_t p, uint32_t) { return uint8_t(sat(p, 0, 255)); }, u, u);
    Buffer<int8_t> s = random_buffer<int8_t>(83);
    check_binary<int8_t, uint8_t>("i8 -> u8", [](Expr p, Expr) { return saturating_cast<uint8_t>(p); },
                                  [&](int8_t p, int8_t) { return uint8_t(sat(p, 0, 255)); }, s, s);
    check_binary<int8_t, uint32_t>("i8 -> u32", [](Expr p, Expr) { return saturating_cast<uint32_t>(p); },
                                   [&](int8_t p, int8_t) { return uint32_t(sat(p, 0, 255)); }, s, s);
    Buffer<uint8_t> b = random_buffer<uint8_t>(84);
    check_binary<uint8_t, int8_t>("u8 -> i8", [](Expr p, Expr) { return saturating_cast<int8_t>(p); },
                                  [&](uint8_t p, uint8_t) { return int8_t(sat(p, -128, 127)); }, b, b);
}

TEST_CASE("saturating_cast between 64-bit integers, and to the same type") {
    // uint64 to uint64 was clamped to INT64_MAX (found by a port of Halide's saturating_casts).
    const uint64_t big[] = {(uint64_t(1) << 63) + 5, UINT64_MAX, 12, 0};
    Buffer<uint64_t> u(4);
    for (int i = 0; i < 4; i++) u(i) = big[i];
    Var x("x");
    Func same("same"), to_signed("to_signed"), to_u32("to_u32");
    same(x) = saturating_cast<uint64_t>(u(x));
    to_signed(x) = saturating_cast<int64_t>(u(x));
    to_u32(x) = saturating_cast<uint32_t>(u(x));
    Buffer<uint64_t> a = same.realize({4});
    Buffer<int64_t> b = to_signed.realize({4});
    Buffer<uint32_t> c = to_u32.realize({4});
    for (int i = 0; i < 4; i++) {
        CHECK(a(i) == big[i]);
        CHECK(b(i) == int64_t(std::min<uint64_t>(big[i], uint64_t(INT64_MAX))));
        CHECK(c(i) == uint32_t(std::min<uint64_t>(big[i], UINT32_MAX)));
    }
    const int64_t signed_values[] = {INT64_MIN, -1, 7, INT64_MAX};
    Buffer<int64_t> s(4);
    for (int i = 0; i < 4; i++) s(i) = signed_values[i];
    Func to_u64("to_u64"), same_signed("same_signed");
    to_u64(x) = saturating_cast<uint64_t>(s(x));
    same_signed(x) = saturating_cast<int64_t>(s(x));
    Buffer<uint64_t> d = to_u64.realize({4});
    Buffer<int64_t> e = same_signed.realize({4});
    for (int i = 0; i < 4; i++) {
        CHECK(d(i) == uint64_t(std::max<int64_t>(signed_values[i], 0)));
        CHECK(e(i) == signed_values[i]);
    }
}

TEST_CASE("saturating_cast float to integer") {
    Buffer<float> f(N);
    std::mt19937 rng(91);
    for (int i = 0; i < N; i++) f(i) = float(std::uniform_real_distribution<double>(-400, 400)(rng));
    f(0) = 255.5f;
    f(1) = -0.5f;
    f(2) = 3.7f;
    f(3) = -3.7f;
    check_binary<float, uint8_t>("f32 -> u8", [](Expr p, Expr) { return saturating_cast<uint8_t>(p); },
                                 [](float p, float) { return uint8_t(std::min(std::max(p, 0.0f), 255.0f)); }, f, f);
    check_binary<float, int8_t>("f32 -> i8", [](Expr p, Expr) { return saturating_cast<int8_t>(p); },
                                [](float p, float) { return int8_t(std::min(std::max(p, -128.0f), 127.0f)); }, f, f);
    check_binary<float, int16_t>("f32 -> i16", [](Expr p, Expr) { return saturating_cast<int16_t>(p); },
                                 [](float p, float) { return int16_t(p); }, f, f);
}

TEST_CASE("saturating_cast float beyond int32 range") {
    Buffer<float> f(N);
    for (int i = 0; i < N; i++) f(i) = float(i - N / 2) * 1e8f;  // up to +-3e9
    auto expect = [](float p, float) -> int32_t {
        if (p >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
        if (p <= -2147483648.0f) return std::numeric_limits<int32_t>::min();
        return int32_t(p);
    };
    check_binary<float, int32_t>("f32 -> i32", [](Expr p, Expr) { return saturating_cast<int32_t>(p); }, expect, f, f);
    Buffer<double> d(N);
    for (int i = 0; i < N; i++) d(i) = double(i - N / 2) * 1e8;
    check_binary<double, uint32_t>("f64 -> u32", [](Expr p, Expr) { return saturating_cast<uint32_t>(p); },
                                   [](double p, double) { return uint32_t(std::min(std::max(p, 0.0), 4294967295.0)); }, d, d);
}

TEST_CASE("bool selects and logic") {
    Buffer<int32_t> a = random_buffer<int32_t>(101), b = random_buffer<int32_t>(102);
    check_binary<int32_t>("select max", [](Expr p, Expr q) { return select(p > q, p, q); },
                          [](int32_t p, int32_t q) { return p > q ? p : q; }, a, b);
    check_binary<int32_t>("select &&", [](Expr p, Expr q) { return select(p > 0 && q < 0, 1, 0); },
                          [](int32_t p, int32_t q) { return int32_t(p > 0 && q < 0); }, a, b);
    check_binary<int32_t>("select ||", [](Expr p, Expr q) { return select(p > 0 || q < 0, p, -5); },
                          [](int32_t p, int32_t q) { return (p > 0 || q < 0) ? p : -5; }, a, b);
    check_binary<int32_t>("select !", [](Expr p, Expr q) { return select(!(p % 2 == 0), q, p); },
                          [](int32_t p, int32_t q) { return !(emod<int32_t>(p, 2) == 0) ? q : p; }, a, b);
    // Multi-way select: the first true condition wins.
    check_binary<int32_t>("select chain", [](Expr p, Expr q) { return select(p < -1000, 1, q < 0, 2, p > q, 3, 4); },
                          [](int32_t p, int32_t q) { return p < -1000 ? 1 : q < 0 ? 2 : p > q ? 3 : 4; }, a, b);
    // An integer used as a condition means != 0.
    Buffer<uint8_t> c = random_buffer<uint8_t>(103, true, 1);
    Buffer<uint8_t> d = random_buffer<uint8_t>(104);
    check_binary<uint8_t>("select int cond", [](Expr p, Expr q) { return select(p, q, 7); },
                          [](uint8_t p, uint8_t q) { return uint8_t(p ? q : 7); }, c, d);
    // Bool arithmetic: a Bool meets an integer as that integer type.
    check_binary<uint8_t>("bool + u8", [](Expr p, Expr q) { return q + (p == 1); },
                          [](uint8_t p, uint8_t q) { return uint8_t(q + (p == 1)); }, c, d);
    // Float select.
    Buffer<float> f = random_buffer<float>(105), g = random_buffer<float>(106);
    check_binary<float>("float select", [](Expr p, Expr q) { return select(p < q, p * 2, q - 1); },
                        [](float p, float q) { return p < q ? p * 2 : q - 1; }, f, g);
}

TEST_CASE("a Bool-valued Func can be realized") {
    Var x("x");
    Func f("f");
    f(x) = (x % 3) == 1;
    REQUIRE(f.output_type() == Bool());
    Buffer<> out = f.realize({N});
    CHECK(out.type() == Bool());
    for (int i = 0; i < N; i++) CHECK(out.get_as_double({i}) == double(i % 3 == 1));
}

TEST_CASE("Param scalars of every type") {
    Var x("x");
    Param<uint8_t> pu8("pu8", 250);
    Param<int16_t> pi16("pi16", -1234);
    Param<uint32_t> pu32("pu32", 4000000000u);
    Param<double> pf64("pf64", 0.125);
    Param<int8_t> pi8("pi8", -100);
    Func f("f");
    f(x) = cast<double>(pu8 + cast<uint8_t>(x)) + cast<double>(pi16) + cast<double>(pu32) * pf64 +
           cast<double>(pi8 - cast<int8_t>(x));
    Buffer<double> out = f.realize({N});
    for (int i = 0; i < N; i++) {
        double e = double(uint8_t(250 + i)) + -1234.0 + 4000000000.0 * 0.125 + double(int8_t(uint8_t(-100 - i)));
        CHECK(out(i) == e);
    }
}
