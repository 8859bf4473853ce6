// Pipelines with several outputs (Halide's Pipeline({f, g})): every output computed at the
// root over a buffer of the caller's, each checked against the reference evaluator.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

namespace {

// Checks buffer b (filled by a pipeline) against the reference evaluator's f over b's region.
void check_output(const Func &f, const Buffer<> &b, double tol = 0) {
    std::string err = halo_test::compare(b, halo_test::reference_over(f, b), tol);
    INFO("output " << f.name());
    CHECK_MESSAGE(err.empty(), err);
}

}  // namespace

TEST_CASE("Pipeline({f, g}) fills one buffer per output, g reads f inside f's buffer") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({40, 30}, 5, -50, 50);
    Func f("f"), g("g");
    f(x, y) = in(x, y) * 3 + in(x + 1, y);
    g(x, y) = f(x, y) - f(x, y) / 2 + y;
    Pipeline p({f, g});
    Realization r = p.realize({20, 10});
    REQUIRE(r.size() == 2);
    check_output(f, r[0]);
    check_output(g, r[1]);
    // f is computed once, into its buffer, and g reads it there.
    std::string stmt = p.lowered_stmt();
    CHECK(!contains(stmt, "allocate f"));
    CHECK(contains(stmt, "produce g"));
}

TEST_CASE("the outputs keep their own schedules, at odd sizes and non-zero mins") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::int_buffer_at(60, 50, -10, -8);
    halo_test::fill_random(in, -99, 99, 9);
    Func blur_x("blur_x"), blur_y("blur_y"), edges("edges");
    blur_x(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
    blur_y(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
    edges(x, y) = in(x, y) * 2 - in(x, y + 1);
    blur_y.tile(x, y, xo, yo, xi, yi, 8, 4).parallel(yo).vectorize(xi, 4);
    blur_x.compute_at(blur_y, xo).vectorize(x, 4);
    edges.vectorize(x, 8);
    Pipeline p({blur_y, edges});
    Buffer<int> a = halo_test::int_buffer_at(37, 21, -5, -3);
    Buffer<int> b = halo_test::int_buffer_at(19, 13, 2, -6);
    p.realize(Realization(a, b));
    check_output(blur_y, a);
    check_output(edges, b);
}

TEST_CASE("a Tuple-valued output among several: its values are consecutive buffers") {
    Var x("x");
    Func minmax("minmax"), sum("sum");
    minmax(x) = {min(x * 3 % 7, x), max(x * 3 % 7, x)};
    sum(x) = minmax(x)[0] + minmax(x)[1];
    Pipeline p({minmax, sum});
    Realization r = p.realize({12});
    REQUIRE(r.size() == 3);
    Buffer<int> lo = r[0], hi = r[1], s = r[2];
    for (int i = 0; i < 12; i++) {
        CHECK(lo(i) == std::min(i * 3 % 7, i));
        CHECK(hi(i) == std::max(i * 3 % 7, i));
        CHECK(s(i) == lo(i) + hi(i));
    }
}

TEST_CASE("outputs listed before what they read are still computed first") {
    Var x("x");
    Func f("f"), g("g"), h("h");
    f(x) = x * x;
    g(x) = f(x) + 1;
    h(x) = g(x) * 2;
    Pipeline p({h, f, g});
    Realization r = p.realize({9});
    Buffer<int> hb = r[0], fb = r[1], gb = r[2];
    for (int i = 0; i < 9; i++) {
        CHECK(fb(i) == i * i);
        CHECK(gb(i) == i * i + 1);
        CHECK(hb(i) == 2 * (i * i + 1));
    }
}

TEST_CASE("a Pipeline keeps its outputs alive") {
    Var x("x");
    std::unique_ptr<Pipeline> p;
    {
        Func f("f"), g("g");
        f(x) = x + 5;
        g(x) = x * 7;
        p = std::make_unique<Pipeline>(std::vector<Func>{f, g});
    }
    Realization r = p->realize({4});
    Buffer<int> a = r[0], b = r[1];
    CHECK(a(3) == 8);
    CHECK(b(3) == 21);
}

TEST_CASE("errors: an output buffer read beyond its region by a later output") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    g(x) = f(x + 1) + f(x - 1);
    Pipeline p({f, g});
    Buffer<int> small_f(8), small_g(8);
    std::string msg = runtime_error_of([&] { p.realize(Realization(small_f, small_g)); });
    CHECK(contains(msg, "output 'f' covers x in [0, 7], but Func 'g' reads it in [-1, 8]"));
    CHECK(contains(msg, "pass a larger buffer for 'f'"));
    // With a buffer large enough it runs.
    Buffer<int> fb = halo_test::int_buffer_at(10, 1, -1, 0).sliced(1, 0);
    Buffer<int> gb(8);
    p.realize(Realization(fb, gb));
    for (int i = 0; i < 8; i++) CHECK(gb(i) == 2 * i);
    // realize(sizes) computes f over what g reads and returns both over [0, 7] (as Halide's
    // bounds query does).
    Realization r = p.realize({8});
    Buffer<int> rf = r[0], rg = r[1];
    CHECK(rf.dim(0).extent() == 8);
    for (int i = 0; i < 8; i++) CHECK(rf(i) == i);
    for (int i = 0; i < 8; i++) CHECK(rg(i) == 2 * i);
}

