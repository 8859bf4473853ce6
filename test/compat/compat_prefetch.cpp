// Stage::prefetch as Halide users write it (Halide's prefetch test and error/bad_prefetch, with
// more): the lowered statement prefetches the region the loop reads `offset` iterations on,
// one cache line at a time, per the bound strategy; what the pipeline computes never changes;
// directives that name loops wrongly are refused with messages that say what to do.
#include <random>
#include <string>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {

int count_of(const std::string &s, const std::string &part) {
    int n = 0;
    for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) n++;
    return n;
}

// How many buffers (Tuple values) a lowered statement prefetches: each gets a prefetch per line
// of a row and one of the row's last element.
int prefetched(const std::string &stmt) { return count_of(stmt, "prefetch(") / 2; }

}  // namespace

TEST_CASE("prefetch of a Func computed at the root, read at one point (Halide's prefetch test1)") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    g(x) = f(0);
    f.compute_root();
    g.prefetch(f, x, 8);
    std::string stmt = g.lowered_stmt();
    CHECK(prefetched(stmt) == 1);
    Buffer<int> out = g.realize({40});
    CHECK(mismatches<int>(out, [](const std::vector<int> &) { return 0; }) == 0);
}

TEST_CASE("prefetch in a specialization only (Halide's prefetch test2)") {
    Param<bool> p;
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    g(x) = f(0);
    f.compute_root();
    g.specialize(p).prefetch(f, x, 8);
    g.specialize_fail("No prefetch");
    std::string stmt = g.lowered_stmt();
    CHECK(prefetched(stmt) == 1);
    p.set(true);
    Buffer<int> out = g.realize({16});
    CHECK(mismatches<int>(out, [](const std::vector<int> &) { return 0; }) == 0);
    p.set(false);
    CHECK(contains(thrown_message([&] { g.realize({16}); }), "No prefetch"));
}

TEST_CASE("prefetch at an outer loop covers the Funcs computed inside it (Halide's prefetch test3)") {
    Func f("f"), g("g"), h("h");
    Var x("x"), xo("xo");
    f(x) = x;
    h(x) = f(x) + 1;
    g(x) = h(0);
    f.compute_root();
    g.split(x, xo, x, 32);
    h.compute_at(g, xo);
    g.prefetch(f, xo, 1);
    CHECK(prefetched(g.lowered_stmt()) == 1);
    Buffer<int> out = g.realize({100});
    CHECK(mismatches<int>(out, [](const std::vector<int> &) { return 1; }) == 0);
}

TEST_CASE("no prefetch where the loop does not read the Func (Halide's prefetch test4)") {
    Func f("f"), g("g"), h("h");
    Var x("x");
    f(x) = x;
    h(x) = f(x) + 1;
    g(x) = h(0);
    f.compute_root();
    h.compute_root();
    g.prefetch(f, x, 1);
    CHECK(prefetched(g.lowered_stmt()) == 0);
    Buffer<int> out = g.realize({10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &) { return 1; }) == 0);
}

TEST_CASE("prefetch of an input a row ahead, with each bound strategy, at sizes the lines do not divide") {
    ImageParam in(Float(32), 2, "in");
    Buffer<float> input(37, 23);
    input.set_min(-3, 5);
    input.for_each_element([&](const std::vector<int> &c) { input(c) = float(c[0] * 3 - c[1]); });
    in.set(input);
    const PrefetchBoundStrategy strategies[] = {PrefetchBoundStrategy::Clamp, PrefetchBoundStrategy::GuardWithIf,
                                                PrefetchBoundStrategy::NonFaulting};
    for (PrefetchBoundStrategy strategy : strategies) {
        CAPTURE(int(strategy));
        Func g("g");
        Var x("x"), y("y");
        g(x, y) = in(x, y) + in(x + 1, y + 1) * 2.0f;
        g.prefetch(in, y, y, 2, strategy);
        std::string stmt = g.lowered_stmt();
        CHECK(prefetched(stmt) == 1);
        // GuardWithIf prefetches only a region inside the buffer; Clamp clamps it.
        if (strategy == PrefetchBoundStrategy::Clamp) CHECK(contains(stmt, "in.min.1"));
        // Rows y + 2 and y + 3: what the iteration two rows on reads.
        else CHECK(contains(stmt, "for (prefetch.in.0.1, (g.s0.y + 2), 2)"));
        Buffer<float> out(std::vector<int>{36, 22});
        out.set_min(std::vector<int>{-3, 5});
        g.realize(out);
        CHECK(mismatches<float>(out, [&](const std::vector<int> &c) {
                  return input(c[0], c[1]) + input(c[0] + 1, c[1] + 1) * 2.0f;
              }) == 0);
    }
}

TEST_CASE("prefetch with `from` outside `at`, a Param offset, a Tuple and a Buffer") {
    Buffer<int16_t> table(50, 40);
    table.for_each_element([&](const std::vector<int> &c) { table(c) = int16_t(c[0] - 7 * c[1]); });
    Func t("t"), g("g");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Param<int> ahead("ahead");
    t(x, y) = Tuple(x + y, x * y);
    g(x, y) = t(x, y)[0] + t(x + 1, y)[1] + cast<int>(table(x, y));
    t.compute_root();
    g.split(x, xo, xi, 8).prefetch(t, xo, y, ahead, PrefetchBoundStrategy::Clamp).prefetch(table, xi, 3);
    std::string stmt = g.lowered_stmt();
    // Both values of the Tuple, and the buffer.
    CHECK(prefetched(stmt) == 3);
    for (int a : {0, 1, 5, -2}) {
        ahead.set(a);
        Buffer<int> out = g.realize({45, 30});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  int x = c[0], y = c[1];
                  return (x + y) + (x + 1) * y + int(table(x, y));
              }) == 0);
    }
}

