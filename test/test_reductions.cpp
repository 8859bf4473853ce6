// Update definitions and reductions: chains of updates, histograms, scans, max-reductions,
// inline sum/product/maximum/minimum/argmax/argmin, 2-D RDoms and RDoms bounded by Params.
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace halo;
using halo_test::check_all;
using halo_test::random_image;

namespace {


int ediv(int a, int b) { return int(std::floor(double(a) / b)); }

}  // namespace

TEST_CASE("several update definitions in a row") {
    Var x("x");
    Func f("f");
    f(x) = x;
    f(x) += 5;
    f(x) *= 2;
    f(x) = f(x) - x * x;
    f(x) /= 3;  // Euclidean on negative values
    f(x) -= 1;
    CHECK(f.num_update_definitions() == 5);
    Buffer<int32_t> out(41);
    out.set_min(-20);
    f.realize(out);
    check_all(out, [](const std::vector<int> &c) {
        int v = c[0];
        v = (v + 5) * 2 - c[0] * c[0];
        return double(ediv(v, 3) - 1);
    });
}

TEST_CASE("updates that write single points and an RDom range") {
    Var x("x");
    RDom r(3, 5);
    Func f("f");
    f(x) = 0;
    f(2) = 100;
    f(r) = f(r) + r * 10;
    f(0) = f(2) + f(4);
    Buffer<int32_t> out = f.realize({10});
    std::vector<int> e(10, 0);
    e[2] = 100;
    for (int i = 3; i < 8; i++) e[i] += i * 10;
    e[0] = e[2] + e[4];
    check_all(out, [&](const std::vector<int> &c) { return double(e[c[0]]); });
}

TEST_CASE("histogram of a uint8 image") {
    const int W = 37, H = 29;
    Buffer<uint8_t> input = random_image<uint8_t>({W, H}, 1, 0, 255);
    for (int i = 0; i < W; i++) input(i, 0) = 7;  // a tall bin
    Var x("x");
    RDom r(0, W, 0, H);
    Func hist("hist");
    hist(x) = 0;
    hist(input(r.x, r.y)) += 1;
    Buffer<int32_t> out = hist.realize({256});
    std::vector<int> e(256, 0);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) e[input(i, j)]++;
    check_all(out, [&](const std::vector<int> &c) { return double(e[c[0]]); });
    int total = 0;
    for (int i = 0; i < 256; i++) total += out(i);
    CHECK(total == W * H);
}

TEST_CASE("histogram consumed by a cumulative distribution") {
    const int W = 30, H = 21;
    Buffer<uint8_t> input = random_image<uint8_t>({W, H}, 2, 0, 255);
    ImageParam in(UInt(8), 2, "in");
    in.set(input);
    Var x("x");
    RDom r(0, W, 0, H);
    Func hist("hist"), cdf("cdf");
    hist(x) = 0;
    hist(in(r.x, r.y)) += 1;
    hist.compute_root();
    RDom b(1, 255);
    cdf(x) = hist(x);  // cdf over [0, 256)
    cdf(b) = cdf(b - 1) + hist(b);
    Buffer<int32_t> out = cdf.realize({256});
    std::vector<int> e(256, 0);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) e[input(i, j)]++;
    for (int i = 1; i < 256; i++) e[i] += e[i - 1];
    check_all(out, [&](const std::vector<int> &c) { return double(e[c[0]]); });
    CHECK(out(255) == W * H);
}

