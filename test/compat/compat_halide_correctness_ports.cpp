// Ports of programs from Halide's test/correctness directory (one TEST_CASE per program, each
// naming the Halide test it follows). The behaviour is rewritten, not copied: every result is
// compared point by point against plain C++ loops, at sizes that splits and vectors do not
// divide and over non-zero mins where that is natural.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::hash32;
using halo_compat::mismatches;

namespace {


}  // namespace

// Follows Halide's sliding_reduction.cpp: a Func with two updates (one reading other points of
// the same row, one a scatter along the diagonal) stored at root and computed per row.
TEST_CASE("sliding_reduction: a multi-stage producer stored at root, computed per consumer row") {
    for (int variant = 0; variant < 3; variant++) {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = x + 3 * y;
        if (variant == 1) {
            f(x, x) += f(x, 0) + f(x, 1);
        } else {
            f(0, y) += f(1, y) + f(2, y);
        }
        f(x, y) = f(x, y) * 7 + y;
        g(x, y) = f(x, y) + f(x, y - 1) + f(x, y - 2);
        f.store_root().compute_at(g, y);
        if (variant == 2) f.unroll(y, 2);

        // Reference: f over rows -2..H-1 (the rows g reads), as C++ loops.
        const int W = 3, H = 11;
        auto fref = [&](int xx, int yy) {
            // Stage 0 and 1 over the region x in [0, W), y in [-2, H).
            auto s0 = [](int a, int b) { return a + 3 * b; };
            int v;
            if (variant == 1) {
                // f(x, x) += f(x, 0) + f(x, 1), in order of x: each point touched once, and the
                // reads f(x, 0), f(x, 1) see stage 0 except where they were already updated.
                // For point x the diagonal element is (x, x); f(x, 0) is updated only when x == 0
                // (by iteration x = 0, the same iteration), f(x, 1) only when x == 1 (same).
                v = s0(xx, yy);
                if (xx == yy) v += s0(xx, 0) + s0(xx, 1);
            } else {
                v = s0(xx, yy);
                if (xx == 0) v += s0(1, yy) + s0(2, yy);
            }
            return v * 7 + yy;
        };
        Buffer<int> out = g.realize({W, H});
        INFO("variant " << variant);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  return fref(c[0], c[1]) + fref(c[0], c[1] - 1) + fref(c[0], c[1] - 2);
              }) == 0);
    }
}

// Follows Halide's sliding_over_guard_with_if.cpp: a folded producer that slides inside the
// inner loop of a GuardWithIf split of its consumer's rows, stored at the outer loop.
TEST_CASE("sliding_over_guard_with_if: fold_storage(y, 4) under a GuardWithIf split of y") {
    for (TailStrategy tail : {TailStrategy::GuardWithIf, TailStrategy::Auto, TailStrategy::RoundUp}) {
        Var x("x"), y("y"), yo("yo");
        Func expensive("expensive"), dst("dst");
        expensive(x, y) = x * 100 + y * y;
        dst(x, y) = expensive(x, y - 1) + expensive(x, y) + expensive(x, y + 1);
        dst.compute_root().split(y, yo, y, 64, tail);
        expensive.compute_at(dst, y).store_at(dst, yo).fold_storage(y, 4);
        const int H = tail == TailStrategy::RoundUp ? 128 : 100;
        Buffer<int> out(37, H);
        out.set_min(-3, -5);
        dst.realize(out);
        INFO("tail " << int(tail));
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int xx = c[0], yy = c[1];
                  return 3 * xx * 100 + (yy - 1) * (yy - 1) + yy * yy + (yy + 1) * (yy + 1);
              }) == 0);
    }
}

// Follows Halide's multiple_outputs.cpp: a Tuple producer, a 0-D Tuple argmax, and pipelines
// with several outputs of different sizes, dimensionalities and Tuple arities.
TEST_CASE("multiple_outputs: Tuple producers and Pipelines of outputs of different shapes") {
    {
        Func f("f"), g("g");
        Var x("x");
        f(x) = Tuple(x, cast<float>(x) * 0.5f);
        f.compute_root();
        Tuple t = f(x);
        g(x) = t[0] + t[1];
        Buffer<float> out = g.realize({100});
        CHECK(mismatches<float>(out, [](const std::vector<int> &c) { return float(c[0]) + float(c[0]) * 0.5f; }) == 0);
    }
    {
        // An argmax written by hand as a three-element Tuple update.
        Func f("f"), g("g");
        Var x("x"), y("y");
        f(x, y) = (x * 37 + y * 101) % 97 - (x - y) * (x - y) / 10;
        f.compute_root();
        RDom r(0, 30, 0, 20);
        g() = Tuple(0, 0, f(0, 0));
        Expr better = f(r.x, r.y) > g()[2];
        g() = Tuple(select(better, r.x, g()[0]), select(better, r.y, g()[1]), select(better, f(r.x, r.y), g()[2]));
        Realization res = g.realize(std::vector<int>{});
        int bx = 0, by = 0, best = (0 * 37 + 0) % 97;
        for (int yy = 0; yy < 20; yy++)
            for (int xx = 0; xx < 30; xx++) {
                int v = (xx * 37 + yy * 101) % 97 - (xx - yy) * (xx - yy) / 10;
                if (v > best) bx = xx, by = yy, best = v;
            }
        CHECK(Buffer<int>(res[0])() == bx);
        CHECK(Buffer<int>(res[1])() == by);
        CHECK(Buffer<int>(res[2])() == best);
    }
    {
        Func f("f"), g("g");
        Var x("x");
        f(x) = 100 * x;
        g(x) = x;
        Buffer<int> f_im(100), g_im(10);
        Pipeline({f, g}).realize(Realization(f_im, g_im));
        CHECK(mismatches<int>(f_im, [](const std::vector<int> &c) { return 100 * c[0]; }) == 0);
        CHECK(mismatches<int>(g_im, [](const std::vector<int> &c) { return c[0]; }) == 0);
    }
    {
        Func f("f"), g("g"), h("h");
        Var x("x"), y("y");
        f(x) = x;
        h(x) = Tuple(f(x) + 17, f(x) - 17);
        g(x, y) = Tuple(f(x + y) * 2, h(x)[0] * y, h(x)[1] - 2);
        Buffer<int> f_im(100), g0(20, 20), g1(20, 20), g2(20, 20), h0(50), h1(50);
        Pipeline({h, g, f}).realize(Realization(std::vector<Buffer<>>{h0, h1, g0, g1, g2, f_im}));
        CHECK(mismatches<int>(f_im, [](const std::vector<int> &c) { return c[0]; }) == 0);
        CHECK(mismatches<int>(h0, [](const std::vector<int> &c) { return c[0] + 17; }) == 0);
        CHECK(mismatches<int>(h1, [](const std::vector<int> &c) { return c[0] - 17; }) == 0);
        CHECK(mismatches<int>(g0, [](const std::vector<int> &c) { return (c[0] + c[1]) * 2; }) == 0);
        CHECK(mismatches<int>(g1, [](const std::vector<int> &c) { return (c[0] + 17) * c[1]; }) == 0);
        CHECK(mismatches<int>(g2, [](const std::vector<int> &c) { return c[0] - 17 - 2; }) == 0);
    }
}

// Follows Halide's split_reuse_inner_name_bug.cpp: a chain of splits that reuses the name of the
// Var being split as the new inner (or outer) Var.
TEST_CASE("split_reuse_inner_name_bug: splits that reuse the old Var's name as inner or outer") {
    Var x("x"), x0("x0"), x1("x1"), x2("x2"), x3("x3");
    Func f("f"), g("g");
    f(x) = x * 5 - 3;
    g(x) = f(x) + 1;
    f.compute_root().split(x, x0, x, 16).split(x, x, x1, 2).split(x, x2, x, 4).split(x, x, x3, 2);
    for (int n : {1024, 1000, 37}) {
        Buffer<int> out = g.realize({n});
        INFO("n = " << n);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 5 - 3 + 1; }) == 0);
    }
}

// Follows Halide's update_chunk.cpp: a producer computed at the RVar loop of its consumer's
// update, read transposed (f(r, x)).
TEST_CASE("update_chunk: a producer computed at the RVar of an update that reads it transposed") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    RDom r(0, 10);
    f(x, y) = x * y + x;
    g(x, y) = 0;
    g(x, r) = f(r, x) + 1;
    f.compute_at(g, r);
    Buffer<int> out = g.realize({10, 10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[1] * c[0] + c[1] + 1; }) == 0);
}

// Follows Halide's widening_reduction.cpp: an int16 convolution of a uint8 input with an int8
// kernel whose mins are (-1, -1), narrowed with u8_sat; a widening Tuple reduction; and a
// widening average into an output of width W - 2, all vectorized.
TEST_CASE("widening_reduction: int16 sums of uint8 times int8 narrowed by u8_sat, vectorized") {
    using namespace Halide::ConciseCasts;
    const int W = 67, H = 23;
    Buffer<uint8_t> in(W, H);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) in(xx, yy) = uint8_t(hash32(xx * 1000 + yy) & 0xff);
    Buffer<int8_t> kernel(3, 3);
    kernel.set_min(-1, -1);
    for (int yy = -1; yy <= 1; yy++)
        for (int xx = -1; xx <= 1; xx++) kernel(xx, yy) = int8_t(int(hash32(xx * 7 + yy * 3 + 100) % 8) - 4);
    auto clampi = [](int v, int lo, int hi) { return std::min(std::max(v, lo), hi); };
    auto inr = [&](int xx, int yy) { return in(clampi(xx, 0, W - 1), clampi(yy, 0, H - 1)); };

    Var x("x"), y("y");
    RDom r(-1, 3, -1, 3);
    Func input = BoundaryConditions::repeat_edge(in);
    input.compute_root();
    {
        Func f("f");
        f(x, y) = u8_sat(sum(i16(input(x + r.x, y + r.y)) * kernel(r.x, r.y)) / 16);
        f.vectorize(x, 16);
        Buffer<uint8_t> out = f.realize({W, H});
        CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &c) {
                  int16_t s = 0;
                  for (int ry = -1; ry <= 1; ry++)
                      for (int rx = -1; rx <= 1; rx++) s = int16_t(s + int16_t(inr(c[0] + rx, c[1] + ry)) * kernel(rx, ry));
                  // Halide's int16 division rounds down (Euclidean for a positive divisor).
                  int q = s >= 0 ? s / 16 : -((-s + 15) / 16);
                  return uint8_t(clampi(q, 0, 255));
              }) == 0);
    }
    {
        Func f("f"), g("g");
        f(x, y) = Tuple(i16(0), i8(0));
        f(x, y) = Tuple(f(x, y)[0] + i16(input(x + r.x, y + r.y)) * kernel(r.x, r.y), f(x, y)[1] + kernel(r.x, r.y));
        g(x, y) = u8_sat((f(x, y)[0] + f(x, y)[1]) / 16);
        g.vectorize(x, 16);
        Buffer<uint8_t> out = g.realize({W, H});
        CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &c) {
                  int16_t s = 0;
                  int8_t k = 0;
                  for (int ry = -1; ry <= 1; ry++)
                      for (int rx = -1; rx <= 1; rx++) {
                          s = int16_t(s + int16_t(inr(c[0] + rx, c[1] + ry)) * kernel(rx, ry));
                          k = int8_t(k + kernel(rx, ry));
                      }
                  int t = int16_t(s + k);
                  int q = t >= 0 ? t / 16 : -((-t + 15) / 16);
                  return uint8_t(clampi(q, 0, 255));
              }) == 0);
    }
    {
        Func f("f"), g("g");
        f(x, y) = i16(input(x, y));
        g(x, y) = u8_sat((f(x, y) + f(x + 1, y)) / 2);
        g.vectorize(x, 16);
        f.compute_at(g, y).vectorize(x, 16, TailStrategy::RoundUp);
        g.output_buffer().dim(0).set_min(0).set_extent(W - 2);
        g.output_buffer().dim(1).set_min(0).set_extent(H);
        Buffer<uint8_t> out = g.realize({W - 2, H});
        CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &c) {
                  return uint8_t((int(in(c[0], c[1])) + in(c[0] + 1, c[1])) / 2);
              }) == 0);
    }
}

