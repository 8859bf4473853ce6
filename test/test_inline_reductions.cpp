// Inline reductions over a named RDom (Halide's sum(r, e) and the others): RVars of other
// RDoms stay free for an outer reduction; saturating_sum; and the error for an expression over
// several RDoms without saying which; argmin/argmax as one Tuple reduction.
#include <algorithm>
#include <climits>

#include "TestUtil.h"

using namespace halo;
using halo_test::check_all;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("nested inline reductions over named RDoms: the outer one reduces over the free RVar") {
    Var x("x"), y("y");
    RDom r1(0, 10, "r1"), r2(0, 10, "r2"), r3(0, 10, "r3");
    Func f("f");
    // (Halide's ambiguous_inline_reductions: a product over r3 of two sums.)
    f(x, y) = product(sum(r1, r1 + r3) + sum(r2, r2 * 2 + r3)) % 1000003 + x + y;
    Buffer<int> out = f.realize({3, 2});
    long long p = 1;
    for (int c = 0; c < 10; c++) {
        int s1 = 0, s2 = 0;
        for (int a = 0; a < 10; a++) s1 += a + c;
        for (int b = 0; b < 10; b++) s2 += b * 2 + c;
        p = int32_t(uint32_t(p) * uint32_t(s1 + s2));  // int32 wraps as the product does
    }
    int want = int((p % 1000003 + 1000003) % 1000003);
    check_all<int>(out, [&](const std::vector<int> &c) { return want + c[0] + c[1]; });
}

TEST_CASE("an inline reduction over RVars of two RDoms says which to choose") {
    Var x("x");
    RDom r1(0, 10, "r1"), r2(0, 10, "r2");
    Func f("f");
    std::string msg = compile_error_of([&] { f(x) = sum(r1 + r2 + x); });
    CHECK(contains(msg, "refers to RVars of several RDoms (r1, r2): say which one it reduces over, as in sum(r1, ...)"));
    msg = compile_error_of([&] { f(x) = sum(r1, x * 2); });
    CHECK(contains(msg, "sum(r1, (x * 2)): the expression uses no RVar of RDom 'r1'"));
}

TEST_CASE("maximum, minimum and argmax over a named RDom with another RDom free") {
    Var x("x");
    RDom r(0, 6, "r"), s(1, 4, "s");
    Func f("f"), g("g"), h("h");
    Expr e = (r - 2 * s) * (r - 2 * s) + x;
    f(x) = sum(maximum(r, e));  // sum over s of the maximum over r
    g(x) = minimum(s, minimum(r, e));
    Tuple am = argmax(r, -(r - s) * (r - s));  // peaks at r == s: s stays free
    h(x) = sum(am[0] * 10 - s + x * 0);       // sum over s of (10 s - s)
    Buffer<int> fo = f.realize({4}), go = g.realize({4}), ho = h.realize({2});
    for (int k = 0; k < 4; k++) {
        int sum_max = 0, min_all = INT_MAX;
        for (int b = 1; b < 5; b++) {
            int mx = INT_MIN;
            for (int a = 0; a < 6; a++) {
                int v = (a - 2 * b) * (a - 2 * b) + k;
                mx = std::max(mx, v);
                min_all = std::min(min_all, v);
            }
            sum_max += mx;
        }
        CHECK(fo(k) == sum_max);
        CHECK(go(k) == min_all);
    }
    CHECK(ho(0) == 9 * (1 + 2 + 3 + 4));
}

TEST_CASE("saturating_sum clamps at each step in every integer type") {
    Var x("x");
    RDom r(0, 8, "r");
    Func a("a"), b("b"), c("c"), d("d"), e("e");
    a(x) = saturating_sum(cast<uint8_t>(x * 20 + r));                // uint8: up to 255
    b(x) = saturating_sum(cast<int8_t>(select(x == 0, 100, -100) + r * 0));  // int8 both ways
    c(x) = saturating_sum(select(x == 0, Expr(int64_t(INT64_MAX / 4)), Expr(int64_t(INT64_MIN / 4))) + cast<int64_t>(r * 0));
    d(x) = saturating_sum(Expr(uint64_t(UINT64_MAX / 5)) + cast<uint64_t>(x + r * 0));
    e(x) = saturating_sum(cast<float>(r) * 0.5f + cast<float>(x));
    Buffer<uint8_t> ao = a.realize({3});
    Buffer<int8_t> bo = b.realize({2});
    Buffer<int64_t> co = c.realize({2});
    Buffer<uint64_t> dout = d.realize({2});
    Buffer<float> eo = e.realize({2});
    for (int k = 0; k < 3; k++) {
        int s = 0;
        for (int i = 0; i < 8; i++) s = std::min(255, s + k * 20 + i);
        CHECK(ao(k) == s);
    }
    CHECK(bo(0) == 127);
    CHECK(bo(1) == -128);
    CHECK(co(0) == INT64_MAX);
    CHECK(co(1) == INT64_MIN);
    CHECK(dout(0) == UINT64_MAX);
    CHECK(eo(1) == 14.0f + 8.0f);
}

