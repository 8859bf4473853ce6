// An eighth batch of ports of programs from Halide's test/correctness and test/error directories
// (one TEST_CASE per program, or per part of one, each naming the Halide test it follows). The
// behaviour is rewritten, not copied: every result is compared point by point against plain C++
// loops, and every program Halide refuses must be refused by Halo with a message that names
// what is wrong.
// Ported elsewhere: Func(Type, dimensions, name) (error/func_expr_dim_mismatch,
// func_expr_type_mismatch, func_tuple_update_types_mismatch: compat_typed_func.cpp) and
// bound_storage (bad_bound_storage: compat_bound_storage.cpp).
// Not ported (Halo has no such API): Target::CheckUnsafePromises (broken_promise), TailStrategy::RoundUpAndBlend
// (round_up_and_blend_race), Target::StrictFloat (strict_float's target variants), Buffer::make_scalar and
// range-for over Buffer::dim(d) (for_each_element: written with Buffer(std::vector<int>{}) and explicit
// loops). LoopLevel::set (correctness/deferred_loop_level) is ported in test_loop_level.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"

namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {

// A scratch path for the compile_to_* tests.
std::string tmp_path(const std::string &leaf) {
    const char *dir = std::getenv("TMPDIR");
    return std::string(dir && *dir ? dir : "/tmp") + "/halo_ports8_" + leaf;
}

}  // namespace

// =============================================================================================
// test/correctness
// =============================================================================================

// Follows Halide's explicit_inline_reductions.cpp: the explicit forms sum(r, e) and product(r, e)
// say which RDom each inline reduction runs over, so an expression may use RVars of other RDoms
// (reduced by an enclosing reduction): the pure definition is a product over r3 of two sums, the
// update (over r1) a product over r3 of a sum over r2. Integer overflow wraps, as in Halide.
TEST_CASE("explicit_inline_reductions: sum and product over a named RDom nest") {
    Func f("f");
    Var x("x"), y("y");
    RDom r1(0, 10, "r1"), r2(0, 10, "r2"), r3(0, 10, "r3");

    f(x, y) = product(r3, sum(r1, r1 + r3) + sum(r2, r2 * 2 + r3));
    f(r1, y) += product(r3, sum(r2, r1 + r2 + r3));

    Buffer<int> result = f.realize({12, 10});

    // Plain C++, in uint32 (wrapping) arithmetic.
    uint32_t pure = 1;
    for (uint32_t k3 = 0; k3 < 10; k3++) {
        uint32_t s1 = 0, s2 = 0;
        for (uint32_t k = 0; k < 10; k++) s1 += k + k3;
        for (uint32_t k = 0; k < 10; k++) s2 += k * 2 + k3;
        pure *= s1 + s2;
    }
    auto update = [](uint32_t k1) {
        uint32_t p = 1;
        for (uint32_t k3 = 0; k3 < 10; k3++) {
            uint32_t s = 0;
            for (uint32_t k2 = 0; k2 < 10; k2++) s += k1 + k2 + k3;
            p *= s;
        }
        return p;
    };
    CHECK(mismatches<int>(result, [&](const std::vector<int> &c) {
              uint32_t v = pure;
              if (c[0] < 10) v += update(uint32_t(c[0]));
              return int(v);
          }) == 0);
}

