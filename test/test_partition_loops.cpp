// Loop partitioning of GuardWithIf tails: the steady state drops the guards that hold there,
// and only those. A tile split with GuardWithIf around a vectorized GuardWithIf split of its
// inner loop has two nested guards; the inner loop is partitioned first, and its steady state
// and tail share the IR below their own guards, so one guard node of the outer split sits in
// both, under different ranges of the inner loop. It may only be dropped from the outer steady
// state where every place it is in allows it (it once was dropped from the inner tail too:
// the last column of a 14-wide tile ending past the output wrote into the next row).
//
// Clamps: in an innermost loop (vectorized and unrolled loops do not count), a clamp
// min(A, B) whose A grows with the loop variable and whose B does not, as a ShiftInwards split
// makes (min(xo * 16 + x.min, x.max - 15)), is A in the steady state: the vector loop runs
// without a min, a compare and a sign extension per vector, as Halide's does.
#include "TestUtil.h"

using namespace halo;

TEST_CASE("nested GuardWithIf splits (tile, then vectors of its inner loop) compute every point once, in bounds") {
    Buffer<int> in = halo_test::int_buffer_at(120, 120, -30, -30);
    halo_test::fill_random(in, -20, 20, 48);
    int cases = 0;
    for (int tile_w : {5, 9, 14, 16}) {
        for (int vec : {2, 4, 8}) {
            for (int width : {7, 27, 30}) {
                Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
                Func p("p"), out("out");
                p(x, y) = in(x, y) * 3;
                out(x, y) = p(x, y) + 1;
                out.tile(x, y, xo, yo, xi, yi, tile_w, 3, TailStrategy::GuardWithIf);
                out.vectorize(xi, vec, TailStrategy::GuardWithIf);
                p.compute_at(out, xo);
                Buffer<int> dst = halo_test::int_buffer_at(width, 11, -4, 8);
                INFO("tiles " << tile_w << "x3, vectors of " << vec << ", output " << width << "x11");
                halo_test::check_against_reference(out, dst);
                cases++;
            }
        }
    }
    CHECK(cases == 36);
}

TEST_CASE("the case the differential test found: 14x3 tiles, vectors of 4, 27 columns") {
    Buffer<int> in = halo_test::int_buffer_at(120, 120, -30, -30);
    halo_test::fill_random(in, -20, 20, 48);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func p("p"), out("out");
    p(x, y) = in(x, y) * 3;
    out(x, y) = p(x, y);
    out.tile(x, y, xo, yo, xi, yi, 14, 3, TailStrategy::GuardWithIf);
    out.vectorize(xi, 4, TailStrategy::GuardWithIf);
    p.compute_at(out, xo);
    // An extra column on each side of the output, which the pipeline must not touch
    Buffer<int> wide = halo_test::int_buffer_at(29, 36, -5, 8);
    wide.fill(12345);
    Buffer<int> dst = wide.cropped(0, -4, 27);
    halo_test::check_against_reference(out, dst);
    for (int yy = 8; yy < 44; yy++) {
        INFO("row " << yy);
        CHECK(wide(-5, yy) == 12345);
        CHECK(wide(23, yy) == 12345);
    }
}

TEST_CASE("a guard under a fused loop's inner variable (t % 8) keeps its tail iterations") {
    // fuse(xi, y, t) binds xi = t % 8 under the guard xi <= (width - 1) - xo * 8: linear in t
    // at t = 0, 1, 2 but not past them. Partitioning once took it for linear and dropped
    // the tail of t, leaving most of the output unwritten.
    for (int width : {5, 8, 20, 27}) {
        Var x("x"), y("y"), xo("xo"), xi("xi"), t("t");
        Func f("f");
        f(x, y) = x + 100 * y + 1;
        f.split(x, xo, xi, 8, TailStrategy::GuardWithIf).reorder(xi, y, xo).fuse(xi, y, t);
        INFO("width " << width << "\n" << f.lowered_stmt());
        halo_test::check_against_reference(f, halo_test::int_buffer_at(width, 10, -3, 2));
    }
}

