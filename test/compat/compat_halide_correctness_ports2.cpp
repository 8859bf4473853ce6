// More ports of programs from Halide's test/correctness directory (one TEST_CASE per program,
// each naming the Halide test it follows). The behaviour is rewritten, not copied: every result
// is compared point by point against plain C++ loops, at sizes that splits and vectors do not
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


// The region infer_input_bounds bound to an ImageParam, dimension d.
std::pair<int, int> inferred(const ImageParam &p, int d = 0) {
    Buffer<> b = p.get();
    return {b.dim(d).min(), b.dim(d).extent()};
}

}  // namespace

// Follows Halide's bounds_inference_chunk.cpp: a root producer feeding a producer computed per
// row of the output, each reading diagonal neighbours.
TEST_CASE("bounds_inference_chunk: a stencil of a stencil computed per output row") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y");
    h(x, y) = x + y;
    g(x, y) = (h(x - 1, y - 1) + h(x + 1, y + 1)) / 2;
    f(x, y) = (g(x - 1, y - 1) + g(x + 1, y + 1)) / 2;
    h.compute_root();
    g.compute_at(f, y);
    Buffer<int> out(29, 31);
    out.set_min(-7, 5);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + c[1]; }) == 0);
}

// Follows Halide's bounds_inference_complex.cpp: a random DAG of stencils whose reads go
// through a clamped data-dependent coordinate, some stages root and vectorized.
TEST_CASE("bounds_inference_complex: a random DAG of stencils with data-dependent clamped reads") {
    for (uint32_t seed = 0; seed < 4; seed++) {
        const int K = 8;
        std::vector<Func> f(K);
        Var x("x"), y("y");
        std::vector<int> j1(K), j2(K), j3(K);
        f[0](x, y) = x + y;
        f[1](x, y) = x * y;
        uint32_t s = seed * 1000 + 1;
        for (int i = 2; i < K; i++) {
            j1[i] = hash32(s++) % i;
            j2[i] = hash32(s++) % i;
            j3[i] = hash32(s++) % i;
            f[i](x, y) = f[j1[i]](x - 1, y - 1) + f[j2[i]](x + 1, clamp(f[j3[i]](x + 1, y - 1), 0, 7));
            if (hash32(s++) & 1) f[i].compute_root().vectorize(x, 4);
        }
        std::function<int(int, int, int)> ref = [&](int i, int xx, int yy) -> int {
            if (i == 0) return xx + yy;
            if (i == 1) return xx * yy;
            int c = std::min(std::max(ref(j3[i], xx + 1, yy - 1), 0), 7);
            return ref(j1[i], xx - 1, yy - 1) + ref(j2[i], xx + 1, c);
        };
        Buffer<int> out(21, 19);
        out.set_min(-3, 2);
        f[K - 1].realize(out);
        INFO("seed " << seed);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return ref(K - 1, c[0], c[1]); }) == 0);
    }
}

// Follows Halide's bounds_of_abs.cpp: the region of an input read through abs() of narrow
// casts and of a reflection.
TEST_CASE("bounds_of_abs: infer_input_bounds through abs of int8, int16 and a reflection") {
    Var x("x");
    const int N = 12345;
    Expr xs = x - 1234;  // the output's points are -1234 .. 11110, as in Halide's test
    auto check = [&](const std::function<Expr(Expr)> &coord, int want_min, int want_extent) {
        ImageParam input(Int(32), 1, "input");
        Func f = lambda(x, input(coord(xs)));
        INFO(f.value());
        f.infer_input_bounds({N});
        auto [mn, ext] = inferred(input);
        CHECK(mn == want_min);
        CHECK(ext == want_extent);
    };
    check([](Expr e) { return abs(cast<int8_t>(e)); }, 0, 129);
    check([](Expr e) { return abs(cast<int16_t>(e)); }, 0, 32769);
    check([](Expr e) { return 100 - cast<int>(abs(100 - (e % 200))); }, 0, 101);
}

// abs of an int32 is a uint32, cast back explicitly (Halide refuses a uint32 coordinate, as
// Halo now does); Halide bounds it by [0, max(|min|, |max|)] (Halo once could not bound it,
// nor abs of a float).
TEST_CASE("bounds_of_abs: abs of an int32 and of a float coordinate") {
    Var x("x");
    Func g("g");
    g(x) = x * 2;
    g.compute_root();
    Func f1 = lambda(x, g(cast<int>(abs(x - 1234))));
    Buffer<int> o1 = f1.realize({12345});
    CHECK(mismatches<int>(o1, [](const std::vector<int> &c) { return std::abs(c[0] - 1234) * 2; }) == 0);
    // Halide's check: the input is needed over [0, 11110].
    ImageParam input(Int(32), 1, "input");
    Func f3 = lambda(x, input(cast<int32_t>(abs(cast<float>(x - 1234)))));
    f3.infer_input_bounds({12345});
    CHECK(inferred(input) == std::make_pair(0, 11111));
}

// abs() of a float clamped to [-50, 50] needs only [0, 50] (Halo once bounded it below by -50
// and refused an input of exactly [0, 50]).
TEST_CASE("bounds_of_abs: a clamped abs of a reciprocal needs only [0, 50]") {
    Var x("x");
    ImageParam input(Int(32), 1, "input");
    Func f5 = lambda(x, input(cast<int>(clamp(abs(1.0f / (x - 1234 + .1f)), -50, 50))));
    f5.infer_input_bounds({12345});
    CHECK(inferred(input) == std::make_pair(0, 51));
    Buffer<int> in(51);
    for (int i = 0; i < 51; i++) in(i) = i * 10;
    input.set(in);
    Buffer<int> out = f5.realize({12345});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              float v = std::min(std::max(std::fabs(1.0f / (float(c[0] - 1234) + .1f)), -50.f), 50.f);
              return int(v) * 10;
          }) == 0);
}

// Follows Halide's bounds_of_cast.cpp: the region of an input read at a narrowing cast of x
// is the whole range of the narrow type.
TEST_CASE("bounds_of_cast: infer_input_bounds through casts to 8 and 16 bit types") {
    Var x("x");
    auto check = [&](Type t, int want_min, int want_extent) {
        ImageParam input(Int(32), 1, "input");
        Func f = lambda(x, input(cast(t, x - 1234)));
        f.infer_input_bounds({12345});
        auto [mn, ext] = inferred(input);
        INFO(t);
        CHECK(mn == want_min);
        CHECK(ext == want_extent);
    };
    check(UInt(8), 0, 256);
    check(Int(8), -128, 256);
    check(UInt(16), 0, 65536);
    check(Int(16), -32768, 65536);
}

// Follows Halide's bounds_of_monotonic_math.cpp: floor and ceil of scaled coordinates.
// floor() and ceil() are non-decreasing, bounded by their values at the ends (Halo once could
// not bound them).
TEST_CASE("bounds_of_monotonic_math: infer_input_bounds through ceil(0.3 * ceil(0.4 * floor(22.5 x)))") {
    Func f("f");
    Var x("x");
    ImageParam input(Float(32), 1, "input");
    f(x) = input(cast<int>(ceil(0.3f * ceil(0.4f * floor(x * 22.5f)))));
    f.infer_input_bounds({10});
    CHECK(inferred(input) == std::make_pair(0, 26));
    Buffer<float> in(26);
    for (int i = 0; i < 26; i++) in(i) = float(i * 3 + 1);
    input.set(in);
    Buffer<float> out = f.realize({10});
    CHECK(mismatches<float>(out, [](const std::vector<int> &c) {
              int i = int(std::ceil(0.3f * std::ceil(0.4f * std::floor(c[0] * 22.5f))));
              return float(i * 3 + 1);
          }) == 0);
}

// infer_input_bounds through float arithmetic (it once could not evaluate floats, and said the
// region depended on '').
TEST_CASE("bounds_of_monotonic_math: infer_input_bounds through cast<int>(x * 0.5f)") {
    Var x("x");
    ImageParam input(Int(32), 1, "input");
    Func f = lambda(x, input(cast<int>(x * 0.5f)));
    f.infer_input_bounds({100});
    CHECK(inferred(input) == std::make_pair(0, 50));
}

