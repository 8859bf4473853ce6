// Behaviours that Halide's correctness tests define (bounds of splits and updates, nested tail
// strategies, sliding windows forwards and backwards, storage folding, RVar loops split, fused,
// reordered and unrolled, specializations, wrappers, Tuples with updates, 3-D schedules, odd
// sizes and negative coordinates), each checked point by point against plain C++ loops.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::mismatches;

namespace {

int floor_div(int a, int b) {
    int q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}
int floor_mod(int a, int b) { return a - floor_div(a, b) * b; }

}  // namespace

TEST_CASE("a root producer split by more than its consumer needs (ShiftInwards) still computes the right values") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f"), g("g");
    f(x) = x * 3 + 1;
    g(x) = f(x) + f(x + 2);
    f.compute_root().split(x, xo, xi, 8);
    for (int n : {1, 5, 6, 8, 9, 23}) {
        Buffer<int> out = g.realize({n});
        INFO("n = " << n);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] * 3 + 1) + ((c[0] + 2) * 3 + 1); }) == 0);
    }
}

TEST_CASE("nested splits with every pair of tail strategies on an intermediate") {
    const TailStrategy tails[] = {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards, TailStrategy::RoundUp};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
            Func p("p"), g("g"), h("h");
            p(x) = x * x - 5;
            g(x) = p(x - 1) + p(x + 1);
            h(x) = g(x) * 2;
            g.compute_root().split(x, xo, xi, 16, tails[a]).split(xi, xio, xii, 5, tails[b]);
            p.compute_at(g, xio);
            for (int n : {3, 16, 37, 85}) {
                Buffer<int> out = h.realize({n});
                INFO("tails " << a << "," << b << " n = " << n);
                CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                          int i = c[0];
                          return ((i - 1) * (i - 1) - 5 + (i + 1) * (i + 1) - 5) * 2;
                      }) == 0);
            }
        }
}

TEST_CASE("a sliding window where the consumer walks the producer backwards") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x * 7 - 2;
    g(x) = f(100 - x) + f(99 - x) + f(101 - x);
    f.store_root().compute_at(g, x);
    Buffer<int> out = g.realize({40});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int i = c[0];
              return ((100 - i) * 7 - 2) + ((99 - i) * 7 - 2) + ((101 - i) * 7 - 2);
          }) == 0);
}

TEST_CASE("a sliding window over a producer with an update that reads beyond its consumer's region") {
    Var x("x"), y("y");
    RDom r(0, 3);
    Func f("f"), g("g");
    f(x, y) = x + y;
    f(r, y) = f(r, y) * 2 + f(r + 1, y);
    g(x, y) = f(x, y) + f(x, y + 1) + f(x, y + 2);
    f.store_root().compute_at(g, y);
    Buffer<int> out = g.realize({2, 12});
    auto fv = [](int i, int j) { return i < 3 ? 2 * (i + j) + (i + 1 + j) : i + j; };
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              return fv(c[0], c[1]) + fv(c[0], c[1] + 1) + fv(c[0], c[1] + 2);
          }) == 0);
}

TEST_CASE("fold_storage of a stencil's producer keeps just enough rows") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 11 + y * y;
    g(x, y) = f(x, y - 1) + 2 * f(x, y) + f(x, y + 1);
    f.store_root().compute_at(g, y).fold_storage(y, 4);
    Buffer<int> out = g.realize({9, 17});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto fv = [](int i, int j) { return i * 11 + j * j; };
              return fv(c[0], c[1] - 1) + 2 * fv(c[0], c[1]) + fv(c[0], c[1] + 1);
          }) == 0);
}

TEST_CASE("fold_storage with the consumer's rows split, the producer computed per inner row") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x - 3 * y;
    g(x, y) = f(x, y) * f(x, y + 2);
    g.split(y, yo, yi, 3);
    f.store_root().compute_at(g, yi).fold_storage(y, 4);
    Buffer<int> out = g.realize({6, 14});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              return (c[0] - 3 * c[1]) * (c[0] - 3 * (c[1] + 2));
          }) == 0);
}

TEST_CASE("a fold smaller than one iteration's footprint is refused") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y - 1) + f(x, y) + f(x, y + 1);
    f.store_root().compute_at(g, y).fold_storage(y, 2);
    bool threw = false;
    try {
        Buffer<int> out = g.realize({4, 8});
    } catch (const std::exception &e) {
        threw = true;
        std::string msg = e.what();
        INFO(msg);
        CHECK(msg.find("f") != std::string::npos);
    }
    CHECK(threw);
}

TEST_CASE("a producer computed inside the inner loop of a split RVar") {
    Var x("x");
    RDom r(0, 22);
    RVar ro("ro"), ri("ri");
    for (int where = 0; where < 2; where++) {
        Func p("p"), f("f");
        p(x) = x * x;
        f(x) = 0;
        f(r % 5) += p(r);
        f.update().split(r, ro, ri, 4);
        if (where == 0)
            p.compute_at(f, ri);
        else
            p.compute_at(f, ro);
        Buffer<int> out = f.realize({5});
        INFO("where " << where);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int s = 0;
                  for (int i = 0; i < 22; i++)
                      if (i % 5 == c[0]) s += i * i;
                  return s;
              }) == 0);
    }
}

// Halide's reorder_rvars: the RVars of an associative and commutative update may be reordered;
// its bad_rvar_order: not those of one whose iterations read each other.
TEST_CASE("the RVars of a sum may be reordered, those of an update reading other points may not") {
    RDom r(0, 5, 0, 4);
    Func f("f");
    Var x("x"), y("y");
    f(x) = x;
    f(x) += (r.x + 1) * (r.y + 2) + x * r.y;
    f.update().reorder(r.y, x, r.x);
    Buffer<int> out = f.realize({6});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int v = c[0];
              for (int j = 0; j < 4; j++)
                  for (int i = 0; i < 5; i++) v += (i + 1) * (j + 2) + c[0] * j;
              return v;
          }) == 0);

    RDom s(0, 10, 0, 10);
    Func g("g");
    g(x, y) = x + y;
    g(s.x, s.y) += g(s.y, s.x);
    std::string msg;
    try {
        g.update().reorder(s.y, s.x);
    } catch (const CompileError &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find("'g'") != std::string::npos);
    CHECK(msg.find("RVars") != std::string::npos);
}

