// Halide's math functions beyond the basic ones: inverse and hyperbolic trigonometry, hypot,
// erf, is_nan / is_inf / is_finite, fract, absd, lerp, the fast_ variants and ConciseCasts.
// Each against the C library or plain C++ and against the reference evaluator, vectorized and
// not; misuse gives a message.
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

// f(x) = fn(in(x)) over inputs in [lo, hi], scalar and vectorized, against c_fn and the
// reference evaluator, within a relative tolerance (float32 library functions differ by ulps).
void check_unary(const char *name, std::function<Expr(Expr)> fn, double (*c_fn)(double), float lo, float hi) {
    INFO(std::string(name));
    const int n = 67;
    Buffer<float> in(n);
    for (int i = 0; i < n; i++) in(i) = lo + (hi - lo) * float(i) / float(n - 1);
    for (int vec : {1, 8}) {
        Var x("x");
        Func f(std::string("f_") + name);
        f(x) = fn(in(x));
        if (vec > 1) f.vectorize(x, vec);
        Buffer<float> out = f.realize({n});
        for (int i = 0; i < n; i++) {
            double e = c_fn(double(in(i)));
            CHECK_MESSAGE(std::fabs(out(i) - e) <= 2e-6 * std::max(1.0, std::fabs(e)), name << "(" << in(i) << ") = " << out(i) << ", expected " << e);
        }
        halo_test::check_against_reference(f, Buffer<float>(n), 2e-6);
    }
}

}  // namespace

TEST_CASE("inverse and hyperbolic trigonometry, erf match the C library") {
    check_unary("asin", [](Expr e) { return asin(e); }, std::asin, -1, 1);
    check_unary("acos", [](Expr e) { return acos(e); }, std::acos, -1, 1);
    check_unary("atan", [](Expr e) { return atan(e); }, std::atan, -20, 20);
    check_unary("sinh", [](Expr e) { return sinh(e); }, std::sinh, -5, 5);
    check_unary("cosh", [](Expr e) { return cosh(e); }, std::cosh, -5, 5);
    check_unary("tanh", [](Expr e) { return tanh(e); }, std::tanh, -5, 5);
    check_unary("asinh", [](Expr e) { return asinh(e); }, std::asinh, -50, 50);
    check_unary("acosh", [](Expr e) { return acosh(e); }, std::acosh, 1, 50);
    check_unary("atanh", [](Expr e) { return atanh(e); }, std::atanh, -0.99f, 0.99f);
    check_unary("erf", [](Expr e) { return erf(e); }, std::erf, -3, 3);
    check_unary("fract", [](Expr e) { return fract(e); }, [](double v) { return v - std::trunc(v); }, -7.3f, 7.3f);
    check_unary("fast_log", [](Expr e) { return fast_log(e); }, std::log, 0.01f, 100);
    check_unary("fast_exp", [](Expr e) { return fast_exp(e); }, std::exp, -10, 10);
    check_unary("fast_inverse_sqrt", [](Expr e) { return fast_inverse_sqrt(e); }, [](double v) { return 1 / std::sqrt(v); }, 0.01f, 100);
}

TEST_CASE("hypot of two floats, and of an int and a float") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = hypot(cast<float>(x) - 10.0f, 3.5f);
    g(x) = hypot(x, 2.0f);  // as Halide: sqrt(x * x + 4.0f), the int squared as an int
    f.vectorize(x, 8);
    Buffer<float> a = f.realize({21}), b = g.realize({21});
    for (int i = 0; i < 21; i++) {
        CHECK(std::fabs(a(i) - std::hypot(i - 10.0, 3.5)) < 1e-5);
        CHECK(std::fabs(b(i) - std::hypot(double(i), 2.0)) < 1e-5);
    }
}

