// Halide-style Tuples and pipelines of several outputs (the idioms of Halide's tutorial 13 and
// its tuple and multiple-output tests): a Func returning two values, Tuple updates, argmax by a
// Tuple reduction, complex arithmetic, Realization, and Pipeline({f, g}).realize.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("a Func that returns a Tuple, realized into a Realization") {
    Func multi_valued;
    Var x, y;
    multi_valued(x, y) = Tuple(x + y, sin(x * y));
    Realization r = multi_valued.realize({80, 60});
    REQUIRE(r.size() == 2);
    Buffer<int> im0 = r[0];
    Buffer<float> im1 = r[1];
    CHECK(im0(30, 40) == 30 + 40);
    CHECK(im1(30, 40) == doctest::Approx(std::sin(30.0f * 40.0f)).epsilon(1e-4));
}

TEST_CASE("braces define a Tuple, f(x)[i] reads one value") {
    Func multi_valued_2;
    Var x, y;
    multi_valued_2(x, y) = {x + y, sin(x * y)};
    Func consumer;
    consumer(x, y) = multi_valued_2(x, y)[0] + multi_valued_2(x, y)[1];
    Buffer<float> out = consumer.realize({10, 10});
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) {
            CHECK(out(i, j) == doctest::Approx(float(i + j) + std::sin(float(i * j))).epsilon(1e-4));
        }
    }
}

TEST_CASE("argmax as a Tuple reduction (tutorial 13)") {
    Func input_func;
    Var x;
    input_func(x) = sin(x);
    input_func.compute_root();
    Func arg_max;
    arg_max() = {0, input_func(0)};
    RDom r(1, 99);
    Expr old_index = arg_max()[0];
    Expr old_max = arg_max()[1];
    Expr new_index = select(old_max < input_func(r), r, old_index);
    Expr new_max = max(input_func(r), old_max);
    arg_max() = {new_index, new_max};
    Realization result = arg_max.realize({});
    Buffer<int> index = result[0];
    Buffer<float> value = result[1];
    int want = 0;
    for (int i = 1; i < 100; i++) {
        if (std::sin(float(i)) > std::sin(float(want))) want = i;
    }
    CHECK(index() == want);
    CHECK(value() == doctest::Approx(std::sin(float(want))));
}

TEST_CASE("complex numbers as Tuples: a Mandelbrot iteration along a third dimension") {
    Var x, y, z;
    Func mandel;
    Expr cr = x / 8.0f - 2.0f, ci = y / 8.0f - 1.0f;
    mandel(x, y, z) = {0.0f, 0.0f};
    RDom t(1, 20);
    Expr re = mandel(x, y, t - 1)[0], im = mandel(x, y, t - 1)[1];
    Expr escaped = re * re + im * im > 4.0f;
    mandel(x, y, t) = {select(escaped, re, re * re - im * im + cr), select(escaped, im, 2.0f * re * im + ci)};
    Func count;
    RDom k(0, 21);
    Expr zr = mandel(x, y, k)[0], zi = mandel(x, y, k)[1];
    count(x, y) = sum(select(zr * zr + zi * zi <= 4.0f, 1, 0));
    mandel.compute_at(count, x);
    Buffer<int> out = count.realize({24, 16});
    int bad = 0;
    for (int j = 0; j < 16; j++) {
        for (int i = 0; i < 24; i++) {
            float zr = 0, zi = 0, c_r = i / 8.0f - 2.0f, c_i = j / 8.0f - 1.0f;
            int n = 1;  // z_0 = 0 is inside
            for (int step = 1; step <= 20; step++) {
                if (!(zr * zr + zi * zi > 4.0f)) {
                    float nr = zr * zr - zi * zi + c_r, ni = 2.0f * zr * zi + c_i;
                    zr = nr, zi = ni;
                }
                n += zr * zr + zi * zi <= 4.0f;
            }
            // (fused multiply-adds may move a point on the escape boundary by a step)
            bad += std::abs(out(i, j) - n) > 1;
        }
    }
    CHECK(bad == 0);
}

TEST_CASE("Pipeline({f, g}) computes both outputs in one call") {
    Func f, g;
    Var x;
    f(x) = x * x;
    g(x) = f(x) + 100;
    Pipeline p({f, g});
    Realization r = p.realize({10});
    Buffer<int> fb = r[0], gb = r[1];
    for (int i = 0; i < 10; i++) {
        CHECK(fb(i) == i * i);
        CHECK(gb(i) == i * i + 100);
    }
}

