// Sizes and coordinates at the ends of what 32 and 64 bits hold: each either computes the
// right answer or stops with a clear error, never wraps around.
#include <algorithm>
#include <climits>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

TEST_CASE("a Buffer whose strides would not fit in 32 bits is refused before allocating") {
    std::string msg = compile_error_of([] { Buffer<float> b({1 << 22, 1 << 22, 1 << 22}, "huge"); });
    INFO(msg);
    CHECK(contains(msg, "Buffer 'huge'"));
    CHECK(contains(msg, "stride of 17592186044416 elements in dimension 2"));
    float dummy = 0;
    msg = compile_error_of([&] { Buffer<float> b(&dummy, {1 << 16, 1 << 16, 2}, "wrapped"); });
    INFO(msg);
    CHECK(contains(msg, "Buffer 'wrapped'"));
    CHECK(contains(msg, "dimension 2"));
}

TEST_CASE("a Buffer too large to allocate is refused with its size") {
    std::string msg = compile_error_of([] { Buffer<double> b({1 << 30, 1 << 20}, "big"); });
    INFO(msg);
    CHECK(contains(msg, "Buffer 'big'"));
    CHECK(contains(msg, "1 TiB"));
}

TEST_CASE("realize(sizes) too large to allocate names the Func (its buffers have generated names)") {
    Func f("fbig");
    Var x("x"), y("y");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.realize({1 << 30, 1 << 30}); });
    INFO(msg);
    CHECK(contains(msg, "realize of Func 'fbig'"));
    CHECK(contains(msg, "1 TiB"));
}

TEST_CASE("a buffer of more than 2^31 elements is indexed with 64 bits") {
    // 2^31 + 2^16 one-byte elements (2 GiB), wrapped: only the last rows are touched.
    const int w = 1 << 16, h = (1 << 15) + 1;
    // calloc: the pages stay untouched (and unallocated) until the test writes them.
    std::unique_ptr<uint8_t, void (*)(void *)> owner(static_cast<uint8_t *>(std::calloc(size_t(w) * h, 1)), &std::free);
    if (!owner) {
        MESSAGE("not enough memory to run this test");
        return;
    }
    uint8_t *mem = owner.get();
        Var x("x"), y("y");
    Func f("f");
    f(x, y) = cast<uint8_t>(x + y);
    f.vectorize(x, 16);
    // Realize only the last 3 rows (a crop with the same strides), past element 2^31.
    Buffer<uint8_t> tail(mem + size_t(w) * (h - 3), {w, 3}, "tail");
    tail.set_min(0, h - 3);
    f.realize(tail);
    CHECK(mem[size_t(w) * (h - 1) + 5] == uint8_t(5 + h - 1));
    // The whole buffer through a consumer reading two rows apart: flat offsets beyond 2^31.
    Func g("g");
    ImageParam in(UInt(8), 2, "in");
    g(x, y) = in(x, y) + in(x, y - (h - 2));
    in.set(Buffer<uint8_t>(mem, {w, h}, "big_in"));
    Buffer<uint8_t> small(4, 1);
    small.set_min(w - 4, h - 1);
    g.realize(small);
    for (int i = 0; i < 4; i++) {
        int xx = w - 4 + i;
        CHECK(small(xx, h - 1) == uint8_t(mem[size_t(w) * (h - 1) + xx] + mem[size_t(w) * 1 + xx]));
    }
}

TEST_CASE("an output ending at INT_MAX is computed to its last element") {
    Var x("x"), xo("xo"), xi("xi");
    for (int schedule = 0; schedule < 3; schedule++) {
        Func f("f");
        f(x) = x / 2;
        if (schedule == 1) f.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
        if (schedule == 2) f.vectorize(x, 8, TailStrategy::GuardWithIf);
        Buffer<int> out(20);
        out.set_min(INT_MAX - 19);
        f.realize(out);
        INFO("schedule " << schedule);
        CHECK(out(INT_MAX) == INT_MAX / 2);
        CHECK(out(INT_MAX - 19) == (INT_MAX - 19) / 2);
    }
}

