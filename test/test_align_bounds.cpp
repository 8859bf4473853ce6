// align_bounds, align_extent and bound_extent (Halide's Func directives): the region computed of
// a Func is grown outwards to an aligned min and extent, or its extent rounded up, or fixed;
// the values never change, only how much is computed (the redundancy report counts it).
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

namespace {

// g(x) reads f at x + 1 on even x and x - 1 on odd x; h reads g at x - p and x + p.
struct EvenOddPipeline {
    Var x{"x"};
    Func f{"f"}, g{"g"}, h{"h"};
    Param<int> p{"p"};
    EvenOddPipeline() {
        f(x) = x * 3 + 1;
        g(x) = select(x % 2 == 0, f(x + 1), f(x - 1) + 8);
        h(x) = g(x - p) + g(x + p);
        f.compute_root();
    }
    int64_t computed_of_g(int n) {
        RedundancyReport r = redundancy_report(h, {n});
        const RedundancyRow *row = r.find("g");
        REQUIRE(row);
        return row->computed;
    }
};

}  // namespace

TEST_CASE("align_bounds(x, 2) computes an even min and extent") {
    EvenOddPipeline a;
    a.g.compute_root().align_bounds(a.x, 2).unroll(a.x, 2);
    for (int p : {3, 4, 5}) {
        a.p.set(p);
        Buffer<int> out(10);
        out.set_min(-7);
        halo_test::check_against_reference(a.h, out);
    }
    // The report realizes h over [0, 10), which needs g over [-p, 9 + p]: rounded outwards to
    // an even min and extent, [-4, 13] for p = 3 and 4, and [-6, 15] for p = 5 (Halide's figures).
    for (auto [p, extent] : {std::pair{3, 18}, {4, 18}, {5, 22}}) {
        a.p.set(p);
        CHECK(a.computed_of_g(10) == extent);
    }
}

TEST_CASE("align_bounds(x, 4, 3) puts the min at 3 modulo 4, also below zero") {
    EvenOddPipeline a;
    a.g.compute_root().align_bounds(a.x, 4, 3);
    a.p.set(2);
    Buffer<int> out(13);
    out.set_min(-20);
    halo_test::check_against_reference(a.h, out);
    // Over [0, 13) h needs g over [-2, 14]: min -5 (3 modulo 4), extent 20 (to 14).
    CHECK(a.computed_of_g(13) == 20);
    // A remainder beyond the modulus is reduced (7 mod 4 = 3), as in Halide.
    EvenOddPipeline b;
    b.g.compute_root().align_bounds(b.x, 4, 7);
    b.p.set(2);
    CHECK(b.computed_of_g(13) == 20);
}

TEST_CASE("align_extent(x, 32) keeps the min and rounds the extent up") {
    EvenOddPipeline a;
    a.g.compute_root().align_extent(a.x, 32);
    for (int p : {3, 20}) {
        a.p.set(p);
        halo_test::check_against_reference(a.h, Buffer<int>(10));
        int needed = 10 + 2 * p;  // [-p, 9 + p]
        CHECK(a.computed_of_g(10) == int64_t((needed + 31) / 32 * 32));
    }
}

TEST_CASE("align_bounds of a Func computed per tile, and by a Param modulus") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({60, 50}, 11, -100, 100);
    Func f("f"), g("g");
    Param<int> m("m");
    f(x, y) = in(clamp(x, 0, 59), clamp(y, 0, 49)) * 2;
    g(x, y) = f(x - 1, y) + f(x + 2, y + 1) - f(x, y - 1);
    g.tile(x, y, xo, yo, xi, yi, 8, 5, TailStrategy::GuardWithIf);
    f.compute_at(g, xo).align_bounds(x, m, 1).align_extent(y, 4).vectorize(x, 4);
    for (int mv : {1, 3, 8}) {
        m.set(mv);
        Buffer<int> out(37, 23);
        out.set_min(-3, 4);
        halo_test::check_against_reference(g, out);
    }
    m.set(0);
    std::string err = halo_test::runtime_error_of([&] { g.realize({10, 10}); });
    CHECK(contains(err, "f.align_bounds(x, ...) aligns to a modulus that is 0 at run time"));
}

TEST_CASE("bound_extent fixes the extent and checks the consumers need no more") {
    Var x("x");
    Func f("f"), g("g");
    Param<int> p("p");
    f(x) = x * x - 7;
    g(x) = f(x) + f(x + p);
    f.compute_root().bound_extent(x, 16).vectorize(x, 8);
    p.set(4);
    Buffer<int> out(12);
    out.set_min(-5);
    halo_test::check_against_reference(g, out);
    RedundancyReport r = redundancy_report(g, {12});
    REQUIRE(r.find("f"));
    CHECK(r.find("f")->computed == 16);
    p.set(5);  // needs 17 points of f
    std::string err = halo_test::runtime_error_of([&] { g.realize({12}); });
    CHECK(contains(err, "Func 'f' is bounded to x in [0, 15] by f.bound_extent(x, ...), but its consumers need x in "
                        "[0, 16]"));
}

