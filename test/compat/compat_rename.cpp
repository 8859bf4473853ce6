// Halide's Stage::rename (Func::rename): a loop takes a new name, and later directives,
// compute_at and the lowered loop nest use it. Each schedule is checked against plain C++ at
// sizes its splits do not divide, with non-zero mins.
#include <atomic>

#include "CompatUtil.h"

namespace Halide = halo;
using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {
std::atomic<int> points{0};
}
extern "C" int count_point(int value) {
    points++;
    return value;
}
HalideExtern_1(int, count_point, int);

TEST_CASE("rename: a pure Var's loop takes the new name in the loop nest and in later directives") {
    Var x("x"), y("y"), xx("xx"), xo("xo"), xi("xi");
    Func f("f");
    f(x, y) = x * 3 + y;
    f.rename(x, xx).split(xx, xo, xi, 4).vectorize(xi);
    std::string stmt = f.lowered_stmt();
    CHECK(contains(stmt, "f.s0.xo"));
    CHECK(!contains(stmt, "for (f.s0.x,"));
    Buffer<int> out(13, 5);
    out.set_min({-3, 2});
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * 3 + p[1]; }) == 0);
}

TEST_CASE("rename: compute_at a renamed loop, and store_at outside it for a sliding window") {
    Var x("x"), y("y"), row("row");
    Func f("f"), g("g");
    f(x, y) = count_point(x + y * 10);
    g(x, y) = f(x, y - 1) + f(x, y + 1);
    g.rename(y, row);
    f.store_root().compute_at(g, row);
    Buffer<int> out(7, 9);
    out.set_min({1, -4});
    points = 0;
    g.realize(out);
    // Each of the 11 rows of f computed once: the window slides along the renamed loop.
    CHECK(points.load() == 7 * 11);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return 2 * (p[0] + p[1] * 10); }) == 0);
    std::string msg = thrown_message([&] {
        Func h("h"), k("k");
        h(x, y) = x;
        k(x, y) = h(x, y);
        k.rename(y, row);
        h.compute_at(k, y);
        k.realize({4, 4});
    });
    CHECK(contains(msg, "has no loop 'y'"));
}

TEST_CASE("rename: the outer loop of a ShiftInwards split, run in parallel, stores each point once") {
    Var x("x"), y("y"), yo("yo"), yi("yi"), strip("strip");
    Func f("f");
    f(x, y) = count_point(x - y * 7);
    f.split(y, yo, yi, 4).rename(yo, strip).parallel(strip);
    Buffer<int> out(5, 10);
    out.set_min({0, -2});
    points = 0;
    f.realize(out);
    // 3 strips of 4 rows, the last shifted back over 2 rows of the second, which it skips (its
    // store guard, the same for a row, skips computing it): each of the 10 rows once.
    CHECK(points.load() == 5 * 10);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] - p[1] * 7; }) == 0);
}

TEST_CASE("rename: an RVar's loop, reordered by its new name, and an update's pure Var") {
    Var x("x"), y("y"), xr("xr");
    RDom r(0, 5, 0, 3);
    RVar rx("rx"), ry("ry");
    Func f("f");
    f(x, y) = 0;
    f(x, y) += r.x * (x + 1) + r.y * y;
    f.update().rename(r.x, rx).rename(r.y, ry).rename(x, xr).reorder(xr, rx, ry, y);
    Buffer<int> out(6, 4);
    out.set_min({-1, 3});
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return 30 * (p[0] + 1) + 15 * p[1]; }) == 0);
}

TEST_CASE("rename: a fused loop renamed, then split and vectorized") {
    Var x("x"), y("y"), xy("xy"), t("t"), to("to"), ti("ti");
    Func f("f");
    f(x, y) = x * x - y;
    f.fuse(x, y, xy).rename(xy, t).split(t, to, ti, 8).vectorize(ti).parallel(to);
    Buffer<int> out(9, 7);
    out.set_min({2, -1});
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return p[0] * p[0] - p[1]; }) == 0);
}

TEST_CASE("rename: to the name of another loop, or of a loop that is not there, is an error naming both") {
    Var x("x"), y("y"), z("z");
    Func f("f");
    f(x, y) = x + y;
    std::string taken = thrown_message([&] { f.rename(x, y); });
    CHECK(contains(taken, "rename(x, y) gives the loop the name of the existing loop 'y'"));
    std::string missing = thrown_message([&] { f.rename(z, x); });
    CHECK(contains(missing, "rename(z): there is no loop 'z'"));
    f.rename(x, x);  // the same name: nothing changes
    Buffer<int> out = f.realize({3, 2});
    CHECK(out(2, 1) == 3);
}

TEST_CASE("rename: a race-free update runs in parallel over its renamed RVar, and rfactor splits a renamed RVar") {
    Var x("x"), u("u");
    RDom r(0, 40);
    RVar rx("rx"), ro("ro"), ri("ri");
    Func scatter("scatter");
    scatter(x) = -1;
    scatter(r.x) = r.x * 2;  // each iteration writes its own point
    scatter.update().rename(r.x, rx).parallel(rx);
    Buffer<int> s = scatter.realize({40});
    CHECK(mismatches<int>(s, [](const std::vector<int> &p) { return p[0] * 2; }) == 0);

    Func sum("sum");
    sum() = 0;
    sum() += r.x * r.x;
    sum.update().rename(r.x, rx).split(rx, ro, ri, 8);
    Func partial = sum.update().rfactor(ro, u);
    partial.compute_root().update().parallel(u);
    Buffer<int> total = sum.realize();
    int want = 0;
    for (int i = 0; i < 40; i++) want += i * i;
    CHECK(total() == want);
}
