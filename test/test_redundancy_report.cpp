// The redundancy report: recompute factors and buffer sizes of a schedule, before running.
#include "TestUtil.h"
#include "../apps/cnn_block.h"

using namespace halo;

TEST_CASE("breadth-first computes each Func about once") {
    apps::CnnBlock net(8);
    Buffer<float> in(2 * 32 + 4, 2 * 32 + 4, 8);
    net.input.set(in);
    net.schedule_breadth_first(8);
    RedundancyReport r = redundancy_report(net.pool, {32, 32, 8});
    REQUIRE(r.find("conv1"));
    CHECK(r.find("conv1")->required == 66 * 66 * 8);
    CHECK(r.find("conv2")->required == 64 * 64 * 8);
    CHECK(r.find("pool")->computed == 32 * 32 * 8);
    CHECK(r.find("conv1")->factor < 1.1);
    CHECK(r.find("conv1")->allocations == 1);
    CHECK(r.find("conv1")->buffer_bytes >= 66 * 66 * 8 * 4);
}

TEST_CASE("channels outside the tiles: the classic mistake shows a factor near the channel count") {
    const int C = 32;
    Buffer<float> in(2 * 64 + 4, 2 * 64 + 4, C);
    apps::CnnBlock bad(C), good(C);
    bad.input.set(in);
    good.input.set(in);
    Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
    bad.pool.tile(bad.x, bad.y, xo, yo, xi, yi, 32, 32);  // c stays the outermost loop
    for (Func *f : {&bad.conv1, &bad.relu1, &bad.conv2, &bad.relu2}) f->compute_at(bad.pool, xo);
    good.schedule_fused(32, 32, 16);
    RedundancyReport rb = redundancy_report(bad.pool, {64, 64, C});
    RedundancyReport rg = redundancy_report(good.pool, {64, 64, C});
    INFO(rb.to_string() << rg.to_string());
    CHECK(rb.find("conv1")->factor > 25);
    CHECK(rg.find("conv1")->factor < 1.5);
    CHECK(rg.find("conv2")->factor == doctest::Approx(1.0));
    // Per 32x32 pool tile, conv1 holds its 66 x 66 x C halo region.
    CHECK(rg.find("conv1")->buffer_bytes == 66 * 66 * C * 4);
    CHECK(rg.find("conv1")->allocations == 4);
    std::string table = rg.to_string();
    CHECK(table.find("factor") != std::string::npos);
    CHECK(table.find("conv1") != std::string::npos);
}

TEST_CASE("the report counts match what running the pipeline computes") {
    // A producer at the consumer's rows: each row of the output recomputes 3 rows of it.
    Var x("x"), y("y");
    Buffer<int> in(std::vector<int>{20, 20}, "in");
    Func p("p"), out("out");
    p(x, y) = in(x, y) * 2;
    out(x, y) = p(x, y) + p(x, y + 1) + p(x, y + 2);
    p.compute_at(out, y);
    RedundancyReport r = redundancy_report(out, {10, 10});
    CHECK(r.find("p")->computed == 10 * 3 * 10);
    CHECK(r.find("p")->required == 10 * 12);
    CHECK(r.find("p")->factor == doctest::Approx(2.5));
    CHECK(r.find("p")->allocations == 10);
    CHECK(r.find("p")->buffer_bytes == 10 * 3 * 4);
}

TEST_CASE("a report whose loops cannot be counted in closed form stops with a clear error, not after hours") {
    // GuardWithIf puts a condition on every vector: 2^27 of them would each be evaluated.
    Func f("f");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = x * 2;
    f.split(x, xo, xi, 8, TailStrategy::GuardWithIf).vectorize(xi);
    CHECK_THROWS_WITH(redundancy_report(f, {1 << 30}),
                      doctest::Contains("redundancy_report: the loop nest runs more than 4000000 iterations that "
                                        "cannot be counted without running them"));
    CHECK(redundancy_report(f, {1 << 20}).find("f") != nullptr);  // 2^17 vectors: counted
}

TEST_CASE("parallel ShiftInwards strips: a shared row is computed once, shared vector lanes twice") {
    // 7 rows in strips of 4: the second strip is shifted back to rows 3-6, and its store guard
    // (see test_parallel_shift_inwards), the same for the whole of row 3, skips computing it.
    Var x("x"), y("y"), yo("yo"), yi("yi"), xo("xo"), xi("xi");
    Func f("f");
    f(x, y) = x + y;
    f.split(y, yo, yi, 4).parallel(yo);
    RedundancyReport r = redundancy_report(f, {10, 7});
    REQUIRE(r.find("f"));
    CHECK(r.find("f")->computed == 10 * 7);
    CHECK(r.find("f")->required == 10 * 7);
    // 10 columns in parallel vectors of 8: the second is shifted back to columns 2-9 and
    // computes all 8 lanes; the guard, which varies across them, only masks the stores of 2-7.
    Func g("g");
    g(x, y) = x + y;
    g.split(x, xo, xi, 8).parallel(xo).vectorize(xi);
    RedundancyReport rg = redundancy_report(g, {10, 7});
    REQUIRE(rg.find("g"));
    CHECK(rg.find("g")->computed == 16 * 7);
}