// Follows Halide's explicit_inline_reductions.cpp with the explicit forms in a scheduled
// consumer: the inline reductions are computed per point of a vectorized, parallel Func.
TEST_CASE("explicit_inline_reductions: explicit forms under a vectorized parallel schedule") {
    Func f("f");
    Var x("x"), y("y");
    RDom r1(0, 5, "r1"), r2(0, 7, "r2");
    // For each r2: max over r1 of (x * r1 - r2 * y) % 11, summed over r2.
    f(x, y) = sum(r2, maximum(r1, (x * r1 - r2 * y) % 11));
    f.vectorize(x, 4).parallel(y);
    Buffer<int> result = f.realize({13, 6});
    CHECK(mismatches<int>(result, [](const std::vector<int> &c) {
              int s = 0;
              for (int k2 = 0; k2 < 7; k2++) {
                  int m = INT32_MIN;
                  for (int k1 = 0; k1 < 5; k1++) {
                      int v = c[0] * k1 - k2 * c[1];
                      int mod = ((v % 11) + 11) % 11;  // Halide's % is Euclidean
                      m = std::max(m, mod);
                  }
                  s += m;
              }
              return s;
          }) == 0);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's mux.cpp (initializer list): mux(c, {x, 456, 789}) picks the c-th value, the
// last one for c past the end.
TEST_CASE("mux: a list of values indexed by a Var") {
    Var x("x"), c("c");
    Func f("f");
    f(x, c) = mux(c, {x, 456, 789});
    Buffer<int> result = f.realize({100, 4});
    CHECK(mismatches<int>(result, [](const std::vector<int> &p) {
              const int correct[] = {p[0], 456, 789, 789};
              return correct[p[1]];
          }) == 0);
}

// Follows Halide's mux.cpp (Tuple): mux(c, f(x)) with f a Tuple-valued Func picks a Tuple
// element.
TEST_CASE("mux: the elements of a Tuple-valued Func indexed by a Var") {
    Var x("x"), c("c");
    Func f("f"), g("g");
    f(x) = {x, 456, 789};
    g(x, c) = mux(c, f(x));
    Buffer<int> result = g.realize({100, 4});
    CHECK(mismatches<int>(result, [](const std::vector<int> &p) {
              const int correct[] = {p[0], 456, 789, 789};
              return correct[p[1]];
          }) == 0);
}

// ---------------------------------------------------------------------------------------------
namespace {

// The program of Halide's require.cpp for one vector width (0: not vectorized).
void require_program(int vector_width) {
    const int32_t kPrime1 = 7829;
    const int32_t kPrime2 = 7919;
    int32_t realize_width = vector_width ? vector_width : 1;

    Param<int32_t> p1("p1"), p2("p2");
    Var x("x");
    Func s("s"), f("f");
    s(x) = p1 + p2;
    f(x) = require(s(x) == kPrime1, s(x) * kPrime2 + x, "The parameters should add to exactly", kPrime1,
                   "but were", s(x), "for vector_width", vector_width);
    if (vector_width) {
        s.vectorize(x, vector_width).compute_root();
        f.vectorize(x, vector_width);
    }

    // Values that fail the requirement: realize throws, naming it.
    p1.set(1);
    p2.set(2);
    std::string msg = thrown_message([&] { Buffer<int32_t> r = f.realize({realize_width}); });
    CHECK(contains(msg, "Requirement Failed"));
    CHECK(contains(msg, "The parameters should add to exactly 7829 but were 3"));

    // Values that meet it.
    p1.set(1);
    p2.set(kPrime1 - 1);
    Buffer<int32_t> result;
    CHECK(thrown_message([&] { result = f.realize({realize_width}); }) == "");
    if (result.defined()) {
        CHECK(mismatches<int32_t>(result, [&](const std::vector<int> &c) { return kPrime1 * kPrime2 + c[0]; }) ==
              0);
    }

    // A requirement in the bounds of a boundary condition.
    ImageParam input(Int(32), 2, "input");
    Expr h = require(p1 == p2, p1);
    Func clamped = BoundaryConditions::repeat_edge(input, {{0, 64}, {0, h}});
    Buffer<int32_t> input_buf(64, 64);
    input_buf.fill(0);
    input.set(input_buf);
    p1.set(16);
    p2.set(15);
    CHECK(contains(thrown_message([&] { Buffer<int32_t> r = clamped.realize({64, 3}); }), "Requirement Failed"));
    p1.set(16);
    p2.set(16);
    CHECK(thrown_message([&] { Buffer<int32_t> r = clamped.realize({64, 3}); }) == "");
}

}  // namespace

// Follows Halide's require.cpp (not vectorized): a failing require() stops the pipeline with its
// message; a passing one gives its value; a require() in a boundary condition's bounds.
TEST_CASE("require: scalar") { require_program(0); }

// Follows Halide's require.cpp (vector width 4).
TEST_CASE("require: vectorized by 4") { require_program(4); }

// Follows Halide's require.cpp (vector width 32).
TEST_CASE("require: vectorized by 32") { require_program(32); }

// ---------------------------------------------------------------------------------------------
// Follows Halide's random.cpp (statistics of one image): random_float() is uniform in [0, 1)
// (mean 1/2, variance 1/12) and neighbouring pixels are uncorrelated (the differences have mean
// 0 and variance 1/6), under a vectorized, parallel schedule. The sums are Halo's inline
// reductions, as in the original (smaller: 256 x 256).
TEST_CASE("random: random_float statistics and pixel independence") {
    const int S = 256;
    const double tol = 0.01;
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = random_float();
    f.vectorize(x, 4).parallel(y);
    Buffer<float> rand_image = f.realize({S, S});

    Func g("g");
    g(x, y) = cast<double>(rand_image(x, y));
    RDom r(rand_image);
    Expr val = g(r.x, r.y);
    const double n = double(S) * S;
    double mean = evaluate<double>(sum(val)) / n;
    double variance = evaluate<double>(sum(pow(val - mean, 2))) / (n - 1);
    Expr dx = g(r.x, r.y) - g((r.x + 1) % S, r.y);
    Expr dy = g(r.x, r.y) - g(r.x, (r.y + 1) % S);
    double mean_dx = evaluate<double>(sum(dx)) / n;
    double variance_dx = evaluate<double>(sum(pow(dx - mean_dx, 2))) / (n - 1);
    double mean_dy = evaluate<double>(sum(dy)) / n;
    double variance_dy = evaluate<double>(sum(pow(dy - mean_dy, 2))) / (n - 1);
    CHECK(std::fabs(mean - 0.5) < tol);
    CHECK(std::fabs(variance - 1.0 / 12) < tol);
    CHECK(std::fabs(mean_dx) < tol);
    CHECK(std::fabs(variance_dx - 1.0 / 6) < tol);
    CHECK(std::fabs(mean_dy) < tol);
    CHECK(std::fabs(variance_dy - 1.0 / 6) < tol);

    // The same statistics in plain C++ over the realized image (checks the reductions).
    double s = 0, s2 = 0;
    rand_image.for_each_element([&](int i, int j) {
        float v = rand_image(i, j);
        CHECK((v >= 0.0f && v < 1.0f));
        s += v;
    });
    rand_image.for_each_element([&](int i, int j) { s2 += (rand_image(i, j) - s / n) * (rand_image(i, j) - s / n); });
    CHECK(std::fabs(s / n - mean) < 1e-9);
    CHECK(std::fabs(s2 / (n - 1) - variance) < 1e-9);
}

// Follows Halide's random.cpp (seeds): one seed gives the same image twice (also through another
// Func), different seeds give independent images (mean absolute difference 1/3).
TEST_CASE("random: the same seed repeats, another seed is independent") {
    const int S = 256;
    Var x("x"), y("y");
    Param<int> seed("seed");
    Func f("f");
    f(x, y) = cast<double>(random_float(seed));
    seed.set(0);
    Buffer<double> im1 = f.realize({S, S});
    Buffer<double> im2 = f.realize({S, S});
    Func g("g");
    g(x, y) = f(x, y);
    seed.set(1);
    Buffer<double> im3 = g.realize({S, S});

    RDom r(im1);
    double e1 = evaluate<double>(sum(abs(im1(r.x, r.y) - im2(r.x, r.y)))) / (double(S) * S);
    double e2 = evaluate<double>(sum(abs(im1(r.x, r.y) - im3(r.x, r.y)))) / (double(S) * S);
    CHECK(e1 == 0.0);
    CHECK(std::fabs(e2 - 1.0 / 3) < 0.01);
}

// Follows Halide's random.cpp (random_int): about half of the bits are set, and a bit is
// uncorrelated with its neighbour (val ^ (val * 2) has half of its bits set too).
TEST_CASE("random: random_int bits") {
    const int S = 256;
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = random_int();
    Buffer<int> im = f.realize({S, S});
    RDom r(im);
    Expr val = f(r.x, r.y);
    const double correct = double(S) * S * 16;
    int set_bits = evaluate<int>(sum(popcount(val)));
    CHECK(std::fabs(set_bits / correct - 1) < 0.01);
    Expr val2 = val ^ (val * 2);
    int set_bits2 = evaluate<int>(sum(popcount(val2)));
    CHECK(std::fabs(set_bits2 / correct - 1) < 0.01);

    // The reduction over f agrees with the realized image.
    long long bits = 0;
    im.for_each_element([&](int i, int j) { bits += __builtin_popcount(uint32_t(im(i, j))); });
    CHECK(bits == set_bits);
}

// Follows Halide's random.cpp (dependence): one random Expr used twice is one variable (r1 + r1
// - 1 has variance 1/3); two calls are independent (r1 + r2 - 1 has variance 1/6).
TEST_CASE("random: one random Expr used twice versus two calls") {
    const int S = 256;
    Var x("x"), y("y");
    Expr r1 = cast<double>(random_float());
    Expr r2 = cast<double>(random_float());
    Func f("f"), g("g");
    f(x, y) = r1 + r1 - 1.0f;
    g(x, y) = r1 + r2 - 1.0f;
    RDom r(0, S, 0, S);
    Expr f_val = f(r.x, r.y);
    Expr g_val = g(r.x, r.y);
    double f_var = evaluate<double>(sum(f_val * f_val)) / (double(S) * S - 1);
    double g_var = evaluate<double>(sum(g_val * g_val)) / (double(S) * S - 1);
    CHECK(std::fabs(f_var - 1.0 / 3) < 0.01);
    CHECK(std::fabs(g_var - 1.0 / 6) < 0.01);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's unsafe_promises.cpp (a 10-bit LUT): a uint16 input promised to lie in
// [0, 1023] indexes a 1024-entry LUT whose bounds are constrained to [0, 1024); without the
// promise, bounds inference would need the LUT over the whole uint16 range.
TEST_CASE("unsafe_promises: a promised index range reads a constrained LUT") {
    Buffer<uint16_t> ten_bit_data(100);
    for (int i = 0; i < 100; i++) ten_bit_data(i) = uint16_t(i * 10);
    Buffer<float> ten_bit_lut(1024);
    for (int i = 0; i < 1024; i++) ten_bit_lut(i) = std::sin(2 * 3.1415f * i / 1024.0f);

    Var x("x");
    Func f("f");
    ImageParam in(UInt(16), 1, "in");
    ImageParam lut(Float(32), 1, "lut");
    f(x) = lut(unsafe_promise_clamped(in(x), 0, 1023));
    lut.dim(0).set_bounds(0, 1024);
    in.set(ten_bit_data);
    lut.set(ten_bit_lut);
    Buffer<float> result = f.realize({100});
    CHECK(mismatches<float>(result, [&](const std::vector<int> &c) { return ten_bit_lut(c[0] * 10); }) == 0);
}

// Follows Halide's unsafe_promises.cpp (an upper bound only): promising in(x) <= 99 makes
// infer_input_bounds size the LUT [0, 100) (the lower bound is the uint8's own).
TEST_CASE("unsafe_promises: an upper promise bounds the inferred LUT") {
    ImageParam in(UInt(8), 1, "in");
    ImageParam lut(Float(32), 1, "lut");
    Var x("x");
    Func f("f");
    f(x) = lut(unsafe_promise_clamped(in(x), Expr(), 99));
    f.infer_input_bounds({10});
    Buffer<> lut_bounds = lut.get();
    REQUIRE(lut_bounds.defined());
    CHECK(lut_bounds.dim(0).min() == 0);
    CHECK(lut_bounds.dim(0).extent() == 100);
}

// Follows Halide's unsafe_promises.cpp (a lower bound only): promising in(x) >= 10 sizes the LUT
// [10, 256).
TEST_CASE("unsafe_promises: a lower promise bounds the inferred LUT") {
    ImageParam in(UInt(8), 1, "in");
    ImageParam lut(Float(32), 1, "lut");
    Var x("x");
    Func f("f");
    f(x) = lut(unsafe_promise_clamped(in(x), 10, Expr()));
    f.infer_input_bounds({10});
    Buffer<> lut_bounds = lut.get();
    REQUIRE(lut_bounds.defined());
    CHECK(lut_bounds.dim(0).min() == 10);
    CHECK(lut_bounds.dim(0).extent() == 246);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's legal_race_condition.cpp (same value): f(r / 2) = r / 2 parallel over r has
// two iterations store to each point, both the same value; allow_race_conditions() lets the
// schedule run in parallel anyway.
TEST_CASE("legal_race_condition: parallel stores of one value to one point") {
    Func f("f");
    Var x("x");
    RDom r(0, 100, "r");
    f(x) = 0;
    f(r / 2) = r / 2;
    f.update().allow_race_conditions().parallel(r);
    Buffer<int> out = f.realize({100});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] < 50 ? c[0] : 0; }) == 0);
}

