// Calls of the user's C functions from a pipeline (HalideExtern_N), as Halide's tests use
// them: to count how often a Func is evaluated. The counts of Halide's sliding_window test,
// which the values alone cannot show (a window that recomputes every point gives the same
// values), and calls with each argument type, vectorized, parallel and under a select.
#include <atomic>

#include "CompatUtil.h"

namespace Halide = halo;
using namespace Halide;
using halo_compat::contains;
using halo_compat::thrown_message;

namespace {
std::atomic<int> calls{0};
}

extern "C" int call_counter(int x, int y) {
    calls++;
    return 0;
}
HalideExtern_2(int, call_counter, int, int);

extern "C" int8_t negate_i8(int8_t a) { return int8_t(-a); }
HalideExtern_1(int8_t, negate_i8, int8_t);
extern "C" uint16_t mix_u16(uint16_t a, int16_t b) { return uint16_t(a * 3 + b); }
HalideExtern_2(uint16_t, mix_u16, uint16_t, int16_t);
extern "C" double fused(float a, double b, int64_t c) { return double(a) * b + double(c); }
HalidePureExtern_3(double, fused, float, double, int64_t);
extern "C" bool is_odd(uint64_t a) { return (a & 1) != 0; }
HalidePureExtern_1(bool, is_odd, uint64_t);
extern "C" uint64_t high_bits(uint64_t a, bool flip) { return flip ? ~a : a >> 1; }
HalideExtern_2(uint64_t, high_bits, uint64_t, bool);
extern "C" float counted_square(float v) {
    calls++;
    return v * v;
}
HalideExtern_1(float, counted_square, float);

namespace {

// f evaluated `expected` times while realizing `output` over sizes (Halide's sliding_window),
// and the values those of the reference evaluator (which calls f in its own order: it is
// run after the count is taken).
void check_count(Func output, const std::vector<int> &sizes, int expected) {
    calls = 0;
    Buffer<int> out = output.realize(sizes);
    CHECK(calls.load() == expected);
    Buffer<int> ref = reference_realize(output, sizes)[0];
    CHECK(halo_compat::mismatches<int>(out, [&](const std::vector<int> &p) { return ref(p); }) == 0);
}

}  // namespace

TEST_CASE("sliding_window counts: each point of a sliding producer computed once, specialized on the output min") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = call_counter(x, 0);
    g(x) = f(x) + f(x - 1);
    f.store_root().compute_at(g, x);
    g.specialize(g.output_buffer().dim(0).min() == 0);
    check_count(g, {100}, 101);
}

TEST_CASE("sliding_window counts: two producers of one consumer") {
    Var x("x");
    Func f("f"), g("g"), h("h");
    f(x) = call_counter(2 * x + 0, 0);
    g(x) = call_counter(2 * x + 1, 0);
    h(x) = f(x) + f(x - 1) + g(x) + g(x - 1);
    f.store_root().compute_at(h, x);
    g.store_root().compute_at(h, x);
    check_count(h, {100}, 202);
}

TEST_CASE("sliding_window counts: two windows in sequence, and one inside a containing stage") {
    Var x("x");
    SUBCASE("in sequence") {
        Func f("f"), g("g"), h("h");
        f(x) = call_counter(2 * x + 0, 0);
        g(x) = f(x) + f(x - 1);
        h(x) = g(x) + g(x - 1);
        f.store_root().compute_at(h, x);
        g.store_root().compute_at(h, x);
        check_count(h, {100}, 102);
    }
    SUBCASE("inside a containing stage") {
        Func f("f"), g("g"), h("h");
        f(x) = call_counter(x, 0);
        g(x) = f(x) + f(x - 1);
        h(x) = g(x);
        f.store_root().compute_at(g, x);
        g.compute_at(h, x);
        // Halide slides f along h's loop too (101 calls). Halo slides only along the loop f is
        // computed at, here g's loop of one iteration, so every point of h computes f twice.
        check_count(h, {100}, 200);
    }
}

TEST_CASE("sliding_window counts: an inner vectorized channel dimension") {
    Var x("x"), c("c");
    Func f("f"), g("g"), h("h");
    f(x, c) = call_counter(x, c);
    g(x, c) = f(x + 1, c) - f(x, c);
    h(x, c) = g(x, c);
    f.store_root().compute_at(h, x).reorder(c, x).reorder_storage(c, x).bound(c, 0, 4).vectorize(c);
    g.compute_at(h, x);
    h.reorder(c, x).reorder_storage(c, x).bound(c, 0, 4).vectorize(c);
    check_count(h, {100, 4}, 404);
}

