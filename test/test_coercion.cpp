// Halide's implicit type coercion, one rule per test: the result type, and where a value can
// tell the rules apart, the value compiled (scalar and vectorized) and in the reference
// evaluator against plain C++.
#include "TestUtil.h"

#include <cstdint>
#include <functional>
#include <string>

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

constexpr int N = 37;

// f(x) = def(x) over [0, N): compiled scalar, vectorized by 16, and by the reference
// evaluator; every element must equal expect(x).
template <typename R>
void check_values(const std::string &what, const std::function<Expr(Var)> &def, const std::function<R(int)> &expect) {
    for (int mode = 0; mode < 3; mode++) {
        Var x("x");
        Func f("f");
        f(x) = def(x);
        INFO(what << (mode == 0 ? " (compiled scalar)" : mode == 1 ? " (compiled vectorized)" : " (reference evaluator)"));
        REQUIRE(f.output_type() == type_of<R>());
        Buffer<R> out(N);
        Buffer<> dyn = out;
        if (mode == 1) f.vectorize(x, 16);
        if (mode == 2) reference_realize(f, dyn);
        else f.realize(dyn);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            if (out(i) != expect(i) && !bad++) {
                INFO("at " << i << ": got " << double(out(i)) << ", expected " << double(expect(i)));
                CHECK(false);
            }
        }
        CHECK(bad == 0);
    }
}

// Inputs covering each type's extremes.
template <typename T>
Buffer<T> inputs(unsigned seed) {
    Buffer<T> b(N);
    halo_test::fill_random(b, double(std::numeric_limits<T>::lowest()), double(std::numeric_limits<T>::max()), seed);
    b(0) = std::numeric_limits<T>::lowest();
    b(1) = std::numeric_limits<T>::max();
    b(2) = T(0);
    b(3) = T(1);
    if (std::is_signed_v<T>) b(4) = T(-1);
    return b;
}

struct Params {
    Param<bool> b{"b"};
    Param<uint8_t> u8{"u8"};
    Param<uint16_t> u16{"u16"};
    Param<uint32_t> u32{"u32"};
    Param<uint64_t> u64{"u64"};
    Param<int8_t> i8{"i8"};
    Param<int16_t> i16{"i16"};
    Param<int32_t> i32{"i32"};
    Param<int64_t> i64{"i64"};
    Param<float> f32{"f32"};
    Param<double> f64{"f64"};
};

bool is_cast_to(const Expr &e, Type t) {
    auto c = e.as<Cast>();
    return c && c->type == t;
}

}  // namespace

TEST_CASE("coercion: operands of the same type are left alone") {
    Params p;
    Expr e = Expr(p.u8) + Expr(p.u8);
    CHECK(e.type() == UInt(8));
    REQUIRE(e.as<Add>());
    CHECK(e.as<Add>()->a.as<Variable>());
    CHECK(e.as<Add>()->b.as<Variable>());
    CHECK((Expr(p.f64) * Expr(p.f64)).type() == Float(64));
    CHECK((Expr(p.b) && Expr(p.b)).type() == Bool());
}

TEST_CASE("coercion: a scalar meeting a vector is broadcast") {
    Params p;
    Expr v = Broadcast::make(Expr(p.i16), 8);
    Expr e = v + Expr(p.i16);
    CHECK(e.type() == Int(16, 8));
    CHECK(e.as<Add>()->b.as<Broadcast>());
    // Broadcast first, then the usual rules: int16x8 with uint8 -> int16x8.
    CHECK((Expr(p.u8) * v).type() == Int(16, 8));
    CHECK((v < Expr(p.f32)).type() == Bool(8));
    std::string msg = halo_test::compile_error_of([&] { (void)(v + Broadcast::make(Expr(p.i16), 4)); });
    CHECK(msg == "Cannot combine a vector of 8 lanes with a vector of 4 lanes");
}