TEST_CASE("hypot, pow and atan2 convert their arguments as Halide 14 does") {
    // Each type and value below was checked against Halide 14.
    Param<int8_t> i8("i8");
    Param<int16_t> i16("i16");
    Param<uint8_t> u8("u8");
    Param<int32_t> i32("i32");
    Param<float> f32("f32");
    Param<double> f64("f64");
    // hypot is sqrt(x * x + y * y): an int8 is squared in int8 (-128 * -128 wraps to 0).
    CHECK(hypot(Expr(i8), Expr(f32)).type() == Float(32));
    CHECK(hypot(Expr(f32), Expr(f64)).type() == Float(64));
    i8.set(-128);
    CHECK(evaluate<float>(hypot(Expr(i8), 0.0f)) == 0.0f);
    f32.set(1e20f);
    CHECK(std::isinf(evaluate<float>(hypot(Expr(f32), -109.0f))));  // the square overflows, as in Halide
    // pow by an integer constant multiplies in x's type.
    CHECK(pow(Expr(i16), 2).type() == Int(16));
    i16.set(300);
    CHECK(evaluate<int16_t>(pow(Expr(i16), 2)) == int16_t(300 * 300));  // wraps: 24464
    u8.set(20);
    CHECK(evaluate<uint8_t>(pow(Expr(u8), 2)) == 144);
    f32.set(1.5f);
    CHECK(evaluate<float>(pow(Expr(f32), 3)) == 1.5f * 1.5f * 1.5f);
    CHECK(evaluate<float>(pow(Expr(f32), -2)) == 1.0f / (1.5f * 1.5f));
    CHECK(evaluate<float>(pow(Expr(f32), 0)) == 1.0f);
    CHECK(evaluate<float>(pow(Expr(f32), 5)) == (1.5f * 1.5f) * (1.5f * 1.5f) * 1.5f);
    i16.set(3);
    CHECK(evaluate<int16_t>(pow(Expr(i16), -2)) == 0);  // 1 / 9 in int16
    // Otherwise the exponent takes a float base's type (no detour through float32), and an
    // integer base makes both float32.
    CHECK(pow(Expr(f64), Expr(i32)).type() == Float(64));
    CHECK(pow(Expr(f32), Expr(f64)).type() == Float(32));
    CHECK(pow(Expr(i8), Expr(f64)).type() == Float(32));
    CHECK(pow(Expr(i32), Expr(i32)).type() == Float(32));
    f64.set(1.0 + std::ldexp(1.0, -24));
    i32.set(16777217);  // not a float32: as float64 it keeps its last bit
    CHECK(evaluate<double>(pow(Expr(f64), Expr(i32))) == std::pow(1.0 + std::ldexp(1.0, -24), 16777217.0));
    CHECK(atan2(Expr(f64), Expr(i32)).type() == Float(64));
    CHECK(atan2(Expr(i32), Expr(f64)).type() == Float(32));
    CHECK(atan2(Expr(f32), Expr(f64)).type() == Float(32));
    f64.set(1.0);
    i32.set(1073741823);
    CHECK(evaluate<double>(atan2(Expr(f64), Expr(i32))) == std::atan2(1.0, 1073741823.0));
}

TEST_CASE("is_nan, is_inf and is_finite hold in compiled code and in the reference evaluator") {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    Buffer<float> in(8);
    float values[8] = {0.0f, -1.5f, nan, inf, -inf, 3e38f, -nan, 1e-40f};
    for (int i = 0; i < 8; i++) in(i) = values[i];
    for (int vec : {1, 8}) {
        Var x("x");
        Func f("classes");
        f(x) = select(is_nan(in(x)), 1, 0) + select(is_inf(in(x)), 2, 0) + select(is_finite(in(x)), 4, 0);
        if (vec > 1) f.vectorize(x, vec);
        Buffer<int> out = f.realize({8});
        int expected[8] = {4, 4, 1, 2, 2, 4, 1, 4};
        for (int i = 0; i < 8; i++) CHECK_MESSAGE(out(i) == expected[i], "value " << values[i] << ", lanes " << vec);
        halo_test::check_against_reference(f, Buffer<int>(8));
    }
    Var x("x");
    std::string msg = compile_error_of([&] { is_nan(x + 1); });
    CHECK(contains(msg, "is_nan((x + 1)): the argument is int32; only floating-point values can be NaN or infinite"));
}