TEST_CASE("an inline reduction of an expression graph whose tree is exponential is quick") {
    Var y("y");
    RDom r(0, 3, "r");
    Expr yu = cast<uint32_t>(y), ru = cast<uint32_t>(r);
    Expr e = yu;
    for (int i = 1; i < 40; i++) e = e * e + yu + ru;  // a tree of 2^40 nodes, a graph of 120
    Func f("f");
    f(y) = sum(e);
    Buffer<uint32_t> out = f.realize({2});
    // (uint32 wraps, as here.)
    for (int yv = 0; yv < 2; yv++) {
        uint32_t total = 0;
        for (int rv = 0; rv < 3; rv++) {
            uint32_t v = uint32_t(yv);
            for (int i = 1; i < 40; i++) v = v * v + uint32_t(yv) + uint32_t(rv);
            total += v;
        }
        CHECK(uint32_t(out(yv)) == total);
    }
}

TEST_CASE("argmin and argmax leave the coordinates 0 where no point beats the type's extreme, as in Halide") {
    // Halide starts from coordinates 0 and the type's extreme value, and takes a point only where
    // its value is strictly better: a where() that empties the domain (x >= 7 here), or values
    // all equal to the type's lowest (for argmax), leave the coordinates 0. Halo's coordinate was
    // decoded from its "not found" index (10, outside the RDom) or was the first point (5).
    Buffer<int> in(64);
    for (int i = 0; i < 64; i++) in(i) = (i * 37) % 101 - 50;
    Var x("x");
    RDom r(3, 10, "r");
    r.where(r < 10 - x);
    Func f("f");
    f(x) = argmin(in(r + x));
    Realization found = f.realize({9});
    Buffer<int> at = found[0], value = found[1];
    for (int i = 0; i < 9; i++) {
        CAPTURE(i);
        int best = INT_MAX, best_at = 0;
        for (int k = 3; k < 13 && k < 10 - i; k++) {
            if (in(k + i) < best) best = in(k + i), best_at = k;
        }
        CHECK(value(i) == best);
        CHECK(at(i) == best_at);
    }
    RDom s(5, 10, "s");
    Func g("g");
    g(x) = argmax(in(s) * 0 + INT_MIN + x);
    Realization lowest = g.realize({2});
    Buffer<int> g_at = lowest[0], g_value = lowest[1];
    CHECK(g_at(0) == 0);  // every value INT_MIN: none beats the initial value
    CHECK(g_value(0) == INT_MIN);
    CHECK(g_at(1) == 5);  // INT_MIN + 1 everywhere: the first point
    CHECK(g_value(1) == INT_MIN + 1);
}

TEST_CASE("argmin of a Func computed at the RVar loop of the consumer's update compiles and matches C++") {
    // Follows Halide's side_effects (a Mandelbrot escape count): the Func argmin reads is
    // computed at the loop of the RVar whose point needs it. Halo's argmin was two reductions (the
    // best value, then the first index reaching it), and the value one was placed outside that
    // loop, so this valid program was refused ("'r7_argmin_value' uses it outside that loop").
    // Now it is one Tuple-valued reduction, as Halide's.
    Var x("x"), y("y"), z("z");
    Func m("m");
    m(x, y, z) = (x * 3 + y * 5 + z * 7 + 100) % 11;
    RDom t(1, 6, "t");
    Func escape("escape");
    Tuple first = argmin(m(x, y, t) < 6);  // the first t where m is 6 or more
    escape(x, y) = select(first[1], 0, first[0]);
    RDom r(-3, 7, -2, 5, "r");
    Func total("total");
    total() = 0;
    total() = (total() * 7 + escape(r.x, r.y)) % 1000003;
    m.compute_at(total, r.x);
    Buffer<int> out = total.realize(std::vector<int>{});
    int expected = 0;
    for (int b = -2; b < 3; b++) {
        for (int a = -3; a < 4; a++) {
            int at = 0;
            for (int k = 1; k < 7; k++) {
                if ((a * 3 + b * 5 + k * 7 + 100) % 11 >= 6) {
                    at = k;
                    break;
                }
            }
            expected = (expected * 7 + at) % 1000003;
        }
    }
    CHECK(out() == expected);
}