TEST_CASE("coercion: float meeting non-float gives the float type") {
    Params p;
    CHECK((Expr(p.i32) + Expr(p.f32)).type() == Float(32));
    CHECK((Expr(p.u8) * Expr(p.f64)).type() == Float(64));
    CHECK((Expr(p.i64) - Expr(p.f32)).type() == Float(32));
    CHECK((Expr(p.f32) / Expr(p.u32)).type() == Float(32));
    CHECK((Expr(p.b) + Expr(p.f32)).type() == Float(32));
    CHECK(is_cast_to((Expr(p.i32) + Expr(p.f32)).as<Add>()->a, Float(32)));
    Buffer<int32_t> a = inputs<int32_t>(1);
    Buffer<float> f = inputs<float>(2);
    for (int i = 0; i < N; i++) f(i) = float(i) * 0.75f - 10.0f;
    check_values<float>("int32 + float32", [&](Var x) { return a(x) + f(x); }, [&](int i) { return float(a(i)) + f(i); });
}

TEST_CASE("coercion: two float types give the wider") {
    Params p;
    CHECK((Expr(p.f32) + Expr(p.f64)).type() == Float(64));
    CHECK((Expr(p.f64) < Expr(p.f32)).type() == Bool());
    CHECK(is_cast_to((Expr(p.f32) + Expr(p.f64)).as<Add>()->a, Float(64)));
    Buffer<float> f(N);
    Buffer<double> d(N);
    for (int i = 0; i < N; i++) {
        f(i) = 0.1f * float(i);
        d(i) = 1e-12 * i;
    }
    check_values<double>("float32 + float64", [&](Var x) { return f(x) + d(x); }, [&](int i) { return double(f(i)) + d(i); });
}

TEST_CASE("coercion: two unsigned types give the wider") {
    Params p;
    CHECK((Expr(p.u8) + Expr(p.u16)).type() == UInt(16));
    CHECK((Expr(p.u32) * Expr(p.u16)).type() == UInt(32));
    CHECK((Expr(p.u8) - Expr(p.u64)).type() == UInt(64));
    // bool is UInt(1)
    CHECK((Expr(p.b) + Expr(p.u8)).type() == UInt(8));
    Buffer<uint8_t> a = inputs<uint8_t>(3);
    Buffer<uint16_t> b = inputs<uint16_t>(4);
    check_values<uint16_t>("uint8 + uint16 wraps in uint16", [&](Var x) { return b(x) + a(x); },
                           [&](int i) { return uint16_t(b(i) + a(i)); });
}

TEST_CASE("coercion: two signed types give the wider") {
    Params p;
    CHECK((Expr(p.i8) + Expr(p.i32)).type() == Int(32));
    CHECK((Expr(p.i16) * Expr(p.i8)).type() == Int(16));
    CHECK((Expr(p.i64) - Expr(p.i16)).type() == Int(64));
    Buffer<int8_t> a = inputs<int8_t>(5);
    Buffer<int16_t> b = inputs<int16_t>(6);
    check_values<int16_t>("int8 * int16 in int16", [&](Var x) { return b(x) * a(x); },
                          [&](int i) { return int16_t(uint16_t(int(b(i)) * int(a(i)))); });
}

TEST_CASE("coercion: signed meeting unsigned gives a signed type of the greater width") {
    Params p;
    CHECK((Expr(p.i8) + Expr(p.u16)).type() == Int(16));
    CHECK((Expr(p.u16) + Expr(p.i8)).type() == Int(16));
    CHECK((Expr(p.u8) + Expr(p.i8)).type() == Int(8));
    CHECK((Expr(p.u32) + Expr(p.i8)).type() == Int(32));
    CHECK((Expr(p.u8) + Expr(p.i32)).type() == Int(32));
    CHECK((Expr(p.u64) * Expr(p.i16)).type() == Int(64));
    CHECK((Expr(p.b) + Expr(p.i8)).type() == Int(8));
    CHECK((Expr(p.b) + Expr(p.i32)).type() == Int(32));
    // The case that made us check: uint16 + int8 is int16, so it can be negative.
    Buffer<uint16_t> u = inputs<uint16_t>(7);
    Buffer<int8_t> s = inputs<int8_t>(8);
    u(5) = 65535;
    s(5) = -1;  // int16(65535) + -1 == -2
    u(6) = 40000;
    s(6) = 3;
    check_values<bool>("uint16 + int8 < 0", [&](Var x) { return u(x) + s(x) < 0; },
                       [&](int i) { return int16_t(uint16_t(int16_t(u(i)) + s(i))) < 0; });
    check_values<int16_t>("uint16 + int8", [&](Var x) { return u(x) + s(x); },
                          [&](int i) { return int16_t(uint16_t(int16_t(u(i)) + s(i))); });
}

