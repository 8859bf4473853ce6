// Halide's loop partitioning policies (Stage::partition, never_partition, always_partition and
// their _all forms) as Halide users write them, with Halide's error/bad_partition_always: the
// lowered statement shows which loops were split into a steady state and a tail, the values
// never change, and Always on a loop with nothing to partition is an error naming the loop.
#include <random>
#include <string>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

TEST_CASE("Always on a loop with nothing to partition is an error (Halide's bad_partition_always)") {
    Func f("f");
    Var x("x");
    f(x) = 0;
    f.partition(x, Partition::Always);
    std::string msg = thrown_message([&] { f.realize({10}); });
    CHECK(contains(msg, "Func 'f': loop f.s0.x has Partition::Always (partition(x, Partition::Always) or "
                        "always_partition), but there was nothing to partition in it or in the loops inside it"));
}

TEST_CASE("a GuardWithIf tail is partitioned by default and with Always, not with Never") {
    Var x("x"), xo("xo"), xi("xi");
    for (int policy = 0; policy < 3; policy++) {
        CAPTURE(policy);
        Func g("g");
        g(x) = x * 3 + 1;
        g.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
        if (policy == 1) g.never_partition(xo, xi);
        if (policy == 2) g.always_partition(xo, xi);
        // (Halo peels the tail off the inner loop: its guard is the inner loop's limit.)
        std::string stmt = g.lowered_stmt();
        CHECK(contains(stmt, "g.s0.xi.steady_end") == (policy != 1));
        Buffer<int> out = g.realize({61});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 3 + 1; }) == 0);
    }
}

TEST_CASE("never_partition_all leaves every loop whole, and loops split from a Never loop stay whole") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
    Func g("g");
    g(x, y) = x - y;
    g.never_partition_all();
    g.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf);
    std::string stmt = g.lowered_stmt();
    CHECK(!contains(stmt, "steady_end"));
    Buffer<int> out = g.realize({30, 13});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] - c[1]; }) == 0);
    Func h("h");
    h(x, y) = x + y;
    h.partition(x, Partition::Never).split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    CHECK(!contains(h.lowered_stmt(), "steady_end"));
}

TEST_CASE("partition policies on an update and in a specialization") {
    Var x("x"), xo("xo"), xi("xi");
    RDom r(0, 37);
    Param<bool> fast("fast");
    Func f("f");
    f(x) = 0;
    f(r.x) += r.x * 2;
    RVar ro("ro"), ri("ri");
    f.update(0).split(r.x, ro, ri, 8, TailStrategy::GuardWithIf).never_partition(ro, ri);
    f.specialize(fast).split(x, xo, xi, 4, TailStrategy::GuardWithIf).always_partition(xo);
    std::string stmt = f.lowered_stmt();
    CHECK(!contains(stmt, "f.s1.ri.steady_end"));
    CHECK(contains(stmt, "f.s0.xi.steady_end"));
    for (bool b : {true, false}) {
        fast.set(b);
        Buffer<int> out = f.realize({37});
        CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * 2; }) == 0);
    }
}

TEST_CASE("partition directives name loops the stage has") {
    Var x("x"), y("y"), z("z");
    Func f("f");
    f(x, y) = x;
    std::string msg = thrown_message([&] { f.partition(z, Partition::Never); });
    CHECK(contains(msg, "Func 'f': partition(..., Partition::Never)(z): there is no loop 'z'"));
    Func g("g");
    CHECK(contains(thrown_message([&] { g.never_partition_all(); }),
                   "Func 'g' is scheduled before it has a definition; define it first"));
}

TEST_CASE("random policies on a tiled stencil: the values never change") {
    std::mt19937 rng(77);
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    for (int iter = 0; iter < 12; iter++) {
        CAPTURE(iter);
        Func in("in"), b("b"), out("out");
        in(x, y) = x * 7 + y * 13;
        b(x, y) = in(x - 1, y) + in(x + 1, y);
        out(x, y) = b(x, y - 1) + b(x, y + 1);
        const TailStrategy tails[] = {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards, TailStrategy::RoundUp};
        TailStrategy tail = tails[rng() % 3];
        // (An output's tiles guard: it may be smaller than a tile.)
        out.tile(x, y, xo, yo, xi, yi, 1 + int(rng() % 9), 1 + int(rng() % 5), TailStrategy::GuardWithIf);
        b.compute_at(out, xo).split(x, xo, xi, 1 + int(rng() % 6), tail);
        const Var loops[] = {xo, yo, xi, yi};
        for (const Var &v : loops) {
            if (rng() % 3 == 0) out.partition(v, rng() % 2 ? Partition::Never : Partition::Auto);
        }
        if (rng() % 3 == 0) b.never_partition_all();
        Buffer<int> result(std::vector<int>{1 + int(rng() % 40), 1 + int(rng() % 20)});
        result.set_min(std::vector<int>{int(rng() % 7) - 3, int(rng() % 7) - 3});
        out.realize(result);
        CHECK(mismatches<int>(result, [](const std::vector<int> &c) {
                  auto in = [](int x, int y) { return x * 7 + y * 13; };
                  auto b = [&](int x, int y) { return in(x - 1, y) + in(x + 1, y); };
                  return b(c[0], c[1] - 1) + b(c[0], c[1] + 1);
              }) == 0);
    }
}