// Follows Halide's bounds_of_multiply.cpp: a read clamped to [0, 2 * p - 1] with p a Param of
// int32 or int16 (2 * p must not be bounded as if it could overflow into a huge region).
TEST_CASE("bounds_of_multiply: a read clamped by a multiple of an int32 or int16 Param") {
    auto run = [](auto tag) {
        using T = decltype(tag);
        Param<T> bound("bound");
        ImageParam in(UInt(8), 1, "in");
        Var x("x");
        Func f("f");
        f(x) = in(clamp(x, 0, bound * 2 - 1));
        Buffer<uint8_t> foo(10);
        for (int i = 0; i < 10; i++) foo(i) = uint8_t(i * 7 + 1);
        in.set(foo);
        bound.set(5);
        Buffer<uint8_t> out = f.realize({200});
        CHECK(mismatches<uint8_t>(out, [](const std::vector<int> &c) {
                  return uint8_t(std::min(std::max(c[0], 0), 9) * 7 + 1);
              }) == 0);
    };
    run(int32_t{});
    run(int16_t{});
}

// Follows Halide's compute_inside_guard.cpp: a producer computed per point of a GuardWithIf
// split whose factor is not a constant, in register storage. (Here the factor is a Param; see
// the next case for Halide's factor, the output's width / 8.)
TEST_CASE("compute_inside_guard: a one-point producer inside a GuardWithIf split of a Param factor") {
    ImageParam input(UInt(8), 1, "input");
    Param<int> factor("factor");
    Var x("x"), xo("xo"), xi("xi");
    Func intermediate("intermediate"), output("output");
    intermediate(x) = input(x);
    output(x) = intermediate(x) * 2;
    output.compute_root().split(x, xo, xi, factor, TailStrategy::GuardWithIf);
    intermediate.compute_at(output, xi).unroll(x).store_in(MemoryType::Register);
    Buffer<uint8_t> ibuf(123), obuf(123);
    for (int i = 0; i < 123; i++) ibuf(i) = uint8_t(i * 3);
    input.set(ibuf);
    for (int fct : {15, 7, 1, 200}) {
        factor.set(fct);
        obuf.fill(0);
        output.realize(obuf);
        INFO("factor " << fct);
        CHECK(mismatches<uint8_t>(obuf, [](const std::vector<int> &c) { return uint8_t(c[0] * 6); }) == 0);
    }
}

// A split factor that uses the output buffer's size (output.output_buffer().width() / 8, as in
// Halide's compute_inside_guard.cpp). Halo once took output.extent.0 for a loop variable.
TEST_CASE("compute_inside_guard: a GuardWithIf split by the output width / 8") {
    ImageParam input(UInt(8), 1, "input");
    Var x("x"), xo("xo"), xi("xi");
    Func intermediate("intermediate"), output("output");
    intermediate(x) = input(x);
    output(x) = intermediate(x) * 2;
    output.compute_root().split(x, xo, xi, output.output_buffer().width() / 8, TailStrategy::GuardWithIf);
    intermediate.compute_at(output, xi).unroll(x).store_in(MemoryType::Register);
    Buffer<uint8_t> ibuf(123), obuf(123);
    for (int i = 0; i < 123; i++) ibuf(i) = uint8_t(i * 3);
    input.set(ibuf);
    output.realize(obuf);
    CHECK(mismatches<uint8_t>(obuf, [](const std::vector<int> &c) { return uint8_t(c[0] * 6); }) == 0);
}

// Follows Halide's convolution_multiple_kernels.cpp: one output summing convolutions with two
// root kernels of different types (uint16 and uint32 narrowed to uint16).
TEST_CASE("convolution_multiple_kernels: two box kernels of different types in one sum") {
    const int W = 64, H = 16;
    Buffer<uint16_t> in(W, H);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) in(xx, yy) = uint16_t(hash32(xx + yy * W) & 0xff);
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func input("input"), box1("box1"), box2("box2"), blur("blur");
    input(x, y) = in(clamp(x, 0, W - 1), clamp(y, 0, H - 1));
    input.compute_root();
    box1(x, y) = cast<uint16_t>(1);
    box2(x, y) = cast<uint32_t>(2);
    box1.compute_root();
    box2.compute_root();
    RDom r(-1, 3, -1, 3);
    blur(x, y) = sum(box1(r.x, r.y) * input(x + r.x, y + r.y)) +
                 sum(cast<uint16_t>(box2(r.x, r.y)) * input(x + r.x, y + r.y));
    for (int sched = 0; sched < 2; sched++) {
        if (sched == 1) blur.tile(x, y, xi, yi, 16, 4).vectorize(xi, 8).parallel(y);
        Buffer<uint16_t> out = blur.realize({W, H});
        auto cl = [](int v, int lo, int hi) { return std::min(std::max(v, lo), hi); };
        INFO("schedule " << sched);
        CHECK(mismatches<uint16_t>(out, [&](const std::vector<int> &c) {
                  int s = 0;
                  for (int dy = -1; dy <= 1; dy++)
                      for (int dx = -1; dx <= 1; dx++) s += in(cl(c[0] + dx, 0, W - 1), cl(c[1] + dy, 0, H - 1));
                  return uint16_t(s * 3);
              }) == 0);
    }
}

// Follows the last part of Halide's align_bounds.cpp: strided vector loads (3 x + i) of a root
// producer at every alignment from -32 to 32, vectorized with RoundUp.
TEST_CASE("align_bounds: strided vector loads at every alignment") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    Expr e = 0;
    for (int i = -32; i <= 32; i++) e += f(3 * x + i);
    g(x) = e;
    f.compute_root();
    g.bound(x, 0, 1024).vectorize(x, 16, TailStrategy::RoundUp);
    Buffer<int> out = g.realize({1024});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int i = -32; i <= 32; i++) s += 3 * c[0] + i;
              return s;
          }) == 0);
}