TEST_CASE("coercion: a C++ int literal takes the Expr's type") {
    Params p;
    CHECK((Expr(p.u8) + 3).type() == UInt(8));
    CHECK((3 - Expr(p.u8)).type() == UInt(8));
    CHECK((Expr(p.i16) / 2).type() == Int(16));
    CHECK((Expr(p.u32) % 7).type() == UInt(32));
    CHECK((Expr(p.f64) + 1).type() == Float(64));
    CHECK((Expr(p.f32) * 3).type() == Float(32));
    CHECK((Expr(p.u8) < 3).as<LT>()->b.type() == UInt(8));
    CHECK((Expr(p.i64) == -1).as<EQ>()->b.type() == Int(64));
    Buffer<uint8_t> a = inputs<uint8_t>(9);
    check_values<uint8_t>("uint8 * 3 + 7 wraps in uint8", [&](Var x) { return a(x) * 3 + 7; },
                          [&](int i) { return uint8_t(a(i) * 3 + 7); });
    check_values<uint8_t>("200 - uint8", [&](Var x) { return 200 - a(x); }, [&](int i) { return uint8_t(200 - a(i)); });
}

TEST_CASE("coercion: a C++ int literal that does not fit the Expr's type is an error") {
    Params p;
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.u8) + 300); }) ==
          "Integer constant 300 would be implicitly coerced to type uint8, which changes its value to 44; cast the "
          "other operand to a wider type, or cast the constant explicitly");
    CHECK(halo_test::compile_error_of([&] { (void)(-1 < Expr(p.u16)); }) ==
          "Integer constant -1 would be implicitly coerced to type uint16, which changes its value to 65535; cast the "
          "other operand to a wider type, or cast the constant explicitly");
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.i8) * 200); }).find("changes its value to -56") != std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.f32) + 16777217); }).find("type float32, which changes its value to 16777216;") !=
          std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.i8) * 127); }) == "");
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.u8) >= 255); }) == "");
}

TEST_CASE("coercion: a C++ float literal is a float32 that then follows match_types") {
    Params p;
    CHECK((Expr(p.i32) + 1.5f).type() == Float(32));
    CHECK((Expr(p.i64) * 0.5).type() == Float(32));
    CHECK((Expr(p.u8) + 1.5).type() == Float(32));
    CHECK((Expr(p.f64) + 1.5f).type() == Float(64));
    CHECK((Expr(p.f32) - 1.5).type() == Float(32));
    CHECK((2.0f / Expr(p.u16)).type() == Float(32));
    CHECK((Expr(p.i32) > 0.5f).as<GT>()->a.type() == Float(32));
    Buffer<int32_t> a(N);
    for (int i = 0; i < N; i++) a(i) = i - 18;
    check_values<float>("int32 / 2 + 0.25f", [&](Var x) { return a(x) / 2 + 0.25f; },
                        [&](int i) { return float((a(i) - (a(i) < 0 && a(i) % 2 ? 1 : 0)) / 2) + 0.25f; });
    check_values<bool>("int32 > 0.5f", [&](Var x) { return a(x) > 0.5f; }, [&](int i) { return a(i) > 0.5f; });
}