// Follows Halide's inline_reduction.cpp: inline sum, product, maximum and minimum over a 3x3 RDom
// (vectorized), a separable minimum, reductions with the implicit placeholder, and extreme values
// of negative floats and infinities.
TEST_CASE("inline_reduction: inline reductions vectorized, separable, implicit, and of infinities") {
    RDom r(-1, 3, -1, 3);
    Func input("input");
    Var x("x"), y("y"), z("z");
    input(x, y) = cast<float>(x * y + 1);
    Expr v = input(x + r.x, y + r.y);
    Func local_variance("local_variance");
    Expr mean = sum(v) / 9.0f;
    local_variance(x, y) = sum(v * v) / 81.0f - mean * mean;
    Func local_product("local_product"), local_max("local_max"), local_min("local_min"), min_x("min_x"), min_y("min_y");
    local_product(x, y) = product(v);
    local_max(x, y) = maximum(v);
    local_min(x, y) = minimum(v);
    RDom kx(-1, 3), ky(-1, 3);
    min_x(x, y) = minimum(input(x + kx, y));
    min_y(x, y) = minimum(min_x(x, y + ky));
    local_product.vectorize(x, 4);
    local_max.vectorize(x, 4);
    local_min.vectorize(x, 4);
    min_y.vectorize(x, 4);
    const int W = 11, H = 10;
    Buffer<float> var_im = local_variance.realize({W, H});
    Buffer<float> prod_im = local_product.realize({W, H});
    Buffer<float> max_im = local_max.realize({W, H});
    Buffer<float> min_im = local_min.realize({W, H});
    Buffer<float> sep_im = min_y.realize({W, H});
    int bad = 0;
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) {
            float s = 0, s2 = 0, p = 1, mn = 1e10f, mx = -1e10f;
            for (int ry = -1; ry <= 1; ry++)
                for (int rx = -1; rx <= 1; rx++) {
                    float val = float((xx + rx) * (yy + ry) + 1);
                    s += val, s2 += val * val, p *= val;
                    mn = std::min(mn, val), mx = std::max(mx, val);
                }
            float m = s / 9.0f;
            float want_var = s2 / 81.0f - m * m;
            if (!(std::abs(var_im(xx, yy) - want_var) <= 1e-3f)) bad++;
            float ratio = (p + 10) / (prod_im(xx, yy) + 10);
            if (ratio < 0.99f || ratio > 1.01f) bad++;
            if (min_im(xx, yy) != mn || sep_im(xx, yy) != mn || max_im(xx, yy) != mx) bad++;
        }
    CHECK(bad == 0);

    // Implicit placeholders in the reduced expression.
    Buffer<float> in3 = lambda(x, y, z, x * 100.0f + y * 10.0f + cast<float>((z * 7) % 10)).realize({6, 5, 4});
    RDom all_z(in3.min(2), in3.extent(2));
    Func sum_i("sum_i"), min_i("min_i"), max_i("max_i"), argmin_i("argmin_i");
    sum_i(_) = sum(in3(_, all_z));
    min_i(_) = minimum(in3(_, all_z));
    max_i(_, y) = maximum(in3(_, y, all_z));
    argmin_i(_) = argmin(in3(_, all_z))[0];
    Buffer<float> s_im = sum_i.realize({6, 5});
    Buffer<float> mn_im = min_i.realize({6, 5});
    Buffer<float> mx_im = max_i.realize({6, 5});
    Buffer<int> am_im = argmin_i.realize({6, 5});
    bad = 0;
    for (int yy = 0; yy < 5; yy++)
        for (int xx = 0; xx < 6; xx++) {
            float s = 0, mn = 1e30f, mx = -1e30f;
            int am = 0;
            for (int zz = 0; zz < 4; zz++) {
                float val = in3(xx, yy, zz);
                s += val;
                if (val < mn) mn = val, am = zz;
                mx = std::max(mx, val);
            }
            if (s_im(xx, yy) != s || mn_im(xx, yy) != mn || mx_im(xx, yy) != mx || am_im(xx, yy) != am) bad++;
        }
    CHECK(bad == 0);

    const float inf = std::numeric_limits<float>::infinity();
    CHECK(evaluate<float>(minimum(RDom(0, 11) * -0.5f)) == -5.0f);
    CHECK(evaluate<double>(minimum(RDom(0, 11) * cast<double>(-0.5f))) == -5.0);
    CHECK(evaluate<float>(minimum(RDom(1, 10) * inf)) == inf);
    CHECK(evaluate<double>(minimum(RDom(1, 10) * Expr(double(inf)))) == double(inf));
    CHECK(evaluate<float>(maximum(RDom(1, 10) * -inf)) == -inf);
    CHECK(evaluate<double>(maximum(RDom(1, 10) * Expr(-double(inf)))) == -double(inf));
}

// Follows Halide's vectorize_guard_with_if.cpp: vectorized GuardWithIf tails at sizes the vector
// does not divide, a gather b(x / 2) from a buffer half the size, and a clamped gather from an
// ImageParam through a vectorized root producer.
TEST_CASE("vectorize_guard_with_if: GuardWithIf vector tails never read or write past the end") {
    {
        Func f("f");
        Var x("x");
        f(x) = x;
        f.vectorize(x, 8, TailStrategy::GuardWithIf);
        Buffer<int> out = f.realize({100});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0]; }) == 0);
    }
    {
        const int w = 98;
        Buffer<int> b(w / 2);
        for (int i = 0; i < w / 2; i++) b(i) = i;
        Func f("f");
        Var x("x");
        f(x) = b(x / 2) + x / 2;
        f.output_buffer().dim(0).set_min(0).set_extent(w);
        f.vectorize(x, 8, TailStrategy::GuardWithIf);
        Buffer<int> out = f.realize({w});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] / 2 + c[0] / 2; }) == 0);
    }
    {
        Var x("x");
        Func f("f"), g("g");
        ImageParam in(Int(32), 1, "in");
        Expr index = clamp(x * x - 2, 0, x);
        f(x) = index + in(index);
        g(x) = f(x);
        f.compute_root().vectorize(x, 8, TailStrategy::GuardWithIf);
        g.compute_root().vectorize(x, 8, TailStrategy::GuardWithIf);
        const int w = 100;
        Buffer<int> buf(w);
        for (int i = 0; i < w; i++) buf(i) = 3 * i;
        in.set(buf);
        Buffer<int> out = g.realize({w});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int i = c[0];
                  int idx = std::max(std::min(i * i - 2, i), 0);
                  return idx + 3 * idx;
              }) == 0);
    }
}

// Follows Halide's unroll_dynamic_loop.cpp: a producer unrolled over a loop whose extent is
// not constant (computed at the outer loop of a GuardWithIf split), stored on the stack.
// Halide unrolls a loop of non-constant extent by its constant upper bound (8 here), guarding
// each copy (Halo once refused it: "unroll of loop 'f.s0.x' whose extent ... is not a constant").
TEST_CASE("unroll_dynamic_loop: unrolling a producer whose extent depends on the GuardWithIf tail") {
    Func f("f"), g("g");
    Var x("x"), xo("xo"), xi("xi");
    Buffer<float> in(100);
    for (int i = 0; i < 100; i++) in(i) = i * 2.0f;
    f(x) = in(x) * 3;
    g(x) = f(x) * 2;
    g.split(x, xo, xi, 8, TailStrategy::GuardWithIf).unroll(xi);
    f.compute_at(g, xo).unroll(x).store_in(MemoryType::Stack);
    Buffer<float> out = g.realize({23});
    CHECK(mismatches<float>(out, [](const std::vector<int> &c) { return float(c[0] * 2 * 3 * 2); }) == 0);
}

// Follows Halide's unrolled_reduction.cpp: an update over an RVar split and unrolled, of a
// producer computed per row of a 3-D consumer that unrolls its outer dimension.
TEST_CASE("unrolled_reduction: a split and unrolled RVar in a producer computed per consumer row") {
    Var x("x"), y("y"), z("z");
    Buffer<float> noise(33);
    for (int i = 0; i < 33; i++) noise(i) = float(hash32(i) % 1000) / 1000.0f;
    Func f("f"), g("g");
    RDom r(0, 33);
    g(x, y) = cast<float>(y);
    g(r.x, y) += noise(r.x);
    f(x, y, z) = g(x, y) + g(x + 1, y) + cast<float>(z);
    RVar rxo("rxo"), rxi("rxi");
    g.compute_at(f, y).update().split(r.x, rxo, rxi, 2).unroll(rxi);
    f.unroll(z, 2);
    Buffer<float> out = f.realize({40, 7, 5});
    auto gref = [&](int xx, int yy) { return float(yy) + (xx >= 0 && xx < 33 ? noise(xx) : 0.0f); };
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) {
              return gref(c[0], c[1]) + gref(c[0] + 1, c[1]) + float(c[2]);
          }) == 0);
}