// Follows Halide's gameoflife.cpp: Conway's game of life on a torus, one and two unrolled
// generations per pipeline stepped from C++, against a 3-D reduction that runs 21 generations
// in place (two time slices, t % 2).
TEST_CASE("gameoflife: life on a torus as chained Funcs and as a 3-D in-place reduction") {
    using B = std::vector<uint8_t>;
    const int N = 32;
    auto step = [&](const B &b) {
        B o(N * N);
        for (int yy = 0; yy < N; yy++)
            for (int xx = 0; xx < N; xx++) {
                int n = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        if (dx || dy) n += b[((xx + dx + N) % N) + ((yy + dy + N) % N) * N];
                bool alive = b[xx + yy * N] != 0;
                o[xx + yy * N] = (n == 3 || (alive && n == 2)) ? 1 : 0;
            }
        return o;
    };
    B board(N * N);
    for (int i = 0; i < N * N; i++) board[i] = (hash32(i + 77) & 0xff) < 128 ? 1 : 0;
    auto to_buf = [&](const B &b) {
        Buffer<uint8_t> out(N, N);
        for (int yy = 0; yy < N; yy++)
            for (int xx = 0; xx < N; xx++) out(xx, yy) = b[xx + yy * N];
        return out;
    };

    ImageParam input(UInt(8), 2, "input");
    std::function<Func(int)> life_n = [&](int n) {
        Var x, y;
        Func in;
        if (n == 1) {
            in(x, y) = input(x, y);
        } else {
            in = life_n(n - 1);
            in.compute_root();
        }
        Expr w = input.width(), h = input.height();
        Expr W = (x + w - 1) % w, E = (x + 1) % w, No = (y + h - 1) % h, S = (y + 1) % h;
        Expr nb = in(W, No) + in(x, No) + in(E, No) + in(W, y) + in(E, y) + in(W, S) + in(x, S) + in(E, S);
        Expr alive = in(x, y) != 0;
        Func output;
        output(x, y) = select(nb == 3 || (alive && nb == 2), cast<uint8_t>(1), cast<uint8_t>(0));
        return output;
    };
    Func one = life_n(1), two = life_n(2);
    B ref = board;
    Buffer<uint8_t> b1 = to_buf(board), b2 = to_buf(board);
    for (int i = 0; i < 6; i++) {
        input.set(b1);
        b1 = one.realize({N, N});
        input.set(b1);
        b1 = one.realize({N, N});
        input.set(b2);
        b2 = two.realize({N, N});
        ref = step(step(ref));
        INFO("generation " << 2 * (i + 1));
        CHECK(mismatches<uint8_t>(b1, [&](const std::vector<int> &c) { return ref[c[0] + c[1] * N]; }) == 0);
        CHECK(mismatches<uint8_t>(b2, [&](const std::vector<int> &c) { return ref[c[0] + c[1] * N]; }) == 0);
    }

    // 21 generations in one reduction over (x, y, t), reading slice (t + 1) % 2, writing t % 2.
    Func life("life"), output("output");
    Var x("x"), y("y"), z("z");
    life(x, y, z) = input(x, y);
    Expr w = input.width(), h = input.height();
    RDom t(0, w, 0, h, 0, 21);
    Expr lastT = (t.z + 1) % 2;
    Expr W = (t.x + w - 1) % w, E = (t.x + 1) % w, No = (t.y + h - 1) % h, S = (t.y + 1) % h;
    Expr alive = life(t.x, t.y, lastT) != cast<uint8_t>(0);
    Expr nb = life(W, No, lastT) + life(t.x, No, lastT) + life(E, No, lastT) + life(W, t.y, lastT) +
              life(E, t.y, lastT) + life(W, S, lastT) + life(t.x, S, lastT) + life(E, S, lastT);
    life(t.x, t.y, t.z % 2) = select(nb == 3 || (alive && nb == 2), cast<uint8_t>(1), cast<uint8_t>(0));
    life.compute_root();
    output(x, y) = life(x, y, 1);
    Buffer<uint8_t> b3 = to_buf(board);
    input.set(b3);
    Buffer<uint8_t> res = output.realize({N, N});
    // Slice 1 was last written at t.z = 19 (t.z = 20 writes slice 0), but each generation reads
    // the other slice as it is being written: generation t.z reads slice (t.z+1)%2 which holds
    // generation t.z - 1 (or the input for t.z = 0, since both slices start as the input).
    B s0 = board, s1 = board;
    for (int tz = 0; tz < 21; tz++) {
        B &dst = tz % 2 ? s1 : s0;
        const B &src = tz % 2 ? s0 : s1;
        dst = step(src);
    }
    CHECK(mismatches<uint8_t>(res, [&](const std::vector<int> &c) { return s1[c[0] + c[1] * N]; }) == 0);
}

// Follows Halide's histogram.cpp: a histogram of a float image by a scattering update over
// RDom(buffer), read at an offset by its consumer.
TEST_CASE("histogram: a scattering update over RDom(buffer), read at buckets 10..19") {
    const int W = 67, H = 45;
    Buffer<float> in(W, H);
    in.set_min(3, -2);
    std::vector<int> ref(256, 0);
    for (int yy = -2; yy < H - 2; yy++)
        for (int xx = 3; xx < W + 3; xx++) {
            in(xx, yy) = float(hash32(xx * 1000 + yy) & 0xff);
            ref[int(in(xx, yy))]++;
        }
    Func hist("hist"), g("g");
    Var x("x");
    RDom r(in);
    hist(x) = 0;
    hist(clamp(cast<int>(in(r.x, r.y)), 0, 255)) += 1;
    hist.compute_root();
    g(x) = hist(x + 10);
    Buffer<int> out = g.realize({10});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return ref[c[0] + 10]; }) == 0);
}

// Follows Halide's implicit_args.cpp: the placeholder _ on both sides, in calls to ImageParams,
// Buffers and Funcs, including transpositions around it.
TEST_CASE("implicit_args: the placeholder _ in definitions, calls and transpositions") {
    Var x("x"), y("y"), z("z"), w("w");
    ImageParam im1(Int(32), 3, "im1");
    Buffer<int> im1_val = lambda(x, y, z, x * y * z).realize({10, 10, 10});
    im1.set(im1_val);
    Buffer<int> im2 = lambda(x, y, x + y).realize({10, 10});
    Func f("f");
    f(x, _) = im1(_) + im2(x, _) + im2(_);
    CHECK(f.dimensions() == 4);
    Buffer<int> r1 = f.realize({2, 2, 2, 2});
    CHECK(mismatches<int>(r1, [](const std::vector<int> &c) {
              int xx = c[0], i = c[1], j = c[2], k = c[3];
              return i * j * k + xx + i + i + j;
          }) == 0);
    Func g("g");
    g(_) = f(2, 2, _) + im2(Expr(1), _);
    f.compute_root();
    CHECK(g.dimensions() == 2);
    Buffer<int> r2 = g.realize({10, 10});
    CHECK(mismatches<int>(r2, [](const std::vector<int> &c) {
              int i = c[0], j = c[1];
              return 2 * i * j + 2 + 2 + 2 + i + 1 + i;
          }) == 0);

    Buffer<int> im3 = lambda(x, y, z, w, (x << 24) | (y << 16) | (z << 8) | w).realize({10, 10, 10, 10});
    auto code = [](int a, int b, int c, int d) { return (a << 24) | (b << 16) | (c << 8) | d; };
    Func t1("t1"), t2("t2"), t3("t3");
    t1(_, x, y) = im3(_, y, x);
    Buffer<int> o1 = t1.realize({10, 10, 10, 10});
    CHECK(mismatches<int>(o1, [&](const std::vector<int> &c) { return code(c[0], c[1], c[3], c[2]); }) == 0);
    t2(_, x, y) = im3(y, _, x) + im3(y, x, _);
    Buffer<int> o2 = t2.realize({10, 10, 10, 10});
    CHECK(mismatches<int>(o2, [&](const std::vector<int> &c) {
              int i = c[0], j = c[1], k = c[2], l = c[3];
              return code(l, i, j, k) + code(l, k, i, j);
          }) == 0);
    t3(_, x) = im3(_, x) + im3(x, x, _);
    Buffer<int> o3 = t3.realize({10, 10, 10, 10});
    CHECK(mismatches<int>(o3, [&](const std::vector<int> &c) {
              int i = c[0], j = c[1], k = c[2], l = c[3];
              return code(i, j, k, l) + code(l, l, i, j);
          }) == 0);
}

// Follows Halide's dynamic_reduction_bounds.cpp: an update scattering to z = r / k where both
// the RDom's extent and k depend on the input's size (here k = width + 13, an integer; the
// next case is Halide's k, through hypot()).
TEST_CASE("dynamic_reduction_bounds: a scatter whose target depends on input sizes") {
    ImageParam input(Float(32), 2, "input");
    Var x("x"), y("y"), z("z");
    RDom dom(0, input.width() * 8);
    Func f("f");
    f(x, y, z) = 1;
    f(x, y, dom / (input.width() + 13)) += 1;
    f.compile_jit();
    Buffer<float> im(32, 32);
    input.set(im);
    Buffer<int> out(19, 7, 16);
    out.set_min(-3, 2, 0);
    f.realize(out);
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              int n = 0;
              for (int r = 0; r < 256; r++) n += (r / 45 == c[2]);
              return 1 + n;
          }) == 0);
}

