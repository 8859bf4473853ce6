// Two different Funcs made with one name in one pipeline (as Halide allows: a helper that makes
// Func("blur") called twice). Lowering numbers them apart; every reference follows.
#include <doctest/doctest.h>

#include "Halo.h"
#include "TestUtil.h"

using namespace halo;
using halo_test::check_against_reference;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

// A helper in the style of Halide apps: its Funcs have fixed names, and it schedules its own
// producer at its own consumer.
Func box_blur(const Func &in, int radius, bool scheduled) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func bx("blur_x"), by("blur_y");
    bx(x, y) = in(x - radius, y) + in(x, y) + in(x + radius, y);
    by(x, y) = bx(x, y - radius) + bx(x, y) + bx(x, y + radius);
    if (scheduled) {
        by.compute_root().tile(x, y, xo, yo, xi, yi, 16, 8).vectorize(xi, 4);
        bx.compute_at(by, xo).vectorize(x, 4);
    }
    return by;
}

}  // namespace

TEST_CASE("a helper that names its Funcs, called twice, with its own compute_at in each call") {
    Buffer<int> in = halo_test::random_image<int>({90, 70}, 3, -100, 100);
    Var x("x"), y("y");
    for (bool scheduled : {false, true}) {
        CAPTURE(scheduled);
        Func src("src");
        src(x, y) = in(clamp(x, 0, 89), clamp(y, 0, 69));
        Func once = box_blur(src, 1, scheduled);
        Func twice = box_blur(once, 2, scheduled);
        Func out("out");
        out(x, y) = twice(x, y) - once(x, y);
        // Sizes the 16x8 tiles do not divide, at a non-zero, partly negative min.
        Buffer<int> dst = halo_test::int_buffer_at(37, 29, -5, 3);
        check_against_reference(out, dst);
        // The Func made first keeps its name; the second call's become name$1.
        CHECK(once.name() == "blur_y");
        CHECK(twice.name() == "blur_y$1");
        if (scheduled) {
            std::string stmt = out.lowered_stmt();
            CHECK(contains(stmt, "produce blur_x$1"));
            CHECK(contains(stmt, "for (blur_y$1.s0.xo,"));
        }
    }
}

TEST_CASE("an output keeps its name, and numbering skips names the pipeline already has") {
    Var x("x");
    Func first("f"), taken("f$1"), second("f"), out("f");
    first(x) = x;
    taken(x) = x * 100;
    second(x) = first(x) + 1;
    out(x) = second(x) * 10 + taken(x) + first(x);
    Buffer<int> r = out.realize({6});
    for (int i = 0; i < 6; i++) CHECK(r(i) == (i + 1) * 10 + i * 100 + i);
    CHECK(out.name() == "f");
    CHECK(taken.name() == "f$1");
    // first and second were made before out: in the order they were made.
    CHECK(first.name() == "f$2");
    CHECK(second.name() == "f$3");
}

TEST_CASE("two instances of a pipeline in two realizations keep their names") {
    Var x("x");
    auto make = [&](int k) {
        Func f("f"), g("g");
        f(x) = x * k;
        g(x) = f(x) + 1;
        return g;
    };
    Func a = make(2), b = make(3);
    Buffer<int> ra = a.realize({4}), rb = b.realize({4});
    for (int i = 0; i < 4; i++) {
        CHECK(ra(i) == 2 * i + 1);
        CHECK(rb(i) == 3 * i + 1);
    }
    CHECK(a.name() == "g");
    CHECK(b.name() == "g");
}

TEST_CASE("a renamed Func read in an RDom where(), an update and a specialization") {
    Var x("x");
    Param<bool> flip("flip");
    Func mask("mask"), other("mask"), acc("acc");
    mask(x) = x % 3;
    other(x) = x % 2;
    RDom r(0, 12, "r");
    r.where(other(r) == 1);
    acc(x) = 0;
    acc(x) += select(flip, mask(r + x), other(r + x) * 7);
    acc.specialize(flip);
    for (bool f : {false, true}) {
        CAPTURE(f);
        flip.set(f);
        Buffer<int> dst(9);
        check_against_reference(acc, dst);
    }
    CHECK(mask.name() == "mask");
    CHECK(other.name() == "mask$1");
}

TEST_CASE("a multi-output pipeline whose outputs each read a Func of one name") {
    Var x("x"), y("y");
    Func p1("part"), p2("part"), a("a"), b("b");
    p1(x, y) = x + y;
    p2(x, y) = x - y;
    a(x, y) = p1(x, y) * 2;
    b(x, y) = p2(x, y) * 3 + a(x, y);
    p1.compute_at(a, y);
    p2.compute_at(b, y);
    Pipeline p({a, b});
    Realization r = p.realize({7, 5});
    Buffer<int> ra = r[0], rb = r[1];
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 7; i++) {
            CHECK(ra(i, j) == (i + j) * 2);
            CHECK(rb(i, j) == (i - j) * 3 + (i + j) * 2);
        }
    }
    CHECK(p2.name() == "part$1");
}

TEST_CASE("a wrapper made for one of two Funcs of one name follows it") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({30, 20}, 8, -50, 50);
    Func src("src"), g1("g"), g2("g"), out("out");
    src(x, y) = in(clamp(x, 0, 29), clamp(y, 0, 19));
    g1(x, y) = src(x, y) + src(x + 1, y);
    g2(x, y) = src(x, y) * 2 - src(x, y + 1);
    out(x, y) = g1(x, y) + g2(x, y);
    src.compute_root();
    g1.compute_root();
    g2.compute_root();
    // Only g2 (made second, numbered apart) reads src through a wrapper computed in its rows.
    src.in(g2).compute_at(g2, y);
    Buffer<int> dst = halo_test::int_buffer_at(17, 11, -4, 2);
    check_against_reference(out, dst);
    CHECK(g2.name() == "g$1");
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "produce src_in_g"));
    // The wrapper is computed inside g$1's loop over y, not inside g's.
    size_t g2_loop = stmt.find("for (g$1.s0.y,"), wrapper = stmt.find("produce src_in_g");
    CHECK(g2_loop != std::string::npos);
    CHECK(wrapper != std::string::npos);
    CHECK(g2_loop < wrapper);
}

TEST_CASE("in() for a second Func of a name that already has a wrapper is a clear error") {
    Var x("x");
    Func src("src"), g1("g"), g2("g");
    src(x) = x;
    g1(x) = src(x) + 1;
    g2(x) = src(x) * 2;
    src.in(g1);
    std::string msg = compile_error_of([&] { src.in(g2); });
    CHECK(contains(msg, "Func 'src': in(g) for a Func named 'g', but it already has a wrapper for a different Func"));
    CHECK(contains(msg, "give the two Funcs distinct names"));
}

TEST_CASE("a loop level given by name alone that two Funcs share is a clear error") {
    Var x("x");
    Func p("p"), g1("g"), g2("g"), out("out");
    p(x) = x;
    g1(x) = p(x) + 1;
    g2(x) = x * 2;
    out(x) = g1(x) + g2(x);
    LoopLevel by_name;  // as a Generator's LoopLevel parameter "g.x" gives
    by_name.kind = LoopLevel::At;
    by_name.func = "g";
    by_name.var = "x";
    p.compute_at(by_name);
    std::string msg = compile_error_of([&] { out.realize({4}); });
    CHECK(contains(msg, "Func 'p' is scheduled at loop level g.x (given by name)"));
    CHECK(contains(msg, "compute_at/store_at of the Func itself"));
}