// Halide's fused_where_inner_extent_is_zero: the fused loop is empty and the region stays.
TEST_CASE("fusing RVar loops whose inner extent is zero runs nothing") {
    Param<int> inner("inner");
    RDom r(0, inner, 0, 5);
    RVar t("t");
    Func f("f");
    Var x("x");
    f(x) = x;
    f(r.x + r.y) += 100;
    f.update().fuse(r.x, r.y, t);
    for (int n : {0, 1, 3}) {
        inner.set(n);
        Buffer<int> out = f.realize({10});
        INFO("inner " << n);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  int v = c[0];
                  for (int j = 0; j < 5; j++)
                      for (int i = 0; i < n; i++)
                          if (i + j == c[0]) v += 100;
                  return v;
              }) == 0);
    }
}

TEST_CASE("an update reading f(x - 1) with the pure Var x is refused as in Halide") {
    Var x("x");
    Func f("f");
    f(x) = x * 10 + 1;
    std::string msg;
    try {
        f(x) = f(x - 1) + f(x);
        Buffer<int> out = f.realize({8});
    } catch (const CompileError &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find("'f'") != std::string::npos);
}

TEST_CASE("a scan over an RDom with a non-zero min, realized over a buffer with a non-zero min") {
    Var x("x");
    RDom r(4, 6);
    Func f("f"), g("g");
    f(x) = x * 10 + 1;
    f(r) = f(r - 1) + f(r);
    g(x) = f(x) - x;
    f.compute_root();
    Buffer<int> out(8);
    out.set_min(3);
    g.realize(out);
    std::vector<int> fv(20);
    for (int i = 0; i < 20; i++) fv[i] = i * 10 + 1;
    for (int i = 4; i < 10; i++) fv[i] = fv[i - 1] + fv[i];
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return fv[c[0]] - c[0]; }) == 0);
}

TEST_CASE("an update reading f(r + 1) beyond its consumer's tile widens what the pure definition computes") {
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 12);
    Func f("f"), g("g");
    f(x) = x * x;
    f(r) = f(r + 1) - f(r);
    g(x) = f(x) + 1;
    g.split(x, xo, xi, 4);
    f.compute_at(g, xo);
    Buffer<int> out = g.realize({10});
    // f is computed whole (its update touches [0, 13)) for each tile of g.
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int i = c[0];
              return (i + 1) * (i + 1) - i * i + 1;
          }) == 0);
}

// Halide (tutorial 9, case 3) computes p once in each step's x loop.
TEST_CASE("a producer used by both the pure step and the update of its consumer, computed at x") {
    Var x("x");
    Func p("p"), c("c");
    p(x) = x * 17;
    c(x) = 170 - p(x);
    c(x) += p(x + 1) / 2;
    p.compute_at(c, x);
    Buffer<int> out = c.realize({10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &v) { return 170 - v[0] * 17 + (v[0] + 1) * 17 / 2; }) == 0);
}

TEST_CASE("floor division and modulo of negative coordinates, realized over negative mins") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func p("p"), f("f");
    p(x, y) = x * 3 - y;
    f(x, y) = p(x / 2, y) + p(x / 2 + 1, y) * 10 + (x % 3) * 1000;
    f.split(x, xo, xi, 4);
    p.compute_at(f, xo);
    Buffer<int> out(13, 6);
    out.set_min(-9, -4);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int i = c[0], j = c[1], h = floor_div(i, 2);
              return (h * 3 - j) + ((h + 1) * 3 - j) * 10 + floor_mod(i, 3) * 1000;
          }) == 0);
}

TEST_CASE("a producer computed at a loop that only a specialization splits") {
    Param<bool> fast("fast");
    Var x("x"), xi("xi");
    Func p("p"), f("f");
    p(x) = x * 5 + 2;
    f(x) = p(x - 1) + p(x + 1);
    f.specialize(fast).split(x, x, xi, 4);
    p.compute_at(f, x);
    for (bool b : {true, false}) {
        fast.set(b);
        Buffer<int> out = f.realize({11});
        INFO("fast " << b);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return ((c[0] - 1) * 5 + 2) + ((c[0] + 1) * 5 + 2); }) == 0);
    }
}

TEST_CASE("specializations of the consumer vectorize and split differently around the same producer") {
    Param<int> mode("mode");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func p("p"), f("f");
    p(x, y) = x + 100 * y;
    f(x, y) = p(x, y) * 2 + p(x + 1, y + 1);
    f.specialize(mode == 0).vectorize(x, 8);
    f.specialize(mode == 1).tile(x, y, xi, yi, 3, 2);
    p.compute_at(f, y);
    for (int m : {0, 1, 2}) {
        mode.set(m);
        Buffer<int> out = f.realize({13, 7});
        INFO("mode " << m);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  return (c[0] + 100 * c[1]) * 2 + (c[0] + 1 + 100 * (c[1] + 1));
              }) == 0);
    }
}

TEST_CASE("wrappers of one producer for two consumers, each scheduled differently") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("f"), g("g"), h("h"), out("out");
    f(x, y) = x * 2 + y * 3;
    g(x, y) = f(x, y) + f(x + 1, y);
    h(x, y) = f(x, y - 1) * f(x, y + 1);
    out(x, y) = g(x, y) + h(x, y);
    f.compute_root();
    g.compute_root();
    h.compute_root().split(x, xo, xi, 4);
    f.in(g).compute_at(g, y).vectorize(x, 4);
    f.in(h).compute_at(h, xo);
    Buffer<int> o = out.realize({11, 5});
    CHECK(mismatches<int>(o, [](const std::vector<int> &c) {
              auto fv = [](int i, int j) { return i * 2 + j * 3; };
              int i = c[0], j = c[1];
              return fv(i, j) + fv(i + 1, j) + fv(i, j - 1) * fv(i, j + 1);
          }) == 0);
}

TEST_CASE("a global wrapper computed per tile between an inline producer and its consumer") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x * y - x;
    g(x, y) = f(x, y) + f(x + 2, y + 1);
    g.tile(x, y, xo, yo, xi, yi, 4, 3);
    Func w = f.in();
    w.compute_at(g, xo);
    Buffer<int> out = g.realize({10, 7});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto fv = [](int i, int j) { return i * j - i; };
              return fv(c[0], c[1]) + fv(c[0] + 2, c[1] + 1);
          }) == 0);
}