// An update that writes at r / k, where k is an int cast of a float computed from buffer fields
// (cast<int>(hypot(width, height)), as in Halide's dynamic_reduction_bounds.cpp): k is one value,
// so the positions are bounded by r's ends divided by it. (Halo once called them unbounded.)
TEST_CASE("dynamic_reduction_bounds: a scatter to r / cast<int>(hypot(width, height))") {
    ImageParam input(Float(32), 2, "input");
    Var x("x"), y("y"), z("z");
    RDom dom(0, input.width() * 8);
    Func f("f");
    Expr hard = cast<int>(hypot(input.width(), input.height()));
    f(x, y, z) = 1;
    f(x, y, dom / hard) += 1;
    f.bound(z, 0, 16);
    f.compile_jit();
    Buffer<float> im(32, 32);
    input.set(im);
    Buffer<int> out(19, 7, 16);
    out.set_min(-3, 2, 0);
    f.realize(out);
    const int k = int(std::hypot(32.f, 32.f));  // 45
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              int n = 0;
              for (int r = 0; r < 256; r++) n += (r / k == c[2]);
              return 1 + n;
          }) == 0);
    Param<float> p("p", 4.5f);
    Var x1("x1");
    RDom r(0, 10);
    Func g("g");
    g(x1) = 0;
    g(r / cast<int>(p)) += 1;
    g.bound(x1, 0, 10);
    Buffer<int> o2 = g.realize({10});
    CHECK(mismatches<int>(o2, [](const std::vector<int> &c) { return c[0] < 2 ? 4 : c[0] == 2 ? 2 : 0; }) == 0);
}

// Follows Halide's div_by_zero.cpp: integer division and modulo by zero give zero, MIN / -1
// gives MIN in narrow types, and a ShiftInwards vector tail that evaluates 256 / 0.
TEST_CASE("div_by_zero: x / 0 and x % 0 are 0, MIN / -1 is MIN, vector tails over x = -1") {
    auto run = [](auto tag) {
        using T = decltype(tag);
        Param<T> a("a"), b("b");
        a.set(T(5));
        b.set(T(0));
        CHECK(evaluate<T>(a / b) == T(0));
        CHECK(evaluate<T>(a % b) == T(0));
        if (std::is_signed_v<T> && sizeof(T) < 4) {
            a.set(std::numeric_limits<T>::min());
            b.set(T(-1));
            CHECK(evaluate<T>(a / b) == std::numeric_limits<T>::min());
            CHECK(evaluate<T>(a % b) == T(0));
        }
        // A vectorized version, with the divisor a loop variable that passes through 0.
        Func f("f");
        Var x("x");
        f(x) = cast<T>(x * 7 + 3) / cast<T>(x - 4) + cast<T>(x * 5 + 1) % cast<T>(x - 4);
        f.vectorize(x, 8);
        Buffer<T> out = f.realize({13});
        CHECK(out(4) == T(0));
    };
    run(int8_t{});
    run(int16_t{});
    run(int32_t{});
    run(uint8_t{});
    run(uint16_t{});
    run(uint32_t{});

    // A producer of 5 points vectorized by 8 with ShiftInwards computes x = -3 .. 4, so
    // 256 / (x + 1) divides by zero at x = -1.
    Func f("f"), g("g");
    Var x("x");
    f(x) = 256 / (x + 1);
    f.compute_root().vectorize(x, 8, TailStrategy::ShiftInwards);
    g(x) = f(x);
    Buffer<int> out = g.realize({5});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return 256 / (c[0] + 1); }) == 0);
}

// Was a HALO DIVERGENCE: realizing an output of 5 points vectorized by 8 with ShiftInwards
// (Halide's div_by_zero: f(x) = 256 / (x + 1)) was a RuntimeError; Halide's realize({5})
// computes into a larger buffer and returns the crop, and so does Halo's now (a case of
// test_partial_realization.cpp). Into a buffer of the caller's, it stays the error.

// Follows Halide's div_round_to_zero.cpp: div_round_to_zero over every int8 numerator and
// denominator (the denominators 0 and -1-with-MIN replaced by 1), and by constants, vectorized.
TEST_CASE("div_round_to_zero: C-style division over every int8 pair, and by constants") {
    auto run = [](auto tag) {
        using T = decltype(tag);
        {
            Func f("f");
            Var x("x"), y("y");
            Expr d = cast<T>(y - 128);
            Expr n = cast<T>(x - 128);
            d = select(d == 0 || (d == -1 && n == d.type().min()), cast<T>(1), d);
            f(x, y) = div_round_to_zero(n, d);
            f.vectorize(x, 8);
            Buffer<T> res = f.realize({256, 256});
            CHECK(mismatches<T>(res, [](const std::vector<int> &c) {
                      int n = c[0] - 128, d = c[1] - 128;
                      if (d == 0 || (d == -1 && n == std::numeric_limits<T>::min())) d = 1;
                      return T(n / d);
                  }) == 0);
        }
        for (int d : {-128, -54, -3, -1, 1, 2, 25, 32, 127}) {
            Func f("f");
            Var x("x");
            f(x) = div_round_to_zero(cast<T>(x - 128), cast<T>(d));
            f.vectorize(x, 8);
            Buffer<T> res = f.realize({256});
            INFO("d = " << d);
            CHECK(mismatches<T>(res, [&](const std::vector<int> &c) { return T(T(c[0] - 128) / T(d)); }) == 0);
        }
    };
    run(int8_t{});
    run(int16_t{});
    run(int32_t{});
}

// Follows Halide's convolution.cpp: a 3x3 tent convolution as an update with no pure
// definition (zero-initialized) tiled and vectorized in both stages, and as an inline sum.
TEST_CASE("convolution: a tent filter as an update without a pure definition and as sum()") {
    const int W = 77, H = 45;
    Buffer<uint16_t> in(W, H);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) in(xx, yy) = uint16_t(hash32(xx * 7 + yy * 1001) & 0xff);
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Buffer<uint16_t> tent(3, 3);
    int tw[3][3] = {{1, 2, 1}, {2, 4, 2}, {1, 2, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) tent(i, j) = uint16_t(tw[i][j]);
    Func input("input"), blur1("blur1"), blur2("blur2");
    input(x, y) = in(clamp(x, 0, W - 1), clamp(y, 0, H - 1));
    input.compute_root();
    RDom r(tent);
    blur1(x, y) += tent(r.x, r.y) * input(x + r.x - 1, y + r.y - 1);
    blur2(x, y) = sum(tent(r.x, r.y) * input(x + r.x - 1, y + r.y - 1));
    blur1.tile(x, y, xi, yi, 6, 6);
    blur1.update().tile(x, y, xi, yi, 4, 4).vectorize(xi).parallel(y);
    blur2.vectorize(x, 4).parallel(y);
    Buffer<uint16_t> out1 = blur1.realize({W, H});
    Buffer<uint16_t> out2 = blur2.realize({W, H});
    auto want = [&](const std::vector<int> &c) {
        auto cl = [](int v, int hi) { return std::min(std::max(v, 0), hi); };
        int s = 0;
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++) s += tw[i][j] * in(cl(c[0] + i - 1, W - 1), cl(c[1] + j - 1, H - 1));
        return uint16_t(s);
    };
    CHECK(mismatches<uint16_t>(out1, want) == 0);
    CHECK(mismatches<uint16_t>(out2, want) == 0);
}

// Follows Halide's iterate_over_circle.cpp: an update that adds a root producer only inside a
// circle (a select on a bound computed from y with ceil and sqrt).
TEST_CASE("iterate_over_circle: an update adding a producer inside a circle") {
    Func f("f"), in("in");
    Var x("x"), y("y");
    in(x, y) = x + y;
    in.compute_root();
    f(x, y) = 0;
    Expr t = cast<int>(ceil(sqrt(max(0, 10 * 10 - y * y))));
    f(x, y) += select(x > -t && x < t, in(x, y), 0);
    Buffer<int> out(23, 25);
    out.set_min(-11, -12);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int xx = c[0], yy = c[1];
              int tt = int(std::ceil(std::sqrt(float(std::max(0, 100 - yy * yy)))));
              return (xx > -tt && xx < tt) ? xx + yy : 0;
          }) == 0);
}