TEST_CASE("cumulative sum scan, 1-D and along y of a 2-D image") {
    const int N = 53;
    Buffer<int32_t> input = random_image<int32_t>({N}, 3, -100, 100);
    Var x("x"), y("y");
    Func scan("scan");
    RDom r(1, N - 1);
    scan(x) = input(x);
    scan(r) = scan(r - 1) + scan(r);
    Buffer<int32_t> out = scan.realize({N});
    int acc = 0;
    std::vector<int> e(N);
    for (int i = 0; i < N; i++) e[i] = acc += input(i);
    check_all(out, [&](const std::vector<int> &c) { return double(e[c[0]]); });

    const int W = 13, H = 19;
    Buffer<float> img = random_image<float>({W, H}, 4, -1, 1);
    img.set_min(-4, -9);
    Func col("col");
    RDom ry(-8, H - 1);
    col(x, y) = img(x, y);
    col(x, ry) = col(x, ry - 1) + img(x, ry);
    Buffer<float> o2(W, H);
    o2.set_min(-4, -9);
    col.realize(o2);
    check_all(o2, [&](const std::vector<int> &c) {
        float s = 0;
        for (int j = -9; j <= c[1]; j++) s += img(c[0], j);
        return double(s);
    }, 1e-5);
}

TEST_CASE("max-reduction update per row") {
    const int W = 27, H = 11;
    Buffer<int16_t> input = random_image<int16_t>({W, H}, 5, -30000, 30000);
    Var y("y");
    RDom r(0, W);
    Func m("m");
    m(y) = std::numeric_limits<int16_t>::min();
    m(y) = max(m(y), input(r, y));
    Buffer<int16_t> out = m.realize({H});
    check_all(out, [&](const std::vector<int> &c) {
        int best = -32768;
        for (int i = 0; i < W; i++) best = std::max<int>(best, input(i, c[0]));
        return double(best);
    });
}

TEST_CASE("update with a pure Var and an RVar: column sums") {
    const int W = 17, H = 9;
    Buffer<int32_t> input = random_image<int32_t>({W, H}, 6, -1000, 1000);
    Var x("x");
    RDom r(0, H);
    Func s("s");
    s(x) = 0;
    s(x) += input(x, r);
    Buffer<int32_t> out = s.realize({W});
    check_all(out, [&](const std::vector<int> &c) {
        int t = 0;
        for (int j = 0; j < H; j++) t += input(c[0], j);
        return double(t);
    });
}

TEST_CASE("inline sum over a 3x3 window") {
    const int W = 31, H = 22;
    Buffer<int32_t> input = random_image<int32_t>({W + 2, H + 2}, 7, -500, 500);
    input.set_min(-1, -1);
    Var x("x"), y("y");
    RDom r(-1, 3, -1, 3);
    Func box("box");
    box(x, y) = sum(input(x + r.x, y + r.y));
    Buffer<int32_t> out = box.realize({W, H});
    check_all(out, [&](const std::vector<int> &c) {
        int t = 0;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) t += input(c[0] + dx, c[1] + dy);
        return double(t);
    });
}

TEST_CASE("inline sum, product, maximum, minimum over a 1-D window") {
    const int N = 45, K = 5;
    Buffer<int32_t> input = random_image<int32_t>({N + K}, 8, -3, 3);
    Buffer<float> fin = random_image<float>({N + K}, 9, -10, 10);
    Var x("x");
    RDom r(0, K);
    Func s("s"), p("p"), mx("mx"), mn("mn"), fs("fs"), fmx("fmx");
    s(x) = sum(input(x + r));
    p(x) = product(input(x + r));
    mx(x) = maximum(input(x + r) * 3 - x);
    mn(x) = minimum(input(x + r)) + 1;
    fs(x) = sum(fin(x + r) * 0.5f);
    fmx(x) = maximum(fin(x + r));
    Buffer<int32_t> os = s.realize({N}), op = p.realize({N}), omx = mx.realize({N}), omn = mn.realize({N});
    Buffer<float> ofs = fs.realize({N}), ofmx = fmx.realize({N});
    auto window = [&](int i, const std::function<void(int)> &f) { for (int k = 0; k < K; k++) f(i + k); };
    check_all(os, [&](const std::vector<int> &c) { int t = 0; window(c[0], [&](int j) { t += input(j); }); return double(t); });
    check_all(op, [&](const std::vector<int> &c) { int t = 1; window(c[0], [&](int j) { t *= input(j); }); return double(t); });
    check_all(omx, [&](const std::vector<int> &c) {
        int t = INT32_MIN; window(c[0], [&](int j) { t = std::max(t, input(j) * 3 - c[0]); }); return double(t); });
    check_all(omn, [&](const std::vector<int> &c) {
        int t = INT32_MAX; window(c[0], [&](int j) { t = std::min(t, input(j)); }); return double(t + 1); });
    check_all(ofs, [&](const std::vector<int> &c) { float t = 0; window(c[0], [&](int j) { t += fin(j) * 0.5f; }); return double(t); }, 1e-5);
    check_all(ofmx, [&](const std::vector<int> &c) {
        float t = -INFINITY; window(c[0], [&](int j) { t = std::max(t, fin(j)); }); return double(t); });
}

