// Sliding windows of a Func whose own split along the window rounds up (TailStrategy::RoundUp),
// as Halide's camera_pipe schedules `curved`. Such a split computes whole tiles: from the slid
// start it would run past the rows its producers and its buffer were sized for, so its loops
// start on the grid of the tiles the first iteration computes, and the region must move by
// whole tiles. Every schedule is checked against the reference evaluator at several sizes and
// mins (heights the output's own RoundUp split divides).
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;
using halo_test::row_of;

namespace {

// b, split by `factor` with RoundUp, between a and out; out in strips of `strip` rows (RoundUp,
// so that the rows of b the strips need move by `strip` rows: no clamp at the end). b reads a
// over [y - ra, y + ra], out reads b over [y - rb, y + rb_hi].
struct RoundUpChain {
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"}, t{"t"};
    Func a{"a"}, b{"b"}, out{"out"};
    RoundUpChain(int factor, int strip, int ra, int rb, int rb_hi) {
        a(x, y) = x * 5 + y * 3;
        b(x, y) = a(x, y - ra) * 2 + a(x, y + ra);
        out(x, y) = b(x, y - rb) + b(x, y + rb_hi) * 3;
        out.split(y, yo, yi, strip, TailStrategy::RoundUp);
        a.store_root().compute_at(out, yo);
        b.store_root().compute_at(out, yo).split(y, y, t, factor, TailStrategy::RoundUp);
    }
};

}  // namespace

TEST_CASE("RoundUp sliding: a split by 2 slides down pairs of rows and warms up, folds of 4 hold") {
    RoundUpChain p(2, 2, 1, 1, 1);
    p.a.fold_storage(p.y, 4);
    p.b.fold_storage(p.y, 4);
    std::string stmt = p.out.lowered_stmt();
    CHECK(contains(stmt, "// b: sliding window over out.s0.yo in dimension y"));
    CHECK(contains(stmt, "// out.s0.yo: starts 2 iterations early to warm up the sliding windows of a, b"));
    for (auto [w, h, xmin, ymin] : {std::array<int, 4>{6, 2, 0, 0}, {5, 20, -3, -51}, {4, 8, 2, 9}, {3, 30, 100, -7}}) {
        CAPTURE(h);
        CAPTURE(ymin);
        halo_test::check_against_reference(p.out, halo_test::int_buffer_at(w, h, xmin, ymin));
    }
}

TEST_CASE("RoundUp sliding: every row is computed once") {
    // out's 20 rows need b over [-1, 20] (22 rows, whole pairs) and a over [-2, 21].
    RoundUpChain p(2, 2, 1, 1, 1);
    RedundancyReport r = redundancy_report(p.out, {10, 20});
    CHECK(row_of(r, "b").computed == 10 * 22);
    CHECK(row_of(r, "a").computed == 10 * 24);
}

TEST_CASE("RoundUp sliding: the rows a tile computes past the needed ones count in the fold") {
    // out reads b over [y - 1, y]: 3 rows of b per strip of 2, but b computes whole pairs from
    // the grid of the first strip's, so 4 rows of it are in the buffer at once.
    RoundUpChain p(2, 2, 1, 1, 0);
    p.b.fold_storage(p.y, 3);
    std::string msg = halo_test::runtime_error_of([&] { p.out.realize({8, 12}); });
    CHECK(contains(msg, "Func 'b' is stored folded modulo 3 in y (fold_storage), but 4 of it are needed at once: fold by at least 4"));
    RoundUpChain q(2, 2, 1, 1, 0);
    q.b.fold_storage(q.y, 4);
    for (int ymin : {0, -5, 7}) {
        CAPTURE(ymin);
        halo_test::check_against_reference(q.out, halo_test::int_buffer_at(8, 12, 1, ymin));
    }
}

TEST_CASE("RoundUp sliding: factors, strips and stencils of several sizes match the reference") {
    // The strip a multiple of the factor (the region moves by whole tiles), with windows that
    // are, and are not, whole tiles; with and without a fold of b by a power of two that holds
    // what a strip needs at once (computed here as the window rounded to the factor, plus the
    // strip: a generous bound, the automatic fold is the tight one).
    for (int factor : {2, 3, 4}) {
        for (int strips : {1, 2}) {
            for (int ra : {0, 1, 2}) {
                for (auto [rb, rb_hi] : {std::pair{0, 0}, {1, 1}, {2, 0}, {0, 3}}) {
                    const int strip = factor * strips;
                    CAPTURE(factor);
                    CAPTURE(strip);
                    CAPTURE(ra);
                    CAPTURE(rb);
                    CAPTURE(rb_hi);
                    RoundUpChain p(factor, strip, ra, rb, rb_hi);
                    CHECK(contains(p.out.lowered_stmt(), "// b: sliding window over out.s0.yo in dimension y"));
                    for (int ymin : {0, -13}) {
                        halo_test::check_against_reference(p.out, halo_test::int_buffer_at(3, strip * 3, 2, ymin));
                    }
                    int window = strip + rb + rb_hi;
                    int fold = 1;
                    while (fold < window + 2 * factor) fold *= 2;
                    p.b.fold_storage(p.y, fold);
                    halo_test::check_against_reference(p.out, halo_test::int_buffer_at(3, strip * 4, -1, 5));
                }
            }
        }
    }
}