TEST_CASE("RVar loops fused, split and unrolled run every point once, in the fused order") {
    RDom r(0, 7, 0, 5);
    RVar t("t"), to("to"), ti("ti");
    Func acc("acc");
    acc() = 0;
    acc() = (acc() * 3 + r.x + 11 * r.y) % 65521;
    acc.update().fuse(r.x, r.y, t).split(t, to, ti, 4).unroll(ti);
    Buffer<int> out = acc.realize(std::vector<int>{});
    int e = 0;
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 7; i++) e = (e * 3 + i + 11 * j) % 65521;
    CHECK(out() == e);
}

TEST_CASE("a Tuple-valued Func with an update scheduled on its RVar") {
    Var x("x");
    RDom r(0, 23);
    RVar ro("ro"), ri("ri");
    Func f("f");
    f(x) = Tuple(x, -1.0f);
    f(r % 4) = Tuple(f(r % 4)[0] + r, max(f(r % 4)[1], cast<float>(r * (r % 3))));
    f.update().split(r, ro, ri, 5);
    Realization rz = f.realize({4});
    Buffer<int> a = rz[0];
    Buffer<float> b = rz[1];
    CHECK(mismatches<int>(a, [](const std::vector<int> &c) {
              int s = c[0];
              for (int i = 0; i < 23; i++)
                  if (i % 4 == c[0]) s += i;
              return s;
          }) == 0);
    CHECK(mismatches<float>(b, [](const std::vector<int> &c) {
              float m = -1;
              for (int i = 0; i < 23; i++)
                  if (i % 4 == c[0]) m = std::max(m, float(i * (i % 3)));
              return m;
          }) == 0);
}

TEST_CASE("RDom::where on a pure Var of the update, with the pure Var vectorized") {
    Var x("x");
    RDom r(0, 10);
    r.where(r < x);
    Func f("f");
    f(x) = 0;
    f(x) += r + 1;
    f.update().vectorize(x, 4);
    Buffer<int> out = f.realize({15});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int i = 0; i < 10 && i < c[0]; i++) s += i + 1;
              return s;
          }) == 0);
}

TEST_CASE("store_root and compute_at inside a parallel loop is refused with the Func and loop named") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 13 + y * 7;
    g(x, y) = f(x, y) + f(x, y + 1) * 3;
    g.parallel(y);
    f.store_root().compute_at(g, y);
    std::string msg;
    try {
        Buffer<int> out = g.realize({20, 33});
    } catch (const CompileError &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find("'f'") != std::string::npos);
    CHECK(msg.find("parallel") != std::string::npos);
}

TEST_CASE("vectorizing an intermediate with each tail strategy at sizes no factor divides") {
    const TailStrategy tails[] = {TailStrategy::RoundUp, TailStrategy::ShiftInwards, TailStrategy::GuardWithIf};
    for (int t = 0; t < 3; t++) {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = x * 5 - y;
        g(x, y) = f(x, y) + f(x + 3, y);
        f.compute_at(g, y).vectorize(x, 8, tails[t]);
        for (int n : {1, 7, 13, 17}) {
            Buffer<int> out = g.realize({n, 3});
            INFO("tail " << t << " n = " << n);
            CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                      return (c[0] * 5 - c[1]) + ((c[0] + 3) * 5 - c[1]);
                  }) == 0);
        }
    }
}

TEST_CASE("a 3-D pipeline with channels innermost and three dimensions fused") {
    Var x("x"), y("y"), c("c"), t("t"), u("u");
    for (int variant = 0; variant < 3; variant++) {
        Func f("f"), g("g");
        f(x, y, c) = x + 10 * y + 100 * c;
        g(x, y, c) = f(x, y, c) * 2 + f(x + 1, y, c) - f(x, y, 2 - c);
        if (variant == 0) {
            g.reorder(c, x, y);
            f.compute_at(g, x);
        } else if (variant == 1) {
            g.reorder(c, x, y).fuse(c, x, t).fuse(t, y, u).parallel(u);
            f.compute_root();
        } else {
            g.reorder(c, x, y).fuse(c, x, t);
            f.compute_at(g, t);
        }
        Buffer<int> out = g.realize({7, 5, 3});
        INFO("variant " << variant);
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  auto fv = [](int i, int j, int k) { return i + 10 * j + 100 * k; };
                  return fv(p[0], p[1], p[2]) * 2 + fv(p[0] + 1, p[1], p[2]) - fv(p[0], p[1], 2 - p[2]);
              }) == 0);
    }
}

TEST_CASE("fuse then split at an odd size, with a producer computed at the outer loop") {
    Var x("x"), y("y"), t("t"), to("to"), ti("ti");
    Func p("p"), f("f");
    p(x, y) = x * 3 + y * 5;
    f(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
    f.fuse(x, y, t).split(t, to, ti, 7);
    p.compute_at(f, to);
    Buffer<int> out = f.realize({13, 5});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto pv = [](int i, int j) { return i * 3 + j * 5; };
              return pv(c[0], c[1]) + pv(c[0] + 1, c[1]) + pv(c[0], c[1] + 1);
          }) == 0);
}

TEST_CASE("a producer computed at a fused loop, realized over non-zero mins") {
    Var x("x"), y("y"), t("t");
    Func p("p"), f("f");
    p(x, y) = x - 2 * y;
    f(x, y) = p(x - 1, y) * p(x + 1, y - 1);
    f.fuse(x, y, t);
    p.compute_at(f, t);
    Buffer<int> out(6, 4);
    out.set_min(-3, 5);
    f.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto pv = [](int i, int j) { return i - 2 * j; };
              return pv(c[0] - 1, c[1]) * pv(c[0] + 1, c[1] - 1);
          }) == 0);
}

