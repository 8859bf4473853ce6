// Boundary conditions on Buffers, ImageParams and Funcs, realized over regions larger than the
// input (including negative coordinates), against plain C++.
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace halo;
using halo_test::check_all;
using halo_test::random_image;
namespace BC = halo::BoundaryConditions;

namespace {


int clampi(int v, int lo, int hi) { return std::min(std::max(v, lo), hi); }
// Mirror with the edge repeated, period 2n: ... 2 1 0 | 0 1 2 ... n-1 | n-1 n-2 ...
int mirror(int v, int mn, int n) {
    int m = ((v - mn) % (2 * n) + 2 * n) % (2 * n);
    return mn + (m < n ? m : 2 * n - 1 - m);
}

}  // namespace

TEST_CASE("mirror reference helper") {
    CHECK(mirror(-1, 0, 5) == 0);
    CHECK(mirror(-2, 0, 5) == 1);
    CHECK(mirror(5, 0, 5) == 4);
    CHECK(mirror(6, 0, 5) == 3);
    CHECK(mirror(10, 0, 5) == 0);
    CHECK(mirror(-6, 0, 5) == 4);
}

TEST_CASE("repeat_edge on a Buffer") {
    const int W = 13, H = 9;
    Buffer<float> input = random_image<float>({W, H}, 1, -10, 10);
    Var x("x"), y("y");
    Func clamped = BC::repeat_edge(input);
    Func f("f");
    f(x, y) = clamped(x, y);
    Buffer<float> out(W + 20, H + 14);
    out.set_min(-10, -7);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) { return double(input(clampi(c[0], 0, W - 1), clampi(c[1], 0, H - 1))); });
}

TEST_CASE("repeat_edge on a Buffer with non-zero mins, used by a stencil") {
    const int W = 17, H = 12;
    Buffer<int32_t> input = random_image<int32_t>({W, H}, 2, -100, 100);
    input.set_min(5, -3);
    Var x("x"), y("y");
    Func c = BC::repeat_edge(input);
    Func f("f");
    f(x, y) = c(x - 1, y) + 2 * c(x, y) + c(x + 1, y) - c(x, y + 2);
    Buffer<int32_t> out(W, H);
    out.set_min(5, -3);  // the same region as the input: the stencil reads past every edge
    f.realize(out);
    auto in = [&](int i, int j) { return input(clampi(i, 5, 5 + W - 1), clampi(j, -3, -3 + H - 1)); };
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1];
        return double(in(i - 1, j) + 2 * in(i, j) + in(i + 1, j) - in(i, j + 2));
    });
}

TEST_CASE("repeat_edge on an ImageParam") {
    const int W = 11, H = 7;
    Buffer<uint8_t> input = random_image<uint8_t>({W, H}, 3, 0, 255);
    input.set_min(-4, 2);
    ImageParam in(UInt(8), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func c = BC::repeat_edge(in);
    Func f("f");
    f(x, y) = c(x, y);
    Buffer<uint8_t> out(31, 25);
    out.set_min(-15, -9);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) { return double(input(clampi(cc[0], -4, -4 + W - 1), clampi(cc[1], 2, 2 + H - 1))); });
    // Rebinding to a different-size input uses the new bounds.
    Buffer<uint8_t> input2 = random_image<uint8_t>({5, 4}, 4, 0, 255);
    in.set(input2);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) { return double(input2(clampi(cc[0], 0, 4), clampi(cc[1], 0, 3))); });
}

TEST_CASE("constant_exterior on a Buffer") {
    const int W = 10, H = 6;
    Buffer<float> input = random_image<float>({W, H}, 5, -1, 1);
    input.set_min(-3, -2);
    Var x("x"), y("y");
    Func c = BC::constant_exterior(input, 42.5f);
    Func f("f");
    f(x, y) = c(x, y) * 2.0f;
    Buffer<float> out(30, 20);
    out.set_min(-12, -8);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1];
        bool inside = i >= -3 && i < -3 + W && j >= -2 && j < -2 + H;
        return double((inside ? input(i, j) : 42.5f) * 2.0f);
    });
}

TEST_CASE("constant_exterior on an ImageParam, with an integer literal value") {
    const int W = 9, H = 8;
    Buffer<uint8_t> input = random_image<uint8_t>({W, H}, 6, 0, 255);
    ImageParam in(UInt(8), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func c = BC::constant_exterior(in, 7);
    Func f("f");
    f(x, y) = c(x, y);
    Buffer<uint8_t> out(W + 6, H + 4);
    out.set_min(-3, -2);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1];
        return double(i >= 0 && i < W && j >= 0 && j < H ? input(i, j) : 7);
    });
}

TEST_CASE("mirror_image on a Buffer, far beyond the edges") {
    const int W = 7, H = 5;
    Buffer<int16_t> input = random_image<int16_t>({W, H}, 7, -1000, 1000);
    Var x("x"), y("y");
    Func m = BC::mirror_image(input);
    Func f("f");
    f(x, y) = m(x, y);
    Buffer<int16_t> out(45, 33);
    out.set_min(-20, -15);  // several periods on each side
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) { return double(input(mirror(cc[0], 0, W), mirror(cc[1], 0, H))); });
}