TEST_CASE("inline reductions whose type is narrow wrap in that type") {
    Buffer<uint8_t> input = random_image<uint8_t>({40}, 10, 100, 255);
    Var x("x");
    RDom r(0, 4);
    Func s("s"), w("w");
    s(x) = sum(input(x + r));  // uint8, wraps
    w(x) = sum(cast<int32_t>(input(x + r)));
    CHECK(s.output_type() == UInt(8));
    Buffer<uint8_t> os = s.realize({36});
    Buffer<int32_t> ow = w.realize({36});
    check_all(os, [&](const std::vector<int> &c) {
        uint8_t t = 0; for (int k = 0; k < 4; k++) t = uint8_t(t + input(c[0] + k)); return double(t); });
    check_all(ow, [&](const std::vector<int> &c) {
        int t = 0; for (int k = 0; k < 4; k++) t += input(c[0] + k); return double(t); });
}

TEST_CASE("a reduction over a whole buffer with no pure Var (0-D inline reduction)") {
    Buffer<int32_t> input = random_image<int32_t>({23, 7}, 11, -50, 50);
    Var x("x");
    RDom r(input);
    Func f("f");
    f(x) = sum(input(r.x, r.y)) * x;
    Buffer<int32_t> out = f.realize({5});
    int t = 0;
    input.for_each_element([&](const std::vector<int> &c) { t += input(c); });
    check_all(out, [&](const std::vector<int> &c) { return double(t * c[0]); });
}

TEST_CASE("argmax and argmin over a row give the FIRST extreme point") {
    const int W = 29, H = 15;
    // Few distinct values, so every row has ties.
    Buffer<int32_t> input = random_image<int32_t>({W, H}, 12, 0, 4);
    Var y("y");
    RDom r(0, W);
    Func amax("amax"), amin("amin");
    amax(y) = argmax(input(r, y))[0];
    amin(y) = argmin(input(r, y))[0];
    Buffer<int32_t> omax = amax.realize({H}), omin = amin.realize({H});
    check_all(omax, [&](const std::vector<int> &c) {
        int best = 0;
        for (int i = 1; i < W; i++) if (input(i, c[0]) > input(best, c[0])) best = i;
        return double(best);
    });
    check_all(omin, [&](const std::vector<int> &c) {
        int best = 0;
        for (int i = 1; i < W; i++) if (input(i, c[0]) < input(best, c[0])) best = i;
        return double(best);
    });
}