// Follows Halide's legal_race_condition.cpp (a permutation): f((38r^2 + 193r + 32) % 256) = r
// writes every point once (a permutation polynomial), which the compiler cannot prove; with
// allow_race_conditions() the update is vectorized and parallel.
TEST_CASE("legal_race_condition: a permutation polynomial scatter vectorized and parallel") {
    Func f("f");
    Var x("x");
    RDom r(0, 256, "r");
    Expr permuted = (38 * r * r + 193 * r + 32) % 256;
    f(x) = -1;
    f(permuted) = r;
    f.update().allow_race_conditions().vectorize(r, 4).parallel(r);
    Buffer<int> out = f.realize({256});
    std::vector<int> want(256, -1);
    for (int k = 0; k < 256; k++) want[(38 * k * k + 193 * k + 32) % 256] = k;
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return want[c[0]]; }) == 0);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's failed_unroll.cpp: unroll(x) of a loop whose extent is not a constant. Halide
// refuses it (unless HL_PERMIT_FAILED_UNROLL is set, which makes it a serial loop with a
// warning); Halo refuses it, naming the loop and the fix. The fix, unroll(x, 4), then runs.
TEST_CASE("failed_unroll: unroll of a loop of non-constant extent is refused") {
    Func f("f");
    Var x("x");
    f(x) = 3;
    f.unroll(x);
    std::string msg = thrown_message([&] { Buffer<int> out = f.realize({17}); });
    MESSAGE(msg);
    CHECK(contains(msg, "unroll"));
    CHECK(contains(msg, "f.s0.x"));
    CHECK(contains(msg, "not a constant"));

    Func g("g");
    g(x) = 3 + x;
    g.unroll(x, 4);
    Buffer<int> out = g.realize({17});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return 3 + c[0]; }) == 0);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's func_lifetime.cpp: a Func realized, then another Func defined, realized and
