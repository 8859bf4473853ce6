// Loop names after vectorize, unroll and parallel with a factor follow Halide: the outer loop
// keeps the Var's name (so compute_at, reorder and further directives can name it), and the
// inner loop gets a new one.
#include "TestUtil.h"

using namespace halo;
using halo_test::check_against_reference;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("after vectorize(x, n), compute_at(f, x) names the loop over vectors") {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    f.vectorize(x, 8);
    g.compute_at(f, x);
    Buffer<int> out(21, 5);  // not a multiple of 8
    out.set_min(-3, 2);
    check_against_reference(f, out);
    std::string stmt = f.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "for (f.s0.x, "));  // the loop over vectors (x_vi became vector lanes)
    CHECK(!contains(stmt, "x_vo"));
}

TEST_CASE("after unroll(x, n) and parallel(y, n), the outer loops keep the names x and y") {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x - 3 * y;
    f(x, y) = g(x, y) * g(x, y - 1);
    f.unroll(x, 2).parallel(y, 3);
    g.compute_at(f, y);  // once per parallel task of 3 rows
    check_against_reference(f, Buffer<int>(9, 10));
    std::string stmt = f.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "parallel (f.s0.y, ") != contains(stmt, "for (f.s0.y, "));
    CHECK(contains(stmt, "f.s0.y_pi"));
    CHECK(contains(stmt, "for (f.s0.x, "));
}

TEST_CASE("the same Var vectorized and unrolled twice gets fresh inner names") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * y + 1;
    // x -> (x, x_vi), then the outer x -> (x, x_ui), then again -> (x, x_ui2).
    f.vectorize(x, 4).unroll(x, 2).unroll(x, 2);
    check_against_reference(f, Buffer<int>(37, 3));
    std::string msg = compile_error_of([&] { f.parallel(Var("none")); });
    INFO(msg);
    CHECK(contains(msg, "Its loops, outermost first, are: y, x, x_ui2, x_ui, x_vi"));
}

TEST_CASE("reorder names the outer loop of a vectorize by the Var") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + 10 * y;
    f.vectorize(x, 4).reorder(Var("x_vi"), y, x);  // innermost first: vectors, then rows, then x
    check_against_reference(f, Buffer<int>(13, 6));
}

TEST_CASE("the old outer name of vectorize is not a loop, and the message lists the loops") {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x;
    f(x, y) = g(x, y);
    f.vectorize(x, 8);
    std::string msg = compile_error_of([&] { f.parallel(Var("x_vo")); });
    INFO(msg);
    CHECK(contains(msg, "there is no loop 'x_vo'"));
    CHECK(contains(msg, "y, x, x_vi"));
}

TEST_CASE("tile with six arguments keeps x and y for the outer loops") {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func g("g"), f("f");
    g(x, y) = x * 5 - y;
    f(x, y) = g(x, y) + g(x, y + 1);
    f.tile(x, y, xi, yi, 4, 3, TailStrategy::GuardWithIf);
    g.compute_at(f, x);  // per tile
    Buffer<int> out(10, 7);
    out.set_min(-1, 2);
    check_against_reference(f, out);
    std::string msg = compile_error_of([&] { f.parallel(Var("none")); });
    CHECK(contains(msg, "Its loops, outermost first, are: y, x, yi, xi"));
}

TEST_CASE("tile over N dimensions, with and without new outer names") {
    Var x("x"), y("y"), c("c"), xo("xo"), yo("yo"), co("co"), xi("xi"), yi("yi"), ci("ci");
    Func f("f"), g("g");
    f(x, y, c) = x + 10 * y + 100 * c;
    g(x, y, c) = f(x, y, c) * 2;
    f.tile({x, y, c}, {xo, yo, co}, {xi, yi, ci}, {2, 3, 2}, TailStrategy::GuardWithIf);
    g.tile({x, y}, {xi, yi}, {4, 4}, TailStrategy::GuardWithIf);
    f.compute_at(g, x);
    check_against_reference(g, Buffer<int>(9, 7, 3));
    std::string msg = compile_error_of([&] { f.parallel(Var("none")); });
    CHECK(contains(msg, "co, yo, xo, ci, yi, xi"));
    std::string bad = compile_error_of([&] { g.tile({x, y}, {xi}, {4, 4}); });
    CHECK(contains(bad, "needs one outer, one inner and one factor per Var; got 2 Vars, 2 outers, 1 inners"));
}
