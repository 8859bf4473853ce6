// Halide idioms for staging data and debugging: Func::in wrappers, Var::outermost,
// store_in, print/print_when, and the repeat_image / mirror_interior boundary conditions.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "dsl/Halo.h"
#include "runtime/HaloRuntime.h"
namespace Halide = halo;

using namespace Halide;

namespace {
std::vector<std::string> printed;
void collect(void *, const char *line) { printed.push_back(line); }
}  // namespace

TEST_CASE("a wrapper stages a producer into each tile of its consumer") {
    Var x, y, xo, yo, xi, yi;
    Func f, g;
    f(x, y) = x * 2 + y;
    g(x, y) = f(x, y) + f(x + 1, y + 1);
    f.compute_root();
    g.tile(x, y, xo, yo, xi, yi, 8, 8);
    f.in(g).compute_at(g, xo).vectorize(x, 4);
    Buffer<int> out = g.realize({20, 20});
    int bad = 0;
    for (int j = 0; j < 20; j++)
        for (int i = 0; i < 20; i++) bad += out(i, j) != (i * 2 + j) + ((i + 1) * 2 + j + 1);
    CHECK(bad == 0);
}

TEST_CASE("compute_at Var::outermost and store_in") {
    Var x, y;
    Func lut, f;
    lut(x) = x * x;
    f(x, y) = lut(x % 16) + y;
    lut.compute_at(f, Var::outermost()).store_in(MemoryType::Stack);
    f.parallel(y);
    Buffer<int> out = f.realize({32, 4});
    int bad = 0;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 32; i++) bad += out(i, j) != (i % 16) * (i % 16) + j;
    CHECK(bad == 0);
}

TEST_CASE("print and print_when while debugging") {
    Var x;
    Func f;
    f(x) = print_when(x == 3, x * 10, "is f at", x);
    halo_print_handler_t old = halo_set_print_handler(&collect);
    Buffer<int> out = f.realize({5});
    halo_set_print_handler(old);
    CHECK(out(4) == 40);
    REQUIRE(printed.size() == 1);
    CHECK(printed[0] == "30 is f at 3\n");
}

TEST_CASE("repeat_image and mirror_interior") {
    Buffer<uint8_t> input(4, 3);
    input.for_each_element([&](int x, int y) { input(x, y) = uint8_t(x + 10 * y); });
    Var x, y;
    Func tiled = BoundaryConditions::repeat_image(input);
    Func mirrored = BoundaryConditions::mirror_interior(input);
    Func f;
    f(x, y) = cast<int>(tiled(x, y)) * 1000 + mirrored(x, y);
    Buffer<int> out(12, 9);
    out.set_min(-4, -3);
    f.realize(out);
    auto mod = [](int a, int b) { return ((a % b) + b) % b; };
    auto mirror = [&](int v, int n) {
        int m = mod(v, 2 * n - 2);
        return m < n ? m : 2 * n - 2 - m;
    };
    int bad = 0;
    out.for_each_element([&](int i, int j) {
        int t = input(mod(i, 4), mod(j, 3)), m = input(mirror(i, 4), mirror(j, 3));
        bad += out(i, j) != t * 1000 + m;
    });
    CHECK(bad == 0);
}

TEST_CASE("staging loads from an ImageParam with ImageParam::in (tutorial 19)") {
    ImageParam img(Int(32), 2);
    Buffer<int> input(20, 16);
    for (int y = 0; y < 16; y++) {
        for (int x = 0; x < 20; x++) input(x, y) = x * 3 + y * 7;
    }
    img.set(input);
    Func f;
    Var x, y, xo, yo, xi, yi;
    f(x, y) = img(x, y) + img(x + 1, y + 1);
    f.tile(x, y, xo, yo, xi, yi, 4, 4);
    img.in().compute_at(f, xo).vectorize(_0, 4);
    Buffer<int> out = f.realize({16, 12});
    int bad = 0;
    for (int y = 0; y < 12; y++) {
        for (int x = 0; x < 16; x++) bad += out(x, y) != input(x, y) + input(x + 1, y + 1);
    }
    CHECK(bad == 0);
}