// destroyed, then the first realized again (its compiled pipeline must still be valid).
TEST_CASE("func_lifetime: a Func outlives another that was realized and destroyed") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * y + 1;
    auto want = [](int add) {
        return [add](const std::vector<int> &c) { return c[0] * c[1] + add; };
    };
    {
        Buffer<int> imf = f.realize({32, 32});
        CHECK(mismatches<int>(imf, want(1)) == 0);
    }
    {
        Func g("g");
        g(x, y) = x * y + 2;
        g.vectorize(x, 8);
        Buffer<int> img = g.realize({32, 32});
        CHECK(mismatches<int>(img, want(2)) == 0);
    }
    Buffer<int> imf2 = f.realize({32, 32});
    CHECK(mismatches<int>(imf2, want(1)) == 0);
}

// ---------------------------------------------------------------------------------------------
namespace {

// The cropped buffer of Halide's for_each_element.cpp (smaller): x in [10, 90), y in [20, 80) of a
// 100 x 120 x 3 buffer (not dense in y, mins not 0), holding 10x + 5y + c.
Buffer<int> cropped_3d(Buffer<int> &full) {
    full = Buffer<int>(100, 120, 3);
    full.fill(-1);
    Buffer<int> im = full.cropped(0, 10, 80).cropped(1, 20, 60);
    im.for_each_element([&](int x, int y, int c) { im(x, y, c) = 10 * x + 5 * y + c; });
    return im;
}

}  // namespace

// Follows Halide's for_each_element.cpp: a cropped 3-D buffer visited with for_each_element taking
// one int per dimension, then a coordinate pointer (writing through it), then explicit loops over
// dim(d).min() and extent(); the elements outside the crop stay untouched; a 0-D buffer's
// for_each_element calls once.
TEST_CASE("for_each_element: a cropped 3-D buffer visited several ways") {
    Buffer<int> full;
    Buffer<int> im = cropped_3d(full);
    REQUIRE(im.dim(0).min() == 10);
    REQUIRE(im.dim(1).min() == 20);
    REQUIRE(im.dim(1).stride() == 100);

    int bad = 0;
    long visits = 0;
    im.for_each_element([&](const int *pos) {
        int x = pos[0], y = pos[1], c = pos[2];
        bad += im(x, y, c) != 10 * x + 5 * y + c;
        im(x, y, c) *= 3;
        visits++;
    });
    CHECK(bad == 0);
    CHECK(visits == 80L * 60 * 3);

    for (int c = im.dim(2).min(); c < im.dim(2).min() + im.dim(2).extent(); c++)
        for (int y = im.dim(1).min(); y < im.dim(1).min() + im.dim(1).extent(); y++)
            for (int x = im.dim(0).min(); x < im.dim(0).min() + im.dim(0).extent(); x++) {
                bad += im(x, y, c) != (10 * x + 5 * y + c) * 3;
                im(x, y, c) *= 2;
            }
    CHECK(bad == 0);
    full.for_each_element([&](int x, int y, int c) {
        bool in_crop = x >= 10 && x < 90 && y >= 20 && y < 80;
        bad += full(x, y, c) != (in_crop ? (10 * x + 5 * y + c) * 6 : -1);
    });
    CHECK(bad == 0);

    // A zero-dimensional buffer.
    Buffer<int> scalar_im(std::vector<int>{});
    scalar_im() = 5;
    int calls = 0;
    scalar_im.for_each_element([&](const std::vector<int> &c) {
        CHECK(c.empty());
        scalar_im()++;
        calls++;
    });
    CHECK(calls == 1);
    CHECK(scalar_im() == 6);
}

// Follows Halide's for_each_element.cpp (a callable of fewer ints than dimensions): on a 3-D
// buffer, for_each_element([&](int x, int y) {...}) visits every (x, y) once and the callable
// loops over c itself. (Halo refused such a callable until stop 48; Halide 14 calls it once per
// point of dimensions 0 and 1.)
TEST_CASE("for_each_element: a callable of fewer coordinates than dimensions") {
    Buffer<int> full;
    Buffer<int> im = cropped_3d(full);
    int bad = 0;
    long visits = 0;
    std::string msg = thrown_message([&] {
        im.for_each_element([&](int x, int y) {
            for (int c = 0; c < 3; c++) {
                bad += im(x, y, c) != 10 * x + 5 * y + c;
                im(x, y, c) *= 2;
            }
            visits++;
        });
    });
    CHECK(msg == "");
    CHECK(bad == 0);
    CHECK(visits == 80L * 60);
    full.for_each_element([&](int x, int y, int c) {
        bool in_crop = x >= 10 && x < 90 && y >= 20 && y < 80;
        bad += full(x, y, c) != (in_crop ? (10 * x + 5 * y + c) * 2 : -1);
    });
    CHECK(bad == 0);
}