TEST_CASE("a producer computed inside a GuardWithIf-vectorized output ending at INT_MAX") {
    // The last vector is partial. Its producer's region ends at INT_MAX; a bound of it once
    // took the form f.min + 16 + 7 (the vector's would-be end) and overflowed 32 bits there, a
    // false "does not fit in 32 bits" error.
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x / 4 + y;
    f(x, y) = g(x, y) * 2;
    f.vectorize(x, 8, TailStrategy::GuardWithIf).vectorize(y, 2, TailStrategy::GuardWithIf);
    g.compute_at(f, Var("y_vi"));
    Buffer<int> out(22, 3);
    out.set_min(INT_MAX - 21, 4);
    f.realize(out);
    halo_test::check_all<int>(out, [](const std::vector<int> &c) { return (c[0] / 4 + c[1]) * 2; });
}

TEST_CASE("an output at the bottom of the int32 range") {
    Var x("x");
    Func f("f");
    f(x) = x % 7;
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    Buffer<int> out(21);
    out.set_min(INT_MIN);
    f.realize(out);
    for (int i = 0; i < 21; i++) CHECK(out(INT_MIN + i) == int(((int64_t(INT_MIN) + i) % 7 + 7) % 7));
}

TEST_CASE("producers realized at a constant min of INT_MIN are indexed from it") {
    // bound() makes the realizations' mins the constant INT_MIN, so an index x - INT_MIN is
    // folded: it is x + 2^31, which the simplifier once wrote x + INT_MIN, and widened to 64
    // bits that indexed 2^32 elements before the buffer (fuzz seed 115653 segfaulted).
    Buffer<int> in(std::vector<int>{24}, "in");
    halo_test::fill_random(in, -50, 50, 6);
    for (int variant = 0; variant < 2; variant++) {
        Var x("x"), xo("xo"), xi("xi");
        Func clamped("clamped"), g("g"), f("f");
        clamped(x) = in(clamp(x, 0, 23));
        g(x) = clamped(x) * 4;
        f(x) = select(g(x) > clamped(x), g(x), clamped(x + 1) - 1);
        clamped.compute_root();
        g.compute_root();
        if (variant == 1) g.split(x, xo, xi, 5, TailStrategy::GuardWithIf).vectorize(xi);
        f.bound(x, INT_MIN, 9);
        Buffer<int> out(9);
        out.set_min(INT_MIN);
        INFO("variant " << variant);
        halo_test::check_against_reference(f, out);
    }
}

TEST_CASE("a stencil reaching past INT_MAX is a clear error, not a wrapped bounds check") {
    Buffer<int> in(std::vector<int>{16}, "in");
    in.fill(1);
    in.set_min(INT_MAX - 15);
    Var x("x");
    Func f("f");
    f(x) = in(x) + in(x + 1);
    Buffer<int> out(16);
    out.set_min(INT_MAX - 15);
    std::string msg = runtime_error_of([&] { f.realize(out); });
    INFO(msg);
    // The range needed is printed as it is, not wrapped to [2147483632, -2147483648].
    CHECK(contains(msg, "input 'in' covers dimension 0 in [2147483632, 2147483647], but producing output 'f' "
                        "needs [2147483632, 2147483648] of it"));
    // One element less fits.
    Buffer<int> out2(15);
    out2.set_min(INT_MAX - 15);
    CHECK_NOTHROW(f.realize(out2));
    CHECK(out2(INT_MAX - 1) == 2);
}

TEST_CASE("an input check whose bound is a let of bounds inference is computed without wrapping") {
    // The output claims 2^30 + 1 columns (its memory holds 200: nothing may be written before
    // the checks). Per tile of 16, g covers 17 columns, its vector loop rounded up to 4: the
    // last tile's g ends past INT32_MAX in 32 bits, in a let of the input check's bound, which
    // wrapped and let the check pass (then the pipeline wrote far outside the output).
    std::vector<uint8_t> in_memory(100 * 100, 7), out_memory(200 * 20, 0);
    for (int columns : {(1 << 30) + 1, INT_MAX - 100}) {
        CAPTURE(columns);
        halo_dimension_t in_shape[2] = {{-50, 100, 1, 0}, {-50, 100, 100, 0}};
        halo_dimension_t out_shape[2] = {{0, columns, 1, 0}, {0, 20, 200, 0}};
        Buffer<uint8_t> in(in_memory.data(), 2, in_shape), out(out_memory.data(), 2, out_shape);
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        Func g("g"), f("f");
        g(x, y) = cast<int16_t>(in(x - 1, y)) + in(x + 1, y);
        f(x, y) = cast<uint8_t>(g(x, y) + g(x + 1, y));
        f.tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::GuardWithIf);
        g.compute_at(f, xo).vectorize(x, 4, TailStrategy::GuardWithIf);
        std::string msg = runtime_error_of([&] { f.realize(out); });
        INFO(msg);
        CHECK(contains(msg, "covers dimension 0 in [-50, 49], but producing output 'f' needs [-1, " +
                                std::to_string(int64_t(columns) + 1) + "] of it"));
        CHECK(std::all_of(out_memory.begin(), out_memory.end(), [](uint8_t v) { return v == 0; }));
    }
}