TEST_CASE("absd: the unsigned difference, without overflow at the ends of the type") {
    Buffer<int8_t> a(4), b(4);
    int8_t av[4] = {-128, 127, 5, -7}, bv[4] = {127, -128, 9, -7};
    for (int i = 0; i < 4; i++) a(i) = av[i], b(i) = bv[i];
    Var x("x");
    Func f("absd8"), g("absd_float");
    f(x) = absd(a(x), b(x));
    g(x) = absd(cast<float>(a(x)), 0.5f);
    CHECK(f.value().type() == UInt(8));
    Buffer<uint8_t> out = f.realize({4});
    Buffer<float> fo = g.realize({4});
    for (int i = 0; i < 4; i++) {
        CHECK(int(out(i)) == std::abs(int(av[i]) - int(bv[i])));
        CHECK(fo(i) == std::fabs(float(av[i]) - 0.5f));
    }
    halo_test::check_against_reference(f, Buffer<uint8_t>(4));
}

TEST_CASE("fract keeps the sign of its argument, as in Halide") {
    Buffer<float> in(4);
    in(0) = -0.5f, in(1) = -1.25f, in(2) = 2.75f, in(3) = -3.0f;
    Var x("x");
    Func f("fract_signed");
    f(x) = fract(in(x));
    Buffer<float> out = f.realize({4});
    CHECK(out(0) == -0.5f);
    CHECK(out(1) == -0.25f);
    CHECK(out(2) == 0.75f);
    CHECK(out(3) == 0.0f);
    halo_test::check_against_reference(f, Buffer<float>(4));
}

TEST_CASE("lerp of float64 values, with a float32 or float64 weight, as Halide accepts") {
    Buffer<double> a(3), b(3);
    for (int i = 0; i < 3; i++) a(i) = 1.0 + i, b(i) = 3.0 + 2 * i;
    Var x("x");
    Func f("lerp_f64"), g("lerp_f64_w64");
    f(x) = lerp(a(x), b(x), 0.25f);
    g(x) = lerp(a(x), b(x), cast<double>(x) / 4.0);
    CHECK(lerp(a(x), b(x), 0.25f).type() == Float(64));
    Buffer<double> out = f.realize({3}), out2 = g.realize({3});
    CHECK(out(0) == 1.5);
    CHECK(out2(2) == 3.0 * 0.5 + 7.0 * 0.5);
    halo_test::check_against_reference(f, Buffer<double>(3));
    // 64-bit integers are still refused, naming the way out.
    Buffer<int64_t> c(2);
    std::string msg = halo_test::compile_error_of([&] { (void)lerp(c(x), c(x + 1), 0.5f); });
    CHECK_MESSAGE(msg.find("64-bit integer values or weights are not supported") != std::string::npos, msg);
}

// The fraction of an integer weight's maximum is computed in float64 for float64 values (as
// Halide computes it in the values' type): in float32, lerp(-2.25, 100.1, uint8 1) was off by
// 2.4e-8 (found by a comparison with Halide 14).
TEST_CASE("lerp of float64 values with an integer weight computes the weight in float64") {
    Buffer<double> a(1), b(1);
    a(0) = -2.25, b(0) = 100.1;
    Var x("x");
    for (int bits : {8, 16, 32}) {
        CAPTURE(bits);
        Func f("lerp_f64_u");
        Expr w = cast(UInt(bits), x + 1);
        f(x) = lerp(a(0), b(0), w);
        Buffer<double> out = f.realize({3});
        for (int i = 0; i < 3; i++) {
            const double weight = double(i + 1) / double((uint64_t(1) << bits) - 1);
            CHECK(out(i) == -2.25 * (1.0 - weight) + 100.1 * weight);
        }
    }
}

TEST_CASE("lerp of floats is zero * (1 - w) + one * w") {
    Var x("x");
    Func f("lerp_f");
    f(x) = lerp(cast<float>(x), 100.0f, cast<float>(x) / 16.0f);
    f.vectorize(x, 8);
    Buffer<float> out = f.realize({17});
    for (int i = 0; i < 17; i++) {
        float w = float(i) / 16.0f;
        CHECK(std::fabs(out(i) - (float(i) * (1.0f - w) + 100.0f * w)) <= 1e-5f);
    }
}

