// Input bounds inference (Halide's infer_input_bounds): inputs sized from what a realization
// reads, before anything runs.
#include "TestUtil.h"

using namespace halo;

namespace {

std::vector<int> mins_of(const Buffer<> &b) {
    std::vector<int> v;
    for (int d = 0; d < b.dimensions(); d++) v.push_back(b.dim(d).min());
    return v;
}

std::vector<int> extents_of(const Buffer<> &b) {
    std::vector<int> v;
    for (int d = 0; d < b.dimensions(); d++) v.push_back(b.dim(d).extent());
    return v;
}

}  // namespace

TEST_CASE("a stencil's input covers its halo, under a tiled schedule too") {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func bx("bx"), by("by");
    bx(x, y) = in(x - 1, y) + in(x, y) + in(x + 2, y);
    by(x, y) = bx(x, y - 2) + bx(x, y + 1);
    by.tile(x, y, xo, yo, xi, yi, 8, 8);
    bx.compute_at(by, xo);
    by.infer_input_bounds({20, 13});
    Buffer<> b = in.get();
    REQUIRE(b.defined());
    CHECK(mins_of(b) == std::vector<int>{-1, -2});
    // ShiftInwards tiles stay inside [0, 20) x [0, 13): the reads are [-1, 21] x [-2, 13].
    CHECK(extents_of(b) == std::vector<int>{23, 16});
    Buffer<float> filled(23, 16);
    filled.set_min({-1, -2});
    filled.for_each_value([](const std::vector<int> &p) { return float(p[0] * 3 - p[1]); });
    in.set(filled);
    Buffer<float> out(20, 13);
    halo_test::check_against_reference(by, out);
}

TEST_CASE("an input read through a boundary condition is given the output's size") {
    ImageParam in(UInt(8), 3, "in");
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func f("f");
    f(c, x, y) = clamped(c, x - 3, y + 3) + clamped(c, x + 3, y - 3);
    f.infer_input_bounds({3, 17, 9});
    Buffer<> b = in.get();
    REQUIRE(b.defined());
    CHECK(mins_of(b) == std::vector<int>{0, 0, 0});
    CHECK(extents_of(b) == std::vector<int>{3, 17, 9});
    Buffer<uint8_t> out(3, 17, 9);
    halo_test::check_against_reference(f, out);
}

TEST_CASE("inputs already bound keep their buffers, every unbound one is sized") {
    ImageParam a(Int(16), 1, "a"), b(Int(16), 1, "b");
    Param<int> shift("shift", 5);
    Var x("x");
    Func f("f");
    f(x) = a(x * 2) + b(x + shift);
    Buffer<int16_t> mine(100);
    a.set(mine);
    f.infer_input_bounds({10});
    CHECK(a.get().dim(0).extent() == 100);  // untouched
    REQUIRE(b.get().defined());
    CHECK(b.get().dim(0).min() == 5);  // the Param's value is used
    CHECK(b.get().dim(0).extent() == 10);
    Buffer<int16_t> out(10);
    f.realize(out);  // runs: every input covers what it reads
}

TEST_CASE("a pipeline of several outputs sizes its inputs for all of them") {
    ImageParam in(Float(32), 1, "in");
    Var x("x");
    Func f("f"), g("g");
    f(x) = in(x - 4);
    g(x) = in(x + 7) + f(x);
    Pipeline p({f, g});
    p.infer_input_bounds({12});
    Buffer<> b = in.get();
    REQUIRE(b.defined());
    CHECK(b.dim(0).min() == -4);
    CHECK(b.dim(0).extent() == 12 + 11);
}

TEST_CASE("infer_input_bounds names what it cannot do") {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y);
    CHECK_THROWS_WITH(f.infer_input_bounds({4}), doctest::Contains("'f' has 2 dimensions but was given 1 sizes"));
    Func g("g");
    CHECK_THROWS_WITH(g.infer_input_bounds({4}), doctest::Contains("'g' has no definition"));
}

