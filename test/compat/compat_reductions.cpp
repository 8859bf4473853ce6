// Halide tutorial-style reductions (lesson 9): updates, RDom, histograms, scans, inline
// reductions, RDom::where, and the Target a schedule asks about.
#include <doctest/doctest.h>

#include <cstdint>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("a histogram by an update with an RDom over the image") {
    Buffer<uint8_t> input(40, 30);
    for (int y = 0; y < 30; y++)
        for (int x = 0; x < 40; x++) input(x, y) = uint8_t((x * 7 + y * 13) % 256);
    Func histogram("histogram");
    Var x("x");
    histogram(x) = 0;
    RDom r(0, input.width(), 0, input.height());
    histogram(input(r.x, r.y)) += 1;
    Buffer<int> h = histogram.realize({256});
    int expected[256] = {};
    for (int y = 0; y < 30; y++)
        for (int xx = 0; xx < 40; xx++) expected[input(xx, y)]++;
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += h(i) != expected[i];
    CHECK(bad == 0);
}

TEST_CASE("a scan and an inline sum, scheduled") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    RDom r(1, 9);
    f(r, y) = f(r, y) + f(r - 1, y);
    f.update(0).parallel(y);
    Buffer<int> out = f.realize({10, 4});
    for (int j = 0; j < 4; j++) {
        int acc = j;
        for (int i = 1; i < 10; i++) {
            acc += i + j;
            CHECK(out(i, j) == acc);
        }
    }
    Func g("g");
    RDom k(-2, 5);
    g(x) = sum(cast<float>(x + k)) / 5.0f;
    g.vectorize(x, 8);
    Buffer<float> avg = g.realize({16});
    for (int i = 0; i < 16; i++) CHECK(avg(i) == float(i));
}

TEST_CASE("RDom::where restricts a reduction to a triangle") {
    RDom r(0, 8, 0, 8);
    r.where(r.x < r.y);
    Func count("count");
    count() = 0;
    count() += 1;
    count() += select(r.x < r.y, 0, 1000);  // the predicate holds everywhere it runs
    Buffer<int> c = count.realize(std::vector<int>{});
    CHECK(c() == 1);
    Func tri("tri");
    tri() = 0;
    tri() += r.x + r.y;
    int e = 0;
    for (int yy = 0; yy < 8; yy++)
        for (int xx = 0; xx < yy; xx++) e += xx + yy;
    CHECK(evaluate<int>(tri()) == e);
}

TEST_CASE("argmax, minimum and the target's vector width") {
    Buffer<float> b(20);
    for (int i = 0; i < 20; i++) b(i) = float((i * 7) % 20);
    RDom r(0, 20);
    Tuple am = argmax(b(r));
    CHECK(evaluate<int>(am[0]) == 17);  // 7 * 17 % 20 == 19
    CHECK(evaluate<float>(am[1]) == 19.0f);
    CHECK(evaluate<float>(minimum(b(r))) == 0.0f);
    Target t = get_jit_target_from_environment();
    Var x("x");
    Func f("f");
    f(x) = b(x) * 2.0f;
    f.vectorize(x, t.natural_vector_size<float>());
    Buffer<float> out = f.realize({20});
    for (int i = 0; i < 20; i++) CHECK(out(i) == b(i) * 2.0f);
}

// Halide's RDom takes any number of ranges: a 6-D reduction, its fifth and sixth RVars as r[4]
// and r[5], and the name last.
TEST_CASE("an RDom of six dimensions sums over every one of them") {
    RDom r(0, 2, 0, 3, 1, 2, 0, 2, -1, 3, 0, 2, "r6");
    CHECK(r.dimensions() == 6);
    CHECK(r[4].name() == "r6.4");
    Func f("six");
    f() = 0;
    f() += r.x + 10 * r.y + 100 * r.z + 1000 * r.w + 10000 * r[4] + 100000 * r[5];
    Buffer<int> out = f.realize();
    // Each dimension's values sum to (sum of its range) * (points of the other dimensions).
    const int points = 2 * 3 * 2 * 2 * 3 * 2;
    int want = (1 * points / 2) + 10 * (3 * points / 3) + 100 * (3 * points / 2) + 1000 * (1 * points / 2) +
               10000 * (0 * points / 3) + 100000 * (1 * points / 2);
    CHECK(out() == want);
    std::string msg;
    try {
        RDom odd(0, 2, 0);
    } catch (const std::exception &e) {
        msg = e.what();
    }
    CHECK(msg.find("RDom given 3 bounds: give a min and an extent for each dimension") != std::string::npos);
}