TEST_CASE("lerp of 8- and 16-bit integers rounds to nearest and stays between the values") {
    // Plain C++: the weight scaled to [0, M] as Halide does (a float weight truncated), then
    // (zero (M - w) + one w) / M to nearest.
    auto lerp_int = [](int64_t zero, int64_t one, int64_t w, int64_t M) {
        int64_t num = zero * (M - w) + one * w;
        double q = double(num) / double(M);
        return int64_t(std::floor(q + 0.5));
    };
    Buffer<uint8_t> a(256), b(256), w8(256);
    Buffer<float> wf(256);
    Buffer<int16_t> s(256), t(256);
    Buffer<uint16_t> w16(256);
    for (int i = 0; i < 256; i++) {
        a(i) = uint8_t(i), b(i) = uint8_t((i * 77 + 13) % 256), w8(i) = uint8_t((i * 31) % 256);
        wf(i) = float((i * 13) % 101) / 100.0f;
        s(i) = int16_t(i * 251 - 32000), t(i) = int16_t(30000 - i * 199), w16(i) = uint16_t(i * 257);
    }
    Var x("x");
    Func by_u8("lerp_u8_by_u8"), by_float("lerp_u8_by_float"), s16("lerp_i16_by_u16"), s16_u8w("lerp_i16_by_u8");
    by_u8(x) = lerp(a(x), b(x), w8(x));
    by_float(x) = lerp(a(x), b(x), wf(x));
    s16(x) = lerp(s(x), t(x), w16(x));
    s16_u8w(x) = lerp(s(x), t(x), w8(x));
    by_u8.vectorize(x, 16);
    s16.vectorize(x, 8);
    Buffer<uint8_t> o1 = by_u8.realize({256}), o2 = by_float.realize({256});
    Buffer<int16_t> o3 = s16.realize({256}), o4 = s16_u8w.realize({256});
    for (int i = 0; i < 256; i++) {
        INFO("i = " << i);
        CHECK(int64_t(o1(i)) == lerp_int(a(i), b(i), w8(i), 255));
        CHECK(int64_t(o2(i)) == lerp_int(a(i), b(i), int64_t(255.0f * wf(i)), 255));
        CHECK(int64_t(o3(i)) == lerp_int(s(i), t(i), w16(i), 65535));
        // A uint8 weight w is w / 255 of the way: rescaled to 16 bits it is w * 257 exactly.
        CHECK(int64_t(o4(i)) == lerp_int(s(i), t(i), int64_t(w8(i)) * 257, 65535));
        CHECK(o3(i) >= std::min(s(i), t(i)));
        CHECK(o3(i) <= std::max(s(i), t(i)));
    }
    halo_test::check_against_reference(by_u8, Buffer<uint8_t>(256));
    halo_test::check_against_reference(s16, Buffer<int16_t>(256));
}