TEST_CASE("a prefetch of a Func stored inside the loop is dropped") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    f(x, y) = x - y;
    h(x, y) = f(x, y) * 2;
    g(x, y) = h(x, y) + f(x + 1, y);
    f.compute_root();
    h.compute_at(g, y);
    g.vectorize(x, 8).prefetch(h, y, 1);
    h.vectorize(x, 8);
    std::string stmt = g.lowered_stmt();
    CHECK(prefetched(stmt) == 0);
    Buffer<int> out = g.realize({29, 7});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] - c[1]) * 2 + (c[0] + 1 - c[1]); }) == 0);
}

// Seed 8800130 of the differential test: the prefetch's loop had one iteration, which the
// simplifier turned into a let, and its placeholder reached the code generator ("unknown
// intrinsic"). Nothing lies ahead of a loop of one iteration: no prefetch.
TEST_CASE("a prefetch at a loop of one iteration is dropped") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x * 3 - y;
    g(x, y) = f(x, y) + f(x, y + 1);
    f.compute_root();
    g.bound(x, 0, 1).prefetch(f, x, x, 1);
    std::string stmt = g.lowered_stmt();
    CHECK(prefetched(stmt) == 0);
    Buffer<int> out = g.realize({1, 6});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return 2 * (c[0] * 3 - c[1]) - 1; }) == 0);
}

TEST_CASE("prefetch directives that name loops wrongly are refused (Halide's error/bad_prefetch)") {
    Func f("f"), g("g");
    Var x("x"), y("y"), z("z"), xo("xo"), xi("xi");
    f(x, y) = x + y;
    g(x, y) = f(0, 0);
    f.compute_root();
    g.prefetch(f, y, x, 8);
    CHECK(contains(thrown_message([&] { g.lowered_stmt(); }),
                   "Func 'g': prefetch(f, y, x, ...): the loop the offset applies to ('x') is inside the loop the "
                   "prefetch goes in ('y'); it must be that loop or one outside it (its loops, outermost first: y, x)"));
    Func g2("g2");
    g2(x, y) = f(x, y);
    g2.prefetch(f, z, 1);
    CHECK(contains(thrown_message([&] { g2.lowered_stmt(); }),
                   "Func 'g2': prefetch(f, z, z, ...) names 'z', which is not a loop of it (its loops, outermost "
                   "first: y, x)"));
    Func g3("g3");
    g3(x, y) = f(x, y);
    g3.split(x, xo, xi, 8).vectorize(xi).prefetch(f, xi, y);
    CHECK(contains(thrown_message([&] { g3.lowered_stmt(); }),
                   "prefetch(f, xi, y, ...): loop 'xi' is vectorized; put the prefetch in a loop outside it"));
    Func g4("g4");
    g4(x, y) = f(x, y);
    CHECK(contains(thrown_message([&] { g4.prefetch(f, x, x, 1.5f); }),
                   "Func 'g4': prefetch(f, x, x, ...) needs an integer offset (iterations of x ahead), not one of "
                   "type float32"));
}

TEST_CASE("random prefetches on a tiled stencil: the values never change") {
    std::mt19937 rng(2024);
    ImageParam in(UInt(8), 2, "in");
    Buffer<uint8_t> input(70, 50);
    input.set_min(-4, -4);
    input.for_each_element([&](const std::vector<int> &c) { input(c) = uint8_t(c[0] * 5 + c[1] * 3); });
    in.set(input);
    for (int iter = 0; iter < 10; iter++) {
        CAPTURE(iter);
        Func blur_x("blur_x"), out("out");
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        blur_x(x, y) = cast<uint16_t>(in(x - 1, y)) + in(x, y) + in(x + 1, y);
        out(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
        int tx = 1 + int(rng() % 16), ty = 1 + int(rng() % 9);
        out.tile(x, y, xo, yo, xi, yi, tx, ty, TailStrategy::GuardWithIf);
        blur_x.compute_at(out, xo);
        const char *loops[] = {"yo", "xo", "yi"};
        const Var vars[] = {yo, xo, yi};
        int at = int(rng() % 3), from = int(rng() % (at + 1));
        int offset = int(rng() % 5) - 1;
        auto strategy = PrefetchBoundStrategy(rng() % 3);
        CAPTURE(loops[at]);
        CAPTURE(loops[from]);
        out.prefetch(in, vars[at], vars[from], offset, strategy);
        if (rng() % 2) blur_x.prefetch(in, y, y, offset + 1);
        Buffer<uint16_t> result(std::vector<int>{1 + int(rng() % 60), 1 + int(rng() % 40)});
        result.set_min(std::vector<int>{-2, -1});
        out.realize(result);
        CHECK(mismatches<uint16_t>(result, [&](const std::vector<int> &c) {
                  int sum = 0;
                  for (int dy = -1; dy <= 1; dy++)
                      for (int dx = -1; dx <= 1; dx++) sum += input(c[0] + dx, c[1] + dy);
                  return uint16_t(sum);
              }) == 0);
    }
}