TEST_CASE("mirror_image on an ImageParam with non-zero mins") {
    const int W = 12, H = 10;
    Buffer<float> input = random_image<float>({W, H}, 8, 0, 1);
    input.set_min(3, -6);
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func m = BC::mirror_image(in);
    Func f("f");
    f(x, y) = m(x - 2, y) + m(x + 2, y + 1);
    Buffer<float> out(W + 10, H + 8);
    out.set_min(-2, -10);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1];
        return double(input(mirror(i - 2, 3, W), mirror(j, -6, H)) + input(mirror(i + 2, 3, W), mirror(j + 1, -6, H)));
    }, 1e-6);
}

TEST_CASE("boundary conditions on a Func with an explicit region") {
    Var x("x"), y("y");
    Func src("src");
    src(x, y) = x + 100 * y;
    BC::Region region = {{Expr(2), Expr(6)}, {Expr(-1), Expr(4)}};  // x in [2, 7], y in [-1, 2]
    Func r = BC::repeat_edge(src, region);
    Func k = BC::constant_exterior(src, -5, region);
    Func m = BC::mirror_image(src, region);
    Func fr("fr"), fk("fk"), fm("fm");
    fr(x, y) = r(x, y);
    fk(x, y) = k(x, y);
    fm(x, y) = m(x, y);
    Buffer<int32_t> orr(20, 12), ok(20, 12), om(20, 12);
    for (auto *b : {&orr, &ok, &om}) b->set_min(-5, -6);
    fr.realize(orr);
    fk.realize(ok);
    fm.realize(om);
    check_all(orr, [](const std::vector<int> &c) { return double(clampi(c[0], 2, 7) + 100 * clampi(c[1], -1, 2)); });
    check_all(ok, [](const std::vector<int> &c) {
        bool in = c[0] >= 2 && c[0] <= 7 && c[1] >= -1 && c[1] <= 2;
        return double(in ? c[0] + 100 * c[1] : -5);
    });
    check_all(om, [](const std::vector<int> &c) { return double(mirror(c[0], 2, 6) + 100 * mirror(c[1], -1, 4)); });
}

TEST_CASE("boundary conditions with Param-dependent regions on a Buffer") {
    Buffer<int32_t> input = random_image<int32_t>({20}, 9, -50, 50);
    Param<int> lo("lo"), n("n");
    Var x("x");
    Func c = BC::repeat_edge(input, {{Expr(lo), Expr(n)}});
    Func f("f");
    f(x) = c(x);
    for (auto [l, e] : std::vector<std::pair<int, int>>{{0, 20}, {5, 3}, {19, 1}}) {
        lo.set(l);
        n.set(e);
        Buffer<int32_t> out(40);
        out.set_min(-10);
        f.realize(out);
        INFO("lo=" << l << " n=" << e);
        check_all(out, [&](const std::vector<int> &cc) { return double(input(clampi(cc[0], l, l + e - 1))); });
    }
}

TEST_CASE("boundary conditions on a 3-D color image (channels left alone)") {
    const int W = 8, H = 6;
    Buffer<uint8_t> input = random_image<uint8_t>({W, H, 3}, 10, 0, 255);
    ImageParam in(UInt(8), 3, "in");
    in.set(input);
    Var x("x"), y("y"), ch("c");
    Func r = BC::repeat_edge(in, {{Expr(0), Expr(W)}, {Expr(0), Expr(H)}});
    Func m = BC::mirror_image(in, {{Expr(0), Expr(W)}, {Expr(0), Expr(H)}});
    Func f("f");
    f(x, y, ch) = cast<uint16_t>(r(x, y, ch)) * 256 + m(x, y, ch);
    Buffer<uint16_t> out(W + 8, H + 8, 3);
    out.set_min(-4, -4, 0);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        return double(input(clampi(c[0], 0, W - 1), clampi(c[1], 0, H - 1), c[2]) * 256 +
                      input(mirror(c[0], 0, W), mirror(c[1], 0, H), c[2]));
    });
}

TEST_CASE("blur over repeat_edge with a compute_root boundary Func") {
    const int W = 25, H = 19;
    Buffer<float> input = random_image<float>({W, H}, 11, 0, 1);
    input.set_min(-7, 4);
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func c = BC::repeat_edge(in);
    c.compute_root();
    Func bx("bx"), by("by");
    bx(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3.0f;
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3.0f;
    bx.compute_root();
    Buffer<float> out(W, H);
    out.set_min(-7, 4);
    by.realize(out);
    auto cv = [&](int i, int j) { return input(clampi(i, -7, -7 + W - 1), clampi(j, 4, 4 + H - 1)); };
    auto bxv = [&](int i, int j) { return (cv(i - 1, j) + cv(i, j) + cv(i + 1, j)) / 3.0f; };
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1];
        return double((bxv(i, j - 1) + bxv(i, j) + bxv(i, j + 1)) / 3.0f);
    }, 1e-5);
}

