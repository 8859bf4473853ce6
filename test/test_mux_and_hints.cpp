// mux() and the value-preserving hints (likely_if_innermost, strict_float,
// unsafe_promise_clamped), fast_integer_divide / _modulo, as Halide defines them.
#include <cmath>

#include "TestUtil.h"

using namespace halo;
using halo_test::check_all;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("mux picks the value of the index, and the last one out of range") {
    Var x("x"), c("c");
    Func f("f");
    f(x, c) = mux(c, {x, x * 10, x * 100});
    f.vectorize(x, 8);
    Buffer<int> out(13, 6);
    out.set_min(-3, -2);  // c from -2 to 3: -2, -1 and 3 are out of range
    f.realize(out);
    check_all<int>(out, [](const std::vector<int> &p) {
        int x = p[0], c = p[1];
        return c == 0 ? x : c == 1 ? x * 10 : x * 100;
    });
    Buffer<> ref(Int(32), {13, 6});
    ref.set_min({-3, -2});
    reference_realize(f, ref);
    CHECK(halo_test::compare(out, ref).empty());
}

// Past 8 values mux is a balanced tree of selects in a range check: the same values, for every
// index in and out of range, of signed and unsigned indices, vectorized or not.
TEST_CASE("mux of many values: every index in range picks its value, any other the last") {
    for (int n : {9, 10, 17, 300, 1200}) {
        CAPTURE(n);
        Var x("x");
        std::vector<Expr> values;
        for (int i = 0; i < n; i++) values.push_back(x * 7 + i * 3);
        Func f("f"), g("g");
        f(x) = mux(x, values);  // int32 index
        g(x) = mux(cast<uint8_t>(x), values);  // indices past 255 never taken
        if (n % 2) f.vectorize(x, 8);
        Buffer<int> fo(n + 10), go(n + 10);
        fo.set_min(-5);
        go.set_min(-5);
        f.realize(fo);
        g.realize(go);
        for (int k = -5; k < n + 5; k++) {
            CAPTURE(k);
            const int want = k >= 0 && k < n ? k * 7 + k * 3 : k * 7 + (n - 1) * 3;
            CHECK(fo(k) == want);
            const int u = uint8_t(k);  // the uint8 index, wrapped
            const int picked = u < n - 1 ? u : n - 1;
            CHECK(go(k) == k * 7 + picked * 3);
        }
    }
}

TEST_CASE("mux of a uint8 index and of Tuples") {
    Var x("x");
    Func f("f"), g("g");
    Expr i = cast<uint8_t>(x % 4);
    f(x) = mux(i, {1.5f, 2.5f, 3.5f});
    g(x) = mux(cast<int>(x % 3), std::vector<Tuple>{Tuple(x, 1.0f), Tuple(x * 2, 2.0f), Tuple(x * 3, 3.0f)});
    Buffer<float> fo = f.realize({9});
    for (int k = 0; k < 9; k++) CHECK(fo(k) == (k % 4 == 0 ? 1.5f : k % 4 == 1 ? 2.5f : 3.5f));
    Realization r = g.realize({7});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int k = 0; k < 7; k++) {
        CHECK(a(k) == k * (k % 3 + 1));
        CHECK(b(k) == float(k % 3 + 1));
    }
}

TEST_CASE("a select or mux on a constant condition reads only the side it takes") {
    // The input holds [0, 9]; the side not taken reads [100, 107]. As in Halide (whose
    // simplifier folds the condition), that read is never made, so it asks nothing of the input.
    Buffer<int> in(10);
    for (int i = 0; i < 10; i++) in(i) = i;
    Var x("x");
    Func a("a"), b("b"), c("c"), d("d");
    a(x) = select(Expr(0) == 0, x * 2, in(x + 100));
    b(x) = mux(0, {x * 2, in(x + 100)});
    c(x) = select(Expr(3) > 4, in(x + 100), in(x) + x);  // the false side: in(x) only
    d(x) = in(select(Expr(1) < 2, x, x + 100));           // an index: only x
    for (Func f : {a, b, c, d}) {
        CAPTURE(f.name());
        Buffer<int> out(8);
        REQUIRE_NOTHROW(f.realize(out));
        for (int i = 0; i < 8; i++) CHECK(out(i) == (f.name() == "d" ? i : 2 * i));
    }
}

