// RDom::where: reductions over the points of a box where predicates hold (Halide's
// non-rectangular reductions), in updates and inline reductions, against plain C++ and the
// reference evaluator, under schedules; misuse gets a message.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
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