TEST_CASE("realizing into buffers the caller owns") {
    Func f;
    Var x, y;
    f(x, y) = {x + y, x - y};
    Buffer<int> a(8, 4), b(8, 4);
    f.realize({a, b});
    CHECK(a(5, 3) == 8);
    CHECK(b(5, 3) == 2);
}

TEST_CASE("partial Tuple updates and undef(), as in Halide's tuple_partial_update and tuple_undef") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("partial_f");
    f(x, y) = Tuple(x, y);
    f(x, y)[0] += 3;                                   // value 1 stays
    f(x, y)[1] = f(x, y)[1] * 2 + f(x, y)[0];          // value 0 stays
    f(x, y) = Tuple(f(x, y)[0] - y, undef<int>());     // undef: value 1 stays
    f.update(0).vectorize(x, 4);
    f.update(1).split(x, xo, xi, 3, TailStrategy::GuardWithIf).parallel(y);
    f.update(2).vectorize(x, 8);
    Realization r = f.realize({21, 5});
    Buffer<int> a = r[0], b = r[1];
    for (int yy = 0; yy < 5; yy++) {
        for (int xx = 0; xx < 21; xx++) {
            CHECK(a(xx, yy) == xx + 3 - yy);
            CHECK(b(xx, yy) == yy * 2 + xx + 3);
        }
    }
    // Over an RDom: an argmin-like scan updating one value at a time.
    Func g("partial_g");
    RDom k(1, 9, "k");
    g(x) = Tuple(x * 7 % 5, 0);
    g(k)[1] = g(k - 1)[1] + g(k)[0];
    Realization gr = g.realize({10});
    Buffer<int> g0 = gr[0], g1 = gr[1];
    int acc = 0;
    for (int i = 0; i < 10; i++) {
        CHECK(g0(i) == i * 7 % 5);
        if (i > 0) acc += i * 7 % 5;
        CHECK(g1(i) == acc);
    }
    // A pure definition may leave a value undefined too (as in Halide: stored nowhere); an
    // update fills it.
    std::string msg;
    Func h("undef_h");
    h(x) = Tuple(x, undef<int>());
    h(x) = Tuple(h(x)[0], h(x)[0] * 3);
    Realization hr = h.realize({5});
    Buffer<int> h1 = hr[1];
    for (int i = 0; i < 5; i++) CHECK(h1(i) == i * 3);
    // undef() inside an expression makes the expression undef(), as in Halide: the value stays.
    Func u("undef_u");
    u(x) = Tuple(x, x);
    u(x) = Tuple(u(x)[0], undef<int>() + 1);
    Realization ur = u.realize({5});
    Buffer<int> u1 = ur[1];
    for (int i = 0; i < 5; i++) CHECK(u1(i) == i);
}

TEST_CASE("tuple_select of many ways: tuple_select(c0, v0, c1, v1, ..., otherwise)") {
    Var x("x"), y("y");
    Func f("many_way");
    f(x, y) = tuple_select(x < 3, Tuple(x, y), x < 6, Tuple(x * 2, y * 2), y < 2, Tuple(-x, -y), Tuple(100, 200));
    f.vectorize(x, 4);
    Realization r = f.realize({9, 4});
    Buffer<int> a = r[0], b = r[1];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 9; i++) {
            int ea = i < 3 ? i : i < 6 ? i * 2 : j < 2 ? -i : 100;
            int eb = i < 3 ? j : i < 6 ? j * 2 : j < 2 ? -j : 200;
            CHECK(a(i, j) == ea);
            CHECK(b(i, j) == eb);
        }
    }
    // With a condition per element.
    Func g("many_way_per_element");
    g(x) = tuple_select(Tuple(x < 2, x < 4), Tuple(1, 2), Tuple(x < 5, x < 7), Tuple(3, 4), Tuple(5, 6));
    Realization s = g.realize({8});
    Buffer<int> s0 = s[0], s1 = s[1];
    for (int i = 0; i < 8; i++) {
        CHECK(s0(i) == (i < 2 ? 1 : i < 5 ? 3 : 5));
        CHECK(s1(i) == (i < 4 ? 2 : i < 7 ? 4 : 6));
    }
}