TEST_CASE("a summed-area table: columns in vectors in parallel strips, rows in parallel") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func in("in"), sat("sat");
    in(x, y) = (x * 7 + y * 3) % 11;
    sat(x, y) = in(x, y);
    RDom r(1, 36);
    sat(x, r) += sat(x, r - 1);
    sat(r, y) += sat(r - 1, y);
    sat.update(0).split(x, xo, xi, 4).reorder(xi, r, xo).vectorize(xi).parallel(xo);
    sat.update(1).parallel(y);
    Buffer<int> out = sat.realize({37, 37});
    std::vector<std::vector<int>> e(37, std::vector<int>(37));
    for (int j = 0; j < 37; j++)
        for (int i = 0; i < 37; i++) e[j][i] = (i * 7 + j * 3) % 11;
    for (int j = 1; j < 37; j++)
        for (int i = 0; i < 37; i++) e[j][i] += e[j - 1][i];
    for (int j = 0; j < 37; j++)
        for (int i = 1; i < 37; i++) e[j][i] += e[j][i - 1];
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return e[c[1]][c[0]]; }) == 0);
}

TEST_CASE("a producer computed inside an unrolled loop at a size the factor does not divide") {
    Var x("x"), y("y"), xi("xi");
    Func p("p"), g("g");
    p(x, y) = x * 4 - y;
    g(x, y) = p(x, y) * p(x + 1, y);
    g.split(x, x, xi, 3).unroll(xi);
    p.compute_at(g, xi);
    Buffer<int> out = g.realize({10, 3});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] * 4 - c[1]) * ((c[0] + 1) * 4 - c[1]); }) == 0);
}

TEST_CASE("store_at the row of tiles, compute_at each tile: a sliding window along x") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("p"), g("g");
    p(x, y) = x * x + 3 * y;
    g(x, y) = p(x - 1, y) + p(x + 2, y) + p(x, y + 1);
    g.tile(x, y, xo, yo, xi, yi, 4, 4);
    p.store_at(g, yo).compute_at(g, xo);
    Buffer<int> out = g.realize({15, 9});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto pv = [](int i, int j) { return i * i + 3 * j; };
              return pv(c[0] - 1, c[1]) + pv(c[0] + 2, c[1]) + pv(c[0], c[1] + 1);
          }) == 0);
}

TEST_CASE("a histogram scattered by a computed index into a buffer with a negative min") {
    Buffer<int> data(23, 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 23; i++) data(i, j) = (i * 5 + j * 9) % 13 - 6;
    Var x("x");
    Func hist("hist");
    RDom r(0, 23, 0, 4);
    hist(x) = 0;
    hist(clamp(data(r.x, r.y), -6, 6)) += 1;
    Buffer<int> out(13);
    out.set_min(-6);
    hist.realize(out);
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              int n = 0;
              for (int j = 0; j < 4; j++)
                  for (int i = 0; i < 23; i++) n += data(i, j) == c[0];
              return n;
          }) == 0);
}

TEST_CASE("an RVar whose extent is a Param split with GuardWithIf, the inner loop unrolled") {
    Param<int> n("n");
    RDom r(3, n);
    RVar ro("ro"), ri("ri");
    Var x("x");
    Func f("f");
    f(x) = x;
    f(r % 7) = f(r % 7) * 2 + r;
    f.update().split(r, ro, ri, 4, TailStrategy::GuardWithIf).unroll(ri);
    for (int k : {0, 1, 5, 8, 13}) {
        n.set(k);
        Buffer<int> out = f.realize({7});
        INFO("n = " << k);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  int v = c[0];
                  for (int i = 3; i < 3 + k; i++)
                      if (i % 7 == c[0]) v = v * 2 + i;
                  return v;
              }) == 0);
    }
}

TEST_CASE("a root producer read by two consumers over different regions covers their union") {
    Var x("x"), y("y");
    Func p("p"), a("a"), b("b"), out("out");
    p(x, y) = x * 3 + y * 1000;
    a(x, y) = p(x - 5, y);
    b(x, y) = p(x + 7, y + 2);
    out(x, y) = a(x, y) + b(x, y) * 2;
    p.compute_root();
    a.compute_root();
    b.compute_at(out, y);
    Buffer<int> o(9, 4);
    o.set_min(-2, -3);
    out.realize(o);
    CHECK(mismatches<int>(o, [](const std::vector<int> &c) {
              auto pv = [](int i, int j) { return i * 3 + j * 1000; };
              return pv(c[0] - 5, c[1]) + pv(c[0] + 7, c[1] + 2) * 2;
          }) == 0);
}

TEST_CASE("a Tuple-valued Func whose update splits and vectorizes a pure Var") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("f");
    f(x, y) = Tuple(x + y, cast<float>(x - y));
    f(x, y) = Tuple(f(x, y)[0] * 2 + cast<int>(f(x, y)[1]), f(x, y)[1] * 0.5f + 1.0f);
    f.update().split(x, xo, xi, 4).vectorize(xi);
    f.vectorize(x, 8);
    Realization rz = f.realize({11, 3});
    Buffer<int> a = rz[0];
    Buffer<float> b = rz[1];
    CHECK(mismatches<int>(a, [](const std::vector<int> &c) { return (c[0] + c[1]) * 2 + (c[0] - c[1]); }) == 0);
    CHECK(mismatches<float>(b, [](const std::vector<int> &c) { return float(c[0] - c[1]) * 0.5f + 1.0f; }) == 0);
}

TEST_CASE("ShiftInwards on a Var of an update definition is refused, naming the Func") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x;
    f(x) += 1;
    std::string msg;
    try {
        f.update().split(x, xo, xi, 4, TailStrategy::ShiftInwards);
        Buffer<int> out = f.realize({10});
    } catch (const CompileError &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find("'f'") != std::string::npos);
    CHECK(msg.find("ShiftInwards") != std::string::npos);
}

TEST_CASE("an N-dimensional tile of x, y, c at odd sizes with a producer at the outermost tile loop") {
    Var x("x"), y("y"), c("c"), xi("xi"), yi("yi"), ci("ci");
    Func p("p"), g("g");
    p(x, y, c) = x * 2 + y * 30 + c * 500;
    g(x, y, c) = p(x, y, c) - p(x + 1, y + 1, c);
    g.tile({x, y, c}, {xi, yi, ci}, {4, 3, 2});
    p.compute_at(g, x);
    Buffer<int> out = g.realize({9, 7, 3});
    CHECK(mismatches<int>(out, [](const std::vector<int> &q) {
              auto pv = [](int i, int j, int k) { return i * 2 + j * 30 + k * 500; };
              return pv(q[0], q[1], q[2]) - pv(q[0] + 1, q[1] + 1, q[2]);
          }) == 0);
}