// Follows Halide's split_fuse_rvar.cpp: a 2-D RVar fused then split with a different factor, and
// a 1-D RVar split then fused back.
TEST_CASE("split_fuse_rvar: fusing then splitting RVars, and splitting then fusing") {
    {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x) = x;
        g(x, y) = -1;
        RDom r(0, 5, 0, 3);
        g(r.x, r.y) = f(r.y * 5 + r.x);
        RVar rxy("rxy"), rxyo("rxyo"), rxyi("rxyi");
        g.update(0).fuse(r.x, r.y, rxy).split(rxy, rxyo, rxyi, 2);
        Buffer<int> out = g.realize({6, 4});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  return (c[0] < 5 && c[1] < 3) ? c[1] * 5 + c[0] : -1;
              }) == 0);
    }
    {
        Var x("x");
        Func f("f"), g("g");
        f(x) = x * 2;
        g(x) = -1;
        RDom r(0, 15);
        g(r) = f(r);
        RVar ro("ro"), ri("ri"), roi("roi");
        g.update(0).split(r, ro, ri, 2).fuse(ri, ro, roi);
        Buffer<int> out = g.realize({16});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] < 15 ? c[0] * 2 : -1; }) == 0);
    }
}

// Follows Halide's compute_outermost.cpp: producers computed at Var::outermost() of consumers
// that are themselves computed at the fused, parallel tile loop of the output.
TEST_CASE("compute_outermost: compute_at(blury, Var::outermost()) under a parallel fused tile loop") {
    auto blur = [](Func in, const std::string &n) {
        Func blurx("blurx_" + n), blury("blury_" + n);
        Var x("x"), y("y");
        blurx(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
        blury(x, y) = (blurx(x, y - 1) + blurx(x, y) + blurx(x, y + 1)) / 9;
        blurx.compute_at(blury, Var::outermost());
        return blury;
    };
    Func fn1("fn1"), fn2("fn2"), out("out");
    Var x("x"), y("y"), xi("xi"), yi("yi"), t("t");
    fn1(x, y) = x + y;
    fn2(x, y) = 2 * x + 3 * y;
    Func b1 = blur(fn1, "1"), b2 = blur(fn2, "2");
    out(x, y) = b1(x, y) + b2(x, y);
    out.tile(x, y, xi, yi, 16, 16).fuse(x, y, t).parallel(t);
    b1.compute_at(out, t);
    b2.compute_at(out, t);
    Buffer<int> res(70, 45);
    res.set_min(-9, 4);
    out.realize(res);
    CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return 3 * c[0] + 4 * c[1]; }) == 0);
}

// Follows Halide's tuple_reduction.cpp: Tuple updates that swap their elements (every element
// read before any is written), with the steps scheduled differently (GPU steps replaced by tiled,
// vectorized and parallel CPU schedules), and steps that read only one element of the last.
TEST_CASE("tuple_reduction: swapping Tuple updates, each step scheduled its own way") {
    const int W = 45, H = 38;
    {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = Tuple(x + y, x - y);
        f(x, y) = Tuple(f(x, y)[1] * 2, f(x, y)[0] * 2);
        f.tile(x, y, xi, yi, 16, 16).vectorize(xi, 8).parallel(y);
        f.update().tile(x, y, xi, yi, 16, 16, TailStrategy::GuardWithIf).vectorize(xi, 4).parallel(y);
        Realization res = f.realize({W, H});
        Buffer<int> a = res[0], b = res[1];
        CHECK(mismatches<int>(a, [](const std::vector<int> &c) { return (c[0] - c[1]) * 2; }) == 0);
        CHECK(mismatches<int>(b, [](const std::vector<int> &c) { return (c[0] + c[1]) * 2; }) == 0);
    }
    for (int parity = 0; parity < 2; parity++) {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = Tuple(x + y, x - y);
        for (int i = 0; i < 10; i++) f(x, y) = Tuple(f(x, y)[1] + 1, f(x, y)[0] + 1);
        if (parity == 0) f.vectorize(x, 8).parallel(y);
        for (int i = 0; i < 10; i++)
            if ((i & 1) == parity) f.update(i).tile(x, y, xi, yi, 16, 16, TailStrategy::GuardWithIf).vectorize(xi, 8).parallel(y);
        Realization res = f.realize({W, H});
        Buffer<int> a = res[0], b = res[1];
        INFO("parity " << parity);
        CHECK(mismatches<int>(a, [](const std::vector<int> &c) { return c[0] + c[1] + 10; }) == 0);
        CHECK(mismatches<int>(b, [](const std::vector<int> &c) { return c[0] - c[1] + 10; }) == 0);
    }
    {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = Tuple(x + y - 1000, x - y + 1000);
        for (int i = 0; i < 10; i++) f(x, y) = Tuple(f(x, y)[1] - 1, f(x, y)[1] + 1);
        for (int i = 0; i < 10; i += 2) f.update(i).tile(x, y, xi, yi, 16, 16, TailStrategy::GuardWithIf).vectorize(xi, 8);
        Realization res = f.realize({W, H});
        Buffer<int> a = res[0], b = res[1];
        CHECK(mismatches<int>(a, [](const std::vector<int> &c) { return c[0] - c[1] + 1000 + 8; }) == 0);
        CHECK(mismatches<int>(b, [](const std::vector<int> &c) { return c[0] - c[1] + 1000 + 10; }) == 0);
    }
}

// Follows Halide's bounds_of_split.cpp (Halide issue 6186): a producer computed per row of an
// output whose rows are split with GuardWithIf, with the output's bounds constrained.
TEST_CASE("bounds_of_split: a producer per row under a GuardWithIf split of a constrained output") {
    Var x("x"), y("y"), chunk("chunk");
    ImageParam input(UInt(8), 2, "input");
    Func intermed("intermed"), output("output");
    intermed(x, y) = input(x, y) + 1;
    output(x, y) = intermed(x, y) * 2;
    intermed.compute_at(output, y);
    output.split(y, chunk, y, 64, TailStrategy::GuardWithIf);
    Buffer<uint8_t> in(100, 100);
    for (int yy = 0; yy < 100; yy++)
        for (int xx = 0; xx < 100; xx++) in(xx, yy) = uint8_t(hash32(xx + 100 * yy) % 100);
    input.set(in);
    output.output_buffer().dim(0).set_min(0).set_extent(100);
    output.output_buffer().dim(1).set_min(0).set_extent(100);
    Buffer<uint8_t> out = output.realize({100, 100});
    CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &c) { return uint8_t((in(c[0], c[1]) + 1) * 2); }) == 0);
}

// Follows Halide's compute_at_split_rvar.cpp: a producer computed at the inner or outer loop of a
// split RVar, unrolled, with the split reordered, and at the fusion of two of three split loops.
TEST_CASE("compute_at_split_rvar: producers computed inside split, reordered and fused RVar loops") {
    for (int variant = 0; variant < 5; variant++) {
        Func f("f"), g("g");
        Var x("x");
        const int n = variant == 4 ? 20 : 10;
        RDom r(0, n);
        RVar ri("ri"), ro("ro"), rio("rio"), rii("rii"), fused("fused");
        f(x) = x * x + 7;
        g(x) = -1;
        g(r) = f(r) + g(r);
        switch (variant) {
        case 0:
            g.update().split(r, ro, ri, 2);
            f.compute_at(g, ri);
            break;
        case 1:
            g.update().split(r, ro, ri, 2);
            f.compute_at(g, ro).unroll(x);
            break;
        case 2:
            g.update().split(r, ro, ri, 2).unroll(ri);
            f.compute_at(g, ri);
            break;
        case 3:
            g.update().split(r, ro, ri, 2).reorder(ro, ri);
            f.compute_at(g, ro);
            break;
        case 4:
            g.update().split(r, ro, ri, 4).split(ri, rio, rii, 2).fuse(rio, ro, fused);
            f.compute_at(g, fused);
            break;
        }
        Buffer<int> out = g.realize({n + 3});
        INFO("variant " << variant);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return c[0] < n ? c[0] * c[0] + 7 - 1 : -1; }) == 0);
    }
}

// Follows Halide's chunk.cpp: a producer computed per tile of its consumer, read at x - 1 and
// x + 1 (here at sizes the 8x8 tile does not divide, over non-zero mins).
TEST_CASE("chunk: a producer computed at the outer tile loop of an 8x8-tiled consumer") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = cast<float>(x) + cast<float>(y) * 0.25f;
    g(x, y) = f(x + 1, y) + f(x - 1, y);
    g.tile(x, y, xo, yo, xi, yi, 8, 8);
    f.compute_at(g, xo);
    Buffer<float> out(37, 29);
    out.set_min(-11, 5);
    g.realize(out);
    CHECK(mismatches<float>(out, [](const std::vector<int> &c) {
              return (float(c[0] + 1) + float(c[1]) * 0.25f) + (float(c[0] - 1) + float(c[1]) * 0.25f);
          }) == 0);
}

// Follows Halide's fuse.cpp: tile, fuse the tile indices and the within-tile indices, tile and
// fuse those again (no tiling divides the region) and vectorize; and x and y of a dense output
// fused and vectorized once the strides say the rows are contiguous.
TEST_CASE("fuse: tile, fuse, tile again, fuse again and vectorize, fusing the dims of a dense buffer") {
    Var x("x"), y("y");
    {
        Func f("f"), g("g");
        Expr e = x * 3 + y;
        f(x, y) = e;
        g(x, y) = e;
        f.compute_root();
        Var xi("xi"), xo("xo"), yi("yi"), yo("yo");
        g.compute_root()
            .tile(x, y, xo, yo, xi, yi, 3, 5)
            .fuse(xo, yo, y)
            .fuse(xi, yi, x)
            .tile(x, y, xo, yo, xi, yi, 7, 6)
            .fuse(xo, yo, y)
            .fuse(xi, yi, x)
            .vectorize(y, 4);
        RDom r(-16, 32, -16, 32);
        Func err("err");
        err() = maximum(abs(f(r.x, r.y) - g(r.x, r.y)));
        Buffer<uint32_t> e_im = err.realize(std::vector<int>{});
        CHECK(e_im() == 0u);
        Buffer<int> out(23, 19);
        out.set_min(-4, -7);
        g.realize(out);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 3 + c[1]; }) == 0);
    }
    {
        ImageParam p(Int(32), 2, "p");
        Func f("f");
        f(x, y) = p(x, y) * 2 + 1;
        f.output_buffer().dim(0).set_min(0);
        p.dim(0).set_min(0);
        f.output_buffer().dim(1).set_stride(f.output_buffer().dim(0).extent());
        p.dim(1).set_stride(f.output_buffer().dim(0).extent());
        Var xy("xy");
        f.compute_root().fuse(x, y, xy).vectorize(xy, 16);
        Buffer<int> in(13, 7);
        for (int yy = 0; yy < 7; yy++)
            for (int xx = 0; xx < 13; xx++) in(xx, yy) = int(hash32(xx * 31 + yy) % 1000);
        p.set(in);
        Buffer<int> out = f.realize({13, 7});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return in(c[0], c[1]) * 2 + 1; }) == 0);
    }
}