// Halide merges the directives on one Var: the region is aligned first, then its extent is
// fixed from the aligned min, whatever the order of the calls. Where the consumers need more
// than that region, it is a run-time error; until stop 48 the check compared against the
// unaligned min, so an aligned min below the need passed it and g read past f's buffer.
TEST_CASE("align_bounds with bound_extent: aligned first, then the extent, in either order, and checked") {
    for (bool extent_first : {false, true}) {
        for (int out_min = -7; out_min <= 5; out_min++) {
            for (int out_extent = 1; out_extent <= 6; out_extent++) {
                CAPTURE(extent_first);
                CAPTURE(out_min);
                CAPTURE(out_extent);
                Var x("x");
                Func f("f"), g("g");
                f(x) = x * 3 - 2;
                g(x) = f(x) + 1;
                f.compute_root();
                if (extent_first) f.bound_extent(x, 5);
                f.align_bounds(x, 4, 1);
                if (!extent_first) f.bound_extent(x, 5);
                // The aligned min (1 modulo 4, at most out_min), then 5 points from it.
                int aligned_min = out_min - (((out_min - 1) % 4) + 4) % 4;
                bool covered = out_min + out_extent - 1 <= aligned_min + 4;
                Buffer<int> out(out_extent);
                out.set_min(out_min);
                if (covered) {
                    halo_test::check_against_reference(g, out);
                    RedundancyReport report = redundancy_report(g, {out_extent});
                    REQUIRE(report.find("f"));
                    CHECK(report.find("f")->computed == 5);
                } else {
                    std::string err = halo_test::runtime_error_of([&] { g.realize(out); });
                    CHECK(contains(err, "Func 'f' is bounded to x in [" + std::to_string(aligned_min) + ", " +
                                            std::to_string(aligned_min + 4) +
                                            "] by f.align_bounds(x, ...) and f.bound_extent(x, ...), but its "
                                            "consumers need x in [" + std::to_string(out_min) + ", " +
                                            std::to_string(out_min + out_extent - 1) + "]"));
                }
            }
        }
    }
}

TEST_CASE("align_bounds on an output: an aligned buffer is computed, an unaligned one is a run-time error, realize(sizes) crops") {
    Var x("x");
    Func f("f");
    f(x) = x * 5;
    f.align_bounds(x, 8, 4);
    Buffer<int> aligned(16);
    aligned.set_min(-4);
    halo_test::check_against_reference(f, aligned);
    Buffer<int> unaligned(10);
    std::string err = halo_test::runtime_error_of([&] { f.realize(unaligned); });
    CHECK(contains(err, "f.align_bounds(x, ...) grows its loops to the alignment"));
    // bound_extent on an output: the buffer's extent must be the bound's.
    Func g("g");
    g(x) = x - 1;
    g.bound_extent(x, 8);
    halo_test::check_against_reference(g, Buffer<int>(8));
    Buffer<int> six(6);
    err = halo_test::runtime_error_of([&] { g.realize(six); });
    CHECK(contains(err, "g.bound_extent(x, ...)"));
    // realize(sizes) computes the bound's 8 points and returns the 6 asked for (as Halide).
    Buffer<int> cropped = g.realize({6});
    CHECK(cropped.dim(0).extent() == 6);
    halo_test::check_all<int>(cropped, [](const std::vector<int> &c) { return c[0] - 1; });
}

TEST_CASE("align_bounds and bound_extent are refused with a message when misused") {
    Var x("x"), y("y");
    Func f("f");
    f(x) = x;
    CHECK(contains(halo_test::compile_error_of([&] { f.align_bounds(y, 4); }),
                   "Func 'f': align_bounds(y, ...) names a Var that is not one of its pure arguments"));
    CHECK(contains(halo_test::compile_error_of([&] { f.align_bounds(x, 0); }),
                   "Func 'f': align_bounds(x, 0) needs a positive modulus"));
    CHECK(contains(halo_test::compile_error_of([&] { f.align_extent(x, 2.5f); }),
                   "align_extent(x, 2.5f) needs an integer that fits in int32"));
    CHECK(contains(halo_test::compile_error_of([&] { f.bound_extent(x, x + 1); }),
                   "bound_extent(x, ...) uses 'x', a Var or RVar"));
}