TEST_CASE("coercion: an Expr holding a constant is an ordinary int32") {
    // Only C++ literals get the special treatment; Expr(3) is an int32 like any other.
    Params p;
    CHECK((Expr(p.u8) + Expr(3)).type() == Int(32));
    CHECK((Expr(3) * Expr(p.u16)).type() == Int(32));
    CHECK((Expr(p.i8) - Expr(1)).type() == Int(32));
    CHECK((Expr(p.u8) + Expr(uint8_t(3))).type() == UInt(8));
    CHECK((Expr(p.f32) + Expr(2.0)).type() == Float(64));
    Buffer<uint8_t> a = inputs<uint8_t>(10);
    check_values<int32_t>("uint8 + Expr(250)", [&](Var x) { return a(x) + Expr(250); }, [&](int i) { return int(a(i)) + 250; });
}

TEST_CASE("coercion: min and max with a C++ literal take the Expr's type") {
    Params p;
    CHECK(min(Expr(p.u8), 3).type() == UInt(8));
    CHECK(max(3, Expr(p.i16)).type() == Int(16));
    CHECK(min(Expr(p.i32), 0.5f).type() == Float(32));
    CHECK(max(1.5, Expr(p.f64)).type() == Float(64));
    CHECK(min(Expr(p.u16), 7, Expr(p.u16), 9).type() == UInt(16));
    // Several literals in a row: each meets an Expr, never another literal.
    CHECK(min(Expr(p.u8), 3, 4).type() == UInt(8));
    CHECK(max(1, 2, Expr(p.i16)).type() == Int(16));
    CHECK(max(Expr(p.u8), Expr(p.f32)).type() == Float(32));
    // Three or more fold from the right, as in Halide 14 (checked against it): the last pair
    // is matched first, so a literal beside an int32 is an int32 and the uint8 widens to it.
    CHECK(min(Expr(p.u8), 300, Expr(p.i32)).type() == Int(32));
    CHECK(max(Expr(p.u8), -1, Expr(p.i32)).type() == Int(32));
    CHECK(min(Expr(p.u8), Expr(p.i32), 300).type() == Int(32));
    CHECK(halo_test::compile_error_of([&] { (void)min(Expr(p.u8), 300); }).find("Integer constant 300 would be implicitly coerced to type uint8") == 0);
    CHECK(halo_test::compile_error_of([&] { (void)max(-5, Expr(p.u32)); }).find("Integer constant -5 would be implicitly coerced to type uint32") == 0);
    Buffer<int8_t> a = inputs<int8_t>(11);
    check_values<int8_t>("max(int8, -3) and min(.., 100)", [&](Var x) { return min(max(a(x), -3), 100); },
                         [&](int i) { return int8_t(std::min(std::max(int(a(i)), -3), 100)); });
}

TEST_CASE("coercion: select gives an integer-constant arm the other arm's type") {
    Params p;
    Var x("x");
    CHECK(select(Expr(x) > 0, Expr(p.u8), 1).type() == UInt(8));
    CHECK(select(Expr(x) > 0, 0, Expr(p.i16)).type() == Int(16));
    CHECK(select(Expr(x) > 0, Expr(3), Expr(p.u16)).type() == UInt(16));
    CHECK(select(Expr(x) > 0, 1, Expr(p.f32)).type() == Float(32));
    // Both constants: int32.
    CHECK(select(Expr(x) > 0, 1, 2).type() == Int(32));
    // A float constant arm takes the other arm's float type (Halo's double literals are float64).
    CHECK(select(Expr(x) > 0, Expr(p.f32), 1.5).type() == Float(32));
    CHECK(select(Expr(x) > 0, 2.5f, 1).type() == Float(32));
}