// Follows Halide's lazy_convolution.cpp: a convolution (an inline sum over a 10x10 RDom)
// computed only where an inlined producer is positive.
TEST_CASE("lazy_convolution: an inline sum under a select on the producer's sign") {
    Func f("f"), blur("blur");
    Var x("x"), y("y");
    f(x, y) = sin(cast<float>(x * 3 + y));
    RDom r(-5, 10, -5, 10);
    blur(x, y) = select(f(x, y) > 0, sum(f(x + r.x, y + r.y)), 0.f);
    Buffer<float> out = blur.realize({47, 31});
    CHECK(mismatches<float>(
              out,
              [](const std::vector<int> &c) {
                  auto fv = [](int xx, int yy) { return std::sin(float(xx * 3 + yy)); };
                  if (!(fv(c[0], c[1]) > 0)) return 0.f;
                  float s = 0;
                  for (int ry = -5; ry < 5; ry++)
                      for (int rx = -5; rx < 5; rx++) s += fv(c[0] + rx, c[1] + ry);
                  return s;
              },
              1e-4) == 0);
}

// Follows Halide's nested_tail_strategies.cpp: chains of copies split with every combination of
// tail strategies, producers computed at the consumers' tiles (the allocation-size checks of
// Halide's test need a custom allocator and are left out; the values are checked).
TEST_CASE("nested_tail_strategies: producers at tiles of consumers, all combinations of tails") {
    const TailStrategy all[] = {TailStrategy::RoundUp, TailStrategy::GuardWithIf, TailStrategy::ShiftInwards};
    auto check = [](Func out, std::vector<TailStrategy> tails) {
        bool round_up = std::count(tails.begin(), tails.end(), TailStrategy::RoundUp) > 0;
        bool shift = std::count(tails.begin(), tails.end(), TailStrategy::ShiftInwards) > 0;
        std::vector<int> sizes = {1024};
        if (!round_up) sizes.push_back(130);
        if (!round_up && !shift) sizes.push_back(3);
        for (int s : sizes) {
            Buffer<int> res = out.realize({s});
            std::ostringstream msg;
            msg << "size " << s << " tails";
            for (auto t : tails) msg << " " << int(t);
            INFO(msg.str());
            CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return c[0]; }) == 0);
        }
    };
    for (auto t1 : all)
        for (auto t2 : all) {
            Func in("in"), f("f"), g("g");
            Var x("x"), xo("xo"), xi("xi");
            in(x) = x;
            f(x) = in(x);
            g(x) = f(x);
            g.split(x, xo, xi, 64, t1);
            f.compute_at(g, xo).split(x, xo, xi, 8, t2);
            in.compute_root();
            check(g, {t1, t2});
        }
    uint32_t s = 7;
    for (auto t1 : all)
        for (auto t2 : all)
            for (auto t3 : all) {
                if (hash32(s++) % 3 != 0) continue;
                Func in("in"), f("f"), g("g"), h("h");
                Var x("x"), xo("xo"), xi("xi");
                in(x) = x;
                f(x) = in(x);
                g(x) = f(x);
                h(x) = g(x);
                h.split(x, xo, xi, 64, t1);
                g.compute_at(h, xo).split(x, xo, xi, 16, t2);
                f.compute_at(g, xo).split(x, xo, xi, 4, t3);
                in.compute_root();
                check(h, {t1, t2, t3});
            }
    for (auto t1 : all)
        for (auto t2 : all)
            for (auto t3 : all) {
                if (hash32(s++) % 3 != 0) continue;
                Func in("in"), f("f"), g("g"), h("h");
                Var x("x"), xo("xo"), xi("xi"), xii("xii"), xio("xio");
                in(x) = x;
                f(x) = in(x);
                g(x) = f(x);
                h(x) = g(x);
                h.split(x, xo, xi, 128, t1).split(xi, xio, xii, 64);
                g.compute_at(h, xio).split(x, xo, xi, 8, t2);
                f.compute_at(h, xo).split(x, xo, xi, 8, t3);
                in.compute_root();
                check(h, {t1, t2, t3});
            }
    for (auto t1 : all)
        for (auto t2 : all)
            for (auto t3 : all)
                for (auto t4 : all) {
                    if (hash32(s++) % 6 != 0) continue;
                    Func in("in"), f("f"), g("g"), h("h");
                    Var x("x"), xo("xo"), xi("xi"), xoo("xoo"), xoi("xoi");
                    in(x) = x;
                    f(x) = in(x);
                    g(x) = f(x);
                    h(x) = g(x);
                    h.split(x, xo, xi, 64, t1).split(xo, xoo, xoi, 2, t2);
                    g.compute_at(h, xoi).split(x, xo, xi, 8, t3);
                    f.compute_at(h, xoo).split(x, xo, xi, 8, t4);
                    in.compute_root();
                    check(h, {t1, t2, t3, t4});
                }
}

// Follows Halide's median3x3.cpp: a 3x3 median from row and column min/max/mid networks over a
// constant_exterior input, vectorized by the natural vector size.
TEST_CASE("median3x3: a median filter from min/max networks over constant_exterior") {
    const int W = 83, H = 37;
    Buffer<uint8_t> in(W, H);
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++) in(xx, yy) = uint8_t(hash32(xx + yy * 1000 + 5) & 0xff);
    auto mid3 = [](Expr a, Expr b, Expr c) { return max(min(max(a, b), c), min(a, b)); };
    Var x("x"), y("y");
    Func input = BoundaryConditions::constant_exterior(in, 0);
    input.compute_root();
    Func max_x("max_x"), min_x("min_x"), mid_x("mid_x");
    max_x(x, y) = max(input(x - 1, y), input(x, y), input(x + 1, y));
    min_x(x, y) = min(input(x - 1, y), input(x, y), input(x + 1, y));
    mid_x(x, y) = mid3(input(x - 1, y), input(x, y), input(x + 1, y));
    Func min_max("min_max"), max_min("max_min"), mid_mid("mid_mid");
    min_max(x, y) = min(max_x(x, y - 1), max_x(x, y), max_x(x, y + 1));
    max_min(x, y) = max(min_x(x, y - 1), min_x(x, y), min_x(x, y + 1));
    mid_mid(x, y) = mid3(mid_x(x, y - 1), mid_x(x, y), mid_x(x, y + 1));
    Func median("median3x3");
    median(x, y) = mid3(min_max(x, y), max_min(x, y), mid_mid(x, y));
    median.vectorize(x, get_host_target().natural_vector_size<uint8_t>());
    Buffer<uint8_t> out = median.realize({W, H});
    CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &c) {
              int xx = c[0], yy = c[1];
              if (xx < 1 || yy < 1 || xx >= W - 1 || yy >= H - 1) return out(xx, yy);  // edges: not a median
              uint8_t v[9];
              int k = 0;
              for (int dy = -1; dy <= 1; dy++)
                  for (int dx = -1; dx <= 1; dx++) v[k++] = in(xx + dx, yy + dy);
              std::nth_element(v, v + 4, v + 9);
              return v[4];
          }) == 0);
}

// Follows Halide's newtons_method.cpp: pi as a zero of sin, by a 0-D double reduction (Newton's
// method) and by a 0-D Tuple reduction (the secant method), each with a dummy use of r.
TEST_CASE("newtons_method: pi by Newton's and the secant method as 0-D reductions") {
    Func f("f");
    f() = cast<double>(3);
    Expr value = sin(f()), deriv = cos(f());
    RDom r(0, 10);
    f() -= value / deriv + (r * 0);
    Buffer<double> nr = f.realize(std::vector<int>{});
    double newton = nr();

    Func g("g");
    g() = Tuple(cast<double>(3), sin(cast<double>(3)), cast<double>(4), sin(cast<double>(4)));
    Expr x1 = g()[0], y1 = g()[1], x2 = g()[2], y2 = g()[3];
    Expr x0 = x1 - y1 * (x1 - x2) / (y1 - y2);
    x0 = select(abs(y2 - y1) > 0, x0, x1);
    x0 += r * 0;
    Expr y0 = sin(x0);
    g() = Tuple(x0, y0, x1, y1);
    Realization sr = g.realize(std::vector<int>{});
    double secant = Buffer<double>(sr[0])();

    // The same iterations in C++.
    double nf = 3;
    for (int i = 0; i < 10; i++) nf -= std::sin(nf) / std::cos(nf) + 0;
    double a = 3, fa = std::sin(3.0), b = 4, fb = std::sin(4.0);
    for (int i = 0; i < 10; i++) {
        double c = std::fabs(fb - fa) > 0 ? a - fa * (a - b) / (fa - fb) : a;
        double fc = std::sin(c);
        b = a, fb = fa, a = c, fa = fc;
    }
    CHECK(newton == nf);
    CHECK(secant == a);
    CHECK(newton == M_PI);
    CHECK(secant == M_PI);
}