TEST_CASE("argmax over a 2-D RDom with a non-zero min") {
    const int W = 12, H = 9, K = 6;
    Buffer<float> img = random_image<float>({W, H, K}, 13, 0, 3);
    img.for_each_value([&](const std::vector<int> &c) { return std::floor(img(c[0], c[1], c[2])); });
    img.set_min(0, 0, 0);
    Var k("k");
    RDom r(2, W - 3, 1, H - 2);  // x in [2, W-2], y in [1, H-2]
    Func ax("ax"), ay("ay");
    Tuple am = argmax(img(r.x, r.y, k));
    REQUIRE(am.size() == 3);  // x, y, then the value (Halide's layout)
    ax(k) = am[0];
    ay(k) = am[1];
    Func av("av");
    av(k) = am[2];
    Buffer<int32_t> ox = ax.realize({K}), oy = ay.realize({K});
    Buffer<float> ov = av.realize({K});
    for (int kk = 0; kk < K; kk++) {
        int bx = 2, by = 1;
        for (int j = 1; j <= H - 2; j++)
            for (int i = 2; i <= W - 2; i++)
                if (img(i, j, kk) > img(bx, by, kk)) bx = i, by = j;
        CHECK_MESSAGE(ox(kk) == bx, "k=" << kk);
        CHECK_MESSAGE(oy(kk) == by, "k=" << kk);
        CHECK_MESSAGE(ov(kk) == img(bx, by, kk), "k=" << kk);
    }
    // The whole Tuple defines a Tuple-valued Func, as in Halide: f(k) = argmax(...).
    Func whole("whole");
    whole(k) = argmin(img(r.x, r.y, k));
    Realization rz = whole.realize({K});
    Buffer<int32_t> wx(rz[0]), wy(rz[1]);
    Buffer<float> wv(rz[2]);
    for (int kk = 0; kk < K; kk++) {
        int bx = 2, by = 1;
        for (int j = 1; j <= H - 2; j++)
            for (int i = 2; i <= W - 2; i++)
                if (img(i, j, kk) < img(bx, by, kk)) bx = i, by = j;
        CHECK_MESSAGE((wx(kk) == bx && wy(kk) == by && wv(kk) == img(bx, by, kk)), "k=" << kk);
    }
}

TEST_CASE("2-D RDom update writing a rectangle") {
    Var x("x"), y("y");
    RDom r(2, 5, -3, 4);
    Func f("f");
    f(x, y) = x * 100 + y;
    f(r.x, r.y) = f(r.x, r.y) * 2 + f(r.x - 1, r.y);
    Buffer<int32_t> out(10, 9);
    out.set_min(0, -4);
    f.realize(out);
    // In iteration order (r.x fastest), f(r.x - 1, r.y) is already updated except at r.x == 2.
    std::vector<std::vector<int>> e(10, std::vector<int>(9));
    for (int j = -4; j < 5; j++)
        for (int i = 0; i < 10; i++) e[i][j + 4] = i * 100 + j;
    for (int j = -3; j < 1; j++)
        for (int i = 2; i < 7; i++) e[i][j + 4] = e[i][j + 4] * 2 + e[i - 1][j + 4];
    check_all(out, [&](const std::vector<int> &c) { return double(e[c[0]][c[1] + 4]); });
}

TEST_CASE("RDom bounded by Params") {
    Buffer<int32_t> input = random_image<int32_t>({100}, 14, -100, 100);
    Param<int> lo("lo"), len("len");
    Var x("x");
    RDom r(lo, len);
    Func f("f");
    f(x) = sum(input(x + r)) + x;
    for (auto [l, n] : std::vector<std::pair<int, int>>{{0, 1}, {0, 7}, {3, 10}, {-2, 5}}) {
        lo.set(l);
        len.set(n);
        Buffer<int32_t> out(50);
        out.set_min(10);
        f.realize(out);
        INFO("lo=" << l << " len=" << n);
        check_all(out, [&](const std::vector<int> &c) {
            int t = 0;
            for (int k = l; k < l + n; k++) t += input(c[0] + k);
            return double(t + c[0]);
        });
    }
    // Update over an RDom with Param bounds.
    Func g("g");
    RDom q(lo, len);
    g(x) = 0;
    g(q) = q * q;
    lo.set(4);
    len.set(6);
    Buffer<int32_t> og = g.realize({12});
    check_all(og, [](const std::vector<int> &c) { return double(c[0] >= 4 && c[0] < 10 ? c[0] * c[0] : 0); });
}