// ---------------------------------------------------------------------------------------------
namespace {

// Mantissa bits that differ between a and b (the original's measure); -100 for a different
// exponent.
int bits_diff(float fa, float fb) {
    uint32_t a, b;
    std::memcpy(&a, &fa, 4);
    std::memcpy(&b, &fb, 4);
    if ((a >> 23) != (b >> 23)) return -100;
    uint32_t diff = a > b ? a - b : b - a;
    int count = 0;
    while (diff) {
        count++;
        diff /= 2;
    }
    return count;
}

}  // namespace

// Follows Halide's erf.cpp: erf over [-5, 5) vectorized by 8 agrees with the C library's erff to
// within 4 mantissa bits (and never with a different exponent).
TEST_CASE("erf: vectorized erf against erff") {
    Func f("f");
    Var x("x");
    f(x) = erf((x - 50000) / 10000.0f);
    f.vectorize(x, 8);
    Buffer<float> im = f.realize({100000});
    int max_err = 0, wrong_exponent = 0;
    float max_err_x = 0;
    for (int i = 0; i < 100000; i++) {
        float xv = (i - 50000) / 10000.0f;
        int err = bits_diff(std::erf(xv), im(i));
        if (err < 0) {
            if (wrong_exponent++ == 0) MESSAGE("exponent differs at " << xv << ": " << im(i) << " vs " << std::erf(xv));
        } else if (err > max_err) {
            max_err = err;
            max_err_x = xv;
        }
    }
    MESSAGE("max incorrect mantissa bits " << max_err << " at " << max_err_x);
    CHECK(max_err <= 4);
    CHECK(wrong_exponent == 0);
}

// ---------------------------------------------------------------------------------------------
// Follows Halide's exception.cpp (compile errors): invalid update definitions throw CompileError
// and leave the Func as it was (only its pure definition), so it can still be realized.
namespace {

// Runs define, which must throw CompileError naming f1 and leave f1 without updates; returns the
// message.
template <typename F>
std::string refused_definition(const Func &f1, F define) {
    std::string msg;
    bool compile_error = false;
    try {
        define();
    } catch (const CompileError &e) {
        compile_error = true;
        msg = e.what();
    } catch (const std::exception &e) {
        msg = e.what();
    }
    MESSAGE(msg);
    CHECK(compile_error);
    CHECK(contains(msg, "f1"));
    CHECK(f1.num_update_definitions() == 0);
    return msg;
}

}  // namespace

TEST_CASE("exception: a refused update definition leaves the Func unchanged") {
    Func f1("f1");
    Var x("x");
    f1(x) = x + 3;
    auto refused = [&](auto define) {
        return refused_definition(f1, define);
    };
    // A float argument.
    CHECK(contains(refused([&] { f1(x / 3.0f) += 1; }), "float"));
    // Indexing a Func that is not a Tuple.
    CHECK(contains(refused([&] { f1(x) += f1(x)[1]; }), "[1]"));
    // An undefined right-hand side.
    refused([&] {
        Expr e;
        RDom r(0, 10, "r");
        f1(r) = e;
    });
    Buffer<int> out = f1.realize({10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + 3; }) == 0);
}

// Follows Halide's exception.cpp (an update of another type): f1(x) += 1.3f on an int Func is
// f1(x) = f1(x) + 1.3f, a float update of an int Func, which Halide refuses with CompileError.
// Halide (14 and current) throws CompileError: "In update definition 0 of Func "f1": Tuple
// element 0 of update definition has type float32, but pure definition has type int32". So
// does Halo (it once cast the sum back to int, making f1 x + 4).
TEST_CASE("exception: an int Func updated with += of a float is refused") {
    Func f1("f1");
    Var x("x");
    f1(x) = x + 3;
    CHECK(contains(refused_definition(f1, [&] { f1(x) += 1.3f; }), "float"));
    Buffer<int> out = f1.realize({10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + 3; }) == 0);
}

// Follows Halide's exception.cpp (run-time errors): realizing with an unbound ImageParam is
// refused, naming it; after binding it (to a buffer realized from a lambda) the same Func runs; a
// Param outside its range throws RuntimeError naming it.
TEST_CASE("exception: errors for an unbound ImageParam and a Param out of range") {
    Var x("x");
    ImageParam im(Float(32), 1, "im");
    Func f2("f2");
    f2(x) = im(x) * 2.0f;
    std::string msg = thrown_message([&] { Buffer<float> r = f2.realize({10}); });
    MESSAGE(msg);
    CHECK(contains(msg, "'im'"));
    CHECK(contains(msg, "im.set("));

    Buffer<float> an_image(10);
    lambda(x, x * 7.0f).realize(an_image);
    im.set(an_image);
    Buffer<float> result = f2.realize({10});
    CHECK(mismatches<float>(result, [](const std::vector<int> &c) { return c[0] * 14.0f; }) == 0);

    bool runtime_error = false;
    try {
        Param<int> p("p");
        p.set_range(0, 10);
        p.set(-4);
        Func f4("f4");
        f4(x) = p;
        Buffer<int> r = f4.realize({10});
    } catch (const RuntimeError &e) {
        runtime_error = true;
        MESSAGE(std::string(e.what()));
        CHECK(contains(e.what(), "'p'"));
        CHECK(contains(e.what(), "-4"));
    } catch (const std::exception &e) {
        MESSAGE("not a RuntimeError: " << std::string(e.what()));
    }
    CHECK(runtime_error);
}

// Follows Halide's exception.cpp (the class of the unbound-ImageParam error): Halide's program
// catches it as Halide::RuntimeError.
// Halo throws RuntimeError too (it once threw CompileError, which such a catch misses).
TEST_CASE("exception: an unbound ImageParam is a RuntimeError") {
    Var x("x");
    ImageParam im(Float(32), 1, "im");
    Func f2("f2");
    f2(x) = im(x) * 2.0f;
    bool runtime_error = false;
    try {
        Buffer<float> r = f2.realize({10});
    } catch (const RuntimeError &) {
        runtime_error = true;
    } catch (const std::exception &e) {
        MESSAGE("not a RuntimeError: " << std::string(e.what()));
    }
    CHECK(runtime_error);
}