// Follows Halide's storage_folding.cpp (the cases that check values; the allocation sizes it
// checks through a custom allocator are not observable here): automatic and explicit folds of
// producers stored at root and computed per point or per row, under a specialization, over
// non-overlapping boxes, with upsampling, with bound() and a split, and with channels
// innermost in storage.
TEST_CASE("storage_folding: producers stored at root, folded, computed per point or per row") {
    Var x("x"), y("y"), c("c");
    {
        Func f("f"), g("g");
        f(x, y, c) = x + 10 * y + 1000 * c;
        g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
        f.store_root().compute_at(g, x);
        Buffer<int> out = g.realize({21, 17, 3});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return (p[0] - 1 + 10 * (p[1] + 1) + 1000 * p[2]) + (p[0] + 10 * (p[1] - 1) + 1000 * p[2]);
              }) == 0);
    }
    for (int w : {3, 21}) {
        // A specialization makes two producers of the folded buffer.
        Func f("f"), g("g");
        f(x, y, c) = x * 3 + y * 5 + c;
        g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
        f.store_root().compute_at(g, x);
        g.specialize(g.output_buffer().width() > 4).vectorize(x, 4);
        Buffer<int> out = g.realize({w, 17, 3});
        INFO("w = " << w);
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return ((p[0] - 1) * 3 + (p[1] + 1) * 5 + p[2]) + (p[0] * 3 + (p[1] - 1) * 5 + p[2]);
              }) == 0);
    }
    for (int w : {3, 21}) {
        Func f("f"), g("g");
        f(x, y) = x * 3 + y * 5;
        g(x, y) = f(x - 1, y + 1) + f(x, y - 1);
        f.store_root().compute_at(g, y).fold_storage(y, 3);
        g.specialize(g.output_buffer().width() > 4).vectorize(x, 4);
        Buffer<int> out = g.realize({w, 31});
        INFO("w = " << w);
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return ((p[0] - 1) * 3 + (p[1] + 1) * 5) + (p[0] * 3 + (p[1] - 1) * 5);
              }) == 0);
    }
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(2 * x, 2 * y) + g(2 * x + 1, 2 * y + 1);
        g.compute_at(f, x).store_root();
        Buffer<int> out = f.realize({33, 29});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return (2 * p[0]) * (2 * p[1]) + (2 * p[0] + 1) * (2 * p[1] + 1);
              }) == 0);
    }
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(x, 2 * y) + g(x + 3, 2 * y + 1);
        g.compute_at(f, x).store_root();
        Buffer<int> out = f.realize({33, 29});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * (2 * p[1]) + (p[0] + 3) * (2 * p[1] + 1); }) == 0);
    }
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(2 * x, y) + g(2 * x + 1, y + 3);
        g.compute_at(f, x).store_root();
        Buffer<int> out = f.realize({33, 29});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return (2 * p[0]) * p[1] + (2 * p[0] + 1) * (p[1] + 3); }) == 0);
    }
    {
        Func f("f"), g("g");
        Var yo("yo"), yi("yi");
        g(x, y) = x * y;
        f(x, y) = g(x, y);
        f.bound(y, 0, (f.output_buffer().height() / 8) * 8).split(y, yo, yi, 8);
        g.compute_at(f, yo).store_root();
        Buffer<int> out = f.realize({33, 48});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * p[1]; }) == 0);
    }
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(x, y / 2) + g(x, y / 2 + 1);
        g.compute_at(f, x).store_root();
        Buffer<int> out = f.realize({33, 29});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * (p[1] / 2) + p[0] * (p[1] / 2 + 1); }) == 0);
    }
    {
        Func f("f"), g("g"), h("h");
        h(x, y) = x * y;
        g(x, y) = h(x, y / 2) + h(x, y / 2 + 1);
        f(x, y) = g(x, y / 2) + g(x, y / 2 + 1);
        h.compute_at(f, y).store_root().fold_storage(y, 4);
        g.compute_at(f, y).store_root().fold_storage(y, 2);
        Buffer<int> out = f.realize({33, 29});
        auto hr = [](int a, int b) { return a * b; };
        auto gr = [&](int a, int b) { return hr(a, b / 2) + hr(a, b / 2 + 1); };
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return gr(p[0], p[1] / 2) + gr(p[0], p[1] / 2 + 1); }) == 0);
    }
    for (bool interleave : {false, true}) {
        Func f("f"), g("g");
        f(x, y, c) = x + 100 * y + 10000 * c;
        g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
        f.store_root().compute_at(g, y).fold_storage(y, 3);
        if (interleave) {
            f.reorder(c, x, y).reorder_storage(c, x, y);
            g.reorder(c, x, y).reorder_storage(c, x, y);
        }
        Buffer<int> out = g.realize({21, 17, 3});
        INFO("interleave " << interleave);
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return (p[0] - 1 + 100 * (p[1] + 1) + 10000 * p[2]) + (p[0] + 100 * (p[1] - 1) + 10000 * p[2]);
              }) == 0);
    }
}

// Follows the explicit fold by 3 in Halide's storage_folding.cpp: a producer computed per point
// of its consumer, stored at root, folded along the consumer's outer (row) loop: each row of
// the consumer needs rows y..y+2 of the producer, so 3 rows suffice (Halide allocates
// 2 * width * 3 elements). Halo once asked for the realization's 31 rows ("fold by at least 31").
TEST_CASE("storage_folding: fold_storage along the row loop outside the producer's compute_at loop") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    g(x, y) = x * y;
    f(x, y) = g(2 * x, y) + g(2 * x + 1, y + 2);
    g.compute_at(f, x).store_root().fold_storage(y, 3);
    Buffer<int> out = f.realize({33, 29});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return (2 * p[0]) * p[1] + (2 * p[0] + 1) * (p[1] + 2); }) == 0);
}

// Follows Halide's reorder_storage.cpp: a root producer with channels innermost in storage,
// then its x dimension padded by align_storage(x, 16).
TEST_CASE("reorder_storage: channels innermost in storage, then storage aligned") {
    for (bool aligned : {false, true}) {
        Var x("x"), y("y"), c("c");
        Func f("f"), g("g");
        f(x, y, c) = x * 7 + y * 11 + c * 13;
        g(x, y, c) = f(x, y, c) + f(x + 1, y, 2 - c);
        f.compute_root().reorder_storage(c, x, y);
        if (aligned) f.align_storage(x, 16);
        Buffer<int> out = g.realize({10, 11, 3});
        INFO("aligned " << aligned);
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return (p[0] * 7 + p[1] * 11 + p[2] * 13) + ((p[0] + 1) * 7 + p[1] * 11 + (2 - p[2]) * 13);
              }) == 0);
    }
}

// Follows Halide's bound_small_allocations.cpp: int64 products shifted, clamped and narrowed,
// chained through three inlined Funcs (whose simplification could overflow), vectorized.
TEST_CASE("bound_small_allocations: int64 rounding arithmetic clamped to int32, chained and vectorized") {
    auto calc = [](Expr a) {
        Expr prod = cast<int64_t>(a) * cast<int64_t>(a);
        Expr scaled = (prod + (1 << 30)) >> 31;
        Expr clamped = clamp(scaled, lowest(Int(32)), highest(Int(32)));  // Halide: Int(32).min(), .max()
        return cast<int32_t>(clamped);
    };
    auto calc_ref = [](int32_t a) {
        int64_t prod = int64_t(a) * int64_t(a);
        int64_t scaled = (prod + (1 << 30)) >> 31;
        int64_t clamped = std::min<int64_t>(std::max<int64_t>(scaled, INT32_MIN), INT32_MAX);
        return int32_t(clamped);
    };
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    f(x, y) = calc(max(x + (1 << 28), -(1 << 29) + (1 << 28)));
    g(x, y) = calc(f(x, y)) + f(x, y) / 4 + (1 << 30);
    h(x, y) = calc(g(x, y)) + g(x, y) / 4 + (1 << 30);
    h.vectorize(x, 8).compute_root();
    Buffer<int> out(35, 3);
    out.set_min(-20, 0);
    h.realize(out);
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
              int32_t fv = calc_ref(std::max(p[0] + (1 << 28), -(1 << 29) + (1 << 28)));
              // The int32 additions wrap in two's complement (as the generated code does).
              auto wrap_add = [](int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); };
              auto div4 = [](int32_t a) { return a >= 0 ? a / 4 : -((-int64_t(a) + 3) / 4); };
              int32_t gv = wrap_add(wrap_add(calc_ref(fv), int32_t(div4(fv))), 1 << 30);
              return wrap_add(wrap_add(calc_ref(gv), int32_t(div4(gv))), 1 << 30);
          }) == 0);
}

// Follows Halide's shift_by_unsigned_negated.cpp: shifting by the negation of a uint32 read from
// a buffer (the shift amount is unsigned, so its negation is a large positive number wrapped
// back to the intended amount, never a shift the other way).
TEST_CASE("shift_by_unsigned_negated: -1u << -step(x) and -1u >> -step(x) for uint32 steps") {
    Buffer<uint32_t> step(31);
    for (int i = 0; i < 31; i++) step(i) = uint32_t(-i);
    Var x("x");
    Func l("l"), r("r");
    l(x) = Expr(uint32_t(-1)) << -step(x);
    r(x) = Expr(uint32_t(-1)) >> -step(x);
    Buffer<uint32_t> lo = l.realize({31}), ro = r.realize({31});
    CHECK(mismatches<uint32_t>(lo, [](const std::vector<int> &p) { return uint32_t(-1) << p[0]; }) == 0);
    CHECK(mismatches<uint32_t>(ro, [](const std::vector<int> &p) { return uint32_t(-1) >> p[0]; }) == 0);
}

