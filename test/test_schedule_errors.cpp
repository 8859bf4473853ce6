// Invalid schedules are rejected before anything runs, with a message naming the Funcs, the
// directive, and a fix.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;

namespace {
bool has(const std::string &msg, const std::string &part) { return msg.find(part) != std::string::npos; }

struct Chain {
    Var x{"x"}, y{"y"};
    Buffer<int> in{std::vector<int>{40, 40}, "in"};
    Func a{"a"}, b{"b"}, c{"c"};
    Chain() {
        a(x, y) = in(x, y) + 1;
        b(x, y) = a(x, y) * 2 + a(x + 1, y);
        c(x, y) = b(x, y) + b(x, y + 1);
    }
};
}  // namespace

TEST_CASE("compute_at a Func that does not consume the producer") {
    Chain p;
    Func other("other");
    other(p.x, p.y) = p.in(p.x, p.y);
    p.a.compute_at(p.c, p.x);  // c reads a only through b, which is computed at the root
    p.b.compute_root();
    std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
    CHECK(has(msg, "'a'"));
    CHECK(has(msg, "compute_at(c, x)"));
    CHECK(has(msg, "'b' uses it outside that loop"));
}

TEST_CASE("compute_at a variable that is not in the consumer's loop nest") {
    Chain p;
    Var xo("xo"), xi("xi");
    p.c.split(p.x, xo, xi, 4);
    p.b.compute_at(p.c, p.x);  // x was split away
    std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
    CHECK(has(msg, "'b'"));
    CHECK(has(msg, "no loop 'x'"));
    CHECK(has(msg, "xi"));  // lists the loops that exist
}

TEST_CASE("a producer with two consumers computed inside one of them") {
    Var x("x"), y("y");
    Buffer<int> in(std::vector<int>{30, 30}, "in");
    Func p("p"), c1("c1"), c2("c2"), out("out");
    p(x, y) = in(x, y) * 3;
    c1(x, y) = p(x, y) + 1;
    c2(x, y) = p(x + 1, y) - 1;
    out(x, y) = c1(x, y) + c2(x, y);
    c1.compute_root();
    c2.compute_root();
    p.compute_at(c1, y);
    std::string msg = compile_error_of([&] { out.realize({8, 8}); });
    CHECK(has(msg, "'p'"));
    CHECK(has(msg, "'c2'"));
    CHECK(has(msg, "encloses all of its uses"));
    // At their common consumer's loop it is fine.
    p.compute_at(out, y);
    c1.compute_at(out, y);
    c2.compute_at(out, y);
    halo_test::fill_random(in, -9, 9, 3);
    halo_test::check_against_reference(out, Buffer<>(Int(32), {8, 8}));
}

TEST_CASE("store_at inside the compute_at level") {
    Chain p;
    p.a.compute_at(p.c, p.y).store_at(p.c, p.x);
    std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
    CHECK(has(msg, "'a'"));
    CHECK(has(msg, "store_at"));
    CHECK(has(msg, "outside"));
}

TEST_CASE("store_root with compute_inline is rejected, compute_root with store_at inside too") {
    Chain p;
    p.a.store_root();
    std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
    CHECK(has(msg, "'a'"));
    CHECK(has(msg, "compute_at or compute_root"));
    Chain q;
    q.a.store_at(q.c, q.y).compute_root();
    msg = compile_error_of([&] { q.c.realize({8, 8}); });
    CHECK(has(msg, "'a'"));
    CHECK(has(msg, "store_root"));
}

TEST_CASE("a Func stored outside a parallel loop but computed inside it is a race, refused") {
    // A scan whose every row is computed inside a parallel loop over rows of its consumer,
    // but stored once for all of them: each thread would write the shared buffer (the fuzzer
    // found a wrong result with such a schedule). Halide refuses it; so do we.
    auto make = [](Func &s, Func &out, Var x, Var y, Buffer<int> &in) {
        RDom r(1, 7, "r");
        s(x, y) = in(x, y);
        s(r, y) = s(r - 1, y) + in(r, y);
        out(x, y) = s(x, y) + s(x, y + 1);
    };
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<int> in(std::vector<int>{8, 40}, "in");
    for (int variant = 0; variant < 3; variant++) {
        Func s("s"), out("out");
        make(s, out, x, y, in);
        Func outer("outer");
        if (variant == 0) {
            out.parallel(y);
            s.compute_at(out, y).store_root();
        } else if (variant == 1) {
            out.split(y, yo, yi, 4).parallel(yi);
            s.compute_at(out, yi).store_at(out, yo);
        } else {
            // The parallel loop is the consumer's consumer's.
            outer(x, y) = out(x, y) * 2;
            outer.parallel(y);
            out.compute_at(outer, y);
            s.compute_at(out, y).store_root();
        }
        Func result = variant == 2 ? outer : out;
        std::string msg = compile_error_of([&] { result.realize({8, 16}); });
        INFO("variant " << variant << ": " << msg);
        CHECK(has(msg, "Func 's' is stored outside the parallel loop"));
        CHECK(has(msg, variant == 0 ? "out.s0.y" : variant == 1 ? "out.s0.yi" : "outer.s0.y"));
        CHECK(has(msg, "a race. Store it inside the parallel loop"));
    }
    // Stored at the parallel loop, or inside it, each thread has its own buffer: fine.
    halo_test::fill_random(in, -9, 9, 5);
    for (int variant = 0; variant < 2; variant++) {
        Func s("s"), out("out");
        make(s, out, x, y, in);
        out.split(y, yo, yi, 4).parallel(yo);
        if (variant == 0) s.compute_at(out, yi).store_at(out, yo);
        else s.compute_at(out, yo);
        halo_test::check_against_reference(out, Buffer<>(Int(32), {8, 16}));
    }
}