TEST_CASE("lerp as Halide computes it: truncated weights, 32-bit and bool values, weights of other widths") {
    // Plain C++ of Halide's definition: the weight as an unsigned integer w of the values'
    // width (bits), then (zero (M - w) + one w) / M to nearest in unsigned arithmetic, with
    // signed values shifted by -MIN.
    auto lerp_u = [](uint64_t zero, uint64_t one, uint64_t w, int bits) {
        uint64_t M = (uint64_t(1) << bits) - 1;
        uint64_t p = zero * (M - w) + one * w + (uint64_t(1) << (bits - 1));
        return ((p >> bits) + p) >> bits;
    };
    Param<float> wf("wf");
    Param<uint16_t> w16("w16");
    Param<uint32_t> w32("w32");
    Var x("x");
    struct Case {
        float f;
        uint16_t u16;
        uint32_t u32;
    };
    for (Case c : {Case{0.5f, 200, 7}, Case{0.3f, 65534, 4000000000u}, Case{0.999f, 257, 0xffffffffu}, Case{0.0f, 0, 1}}) {
        wf.set(c.f);
        w16.set(c.u16);
        w32.set(c.u32);
        Func f("lerp_cases");
        f(x) = Tuple(cast<int>(lerp(cast<uint8_t>(x * 40), cast<uint8_t>(255 - x * 30), wf)),
                     cast<int>(lerp(cast<uint8_t>(x * 40), cast<uint8_t>(255 - x * 30), w16)),
                     lerp(x * 100000 - 300000, 2000000000 - x * 7, wf), lerp(x * 100000 - 300000, -5 - x, w32),
                     cast<int>(lerp(cast<uint32_t>(x) * cast<uint32_t>(1000000000), cast<uint32_t>(Expr(uint64_t(4000000000u))), wf)),
                     cast<int>(lerp(x % 2 == 0, x % 3 == 0, wf)), cast<int>(lerp(cast<int8_t>(x * 30 - 100), cast<int8_t>(90), w16)));
        f.vectorize(x, 4);
        Realization r = f.realize({5});
        Buffer<int> r0 = r[0], r1 = r[1], r2 = r[2], r3 = r[3], r4 = r[4], r5 = r[5], r6 = r[6];
        for (int i = 0; i < 5; i++) {
            INFO("weight " << c.f << ", " << c.u16 << ", " << c.u32 << "; x = " << i);
            uint64_t w8_of_f = uint64_t(255.0f * c.f), w8_of_16 = c.u16 / 257;
            CHECK(uint64_t(r0(i)) == lerp_u(uint8_t(i * 40), uint8_t(255 - i * 30), w8_of_f, 8));
            CHECK(uint64_t(r1(i)) == lerp_u(uint8_t(i * 40), uint8_t(255 - i * 30), w8_of_16, 8));
            uint64_t w32_of_f = uint64_t(65535.0 * 65537.0 * double(c.f));
            auto biased = [](int v) { return uint64_t(uint32_t(v) ^ 0x80000000u); };
            CHECK(r2(i) == int(uint32_t(lerp_u(biased(i * 100000 - 300000), biased(2000000000 - i * 7), w32_of_f, 32)) ^ 0x80000000u));
            CHECK(r3(i) == int(uint32_t(lerp_u(biased(i * 100000 - 300000), biased(-5 - i), c.u32, 32)) ^ 0x80000000u));
            CHECK(uint32_t(r4(i)) == uint32_t(lerp_u(uint32_t(i) * 1000000000u, 4000000000u, w32_of_f, 32)));
            CHECK(r5(i) == (c.f > 0.5f ? i % 3 == 0 : i % 2 == 0));
            auto b8 = [](int v) { return uint64_t(uint8_t(int8_t(v)) ^ 0x80); };
            CHECK(r6(i) == int(int8_t(uint8_t(lerp_u(b8(i * 30 - 100), b8(90), w8_of_16, 8)) ^ 0x80)));
        }
        Realization ref = reference_realize(f, {5});
        for (size_t k = 0; k < ref.size(); k++) CHECK(halo_test::compare(r[k], ref[k]).empty());
    }
    // Halide's own figures: lerp(0, 255, 0.5f) of uint8 is 127 and of 0.3f 76; a uint16 weight of
    // 65534 is 254 / 255 of the way.
    wf.set(0.5f);
    Func g("lerp_halide_figures");
    g(x) = cast<int>(lerp(cast<uint8_t>(0), cast<uint8_t>(255), select(x == 0, wf, 0.3f)));
    Buffer<int> out = g.realize({2});
    CHECK(out(0) == 127);
    CHECK(out(1) == 76);
}

TEST_CASE("lerp of floats extrapolates with a constant weight outside [0, 1], as in Halide") {
    Var x("x");
    Func f("f");
    f(x) = lerp(cast<float>(x), cast<float>(x) + 1.0f, 2.0f) + lerp(0.0f, 1.0f, -0.5f);
    Buffer<float> out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == float(i) + 2.0f - 0.5f);
    // Integer values keep the refusal (Halide's too): their weight is a fraction.
    std::string msg = compile_error_of([&] { lerp(cast<uint8_t>(x), cast<uint8_t>(x), 2.0f); });
    CHECK(contains(msg, "the constant float weight 2 is not in [0, 1]"));
}