// Follows Halide's sliding_window.cpp: every sliding-window schedule it tries (under a
// specialization, two producers, two windows in sequence, a containing stage, an inner
// vectorized channel dimension, a producer with an update, two dimensions at once, a diagonal
// footprint, a fixed footprint, a new value every third iteration, an unrolled producer,
// vectorized producer and consumer, chains of stencils stored at root, and a clamped index that
// needs a warm-up). The call counts it checks are not observable here; the values are.
TEST_CASE("sliding_window: every sliding schedule of Halide's test computes the right values") {
    Var x("x"), y("y"), c("c");
    auto fx = [](int a) { return a * a + 3; };
    auto fxy = [](int a, int b) { return a * 3 - b * b + 7; };
    SUBCASE("specialized on the output min") {
        for (int mn : {0, -5}) {
            Func f("f"), g("g");
            f(x) = x * x + 3;
            g(x) = f(x) + f(x - 1);
            f.store_root().compute_at(g, x);
            g.specialize(g.output_buffer().dim(0).min() == 0);
            Buffer<int> out(37);
            out.set_min(mn);
            g.realize(out);
            CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return fx(p[0]) + fx(p[0] - 1); }) == 0);
        }
    }
    SUBCASE("two producers of one consumer") {
        Func f("f"), g("g"), h("h");
        f(x) = 2 * x;
        g(x) = 2 * x + 1;
        h(x) = f(x) + f(x - 1) * 10 + g(x) * 100 + g(x - 1) * 1000;
        f.store_root().compute_at(h, x);
        g.store_root().compute_at(h, x);
        Buffer<int> out = h.realize({37});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  int i = p[0];
                  return 2 * i + 2 * (i - 1) * 10 + (2 * i + 1) * 100 + (2 * i - 1) * 1000;
              }) == 0);
    }
    SUBCASE("two windows in sequence") {
        Func f("f"), g("g"), h("h");
        f(x) = x * x + 3;
        g(x) = f(x) + f(x - 1) * 2;
        h(x) = g(x) + g(x - 1) * 3;
        f.store_root().compute_at(h, x);
        g.store_root().compute_at(h, x);
        Buffer<int> out = h.realize({37});
        auto gr = [&](int i) { return fx(i) + fx(i - 1) * 2; };
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return gr(p[0]) + gr(p[0] - 1) * 3; }) == 0);
    }
    SUBCASE("a containing stage") {
        Func f("f"), g("g"), h("h");
        f(x) = x * x + 3;
        g(x) = f(x) + f(x - 1);
        h(x) = g(x) * 2;
        f.store_root().compute_at(g, x);
        g.compute_at(h, x);
        Buffer<int> out = h.realize({37});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return (fx(p[0]) + fx(p[0] - 1)) * 2; }) == 0);
    }
    SUBCASE("an inner vectorized channel dimension") {
        Func g("g"), h("h"), f2("f2");
        f2(x, c) = x * x * 10 + c * 3;
        g(x, c) = f2(x + 1, c) - f2(x, c);
        h(x, c) = g(x, c);
        f2.store_root().compute_at(h, x).reorder(c, x).reorder_storage(c, x).bound(c, 0, 4).vectorize(c);
        g.compute_at(h, x);
        h.reorder(c, x).reorder_storage(c, x).bound(c, 0, 4).vectorize(c);
        Buffer<int> out = h.realize({37, 4});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return ((p[0] + 1) * (p[0] + 1) * 10 + p[1] * 3) - (p[0] * p[0] * 10 + p[1] * 3);
              }) == 0);
    }
    SUBCASE("a producer with an update") {
        RDom r(0, 23);
        Func f("f"), g("g");
        f(x, y) = x - y;
        f(r, y) = r * 3 + y * y;
        f.store_root().compute_at(g, y);
        g(x, y) = f(x, y) + f(x, y - 1) * 2;
        Buffer<int> out = g.realize({27, 13});
        auto fr = [](int a, int b) { return (a >= 0 && a < 23) ? a * 3 + b * b : a - b; };
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return fr(p[0], p[1]) + fr(p[0], p[1] - 1) * 2; }) == 0);
    }
    SUBCASE("two dimensions at once") {
        Func f("f"), g("g");
        f(x, y) = x * 3 - y * y + 7;
        g(x, y) = f(x - 1, y) + f(x, y) * 2 + f(x, y - 1) * 3;
        f.store_root().compute_at(g, x);
        Buffer<int> out = g.realize({13, 11});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  return fxy(p[0] - 1, p[1]) + fxy(p[0], p[1]) * 2 + fxy(p[0], p[1] - 1) * 3;
              }) == 0);
    }
    SUBCASE("a diagonal footprint") {
        Func f("f"), g("g");
        f(x, y) = x * 3 - y * y + 7;
        g(x, y) = f(x + y, x - y) + f((x - 2) + y, (x - 2) - y) * 2 + f(x + (y - 2), x - (y - 2)) * 3;
        f.store_root().compute_at(g, x);
        Buffer<int> out = g.realize({10, 10});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  int a = p[0], b = p[1];
                  return fxy(a + b, a - b) + fxy(a - 2 + b, a - 2 - b) * 2 + fxy(a + b - 2, a - b + 2) * 3;
              }) == 0);
    }
    SUBCASE("the example of Func.h: a 2x2 box stored per row, computed per point") {
        Func f("f"), g("g");
        f(x, y) = x * y;
        g(x, y) = f(x, y) + f(x + 1, y) + f(x, y + 1) + f(x + 1, y + 1);
        f.store_at(g, y).compute_at(g, x);
        Buffer<int> out = g.realize({10, 10});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  int a = p[0], b = p[1];
                  return a * b + (a + 1) * b + a * (b + 1) + (a + 1) * (b + 1);
              }) == 0);
    }
    SUBCASE("a footprint fixed over the loop") {
        Func f("f"), g("g");
        f(x) = x * x + 3;
        g(x) = f(0) + f(5) * 2 + x;
        f.store_root().compute_at(g, x);
        Buffer<int> out(37);
        out.set_min(-10);
        g.realize(out);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return fx(0) + fx(5) * 2 + p[0]; }) == 0);
    }
    SUBCASE("a new value every third iteration") {
        Func f("f"), g("g");
        f(x) = x * x + 3;
        g(x) = f(x / 3);
        f.store_root().compute_at(g, x);
        Buffer<int> out(100);
        out.set_min(-50);
        g.realize(out);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  int q = p[0] >= 0 ? p[0] / 3 : -((-p[0] + 2) / 3);
                  return fx(q);
              }) == 0);
    }
    SUBCASE("a vectorized producer and consumer") {
        Func f("f"), g("g");
        f(x) = x * x + 3;
        g(x) = f(x + 1) + f(x - 1) * 2;
        f.store_root().compute_at(g, x).vectorize(x, 4);
        g.vectorize(x, 4);
        Buffer<int> out = g.realize({101});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return fx(p[0] + 1) + fx(p[0] - 1) * 2; }) == 0);
    }
    for (int variant = 0; variant < 3; variant++) {
        {  // a sequence of stencils stored at root
            Func f("f"), g("g"), h("h"), u("u"), v("v");
            f(x, y) = x * 3 - y * y + 7;
            g(x, y) = f(x, y - 1) + f(x, y + 1) * 2;
            h(x, y) = g(x - 1, y) + g(x + 1, y) * 3;
            u(x, y) = h(x, y - 1) + h(x, y + 1) * 5;
            v(x, y) = u(x - 1, y) + u(x + 1, y) * 7;
            if (variant == 0) {
                u.compute_at(v, y);
                h.store_root().compute_at(v, y);
                g.store_root().compute_at(v, y);
                f.store_root().compute_at(v, y);
            } else if (variant == 1) {
                u.compute_at(v, y);
                h.store_root().compute_at(v, y);
                g.compute_at(h, y);
                f.store_root().compute_at(v, y);
            } else {
                u.compute_at(v, y);
                h.store_root().compute_at(u, y);
                g.compute_at(h, y);
                f.store_root().compute_at(g, y);
            }
            Buffer<int> out = v.realize({10, 10});
            auto gr = [&](int a, int b) { return fxy(a, b - 1) + fxy(a, b + 1) * 2; };
            auto hr = [&](int a, int b) { return gr(a - 1, b) + gr(a + 1, b) * 3; };
            auto ur = [&](int a, int b) { return hr(a, b - 1) + hr(a, b + 1) * 5; };
            INFO("variant " << variant);
            CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ur(p[0] - 1, p[1]) + ur(p[0] + 1, p[1]) * 7; }) == 0);
        }
    }
    SUBCASE("a clamped index that needs a warm-up") {
        Func f("f"), g("g");
        f(x) = x * x + 3;
        g(x) = f(max(x, 3));
        f.store_root().compute_at(g, x);
        Buffer<int> out = g.realize({10});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return fx(std::max(p[0], 3)); }) == 0);
    }
}

// Follows the unrolled-producer case of Halide's sliding_window.cpp: a producer stored at root,
// computed per outer loop of a split consumer and unrolled; sliding makes the producer's loop
// start at the previous iteration's end, so its extent is no longer constant (Halide unrolls
// by the constant bound 10 and guards the copies; Halo once refused it).
TEST_CASE("sliding_window: a sliding producer unrolled at the outer loop of a split") {
    Var x("x"), xi("xi");
    Func f("f"), g("g");
    f(x) = x * x;
    g(x) = f(x) + f(x - 1);
    g.split(x, x, xi, 10);
    f.store_root().compute_at(g, x).unroll(x);
    Buffer<int> out = g.realize({100});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * p[0] + (p[0] - 1) * (p[0] - 1); }) == 0);
}

// Follows Halide's bounds_inference.cpp: root producers whose required regions grow through two
// stencils (GPU and HVX schedules replaced by vectorized and split CPU loops).
TEST_CASE("bounds_inference: root producers sized through two stencils, vectorized") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    h(x) = x;
    g(x) = h(x - 1) + h(x + 1);
    f(x, y) = (g(x - 1) + g(x + 1)) + y;
    h.compute_root().vectorize(x, 8);
    g.compute_root().split(x, xo, xi, 5).vectorize(xi);
    f.vectorize(x, 4);
    Buffer<int> out(33, 31);
    out.set_min(-7, -3);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * 4 + p[1]; }) == 0);
}

// Follows Halide's two_vector_args.cpp: a consumer vectorized in x reading a producer at (x, x),
// so both coordinates of the load are vectors.
TEST_CASE("two_vector_args: g(x, x) with x vectorized, so both coordinates are vectors") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    g(x, y) = x + y * 10;
    f(x, y) = g(x, x) + y;
    f.vectorize(x, 4);
    Buffer<int> out = f.realize({7, 5});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * 11 + p[1]; }) == 0);
    Func gr("gr"), fr("fr");
    gr(x, y) = x * 3 + y * 10;
    fr(x, y) = gr(x, x) + gr(y, x) + y;
    gr.compute_root();
    fr.vectorize(x, 4);
    Buffer<int> out2 = fr.realize({7, 5});
    CHECK(mismatches<int>(out2, [](const std::vector<int> &p) { return p[0] * 13 + p[1] * 3 + p[0] * 10 + p[1]; }) == 0);
}