// ---------------------------------------------------------------------------------------------
namespace {

const int kStrictN = 65536;

// The input of the strict_float tests: kStrictN floats in [0, 1), from a hash.
Buffer<float> strict_float_input() {
    Buffer<float> vals(kStrictN);
    for (int i = 0; i < kStrictN; i++) vals(i) = float(halo_compat::hash32(uint32_t(i) * 7919u + 17u) >> 8) / 16777216.0f;
    return vals;
}

// The sum of in(i)^2 in Accum, over i in order (vectorize 0), or per lane i of `vectorize` lanes
// over r_outer (lane i sums in(r * vectorize + i)), then the lanes in order: Halide's
// strict_float.cpp's simple_sum, with every step strict_float when `strict`.
template <typename Accum>
Func simple_sum(ImageParam in, int vectorize, bool strict) {
    auto st = [&](Expr e) { return strict ? strict_float(e) : e; };
    auto term = [&](Expr i) { return in(i) * in(i); };
    Func total("total");
    if (vectorize) {
        Func inner("total_inner");
        RDom r_outer(0, kStrictN / vectorize, "r_outer");
        RDom r_lanes(0, vectorize, "r_lanes");
        Var i("i");
        inner(i) = cast<Accum>(0);
        inner(i) = st(inner(i) + cast<Accum>(term(r_outer * vectorize + i)));
        total() = cast<Accum>(0);
        total() = st(total() + inner(r_lanes));
        inner.compute_at(total, Var::outermost());
        inner.vectorize(i);
        inner.update(0).vectorize(i);
    } else {
        RDom r(0, kStrictN, "r");
        total() = st(cast<Accum>(0));
        total() = st(total() + cast<Accum>(term(r)));
    }
    return lambda(st(cast<float>(total())));
}

// Kahan summation of in(i)^2 (a Tuple of the sum and the compensation), per lane when vectorized:
// Halide's strict_float.cpp's kahan_sum.
Func kahan_sum(ImageParam in, int vectorize, bool strict) {
    auto st = [&](Expr e) { return strict ? strict_float(e) : e; };
    auto term = [&](Expr i) { return in(i) * in(i); };
    Func k("k_sum");
    auto kahan_step = [&](FuncRef acc, Expr v) {
        Expr s = acc[0], c = acc[1];
        return Tuple(st(s + (v - c)), st(((s + (v - c)) - s) - (v - c)));
    };
    if (vectorize) {
        Func inner("k_sum_inner");
        RDom r_outer(0, kStrictN / vectorize, "r_outer");
        RDom r_lanes(0, vectorize, "r_lanes");
        Var i("i");
        inner(i) = Tuple(0.0f, 0.0f);
        inner(i) = kahan_step(inner(i), term(r_outer * vectorize + i));
        k() = Tuple(0.0f, 0.0f);
        k() = kahan_step(k(), inner(r_lanes)[0]);
        inner.compute_at(k, Var::outermost());
        inner.vectorize(i);
        inner.update(0).vectorize(i);
    } else {
        RDom r(0, kStrictN, "r");
        k() = Tuple(0.0f, 0.0f);
        k() = kahan_step(k(), term(r));
    }
    return lambda(k()[0]);
}

float realize_scalar(Func f) {
    Buffer<float> b = f.realize(std::vector<int>{});
    return b();
}

// Plain C++ references (volatile keeps the compiler from reassociating or contracting).
template <typename Accum>
float ref_simple(const Buffer<float> &in, int vectorize) {
    if (!vectorize) {
        Accum t = 0;
        for (int i = 0; i < kStrictN; i++) {
            volatile float sq = in(i) * in(i);
            t = t + Accum(sq);
        }
        return float(t);
    }
    std::vector<Accum> lane(vectorize, 0);
    for (int r = 0; r < kStrictN / vectorize; r++)
        for (int i = 0; i < vectorize; i++) {
            volatile float sq = in(r * vectorize + i) * in(r * vectorize + i);
            lane[i] = lane[i] + Accum(sq);
        }
    Accum t = 0;
    for (int i = 0; i < vectorize; i++) t = t + lane[i];
    return float(t);
}

void ref_kahan_step(float &s, float &c, float v) {
    volatile float y = v - c;
    volatile float t = s + y;
    volatile float d = t - s;
    c = d - y;
    s = t;
}

float ref_kahan(const Buffer<float> &in, int vectorize) {
    if (!vectorize) {
        float s = 0, c = 0;
        for (int i = 0; i < kStrictN; i++) {
            volatile float sq = in(i) * in(i);
            ref_kahan_step(s, c, sq);
        }
        return s;
    }
    std::vector<float> ls(vectorize, 0), lc(vectorize, 0);
    for (int r = 0; r < kStrictN / vectorize; r++)
        for (int i = 0; i < vectorize; i++) {
            volatile float sq = in(r * vectorize + i) * in(r * vectorize + i);
            ref_kahan_step(ls[i], lc[i], sq);
        }
    float s = 0, c = 0;
    for (int i = 0; i < vectorize; i++) ref_kahan_step(s, c, ls[i]);
    return s;
}

}  // namespace