TEST_CASE("an offset of 2^31 - 1 from a coordinate near the top is caught by the bounds checks") {
    Buffer<int> in(std::vector<int>{100}, "in");
    in.fill(3);
    Var x("x");
    Func f("f");
    f(x) = in(x + INT_MAX);  // wraps for every x > 0: the check must see that
    Buffer<int> out(10);
    out.set_min(1);
    std::string msg = runtime_error_of([&] { f.realize(out); });
    INFO(msg);
    CHECK(contains(msg, "input 'in' covers dimension 0 in [0, 99], but producing output 'f' needs "
                        "[2147483648, 2147483657] of it"));
}

TEST_CASE("an RDom whose last value is past INT_MAX is refused") {
    Var x("x");
    std::string msg = compile_error_of([&] { RDom r(INT_MAX - 5, 10, "late"); });
    INFO(msg);
    CHECK(contains(msg, "RDom 'late'"));
    CHECK(contains(msg, "largest 32-bit coordinate"));
    // At run time, through a Param.
    Param<int> start("start");
    RDom r(start, 10, "dyn");
    Func f("f");
    f(x) = 0;
    f(x) += r;
    start.set(INT_MAX - 5);
    msg = runtime_error_of([&] { f.realize({1}); });
    INFO(msg);
    CHECK(contains(msg, "RDom variable dyn.x"));
    start.set(INT_MAX - 9);  // the last value is exactly INT_MAX: fine (the sum wraps; use int64)
    Func g("g");
    g(x) = cast<int64_t>(0);
    g(x) += cast<int64_t>(r);
    Buffer<int64_t> o = g.realize({1});
    int64_t expect = 0;
    for (int i = 0; i < 10; i++) expect += int64_t(INT_MAX - 9) + i;
    CHECK(o(0) == expect);
}

TEST_CASE("split factors near 2^30 compute the right values or stop with an error") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f"), g("g");
    f(x) = x * 3;
    g(x) = f(x) + 1;
    f.compute_root().split(x, xo, xi, 1 << 30, TailStrategy::GuardWithIf);
    g.split(x, xo, xi, (1 << 30) + 7, TailStrategy::GuardWithIf);
    Buffer<int> out = g.realize({10});
    for (int i = 0; i < 10; i++) CHECK(out(i) == 3 * i + 1);
    // RoundUp grows a producer's region to whole tiles: near INT_MAX that region does not fit
    // in 32 bits, which is an error before anything is allocated or computed.
    Func f2("f2"), g2("g2");
    f2(x) = x;
    g2(x) = f2(x);
    f2.compute_root().split(x, xo, xi, 1 << 30, TailStrategy::RoundUp);
    Buffer<int> o2(4);
    o2.set_min(INT_MAX - 3);
    std::string msg = runtime_error_of([&] { g2.realize(o2); });
    INFO(msg);
    CHECK(contains(msg, "does not fit in 32 bits"));
    // Away from the top, the same schedule works on a small region (it computes one tile of 2^30
    // points... so use a factor that keeps the test small).
    Func f3("f3"), g3("g3");
    f3(x) = x;
    g3(x) = f3(x);
    f3.compute_root().split(x, xo, xi, 1 << 12, TailStrategy::RoundUp);
    Buffer<int> o3(4);
    o3.set_min(INT_MAX - (1 << 13));
    g3.realize(o3);
    CHECK(o3(INT_MAX - (1 << 13) + 3) == INT_MAX - (1 << 13) + 3);
}