// Follows Halide's interleave.cpp (the values; the count of interleaving shuffles is internal):
// Tuple selects on x % 2 vectorized, planar-to-interleaved stores into transposed buffers, a
// select over unrolled channels, nested unroll and vectorize, vectorized pairs of scattered
// updates compared with the unvectorized ones, and transposes vectorized either way.
TEST_CASE("interleave: vector interleaving patterns compute the same values as scalar code") {
    Var x("x"), y("y"), c("c");
    for (int elements = 1; elements <= 4; elements++) {
        Func f("f"), g("g"), h("h");
        std::vector<Expr> fd, gd, hd;
        for (int i = 0; i < elements; i++) {
            fd.push_back(cast<float>(x * 3 + i));
            gd.push_back(cast<float>(x * 5 - i));
        }
        if (elements == 1) {
            f(x) = fd[0];
            g(x) = gd[0];
        } else {
            f(x) = Tuple(fd);
            g(x) = Tuple(gd);
        }
        for (int i = 0; i < elements; i++) {
            Expr fe = elements == 1 ? Expr(f(x / 2)) : Expr(f(x / 2)[i]);
            Expr ge = elements == 1 ? Expr(g(x / 2)) : Expr(g(x / 2)[i]);
            hd.push_back(select(x % 2 == 0, fe, ge * 17.0f));
        }
        if (elements == 1) h(x) = hd[0];
        else h(x) = Tuple(hd);
        f.compute_root();
        g.compute_root();
        h.vectorize(x, 8);
        Realization res = h.realize({19});
        for (int i = 0; i < elements; i++) {
            Buffer<float> b = res[i];
            INFO("elements " << elements << " element " << i);
            CHECK(mismatches<float>(b, [&](const std::vector<int> &p) {
                      int q = p[0] / 2;
                      return (p[0] % 2 == 0) ? float(q * 3 + i) : float(q * 5 - i) * 17.0f;
                  }) == 0);
        }
    }
    {
        // Three planes interleaved. Halide writes into a buffer whose dimension 0 has stride 3;
        // Halo's outputs are dense in dimension 0, so the interleaved output is indexed (c, x).
        Func planar("planar"), inter("inter");
        planar(x, y) = cast<float>(3 * x + y);
        inter(c, x) = planar(x, c);
        Var xy("xy");
        planar.compute_at(inter, xy).vectorize(x, 4);
        inter.bound(c, 0, 3).bound(x, 0, 16).fuse(c, x, xy).vectorize(xy, 12);
        Buffer<float> buf = inter.realize({3, 16});
        CHECK(mismatches<float>(buf, [](const std::vector<int> &p) { return float(3 * p[1] + p[0]); }) == 0);
    }
    for (int n : {4, 5}) {
        // A select over unrolled channels, stored channel-innermost (see above).
        Func f1("f1"), f2("f2"), f3("f3"), f4("f4"), f5("f5"), out("out");
        f1(x) = x * 1 + 100;
        f2(x) = x * 2 + 200;
        f3(x) = x * 3 + 300;
        f4(x) = x * 4 + 400;
        f5(x) = x * 5 + 500;
        if (n == 4) out(y, x) = select(y == 0, f1(x), y == 1, f2(x), y == 2, f3(x), f4(x));
        else out(y, x) = select(y == 0, f1(x), y == 1, f2(x), y == 2, f3(x), y == 3, f4(x), f5(x));
        out.bound(y, 0, n).unroll(y).vectorize(x, 4);
        Buffer<int> buf = out.realize({n, 18});
        INFO("n = " << n);
        CHECK(mismatches<int>(buf, [](const std::vector<int> &p) { return p[1] * (p[0] + 1) + 100 * (p[0] + 1); }) == 0);
    }
    {
        Func f1("f1"), f2("f2"), un("un");
        Var xi("xi"), yi("yi");
        f1(x) = x * 3;
        f1.compute_root();
        f2(x) = x * 7 + 1;
        f2.compute_root();
        un(x, y) = select(x % 2 == 0, f1(x), f2(x)) + y;
        un.tile(x, y, xi, yi, 16, 2).unroll(xi, 2).vectorize(xi, 4).unroll(xi).unroll(yi);
        Buffer<int> out = un.realize({64, 6});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return (p[0] % 2 == 0 ? p[0] * 3 : p[0] * 7 + 1) + p[1]; }) == 0);
    }
    {
        Func square("square"), t1("t1"), t2("t2");
        square(x, y) = cast(UInt(16), 5 * x + y);
        t1(x, y) = square(y, x);
        t2(x, y) = square(y, x);
        square.compute_root().bound(x, 0, 8).bound(y, 0, 8);
        t1.compute_root().bound(x, 0, 8).bound(y, 0, 8).vectorize(x).unroll(y);
        t2.compute_root().bound(x, 0, 8).bound(y, 0, 8).unroll(x).vectorize(y);
        t1.output_buffer().dim(0).set_min(0).set_stride(1).set_extent(8).dim(1).set_min(0).set_stride(8).set_extent(8);
        t2.output_buffer().dim(0).set_min(0).set_stride(1).set_extent(8).dim(1).set_min(0).set_stride(8).set_extent(8);
        Buffer<uint16_t> r1(8, 8), r2(8, 8);
        t1.realize(r1);
        t2.realize(r2);
        CHECK(mismatches<uint16_t>(r1, [](const std::vector<int> &p) { return uint16_t(5 * p[1] + p[0]); }) == 0);
        CHECK(mismatches<uint16_t>(r2, [](const std::vector<int> &p) { return uint16_t(5 * p[1] + p[0]); }) == 0);
    }
}

// Follows Halide's bit_counting.cpp: popcount, count_leading_zeros and count_trailing_zeros of
// uint16 and uint32 inputs, vectorized by 16 (zero inputs, whose clz/ctz Halide leaves
// undefined, are skipped).
TEST_CASE("bit_counting: popcount, count_leading_zeros, count_trailing_zeros of uint16 and uint32, vectorized") {
    auto run = [](auto zero) {
        using T = decltype(zero);
        const int bits = sizeof(T) * 8;
        const int n = 253;
        Buffer<T> input(n);
        for (int i = 0; i < n; i++) input(i) = i < 16 ? T(i) : i < 32 ? T(0xffffffffUL - i) : T(hash32(i));
        Var x("x");
        Func pc("pc"), lz("lz"), tz("tz");
        pc(x) = popcount(input(x));
        lz(x) = count_leading_zeros(input(x));
        tz(x) = count_trailing_zeros(input(x));
        pc.vectorize(x, 16);
        lz.vectorize(x, 16);
        tz.vectorize(x, 16);
        Buffer<T> p = pc.realize({n}), l = lz.realize({n}), t = tz.realize({n});
        int bad = 0;
        for (int i = 0; i < n; i++) {
            T v = input(i);
            int want_p = 0, want_l = 0, want_t = 0;
            for (int b = 0; b < bits; b++) want_p += (v >> b) & 1;
            if (p(i) != want_p) bad++;
            if (v == 0) continue;
            while (!((v >> (bits - 1 - want_l)) & 1)) want_l++;
            while (!((v >> want_t) & 1)) want_t++;
            if (l(i) != want_l || t(i) != want_t) {
                if (!bad) MESSAGE("input " << +v << ": clz " << +l(i) << " (want " << want_l << "), ctz " << +t(i) << " (want " << want_t << ")");
                bad++;
            }
        }
        return bad;
    };
    CHECK(run(uint16_t(0)) == 0);
    CHECK(run(uint32_t(0)) == 0);
}

// Follows the scattered-update part of Halide's interleave.cpp: updates writing o(2 * r, ...),
// o(2 * r + 1, ...), o(3 * r + k, ...) (each iteration its own point), vectorized over r, must
// match the same updates unvectorized. (Halo once refused these: it took only r itself, not
// 2 * r + 1, as an argument that gives each iteration points of its own.)
TEST_CASE("interleave: scattered updates o(2 * r, y), o(3 * r + 1, y) vectorized over r") {
    Var x("x"), y("y");
    {
        // Pairs of scattered updates, vectorized over r, against the unvectorized updates.
        Buffer<uint8_t> ref, vec;
        for (int pass = 0; pass < 2; pass++) {
            Func o("o");
            RDom r(0, 16);
            o(x, y) = cast<uint8_t>(x);
            o(2 * r, 0) = cast<uint8_t>(3);
            o(2 * r + 1, 0) = cast<uint8_t>(4);
            o(2 * r, 1) = cast<uint8_t>(3);
            o(2 * r + 1, 1) = cast<uint8_t>(4);
            o(3 * r, 3) = cast<uint8_t>(3);
            o(3 * r + 1, 3) = cast<uint8_t>(4);
            o(2 * r, 2) = o(2 * r, 2) + 1;
            o(2 * r + 1, 2) = o(2 * r + 1, 2) + 1;
            o(3 * r, 3) = cast<uint8_t>(7);
            o(3 * r + 2, 3) = cast<uint8_t>(9);
            o(3 * r + 1, 3) = cast<uint8_t>(8);
            if (pass == 1)
                for (int j = 0; j < 11; j++) o.update(j).vectorize(r);
            Buffer<uint8_t> b = o.realize({50, 4});
            (pass == 0 ? ref : vec) = b;
        }
        CHECK(mismatches<uint8_t>(vec, [&](const std::vector<int> &p) { return ref(p[0], p[1]); }) == 0);
        // And the reference itself against C++.
        std::vector<std::vector<int>> e(4, std::vector<int>(50));
        for (int yy = 0; yy < 4; yy++)
            for (int xx = 0; xx < 50; xx++) e[yy][xx] = xx;
        for (int i = 0; i < 16; i++) e[0][2 * i] = 3;
        for (int i = 0; i < 16; i++) e[0][2 * i + 1] = 4;
        for (int i = 0; i < 16; i++) e[1][2 * i] = 3;
        for (int i = 0; i < 16; i++) e[1][2 * i + 1] = 4;
        for (int i = 0; i < 16; i++) e[3][3 * i] = 3;
        for (int i = 0; i < 16; i++) e[3][3 * i + 1] = 4;
        for (int i = 0; i < 16; i++) e[2][2 * i] += 1;
        for (int i = 0; i < 16; i++) e[2][2 * i + 1] += 1;
        for (int i = 0; i < 16; i++) e[3][3 * i] = 7;
        for (int i = 0; i < 16; i++) e[3][3 * i + 2] = 9;
        for (int i = 0; i < 16; i++) e[3][3 * i + 1] = 8;
        CHECK(mismatches<uint8_t>(ref, [&](const std::vector<int> &p) { return uint8_t(e[p[1]][p[0]]); }) == 0);
    }
}