TEST_CASE("a guard under a ShiftInwards split of the guarded split's outer loop keeps its tail iterations") {
    // xo = min(xoo * 4, m) + xoi: linear at xoo = 0, 1, 2, then flat.
    for (int width : {60, 100}) {
        Var x("x"), y("y"), xo("xo"), xi("xi"), xoo("xoo"), xoi("xoi");
        Func f("f"), g("g");
        f(x, y) = x * 7 - y;
        g(x, y) = f(x, y) + 1;
        f.compute_root()
            .bound(x, 0, 100)
            .split(x, xo, xi, 8, TailStrategy::GuardWithIf)
            .split(xo, xoo, xoi, 4)
            .reorder(xoo, xoi, xi, y);
        INFO("width " << width << "\n" << g.lowered_stmt());
        halo_test::check_against_reference(g, halo_test::int_buffer_at(width, 4, 0, -1));
    }
}

TEST_CASE("likely() in an RDom::where predicate is not taken for a GuardWithIf guard") {
    // The second predicate always holds and is simplified away, leaving if (likely(r % 4 <= 1)):
    // partitioned as a guard, the steady state ran r = -6, -5, -2, -1 and the tail was dropped.
    Var x("x");
    Func f("f");
    RDom r(-8, 50);
    r.where(likely(r % 4 <= 1));
    r.where(r < 100);
    f(x) = 0;
    f(x) += r;
    INFO(f.lowered_stmt());
    halo_test::check_against_reference(f, Buffer<int>(4));
    Buffer<int> out = f.realize({1});
    int expected = 0;
    for (int v = -8; v < 42; v++) expected += (((v % 4) + 4) % 4 <= 1) ? v : 0;
    CHECK(out(0) == expected);
}

// Occurrences of "min(" between the first two loops of a lowered statement's text, and after.
static int mins_in(const std::string &text) {
    int n = 0;
    for (size_t at = text.find("min("); at != std::string::npos; at = text.find("min(", at + 1)) n++;
    return n;
}

TEST_CASE("a ShiftInwards vector loop's steady state has no clamp, and the tail keeps it") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 3 + y;
    f.vectorize(x, 8);
    std::string stmt = f.lowered_stmt();
    INFO(stmt);
    size_t steady = stmt.find("for (f.s0.x, 0, f.s0.x.steady_end)");
    size_t tail = stmt.find("for (f.s0.x, f.s0.x.steady_end");
    REQUIRE(steady != std::string::npos);
    REQUIRE(tail != std::string::npos);
    REQUIRE(steady < tail);
    CHECK(mins_in(stmt.substr(steady, tail - steady)) == 0);
    CHECK(mins_in(stmt.substr(tail)) > 0);
}

TEST_CASE("clamps are partitioned only in innermost loops") {
    // The tile loop's clamp min(xo * 16 + x.min, x.max - 15) is evaluated once per tile;
    // partitioning it would copy the whole tile.
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func g("g"), f("f");
    g(x, y) = x - y;
    f(x, y) = g(x, y) + g(x + 1, y);
    f.tile(x, y, xo, yo, xi, yi, 16, 4);
    g.compute_at(f, xo);
    std::string stmt = f.lowered_stmt();
    INFO(stmt);
    CHECK(stmt.find("f.s0.xo.steady_end") == std::string::npos);
    CHECK(stmt.find("f.s0.y.yi") == std::string::npos);
}

TEST_CASE("partitioned clamps compute every point, at sizes the vectors do not divide and at negative coordinates") {
    Buffer<int> in = halo_test::int_buffer_at(140, 40, -60, -20);
    halo_test::fill_random(in, -50, 50, 7);
    int cases = 0;
    for (int vec : {4, 8, 16}) {
        for (int width : {1, 7, 16, 33, 70}) {
            for (int xmin : {-57, 0, 9}) {
                Var x("x"), y("y"), xo("xo"), xi("xi");
                Func clamped("clamped"), g("g"), f("f");
                // A clamp of the algorithm's own (min(x + 2, 30)) beside the schedule's.
                clamped(x, y) = in(min(x + 2, 30), y);
                g(x, y) = clamped(x, y) * 2 + in(x, y);
                f(x, y) = g(x, y) - g(x + 1, y);
                g.compute_at(f, y).vectorize(x, vec);
                f.split(x, xo, xi, vec).vectorize(xi).unroll(xo, 2);
                Buffer<int> dst = halo_test::int_buffer_at(std::max(width, 2 * vec), 5, xmin, -3);
                INFO("vectors of " << vec << ", output " << dst.dim(0).extent() << " from x = " << xmin);
                halo_test::check_against_reference(f, dst);
                cases++;
            }
        }
    }
    CHECK(cases == 45);
}