// Follows Halide's strict_float.cpp (strict): the simple sums (double and float, serial and
// vectorized by 4 and 8 lanes) and Kahan sums of squares with strict_float on every step give
// exactly the IEEE results of the same order of operations in plain C++; Kahan is at least as
// close to the double sum as the float sum is. (The original's Target::StrictFloat variants are
// left out: Halo has no such target feature.)
TEST_CASE("strict_float: simple and Kahan sums with strict_float match IEEE evaluation") {
    Buffer<float> vals = strict_float_input();
    ImageParam in(Float(32), 1, "in");
    in.set(vals);
    in.dim(0).set_bounds(0, kStrictN);

    for (int v : {0, 4, 8}) {
        CAPTURE(v);
        float sd = realize_scalar(simple_sum<double>(in, v, true));
        float sf = realize_scalar(simple_sum<float>(in, v, true));
        float k = realize_scalar(kahan_sum(in, v, true));
        CHECK(sd == ref_simple<double>(vals, v));
        CHECK(sf == ref_simple<float>(vals, v));
        CHECK(k == ref_kahan(vals, v));
        float exact = ref_simple<double>(vals, 0);
        CHECK(std::fabs(exact - k) <= std::fabs(exact - sf));
    }
}

// Follows Halide's strict_float.cpp (default strictness): without strict_float the sums still
// compute a sum of squares (within float rounding of the double sum); Halide checks nothing more
// there.
TEST_CASE("strict_float: the same sums without strict_float stay close") {
    Buffer<float> vals = strict_float_input();
    ImageParam in(Float(32), 1, "in");
    in.set(vals);
    in.dim(0).set_bounds(0, kStrictN);
    double exact = ref_simple<double>(vals, 0);
    for (int v : {0, 4, 8}) {
        CAPTURE(v);
        CHECK(std::fabs(realize_scalar(simple_sum<double>(in, v, false)) - exact) <= 1e-6 * exact);
        CHECK(std::fabs(realize_scalar(simple_sum<float>(in, v, false)) - exact) <= 1e-3 * exact);
        CHECK(std::fabs(realize_scalar(kahan_sum(in, v, false)) - exact) <= 1e-3 * exact);
    }
}

// =============================================================================================
// test/error
// =============================================================================================

// Follows Halide's error/require_fail.cpp: a require() whose condition fails for the Params'
// values stops realize with "Requirement Failed" and the message's values.
TEST_CASE("require_fail: a failing require stops the pipeline with its message") {
    const int kPrime1 = 7829;
    const int kPrime2 = 7919;
    Param<int> p1("p1"), p2("p2");
    Var x("x");
    Func f("f");
    f(x) = require((p1 + p2) == kPrime1, (p1 + p2) * kPrime2, "The parameters should add to exactly", kPrime1,
                   "but were", p1, p2);
    p1.set(1);
    p2.set(2);
    std::string msg = thrown_message([&] { Buffer<int> result = f.realize({1}); });
    MESSAGE(msg);
    CHECK(contains(msg, "Requirement Failed"));
    CHECK(contains(msg, "The parameters should add to exactly 7829 but were 1 2"));
}

// Follows Halide's error/tuple_val_select_undef.cpp: a Tuple whose values are undef under
// different conditions (one never, one where x >= 20) is refused.
TEST_CASE("tuple_val_select_undef: Tuple values undefined under different conditions are refused") {
    std::string msg = thrown_message([] {
        Var x("x");
        Func f("f");
        f(x) = {x, select(x < 20, 20 * x, undef<int>())};
        Buffer<int> b = f.realize({10})[0];
    });
    CHECK(contains(msg, "Func 'f': conditionally-undef values in a Tuple must have the same conditions"));
    CHECK(contains(msg, "value 1 is defined where (x < 20), value 0 everywhere"));
}

// Follows Halide's error/tuple_arg_select_undef.cpp: an update of a Tuple-valued Func whose two
// left-side arguments are undef under different conditions (r < 2 and r < 5) is refused.
TEST_CASE("tuple_arg_select_undef: update arguments undefined under different conditions are refused") {
    std::string msg = thrown_message([] {
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = {0, 0};
        RDom r(0, 10, "r");
        Expr arg_0 = clamp(select(r.x < 2, 13, undef<int>()), 0, 20);
        Expr arg_1 = clamp(select(r.x < 5, 23, undef<int>()), 0, 20);
        f(arg_0, arg_1) = {f(arg_0, arg_1)[0] + 10, f(arg_0, arg_1)[1] + 5};
        Realization out = f.realize({100, 100});
    });
    CHECK(contains(msg, "Func 'f': conditionally-undef arguments of the left side must have the same conditions"));
    CHECK(contains(msg, "argument 0 is defined where (r.x < 2), argument 1 where (r.x < 5)"));
}

// Follows Halide's error/undefined_pipeline_compile.cpp: compiling a Func that has no definition
// to an object file is refused, naming the Func.
TEST_CASE("undefined_pipeline_compile: compiling an undefined Func to an object is refused") {
    std::string path = tmp_path("undefined.o");
    std::string msg = thrown_message([&] {
        Func f("f");
        f.compile_to_object(path, {}, "f");
    });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "defin"));
    std::remove(path.c_str());
}

// Follows Halide's error/missing_args.cpp: compile_to_object with an argument list that leaves
// out the ImageParam and Param the Func uses is refused, naming what is missing.
TEST_CASE("missing_args: compile_to_object without the Func's inputs in the argument list is refused") {
    std::string path = tmp_path("missing_args.o");
    std::string msg = thrown_message([&] {
        Func f("f");
        Var x("x");
        ImageParam im(Int(8), 2, "im");
        Param<float> arg("arg");
        f(x) = im(x, x) + arg;
        std::vector<Argument> args;
        f.compile_to_object(path, args, "f");
    });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK((contains(msg, "'im'") || contains(msg, "'arg'")));
    CHECK(contains(msg, "argument list"));
    std::remove(path.c_str());
}

// Follows Halide's error/split_non_innermost_predicated.cpp: splitting the inner Var of a split
// whose tail strategy is PredicateStores is refused (the predicated split must stay innermost).
TEST_CASE("split_non_innermost_predicated: splitting the inner Var of a PredicateStores split is refused") {
    std::string msg = thrown_message([] {
        Func f("f");
        Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
        f(x) = x;
        f.compute_root().split(x, xo, xi, 8, TailStrategy::PredicateStores).split(xi, xio, xii, 9);
        Func g("g");
        g(x) = f(x);
        Buffer<int> out = g.realize({10});
    });
    CHECK(contains(msg, "Func 'f': split(xi) splits the inner loop of split(x, xo, xi) with TailStrategy::PredicateStores"));
    CHECK(contains(msg, "must stay the innermost split"));
}