namespace {
// Plain C++ versions of the two other Halide conditions, period by period.
int repeat_coord(int v, int mn, int ex) { return mn + (((v - mn) % ex) + ex) % ex; }
int mirror_interior_coord(int v, int mn, int ex) {
    if (ex == 1) return mn;
    int period = 2 * ex - 2, m = (((v - mn) % period) + period) % period;
    return mn + (m < ex ? m : period - m);
}
}  // namespace

TEST_CASE("repeat_image and mirror_interior on an ImageParam with non-zero mins, far beyond the edges") {
    const int W = 6, H = 5;
    Buffer<int> input = random_image<int>({W, H}, 11, -1000, 1000);
    input.set_min(-2, 3);
    ImageParam in(Int(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func r = BC::repeat_image(in), m = BC::mirror_interior(in);
    Func f("f"), g("g");
    f(x, y) = r(x, y) * 3 + r(x + 1, y - 2);
    g(x, y) = m(x, y) - m(x - 3, y + 1);
    f.vectorize(x, 8);
    g.tile(x, y, Var("xi"), Var("yi"), 4, 4);
    Buffer<int> of(37, 29), og(37, 29);
    of.set_min(-19, -11);
    og.set_min(-19, -11);
    f.realize(of);
    g.realize(og);
    check_all(of, [&](const std::vector<int> &c) {
        return double(input(repeat_coord(c[0], -2, W), repeat_coord(c[1], 3, H)) * 3 +
                      input(repeat_coord(c[0] + 1, -2, W), repeat_coord(c[1] - 2, 3, H)));
    });
    check_all(og, [&](const std::vector<int> &c) {
        return double(input(mirror_interior_coord(c[0], -2, W), mirror_interior_coord(c[1], 3, H)) -
                      input(mirror_interior_coord(c[0] - 3, -2, W), mirror_interior_coord(c[1] + 1, 3, H)));
    });
    halo_test::check_against_reference(f, of);
    halo_test::check_against_reference(g, og);
}

TEST_CASE("mirror_interior of a one-pixel-wide region repeats that pixel") {
    Var x("x");
    Func src("src");
    src(x) = x * 10;
    Func m = BC::mirror_interior(src, {{Expr(4), Expr(1)}});
    Func f("f");
    f(x) = m(x);
    Buffer<int> out(9);
    out.set_min(-3);
    f.realize(out);
    for (int i = -3; i < 6; i++) CHECK(out(i) == 40);
}

TEST_CASE("boundary conditions on a Tuple-valued Func apply to every element") {
    // As in Halide 14: the boundary Func is Tuple-valued too; constant_exterior takes a Tuple.
    Var x("x"), y("y");
    Func src("src");
    src(x, y) = Tuple(x + y * 10, cast<float>(x - y) * 0.5f);
    const int mn_x = -1, w = 5, mn_y = 2, h = 4;
    BC::Region region = {{mn_x, w}, {mn_y, h}};
    auto edge = [](int v, int mn, int n) { return clampi(v, mn, mn + n - 1); };
    auto image = [](int v, int mn, int n) { return repeat_coord(v, mn, n); };
    // Each boundary Func with the source coordinate it reads (v, min, extent).
    std::vector<std::pair<Func, std::function<int(int, int, int)>>> cases = {
        {BC::repeat_edge(src, region), edge},
        {BC::repeat_edge(src, mn_x, w, mn_y, h), edge},  // Halide's min, extent, ... form
        {BC::mirror_image(src, region), mirror},
        {BC::mirror_interior(src, region), mirror_interior_coord},
        {BC::repeat_image(src, mn_x, w, mn_y, h), image},
    };
    for (auto &[bc, coord] : cases) {
        CAPTURE(bc.name());
        Func g("g");
        g(x, y) = bc(x, y)[0] * 100 + cast<int>(bc(x, y)[1] * 2.0f);
        g.vectorize(x, 4);
        Buffer<int> out(11, 9);
        out.set_min(-4, -1);
        g.realize(out);
        check_all(out, [&, coord = coord](const std::vector<int> &c) {
            int sx = coord(c[0], mn_x, w), sy = coord(c[1], mn_y, h);
            return double((sx + sy * 10) * 100 + (sx - sy));
        });
        halo_test::check_against_reference(g, out);
    }
    Func outside = BC::constant_exterior(src, Tuple(-7, 2.5f), region);
    Func g("g");
    g(x, y) = outside(x, y)[0] * 100 + cast<int>(outside(x, y)[1] * 2.0f);
    Buffer<int> out(11, 9);
    out.set_min(-4, -1);
    g.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        bool in = c[0] >= mn_x && c[0] < mn_x + w && c[1] >= mn_y && c[1] < mn_y + h;
        return in ? double((c[0] + c[1] * 10) * 100 + (c[0] - c[1])) : double(-7 * 100 + 5);
    });
    std::string msg = halo_test::compile_error_of([&] { BC::constant_exterior(src, 0, region); });
    CHECK(halo_test::contains(msg, "constant_exterior of 'src' given 1 value for the outside, but 'src' has 2 (a "
                                   "Tuple-valued source takes a Tuple of as many values, one per element)"));
}