TEST_CASE("mux errors name the mismatch") {
    Var x("x");
    std::string msg = compile_error_of([&] { mux(x, {x, 1.5f}); });
    CHECK(contains(msg, "value 1 (1.5f) has type float32 but value 0 (x) has type int32"));
    msg = compile_error_of([&] { mux(x, std::vector<Expr>{}); });
    CHECK(contains(msg, "give at least one value"));
    msg = compile_error_of([&] { mux(cast<float>(x), {x, x}); });
    CHECK(contains(msg, "give an integer index"));
    msg = compile_error_of([&] { mux(x, std::vector<Tuple>{Tuple(x, x), Tuple(x, x, x)}); });
    CHECK(contains(msg, "Tuple 1 has 3 elements but Tuple 0 has 2"));
}

TEST_CASE("likely_if_innermost and strict_float leave values as they are") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = select(likely_if_innermost(x > 2), x, -x);
    Expr a = cast<float>(x) * 0.1f;
    g(x) = strict_float(a * a + 1e-3f);
    g.vectorize(x, 16);
    Buffer<int> fo = f.realize({10});
    for (int k = 0; k < 10; k++) CHECK(fo(k) == (k > 2 ? k : -k));
    Buffer<float> go = g.realize({100});
    for (int k = 0; k < 100; k++) {
        volatile float v = float(k) * 0.1f;
        volatile float sq = v * v;  // rounded before the add: no fused multiply-add
        CHECK(go(k) == sq + 1e-3f);
    }
}

TEST_CASE("strict_float is not contracted into a fused multiply-add in the generated code") {
    Var x("x");
    ImageParam in(Float(32), 1, "in");
    Func g("g");
    g(x) = strict_float(in(x) * in(x + 1) + in(x + 2));
    g.vectorize(x, 16);
    std::string ll = g.llvm_ir();
    CHECK(!contains(ll, "fmul contract"));
    CHECK(!contains(ll, "@llvm.fma"));
    CHECK(contains(ll, "fmul <16 x float>"));
}

TEST_CASE("unsafe_promise_clamped bounds a data-dependent read") {
    Var x("x");
    ImageParam idx(Int(32), 1, "idx"), lut(Float(32), 1, "lut");
    Func f("f");
    f(x) = lut(unsafe_promise_clamped(idx(x), 0, 15));
    Buffer<int> ib(50);
    for (int k = 0; k < 50; k++) ib(k) = (k * 7) % 16;
    Buffer<float> lb(16);
    for (int k = 0; k < 16; k++) lb(k) = float(k) * 0.5f;
    idx.set(ib);
    lut.set(lb);
    Buffer<float> out = f.realize({50});
    for (int k = 0; k < 50; k++) CHECK(out(k) == float((k * 7) % 16) * 0.5f);
    // Without the promise the lookup table's region cannot be bounded.
    Func g("g");
    g(x) = lut(idx(x));
    std::string msg = compile_error_of([&] { g.realize({50}); });
    CHECK(contains(msg, "lut"));
}

TEST_CASE("unsafe_promise_clamped bounds of another type count where they convert without loss") {
    Var x("x");
    Func f("f");
    f(x) = unsafe_promise_clamped(cast<uint8_t>(x), 0, 200);
    Buffer<uint8_t> out = f.realize({10});
    for (int k = 0; k < 10; k++) CHECK(out(k) == k);
    // -1 is no uint8 and a Param<int> no uint8 Expr: that side has no promise (Halide's rule).
    Param<int> p("p");
    Expr e = unsafe_promise_clamped(cast<uint8_t>(x), -1, p);
    const Call *c = e.as<Call>();
    REQUIRE(c);
    CHECK(is_const(c->args[1], 0));
    CHECK(is_const(c->args[2], 255));
}