TEST_CASE("reordering RVars against their order, where the update is not associative") {
    Var x("x");
    Buffer<int> in(std::vector<int>{10, 10}, "in");
    Func f("f");
    RDom r(0, 10, 0, 10, "r");
    f(x) = 0;
    f(x) = f(x) * 2 + in(r.x, r.y) * x;  // the order of the iterations matters
    std::string msg = compile_error_of([&] { f.update().reorder(r.y, r.x); });
    CHECK(has(msg, "'f' update 0"));
    CHECK(has(msg, "RVars"));
    // Pure Vars may move around the RVars.
    CHECK(compile_error_of([&] { f.update().reorder(r.x, r.y, x); }).empty());
    // A sum's RVars may be reordered (as in Halide).
    Func g("g");
    g(x) = 0;
    g(x) += in(r.x, r.y) * x;
    CHECK(compile_error_of([&] { g.update().reorder(r.y, r.x); }).empty());
}

TEST_CASE("parallel or vectorize of a variable already split away") {
    Chain p;
    Var xo("xo"), xi("xi"), f("f");
    p.c.split(p.x, xo, xi, 4);
    std::string msg = compile_error_of([&] { p.c.parallel(p.x); });
    CHECK(has(msg, "'c'"));
    CHECK(has(msg, "already split or fused away"));
    // Loops that are not adjacent fuse, as in Halide (test_schedule_semantics checks the values).
    CHECK(compile_error_of([&] { p.c.fuse(xi, p.y, f); }).empty());
}

TEST_CASE("a split of the output with ShiftInwards wider than the output buffer is a clear run-time error") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x * 2;
    f.split(x, xo, xi, 8, TailStrategy::ShiftInwards);
    std::string msg;
    Buffer<int> five(5);
    try {
        f.realize(five);
    } catch (const RuntimeError &e) {
        msg = e.what();
    }
    CHECK(has(msg, "output 'f'"));
    CHECK(has(msg, "GuardWithIf"));
    // realize(sizes) computes x in [-3, 4] into a larger buffer and returns [0, 4] (as Halide).
    Buffer<int> cropped = f.realize({5});
    for (int i = 0; i < 5; i++) CHECK(cropped(i) == 2 * i);
    // GuardWithIf handles any size.
    Func g("g");
    g(x) = x * 2;
    g.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    Buffer<int> out = g.realize({5});
    for (int i = 0; i < 5; i++) CHECK(out(i) == 2 * i);
}

TEST_CASE("a Func placed in a cycle of compute_at directives") {
    Chain p;
    p.a.compute_at(p.b, p.x);
    p.b.compute_at(p.a, p.x);  // b's consumer is c, not a
    std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
    CHECK(has(msg, "'b'"));
}