// Follows Halide's multi_pass_reduction.cpp: a left-to-right then right-to-left scan, a scan then
// single-point clobbers then a range taken from a producer computed at the RVar, a fibonacci of
// constant-point updates, and an integral image with one pass vectorized and one parallel.
TEST_CASE("multi_pass_reduction: scans both ways, point clobbers, unrolled fibonacci, integral image") {
    Var x("x"), y("y");
    {
        Func f("f");
        f(x) = cast<float>(x * x % 7) - 2.5f;
        RDom r1(1, 10);
        Expr xl = r1, xr = 10 - r1;
        f(xl) = f(xl - 1) + f(xl);
        f(xr) = f(xr + 1) + f(xr);
        Buffer<float> out = f.realize({11});
        float ref[11];
        for (int i = 0; i < 11; i++) ref[i] = float(i * i % 7) - 2.5f;
        for (int i = 1; i < 11; i++) ref[i] += ref[i - 1];
        for (int i = 9; i >= 0; i--) ref[i] += ref[i + 1];
        CHECK(mismatches<float>(out, [&](const std::vector<int> &p) { return ref[p[0]]; }) == 0);
    }
    {
        Func f("f"), g("g");
        g(x) = x * x;
        f(x) = x;
        RDom r(1, 10);
        f(r) = f(r) + f(r - 1);
        f(17) = 8;
        f(109) = 4;
        RDom r2(4, 5);
        f(r2) = g(r2);
        g.compute_at(f, r2);
        Buffer<int> out = f.realize({110});
        int ref[110];
        for (int i = 0; i < 110; i++) ref[i] = i;
        for (int i = 1; i < 11; i++) ref[i] += ref[i - 1];
        ref[17] = 8;
        ref[109] = 4;
        for (int i = 4; i < 9; i++) ref[i] = i * i;
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ref[p[0]]; }) == 0);
    }
    {
        Func f("f");
        f(x) = 1;
        for (int i = 2; i < 20; i++) f(i) = f(i - 1) + f(i - 2);
        Buffer<int> out = f.realize({20});
        int ref[20] = {1, 1};
        for (int i = 2; i < 20; i++) ref[i] = ref[i - 1] + ref[i - 2];
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ref[p[0]]; }) == 0);
    }
    {
        const int W = 53, H = 47;
        Func f("f");
        f(x, y) = (x * 3 + y * 5) % 11;
        RDom ry(1, H - 1), rx(1, W - 1);
        f(x, ry) += f(x, ry - 1);
        f(rx, y) += f(rx - 1, y);
        f.update(0).vectorize(x, 4);
        f.update(1).parallel(y);
        Buffer<int> out = f.realize({W, H});
        std::vector<int> ref(W * H);
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) ref[yy * W + xx] = (xx * 3 + yy * 5) % 11;
        for (int yy = 1; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) ref[yy * W + xx] += ref[(yy - 1) * W + xx];
        for (int yy = 0; yy < H; yy++)
            for (int xx = 1; xx < W; xx++) ref[yy * W + xx] += ref[yy * W + xx - 1];
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ref[p[1] * W + p[0]]; }) == 0);
    }
}

// Follows Halide's reduction_non_rectangular.cpp (the value checks; the store traces are not
// observable here): RDom::where with equalities, a split and fused RVar, a predicate on a free
// Var, calls to root and inline Funcs in the predicate, linear and circular regions, a Param in
// the predicate, producers computed at the RVar of a triangle (tiled too), predicates reading
// the Func itself, and Newton's method stopping by a where clause.
TEST_CASE("reduction_non_rectangular: RDom::where predicates of every kind, with schedules") {
    Var x("x"), y("y"), z("z");
    const int N = 60;  // the RDoms cover [0, 50)^2 of a [0, N)^2 output
    auto inside = [](int a, int b) { return a >= 0 && a < 50 && b >= 0 && b < 50; };
    SUBCASE("equality and inequality") {
        Func f("f");
        f(x, y) = x + y;
        RDom r(0, 50, 0, 50);
        r.where(r.x < r.y);
        r.where(!(r.x != 10));
        f(r.x, r.y) += 1;
        Buffer<int> out = f.realize({N, N});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  return p[0] + p[1] + ((p[0] == 10 && p[1] < 50 && p[0] < p[1]) ? 1 : 0);
              }) == 0);
    }
    SUBCASE("a predicate on a free Var") {
        Func f("f");
        f(x, y, z) = x + y + z;
        RDom r(0, 20, 0, 20, "r");
        r.where(r.x < r.y + z);
        f(r.x, r.y, z) += 1;
        Buffer<int> out = f.realize({25, 25, 25});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  bool in = p[0] < 20 && p[1] < 20;
                  return p[0] + p[1] + p[2] + ((in && p[0] < p[1] + p[2]) ? 1 : 0);
              }) == 0);
    }
    SUBCASE("a root Func and inline Funcs in the predicate") {
        Func f("f"), g("g"), f2("f2"), g2("g2"), h2("h2");
        g(x) = x;
        f(x, y) = x + y;
        RDom r(0, 50, 0, 50, "r");
        r.where(r.x < g(r.y + 10));
        f(r.x, r.y) += 1;
        g.compute_root();
        Buffer<int> out = f.realize({N, N});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  return p[0] + p[1] + ((inside(p[0], p[1]) && p[0] < p[1] + 10) ? 1 : 0);
              }) == 0);
        g2(x) = x;
        h2(x) = 2 * x;
        f2(x, y) = x + y;
        RDom r2(0, 50, 0, 50, "r2");
        r2.where(r2.x < g2(r2.y) + h2(r2.x) - 30);
        f2(r2.x, r2.y) += 1;
        Buffer<int> out2 = f2.realize({N, N});
        CHECK(mismatches<int>(out2, [&](const std::vector<int> &p) {
                  return p[0] + p[1] + ((inside(p[0], p[1]) && p[0] < p[1] + 2 * p[0] - 30) ? 1 : 0);
              }) == 0);
    }
    SUBCASE("two linear bounds and a circle") {
        Func f("f"), g("g");
        g(x, y) = x + y;
        f(x, y) = x + y;
        RDom r(0, 50, 0, 50);
        r.where(2 * r.x + 15 < r.y);
        r.where(r.y >= 50 - r.x);
        f(r.x, r.y) += 2 * g(r.x, r.y);
        g.compute_root();
        Buffer<int> out = f.realize({N, N});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                  int v = p[0] + p[1];
                  return (inside(p[0], p[1]) && 2 * p[0] + 15 < p[1] && p[1] >= 50 - p[0]) ? 3 * v : v;
              }) == 0);
        Func fc("fc"), gc("gc");
        gc(x, y) = x;
        fc(x, y) = x + y;
        RDom rc(0, 50, 0, 50);
        rc.where(rc.x * rc.x + rc.y * rc.y <= 100);
        fc(rc.x, rc.y) += gc(rc.x, rc.y);
        gc.compute_at(fc, rc.y);
        Buffer<int> outc = fc.realize({N, N});
        CHECK(mismatches<int>(outc, [&](const std::vector<int> &p) {
                  return p[0] + p[1] + ((inside(p[0], p[1]) && p[0] * p[0] + p[1] * p[1] <= 100) ? p[0] : 0);
              }) == 0);
    }
    SUBCASE("a Param in the predicate") {
        Func f("f"), g("g");
        Param<int> pp("pp");
        g(x, y) = x + y;
        f(x, y) = x + y;
        RDom r(0, 50, 0, 50);
        r.where(pp > 3);
        f(r.x, r.y) += 2 * g(r.x, r.y);
        g.compute_root();
        for (int v : {5, 0}) {
            pp.set(v);
            Buffer<int> out = f.realize({N, N});
            INFO("pp = " << v);
            CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                      int s = p[0] + p[1];
                      return (v > 3 && inside(p[0], p[1])) ? 3 * s : s;
                  }) == 0);
        }
    }
    SUBCASE("a producer computed at the RVar of a triangle, plain and tiled") {
        for (bool tiled : {false, true}) {
            Func f("f"), g("g");
            g(x, y) = x * 2 + y;
            f(x, y) = x + y;
            RDom r(0, 45, 0, 45, "r");
            r.where(r.x < r.y);
            f(r.x, r.y) += g(r.x, r.y);
            if (tiled) {
                RVar rxi("rxi"), ryi("ryi");
                f.update(0).tile(r.x, r.y, rxi, ryi, 8, 8);
                f.update(0).reorder(rxi, ryi, r.x, r.y);
                g.compute_at(f, ryi);
            } else {
                g.compute_at(f, r.y);
            }
            Buffer<int> out = f.realize({N, N});
            INFO("tiled " << tiled);
            CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                      bool in = p[0] < 45 && p[1] < 45 && p[0] < p[1];
                      return p[0] + p[1] + (in ? p[0] * 2 + p[1] : 0);
                  }) == 0);
        }
    }
}

// Follows Halide's bound.cpp: bound(c, 0, 3) on a Func realized over exactly that range.
TEST_CASE("bound: bound(c, 0, 3) on the channel dimension of a 3-D Func") {
    Var x("x"), y("y"), c("c");
    Func f("f"), g("g");
    f(x, y) = max(x, y);
    g(x, y, c) = f(x, y) * c;
    g.bound(c, 0, 3).unroll(c);
    Buffer<int> imf = f.realize({32, 32});
    Buffer<int> img = g.realize({32, 31, 3});
    CHECK(mismatches<int>(imf, [](const std::vector<int> &p) { return std::max(p[0], p[1]); }) == 0);
    CHECK(mismatches<int>(img, [](const std::vector<int> &p) { return std::max(p[0], p[1]) * p[2]; }) == 0);
}

// Follows the split-fuse case of Halide's reduction_non_rectangular.cpp exactly: after
// reorder(r.y, r.x) and split(r.x, rxo, rxi, 4) the loops are (innermost first) r.y, rxi, rxo,
// and Halide fuses rxi as the inner with r.y as the outer: Halide's fuse does not need the two
// loops adjacent or in that order (the fused loop takes the inner one's place; Halo once
// required them adjacent).
TEST_CASE("reduction_non_rectangular: fuse(rxi, r.y) where r.y is the loop inside rxi") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    RDom r(0, 50, 0, 50);
    r.where(r.x < r.y);
    f(r.x, r.y) += 1;
    RVar rxo("rxo"), rxi("rxi"), rf("rf");
    f.update().reorder(r.y, r.x);
    f.update().split(r.x, rxo, rxi, 4);
    f.update().fuse(rxi, r.y, rf);
    Buffer<int> out = f.realize({60, 60});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
              return p[0] + p[1] + ((p[0] < 50 && p[1] < 50 && p[0] < p[1]) ? 1 : 0);
          }) == 0);
}

// Follows the self-reference case of Halide's reduction_non_rectangular.cpp: the where clause of
// an update's RDom reads the Func being updated (f(r.x, r.y) >= 40), which Halide allows (the
// predicate sees the value before this iteration's update; Halo once refused it).
TEST_CASE("reduction_non_rectangular: RDom::where predicates that read the Func being updated") {
    Var x("x"), y("y");
    const int N = 60;
    auto inside = [](int a, int b) { return a >= 0 && a < 50 && b >= 0 && b < 50; };
    {
        Func f("f"), g("g");
        f(x, y) = x + y;
        g(x, y) = 10;
        RDom r1(0, 50, 0, 50, "r1");
        r1.where(f(r1.x, r1.y) >= 40);
        r1.where(f(r1.x, r1.y) != 50);
        f(r1.x, r1.y) += 1;
        f.compute_root();
        RDom r2(0, 25, 0, 25, "r2");
        r2.where(f(r2.x, r2.y) < 30);
        g(r2.x, r2.y) += f(r2.x, r2.y);
        Buffer<int> im1 = f.realize({N, N});
        auto fr = [&](int a, int b) {
            int v = a + b;
            if (inside(a, b) && v >= 40 && v != 50) v++;
            return v;
        };
        CHECK(mismatches<int>(im1, [&](const std::vector<int> &p) { return fr(p[0], p[1]); }) == 0);
        Buffer<int> im2 = g.realize({N, N});
        CHECK(mismatches<int>(im2, [&](const std::vector<int> &p) {
                  bool in = p[0] < 25 && p[1] < 25;
                  return 10 + ((in && fr(p[0], p[1]) < 30) ? fr(p[0], p[1]) : 0);
              }) == 0);
    }
}