TEST_CASE("sliding_window counts: a reduction computed per row slides over the rows") {
    Var x("x"), y("y");
    RDom r(0, 100);
    Func f("f"), g("g");
    f(x, y) = 0;
    f(r, y) = call_counter(r, y);
    f.store_root().compute_at(g, y);
    g(x, y) = f(x, y) + f(x, y - 1);
    check_count(g, {10, 10}, 100 * 11);
}

TEST_CASE("sliding_window counts: over two dimensions at once, and a diagonal footprint") {
    Var x("x"), y("y");
    SUBCASE("two dimensions") {
        Func f("f"), g("g");
        f(x, y) = call_counter(x, y);
        g(x, y) = f(x - 1, y) + f(x, y) + f(x, y - 1);
        f.store_root().compute_at(g, x);
        // Halide slides along y as well as x (11 * 11 calls); Halo slides along x only, and
        // computes row y - 1 again for each row: 10 rows of 2 x 11.
        check_count(g, {10, 10}, 10 * 2 * 11);
    }
    SUBCASE("diagonal (Halide does not slide it: 1500 calls)") {
        Func f("f"), g("g");
        f(x, y) = call_counter(x, y);
        g(x, y) = f(x + y, x - y) + f((x - 2) + y, (x - 2) - y) + f(x + (y - 2), x - (y - 2));
        f.store_root().compute_at(g, x);
        check_count(g, {10, 10}, 1500);
    }
}

TEST_CASE("sliding_window counts: a fixed footprint, a new value every third iteration, a warm-up") {
    Var x("x");
    SUBCASE("fixed footprint: everything in the first iteration") {
        Func f("f"), g("g");
        f(x) = call_counter(x, 0);
        g(x) = f(0) + f(5);
        f.store_root().compute_at(g, x);
        check_count(g, {100}, 6);
    }
    SUBCASE("every third iteration") {
        Func f("f"), g("g");
        f(x) = call_counter(x, 0);
        g(x) = f(x / 3);
        f.store_root().compute_at(g, x);
        check_count(g, {100}, 34);
    }
    SUBCASE("a clamp before the loop's start needs a warm-up") {
        Func f("f"), g("g");
        f(x) = call_counter(x, 0);
        g(x) = f(max(x, 3));
        f.store_root().compute_at(g, x);
        check_count(g, {10}, 7);
    }
}

TEST_CASE("sliding_window counts: an unrolled producer, and a vectorized producer and consumer") {
    Var x("x"), xi("xi");
    SUBCASE("unrolled") {
        Func f("f"), g("g");
        f(x) = call_counter(x, 0) + x * x;
        g(x) = f(x) + f(x - 1);
        g.split(x, x, xi, 10);
        f.store_root().compute_at(g, x).unroll(x);
        check_count(g, {100}, 101);
    }
    SUBCASE("vectorized") {
        Func f("f"), g("g");
        f(x) = call_counter(x, 0);
        g(x) = f(x + 1) + f(x - 1);
        f.store_root().compute_at(g, x).vectorize(x, 4);
        g.vectorize(x, 4);
        // Halide: 102. Halo's first iteration computes the 6 points it needs as two vectors
        // of 4 (8 calls), then 4 new points in each of the other 24.
        check_count(g, {100}, 8 + 24 * 4);
    }
}

TEST_CASE("sliding_window counts: chains of stencils stored at the root and computed per row") {
    Var x("x"), y("y");
    auto chain = [&](int variant) {
        Func f("f"), g("g"), h("h"), u("u"), v("v");
        f(x, y) = call_counter(x, y);
        g(x, y) = f(x, y - 1) + f(x, y + 1);
        h(x, y) = g(x - 1, y) + g(x + 1, y);
        u(x, y) = h(x, y - 1) + h(x, y + 1);
        v(x, y) = u(x - 1, y) + u(x + 1, y);
        u.compute_at(v, y);
        if (variant == 0) {
            h.store_root().compute_at(v, y);
            g.store_root().compute_at(v, y);
            f.store_root().compute_at(v, y);
        } else if (variant == 1) {
            h.store_root().compute_at(v, y);
            g.compute_at(h, y);
            f.store_root().compute_at(v, y);
        } else {
            h.store_root().compute_at(u, y);
            g.compute_at(h, y);
            f.store_root().compute_at(g, y);
        }
        return v;
    };
    // Halide computes each of the 14 x 14 points of f once in all three. In the third, Halo
    // computes f per row of g, g per row of h and h per row of u, and slides none of them
    // along v's rows (the loop each is stored outside of is not the one it is computed at).
    const int expected[3] = {14 * 14, 14 * 14, 1260};
    for (int variant = 0; variant < 3; variant++) {
        CAPTURE(variant);
        check_count(chain(variant), {10, 10}, expected[variant]);
    }
}