// Follows Halide's min_extent.cpp: an ImageParam's left() and right() (its min and max) used in
// an algorithm that never reads it, over an input and an output with different non-zero mins.
TEST_CASE("min_extent: in.left() and in.right() of a shifted input in a select") {
    Var x("x");
    Func f("f");
    ImageParam in(Int(32), 1, "in");
    f(x) = select(x < in.left(), -10, select(x > in.right(), 10, 1)) * x;
    Buffer<int> input(5), out(10);
    input.fill(0);
    out.fill(0);
    input.set_min(4);
    out.set_min(1);
    in.set(input);
    f.realize(out);
    const int expected[] = {-10, -20, -30, 4, 5, 6, 7, 8, 90, 100};
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return expected[c[0] - 1]; }) == 0);
}

// Follows Halide's named_updates.cpp: Stage handles kept from each definition (in arrays and
// structs) and scheduled afterwards, against the same Func unscheduled.
TEST_CASE("named_updates: Stages kept from definitions and scheduled later") {
    RDom r(0, 16);
    Func f("f"), ref("ref");
    Var x("x");
    {
        Stage pure = f(x) = x;
        Stage fix_first = f(0) = 1;
        Stage rewrites[] = {f(r * 2) = 13, f(r * 4) = 14};
        struct {
            Stage a, b, c;
        } more = {f(3 * r) = 4, f(2 * r) = 8, f(5 * r) = 2};
        f.compute_root();
        pure.vectorize(x, 4);
        rewrites[0].parallel(r);
        rewrites[1].vectorize(r, 4);
        more.a.vectorize(r, 4);
        more.b.vectorize(r, 4);
        more.c.vectorize(r, 4);
        (void)fix_first;
    }
    ref(x) = x;
    ref(0) = 1;
    ref(r * 2) = 13;
    ref(r * 4) = 14;
    ref(3 * r) = 4;
    ref(2 * r) = 8;
    ref(5 * r) = 2;
    Buffer<int> result = f.realize({128});
    Buffer<int> result_ref = ref.realize({128});
    std::vector<int> want(128);
    for (int i = 0; i < 128; i++) want[i] = i;
    want[0] = 1;
    for (int i = 0; i < 16; i++) want[i * 2] = 13;
    for (int i = 0; i < 16; i++) want[i * 4] = 14;
    for (int i = 0; i < 16; i++) want[i * 3] = 4;
    for (int i = 0; i < 16; i++) want[i * 2] = 8;
    for (int i = 0; i < 16; i++) want[i * 5] = 2;
    CHECK(mismatches<int>(result, [&](const std::vector<int> &c) { return want[c[0]]; }) == 0);
    CHECK(mismatches<int>(result_ref, [&](const std::vector<int> &c) { return want[c[0]]; }) == 0);
    RDom all(result);
    CHECK(evaluate<uint32_t>(maximum(abs(result(all) - result_ref(all)))) == 0u);
}

// Follows Halide's obscure_image_references.cpp: an RDom whose extent reads a Buffer at a Param
// index, and a pure definition using an ImageParam's width only.
TEST_CASE("obscure_image_references: an RDom extent read from a Buffer at a Param") {
    ImageParam im1(UInt(8), 1, "im1");
    Buffer<uint8_t> im2(10), im3(20);
    im2.fill(0);
    im3.fill(0);
    Param<int> j("j");
    Func f("f");
    Var x("x");
    f(x) = x + im1.width();
    RDom r(0, clamp(im2(j), 0, 99));
    f(r) = 37;
    im2(3) = 10;
    j.set(3);
    im1.set(im3);
    Buffer<int> result = f.realize({100});
    CHECK(mismatches<int>(result, [](const std::vector<int> &c) { return c[0] < 10 ? 37 : c[0] + 20; }) == 0);
    // The extent is read at every call.
    im2(3) = 50;
    Buffer<int> r2 = f.realize({100});
    CHECK(mismatches<int>(r2, [](const std::vector<int> &c) { return c[0] < 50 ? 37 : c[0] + 20; }) == 0);
}

// Follows Halide's multi_way_select.cpp: an 8-way select(c1, v1, c2, v2, ..., default) against
// the same table written as point updates, compared by an inline sum.
TEST_CASE("multi_way_select: an 8-way select against point updates") {
    Func f("f"), g("g");
    Var x("x");
    const int cases[] = {3, 7, 24, 5, 37, 91, 33, 14};
    f(x) = select(x == 0, cases[0], x == 1, cases[1], x == 2, cases[2], x == 3, cases[3], x == 4, cases[4],
                  x == 5, cases[5], x == 6, cases[6], cases[7]);
    g(x) = 0;
    for (int i = 0; i < 8; i++) g(i) = cases[i];
    RDom r(0, 8);
    CHECK(evaluate<uint32_t>(sum(abs(g(r) - f(r)))) == 0u);
    f.vectorize(x, 8);
    Buffer<int> out = f.realize({19});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return cases[std::min(c[0], 7)]; }) == 0);
}

// Follows Halide's partition_loops.cpp: a read through repeat_edge at x + g(x, y, 0), where g is
// a Func with an update computed inside the consumer's loop; and a GuardWithIf split whose inner
// loop is fused with y (Halide's test uses PredicateStores, which Halo does not have).
TEST_CASE("partition_loops: a clamped read at an offset from a per-point Func, and a fused tail") {
    const int W = 301, H = 37;
    Buffer<uint8_t> input(W, H, 3);
    for (int c = 0; c < 3; c++)
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) input(xx, yy, c) = uint8_t(xx + yy + c);
    Var x("x"), y("y"), c("c");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func f("f"), g("g"), h("h"), output("output");
    g(x, y, c) = x + y + c;
    g(x, y, 0) = x;
    h(x, y) = clamped(x + g(x, y, 0), y, 2);
    f(x, y, c) = select(h(x, y) < x + y, x + y, y + c);
    f.compute_root();
    output(x, y, c) = cast<float>(f(x, y, c));
    Buffer<float> im = output.realize({W, H, 3});
    CHECK(mismatches<float>(im, [&](const std::vector<int> &p) {
              int xx = p[0], yy = p[1], cc = p[2];
              int v = input(std::min(2 * xx, W - 1), yy, 2);
              return float(v < xx + yy ? xx + yy : yy + cc);
          }) == 0);

    Var xo("xo"), xi("xi"), fused("fused");
    Func k("k");
    k(x, y) = x + y;
    k.split(x, xo, xi, 2, TailStrategy::GuardWithIf).fuse(y, xi, fused);
    Buffer<int> ko = k.realize({101, 13});
    CHECK(mismatches<int>(ko, [](const std::vector<int> &p) { return p[0] + p[1]; }) == 0);
}