TEST_CASE("coercion: select refuses arms of different types, as Halide 14 does") {
    Params p;
    Var x("x");
    // Each of these is refused by Halide 14 too ("do not have a matching type"): converting
    // one arm silently is how a narrowing or a rounding goes unnoticed.
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(p.u8), Expr(p.u16)); }) ==
          "select(condition, true_value, false_value): the true value (u8) has type uint8 and the false value "
          "(u16) has type uint16; select does not convert between types, as in Halide: cast one value to the "
          "other's type");
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(p.i8), Expr(p.u16)); }).find("has type int8") !=
          std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(x), Expr(p.f32)); }).find("has type float32") !=
          std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(p.f32), Expr(p.f64)); }) != "");
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(p.u8), 1.5f); }) != "");
    // The many-condition form checks each pair.
    CHECK(halo_test::compile_error_of([&] { (void)select(Expr(x) > 0, Expr(p.u8), Expr(x) < 3, Expr(p.i8), Expr(p.u8)); }) !=
          "");
    CHECK(select(Expr(x) > 0, cast<uint16_t>(p.u8), Expr(p.u16)).type() == UInt(16));
}

TEST_CASE("coercion: select's integer constant arm takes the other arm's type") {
    Params p;
    Var x("x");
    Buffer<uint8_t> a = inputs<uint8_t>(12);
    check_values<uint8_t>("select(a > 100, 255, a)", [&](Var xx) { return select(a(xx) > 100, 255, a(xx)); },
                          [&](int i) { return a(i) > 100 ? uint8_t(255) : a(i); });
    // As in Halide, the constant is cast even where the type cannot hold it: 300 wraps to 44
    // (Halide's select casts integer literals without a range check, unlike its binary operators).
    CHECK(select(Expr(x) > 0, Expr(p.u8), 300).type() == UInt(8));
    check_values<uint8_t>("select(a > 100, a, 300)", [&](Var xx) { return select(a(xx) > 100, a(xx), 300); },
                          [&](int i) { return a(i) > 100 ? a(i) : uint8_t(44); });
    Buffer<int8_t> s8 = inputs<int8_t>(13);
    check_values<int8_t>("select(s8 < 0, -129, s8)", [&](Var xx) { return select(s8(xx) < 0, -129, s8(xx)); },
                         [&](int i) { return s8(i) < 0 ? int8_t(127) : s8(i); });
}