TEST_CASE("extern calls: overlapped tiles call the producer again for each point of a halo") {
    // 2 tiles of 8 rows, each computing f over its 8 rows plus one above: 18 rows of 16.
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f"), g("g");
    f(x, y) = call_counter(x, y);
    g(x, y) = f(x, y) + f(x, y - 1);
    g.tile(x, y, xo, yo, xi, yi, 16, 8);
    f.compute_at(g, xo);
    check_count(g, {16, 16}, 16 * 18);
}

TEST_CASE("extern calls: each argument and return type reaches C and comes back, JIT equal to the reference") {
    Var x("x");
    Func f("f");
    Expr i = cast<int8_t>(x * 37 - 100);
    f(x) = Tuple(negate_i8(i), mix_u16(cast<uint16_t>(x * 1000), cast<int16_t>(-x * 9)),
                 fused(cast<float>(x) * 0.5f, 1.25, cast<int64_t>(x) * cast<int64_t>(1 << 20) * cast<int64_t>(1 << 20)),
                 is_odd(cast<uint64_t>(x) * 3), high_bits(cast<uint64_t>(x) << 60 | cast<uint64_t>(x), x % 2 == 0),
                 x + 7);
    const int n = 70;
    Realization r = f.realize({n});
    Realization ref = reference_realize(f, {n});
    Buffer<int8_t> a = r[0];
    Buffer<uint16_t> b = r[1];
    Buffer<double> c = r[2];
    Buffer<bool> d = r[3];
    Buffer<uint64_t> e = r[4];
    Buffer<int> s = r[5];
    for (int k = 0; k < n; k++) {
        CAPTURE(k);
        CHECK(a(k) == int8_t(-int8_t(k * 37 - 100)));
        CHECK(b(k) == uint16_t(uint16_t(k * 1000) * 3 + int16_t(-k * 9)));
        CHECK(c(k) == double(float(k) * 0.5f) * 1.25 + double(int64_t(k) << 40));
        CHECK(d(k) == (((uint64_t(k) * 3) & 1) != 0));
        uint64_t wide = uint64_t(k) << 60 | uint64_t(k);
        CHECK(e(k) == (k % 2 == 0 ? ~wide : wide >> 1));
        CHECK(s(k) == 7 + k);
        CHECK(Buffer<int8_t>(ref[0])(k) == a(k));
        CHECK(Buffer<uint16_t>(ref[1])(k) == b(k));
        CHECK(Buffer<double>(ref[2])(k) == c(k));
        CHECK(Buffer<bool>(ref[3])(k) == d(k));
        CHECK(Buffer<uint64_t>(ref[4])(k) == e(k));
        CHECK(Buffer<int>(ref[5])(k) == s(k));
    }
}

TEST_CASE("extern calls: a vectorized and parallel Func calls the function once per point it computes, lane by lane") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = counted_square(cast<float>(x - y)) + 1.0f;
    f.vectorize(x, 8).parallel(y);
    calls = 0;
    Buffer<float> out = f.realize({37, 9});
    // 5 vectors of 8 per row, the last shifted inwards to end at 36 (it computes 3 points again).
    CHECK(calls.load() == 40 * 9);
    for (int yy = 0; yy < 9; yy++) {
        for (int xx = 0; xx < 37; xx++) REQUIRE(out(xx, yy) == float((xx - yy) * (xx - yy)) + 1.0f);
    }
}