TEST_CASE("fast_integer_divide and fast_integer_modulo are / and % of a uint8 denominator") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    Expr den = cast<uint8_t>(y + 1);
    f(x, y) = fast_integer_divide(cast<int16_t>(x - 50), den);
    g(x, y) = fast_integer_modulo(cast<uint32_t>(x * 977), den);
    f.vectorize(x, 16);
    Buffer<int16_t> fo = f.realize({100, 7});
    Buffer<uint32_t> go = g.realize({100, 7});
    for (int d = 1; d <= 7; d++) {
        for (int k = 0; k < 100; k++) {
            int n = k - 50;
            int q = n / d - ((n % d) < 0 ? 1 : 0);  // floor, as Halo's /
            CHECK(fo(k, d - 1) == q);
            CHECK(go(k, d - 1) == uint32_t(k * 977) % uint32_t(d));
        }
    }
    std::string msg = compile_error_of([&] { fast_integer_divide(x, y); });
    CHECK(contains(msg, "the denominator has type int32; give a uint8"));
}

TEST_CASE("fast_integer_divide and _modulo of every 8-bit numerator by every denominator, 0 meaning 256") {
    // As Halide 14 computes them (checked against it): int8 numerators by denominators of 128
    // and more (int8 -128 / 200 is -1, once 1 when the denominator was read as an int8), and
    // a denominator of 0 dividing by 256 while the remainder is the numerator.
    Var x("x"), y("y");
    auto floor_div = [](int n, int d) { return n / d - ((n % d) != 0 && (n < 0) != (d < 0) ? 1 : 0); };
    for (bool is_signed : {true, false}) {
        INFO("signed numerator: " << is_signed);
        Expr num = is_signed ? cast<int8_t>(x - 128) : cast<uint8_t>(x);
        Func q("q"), r("r");
        q(x, y) = fast_integer_divide(num, cast<uint8_t>(y));
        r(x, y) = fast_integer_modulo(num, cast<uint8_t>(y));
        q.vectorize(x, 16);
        r.vectorize(x, 16);
        Realization qr = q.realize({256, 256}), rr = r.realize({256, 256});
        Buffer<> qb = qr[0], rb = rr[0];
        int wrong = 0;
        for (int d = 0; d < 256; d++) {
            for (int k = 0; k < 256; k++) {
                int n = is_signed ? k - 128 : k;
                int eq = floor_div(n, d == 0 ? 256 : d);
                // In the numerator's type: an int8 remainder of 128 or more wraps (as Halide's).
                int er = d == 0 ? n : n - floor_div(n, d) * d;
                er = is_signed ? int(int8_t(er)) : er;
                bool bad = int(qb.get_as_double({k, d})) != eq || int(rb.get_as_double({k, d})) != er;
                if (bad && wrong < 5) MESSAGE("n " << n << " d " << d << ": " << qb.get_as_double({k, d}) << " " << rb.get_as_double({k, d}) << " expected " << eq << " " << er);
                wrong += bad;
            }
        }
        CHECK(wrong == 0);
        halo_test::check_against_reference(q, Buffer<>(q.output_type(), {256, 256}));
        halo_test::check_against_reference(r, Buffer<>(r.output_type(), {256, 256}));
    }
}

TEST_CASE("strict_float holds for shared subexpressions that are lifted out of it") {
    Var x("x");
    ImageParam in(Float(32), 1, "in");
    Func g("g");
    Expr q = in(x) * in(x + 1) + in(x + 2);
    Expr e = q;
    for (int i = 0; i < 5; i++) e = e * e + q;  // q and each step shared: lifted into lets
    g(x) = strict_float(e);
    g.vectorize(x, 16);
    std::string ll = g.llvm_ir();
    CHECK(!contains(ll, "@llvm.fma"));
    CHECK(!contains(ll, "fmul contract"));
    Buffer<float> b(40);
    for (int k = 0; k < 40; k++) b(k) = 0.37f + 0.013f * float(k);
    in.set(b);
    Buffer<float> out = g.realize({32});
    for (int k = 0; k < 32; k++) {
        volatile float p = b(k) * b(k + 1);  // rounded before each add: no fused multiply-add
        volatile float qv = p + b(k + 2);
        float v = qv;
        for (int i = 0; i < 5; i++) {
            volatile float sq = v * v;
            volatile float next = sq + qv;
            v = next;
        }
        CHECK(out(k) == v);
    }
}