// Follows Halide's error/predicate_loads_used_in_inner_splits.cpp: PredicateLoads on the split of
// the inner Var of another split is refused.
TEST_CASE("predicate_loads_used_in_inner_splits: PredicateLoads on an inner split is refused") {
    std::string msg = thrown_message([] {
        Func f("f");
        Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
        f(x) = x;
        f.split(x, xo, xi, 2, TailStrategy::Auto).split(xi, xio, xii, 4, TailStrategy::PredicateLoads);
        Buffer<int> out = f.realize({16});
    });
    CHECK(contains(msg, "Func 'f': split(xi) with TailStrategy::PredicateLoads: xi stems from the inner loop of an earlier split"));
}

// Follows Halide's error/rfactor_after_var_and_rvar_fusion.cpp: after fusing the RVar r.z with
// the pure Var y, rfactor of another fused RVar is refused.
TEST_CASE("rfactor_after_var_and_rvar_fusion: rfactor after fusing an RVar with a Var is refused") {
    std::string msg = thrown_message([] {
        Func f("f");
        RDom r({{0, 5}, {0, 5}, {0, 5}}, "r");
        Var x("x"), y("y"), z("z");
        f(x, y) = 0;
        f(x, y) += r.x + r.y + r.z;
        RVar rxy("rxy"), yrz("yrz");
        f.update().fuse(r.x, r.y, rxy).fuse(r.z, y, yrz).rfactor(rxy, z);
        Buffer<int> out = f.realize({4, 4});
    });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "rfactor"));
    CHECK(contains(msg, "yrz"));
}

// Follows Halide's error/fuse_same_var.cpp: fusing a Var with itself is refused.
TEST_CASE("fuse_same_var: fusing a Var with itself is refused") {
    std::string msg = thrown_message([] {
        Func f("f");
        Var x("x"), y("y"), fused("fused");
        f(x, y) = x + y;
        f.fuse(x, x, fused);
        Buffer<int> out = f.realize({4, 4});
    });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "fuse(x, x, fused)"));
}

// Follows Halide's error/cannot_schedule_inlined_stages.cpp, an old error test: f has an
// update, so it cannot be inlined, and f.vectorize(x, 4) is given while f is left inline in g.
// Halide 14 compiles it (checked with the installed Halide 14: g(5) = 10): a Func with updates
// left inline is computed at its consumer's innermost loop, where loops of its own may be
// vectorized or unrolled. Only a pure inlined Func refuses them (the next check).
TEST_CASE("cannot_schedule_inlined_stages: a loop directive on a Func with updates left inline") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    f(x) += x;
    g(x) = f(x);
    f.vectorize(x, 4);
    Buffer<int> out = g.realize({10});
    for (int i = 0; i < 10; i++) CHECK(out(i) == 2 * i);
    Func p("p"), q("q");
    p(x) = x;
    q(x) = p(x);
    p.vectorize(x, 4);
    std::string msg = thrown_message([&] { q.realize({10}); });
    CHECK(contains(msg, "Func 'p' is computed inline"));
    CHECK(contains(msg, "cannot be marked vectorize"));
    CHECK(contains(msg, "compute_root()"));
}

// Follows Halide's error/fold_storage_not_applied.cpp: fold_storage(x, 8) on a Func stored at the
// root and computed per row of g: only y slides, so x cannot be folded; Halide (current) refuses
// a fold it cannot apply.
TEST_CASE("fold_storage_not_applied: a fold on a dimension that does not slide is refused") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + f(x, y - 1);
    f.store_root().compute_at(g, y).fold_storage(x, 8);
    Buffer<int> im;
    std::string msg = thrown_message([&] { im = g.realize({10, 10}); });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "fold_storage"));
}

// Follows Halide's error/fold_storage_compute_root.cpp: fold_storage(y, 4) on a compute_root Func
// that g reads over 10 rows: one computation of f covers all rows, so a fold of 4 cannot hold
// them; Halide (current) refuses it.
TEST_CASE("fold_storage_compute_root: a fold smaller than a compute_root Func's extent is refused") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y);
    f.compute_root().fold_storage(y, 4);
    Buffer<int> im;
    std::string msg = thrown_message([&] { im = g.realize({10, 10}); });
    MESSAGE(msg);
    CHECK(msg != "");
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "fold_storage"));
}

// ---------------------------------------------------------------------------------------------
namespace {

// A generator that realizes a Func using its scalar Input inside generate(), when the Input has
// no value yet (Halide's error/uninitialized_param_2.cpp).
class PleaseFail : public Halide::Generator<PleaseFail> {
public:
    Input<Buffer<uint8_t>> input{"input", 1};
    Input<float> scalar_input{"scalar_input"};
    Output<Buffer<uint8_t>> output{"output", 1};

    Var x{"x"};

    void generate() {
        Func lut_fn("lut_fn");
        lut_fn(x) = ConciseCasts::u8_sat(x * scalar_input / 255.f);
        Realization lut = lut_fn.realize({256});
        Buffer<uint8_t> lut0 = lut[0];
        output(x) = input(x) + lut0(x);
    }
};

}  // namespace

// Follows Halide's error/uninitialized_param_2.cpp: realizing, inside generate(), a Func that
// depends on a scalar Input is refused: the Input has no value until the generated pipeline is
// called. (Halo used to realize it with 0, baking a LUT that a later set() did not change.)
TEST_CASE("uninitialized_param_2: realize inside generate of a Func using a scalar Input is refused") {
    std::string msg = thrown_message([] {
        PleaseFail gen;
        Func f = gen.build();
    });
    CHECK(contains(msg, "generator Input 'scalar_input'"));
    CHECK(contains(msg, "lut_fn"));
    CHECK(contains(msg, "generate()"));
}
