// Loop partitioning of GuardWithIf tails: the steady state drops the guards that hold there,
// and only those. A tile split with GuardWithIf around a vectorized GuardWithIf split of its
// inner loop has two nested guards; the inner loop is partitioned first, and its steady state
// and tail share the IR below their own guards, so one guard node of the outer split sits in
// both, under different ranges of the inner loop. It may only be dropped from the outer steady
// state where every place it is in allows it (it once was dropped from the inner tail too:
// the last column of a 14-wide tile ending past the output wrote into the next row).
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
