// RDom::where: reductions over the points of a box where predicates hold (Halide's
// non-rectangular reductions), in updates and inline reductions, against plain C++ and the
// reference evaluator, under schedules; misuse gets a message.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::check_against_reference;
using halo_test::contains;

TEST_CASE("a triangular reduction visits only the triangle") {
    Func f("tri");
    Var x("x");
    RDom r(0, 10, 0, 10, "r");
    r.where(r.x <= r.y);
    f(x) = 0;
    f(x) += r.x * 100 + r.y + x;
    Buffer<int> out = f.realize({3});
    for (int i = 0; i < 3; i++) {
        int e = 0;
        for (int yy = 0; yy < 10; yy++)
            for (int xx = 0; xx <= yy; xx++) e += xx * 100 + yy + i;
        CHECK(out(i) == e);
    }
    halo_test::check_against_reference(f, Buffer<int>(3));
}

TEST_CASE("predicates may read pure Vars and other Funcs, and several must all hold") {
    Buffer<uint8_t> mask(16);
    for (int i = 0; i < 16; i++) mask(i) = uint8_t(i % 3 != 0);
    Var x("x"), y("y");
    RDom r(0, 16, "r");
    r.where(r < x + y);
    r.where(mask(r) != 0);
    Func f("masked_prefix");
    f(x, y) = 0;
    f(x, y) += cast<int>(r) + 1;
    f.update().vectorize(x, 4);  // the predicate varies across lanes: still right
    Buffer<int> out(6, 5);
    out.set_min(-2, 1);
    f.realize(out);
    out.for_each_element([&](int i, int j) {
        int e = 0;
        for (int k = 0; k < 16; k++)
            if (k < i + j && mask(k)) e += k + 1;
        CHECK(out(i, j) == e);
    });
    Buffer<int> ref(6, 5);
    ref.set_min(-2, 1);
    halo_test::check_against_reference(f, ref);
}

TEST_CASE("an inline reduction over an RDom with a predicate") {
    Var x("x");
    RDom r(-3, 7, "r");
    r.where(r * r <= 4);  // r in [-2, 2]
    Func f("blur");
    Buffer<float> in = halo_test::random_image<float>({40}, 8, -1, 1);
    f(x) = sum(in(x + r + 3));
    f.vectorize(x, 8);
    Buffer<float> out = f.realize({34});
    for (int i = 0; i < 34; i++) {
        float e = 0;
        for (int k = -2; k <= 2; k++) e += in(i + k + 3);
        CHECK(std::fabs(out(i) - e) < 1e-5f);
    }
    halo_test::check_against_reference(f, Buffer<float>(34), 1e-6);
}

TEST_CASE("an update over a predicated RDom computed per tile of its consumer") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    RDom r(0, 5, 0, 5, "r");
    r.where((r.x + r.y) % 2 == 0);
    Buffer<int16_t> in = halo_test::random_image<int16_t>({50, 40}, 12, -100, 100);
    Func g("checker"), h("h");
    g(x, y) = cast<int32_t>(0);
    g(x, y) += cast<int32_t>(in(x + r.x, y + r.y));
    h(x, y) = g(x, y) * 2;
    h.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf).parallel(yo);
    g.compute_at(h, xo);
    g.update().reorder(x, y, r.x, r.y);
    Buffer<int> out(45, 35);
    halo_test::check_against_reference(h, out);
}

TEST_CASE("where() misuse is refused with a message") {
    RDom r(0, 4, "r");
    std::string msg = compile_error_of([&] { r.where(r + 1); });
    CHECK(contains(msg, "RDom 'r'.where((r.x + 1)): the predicate is int32; it must be a boolean condition"));
    Func f("f");
    Var x("x");
    f(x) = 0;
    f(x) += r;
    msg = compile_error_of([&] { r.where(r > 1); });
    CHECK(contains(msg, "after the RDom was used in a definition; add predicates before using the RDom"));
    RDom s(0, 4, "s");
    Var z("z");
    s.where(s < z);
    Func g("g");
    g(x) = 0;
    msg = compile_error_of([&] { g(x) += s; });
    CHECK(contains(msg, "uses Var 'z', which is not a pure Var on its left side"));
}