// Halide 14 ignores compute_at, store_at and compute_inline of an output (an output is computed
// at the root into its buffer): such programs run, with the same values.
TEST_CASE("an output placed inside another Func, or inline, is computed at the root, as in Halide") {
    Var x("x"), y("y");
    for (int how = 0; how < 4; how++) {
        CAPTURE(how);
        Func f("f"), g("g");
        f(x, y) = x + 3 * y;
        g(x, y) = f(x, y) * 2 + f(x + 1, y);
        if (how == 0) f.compute_at(g, x);
        if (how == 1) f.store_at(g, y).compute_at(g, x);
        if (how == 2) f.compute_inline();
        if (how == 3) g.compute_at(f, y).compute_inline();  // the last output too
        Realization r = Pipeline({f, g}).realize({5, 4});
        Buffer<int> rf = r[0], rg = r[1];
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 5; i++) {
                CHECK(rf(i, j) == i + 3 * j);
                CHECK(rg(i, j) == (i + 3 * j) * 2 + (i + 1 + 3 * j));
            }
        }
    }
    Func h("h");
    h(x) = x * 5;
    h.compute_inline();
    Buffer<int> out = h.realize({3});
    CHECK(out(2) == 10);
}

TEST_CASE("errors: an output given twice, or realized into the wrong buffers") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    g(x) = f(x) * 2;
    std::string msg = compile_error_of([&] { Pipeline({g, g}).realize({4}); });
    CHECK(contains(msg, "Func 'g' is given twice as an output of the pipeline"));
    Buffer<int> one(4);
    msg = compile_error_of([&] { Pipeline({f, g}).realize(Realization(one)); });
    CHECK(contains(msg, "the pipeline of 'f', 'g' has 2 values but is realized into 1 buffer"));
    CHECK(contains(msg, "in the order of the outputs"));
}

// Outputs of different dimensionality realized over sizes: each takes the first sizes, as in
// Halide (f over {10}, g over {10, 4}); more or fewer sizes than the widest output has is an error.
TEST_CASE("outputs of fewer dimensions take the first sizes of realize") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x) = x * 3;
    g(x, y) = f(x) + y;
    Pipeline p({f, g});
    Realization r = p.realize({10, 4});
    Buffer<int> a = r[0], b = r[1];
    REQUIRE(a.dimensions() == 1);
    REQUIRE(b.dimensions() == 2);
    CHECK(a.dim(0).extent() == 10);
    CHECK(b.dim(1).extent() == 4);
    for (int i = 0; i < 10; i++) CHECK(a(i) == 3 * i);
    CHECK(b(7, 3) == 24);
    CHECK(contains(compile_error_of([&] { p.realize({10}); }),
                   "Func 'g' has 2 dimensions but realize() was given 1 sizes (one per dimension of the pipeline's "
                   "widest output)"));
}

// An input too small for several outputs: the region checked is the union of what they need,
// and the message names them all (it named the first, with the others' reads).
TEST_CASE("an input too small for several outputs names them all") {
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    Func f("f"), g("g");
    f(x) = in(x + 5);
    g(x) = in(x - 5);
    Buffer<int> data = halo_test::int_buffer_at(30, 1, -5, 0).sliced(1, 0);
    in.set(data);
    Pipeline p({f, g});
    std::string msg = runtime_error_of([&] { p.realize({21}); });
    CHECK(contains(msg, "input 'in' covers dimension 0 in [-5, 24], but producing outputs 'f' and 'g' needs [-5, 25] "
                        "of it"));
    msg = runtime_error_of([&] { f.realize({21}); });
    CHECK(contains(msg, "input 'in' covers dimension 0 in [-5, 24], but producing output 'f' needs [5, 25] of it"));
}