TEST_CASE("an allocation whose size overflows 64 bits is an out-of-memory error") {
    Param<int> n("n");
    Var x("x"), y("y"), z("z");
    Func f("f"), g("g");
    f(x, y, z) = x + y + z;
    g(x, y, z) = f(x * n, y * n, z * n);
    f.compute_root();
    n.set(1 << 29);  // f is needed over [0, 2^29] in each of 3 dimensions: 2^87 elements
    std::string msg = runtime_error_of([&] { g.realize({2, 2, 2}); });
    INFO(msg);
    CHECK(contains(msg, "out of memory: 'f' would need more than 2^63 bytes"));
}

// Found by the randomized test: a select arm reads a producer at x + 1, so the producer is
// needed one past INT_MAX. Bounds that wrap there must stop the pipeline with a message,
// whether the producer is computed once (the simplifier folds its last coordinate into an
// extent), per row of a vectorized consumer (per-tile bounds), or inside a tile.
TEST_CASE("a producer needed one past INT_MAX through a select arm is a clear error") {
    Buffer<int> in(std::vector<int>{24}, "in");
    in.fill(7);
    for (int variant = 0; variant < 3; variant++) {
        Var x("x"), y("y");
        Func clamped("clamped"), g("g"), f("f");
        clamped(x, y) = in(clamp(Expr(x), 0, 23)) + y;
        g(x, y) = select(clamped(x, y) > 100, clamped(x, y), clamped(x + 1, y) - 1);
        f(x, y) = g(x, y) * 2;
        if (variant == 0) {
            g.compute_root();
            clamped.compute_root();
        } else if (variant == 1) {
            // (clamped is computed too: inlined, its x + 1 would be an overflow inside an index
            // expression, which, as in Halide, is the program's undefined behaviour, not a
            // region Halo checks; this case once failed only because a loose bound of the
            // vectorized tail, f.min + 16 + 7, overflowed where the region itself does not.)
            f.vectorize(x, 8, TailStrategy::GuardWithIf).vectorize(y, 2, TailStrategy::GuardWithIf);
            g.compute_at(f, Var("y_vi"));
            clamped.compute_at(f, Var("y_vi"));
        } else {
            g.compute_at(f, y).store_at(f, y).unroll(x, 2, TailStrategy::GuardWithIf);
            clamped.compute_at(g, Var("x_ui"));
        }
        Buffer<int> out(22, 1);
        out.set_min(INT_MAX - 21, 4);
        std::string msg = runtime_error_of([&] { f.realize(out); });
        INFO("variant " << variant << ": " << msg);
        CHECK(contains(msg, "does not fit in 32 bits, or its 32-bit computation wraps around"));
    }
}

TEST_CASE("a clamped index whose product wraps in 32 bits is an error, not a read outside the region") {
    // x * y * 65535 wraps in 32 bits at these coordinates, at run time too, so the clamped index
    // can be anywhere in [-1000, 1000]. The exact (64-bit) bounds of the product clamp to
    // [-1000, -1000], which p would then cover alone: a read outside p. The wrapped 32-bit
    // bounds are no better. Halo refuses the bound, as it does an unclamped one.
    Var x("x"), y("y"), i("i");
    Func p("p"), f("f"), g("g");
    p(i) = i * 3 + 1;
    p.compute_root();
    f(x, y) = p(clamp(x * y * 65535, -1000, 1000));
    g(x, y) = p(x * y * 65535);
    Buffer<int> out(3, 2);
    out.set_min(-30000, 200);
    // The clamped bound is exact (-1000) but its 32-bit computation wraps; the unclamped one is
    // out of range.
    const char *refused_bound[] = {"the bound p.s0.i.max of this call (exactly -1000)",
                                   "the bound p.s0.i.min of this call (exactly -395176050000)"};
    Func *funcs[] = {&f, &g};
    for (int k = 0; k < 2; k++) {
        std::string msg = runtime_error_of([&] { funcs[k]->realize(out); });
        INFO(msg);
        CHECK(contains(msg, refused_bound[k]));
        CHECK(contains(msg, "does not fit in 32 bits, or its 32-bit computation wraps around"));
    }
    // Where nothing wraps, the same pipeline runs.
    Buffer<int> small(3, 2);
    small.set_min(-3, 1);
    f.realize(small);
    for (int yy = 1; yy < 3; yy++) {
        for (int xx = -3; xx < 0; xx++) CHECK(small(xx, yy) == std::max(xx * yy * 65535, -1000) * 3 + 1);
    }
}
