// Bounds of narrow integer arithmetic (int8, int16 and unsigned types, which wrap): exact when
// the arithmetic provably cannot wrap, the type's whole range otherwise. An input read through
// such arithmetic then needs only the values the index can take.
#include "TestUtil.h"

#include "lower/Bounds.h"
#include "lower/Simplify.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace halo;
using halo_test::runtime_error_of;

namespace {

// def realized over [out_min, out_min + n), compiled scalar and vectorized, equals the
// reference evaluator.
void check_realizes(const std::function<Expr(Var)> &def, int out_min, int n) {
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func f(vec ? "f_vec" : "f");
        f(x) = def(x);
        if (vec) f.vectorize(x, 16);
        Buffer<> out(f.output_type(), {n});
        out.set_min({out_min});
        INFO((vec ? "vectorized" : "scalar"));
        halo_test::check_against_reference(f, out);
    }
}

Buffer<uint8_t> ramp_input(int size, int min = 0) {
    Buffer<uint8_t> b(std::vector<int>{size}, "input");
    b.set_min({min});
    b.for_each_value([](const std::vector<int> &c) { return uint8_t(c[0] * 7 + 3); });
    return b;
}

}  // namespace

TEST_CASE("an index computed in int16 from a clamped range needs only that range of the input") {
    Buffer<uint8_t> input = ramp_input(20);  // the index takes [1, 19]
    check_realizes([&](Var x) { return input(cast<int32_t>(cast<int16_t>(clamp(x, 0, 9)) * 2 + 1)); }, -5, 40);
}

TEST_CASE("an index computed in uint8 from a clamped range needs only that range of the input") {
    Buffer<uint8_t> input = ramp_input(16);  // the index takes [5, 15]
    check_realizes([&](Var x) { return input(cast<int32_t>(cast<uint8_t>(clamp(x, 0, 10)) + 5)); }, -3, 30);
    // uint16 subtraction that stays non-negative: [100, 110] - [0, 10]
    Buffer<uint8_t> wide = ramp_input(121);  // interval arithmetic: [80, 120]
    check_realizes([&](Var x) {
        Expr i = cast<uint16_t>(clamp(x, 0, 10));
        return wide(cast<int32_t>((i + 100) - i * 2 + i));
    }, 0, 20);
}

TEST_CASE("a float cast to uint8 or int16 indexes only that type's range: float-to-integer casts saturate") {
    // A lookup table read at uint8(f) of an unbounded float needs entries 0 to 255 (the cast
    // saturates), not an unbounded region (this was refused: "cannot bound ... depends on data").
    Var x("x"), i("i");
    Buffer<float> data = halo_test::random_image<float>({50}, 9, -1000, 1000);
    Func lut("lut"), g("g"), h("h");
    lut(i) = i * 3 - 7;
    g(x) = lut(cast<int32_t>(cast<uint8_t>(data(x) * 0.5f)));
    lut.compute_root();
    halo_test::check_against_reference(g, Buffer<int>(50));
    Func lut16("lut16");
    lut16(i) = i % 1000;
    h(x) = lut16(cast<int32_t>(cast<int16_t>(sqrt(abs(data(x)))) - 3));  // [-32771, 32764]
    lut16.compute_root();
    halo_test::check_against_reference(h, Buffer<int>(50));
    // To 32 bits the type's range bounds nothing useful: still the clear error.
    Func k("k");
    k(x) = lut(cast<int32_t>(data(x)));
    std::string err = halo_test::compile_error_of([&] { k.realize({10}); });
    CHECK(err.find("cannot bound") != std::string::npos);
}

TEST_CASE("narrow arithmetic that may wrap needs the type's whole range") {
    // int8 [0, 100] * 2 may wrap: the index is anywhere in [-128, 127].
    Var x("x");
    Buffer<uint8_t> small = ramp_input(201);
    Func f("f");
    f(x) = small(cast<int32_t>(cast<int8_t>(clamp(x, 0, 100)) * 2));
    std::string msg = runtime_error_of([&] { f.realize({101}); });
    INFO(msg);
    CHECK(msg.find("input 'input' covers dimension 0 in [0, 200]") == 0);
    CHECK(msg.find("needs [-128, 127]") != std::string::npos);
    // With the whole range present, the wrapped values read the right elements.
    Buffer<uint8_t> full = ramp_input(256, -128);
    check_realizes([&](Var xx) { return full(cast<int32_t>(cast<int8_t>(clamp(xx, 0, 100)) * 2)); }, 0, 101);
}

TEST_CASE("narrow arithmetic on a run-time value needs the type's whole range") {
    Param<int32_t> p("p", 9);
    Buffer<uint8_t> small = ramp_input(20);
    Var x("x");
    Func f("f");
    f(x) = small(cast<int32_t>(cast<int16_t>(clamp(x, 0, p)) + 1));
    std::string msg = runtime_error_of([&] { f.realize({10}); });
    CHECK(msg.find("needs [-32768, 32767]") != std::string::npos);
    Buffer<uint8_t> full = ramp_input(65536, -32768);
    check_realizes([&](Var xx) { return full(cast<int32_t>(cast<int16_t>(clamp(xx, 0, p)) + 1)); }, 0, 20);
}

TEST_CASE("abs of the most negative narrow value is within the bounds") {
    // abs(int8 in [-128, 5]) is in [0, 128]: 128 does not fit int8, so the bound is computed wider.
    Buffer<uint8_t> input = ramp_input(129);
    check_realizes([&](Var x) { return input(cast<int32_t>(abs(cast<int8_t>(clamp(x, -128, 5))))); }, -140, 160);
    Buffer<uint8_t> small = ramp_input(100);
    Var x("x");
    Func f("f");
    f(x) = small(cast<int32_t>(abs(cast<int8_t>(clamp(x, -128, 5)))));
    std::string msg = runtime_error_of([&] { f.realize({10}); });
    CHECK(msg.find("needs [0, 128]") != std::string::npos);
}

TEST_CASE("the bounds of x % 0 include 0") {
    // x % 0 is 0; the interval [0, |b| - 1] was [0, -1] for b == 0.
    Buffer<uint8_t> input = ramp_input(5);
    Param<int32_t> zero("zero", 0);
    check_realizes([&](Var x) { return input(x % 0 + x % zero + clamp(x, 0, 4)); }, 0, 20);
    Interval i = bounds_of_expr_in_scope(Mod::make(Variable::make(Int(32), "v"), Expr(0)), {{"v", Interval(Expr(0), Expr(10))}});
    CHECK(is_zero(simplify(i.min)));
    CHECK(is_zero(simplify(i.max)));
}
