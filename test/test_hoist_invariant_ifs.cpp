// lower/HoistInvariantIfs.h: an if on a loop-invariant condition that guards everything a loop
// does is tested once, outside the loop. Each case checks where the if ends up in the lowered
// statement, and the values against the reference evaluator (or plain C++) with the condition
// true and false, including the output's contents left alone where nothing is stored.
#include "TestUtil.h"
#include "compat/CompatUtil.h"

using namespace halo;
using halo_compat::has_if_inside_loop;
using halo_test::contains;

namespace {

// An output buffer of w x h filled with a value that no pipeline here computes.
Buffer<int> sentinel_output(int w, int h, int min_x = 0, int min_y = 0) {
    Buffer<int> out = halo_test::int_buffer_at(w, h, min_x, min_y);
    out.for_each_value([](const std::vector<int> &) { return -777; });
    return out;
}

int count_not(const Buffer<int> &b, int value) {
    int n = 0;
    b.for_each_element([&](const std::vector<int> &c) { n += b(c) != value; });
    return n;
}

}  // namespace

TEST_CASE("an undef() select on a bool Param leaves no if inside the loops, and stores nothing when false") {
    Func f("f"), g("g");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Param<bool> p("p");
    f(x, y) = select(p, x * 3 + y, undef<int>());
    g(x, y) = select(p, f(x - 1, y) + f(x + 1, y), undef<int>());
    f.compute_at(g, xo).vectorize(x, 4);
    g.split(x, xo, xi, 8, TailStrategy::GuardWithIf).parallel(y);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(stmt, "if (p)"));
    CHECK_FALSE(has_if_inside_loop(stmt));
    for (bool value : {true, false}) {
        CAPTURE(value);
        p.set(value);
        Buffer<int> out = sentinel_output(21, 9, -5, 3);
        g.realize(out);
        if (value) {
            CHECK(halo_compat::mismatches<int>(out, [](const std::vector<int> &c) { return 6 * c[0] + 2 * c[1]; }) == 0);
        } else {
            CHECK(count_not(out, -777) == 0);
        }
    }
}

TEST_CASE("an RDom::where on a Param alone is tested once, outside the reduction's loops") {
    Func h("h");
    Var x("x");
    Param<int> threshold("threshold");
    RDom r(0, 10, 0, 7, "r");
    r.where(threshold > 2);
    h(x) = x;
    h(x) += r.x * r.y + x;
    h.update().parallel(x);
    std::string stmt = h.lowered_stmt();
    CHECK(contains(stmt, "if ("));
    CHECK_FALSE(has_if_inside_loop(stmt));
    for (int t : {0, 3}) {
        CAPTURE(t);
        threshold.set(t);
        Buffer<int> out = h.realize({13});
        CHECK(halo_compat::mismatches<int>(out, [&](const std::vector<int> &c) { return c[0] + (t > 2 ? 21 * 45 + 70 * c[0] : 0); }) == 0);
    }
}

TEST_CASE("an if stays in a loop that also stores what it does not guard, and leaves only the loops it is invariant in") {
    Var x("x"), y("y");
    {
        // f is computed per point of g over its whole region: its store is not under the if.
        Func f("f"), g("g");
        f(x, y) = x * 5 - y;
        g(x, y) = select(y > 2, f(x, y) + f(x + 1, y), undef<int>());
        g(x, y) = g(x, y) + 1;  // an update, in loops of its own, that stores everywhere
        f.compute_at(g, x);
        std::string stmt = g.lowered_stmt();
        size_t x_loop = stmt.find("for (g.s0.x");
        REQUIRE(x_loop != std::string::npos);
        CHECK(stmt.find("if (", x_loop) < stmt.find("for (g.s1.y"));  // the if is still in the x loop
        Buffer<int> out = sentinel_output(7, 6);
        g.realize(out);
        CHECK(halo_compat::mismatches<int>(out, [](const std::vector<int> &c) {
                  return c[1] > 2 ? 10 * c[0] + 5 - 2 * c[1] + 1 : -776;
              }) == 0);
    }
    {
        // The condition uses y: it leaves the x loop, not the y loop.
        Func k("k");
        k(x, y) = select(y > 2, x - y, undef<int>());
        std::string stmt = k.lowered_stmt();
        size_t y_loop = stmt.find("for (k.s0.y"), guard = stmt.find("if (", y_loop), x_loop = stmt.find("for (k.s0.x");
        REQUIRE(y_loop != std::string::npos);
        REQUIRE(x_loop != std::string::npos);
        CHECK(guard < x_loop);
        CHECK(stmt.find("if (", x_loop) == std::string::npos);
        Buffer<int> out = sentinel_output(6, 6);
        k.realize(out);
        CHECK(halo_compat::mismatches<int>(out, [](const std::vector<int> &c) { return c[1] > 2 ? c[0] - c[1] : -777; }) == 0);
    }
}

TEST_CASE("an if on a condition that reads memory stays inside the loop") {
    ImageParam in(Int(32), 1, "in");
    Func g("g");
    Var x("x"), y("y");
    // in(0) is read from memory (Halo does not prove that nothing in the loop writes it).
    g(x, y) = select(in(0) > 0, x + y, undef<int>());
    Buffer<int> input(4);
    for (int v : {5, -5}) {
        CAPTURE(v);
        input.for_each_value([&](const std::vector<int> &) { return v; });
        in.set(input);
        CHECK(has_if_inside_loop(g.lowered_stmt()));
        Buffer<int> out = sentinel_output(6, 4);
        g.realize(out);
        CHECK(halo_compat::mismatches<int>(out, [&](const std::vector<int> &c) { return v > 0 ? c[0] + c[1] : -777; }) == 0);
    }
}

TEST_CASE("a lifted if inside a specialization and a tiled, sliding schedule computes what the reference does") {
    ImageParam in(Int(32), 2, "in");
    Func a("a"), b("b"), out("out");
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Param<bool> on("on");
    Param<int> w("w");
    a(x, y) = in(x, y) * 2 + 1;
    b(x, y) = select(on, a(x, y - 1) + a(x, y + 1), undef<int>());
    out(x, y) = select(on, b(x - 1, y) - b(x + 1, y) + w, undef<int>());
    out.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
    out.specialize(w > 3).vectorize(xi, 4);
    b.store_at(out, yo).compute_at(out, yi);
    a.compute_at(out, xo);
    Buffer<int> input = halo_test::int_buffer_at(30, 24, -3, -4);
    halo_test::fill_random(input, -50, 50, 7);
    in.set(input);
    for (bool value : {true, false}) {
        for (int wv : {1, 5}) {
            CAPTURE(value);
            CAPTURE(wv);
            on.set(value);
            w.set(wv);
            Buffer<int> got = sentinel_output(25, 17, -1, -2);
            out.realize(got);
            auto A = [&](int xx, int yy) { return input(xx, yy) * 2 + 1; };
            auto B = [&](int xx, int yy) { return A(xx, yy - 1) + A(xx, yy + 1); };
            CHECK(halo_compat::mismatches<int>(got, [&](const std::vector<int> &c) {
                      return value ? B(c[0] - 1, c[1]) - B(c[0] + 1, c[1]) + wv : -777;
                  }) == 0);
        }
    }
}
