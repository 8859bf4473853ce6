// A sixth batch of ports of programs from Halide's test/correctness directory (one TEST_CASE per
// program, or per part of one, each naming the Halide test it follows). The behaviour is
// rewritten, not copied: every result is compared point by point against plain C++ loops, at
// sizes that splits and vectors do not divide and over non-zero mins where that is natural.
// Where the Halide program observes something through a custom lowering pass or a custom error
// handler (which Halo lacks), the port checks the values, or that realize throws.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"

namespace Halide = halo;

using namespace Halide;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {

uint32_t mix(uint32_t v) { return halo_compat::hash32(v * 2654435761u + 12345u); }

// Memory for a W x H x 3 image whose channels are interleaved with x_stride elements per pixel
// (x_stride >= 3; the extra elements per pixel are not part of the image), wrapped as a Buffer
// with mins (x_min, y_min, 0).
template <typename T>
struct InterleavedImage {
    std::vector<T> mem;
    Buffer<T> buf;
    InterleavedImage(int x_min, int y_min, int w, int h, int x_stride, T fill) : mem(size_t(w) * h * x_stride, fill) {
        halo_dimension_t shape[3] = {{x_min, w, x_stride, 0}, {y_min, h, w * x_stride, 0}, {0, 3, 1, 0}};
        buf = Buffer<T>(mem.data(), 3, shape);
    }
    // The element at pixel (x, y) (zero-based), slot c < x_stride.
    T &slot(int x, int y, int c, int w, int x_stride) { return mem[(size_t(y) * w + x) * x_stride + c]; }
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Follows Halide's interleave_rgb.cpp (test_interleave): a planar root stage written into an
// output whose channels are interleaved (channel stride 1, x stride 3 or 4), vectorized in x
// with GuardWithIf and unrolled in c. The slot past the three channels (x stride 4) must keep
// its old value.
TEST_CASE_TEMPLATE("interleave_rgb: a planar stage stored into an interleaved output", T, uint8_t,
                   uint16_t, uint32_t) {
    for (int x_stride : {3, 4}) {
        CAPTURE(x_stride);
        Var x("x"), y("y"), c("c");
        Func input("input"), interleaved("interleaved");
        input(x, y, c) = cast<T>(x * 3 + y * 5 + c);
        interleaved(x, y, c) = input(x, y, c);
        input.compute_root();
        interleaved.reorder(c, x, y).bound(c, 0, 3);
        interleaved.output_buffer().dim(0).set_stride(x_stride).dim(2).set_stride(1).set_extent(3);
        interleaved.vectorize(x, 32, TailStrategy::GuardWithIf).unroll(c);

        const int W = 255, H = 128, XMIN = 0, YMIN = 3;
        InterleavedImage<T> img(XMIN, YMIN, W, H, x_stride, T(7));
        REQUIRE_NOTHROW(interleaved.realize(img.buf));
        int bad = 0;
        for (int yy = 0; yy < H; yy++) {
            for (int xx = 0; xx < W; xx++) {
                for (int cc = 0; cc < x_stride; cc++) {
                    T want = cc < 3 ? T((xx + XMIN) * 3 + (yy + YMIN) * 5 + cc) : T(7);
                    T got = img.slot(xx, yy, cc, W, x_stride);
                    if (got != want) {
                        if (bad == 0) {
                            MESSAGE("out(" << xx + XMIN << ", " << yy + YMIN << ", " << cc << ") = " << +got
                                           << " instead of " << +want);
                        }
                        bad++;
                    }
                }
            }
        }
        CHECK(bad == 0);
    }
}

// Follows Halide's interleave_rgb.cpp (test_deinterleave): an input whose channels are
// interleaved (constrained to x stride 3 or 4, channel stride 1, three channels from 0) copied
// into a planar output, vectorized in x with GuardWithIf and unrolled in c.
TEST_CASE_TEMPLATE("interleave_rgb: an interleaved input copied into a planar output", T, uint8_t, uint16_t,
                   uint32_t) {
    for (int x_stride : {3, 4}) {
        CAPTURE(x_stride);
        Var x("x"), y("y"), c("c");
        ImageParam input(type_of<T>(), 3, "input");
        input.dim(0).set_stride(x_stride);
        input.dim(2).set_min(0).set_extent(3).set_stride(1);
        Func deinterleaved("deinterleaved");
        deinterleaved(x, y, c) = input(x, y, c);
        deinterleaved.reorder(c, x, y).bound(c, 0, 3);
        deinterleaved.vectorize(x, 32, TailStrategy::GuardWithIf).unroll(c);

        const int W = 255, H = 128;
        InterleavedImage<T> img(0, 0, W, H, x_stride, T(0));
        for (size_t i = 0; i < img.mem.size(); i++) img.mem[i] = T(mix(uint32_t(i)));
        input.set(img.buf);
        Buffer<T> out(W, H, 3);
        REQUIRE_NOTHROW(deinterleaved.realize(out));
        CHECK(mismatches<T>(out, [&](const std::vector<int> &p) { return img.slot(p[0], p[1], p[2], W, x_stride); }) ==
              0);
    }
}

// Follows Halide's hoist_loop_invariant_if_statements.cpp: a producer and its consumer both
// select between a value and undef on a bool Param, the producer computed per consumer x. The
// original checks (with a custom lowering pass) that the if on the Param is lifted out of the
// loops; here the values are checked with the Param true.
TEST_CASE("hoist_loop_invariant_if_statements: select against undef on a bool Param in producer and consumer") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    Param<bool> p("p");
    f(x, y) = select(p, x + y, undef<int>());
    g(x, y) = select(p, f(x, y), undef<int>());
    f.compute_at(g, x);
    p.set(true);
    Buffer<int> out;
    REQUIRE_NOTHROW(out = g.realize({1001, 999}));
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + c[1]; }) == 0);
}

