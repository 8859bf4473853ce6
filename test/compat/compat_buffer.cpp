// Halide's Buffer as Halide programs use it: wrapping memory, dim accessors, crops and slices,
// for_each_element and for_each_value, fill and copy.
#include <doctest/doctest.h>

#include <vector>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("wrapping, cropping, slicing and iterating") {
    std::vector<float> data(8 * 6);
    for (size_t i = 0; i < data.size(); i++) data[i] = float(i);
    Buffer<float> b(data.data(), 8, 6);
    CHECK(b.width() == 8);
    CHECK(b.height() == 6);
    CHECK(b.dim(1).stride() == 8);
    CHECK(b(3, 2) == 19.0f);
    Buffer<float> c = b.cropped(0, 2, 4);
    CHECK(c.dim(0).min() == 2);
    CHECK(c(2, 0) == 2.0f);
    Buffer<float> row = b.sliced(1, 3);
    CHECK(row.dimensions() == 1);
    CHECK(row(5) == 29.0f);
    int count = 0;
    c.for_each_element([&](int x, int y) { count += c(x, y) == float(y * 8 + x); });
    CHECK(count == 4 * 6);
    Buffer<float> copy(8, 6);
    copy.fill(0.0f);
    copy.copy_from(b);
    float total = 0;
    copy.for_each_value([&](float &v) { total += v; });
    CHECK(total == float(47 * 48 / 2));
}

TEST_CASE("a pipeline reads a translated buffer at its own coordinates") {
    Buffer<int> in(10, 4);
    in.for_each_element([&](int x, int y) { in(x, y) = x * 10 + y; });
    in.translate({5, -2});
    ImageParam p(Int(32), 2, "p");
    p.set(in);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = p(x, y) + 1;
    Buffer<int> out(4, 2);
    out.set_min(6, -1);
    f.realize(out);
    CHECK(out(6, -1) == (1 * 10 + 1) + 1);
    CHECK(out(9, 0) == (4 * 10 + 2) + 1);
}