// Follows Halide's skip_stages.cpp: root producers used only under a select on a Param<bool>
// (Halide counts the calls of an extern to check skipped stages; here the values are checked
// for every toggle, including a Tuple producer and a split schedule).
TEST_CASE("skip_stages: producers used only under selects on Param<bool> toggles") {
    Var x("x");
    Param<bool> toggle1("toggle1"), toggle2("toggle2");
    {
        Func f1("f1"), f2("f2"), f3("f3"), f4("f4");
        f1(x) = x;
        f2(x) = f1(x) + 1;
        f3(x) = f1(x) + 2;
        f4(x) = select(toggle1, f2(x), f3(x));
        f1.compute_root();
        f2.compute_root();
        f3.compute_root();
        f4.compile_jit();
        for (bool t : {true, false}) {
            toggle1.set(t);
            Buffer<int> out = f4.realize({10});
            CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return c[0] + (t ? 1 : 2); }) == 0);
        }
    }
    for (int sched = 0; sched < 2; sched++) {
        Func f1("f1"), f2("f2"), f3("f3"), f4("f4");
        f1(x) = x * 3;
        f2(x) = f1(x) + 1;
        f3(x) = f1(x) + 5;
        f4(x) = select(toggle1, f2(x), 0) + select(toggle2, f3(x), 0);
        if (sched == 0) {
            f1.compute_root();
            f2.compute_root();
            f3.compute_root();
        } else {
            Var xo("xo"), xi("xi");
            f4.split(x, xo, xi, 5);
            f1.compute_at(f4, xo);
            f2.store_root().compute_at(f4, xo);
            f3.store_at(f4, xo).compute_at(f4, xi);
        }
        f4.compile_jit();
        for (int t = 0; t < 4; t++) {
            bool a = t & 1, b = t & 2;
            toggle1.set(a);
            toggle2.set(b);
            Buffer<int> out = f4.realize({13});
            INFO("schedule " << sched << " toggles " << a << b);
            CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                      return (a ? c[0] * 3 + 1 : 0) + (b ? c[0] * 3 + 5 : 0);
                  }) == 0);
        }
    }
    {
        Func f1("f1"), f2("f2");
        f1(x) = Tuple(x * 2, x + 1);
        f2(x) = select(toggle1, f1(x)[0], 0) + f1(x)[1];
        f1.compute_root();
        for (bool t : {true, false}) {
            toggle1.set(t);
            Buffer<int> out = f2.realize({10});
            CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return (t ? c[0] * 2 : 0) + c[0] + 1; }) == 0);
        }
    }
    {
        // A sliding window: g(5) is not needed, but f, computed inside g's loop, is needed by
        // the other points.
        Func f("f"), g("g"), h("h");
        f(x) = x * x;
        g(x) = f(x) + f(x - 1);
        h(x) = select(x == 5, 0, g(x));
        f.store_root().compute_at(g, x);
        g.compute_at(h, x);
        Buffer<int> out = h.realize({10});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int v = c[0];
                  return v == 5 ? 0 : v * v + (v - 1) * (v - 1);
              }) == 0);
    }
}

// Follows Halide's stencil_chain_in_update_definitions.cpp: an iterated 3-point blur written as
// 3 x 27 updates of one root Func along its diagonal, so each update needs a region two points
// smaller than the one before (Halide's undef pure definition is 0 here; Halide counts stores,
// this checks the values).
TEST_CASE("stencil_chain_in_update_definitions: 81 updates whose regions shrink as a trapezoid") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    f(x) = sin(cast<float>(x));
    g(x, y) = 0.f;
    g(x, x) = f(x);
    const int iters = 27;
    for (int i = 0; i < iters; i++) {
        g(x, x + 1) = g(x, x);
        g(x, x - 1) = g(x, x);
        g(y, y) = (g(y, y) + g(y - 1, y) + g(y + 1, y)) / 3.0f;
    }
    g.compute_root();
    h(x) = g(x, x);
    const int N = 19;
    Buffer<float> out = h.realize({N});
    // The diagonal d, blurred iters times (reading one point further out each time).
    const int M = 40;
    std::vector<float> d(N + 2 * M);
    for (int i = 0; i < int(d.size()); i++) d[i] = std::sin(float(i - M));
    for (int it = 0; it < iters; it++) {
        std::vector<float> e = d;
        for (int i = 1; i + 1 < int(d.size()); i++) e[i] = (d[i] + d[i - 1] + d[i + 1]) / 3.0f;
        d = e;
    }
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) { return d[c[0] + M]; }, 1e-5) == 0);
}

// Follows Halide's vectorize_nested.cpp: two nested vectorized loops (tiles vectorized in both
// dimensions) with RoundUp and GuardWithIf, with an inlined Func with an update, an inner
// serial loop, producers computed at a vectorized loop, and every loop vectorized.
TEST_CASE("vectorize_nested: tiles vectorized in both dimensions") {
    {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = 3 * x + y;
        f.compute_root().tile(x, y, x, y, xi, yi, 8, 4, TailStrategy::RoundUp).vectorize(xi).vectorize(yi);
        Buffer<int> r = f.realize({32, 24});
        CHECK(mismatches<int>(r, [](const std::vector<int> &c) { return 3 * c[0] + c[1]; }) == 0);
    }
    {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = 3 * x + y;
        f.compute_root().tile(x, y, x, y, xi, yi, 8, 4, TailStrategy::GuardWithIf).vectorize(xi).vectorize(yi);
        Buffer<int> r = f.realize({33, 22});
        CHECK(mismatches<int>(r, [](const std::vector<int> &c) { return 3 * c[0] + c[1]; }) == 0);
    }
    {
        Func f("f"), inl("inl");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        RDom r(0, 10, "r");
        inl(x) = x;
        inl(x) += r;
        f(x, y) = inl(x) + 2 * y;
        f.compute_root().tile(x, y, x, y, xi, yi, 8, 4, TailStrategy::GuardWithIf).vectorize(xi).vectorize(yi);
        Buffer<int> res = f.realize({33, 22});
        CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return c[0] + 2 * c[1] + 45; }) == 0);
    }
    {
        Func f("f");
        Var x("x"), y("y"), c("c"), xi("xi"), yi("yi");
        f(x, y, c) = 3 * x + y + 7 * c;
        f.compute_root()
            .tile(x, y, x, y, xi, yi, 8, 4, TailStrategy::GuardWithIf)
            .reorder(c, xi, yi, x, y)
            .vectorize(xi)
            .vectorize(yi);
        Buffer<int> res = f.realize({33, 22, 3});
        CHECK(mismatches<int>(res, [](const std::vector<int> &p) { return 3 * p[0] + p[1] + 7 * p[2]; }) == 0);
    }
    {
        Func f("f"), g("g");
        Var x("x"), y("y"), xi("xi");
        f(x, y) = 3 * x + y;
        g(x, y) = f(x, y) + f(x + 1, y);
        g.split(x, x, xi, 8).vectorize(xi);
        f.compute_at(g, xi).vectorize(x);
        Buffer<int> res = g.realize({16, 16});
        CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return 6 * c[0] + 3 + 2 * c[1]; }) == 0);
    }
    {
        Func f("f"), g("g");
        Var x("x"), y("y"), xi("xi"), xii("xii");
        f(x, y) = 3 * x + y;
        g(x, y) = f(x, y) + f(x + 1, y);
        g.split(x, x, xi, 8, TailStrategy::GuardWithIf)
            .split(xi, xi, xii, 2, TailStrategy::GuardWithIf)
            .vectorize(xi)
            .vectorize(xii);
        f.compute_at(g, xii).vectorize(x);
        Buffer<int> res = g.realize({35, 17});
        CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return 6 * c[0] + 3 + 2 * c[1]; }) == 0);
    }
    {
        Func f("f");
        Var x("x"), y("y"), xi("xi"), yi("yi");
        f(x, y) = 3 * x + y;
        f.compute_root()
            .tile(x, y, x, y, xi, yi, 4, 2, TailStrategy::GuardWithIf)
            .vectorize(x)
            .vectorize(y)
            .vectorize(xi)
            .vectorize(yi);
        f.bound(x, 0, 12).bound(y, 0, 10);
        Buffer<int> res = f.realize({12, 10});
        CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return 3 * c[0] + c[1]; }) == 0);
    }
    {
        ImageParam in(UInt(8), 2, "in");
        Var x("x_inner"), y("y_inner"), xo("xo"), yo("yo");
        Func out("out");
        out(x, y) = in(x, y);
        out.split(x, xo, x, 8, TailStrategy::RoundUp)
            .split(y, yo, y, 8, TailStrategy::GuardWithIf)
            .vectorize(x)
            .vectorize(y);
        Buffer<uint8_t> ib(24, 21);
        for (int yy = 0; yy < 21; yy++)
            for (int xx = 0; xx < 24; xx++) ib(xx, yy) = uint8_t(xx * 5 + yy * 3);
        in.set(ib);
        Buffer<uint8_t> res = out.realize({24, 21});
        CHECK(mismatches<uint8_t>(res, [&](const std::vector<int> &c) { return ib(c[0], c[1]); }) == 0);
    }
}