TEST_CASE("a reduction consumed by another Func, inline by default and compute_root") {
    Buffer<float> input = random_image<float>({24, 16}, 15, 0, 1);
    for (int root = 0; root < 2; root++) {
        Var x("x"), y("y");
        RDom r(0, 4);
        Func rowsum("rowsum"), out("out");
        rowsum(x, y) = 0.0f;
        rowsum(x, y) += input(x + r, y);
        out(x, y) = rowsum(x, y) - rowsum(x + 1, y) * 0.5f;
        if (root) rowsum.compute_root();
        Buffer<float> o = out.realize({19, 16});
        auto rs = [&](int i, int j) { float t = 0; for (int k = 0; k < 4; k++) t += input(i + k, j); return t; };
        INFO("root=" << root);
        check_all(o, [&](const std::vector<int> &c) { return double(rs(c[0], c[1]) - rs(c[0] + 1, c[1]) * 0.5f); }, 1e-5);
    }
}

TEST_CASE("sum of two different RDoms in one expression") {
    Buffer<int32_t> a = random_image<int32_t>({30}, 16, -10, 10), b = random_image<int32_t>({30}, 17, -10, 10);
    Var x("x");
    RDom r1(0, 3), r2(0, 5);
    Func f("f");
    f(x) = sum(a(x + r1)) * 100 + sum(b(x + r2));
    Buffer<int32_t> out = f.realize({25});
    check_all(out, [&](const std::vector<int> &c) {
        int s1 = 0, s2 = 0;
        for (int k = 0; k < 3; k++) s1 += a(c[0] + k);
        for (int k = 0; k < 5; k++) s2 += b(c[0] + k);
        return double(s1 * 100 + s2);
    });
}

TEST_CASE("an inline reduction in a Func whose every loop is vectorized goes where that Func is computed") {
    // Halide's resize: kernel_sum_x(x) = sum(...) computed at a loop of its consumer and
    // vectorized across its whole extent. Its reduction cannot go inside a vector loop, and at
    // the root it would be outside the loop where its producer g is computed.
    Var x("x"), k("k");
    RDom r(0, 3, "r");
    Func g("g"), s("s"), h("h");
    g(x, k) = x * 10 + k;
    s(x) = sum(g(x, r));
    h(x, k) = g(x, k) * 100 + s(x);
    g.compute_at(h, x);
    s.compute_at(h, x).vectorize(x);
    h.compute_root().reorder(k, x).vectorize(x, 8);
    Buffer<int> out(20, 3);
    out.set_min(-5, 0);
    halo_test::check_against_reference(h, out);
}

TEST_CASE("has_update_definition, update_args and rvars describe each update, as Halide's do") {
    Var x("x"), y("y");
    RDom r(0, 4, 1, 3, "r");
    Func f("f");
    f(x, y) = x + y;
    CHECK(!f.has_update_definition());
    f(r.x, y) += 1;
    f(x, 0) = f(x, 1) * 2;
    CHECK(f.has_update_definition());
    std::vector<Expr> a0 = f.update_args(0), a1 = f.update_args(1);
    REQUIRE(a0.size() == 2);
    REQUIRE(a1.size() == 2);
    CHECK(to_string(a0[0]) == "r.x");
    CHECK(to_string(a0[1]) == "y");
    CHECK(to_string(a1[1]) == "0");
    std::vector<RVar> rv = f.rvars(0);
    REQUIRE(rv.size() == 2);
    CHECK(rv[0].name() == "r.x");
    CHECK(to_string(rv[1].extent()) == "3");
    CHECK(f.rvars(1).empty());
    // An RVar from rvars() schedules its update like the RDom's own.
    f.update(0).reorder(y, rv[0]);
    Buffer<int32_t> out = f.realize({5, 3});
    // (The update runs once per point of the whole RDom: r.y's 3 values add 3.)
    CHECK(out(2, 1) == 2 + 1 + 3);
    CHECK(out(4, 1) == 5);
    CHECK(out(3, 0) == 2 * (3 + 1 + 3));
    CHECK_THROWS_WITH(f.update_args(2), doctest::Contains("has 2 update definitions; update_args(2) does not exist"));
}