TEST_CASE("a two-dimensional RDom::where triangle with its RVars fused and split") {
    RDom r(0, 9, 0, 9);
    r.where(r.x <= r.y);
    RVar t("t"), to("to"), ti("ti");
    Var x("x");
    Func f("f");
    f(x) = 0;
    f(r.y) += r.x * 3 + 1;
    f.update().fuse(r.x, r.y, t).split(t, to, ti, 5);
    Buffer<int> out = f.realize({9});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int i = 0; i <= c[0]; i++) s += i * 3 + 1;
              return s;
          }) == 0);
}

// Halide accepts vectorize/parallel of an RVar it can prove race-free (f(r) = f(r) * 2 + r * r),
// and refuses one whose iterations read each other's points (a scan).
TEST_CASE("vectorizing or parallelizing a race-free RVar runs, a scan's RVar is refused with the Func named") {
    for (int mode = 0; mode < 2; mode++) {
        RDom r(2, 13);
        Var x("x");
        Func f("f");
        f(x) = x;
        f(r) = f(r) * 2 + r * r;
        if (mode == 0)
            f.update().vectorize(r, 4);
        else
            f.update().parallel(r);
        Buffer<int> out = f.realize({17});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int i = c[0];
                  return i >= 2 && i < 15 ? i * 2 + i * i : i;
              }) == 0);

        Func g("g");
        g(x) = x;
        g(r) = g(r - 1) + r;
        std::string msg;
        try {
            if (mode == 0)
                g.update().vectorize(r, 4);
            else
                g.update().parallel(r);
        } catch (const CompileError &e) {
            msg = e.what();
        }
        INFO(msg);
        CHECK(msg.find("'g'") != std::string::npos);
        CHECK(msg.find(mode == 0 ? "vectorize" : "parallel") != std::string::npos);
    }
}

TEST_CASE("a downsample then upsample pyramid over negative coordinates, computed per tile") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func base("base"), down("down"), up("up");
    base(x, y) = x * 3 + y * 7;
    down(x, y) = base(2 * x, y) + base(2 * x + 1, y);
    up(x, y) = down(x / 2, y) + down((x + 1) / 2, y);
    up.tile(x, y, xo, yo, xi, yi, 5, 2);
    down.compute_at(up, xo);
    base.compute_at(up, xo);
    Buffer<int> out(17, 4);
    out.set_min(-11, -1);
    up.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto bv = [](int i, int j) { return i * 3 + j * 7; };
              auto dv = [&](int i, int j) { return bv(2 * i, j) + bv(2 * i + 1, j); };
              return dv(floor_div(c[0], 2), c[1]) + dv(floor_div(c[0] + 1, 2), c[1]);
          }) == 0);
}

TEST_CASE("bound() on a producer's dimension is honoured when it covers what is read") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func p("p"), g("g");
    p(x, y) = x * 9 - y;
    g(x, y) = p(x % 8, y) + p((x + 3) % 8, y);
    p.compute_root().bound(x, 0, 8).vectorize(x, 8);
    g.split(x, xo, xi, 3);
    Buffer<int> out = g.realize({14, 3});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] % 8) * 9 - c[1] + ((c[0] + 3) % 8) * 9 - c[1]; }) == 0);
}

TEST_CASE("a sliding window under a consumer split with ShiftInwards at heights the factor does not divide") {
    for (int h : {5, 7, 13}) {
        Var x("x"), y("y"), yo("yo"), yi("yi");
        Func f("f"), g("g");
        f(x, y) = x * 31 + y * y;
        g(x, y) = f(x, y - 1) + f(x, y) * 2 + f(x, y + 1);
        g.split(y, yo, yi, 4);
        f.store_root().compute_at(g, yi);
        Buffer<int> out = g.realize({6, h});
        INFO("height " << h);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  auto fv = [](int i, int j) { return i * 31 + j * j; };
                  return fv(c[0], c[1] - 1) + fv(c[0], c[1]) * 2 + fv(c[0], c[1] + 1);
              }) == 0);
    }
}

TEST_CASE("a sliding window over a producer whose update convolves along x") {
    Var x("x"), y("y");
    RDom k(-1, 3);
    Func in("in"), f("f"), g("g");
    in(x, y) = (x * 7 + y * 13) % 17;
    f(x, y) = 0;
    f(x, y) += in(x + k, y) * (k + 2);
    g(x, y) = f(x, y - 1) + f(x, y + 1) * 3;
    in.compute_root();
    f.store_root().compute_at(g, y);
    Buffer<int> out = g.realize({8, 11});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto iv = [](int i, int j) { return floor_mod(i * 7 + j * 13, 17); };
              auto fv = [&](int i, int j) {
                  int s = 0;
                  for (int q = -1; q < 2; q++) s += iv(i + q, j) * (q + 2);
                  return s;
              };
              return fv(c[0], c[1] - 1) + fv(c[0], c[1] + 1) * 3;
          }) == 0);
}

TEST_CASE("a sliding window over an upsampled producer read at y / 2 and (y + 1) / 2") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + 100 * y;
    g(x, y) = f(x, y / 2) * 3 + f(x, (y + 1) / 2);
    f.store_root().compute_at(g, y);
    Buffer<int> out(5, 15);
    out.set_min(0, -5);
    g.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              return (c[0] + 100 * floor_div(c[1], 2)) * 3 + (c[0] + 100 * floor_div(c[1] + 1, 2));
          }) == 0);
}

TEST_CASE("a RoundUp intermediate with a producer computed inside its inner loop, read over negative coordinates") {
    Var x("x"), xo("xo"), xi("xi");
    Func p("p"), m("m"), out("out");
    p(x) = x * x * 3 - x;
    m(x) = p(x) - p(x - 2);
    out(x) = m(x) + m(x + 1);
    m.compute_root().split(x, xo, xi, 8, TailStrategy::RoundUp);
    p.compute_at(m, xi);
    Buffer<int> o(11);
    o.set_min(-7);
    out.realize(o);
    CHECK(mismatches<int>(o, [](const std::vector<int> &c) {
              auto pv = [](int i) { return i * i * 3 - i; };
              auto mv = [&](int i) { return pv(i) - pv(i - 2); };
              return mv(c[0]) + mv(c[0] + 1);
          }) == 0);
}