TEST_CASE("coercion: clamp takes bounds that fit x's type without loss, as Halide 14 does") {
    Params p;
    Var x("x");
    CHECK(clamp(Expr(p.u8), 10, 20).type() == UInt(8));
    CHECK(clamp(Expr(p.f32), 0, 1).type() == Float(32));
    CHECK(clamp(Expr(p.i32), 0.0f, 10.0f).type() == Int(32));
    CHECK(clamp(Expr(p.u8), 0, 255.0f).type() == UInt(8));
    // Each accepted and refused case below was checked against Halide 14.
    CHECK(clamp(Expr(p.i32), Expr(p.u8), 100).type() == Int(32));    // a narrower type
    CHECK(clamp(Expr(p.f64), Expr(p.f32), 1).type() == Float(64));
    CHECK(clamp(Expr(p.i16), Expr(p.i8), Expr(p.u8)).type() == Int(16));
    CHECK(clamp(Expr(p.i16), cast<int32_t>(p.u8), 100).type() == Int(16));  // through a widening cast
    CHECK(clamp(Expr(p.i16), cast<int32_t>(p.i8) * 2, 100).type() == Int(16));  // half-width operands
    CHECK(clamp(Expr(p.i16), cast<int32_t>(p.i8) + cast<int32_t>(p.i8), 100).type() == Int(16));
    CHECK(clamp(Expr(p.u16), cast<uint32_t>(p.u8) + cast<uint32_t>(p.u8), 100).type() == UInt(16));
    CHECK(clamp(Expr(p.i16), cast<int32_t>(cast<int8_t>(p.i32)), 100).type() == Int(16));
    CHECK(clamp(Expr(p.i32), cast<int64_t>(cast<int32_t>(p.i16) * cast<int32_t>(p.i16)), 100).type() == Int(32));
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.u8), -1, 100); }) ==
          "clamp(x, lo, hi) with x of type uint8: the lower bound -1 is not representable in uint8 (clamp converts "
          "its bounds only where no value can change, as in Halide); cast the bound to uint8 explicitly, or cast x "
          "to a type that holds it");
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.i16), Expr(p.i32), 100); }) ==
          "clamp(x, lo, hi) with x of type int16: the lower bound (i32) of type int32 is not representable in "
          "int16 (clamp converts its bounds only where no value can change, as in Halide); cast the bound to int16 "
          "explicitly, or cast x to a type that holds it");
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.i32), 0.5f, 10); }).find("the lower bound 0.5 is not representable in int32") !=
          std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.i32), 0, 1e30f); }).find("the upper bound 1e+30 is not representable in int32") !=
          std::string::npos);
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.u8), 0.0, 255.0); }) == "");
    const std::vector<std::pair<const char *, std::function<Expr()>>> refused = {
        {"u8 with 300", [&] { return clamp(Expr(p.u8), 0, 300); }},
        {"u8 with 255.5f", [&] { return clamp(Expr(p.u8), 0, 255.5f); }},
        {"f32 with 16777217", [&] { return clamp(Expr(p.f32), 0, 16777217); }},
        {"f32 with an int32", [&] { return clamp(Expr(p.f32), Expr(p.i32), 1); }},
        {"f32 with a float64", [&] { return clamp(Expr(p.f32), Expr(p.f64), 1); }},
        {"u32 with an int32", [&] { return clamp(Expr(p.u32), Expr(p.i32), 10); }},
        {"i32 with a uint32", [&] { return clamp(Expr(p.i32), Expr(p.u32), 10); }},
        {"u8 with x", [&] { return clamp(Expr(p.u8), Expr(x), 10); }},
        {"i16 with int32(u16)", [&] { return clamp(Expr(p.i16), cast<int32_t>(p.u16), 100); }},
        {"i16 with int32(u8) + 1", [&] { return clamp(Expr(p.i16), cast<int32_t>(p.u8) + 1, 100); }},
        {"i16 with int32(u8) + int32(u8)", [&] { return clamp(Expr(p.i16), cast<int32_t>(p.u8) + cast<int32_t>(p.u8), 100); }},
        {"i8 with int32(i8) * 2", [&] { return clamp(Expr(p.i8), cast<int32_t>(p.i8) * 2, 100); }},
        {"i16 with int32(f32)", [&] { return clamp(Expr(p.i16), cast<int32_t>(p.f32), 100); }},
        {"i16 with max(int32(i8), 3)", [&] { return clamp(Expr(p.i16), max(cast<int32_t>(p.i8), 3), 100); }},
        // Halide 14 turns this difference into a sum (a bug); an unsigned difference may be
        // negative, so Halo refuses it.
        {"u16 with uint32(u8) - uint32(u8)", [&] { return clamp(Expr(p.u16), cast<uint32_t>(p.u8) - cast<uint32_t>(p.u8), 100); }},
    };
    for (const auto &[name, make] : refused) {
        INFO(name);
        CHECK(halo_test::compile_error_of([&] { (void)make(); }).find("is not representable in") != std::string::npos);
    }
    // A signed difference of half-width operands fits.
    CHECK(clamp(Expr(p.i16), cast<int32_t>(p.i8) - cast<int32_t>(p.i8), 100).type() == Int(16));
    Buffer<int16_t> a = inputs<int16_t>(13);
    Buffer<int8_t> lo(N);
    for (int i = 0; i < N; i++) lo(i) = int8_t(i * 7 - 100);
    check_values<int16_t>("clamp(int16, int32(int8) * 2 bound, 2000)", [&](Var xx) { return clamp(a(xx), cast<int32_t>(lo(xx)) * 2, 2000); },
                          [&](int i) { return int16_t(std::max(std::min(int(a(i)), 2000), 2 * int(lo(i)))); });  // max(min(x, hi), lo)
}

TEST_CASE("coercion: bitwise operands must be both signed or both unsigned") {
    Params p;
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.u8) & Expr(p.i8)); }) ==
          "Bitwise operator & of uint8 and int8: the operands must be both signed or both unsigned; cast one of them "
          "to the other's type");
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.i32) | Expr(p.u16)); }).find("Bitwise operator | of int32 and uint16") == 0);
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.f32) ^ Expr(p.i32)); }) ==
          "Bitwise operator ^: the first operand has floating-point type float32; cast it to an integer type first");
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.i32) & Expr(p.i32)); }) == "");
}

