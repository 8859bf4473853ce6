// realize(sizes) of an output whose schedule writes outside [0, sizes) (RoundUp, a ShiftInwards
// split wider than the output, an update writing past it) computes into larger buffers and
// returns a crop of them, as Halide's realize does after its bounds query. Realizing into the
// caller's own buffers stays a run-time error naming the output and the region.
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

TEST_CASE("RoundUp tiles: realize(sizes) returns a crop of whole tiles") {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x * 3 + y;
    f.tile(x, y, xi, yi, 16, 8, TailStrategy::RoundUp);
    Buffer<int> buf = f.realize({30, 20});
    CHECK(buf.dim(0).min() == 0);
    CHECK(buf.dim(0).extent() == 30);
    CHECK(buf.dim(1).extent() == 20);
    CHECK(buf.dim(1).stride() == 32);  // a view into 32 x 24
    halo_test::check_all<int>(buf, [](const std::vector<int> &c) { return c[0] * 3 + c[1]; });
    // Into a buffer of the caller's: the error, as before.
    Buffer<int> mine(30, 20);
    std::string err = halo_test::runtime_error_of([&] { f.realize(mine); });
    CHECK(contains(err, "output 'f' would be computed at x in [0, 31], but the buffer covers [0, 29]"));
    CHECK(contains(err, "TailStrategy::RoundUp"));
}

TEST_CASE("an output narrower than its ShiftInwards vectors") {
    // Halide's div_by_zero: 5 points vectorized by 8 compute x = -3 .. 4; x + 1 is 0 at -1
    // (a division by zero, which is 0 in Halo as in Halide, and discarded).
    Var x("x");
    Func f("f");
    f(x) = 256 / (x + 1);
    f.vectorize(x, 8, TailStrategy::ShiftInwards);
    Buffer<int> out = f.realize({5});
    CHECK(out.dim(0).extent() == 5);
    halo_test::check_all<int>(out, [](const std::vector<int> &c) { return 256 / (c[0] + 1); });
}

TEST_CASE("updates that write past the requested region: a histogram and a diagonal") {
    Var x("x"), y("y");
    Func im("im"), hist("hist");
    im(x, y) = x + y;
    RDom r(0, 100, 0, 100);
    hist(x) = 0;
    hist(im(r.x, r.y)) += 1;  // buckets 0 .. 198
    Buffer<int> h = hist.realize({100});
    CHECK(h.dim(0).extent() == 100);
    halo_test::check_all<int>(h, [](const std::vector<int> &c) { return c[0] + 1; });

    Func g("g");
    g(x, y) = 0;
    g(x, x) = 1;  // writes y up to 5 for an output 6 wide
    Buffer<int> d = g.realize({6, 3});
    CHECK(d.dim(1).extent() == 3);
    halo_test::check_all<int>(d, [](const std::vector<int> &c) { return c[0] == c[1] ? 1 : 0; });
}

TEST_CASE("a Tuple-valued output and a pipeline of two outputs are cropped alike") {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func t("t");
    t(x, y) = Tuple(x + y, x * y);
    t.tile(x, y, xi, yi, 8, 8, TailStrategy::RoundUp);
    Realization r = t.realize({13, 5});
    Buffer<int> a = r[0], b = r[1];
    CHECK(a.dim(0).extent() == 13);
    CHECK(b.dim(1).extent() == 5);
    halo_test::check_all<int>(a, [](const std::vector<int> &c) { return c[0] + c[1]; });
    halo_test::check_all<int>(b, [](const std::vector<int> &c) { return c[0] * c[1]; });

    Func p("p"), q("q");
    p(x, y) = x - y;
    q(x, y) = p(x, y) * 2;
    q.vectorize(x, 8, TailStrategy::RoundUp);
    Pipeline both({p, q});
    Realization pq = both.realize({11, 4});
    Buffer<int> pb = pq[0], qb = pq[1];
    CHECK(pb.dim(0).extent() == 11);
    CHECK(qb.dim(0).extent() == 11);
    halo_test::check_all<int>(pb, [](const std::vector<int> &c) { return c[0] - c[1]; });
    halo_test::check_all<int>(qb, [](const std::vector<int> &c) { return (c[0] - c[1]) * 2; });
}

TEST_CASE("a region that cannot be grown is still the run-time error") {
    // An output bound() to less than the requested region: growing cannot help.
    Var x("x");
    Func f("f");
    f(x) = x;
    f.bound(x, 0, 4);
    std::string err = halo_test::runtime_error_of([&] { f.realize({6}); });
    CHECK(contains(err, "f.bound(x, ...)"));
}
