// Halide-style boundary conditions, Params and ImageParams (tutorial lessons 7 and 13 style):
// a blur over a repeat_edge input, scalar Params changed between realizations, a clamped
// gather, and a separable blur with its first stage computed per scanline.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

namespace {
Buffer<uint8_t> make_image(int w, int h) {
    Buffer<uint8_t> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = uint8_t((x * 37 + y * 91 + x * y) % 256);
    return b;
}
}  // namespace

TEST_CASE("a 3x3 blur of a repeat_edge input covers the whole image") {
    Buffer<uint8_t> img = make_image(31, 17);
    ImageParam input(UInt(8), 2, "input");
    input.set(img);
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func in16("in16"), blur_x("blur_x"), blur_y("blur_y");
    in16(x, y) = cast<uint16_t>(clamped(x, y));
    blur_x(x, y) = (in16(x - 1, y) + in16(x, y) + in16(x + 1, y)) / 3;
    blur_y(x, y) = cast<uint8_t>((blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3);
    blur_y.tile(x, y, xi, yi, 8, 4).vectorize(xi, 8).parallel(y);
    blur_x.compute_at(blur_y, x).vectorize(x, 8);
    Buffer<uint8_t> out = blur_y.realize({31, 17});
    auto at = [&](int i, int j) { return int(img(std::clamp(i, 0, 30), std::clamp(j, 0, 16))); };
    int bad = 0;
    for (int j = 0; j < 17; j++)
        for (int i = 0; i < 31; i++) {
            auto bx = [&](int jj) { return (at(i - 1, jj) + at(i, jj) + at(i + 1, jj)) / 3; };
            bad += out(i, j) != (bx(j - 1) + bx(j) + bx(j + 1)) / 3;
        }
    CHECK(bad == 0);
}

TEST_CASE("constant_exterior and mirror_image") {
    Buffer<uint8_t> img = make_image(9, 7);
    Var x("x"), y("y");
    Func ce = BoundaryConditions::constant_exterior(img, cast<uint8_t>(7));
    Func mi = BoundaryConditions::mirror_image(img);
    Func f("f");
    f(x, y) = cast<int>(ce(x, y)) * 1000 + cast<int>(mi(x, y));
    Buffer<int> out(13, 11);
    out.set_min(-2, -2);
    f.realize(out);
    auto mirror = [](int i, int n) {  // Halide's mirror_image: the edge repeated once
        int period = 2 * n;
        int m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
    };
    int bad = 0;
    for (int j = -2; j < 9; j++)
        for (int i = -2; i < 11; i++) {
            bool inside = i >= 0 && i < 9 && j >= 0 && j < 7;
            int e = (inside ? img(i, j) : 7) * 1000 + img(mirror(i, 9), mirror(j, 7));
            bad += out(i, j) != e;
        }
    CHECK(bad == 0);
}

TEST_CASE("Params change between realizations without recompiling the algorithm") {
    Param<float> gain("gain");
    Param<int> offset("offset");
    ImageParam input(UInt(8), 2, "input");
    Buffer<uint8_t> img = make_image(16, 8);
    input.set(img);
    Var x("x"), y("y");
    Func f("brighter");
    f(x, y) = cast<uint8_t>(clamp(cast<float>(input(x, y)) * gain + offset, 0.0f, 255.0f));
    f.vectorize(x, 16);
    for (float g : {0.5f, 1.0f, 1.5f}) {
        gain.set(g);
        offset.set(int(g * 10));
        Buffer<uint8_t> out = f.realize({16, 8});
        int bad = 0;
        for (int j = 0; j < 8; j++)
            for (int i = 0; i < 16; i++) {
                float v = std::min(255.0f, std::max(0.0f, float(img(i, j)) * g + float(int(g * 10))));
                bad += out(i, j) != uint8_t(v);
            }
        INFO("gain " << g);
        CHECK(bad == 0);
    }
}

TEST_CASE("a lookup table indexed by data, clamped as Halide programs do") {
    Buffer<uint8_t> img = make_image(20, 10);
    Func lut("lut"), mapped("mapped");
    Var i("i"), x("x"), y("y");
    lut(i) = cast<uint8_t>(255 - i);
    lut.compute_root();
    mapped(x, y) = lut(clamp(cast<int>(img(x, y)), 0, 255));
    Buffer<uint8_t> out = mapped.realize({20, 10});
    int bad = 0;
    for (int yy = 0; yy < 10; yy++)
        for (int xx = 0; xx < 20; xx++) bad += out(xx, yy) != 255 - img(xx, yy);
    CHECK(bad == 0);
}

TEST_CASE("an ImageParam's left(), right(), top() and bottom() are its edges") {
    ImageParam in(UInt(8), 2, "edges_in");
    Var x("x"), y("y");
    Func edges("edges");
    edges(x, y) = Tuple(in.left() + 100 * in.right(), in.top() + 100 * in.bottom());
    Buffer<uint8_t> b(6, 3);
    b.set_min({-2, 5});
    in.set(b);
    Realization r = edges.realize({1, 1});
    Buffer<int> lr = r[0], tb = r[1];
    CHECK(lr(0, 0) == -2 + 100 * 3);
    CHECK(tb(0, 0) == 5 + 100 * 7);
}