// Follows Halide's hoist_loop_invariant_if_statements.cpp (the check of the original): no if on
// the Param is left inside a loop of the lowered statement (lower/HoistInvariantIfs.h lifts it
// out of both loops, as Halide's trim_no_ops does).
TEST_CASE("hoist_loop_invariant_if_statements: the if on the Param is lifted out of the loops") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    Param<bool> p("p");
    f(x, y) = select(p, x + y, undef<int>());
    g(x, y) = select(p, f(x, y), undef<int>());
    f.compute_at(g, x);
    std::string stmt = g.lowered_stmt();
    CHECK(stmt.find("if (p)") != std::string::npos);
    CHECK_FALSE(halo_compat::has_if_inside_loop(stmt));
    p.set(true);
    Buffer<int> out = g.realize({64, 33});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + c[1]; }) == 0);
}

// Follows Halide's parameter_constraints.cpp (explicit set_range): a float Param limited to
// [1, 10] divides x in a gather from a root stage; inside the range the pipeline runs, with 0
// it must fail before anything runs (the original counts calls to a custom error handler).
// (Bounds inference divides by the Param's declared range, [1, 10], corner by corner.)
TEST_CASE("parameter_constraints: a Param given a range with set_range") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    Param<float> p("p");
    Buffer<float> input(100, 100);
    input.for_each_element([&](const std::vector<int> &c) { input(c) = float(mix(c[0] + 100 * c[1]) % 1000); });
    p.set_range(1, 10);
    g(x, y) = input(x, y) + 1.0f;
    g.compute_root();
    f(x, y) = g(cast<int>(x / p), y);

    p.set(2);
    Buffer<float> out;
    REQUIRE_NOTHROW(out = f.realize({100, 100}));
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return input(c[0] / 2, c[1]) + 1.0f; }) == 0);

    p.set(0);
    CHECK(thrown_message([&] { f.realize({100, 100}); }).find("Param 'p' is 0, smaller than its smallest value 1") !=
          std::string::npos);

    p.set(10);
    REQUIRE_NOTHROW(out = f.realize({97, 100}));
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return input(c[0] / 10, c[1]) + 1.0f; }) == 0);
}

// Follows Halide's parameter_constraints.cpp (constructor arguments): the same with the value 2
// and the range [1, 10] given when the Param is made.
TEST_CASE("parameter_constraints: a Param given a value and a range by its constructor") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    Param<float> p("p", 2, 1, 10);
    Buffer<float> input(100, 100);
    input.for_each_element([&](const std::vector<int> &c) { input(c) = float(c[0] * 7 - c[1]); });
    g(x, y) = input(x, y) + 1.0f;
    g.compute_root();
    f(x, y) = g(cast<int>(x / p), y);

    Buffer<float> out;
    REQUIRE_NOTHROW(out = f.realize({100, 100}));
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return input(c[0] / 2, c[1]) + 1.0f; }) == 0);

    p.set(0);
    CHECK(thrown_message([&] { f.realize({100, 100}); }).find("Param 'p' is 0, smaller than its smallest value 1") !=
          std::string::npos);
}