TEST_CASE("lerp refuses what it cannot compute, saying what to do") {
    Var x("x");
    std::string msg = compile_error_of([&] { lerp(cast<int64_t>(x), cast<int64_t>(x), 0.5f); });
    CHECK(contains(msg, "64-bit integer values or weights are not supported (as in Halide)"));
    msg = compile_error_of([&] { lerp(cast<uint8_t>(x), cast<uint16_t>(x), 0.5f); });
    CHECK(contains(msg, "the values are uint8 and uint16; lerp needs both of one type"));
    msg = compile_error_of([&] { lerp(cast<uint8_t>(x), cast<uint8_t>(x), x); });
    CHECK(contains(msg, "the weight is int32; it must be a float in [0, 1] or an unsigned integer"));
}

TEST_CASE("ConciseCasts as in Halide") {
    using namespace halo::ConciseCasts;
    Var x("x");
    Func f("concise");
    f(x) = i32(u8_sat(x * 100 - 200)) + i32(i8(x * 100)) * 1000 + i32(u16(f32(x) * 1.5f)) * 1000000;
    Buffer<int> out = f.realize({6});
    for (int i = 0; i < 6; i++) {
        int sat = std::min(255, std::max(0, i * 100 - 200));
        CHECK(out(i) == sat + int(int8_t(i * 100)) * 1000 + int(uint16_t(float(i) * 1.5f)) * 1000000);
    }
}

namespace {

// Every value of an 8- or 16-bit type (or a spread of 32-bit ones) through fn, scalar and
// vectorized by 8, against want and against the reference evaluator.
template <typename T>
void check_bits(const char *name, std::function<Expr(Expr)> fn, std::function<T(T)> want) {
    const int n = sizeof(T) <= 2 ? (1 << (8 * sizeof(T))) : 4099;
    Buffer<T> in(std::vector<int>{n}, "bits_in");
    for (int i = 0; i < n; i++) in(i) = sizeof(T) <= 2 ? T(i) : T(uint32_t(i) * 2654435761u >> (i % 29));
    in(0) = T(0);
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f("bits");
        f(x) = fn(in(x));
        if (vec) f.vectorize(x, 8, TailStrategy::GuardWithIf);
        INFO(name << " over " << type_of<T>() << (vec ? ", vectorized" : ""));
        CHECK(f.output_type() == type_of<T>());
        Buffer<T> out = f.realize({n});
        int bad = 0;
        for (int i = 0; i < n; i++) bad += out(i) != want(in(i));
        CHECK(bad == 0);
        halo_test::check_against_reference(f, Buffer<T>(n));
    }
}

template <typename T>
void check_all_counts() {
    using U = std::make_unsigned_t<T>;
    const int bits = 8 * sizeof(T);
    check_bits<T>("popcount", [](Expr e) { return popcount(e); },
                  [](T v) { return T(__builtin_popcountll(uint64_t(U(v)))); });
    check_bits<T>("count_leading_zeros", [](Expr e) { return count_leading_zeros(e); },
                  [&](T v) { return T(U(v) == 0 ? bits : __builtin_clzll(uint64_t(U(v))) - (64 - bits)); });
    check_bits<T>("count_trailing_zeros", [](Expr e) { return count_trailing_zeros(e); },
                  [&](T v) { return T(U(v) == 0 ? bits : __builtin_ctzll(uint64_t(U(v)))); });
}

}  // namespace

TEST_CASE("popcount, count_leading_zeros and count_trailing_zeros of every 8- and 16-bit value, and of 32-bit ones") {
    check_all_counts<uint8_t>();
    check_all_counts<int8_t>();
    check_all_counts<uint16_t>();
    check_all_counts<int16_t>();
    check_all_counts<int32_t>();
    check_all_counts<uint32_t>();
    std::string msg = compile_error_of([] { popcount(Expr(1.5f)); });
    CHECK(contains(msg, "popcount(1.5f): the argument is float32; it must be an integer"));
}