// Regions whose ends are shifts and bitwise operations, and the lets the bounds checks name
// large ends with (camera_pipe's schedule: "depends on ''", with no name at all).
TEST_CASE("infer_input_bounds evaluates shifts, bitwise operations and lets in the regions") {
    ImageParam in(Int(32), 1, "in");
    Var x("x"), xo("xo"), xi("xi");
    Func a("a"), b("b"), out("out");
    a(x) = in((x >> 1) + 3) + in((x & 7) - 2) + in((x >> 2) << 1);
    b(x) = a(x - 1) + a(x + 2) + a(x << 1);
    out(x) = b(x) + b(x + 5);
    out.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    b.compute_at(out, xo).vectorize(x, 4);
    a.compute_at(out, xo);
    out.infer_input_bounds({20});
    Buffer<int> got = in.get();
    REQUIRE(got.defined());
    // Every point the algorithm reads lies in the inferred region.
    auto mark = [&](int x) {
        CHECK(x >= got.dim(0).min());
        CHECK(x <= got.dim(0).max());
    };
    for (int o = 0; o < 20; o++) {
        for (int bx : {o, o + 5}) {
            for (int ax : {bx - 1, bx + 2, bx * 2}) {
                mark((ax >> 1) + 3);
                mark((ax & 7) - 2);
                mark((ax >> 2) << 1);
            }
        }
    }
    for (int i = got.dim(0).min(); i <= got.dim(0).max(); i++) got(i) = i * 3 - 7;
    halo_test::check_against_reference(out, Buffer<int>(20));
}

// A region that shrinks by a point per round from the first guess (the output's extent) is
// found from an empty input instead, as Halide does (it settles at once there); one that grows
// with the input's own size never settles, and says so.
TEST_CASE("an input region that depends on the input's own size settles or is refused") {
    Var x("x");
    ImageParam shrinking(Int(32), 1, "shrinking");
    Func f("f");
    f(x) = shrinking(clamp(x, 1, shrinking.width() - 1)) + 1;
    f.infer_input_bounds({16});
    REQUIRE(shrinking.get().defined());
    CHECK(mins_of(shrinking.get()) == std::vector<int>{1});  // Halide 14: min 1, extent 1
    CHECK(extents_of(shrinking.get()) == std::vector<int>{1});
    Buffer<int> out(16);
    halo_test::check_against_reference(f, out);

    ImageParam growing(Int(32), 1, "growing");
    Func g("g");
    g(x) = growing(x * growing.width());
    CHECK_THROWS_WITH(g.infer_input_bounds({16}),
                      doctest::Contains("the region read from input 'growing' does not settle (it depends on the "
                                        "input's own size"));
}

TEST_CASE("infer_input_bounds gives an input the bounds its constraints fix") {
    ImageParam in(Int(32), 1, "in");
    Func f("f");
    Var x("x");
    f(x) = in(x);
    in.dim(0).set_bounds(-3, 20);
    f.infer_input_bounds({5});
    Buffer<> b = in.get();
    REQUIRE(b.defined());
    CHECK(b.dim(0).min() == -3);
    CHECK(b.dim(0).extent() == 20);
    Buffer<int> out = f.realize({5});  // meets the constraint
    CHECK(out(4) == 0);
}

TEST_CASE("infer_input_bounds with only a min constrained still covers the last point read") {
    ImageParam in(Int(32), 1, "in");
    Func f("f");
    Var x("x");
    f(x) = in(x + 5);
    in.dim(0).set_min(0);
    f.infer_input_bounds({10});
    Buffer<> b = in.get();
    REQUIRE(b.defined());
    CHECK(b.dim(0).min() == 0);
    CHECK(b.dim(0).extent() == 15);
    Buffer<int> out = f.realize({10});
    CHECK(out(9) == 0);
}

TEST_CASE("infer_input_bounds evaluates a float min or max of a NaN Param as the generated code does") {
    // min(p, 100) is p < 100 ? p : 100: 100 for p NaN, and max(-50, p) is -50 < p ? p : -50:
    // -50, so the input is read from 100 and -50 on, as the realization does.
    for (bool use_max : {false, true}) {
        ImageParam in(Int(32), 1, "in");
        Param<float> p("p");
        p.set(std::numeric_limits<float>::quiet_NaN());
        Var x("x");
        Func f("f");
        Expr offset = use_max ? cast<int>(max(-50.0f, p)) : cast<int>(min(p, 100.0f));
        f(x) = in(x + offset);
        f.infer_input_bounds({4});
        Buffer<> b = in.get();
        REQUIRE(b.defined());
        INFO((use_max ? "max" : "min"));
        CHECK(mins_of(b) == std::vector<int>{use_max ? -50 : 100});
        CHECK(extents_of(b) == std::vector<int>{4});
        Buffer<int> filled(4);
        filled.set_min({use_max ? -50 : 100});
        filled.for_each_value([](const std::vector<int> &c) { return c[0] * 3; });
        in.set(filled);
        Buffer<int> out = f.realize({4});
        for (int i = 0; i < 4; i++) CHECK(out(i) == (i + (use_max ? -50 : 100)) * 3);
    }
}