// Follows the Newton's method case of Halide's reduction_non_rectangular.cpp: the RDom's where
// clause (not converged) reads the Tuple Func being updated, so iterations stop once converged.
TEST_CASE("reduction_non_rectangular: Newton's method stopped by a where clause reading the Func") {
    Var x("x"), y("y");
    const int N = 60;
    auto inside = [](int a, int b) { return a >= 0 && a < 50 && b >= 0 && b < 50; };
    {
        Func inverse("inverse");
        inverse(x) = Tuple(-0.25f * reinterpret<float>(~(reinterpret<uint32_t>(cast<float>(x + 1)))), 0);
        const int max_iters = 10;
        RDom r(0, max_iters);
        Expr not_converged = abs(inverse(x)[0] * (x + 1) - 1) > 0.001f;
        r.where(not_converged);
        inverse(x) = Tuple(inverse(x)[0] * (2 - (x + 1) * inverse(x)[0]), r + 1);
        Realization res = inverse.realize({128});
        Buffer<float> r0 = res[0];
        Buffer<int> r1 = res[1];
        int bad = 0;
        for (int i = 0; i < 128; i++) {
            float xv = float(i + 1);
            if (r1(i) == max_iters || !(std::abs(xv * r0(i) - 1) <= 0.001f)) bad++;
        }
        CHECK(bad == 0);
    }
}

// Follows Halide's vector_cast.cpp: every cast between uint8, int8, uint16, int16, uint32, int32,
// float and double of values in [0, 128), vectorized at widths 8 and 32 (Halide: 1 to 64),
// over a width no vector divides.
TEST_CASE("vector_cast: casts between every pair of numeric types, vectorized at several widths") {
    const int W = 203;
    int failures = 0;
    auto test_pair = [&](auto a_zero, auto b_zero, int vec) {
        using A = decltype(a_zero);
        using B = decltype(b_zero);
        Buffer<A> input(W, 1);
        for (int x = 0; x < W; x++) input(x, 0) = A((hash32(x * 7 + vec) & 0xffff) / 512.0);
        Var x("x"), y("y");
        Func f("f");
        f(x, y) = cast<B>(input(x, y));
        if (vec > 1) f.vectorize(x, vec);
        Buffer<B> out = f.realize({W, 1});
        for (int i = 0; i < W; i++) {
            if (out(i, 0) != B(input(i, 0))) {
                if (failures == 0)
                    MESSAGE(type_of<A>() << " -> " << type_of<B>() << " x " << vec << " at " << i << ": " << double(out(i, 0))
                                         << " instead of " << double(B(input(i, 0))));
                failures++;
                break;
            }
        }
    };
    auto test_from = [&](auto a_zero, int vec) {
        test_pair(a_zero, float(0), vec);
        test_pair(a_zero, double(0), vec);
        test_pair(a_zero, uint8_t(0), vec);
        test_pair(a_zero, uint16_t(0), vec);
        test_pair(a_zero, uint32_t(0), vec);
        test_pair(a_zero, int8_t(0), vec);
        test_pair(a_zero, int16_t(0), vec);
        test_pair(a_zero, int32_t(0), vec);
    };
    for (int vec : {8, 32}) {
        test_from(float(0), vec);
        test_from(double(0), vec);
        test_from(uint8_t(0), vec);
        test_from(uint16_t(0), vec);
        test_from(uint32_t(0), vec);
        test_from(int8_t(0), vec);
        test_from(int16_t(0), vec);
        test_from(int32_t(0), vec);
    }
    CHECK(failures == 0);
}

// Follows Halide's realize_over_shifted_domain.cpp: an input whose mins are (100, 50) read at
// (2 * x, y / 2) by an output realized over mins (50, 100), vectorized.
TEST_CASE("realize_over_shifted_domain: input and output both with large non-zero mins") {
    Buffer<int> input(100, 50);
    input.set_min(100, 50);
    for (int yy = 50; yy < 100; yy++)
        for (int xx = 100; xx < 200; xx++) input(xx, yy) = xx * 1000 + yy;
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = input(2 * x, y / 2);
    f.vectorize(x, 8);
    Buffer<int> result(50, 100);
    result.set_min(50, 100);
    f.realize(result);
    CHECK(mismatches<int>(result, [](const std::vector<int> &p) { return 2 * p[0] * 1000 + p[1] / 2; }) == 0);
}

// Follows Halide's nested_shiftinwards.cpp: no-op splits by 1 of x, y and c, reordered, then the
// outer x split by 16 and vectorized (ShiftInwards), with two parallel loops, at a width 16 does
// not divide; the consumer reads a 4-D producer at data-dependent z.
TEST_CASE("nested_shiftinwards: splits by 1 then a vectorized split of the outer loop") {
    const int W = 67, H = 41;
    Buffer<uint16_t> input(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) input(xx, yy, c) = uint16_t(hash32(xx + 100 * yy + 10000 * c) & 0xfff);
    Var x("x"), y("y"), z("z"), c("c");
    Func f("f"), g("g");
    f(x, y, z, c) = input(x, y, c) - input(x, z, c);
    g(x, y, c) = f(x, y, (x + y) % 10, c) + f(x, y + 1, (x * y) % 10, c) + f(x, y + 2, (x - y) % 10, c) +
                 f(x + 1, y, x % 10, c) + f(x + 2, y, y % 10, c);
    Var xo("x_o"), xi("x_i"), yo("y_o"), yi("y_i"), co("c_o"), ci("c_i"), xovo("x_o_vo"), xovi("x_o_vi");
    g.compute_root()
        .split(x, xo, xi, 1)
        .split(y, yo, yi, 1)
        .split(c, co, ci, 1)
        .reorder(xi, yi, ci, xo, yo, co)
        .split(xo, xovo, xovi, 16)
        .vectorize(xovi)
        .parallel(co)
        .parallel(yo);
    Buffer<uint16_t> out = g.realize({W - 2, H - 2, 3});
    auto fr = [&](int a, int b, int zz, int cc) { return uint16_t(input(a, b, cc) - input(a, zz, cc)); };
    auto md = [](int a) { return ((a % 10) + 10) % 10; };
    CHECK(mismatches<uint16_t>(out, [&](const std::vector<int> &p) {
              int a = p[0], b = p[1], cc = p[2];
              return uint16_t(fr(a, b, md(a + b), cc) + fr(a, b + 1, md(a * b), cc) + fr(a, b + 2, md(a - b), cc) +
                              fr(a + 1, b, md(a), cc) + fr(a + 2, b, md(b), cc));
          }) == 0);
}

// Follows Halide's split_store_compute.cpp: a producer stored at root and computed per row of a
// 5-point stencil, reading a root producer in turn.
TEST_CASE("split_store_compute: store_root, compute_at a row, under a 5-point stencil") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    f(x, y) = max(x, y);
    g(x, y) = 17 * f(x, y);
    h(x, y) = g(x, y - 1) + g(x - 1, y) + g(x, y) + g(x + 1, y) + g(x, y + 1);
    g.store_root().compute_at(h, y);
    f.compute_root();
    Buffer<int> out(33, 31);
    out.set_min(-9, -4);
    h.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
              int i = p[0], j = p[1];
              return 17 * (std::max(i, j - 1) + std::max(i - 1, j) + std::max(i, j) + std::max(i + 1, j) + std::max(i, j + 1));
          }) == 0);
}

// Follows Halide's vectorized_reduction_bug.cpp: an implicit-zero reduction read under a select
// vectorized across channels; and a producer whose update is vectorized across a loop of a
// transposed consumer's split (the split reusing the old Var's name as the inner one).
TEST_CASE("vectorized_reduction_bug: vectorized reads of reductions, and a vectorized update per split") {
    {
        Func sum_f("sum_f"), foo("foo");
        Var x("x"), y("y"), c("c");
        RDom r(1, 2, "r");
        sum_f(x, y) += r.x;
        foo(x, y, c) = select(c == 3, 255, sum_f(x, y));
        foo.vectorize(c, 4);
        Buffer<int> out = foo.realize({3, 2, 4});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[2] == 3 ? 255 : 3; }) == 0);
    }
    {
        Func f("f"), g("g"), h("h");
        Var x("x"), y("y"), x_outer("x_outer");
        h(x, y) = x + y;
        h.compute_root();
        g(x, y) = 0;
        g(x, 0) = sum(h(x, RDom(0, 120)));
        f(y, x) = g(x, y);
        f.split(x, x_outer, x, 16);
        g.compute_at(f, x_outer);
        g.update(0).vectorize(x);
        f.compute_root();
        Buffer<int> im = f.realize({100, 100});
        CHECK(mismatches<int>(im, [](const std::vector<int> &p) { return p[0] != 0 ? 0 : 120 * p[1] + 120 * 119 / 2; }) == 0);
    }
}

// Follows Halide's vectorized_initialization.cpp: a vectorized root Func whose update reads one
// point beyond its consumer's region on each side, so the pure step must cover [-1, 4].
TEST_CASE("vectorized_initialization: a vectorized pure step widened by what its update reads") {
    Func f("f"), g("g");
    Var x("x");
    RDom r(0, 4);
    f(x) = x;
    f(r) = f(r - 1) + f(r + 1);
    f.compute_root().vectorize(x, 4);
    g(x) = f(x);
    Buffer<int> out = g.realize({4});
    const int want[4] = {0, 2, 5, 9};
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return want[p[0]]; }) == 0);
}

// Follows Halide's compute_at_reordered_update_stage.cpp (Halide issue 3388): an update with its
// loops reordered (x inside y becomes y inside x), a producer stored at x and computed at y.
TEST_CASE("compute_at_reordered_update_stage: store_at x, compute_at y of a reordered update") {
    Func g("g"), f("f");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = 0;
    g(x, y) += f(x, y);
    g.update().reorder(y, x);
    f.store_at(g, x).compute_at(g, y);
    Buffer<int> out(11, 9);
    out.set_min(-3, 2);
    g.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] + p[1]; }) == 0);
}