TEST_CASE("coercion: bitwise operators widen the narrower operand") {
    Params p;
    CHECK((Expr(p.u8) | Expr(p.u16)).type() == UInt(16));
    CHECK((Expr(p.i8) ^ Expr(p.i32)).type() == Int(32));
    CHECK((Expr(p.b) & Expr(p.u8)).type() == UInt(8));
    Buffer<int8_t> a = inputs<int8_t>(14);
    Buffer<int16_t> b = inputs<int16_t>(15);
    check_values<int16_t>("int8 ^ int16 (sign-extends)", [&](Var x) { return a(x) ^ b(x); },
                          [&](int i) { return int16_t(int16_t(a(i)) ^ b(i)); });
}

TEST_CASE("coercion: bitwise with a C++ int literal has the Expr's type") {
    Params p;
    CHECK((Expr(p.u8) & 0xF0).type() == UInt(8));
    CHECK((0x0F | Expr(p.u16)).type() == UInt(16));
    CHECK((Expr(p.i16) ^ -1).type() == Int(16));
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.u8) & 256); }).find("Integer constant 256 would be implicitly coerced to type uint8") == 0);
    Buffer<uint8_t> a = inputs<uint8_t>(16);
    check_values<uint8_t>("uint8 & 0xF0 | 3", [&](Var x) { return (a(x) & 0xF0) | 3; }, [&](int i) { return uint8_t((a(i) & 0xF0) | 3); });
}

TEST_CASE("coercion: a shift has its first argument's signedness and the wider width, as in Halide 14") {
    Params p;
    // Each checked against Halide 14 (its match_bits widens both operands).
    CHECK((Expr(p.u8) << Expr(p.i32)).type() == UInt(32));
    CHECK((Expr(p.u8) << Expr(p.u16)).type() == UInt(16));
    CHECK((Expr(p.i8) >> Expr(p.u32)).type() == Int(32));
    CHECK((Expr(p.i16) >> Expr(p.u8)).type() == Int(16));
    CHECK((Expr(p.u16) << Expr(p.u8)).type() == UInt(16));
    CHECK((Expr(p.u8) << 3).type() == UInt(8));
    CHECK((Expr(p.i64) >> 40).type() == Int(64));
    CHECK(halo_test::compile_error_of([&] { (void)(Expr(p.f32) << 1); }) ==
          "Bitwise operator <<: the first operand has floating-point type float32; cast it to an integer type first");
    Buffer<uint8_t> a = inputs<uint8_t>(17);
    Buffer<int32_t> s(N);
    for (int i = 0; i < N; i++) s(i) = i % 10;
    // 255 << 4 is 4080: the shift is in 32 bits, as in Halide (not 240).
    check_values<uint32_t>("uint8 << int32", [&](Var x) { return a(x) << s(x); },
                           [&](int i) { return uint32_t(a(i)) << s(i); });
}

TEST_CASE("coercion: compound assignment casts the right side to the left side's type") {
    Params p;
    Expr e = Expr(p.u8);
    e += Expr(p.f32);
    CHECK(e.type() == UInt(8));
    CHECK(is_cast_to(e.as<Add>()->b, UInt(8)));
    Expr g = Expr(p.i32);
    g *= Expr(p.i64);
    CHECK(g.type() == Int(32));
    Buffer<uint8_t> a = inputs<uint8_t>(18);
    Buffer<float> f(N);
    for (int i = 0; i < N; i++) f(i) = 0.5f * float(i);
    check_values<uint8_t>("uint8 += float", [&](Var x) {
        Expr acc = a(x);
        acc += f(x);
        return acc;
    }, [&](int i) { return uint8_t(a(i) + uint8_t(f(i))); });
    // Mistakes are user errors, not crashes or internal errors.
    Expr undefined;
    std::string msg = halo_test::compile_error_of([&] { undefined += Expr(p.i32); });
    CHECK(msg.find("operator+= with an undefined Expr") != std::string::npos);
    Expr vec = Ramp::make(Expr(p.i32), 1, 4), scalar = Expr(p.i32);
    scalar += vec;  // a scalar left side is broadcast
    CHECK(scalar.type() == Int(32).with_lanes(4));
    Expr eight = Ramp::make(Expr(p.i32), 1, 8);
    msg = halo_test::compile_error_of([&] { vec -= eight; });
    CHECK(msg.find("4 lanes with a vector of 8 lanes") != std::string::npos);
}

