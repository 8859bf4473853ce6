// The values a split or fuse gives the old variables when a later split moves the new loops
// outside their ranges: a ShiftInwards split of a loop shorter than its factor starts before
// it, RoundUp ends after it. Bounds inference must see those values (the buffers are sized
// from them, and an output's run-time check compares them with the buffer); a promise of the
// loops' own ranges once sized buffers too small and wrote outside them.
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

TEST_CASE("fuse(x, y, t).vectorize(t, 8) over fewer points than 8 computes inside its buffer") {
    Var x("x"), y("y"), t("t"), to("to"), ti("ti");
    Buffer<int> in = halo_test::int_buffer_at(80, 80, -30, -30);
    halo_test::fill_random(in, -9, 9, 3);
    for (int variant = 0; variant < 3; variant++) {
        for (int w = 1; w < 10; w++) {
            Func f("f"), g("g");
            f(x, y) = in(x, y) + in(x + 1, y) * 2;
            g(x, y) = f(x, y) + f(x + 1, y + 1);
            if (variant == 0) f.compute_at(g, y).fuse(x, y, t).vectorize(t, 8);
            if (variant == 1) f.compute_root().fuse(x, y, t).vectorize(t, 8);
            if (variant == 2) f.compute_at(g, y).fuse(x, y, t).split(t, to, ti, 8, TailStrategy::RoundUp);
            INFO("variant " << variant << ", width " << w << "\n" << g.lowered_stmt());
            halo_test::check_against_reference(g, halo_test::int_buffer_at(w, 5, -2, 3));
        }
    }
}

TEST_CASE("a split by a Param whose outer loop is split again with ShiftInwards computes inside its buffer") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), xoo("xoo"), xoi("xoi");
    Buffer<int> in = halo_test::int_buffer_at(120, 20, -40, 0);
    halo_test::fill_random(in, -9, 9, 3);
    for (int w = 1; w < 40; w += 3) {
        Param<int> factor("factor");
        factor.set(8);
        Func f("f"), g("g");
        f(x, y) = in(x + 20, y) + in(x + 21, y) * 2;
        g(x, y) = f(x, y) + f(x + 1, y);
        f.compute_at(g, y).split(x, xo, xi, factor).split(xo, xoo, xoi, 4);  // xo below 0 if short
        INFO("width " << w << "\n" << g.lowered_stmt());
        halo_test::check_against_reference(g, Buffer<int>(w, 3));
    }
}

TEST_CASE("an output fused and vectorized over fewer points than the factor is the run-time error") {
    Var x("x"), y("y"), t("t");
    Func g("g");
    g(x, y) = x * 3 + y;
    g.fuse(x, y, t).vectorize(t, 8);
    std::string err = halo_test::runtime_error_of([&] { g.realize({3, 2}); });
    INFO(err);
    CHECK(contains(err, "output 'g' would be computed at y in [-1, 1], but the buffer covers [0, 1]"));
    CHECK(contains(err, "needs the output to be at least as large as the split factor"));
    Buffer<int> big = g.realize({4, 2});  // 8 points: fine
    CHECK(big(3, 1) == 10);
}

TEST_CASE("bound() on an internal Func: its buffer also holds the points its loops write past the bound") {
    // bound() fixes the loops; RoundUp, a ShiftInwards split longer than the bound, or an
    // update over a wider RDom write outside it. The buffer was once just the bound.
    for (int variant = 0; variant < 3; variant++) {
        Var x("x"), xo("xo"), xi("xi");
        Func f("f"), g("g");
        f(x) = x * 2;
        RDom r(0, 20);
        if (variant == 2) f(r) = f(r) + 1;
        g(x) = f(x) + 1;
        if (variant == 0) f.compute_root().bound(x, 0, 10).split(x, xo, xi, 4, TailStrategy::RoundUp);
        if (variant == 1) f.compute_root().bound(x, 0, 3).vectorize(x, 8);
        if (variant == 2) f.compute_root().bound(x, 0, 10);
        INFO("variant " << variant << "\n" << g.lowered_stmt());
        halo_test::check_against_reference(g, Buffer<int>(variant == 1 ? 3 : 10));
        // The buffer: x in [0, 11], [-5, 2] and [0, 19] (without the fix: the bound alone).
        RedundancyReport report = redundancy_report(g, {variant == 1 ? 3 : 10});
        const RedundancyRow *row = report.find("f");
        REQUIRE(row != nullptr);
        CHECK(row->buffer_bytes == int64_t(sizeof(int)) * (variant == 0 ? 12 : variant == 1 ? 8 : 20));
    }
}