TEST_CASE("tails that would apply an update twice to a point are errors, RoundUp of a whole pure dimension is fine") {
    Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
    auto counter = [&](const char *name) {
        Func f(name);
        f(x) = x;
        f(x) += 100;
        return f;
    };
    {
        // ShiftInwards: the last tile, shifted in, shares points with the one before it.
        Func f = counter("f");
        std::string msg = compile_error_of([&] { f.update().split(x, xo, xi, 4, TailStrategy::ShiftInwards); });
        CHECK(has(msg, "Func 'f' update 0: split(x) with TailStrategy::ShiftInwards"));
        CHECK(has(msg, "applying the update to them twice. Use TailStrategy::GuardWithIf"));
        Func g = counter("g");
        msg = compile_error_of([&] { g.update().vectorize(x, 8, TailStrategy::ShiftInwards); });
        CHECK(has(msg, "split(x) with TailStrategy::ShiftInwards"));
    }
    {
        // RoundUp of the inner loop of a guarded split: iterations past it are the next tile's.
        Func f = counter("f2");
        std::string msg = compile_error_of(
            [&] { f.update().split(x, xo, xi, 8).split(xi, xio, xii, 9, TailStrategy::RoundUp); });
        CHECK(has(msg, "split(xi) with TailStrategy::RoundUp: xi is the inner loop of an earlier split"));
    }
    {
        // RoundUp of an RDom's loop would reduce past its end.
        Func f("f3");
        RDom r(0, 5, "r");
        f(x) = 0;
        f(x) += r;
        std::string msg = compile_error_of([&] { f.update().split(r.x, Var("ro"), Var("ri"), 2, TailStrategy::RoundUp); });
        CHECK(has(msg, "split(r.x) with TailStrategy::RoundUp would run the reduction past the end of its RDom"));
    }
    {
        // RoundUp of the whole dimension only grows the realization; the pure definition may
        // shift inwards (recomputing a pure value is harmless).
        Func f = counter("f4"), g("g4");
        f.compute_root().split(x, xo, xi, 4, TailStrategy::ShiftInwards);
        f.update().split(x, xo, xi, 4, TailStrategy::RoundUp);
        g(x) = f(x);
        halo_test::check_against_reference(g, Buffer<int>(10));
    }
}

TEST_CASE("vectorize, parallel or unroll of a Func left inline is refused, naming the Func and the loop") {
    for (int kind = 0; kind < 3; kind++) {
        Chain p;
        if (kind == 0) p.a.vectorize(p.x, 8);
        if (kind == 1) p.a.parallel(p.y);
        if (kind == 2) p.a.unroll(p.x, 2);
        std::string msg = compile_error_of([&] { p.c.realize({8, 8}); });
        CHECK(has(msg, "Func 'a' is computed inline"));
        CHECK(has(msg, kind == 0 ? "its loop x_vi cannot be marked vectorize" :
                       kind == 1 ? "its loop y cannot be marked parallel" : "its loop x_ui cannot be marked unroll"));
        CHECK(has(msg, "compute_root()"));
    }
    // A split or a reorder of an inlined Func means nothing, as in Halide, and is not an error.
    Chain p;
    Var xo("xo"), xi("xi");
    p.a.split(p.x, xo, xi, 4).reorder(p.y, xo);
    Buffer<int> r = p.c.realize({8, 8});
    CHECK(r(3, 2) == (p.in(3, 2) + 1) * 2 + p.in(4, 2) + 1 + (p.in(3, 3) + 1) * 2 + p.in(4, 3) + 1);
}

TEST_CASE("a PredicateStores split must stay innermost, and PredicateLoads cannot split an inner loop") {
    Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
    Func f("f");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.split(x, xo, xi, 8, TailStrategy::PredicateStores).split(xi, xio, xii, 2);
    });
    CHECK(has(msg, "Func 'f': split(xi) splits the inner loop of split(x, xo, xi) with TailStrategy::PredicateStores"));
    Func g("g");
    g(x) = x;
    msg = compile_error_of([&] { g.split(x, xo, xi, 8).split(xi, xio, xii, 2, TailStrategy::PredicateLoads); });
    CHECK(has(msg, "Func 'g': split(xi) with TailStrategy::PredicateLoads: xi stems from the inner loop"));
    // The other way round is fine, and computes f(x) = x at a size 8 does not divide.
    Func h("h");
    h(x) = x;
    h.split(x, xo, xi, 8).split(xi, xio, xii, 2, TailStrategy::PredicateStores);
    Buffer<int> r = h.realize({13});
    for (int i = 0; i < 13; i++) CHECK(r(i) == i);
}

TEST_CASE("compute_at a loop of the consumer's pure definition when its update, which also uses the producer, lacks it") {
    // Both stages of f use g; the update is the stage looked in, and it has no loop xo. The
    // message once said the pure definition "does not use 'g'" (found by a review).
    Func f("f"), g("g");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    g(x, y) = x * 10 + y;
    f(x, y) = g(x, y);
    f(x, y) += g(x + 1, y);
    f.split(x, xo, xi, 4);
    g.compute_at(f, xo);
    std::string msg = compile_error_of([&] { f.realize({13, 3}); });
    CHECK(has(msg, "the stage of 'f' that uses 'g' (its update 0, the last stage that uses it) has no loop 'xo'"));
    CHECK(has(msg, "'xo' is a loop of f's pure definition only: give the update 0 that loop too"));
    CHECK(!has(msg, "does not use"));
    // With the update split the same way, g is computed in both stages' loops.
    f.update().split(x, xo, xi, 4);
    Buffer<int> out = f.realize({13, 3});
    int bad = 0;
    out.for_each_element([&](int a, int b) { bad += out(a, b) != a * 10 + b + (a + 1) * 10 + b; });
    CHECK(bad == 0);
}