TEST_CASE("extern calls: a select's arms both hold calls, and the right arm's value is taken") {
    Var x("x");
    Func f("f");
    f(x) = select(x % 3 == 0, counted_square(cast<float>(x)), -counted_square(cast<float>(x + 1)));
    f.vectorize(x, 4);
    Buffer<float> out = f.realize({23});
    Buffer<float> ref = reference_realize(f, {23})[0];
    for (int k = 0; k < 23; k++) {
        CAPTURE(k);
        CHECK(out(k) == (k % 3 == 0 ? float(k * k) : -float((k + 1) * (k + 1))));
        CHECK(ref(k) == out(k));
    }
}

TEST_CASE("extern calls: an argument of another type is an error naming the function, the argument and both types") {
    Var x("x");
    std::string msg = thrown_message([&] { (void)call_counter(x, cast<int64_t>(x)); });
    CHECK(contains(msg, "argument 2 to extern function call_counter"));
    CHECK(contains(msg, "Type expected is int32"));
    CHECK(contains(msg, "has type int64"));
    CHECK(contains(msg, "cast it to int32"));
}

TEST_CASE("extern calls: one C name declared with two signatures, or a runtime name, is an error") {
    (void)call_counter(Expr(0), Expr(0));  // registers call_counter (a test run alone has not)
    ExternFunction other;
    other.name = "call_counter";
    other.address = reinterpret_cast<void *>(static_cast<int8_t (*)(int8_t)>(&negate_i8));
    other.return_type = Int(8);
    other.arg_types = {Int(8)};
    std::string msg = thrown_message([&] { register_extern_function(other); });
    CHECK(contains(msg, "the C function name 'call_counter' is declared twice"));
    CHECK(contains(msg, "int32 call_counter(int32, int32)"));
    CHECK(contains(msg, "give the other a name of its own"));
    other.name = "halo_print";
    CHECK(contains(thrown_message([&] { register_extern_function(other); }), "starts with halo_"));
    other.name = "not a name";
    CHECK(contains(thrown_message([&] { register_extern_function(other); }), "is not a C function name"));
}

namespace {
std::atomic<int> indexed_calls[4];
void reset_indexed() {
    for (auto &c : indexed_calls) c = 0;
}
std::vector<int> indexed_counts() {
    std::vector<int> out;
    for (auto &c : indexed_calls) out.push_back(c.load());
    return out;
}
}  // namespace

extern "C" int count_at(int x, int index) {
    indexed_calls[index]++;
    return x;
}
HalideExtern_2(int, count_at, int, int);

// Follows Halide's skip_stages test, where a producer whose every use a Param switches off is
// not computed at all. Halo does not skip stages yet: it computes every producer over its
// whole region whatever the switches say (the counts below; Halide's are in the comments).
TEST_CASE("skip_stages counts: producers a switched-off select reads are still computed") {
    Var x("x");
    Param<bool> toggle1("toggle1"), toggle2("toggle2");
    auto run = [&](Func out, bool t1, bool t2) {
        toggle1.set(t1);
        toggle2.set(t2);
        reset_indexed();
        out.realize({10});
        return indexed_counts();
    };
    SUBCASE("one of two side lobes") {
        Func f1("f1"), f2("f2"), f3("f3"), f4("f4");
        f1(x) = x;
        f2(x) = count_at(f1(x) + 1, 0);
        f3(x) = count_at(f1(x) + 2, 1);
        f4(x) = select(toggle1, f2(x), f3(x));
        f1.compute_root();
        f2.compute_root();
        f3.compute_root();
        CHECK(run(f4, true, false) == std::vector<int>{10, 10, 0, 0});   // Halide: 10, 0
        CHECK(run(f4, false, false) == std::vector<int>{10, 10, 0, 0});  // Halide: 0, 10
    }
    SUBCASE("a diamond with two switches, at the root and inside split loops") {
        for (int scheduled = 0; scheduled < 2; scheduled++) {
            CAPTURE(scheduled);
            Func f1("f1"), f2("f2"), f3("f3"), f4("f4");
            Var xo("xo"), xi("xi");
            f1(x) = count_at(x, 0);
            f2(x) = count_at(f1(x) + 1, 1);
            f3(x) = count_at(f1(x) + 1, 2);
            f4(x) = select(toggle1, f2(x), 0) + select(toggle2, f3(x), 0);
            if (scheduled) {
                f4.split(x, xo, xi, 5);
                f1.compute_at(f4, xo);
                f2.store_root().compute_at(f4, xo);
                f3.store_at(f4, xo).compute_at(f4, xi);
            } else {
                f1.compute_root();
                f2.compute_root();
                f3.compute_root();
            }
            // Halide: 10, 10, 10; 10, 0, 10; 10, 10, 0; and 0, 0, 0.
            for (bool t1 : {true, false}) {
                for (bool t2 : {true, false}) CHECK(run(f4, t1, t2) == std::vector<int>{10, 10, 10, 0});
            }
        }
    }
    SUBCASE("a Tuple's values are computed together, and skipped together") {
        Func f1("f1"), f2("f2"), g1("g1"), g2("g2");
        f1(x) = Tuple(count_at(x, 0), count_at(x + 1, 1));
        f2(x) = select(toggle1, f1(x)[0], 0) + f1(x)[1];
        f1.compute_root();
        CHECK(run(f2, true, false) == std::vector<int>{10, 10, 0, 0});
        CHECK(run(f2, false, false) == std::vector<int>{10, 10, 0, 0});
        g1(x) = Tuple(count_at(x, 0), count_at(x + 1, 1));
        g2(x) = select(toggle1, g1(x)[0], 0);
        g1.compute_root();
        CHECK(run(g2, true, false) == std::vector<int>{10, 10, 0, 0});
        CHECK(run(g2, false, false) == std::vector<int>{10, 10, 0, 0});  // Halide: 0, 0
    }
    SUBCASE("a sliding producer inside a consumer that skips a point") {
        Func f("f"), g("g"), h("h");
        f(x) = count_at(x, 0);
        g(x) = f(x) + f(x - 1);
        h(x) = select(x == 5, 0, g(x));
        f.store_root().compute_at(g, x);
        g.compute_at(h, x);
        std::vector<int> counts = run(h, false, false);
        // Halide: 11 (it slides f along h's loop). Halo slides only along g's loop, one
        // iteration per point of h, so f is computed twice per point; the point x == 5 is
        // computed too (f's values there are needed by the window, whether or not g's are).
        CHECK(counts[0] == 20);
    }
}