TEST_CASE("a wrapper of a Func with an update, computed per tile of its consumer") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    RDom r(0, 4);
    Func f("f"), g("g");
    f(x, y) = x - y;
    f(x, y) += r * (x + 1);
    g(x, y) = f(x, y) + f(x + 1, y + 2);
    f.compute_root();
    g.tile(x, y, xo, yo, xi, yi, 4, 4);
    f.in(g).compute_at(g, xo).vectorize(x, 4);
    Buffer<int> out = g.realize({10, 6});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto fv = [](int i, int j) { return i - j + 6 * (i + 1); };
              return fv(c[0], c[1]) + fv(c[0] + 1, c[1] + 2);
          }) == 0);
}

TEST_CASE("a vectorized output smaller than the vector with GuardWithIf over a non-zero min") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 3 + y;
    f.vectorize(x, 16, TailStrategy::GuardWithIf);
    for (int w : {1, 3, 15, 17}) {
        Buffer<int> out(w, 2);
        out.set_min(-4, 9);
        f.realize(out);
        INFO("width " << w);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 3 + c[1]; }) == 0);
    }
}

TEST_CASE("a specialized update whose split loop has a producer computed inside it") {
    Param<bool> p("p");
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 3);
    Func q("q"), f("f");
    q(x) = x * 11;
    f(x) = x;
    f(x) += q(x + r);
    f.update().specialize(p).split(x, x, xi, 4, TailStrategy::GuardWithIf);
    q.compute_at(f, x);
    for (bool b : {true, false}) {
        p.set(b);
        Buffer<int> out = f.realize({10});
        INFO("p = " << b);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + 11 * (3 * c[0] + 3); }) == 0);
    }
}

TEST_CASE("RoundUp on an output buffer whose size the factor does not divide is an error, not a write past the end") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x * 2;
    f.split(x, xo, xi, 8, TailStrategy::RoundUp);
    Buffer<int> ok = f.realize({16});
    CHECK(mismatches<int>(ok, [](const std::vector<int> &c) { return c[0] * 2; }) == 0);
    std::string msg;
    try {
        Buffer<int> out(13);
        f.realize(out);
    } catch (const std::exception &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(msg.find("'f'") != std::string::npos);
    CHECK(msg.find("RoundUp") != std::string::npos);
    CHECK(msg.find("multiple") != std::string::npos);
    CHECK(msg.find("ShiftInwards") == std::string::npos);  // not a strategy this schedule uses
    // realize(sizes) computes 16 and returns the 13 asked for, as Halide's does.
    Buffer<int> cropped = f.realize({13});
    CHECK(cropped.dim(0).extent() == 13);
    CHECK(mismatches<int>(cropped, [](const std::vector<int> &c) { return c[0] * 2; }) == 0);
}

TEST_CASE("a sliding window over a producer that is split along the sliding dimension") {
    for (int t = 0; t < 3; t++) {
        const TailStrategy tails[] = {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf, TailStrategy::RoundUp};
        Var x("x"), y("y"), yo("yo"), yi("yi");
        RDom r(0, 2);
        Func f("f"), g("g");
        f(x, y) = x + 7 * y;
        f(x, y) += r + y;
        g(x, y) = f(x, y - 2) + f(x, y + 1);
        f.store_root().compute_at(g, y).split(y, yo, yi, 3, tails[t]);
        Buffer<int> out = g.realize({4, 10});
        INFO("tail " << t);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  auto fv = [](int i, int j) { return i + 7 * j + 1 + 2 * j; };
                  return fv(c[0], c[1] - 2) + fv(c[0], c[1] + 1);
              }) == 0);
    }
}

TEST_CASE("a producer stored at root but computed per row, read both above and mirrored below") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 5 + y * 3;
    g(x, y) = f(x, y) + f(x, 12 - y);
    f.store_root().compute_at(g, y);
    Buffer<int> out = g.realize({3, 13});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 5 + c[1] * 3 + c[0] * 5 + (12 - c[1]) * 3; }) == 0);
}

// Halide's sliding_backwards: the window moves towards lower y, slides and folds.
TEST_CASE("fold_storage of a producer read by a consumer walking y downwards") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 2 + y * 9;
    g(x, y) = f(x, 20 - y) + f(x, 21 - y);
    f.store_root().compute_at(g, y).fold_storage(y, 2);
    Buffer<int> out = g.realize({4, 12});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 2 + (20 - c[1]) * 9 + c[0] * 2 + (21 - c[1]) * 9; }) == 0);
}

TEST_CASE("parallel with a task size that does not divide the height") {
    Var x("x"), y("y");
    Func p("p"), g("g");
    p(x, y) = x * y + 1;
    g(x, y) = p(x, y) + p(x, y + 1);
    g.parallel(y, 3);
    p.compute_at(g, y);
    Buffer<int> out = g.realize({7, 10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * c[1] + 1 + c[0] * (c[1] + 1) + 1; }) == 0);
}

TEST_CASE("a Tuple-valued producer sliding inside its consumer's rows") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = Tuple(x + y, x * y);
    g(x, y) = f(x, y - 1)[0] * f(x, y + 1)[1] + f(x, y)[1];
    f.store_root().compute_at(g, y);
    Buffer<int> out = g.realize({6, 9});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int i = c[0], j = c[1];
              return (i + j - 1) * (i * (j + 1)) + i * j;
          }) == 0);
}

TEST_CASE("tiling an update's pure Vars with its RVar innermost, at odd sizes") {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom r(0, 5);
    Func f("f");
    f(x, y) = x ^ y;
    f(x, y) = f(x, y) * 2 + r * x - y;
    f.update().tile(x, y, xi, yi, 4, 3).reorder(r, xi, yi, x, y);
    Buffer<int> out = f.realize({9, 7});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int v = c[0] ^ c[1];
              for (int k = 0; k < 5; k++) v = v * 2 + k * c[0] - c[1];
              return v;
          }) == 0);
}

TEST_CASE("an rfactor intermediate computed at the consumer's loop") {
    Var x("x"), u("u");
    RDom r(0, 24);
    RVar ro("ro"), ri("ri");
    Func in("in"), f("f"), g("g");
    in(x) = (x * 37) % 101 - 50;
    f(x) = 0;
    f(x) += in(r + x) * (r % 3 + 1);
    g(x) = f(x) * 2;
    in.compute_root();
    f.compute_at(g, x);
    f.update().split(r, ro, ri, 6);
    Func intm = f.update().rfactor(ro, u);
    intm.compute_at(f, x);
    Buffer<int> out = g.realize({7});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int k = 0; k < 24; k++) s += (((k + c[0]) * 37) % 101 - 50) * (k % 3 + 1);
              return s * 2;
          }) == 0);
}