// Follows Halide's split_by_non_factor.cpp: updates split or unrolled by factors that do not
// divide the extent, with an RDom of a Param size, producers computed inside and outside the
// split, and a split of the inner loop of a split.
TEST_CASE("split_by_non_factor: update splits and unrolls by non-factors") {
    Var x("x");
    {
        Func f("f");
        f(x) = 0;
        f(x) += x;
        f.update().unroll(x, 2, TailStrategy::GuardWithIf);
        Buffer<int> r = f.realize({3});
        CHECK(mismatches<int>(r, [](const std::vector<int> &c) { return c[0]; }) == 0);
    }
    {
        Func f("f");
        f(x) = x;
        f(x) += 3;
        Param<int> sum_size("sum_size");
        RDom r(0, sum_size);
        f(0) += f(r);
        f.update(0).vectorize(x, 8, TailStrategy::GuardWithIf);
        f.update(1).unroll(r, 4);
        for (int i = 1; i < 20; i++) {
            for (int j = 1; j < i; j++) {
                sum_size.set(j);
                Buffer<int> out = f.realize({i});
                // f(0) += f(r) for r in order: f(0) changes as it goes (r = 0 reads it).
                std::vector<int> v(i);
                for (int k = 0; k < i; k++) v[k] = k + 3;
                for (int k = 0; k < j; k++) v[0] += v[k];
                INFO("size " << i << " sum " << j);
                CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return v[c[0]]; }) == 0);
            }
        }
    }
    {
        Func f("f"), g("g"), h("h");
        g(x) = x - 3;
        h(x) = x * 7;
        f(x) = 0;
        f(x) += g(x) + h(x);
        Var xo("xo"), xi("xi");
        f.update().split(x, xo, xi, 7, TailStrategy::GuardWithIf);
        g.compute_at(f, xo);
        h.compute_at(f, xi);
        Buffer<int> r = f.realize({15});
        CHECK(mismatches<int>(r, [](const std::vector<int> &c) { return (c[0] - 3) + c[0] * 7; }) == 0);
    }
    {
        Func f("f"), g("g");
        f(x) = x;
        f(x) += 1;
        Var xo("xo"), xi("xi"), xio("xio"), xii("xii");
        f.compute_root();
        f.update().split(x, xo, xi, 4).split(xi, xio, xii, 6);
        g(x) = f(x);
        Buffer<int> r = g.realize({32});
        CHECK(mismatches<int>(r, [](const std::vector<int> &c) { return c[0] + 1; }) == 0);
        Buffer<int> r2 = g.realize({29});
        CHECK(mismatches<int>(r2, [](const std::vector<int> &c) { return c[0] + 1; }) == 0);
    }
}

// Follows Halide's transitive_bounds.cpp: a root producer fully unrolled, allowed because its
// only consumer has a constant bound.
TEST_CASE("transitive_bounds: unroll a producer bounded only through its consumer's bound") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x * 3;
    g(x) = f(x) + 1;
    g.bound(x, 0, 4);
    f.compute_root().unroll(x);
    Buffer<int> out = g.realize({4});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 3 + 1; }) == 0);
}

// Follows Halide's vector_bounds_inference.cpp: two root producers vectorized by 4, each read at
// x - 1 and x + 1, so each needs two more points than its consumer.
TEST_CASE("vector_bounds_inference: chained vectorized stencils grow the regions") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y");
    h(x) = x;
    g(x) = h(x - 1) + h(x + 1);
    f(x, y) = (g(x - 1) + g(x + 1)) + y;
    h.compute_root().vectorize(x, 4);
    g.compute_root().vectorize(x, 4);
    Buffer<int> out(37, 3);
    out.set_min(-5, 1);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 4 + c[1]; }) == 0);
}

// Follows Halide's tuple_select.cpp: tuple_select with one condition and with a Tuple of
// conditions, two-way and three-way.
TEST_CASE("tuple_select: Tuple selects under one condition and per element, 2- and 3-way") {
    Var x("x"), y("y");
    auto check = [&](Func f, const std::function<std::pair<int, int>(int, int)> &want) {
        Realization res = f.realize({200, 200});
        Buffer<int> a = res[0], b = res[1];
        CHECK(mismatches<int>(a, [&](const std::vector<int> &c) { return want(c[0], c[1]).first; }) == 0);
        CHECK(mismatches<int>(b, [&](const std::vector<int> &c) { return want(c[0], c[1]).second; }) == 0);
    };
    {
        Func f("f");
        f(x, y) = tuple_select(x + y < 30, Tuple(x, y), Tuple(x - 1, y - 2));
        check(f, [](int a, int b) { return a + b < 30 ? std::make_pair(a, b) : std::make_pair(a - 1, b - 2); });
    }
    {
        Func f("f");
        f(x, y) = tuple_select(Tuple(x < 30, y < 30), Tuple(x, y), Tuple(x - 1, y - 2));
        check(f, [](int a, int b) { return std::make_pair(a < 30 ? a : a - 1, b < 30 ? b : b - 2); });
    }
    {
        Func f("f");
        f(x, y) = tuple_select(x + y < 30, Tuple(x, y), tuple_select(x + y < 100, Tuple(x - 1, y - 2), Tuple(x - 100, y - 200)));
        f.vectorize(x, 8);
        check(f, [](int a, int b) {
            if (a + b < 30) return std::make_pair(a, b);
            if (a + b < 100) return std::make_pair(a - 1, b - 2);
            return std::make_pair(a - 100, b - 200);
        });
    }
    {
        Func f("f");
        f(x, y) = tuple_select(Tuple(x < 30, y < 30), Tuple(x, y),
                               tuple_select(Tuple(x < 100, y < 100), Tuple(x - 1, y - 2), Tuple(x - 100, y - 200)));
        check(f, [](int a, int b) {
            return std::make_pair(a < 30 ? a : a < 100 ? a - 1 : a - 100, b < 30 ? b : b < 100 ? b - 2 : b - 200);
        });
    }
}

// Follows Halide's reduction_chain.cpp: a Func with three diagonal updates, stored at root and
// computed per output point, whose producers are stored at the output's x loop and computed
// inside different update stages of it; the output's bounds fixed by constraints.
TEST_CASE("reduction_chain: diagonal updates whose producers are computed at different stages") {
    Func f0("f0"), f1("f1"), f2("f2"), g("g"), out("out");
    Var x("x"), y("y");
    f0(x, y) = 0;
    f1(x, y) = 1;
    f2(x, y) = 2;
    g(x, y) = 0;
    g(x, x) = g(x, x - 1) + g(x, x + 1) + f0(x, x);
    g(y, y) = g(y - 1, y) + g(y + 1, y) + f1(y, y);
    g(x, x) = g(x, x - 1) + g(x, x + 1) + f2(x, x);
    out(x, y) = g(x - 1, y - 1) + g(x + 1, y + 1);
    g.store_root().compute_at(out, x);
    f0.store_at(out, x).compute_at(g, x);
    f1.store_at(out, x).compute_at(g, y);
    f2.store_at(out, x).compute_at(g, x);
    out.output_buffer().dim(0).set_bounds(0, 10);
    out.output_buffer().dim(1).set_bounds(0, 10);
    Buffer<int> res = out.realize({10, 10});
    // g is 2 on its diagonal and 0 elsewhere.
    CHECK(mismatches<int>(res, [](const std::vector<int> &c) { return c[0] == c[1] ? 4 : 0; }) == 0);
}