TEST_CASE("a predicate may read the Func being updated, as in Halide: it sees the values before the iteration") {
    // Halo refused these ("a predicate may read other Funcs only"); Halide's
    // reduction_non_rectangular test uses both.
    Var x("x"), y("y"), xo("xo"), xi("xi");
    {
        // At the point being updated: the iterations stay independent, so the RVars may run
        // in vectors and in parallel.
        Func f("f");
        RDom r(0, 13, 0, 9, "r");
        f(x, y) = x * 3 - y;
        r.where(f(r.x, r.y) % 3 != 1);
        f(r.x, r.y) = f(r.x, r.y) * 2 + 1;
        f.update(0).vectorize(r.x, 4).parallel(r.y);
        Buffer<int> out(16, 11);
        out.set_min(-1, -2);
        check_against_reference(f, out);
    }
    {
        // With a pure Var in the update, vectorized and split, computed per tile of a consumer.
        Func g("g"), out("out");
        RDom k(0, 6, "k");
        g(x, y) = (x * 7 + y * 3) % 11;
        k.where(g(x, k) > 4 && g(x, k) != 8);
        g(x, k) = g(x, k) - g(x, 2) * 2;
        out(x, y) = g(x, y) + g(x, y + 1);
        out.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
        g.compute_at(out, xo).update(0).vectorize(x, 4, TailStrategy::GuardWithIf);
        Buffer<int> o(21, 9);
        o.set_min(3, -3);
        check_against_reference(out, o);
    }
    {
        // At another point: a recurrence through the predicate, whose RVar must stay serial.
        Func h("h");
        RDom r(1, 15, "r");
        h(x) = x * 5 % 7;
        r.where(h(r - 1) % 2 == 0);
        h(r) = h(r - 1) + h(r) + 1;
        CHECK(contains(compile_error_of([&] { h.update(0).parallel(r.x); }), "'h'"));
        Buffer<int> o(20);
        o.set_min(-2);
        check_against_reference(h, o);
    }
}

TEST_CASE("an update whose predicate reads the Func itself keeps its RVars in order: no rfactor, no reorder") {
    // f(x) += k + 1 while f(x) < 20: which k are added depends on the order they run in, so
    // the sum is no longer associative and commutative.
    Var x("x"), u("u");
    RDom k(0, 8, "k"), j(0, 3, "j");
    Func f("f");
    f(x) = x;
    k.where(f(x) < 20);
    f(x) += k + 1;
    RVar ko("ko"), ki("ki");
    f.update(0).split(k.x, ko, ki, 2);
    std::string msg = compile_error_of([&] { f.update(0).rfactor(ko, u); });
    CHECK(contains(msg, "Func 'f' update 0: rfactor of an update whose RDom's where() reads f itself"));
    msg = compile_error_of([&] { f.update(0).reorder(ko, ki); });
    CHECK(contains(msg, "reorder would change the order of its RVars"));
    check_against_reference(f, Buffer<int>(25));
}

// As in Halide, a comparison of an RVar in a predicate bounds what the update touches: the
// output buffer and the inputs need only hold the points where the predicates hold.
TEST_CASE("comparisons in predicates bound the regions an update writes and reads") {
    Var x("x");
    Param<int> limit("limit");
    ImageParam in(Int(32), 1, "in");
    Buffer<int> input = halo_test::random_image<int>({60}, 5, -9, 9);
    input.set_min({10});
    in.set(input);
    RDom r(0, 100, "r");
    r.where(r.x >= 10 && r.x < limit);
    Func f("bounded_by_where");
    f(x) = x;
    f(r.x) = f(r.x) + in(r.x) * 3;
    f.update(0).vectorize(r.x, 8);
    // The output holds [10, 69] only and the input [10, 69]: before, both had to hold [0, 99].
    for (int lim : {70, 40, 10}) {
        limit.set(lim);
        Buffer<int> out(60);
        out.set_min({10});
        f.realize(out);
        for (int i = 10; i < 70; i++) CHECK(out(i) == i + (i < lim ? input(i) * 3 : 0));
        check_against_reference(f, out);
    }
    // A limit past the buffers is still caught, naming the output.
    limit.set(80);
    Buffer<int> out(60);
    out.set_min({10});
    std::string msg = halo_test::runtime_error_of([&] { f.realize(out); });
    CHECK(contains(msg, "output 'bounded_by_where' would be computed at x in [10, 79], but the buffer covers [10, 69]"));
}

// Narrowing keeps each end inside the RVar's range: a limit past the RDom (no iteration runs)
// must not make a scaled read's box wider than the whole RDom's.
TEST_CASE("a predicate whose limit lies past the RDom narrows nothing beyond it") {
    Var x("x");
    Param<int> from("from"), scale("scale");
    ImageParam in(Int(32), 1, "in");
    Buffer<int> input = halo_test::random_image<int>({100}, 6, -9, 9);
    in.set(input);
    RDom r(0, 100, "r");
    r.where(r.x >= from);
    Func f("past_the_rdom");
    f(x) = x;
    f(0) += in(r.x * scale);
    scale.set(1);
    for (int start : {150, 90}) {
        from.set(start);
        Buffer<int> out(4);
        f.realize(out);
        int want = 0;
        for (int i = start; i < 100; i++) want += input(i);
        CHECK(out(0) == want);
        check_against_reference(f, out);
    }
}