TEST_CASE("RoundUp sliding: under a sliding reader, whose reads start off the grid") {
    // c slides too and reads b from its own new rows on: in the warm-up, the first rows of b
    // needed lie off the grid of b's tiles, and b starts on the grid below them.
    for (int factor : {2, 3, 4}) {
        for (auto [lo, hi] : {std::pair{1, 2}, {2, 0}, {0, 1}, {3, 3}}) {
            CAPTURE(factor);
            CAPTURE(lo);
            CAPTURE(hi);
            Var x("x"), y("y"), yo("yo"), yi("yi"), t("t");
            Func a("a"), b("b"), c("c"), out("out");
            a(x, y) = x * 3 - y;
            b(x, y) = a(x, y - 1) + a(x, y + 1) * 2;
            c(x, y) = b(x, y - lo) * 5 + b(x, y + hi);
            out(x, y) = c(x, y - 1) + c(x, y + 1);
            out.split(y, yo, yi, factor, TailStrategy::RoundUp);
            for (Func f : {a, b, c}) f.store_root().compute_at(out, yo);
            b.split(y, y, t, factor, TailStrategy::RoundUp);
            std::string stmt = out.lowered_stmt();
            CHECK(contains(stmt, "// b: sliding window over out.s0.yo in dimension y"));
            CHECK(contains(stmt, "early to warm up the sliding windows of a, b, c"));
            for (int ymin : {0, -7, 11}) {
                halo_test::check_against_reference(out, halo_test::int_buffer_at(4, factor * 5, 1, ymin));
            }
        }
    }
}

TEST_CASE("RoundUp sliding: without a warm-up, the first iteration starts on its own grid") {
    // b reads c, computed in the loop and not sliding: the loop does not warm up, b slides.
    Var x("x"), y("y"), yo("yo"), yi("yi"), t("t");
    Func c("c"), b("b"), out("out");
    c(x, y) = x - y * 7;
    b(x, y) = c(x, y) + c(x, y + 1);
    out(x, y) = b(x, y - 1) + b(x, y + 2);
    out.split(y, yo, yi, 4, TailStrategy::RoundUp);
    c.compute_at(out, yo);
    b.store_root().compute_at(out, yo).split(y, y, t, 2, TailStrategy::RoundUp);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// b: sliding window over out.s0.yo in dimension y"));
    CHECK(contains(stmt, "// out.s0.yo: no warm-up before the loop"));
    for (int ymin : {0, -9, 3}) {
        CAPTURE(ymin);
        halo_test::check_against_reference(out, halo_test::int_buffer_at(5, 16, -2, ymin));
    }
    RedundancyReport r = redundancy_report(out, {5, 16});
    CHECK(row_of(r, "b").computed == 5 * 20);  // rows [-1, 18], each once
}

TEST_CASE("RoundUp sliding: not where the region does not move by whole tiles, nor with two splits") {
    Var x("x"), y("y"), yo("yo"), yi("yi"), t("t"), tt("tt");
    Buffer<int> in = halo_test::random_image<int>({40, 40}, 46, -9, 9);
    {
        // Strips of 3 rows, tiles of 2: a start on the grid would recompute rows the strip
        // before computed, so it does not slide.
        Func f("f"), g("g");
        f(x, y) = in(x, y) * 2;
        g(x, y) = f(x, y) + f(x, y + 1);
        g.split(y, yo, yi, 3, TailStrategy::RoundUp);
        f.store_root().compute_at(g, yo).split(y, y, t, 2, TailStrategy::RoundUp);
        CHECK(contains(g.lowered_stmt(), "// f: no sliding window over g.s0.yo (a split of it rounds up by 2, and its region "
                                         "does not move by a multiple of 2 rows per iteration)"));
        halo_test::check_against_reference(g, Buffer<int>(30, 30));
    }
    {
        // Clamped at the end (the consumer's split shifts its last strip inwards): the region
        // of the last strip is off the grid.
        Func f("f"), g("g");
        f(x, y) = in(x, y) * 2;
        g(x, y) = f(x, y) + f(x, y + 1);
        g.split(y, yo, yi, 2);
        f.store_root().compute_at(g, yo).split(y, y, t, 2, TailStrategy::RoundUp);
        CHECK(contains(g.lowered_stmt(), "(a split of it rounds up by 2, and its region does not move by a multiple of 2"));
        halo_test::check_against_reference(g, Buffer<int>(30, 29));
    }
    {
        // The tile split again: not one split of the dimension.
        Func f("f"), g("g");
        f(x, y) = in(x, y) * 2;
        g(x, y) = f(x, y) + f(x, y + 1);
        g.split(y, yo, yi, 4, TailStrategy::RoundUp);
        f.store_root().compute_at(g, yo).split(y, y, t, 4, TailStrategy::RoundUp).split(t, t, tt, 2, TailStrategy::RoundUp);
        CHECK(contains(g.lowered_stmt(), "// f: no sliding window over g.s0.yo (a split of it rounds up)"));
        halo_test::check_against_reference(g, Buffer<int>(30, 28));
    }
}
