// ShiftInwards splits whose outer loop runs in parallel: the last iteration, shifted back,
// computes the points it shares with the one before it but does not store them (two threads
// storing them would race). Every schedule still computes what the algorithm says, including
// Funcs computed inside the shifted tiles, sliding windows in parallel strips and vectors
// stored under a mask; checked against the reference evaluator at sizes the tiles do not
// divide and at non-zero and negative mins. (ThreadSanitizer checks the race itself:
// test_concurrency.)
#include <doctest/doctest.h>

#include "Halo.h"
#include "TestUtil.h"

using namespace halo;
using namespace halo_test;

namespace {

// A two-stage stencil over a random input, with the schedule applied by `schedule`.
struct Stencil {
    Var x{"x"}, y{"y"}, c{"c"};
    Buffer<int> input = random_image<int>({90, 70}, 7, -1000, 1000);
    Func clamped{"clamped"}, blur_x{"blur_x"}, out{"out"};
    Stencil() {
        input.set_min(-20, -10);
        clamped = BoundaryConditions::repeat_edge(input);
        blur_x(x, y) = clamped(x - 1, y) + clamped(x, y) * 2 + clamped(x + 1, y);
        out(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1) * 3;
    }
    void check(int w, int h, int xmin, int ymin) {
        Buffer<int> dst(w, h);
        dst.set_min(xmin, ymin);
        check_against_reference(out, dst);
    }
};

bool has_store_guard(Func f) { return contains(f.lowered_stmt(), "store_guard("); }

}  // namespace

TEST_CASE("parallel ShiftInwards strips store each point once and compute the algorithm") {
    Stencil s;
    Var yo("yo"), yi("yi");
    s.blur_x.compute_at(s.out, yi);
    s.out.split(s.y, yo, yi, 8, TailStrategy::ShiftInwards).parallel(yo).vectorize(s.x, 8);
    CHECK(has_store_guard(s.out));
    // The guard compares the strip and the row only: it is tested once per row, outside the
    // row's loops (hoist_store_guards), not once per vector. (Without the streaming version of
    // the row's loop, which would come between them.)
    std::string stmt;
    {
        halo_test::ScopedEnv no_streaming("HALO_NONTEMPORAL_MIN_BYTES", "off");
        stmt = s.out.lowered_stmt();
    }
    size_t guard = stmt.find("if (store_guard(");
    REQUIRE(guard != std::string::npos);
    size_t next_line = stmt.find('\n', guard);
    REQUIRE(next_line != std::string::npos);
    CHECK(stmt.compare(stmt.find_first_not_of(' ', next_line + 1), 5, "for (") == 0);
    s.check(37, 29, -5, -3);  // 29 rows: the last strip shifts back 3 rows
    s.check(64, 8, 0, 0);     // one strip
    s.check(20, 41, -30, -12);
}

TEST_CASE("a serial ShiftInwards split keeps storing the points it shares") {
    // No other thread could race with it: nothing changes.
    Stencil s;
    Var yo("yo"), yi("yi");
    s.out.split(s.y, yo, yi, 8, TailStrategy::ShiftInwards).vectorize(s.x, 8);
    CHECK_FALSE(has_store_guard(s.out));
    s.check(37, 29, -5, -3);
}

TEST_CASE("a sliding window in parallel ShiftInwards strips computes every row the output stores") {
    // blur_x slides down each strip; the strip shifted back starts its window at its first
    // row although it stores only from the row the strip before it ended at.
    Stencil s;
    Var yo("yo"), yi("yi");
    s.blur_x.store_at(s.out, yo).compute_at(s.out, yi).vectorize(s.x, 8);
    s.out.split(s.y, yo, yi, 16).parallel(yo).vectorize(s.x, 8);
    CHECK(has_store_guard(s.out));
    s.check(45, 53, -7, 2);
    s.check(45, 17, 0, -9);
}

TEST_CASE("fused parallel tiles with vectors store the lanes they share under a mask") {
    Stencil s;
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
    s.blur_x.compute_at(s.out, t).vectorize(s.x, 8);
    s.out.tile(s.x, s.y, xo, yo, xi, yi, 32, 8).fuse(xo, yo, t).parallel(t).vectorize(xi, 8);
    CHECK(has_store_guard(s.out));
    s.check(77, 30, -13, -4);  // neither 77 nor 30 divides: shifted tiles in both dimensions
    s.check(32, 8, 0, 0);
    s.check(40, 9, 5, 5);
}

TEST_CASE("a ShiftInwards producer at the root with a parallel loop made by splitting its outer loop") {
    Stencil s;
    Var yo("yo"), yi("yi"), yoo("yoo"), yoi("yoi");
    s.blur_x.compute_root()
        .split(s.y, yo, yi, 3)
        .split(yo, yoo, yoi, 2, TailStrategy::GuardWithIf)
        .parallel(yoo)
        .vectorize(s.x, 4);
    CHECK(has_store_guard(s.blur_x));
    s.check(23, 31, -8, -6);
    s.check(23, 2, 0, 0);  // blur_x gets 4 rows: shorter than a yoo iteration
}

TEST_CASE("a Tuple-valued Func in parallel ShiftInwards tiles stores both components once") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = Tuple(x * 3 + y, cast<float>(x - y) * 0.5f);
    f.tile(x, y, xo, yo, xi, yi, 16, 4).parallel(yo).vectorize(xi, 4);
    CHECK(has_store_guard(f));
    Buffer<int> a(35, 11);
    Buffer<float> b(35, 11);
    a.set_min(-4, -9);
    b.set_min(-4, -9);
    f.realize(Realization(a, b));
    int wrong = 0;
    for (int yy = -9; yy < 2; yy++) {
        for (int xx = -4; xx < 31; xx++) wrong += a(xx, yy) != xx * 3 + yy || b(xx, yy) != float(xx - yy) * 0.5f;
    }
    CHECK(wrong == 0);
}