// Follows Halide's sliding_backwards test: a window that moves towards lower coordinates.
TEST_CASE("sliding_backwards counts: a window moving down computes each point once") {
    Var x("x");
    Func f("f"), g("g");
    g(x) = count_at(x, 0);
    f(x) = g(100 - x) + g(100 - x + 1);
    g.compute_at(f, x).store_root();
    reset_indexed();
    Buffer<int> out = f.realize({10});
    CHECK(indexed_counts()[0] == 11);
    for (int i = 0; i < 10; i++) CHECK(out(i) == (100 - i) + (101 - i));
}

extern "C" int count_ninety_nine(int x) {
    indexed_calls[0]++;
    return 99;
}
HalideExtern_1(int, count_ninety_nine, int);

// Follows Halide's sliding_reduction test: a Func with updates stored at the root, computed
// per row of its consumer.
TEST_CASE("sliding_reduction counts: updates pure in y slide, a scattering update does not") {
    Var x("x"), y("y");
    SUBCASE("updates pure in y") {
        Func f("f"), g("g");
        f(x, y) = x;
        f(0, y) += f(1, y) + f(0, y);
        f(x, y) = count_ninety_nine(f(x, y));
        g(x, y) = f(x, y) + f(x, y - 1) + f(x, y - 2);
        f.store_root().compute_at(g, y);
        reset_indexed();
        Buffer<int> out = g.realize({2, 10});
        // 12 rows of 2 (the first row of g computes 3 rows of f), as Halide.
        CHECK(indexed_counts()[0] == 24);
        for (int yy = 0; yy < 10; yy++) {
            for (int xx = 0; xx < 2; xx++) CHECK(out(xx, yy) == 99 * 3);
        }
    }
    SUBCASE("an update that scatters along the diagonal") {
        Func f("f"), g("g");
        f(x, y) = x;
        f(x, x) += f(x, 0) + f(x, 1);
        f(x, y) = count_ninety_nine(f(x, y));
        g(x, y) = f(x, y) + f(x, y - 1) + f(x, y - 2);
        f.store_root().compute_at(g, y);
        reset_indexed();
        Buffer<int> out = g.realize({2, 10});
        // No sliding: 3 rows of 2 for each of the 10 rows, as Halide.
        CHECK(indexed_counts()[0] == 60);
        for (int yy = 0; yy < 10; yy++) {
            for (int xx = 0; xx < 2; xx++) CHECK(out(xx, yy) == 99 * 3);
        }
    }
}