TEST_CASE("a sliding window under a consumer whose specialization splits the rows it slides over") {
    Param<bool> p("p");
    Var x("x"), y("y"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x * 3 + y * 17;
    g(x, y) = f(x, y - 1) - f(x, y + 2);
    g.specialize(p).split(y, y, yi, 4);
    f.store_root().compute_at(g, y);
    for (bool b : {true, false}) {
        p.set(b);
        Buffer<int> out = g.realize({5, 11});
        INFO("p = " << b);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] * 3 + (c[1] - 1) * 17) - (c[0] * 3 + (c[1] + 2) * 17); }) == 0);
    }
}

TEST_CASE("a folded window stored per parallel strip") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x * 7 - y * 5;
    g(x, y) = f(x, y - 1) + f(x, y) + f(x, y + 1);
    g.split(y, yo, yi, 8).parallel(yo);
    f.store_at(g, yo).compute_at(g, yi).fold_storage(y, 4);
    Buffer<int> out = g.realize({6, 29});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return 3 * (c[0] * 7) - 5 * (3 * c[1]); }) == 0);
}

TEST_CASE("a chain of producers each computed at a loop of the next, under a tiled root") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("a"), b("b"), c("c"), d("d");
    a(x, y) = x - 2 * y;
    b(x, y) = a(x, y) + a(x + 1, y);
    c(x, y) = b(x, y) * b(x, y + 1);
    d(x, y) = c(x, y) - c(x + 2, y + 1);
    d.tile(x, y, xo, yo, xi, yi, 4, 4);
    c.compute_at(d, xo);
    b.compute_at(c, y);
    a.compute_at(b, x);
    Buffer<int> out = d.realize({11, 9});
    auto av = [](int i, int j) { return i - 2 * j; };
    auto bv = [&](int i, int j) { return av(i, j) + av(i + 1, j); };
    auto cv = [&](int i, int j) { return bv(i, j) * bv(i, j + 1); };
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return cv(p[0], p[1]) - cv(p[0] + 2, p[1] + 1); }) == 0);
}

TEST_CASE("a row update f(x, 0) = f(x, 8) of a producer computed per tile reads a row outside the tile") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = x * y + 1;
    f(x, 0) = f(x, 8) * 2;
    g(x, y) = f(x, y) + 1;
    g.tile(x, y, xo, yo, xi, yi, 4, 3);
    f.compute_at(g, xo);
    f.update().vectorize(x, 4);
    Buffer<int> out = g.realize({10, 7});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int v = c[1] == 0 ? (c[0] * 8 + 1) * 2 : c[0] * c[1] + 1;
              return v + 1;
          }) == 0);
}

TEST_CASE("a producer computed at the RVar loop of its consumer's update, read at (x, r)") {
    Var x("x"), y("y");
    RDom r(-2, 5);
    Func p("p"), f("f");
    p(x, y) = x * 10 + y * y;
    f(x) = 0;
    f(x) += p(x, r) * (r + 3);
    f.update().vectorize(x, 4);
    p.compute_at(f, r);
    Buffer<int> out = f.realize({9});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int k = -2; k < 3; k++) s += (c[0] * 10 + k * k) * (k + 3);
              return s;
          }) == 0);
}

TEST_CASE("one compiled pipeline realized over regions of different sizes and mins") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func p("p"), g("g");
    p(x, y) = x * 3 - y * 2;
    g(x, y) = p(x - 1, y) + p(x + 1, y + 1);
    g.split(x, xo, xi, 4);
    p.compute_at(g, xo);
    int mins[][2] = {{0, 0}, {-5, 3}, {7, -8}, {-1, -1}};
    int sizes[][2] = {{9, 4}, {5, 2}, {13, 5}, {4, 1}};
    for (int k = 0; k < 4; k++) {
        Buffer<int> out(sizes[k][0], sizes[k][1]);
        out.set_min(mins[k][0], mins[k][1]);
        g.realize(out);
        INFO("case " << k);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  return ((c[0] - 1) * 3 - c[1] * 2) + ((c[0] + 1) * 3 - (c[1] + 1) * 2);
              }) == 0);
    }
}

TEST_CASE("a split factor given by a Param, larger than some realized extents") {
    Param<int> factor("factor");
    Var x("x"), xo("xo"), xi("xi");
    Func p("p"), g("g");
    p(x) = x * x;
    g(x) = p(x) + p(x + 1);
    p.compute_root().split(x, xo, xi, factor);
    for (int f : {1, 3, 8, 20}) {
        factor.set(f);
        for (int n : {5, 12}) {
            Buffer<int> out = g.realize({n});
            INFO("factor " << f << " n " << n);
            CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * c[0] + (c[0] + 1) * (c[0] + 1); }) == 0);
        }
    }
}

TEST_CASE("RDom::where reading another Func computed at root") {
    Var x("x");
    Func mask("mask"), f("f");
    mask(x) = (x * 7) % 3 == 0;
    mask.compute_root();
    RDom r(0, 20);
    r.where(mask(r) && r > x);
    f(x) = 0;
    f(x) += r * 2 - x;
    Buffer<int> out = f.realize({12});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int s = 0;
              for (int i = 0; i < 20; i++)
                  if ((i * 7) % 3 == 0 && i > c[0]) s += i * 2 - c[0];
              return s;
          }) == 0);
}

TEST_CASE("a lookup table computed per tile covers every value of its uint8 index") {
    Buffer<uint8_t> in(37);
    for (int i = 0; i < 37; i++) in(i) = uint8_t((i * 97 + 13) % 256);
    Var x("x"), xo("xo"), xi("xi");
    Func lut("lut"), g("g");
    lut(x) = x * 3 - 100;
    g(x) = lut(cast<int>(in(x))) + lut(cast<int>(in(x)) / 2);
    g.split(x, xo, xi, 8);
    lut.compute_at(g, xo).vectorize(x, 8);
    Buffer<int> out = g.realize({37});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              int v = in(c[0]);
              return (v * 3 - 100) + ((v / 2) * 3 - 100);
          }) == 0);
}