TEST_CASE("coercion: clamp of a float takes float bounds that round to its type") {
    Params p;
    CHECK(clamp(Expr(p.f32), 0.1, 0.9).type() == Float(32));
    CHECK(halo_test::compile_error_of([&] { (void)clamp(Expr(p.i32), 0.5, 10); }).find("bound 0.5 is not representable") !=
          std::string::npos);
}

TEST_CASE("coercion: constant_exterior's integer value takes the image's type, wrapping as Halide's does") {
    Buffer<uint8_t> img(std::vector<int>{8}, "img");
    for (int i = 0; i < 8; i++) img(i) = uint8_t(i * 30);
    Func inside = BoundaryConditions::constant_exterior(img, 200);
    CHECK(inside.output_type() == UInt(8));
    check_values<uint8_t>("constant_exterior(img, 200)", [&](Var x) { return inside(x - 10); },
                          [&](int i) { return i - 10 >= 0 && i - 10 < 8 ? uint8_t((i - 10) * 30) : uint8_t(200); });
    // 300 becomes uint8 44, as Halide's select casts it.
    Func wrapped = BoundaryConditions::constant_exterior(img, 300);
    check_values<uint8_t>("constant_exterior(img, 300)", [&](Var x) { return wrapped(x - 10); },
                          [&](int i) { return i - 10 >= 0 && i - 10 < 8 ? uint8_t((i - 10) * 30) : uint8_t(44); });
}

TEST_CASE("coercion: coordinates of calls are int32, 8- and 16-bit integers are cast implicitly, others refused") {
    // As Halide 14 (checked against it): g(cast<uint16_t>(x)) is g(int32(...)), while a uint32,
    // an int64 or a float argument is a CompileError asking for an explicit cast. Halo cast a
    // uint32 implicitly, then could not bound abs(x - 50) (a uint32) and blamed the data.
    Var x("x");
    Buffer<int> in = halo_test::random_image<int>({256}, 8, -9, 9);
    in.set_min(-128);  // int8(x) may take any int8 value
    Func g("g");
    g(x) = x * 2;
    g.compute_root();
    check_values<int>("g(uint16(x)) + in(int8(x))", [&](Var v) { return g(cast<uint16_t>(v + 70000)) + in(cast<int8_t>(v)); },
                      [&](int i) { return int(uint16_t(i + 70000)) * 2 + in(int(int8_t(i))); });
    check_values<int>("g(int32(abs(x - 20)))", [&](Var v) { return g(cast<int>(abs(v - 20))); },
                      [](int i) { return std::abs(i - 20) * 2; });
    ImageParam im(Int(32), 1, "im");
    for (Type t : {UInt(32), Int(64), UInt(64), Float(32)}) {
        INFO(t);
        std::string msg = compile_error_of([&] { (void)g(cast(t, x)); });
        CHECK(contains(msg, "Func 'g' called with an Expr of type " + t.to_string() + " as argument 0"));
        CHECK(contains(msg, t.is_float() ? "coordinates are integers (use cast<int>())" : "use an explicit cast"));
        CHECK(contains(compile_error_of([&] { (void)in(cast(t, x)); }), "Buffer '"));
        CHECK(contains(compile_error_of([&] { (void)im(cast(t, x)); }), "ImageParam 'im' called with an Expr of type"));
    }
    CHECK(contains(compile_error_of([&] { (void)g(abs(x - 50)); }), "of type uint32 as argument 0"));
}