// Follows Halide's parameter_constraints.cpp (the range check alone): where the index does not
// divide by the Param, a Param with a range set by set_range or by its constructor runs inside
// the range and fails before anything runs outside it.
TEST_CASE("parameter_constraints: the range check of a Param, on an index Halo can bound") {
    Var x("x"), y("y");
    Buffer<float> input(100, 100);
    input.for_each_element([&](const std::vector<int> &c) { input(c) = float(c[0] - 2 * c[1]); });
    Param<float> p1("p1");
    p1.set_range(1, 10);
    Param<float> p2("p2", 2, 1, 10);
    for (int which = 0; which < 2; which++) {
        CAPTURE(which);
        Param<float> &p = which == 0 ? p1 : p2;
        if (which == 0) p.set(2);
        Func f("f"), g("g");
        g(x, y) = input(x, y) + 1.0f;
        g.compute_root();
        f(x, y) = g(x, y) * p;
        Buffer<float> out;
        REQUIRE_NOTHROW(out = f.realize({100, 100}));
        CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return (input(c) + 1.0f) * 2.0f; }) == 0);
        p.set(0);
        CHECK(thrown_message([&] { f.realize({100, 100}); }).find("is 0, smaller than its smallest value 1") !=
              std::string::npos);
        p.set(10.5f);
        CHECK(thrown_message([&] { f.realize({100, 100}); }).find("is 10.5, larger than its largest value 10") !=
              std::string::npos);
        p.set(10);
        REQUIRE_NOTHROW(out = f.realize({100, 100}));
        CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return (input(c) + 1.0f) * 10.0f; }) == 0);
    }
}

// Follows Halide's constant_type.cpp: a Func of cast<T>(1) has type T, and adding the int 1 to
// a call of a buffer of T (on either side) keeps the type T.
TEST_CASE_TEMPLATE("constant_type: integer literals take the type of the other operand", T, uint8_t, uint16_t,
                   uint32_t, int8_t, int16_t, int32_t, float, double) {
    Type t = type_of<T>();
    Func f("f");
    Var x("x");
    f(x) = cast<T>(1);
    Buffer<T> im = f.realize({10});
    CHECK(mismatches<T>(im, [](const std::vector<int> &) { return T(1); }) == 0);
    CHECK(f.value().type() == t);
    Expr add_one = im(_) + 1;
    CHECK(add_one.type() == t);
    Expr one_add = 1 + im(_);
    CHECK(one_add.type() == t);

    // And the values of those sums, realized.
    Func g("g"), h("h");
    g(_) = im(_) + 1;
    h(_) = 1 + im(_);
    Buffer<T> bg = g.realize({10}), bh = h.realize({10});
    CHECK(mismatches<T>(bg, [](const std::vector<int> &) { return T(2); }) == 0);
    CHECK(mismatches<T>(bh, [](const std::vector<int> &) { return T(2); }) == 0);
}

// Follows Halide's param_map.cpp: values of Params and an ImageParam's buffer given per realize
// through a ParamMap (built with set, or as a braced list) instead of those set on the params.
// (The original's last step, infer_input_bounds into a buffer named in a ParamMap, has no Halo
// counterpart: Halo's infer_input_bounds takes only the sizes.)
TEST_CASE("param_map: Params and an ImageParam given per realize through a ParamMap") {
    Param<int32_t> p_int("p_int", 42);
    Param<float> p_float("p_float", 1.0f);
    ImageParam p_img(UInt(8), 2, "p_img");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = p_img(x, y) + cast<uint8_t>(p_int / p_float);

    Buffer<uint8_t> in1(10, 10), in2(10, 10);
    for (int i = 0; i < 10; i++) {
        for (int j = 0; j < 10; j++) {
            in1(i, j) = uint8_t(i + j * 10);
            in2(i, j) = uint8_t(i * 10 + j);
        }
    }
    p_img.set(in1);
    Buffer<uint8_t> r1 = f.realize({10, 10});

    ParamMap params;
    params.set(p_int, 22);
    params.set(p_float, 2.0f);
    params.set(p_img, in2);
    Buffer<uint8_t> r2 = f.realize({10, 10}, params);
    Buffer<uint8_t> r3 = f.realize({10, 10}, {{p_int, 12}});
    Buffer<uint8_t> r4 = f.realize({10, 10}, {{p_int, 16}, {p_img, in2}});
    // The params themselves are unchanged by the maps.
    Buffer<uint8_t> r5 = f.realize({10, 10});

    CHECK(mismatches<uint8_t>(r1, [](const std::vector<int> &c) { return uint8_t(c[0] + c[1] * 10 + 42); }) == 0);
    CHECK(mismatches<uint8_t>(r2, [](const std::vector<int> &c) { return uint8_t(c[0] * 10 + c[1] + 11); }) == 0);
    CHECK(mismatches<uint8_t>(r3, [](const std::vector<int> &c) { return uint8_t(c[0] + c[1] * 10 + 12); }) == 0);
    CHECK(mismatches<uint8_t>(r4, [](const std::vector<int> &c) { return uint8_t(c[0] * 10 + c[1] + 16); }) == 0);
    CHECK(mismatches<uint8_t>(r5, [](const std::vector<int> &c) { return uint8_t(c[0] + c[1] * 10 + 42); }) == 0);
}