TEST_CASE("a bit count indexes a table of bit width + 1 entries (its bounds are [0, bits])") {
    // Halide's popc_clz_ctz_bounds: the count of a uint8 lies in [0, 8], so a 9-entry table is
    // enough (Halo once asked for [0, 255] of it).
    ImageParam in(UInt(8), 1, "in");
    ImageParam table(Int(32), 1, "table");
    Buffer<uint8_t> data(std::vector<int>{40});
    for (int i = 0; i < 40; i++) data(i) = uint8_t(i * 37 + 5);
    Buffer<int> t(std::vector<int>{9});
    for (int i = 0; i < 9; i++) t(i) = 100 + i * i;
    in.set(data);
    table.set(t);
    Var x("x");
    for (int which = 0; which < 3; which++) {
        Func f("f");
        Expr v = in(x);
        f(x) = table(which == 0 ? popcount(v) : which == 1 ? count_leading_zeros(v) : count_trailing_zeros(v));
        f.vectorize(x, 8);
        Buffer<int> out = f.realize({40});
        for (int i = 0; i < 40; i++) {
            unsigned u = data(i);
            int n = which == 0 ? __builtin_popcount(u) : which == 1 ? (u ? __builtin_clz(u) - 24 : 8) : (u ? __builtin_ctz(u) : 8);
            INFO("count " << which << " of " << u);
            CHECK(out(i) == 100 + n * n);
        }
    }
}

TEST_CASE("div_round_to_zero and mod_round_to_zero are C's / and %, and 0 when dividing by zero") {
    // Every pair of int8 values, and spreads of int16 and int32 ones, signed and unsigned.
    auto check = [](auto sample) {
        using T = decltype(sample);
        std::vector<T> vals;
        if (sizeof(T) == 1) {
            for (int v = 0; v < 256; v++) vals.push_back(T(v));
        } else {
            for (int64_t v : {0, 1, 2, 3, 5, 7, 100, 1000, 32767, 40000, 123456789}) {
                vals.push_back(T(v));
                vals.push_back(T(-v));
            }
        }
        const int n = int(vals.size());
        Buffer<T> a(std::vector<int>{n, n}, "a"), b(std::vector<int>{n, n}, "b");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a(i, j) = vals[size_t(i)], b(i, j) = vals[size_t(j)];
        for (int vec = 0; vec < 2; vec++) {
            Var x("x"), y("y");
            Func q("q"), r("r");
            q(x, y) = div_round_to_zero(a(x, y), b(x, y));
            r(x, y) = mod_round_to_zero(a(x, y), b(x, y));
            if (vec) {
                q.vectorize(x, 8, TailStrategy::GuardWithIf);
                r.vectorize(x, 8, TailStrategy::GuardWithIf);
            }
            INFO(type_of<T>() << (vec ? ", vectorized" : ""));
            Buffer<T> qo = q.realize({n, n}), ro = r.realize({n, n});
            int bad = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    int64_t av = a(i, j), bv = b(i, j);
                    bool overflow = std::is_signed<T>::value && bv == -1 && av == int64_t(std::numeric_limits<T>::min());
                    if (overflow) continue;  // C leaves MIN / -1 undefined
                    T wq = bv == 0 ? T(0) : T(av / bv), wr = bv == 0 ? T(0) : T(av % bv);
                    bad += qo(i, j) != wq || ro(i, j) != wr;
                }
            }
            CHECK(bad == 0);
            halo_test::check_against_reference(q, Buffer<T>(n, n));
        }
    };
    check(int8_t(0));
    check(uint8_t(0));
    check(int16_t(0));
    check(int32_t(0));
    check(uint32_t(0));
}