TEST_CASE("an index with no bound (a Func with an update) into a computed producer is an error naming both") {
    Var x("x");
    Func h("h"), p("p"), g("g");
    h(x) = x;
    h(x) += 1;
    p(x) = x * 2;
    g(x) = p(h(x));
    p.compute_root();
    std::string msg;
    try {
        Buffer<int> out = g.realize({4});
        // Halide refuses this as an unbounded access; if it runs, it must still be right.
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] + 1) * 2; }) == 0);
    } catch (const CompileError &e) {
        msg = e.what();
        INFO(msg);
        CHECK(msg.find("'p'") != std::string::npos);
    }
}

TEST_CASE("a sliding window along x within each row, with x folded") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * x - y;
    g(x, y) = f(x - 1, y) + f(x + 1, y) * 2;
    f.store_at(g, y).compute_at(g, x).fold_storage(x, 4);
    Buffer<int> out = g.realize({12, 3});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              auto fv = [](int i, int j) { return i * i - j; };
              return fv(c[0] - 1, c[1]) + fv(c[0] + 1, c[1]) * 2;
          }) == 0);
}

TEST_CASE("reorder_storage of a 3-D producer computed per row and vectorized across channels") {
    Var x("x"), y("y"), c("c");
    Func f("f"), g("g");
    f(x, y, c) = x * 100 + y * 10 + c;
    g(x, y, c) = f(x, y, c) + f(x + 1, y, 3 - c);
    f.reorder_storage(c, x, y).compute_at(g, y).reorder(c, x, y).vectorize(c, 4);
    g.reorder(c, x, y).vectorize(c, 4);
    Buffer<int> out = g.realize({5, 3, 4});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
              return (p[0] * 100 + p[1] * 10 + p[2]) + ((p[0] + 1) * 100 + p[1] * 10 + 3 - p[2]);
          }) == 0);
}

TEST_CASE("nested sliding windows: each producer stored at root, computed at the next one's rows") {
    Var x("x"), y("y");
    Func a("a"), b("b"), c("c");
    a(x, y) = x + y * 3;
    b(x, y) = a(x, y - 1) + a(x, y + 1);
    c(x, y) = b(x, y - 1) * b(x, y + 1);
    a.store_root().compute_at(b, y);
    b.store_root().compute_at(c, y);
    Buffer<int> out = c.realize({4, 10});
    auto av = [](int i, int j) { return i + j * 3; };
    auto bv = [&](int i, int j) { return av(i, j - 1) + av(i, j + 1); };
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return bv(p[0], p[1] - 1) * bv(p[0], p[1] + 1); }) == 0);
}

TEST_CASE("a producer computed at the fused loop of two RVars, and at a split of it") {
    RDom r(0, 6, 0, 5);
    for (int where = 0; where < 2; where++) {
        RVar t("t"), to("to"), ti("ti");
        Var x("x"), y("y");
        Func p("p"), f("f");
        p(x, y) = x * 3 + y * 50;
        f(x) = x;
        f((r.x + r.y) % 4) += p(r.x, r.y) + r.x;
        f.update().fuse(r.x, r.y, t);
        if (where == 0) {
            p.compute_at(f, t);
        } else {
            f.update().split(t, to, ti, 7);
            p.compute_at(f, to);
        }
        Buffer<int> out = f.realize({4});
        INFO("where " << where);
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
                  int v = c[0];
                  for (int j = 0; j < 5; j++)
                      for (int i = 0; i < 6; i++)
                          if ((i + j) % 4 == c[0]) v += i * 3 + j * 50 + i;
                  return v;
              }) == 0);
    }
}

TEST_CASE("a wrapper of an input staged per tile, read with a boundary condition") {
    ImageParam im(Int(32), 2, "im");
    Buffer<int> input(9, 7);
    input.for_each_value([](const std::vector<int> &c) { return c[0] * 8 - c[1] * 3; });
    im.set(input);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func clamped = BoundaryConditions::mirror_image(im);
    Func g("g");
    g(x, y) = clamped(x - 2, y) + clamped(x + 1, y - 1);
    g.tile(x, y, xo, yo, xi, yi, 4, 4);
    Func staged = im.in();
    staged.compute_at(g, xo);
    Buffer<int> out(11, 9);
    out.set_min(-1, -1);
    g.realize(out);
    auto mirror = [](int i, int n) {
        i = floor_mod(i, 2 * n);
        return i < n ? i : 2 * n - 1 - i;
    };
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              auto iv = [&](int i, int j) { return input(mirror(i, 9), mirror(j, 7)); };
              return iv(c[0] - 2, c[1]) + iv(c[0] + 1, c[1] - 1);
          }) == 0);
}

TEST_CASE("argmin over a two-dimensional RDom::where as a Tuple reduction with the pure Var split") {
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 7, 0, 6);
    r.where((r.x + r.y) % 3 != 1);
    Func score("score"), best("best");
    score(x) = x;
    best(x) = Tuple(1 << 30, -1, -1);
    Expr v = ((r.x * 13 + r.y * 7 + x * 5) % 17) - 8;
    Expr better = v < best(x)[0];
    best(x) = Tuple(select(better, v, best(x)[0]), select(better, r.x, best(x)[1]), select(better, r.y, best(x)[2]));
    best.update().split(x, xo, xi, 4, TailStrategy::GuardWithIf);
    Realization rz = best.realize({9});
    Buffer<int> bv = rz[0], bx = rz[1], by = rz[2];
    int bad = 0;
    for (int i = 0; i < 9; i++) {
        int m = 1 << 30, mx = -1, my = -1;
        for (int j = 0; j < 6; j++)
            for (int k = 0; k < 7; k++) {
                if ((k + j) % 3 == 1) continue;
                int val = ((k * 13 + j * 7 + i * 5) % 17) - 8;
                if (val < m) m = val, mx = k, my = j;
            }
        if (bv(i) != m || bx(i) != mx || by(i) != my) {
            if (!bad) MESSAGE("at " << i << ": got (" << bv(i) << ", " << bx(i) << ", " << by(i) << "), expected (" << m << ", " << mx << ", " << my << ")");
            bad++;
        }
    }
    CHECK(bad == 0);
}