namespace {

// f(x) = reinterpret<To>(in(x)), scalar and vectorized: the bits of every value unchanged (memcpy
// in C++), and the reference evaluator agreeing.
template <typename From, typename To>
void check_reinterpret(const std::vector<From> &vals) {
    static_assert(sizeof(From) == sizeof(To));
    const int n = int(vals.size());
    Buffer<From> in(std::vector<int>{n}, "reint_in");
    for (int i = 0; i < n; i++) in(i) = vals[size_t(i)];
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f("reint");
        f(x) = reinterpret<To>(in(x));
        if (vec) f.vectorize(x, 8, TailStrategy::GuardWithIf);
        INFO(type_of<From>() << " -> " << type_of<To>() << (vec ? ", vectorized" : ""));
        REQUIRE(f.output_type() == type_of<To>());
        Buffer<To> out = f.realize({n});
        int bad = 0;
        for (int i = 0; i < n; i++) {
            From v = in(i);
            To got = out(i);
            bad += std::memcmp(&v, &got, sizeof(v)) != 0;
        }
        CHECK(bad == 0);
        halo_test::check_against_reference(f, Buffer<To>(n));
    }
}

}  // namespace

TEST_CASE("reinterpret keeps the bits: floats and integers of the same width, both ways, and signedness") {
    std::vector<float> fl{0.0f, -0.0f, 1.0f, -2.5f, 3.0e38f, 1.0e-42f, INFINITY, -INFINITY, 0.1f};
    check_reinterpret<float, int32_t>(fl);
    check_reinterpret<float, uint32_t>(fl);
    check_reinterpret<double, int64_t>({0.0, -0.0, 1.0, -2.5, 1e300, 5e-324, -INFINITY, 0.1});
    check_reinterpret<int32_t, float>({0, 1, -1, 0x3f800000, int32_t(0xbf800000), 0x7f7fffff, 12345});
    check_reinterpret<uint64_t, double>({0, 1, 0x3ff0000000000000ull, 0xc004000000000000ull, 0x7fefffffffffffffull});
    std::vector<int8_t> i8;
    for (int v = -128; v < 128; v++) i8.push_back(int8_t(v));
    check_reinterpret<int8_t, uint8_t>(i8);
    std::vector<uint16_t> u16;
    for (int v = 0; v < 65536; v += 97) u16.push_back(uint16_t(v));
    u16.push_back(65535);
    check_reinterpret<uint16_t, int16_t>(u16);
    check_reinterpret<int64_t, uint64_t>({0, -1, INT64_MIN, INT64_MAX, 1234567890123456789ll});
}

TEST_CASE("reinterpret inside arithmetic: the bit trick of the fast inverse square root") {
    const int n = 50;
    Buffer<float> in(n);
    for (int i = 0; i < n; i++) in(i) = 0.01f + float(i) * 3.7f;
    Var x("x");
    Func f("inv_sqrt_guess");
    Expr bits = reinterpret<int32_t>(in(x));
    Expr guess = reinterpret<float>(0x5f3759df - (bits >> 1));
    f(x) = guess * (1.5f - 0.5f * in(x) * guess * guess);
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    Buffer<float> out = f.realize({n});
    for (int i = 0; i < n; i++) {
        float v = in(i);
        int32_t b;
        std::memcpy(&b, &v, 4);
        int32_t g = 0x5f3759df - (b >> 1);
        float y;
        std::memcpy(&y, &g, 4);
        CHECK(out(i) == y * (1.5f - 0.5f * v * y * y));
    }
    halo_test::check_against_reference(f, Buffer<float>(n), 1e-6);
}

TEST_CASE("reinterpret refuses a type of another width, saying to cast") {
    Var x("x");
    std::string msg = compile_error_of([&] { reinterpret<int16_t>(Expr(x)); });
    CHECK(contains(msg, "reinterpret<int16>(x): the argument is int32; reinterpret needs the same number of bits per lane"));
    CHECK(contains(msg, "Use cast<int16> to convert the value instead"));
    CHECK(contains(compile_error_of([&] { reinterpret(Bool(), Expr(x) > 0); }), "not bool"));
    CHECK(reinterpret<int32_t>(Expr(x)).type() == Int(32));  // the same type: x itself
}
