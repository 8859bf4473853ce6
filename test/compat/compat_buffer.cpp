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

// Halide's named constructors and views as its apps use them (make_interleaved for a PNG's
// layout, range-for over a dimension, size_in_bytes, crops by rectangle, transposes by order,
// embedded dimensions, copy_to_host).
TEST_CASE("make_interleaved, make_scalar, make_with_shape_of, dimension ranges and size_in_bytes") {
    Buffer<uint8_t> rgb = Buffer<uint8_t>::make_interleaved(5, 3, 3);
    CHECK(rgb.dimensions() == 3);
    CHECK(rgb.dim(0).stride() == 3);
    CHECK(rgb.dim(1).stride() == 15);
    CHECK(rgb.dim(2).stride() == 1);
    CHECK(rgb.size_in_bytes() == 45);
    CHECK(rgb.all_equal(0));
    int seen = 0;
    for (int y : rgb.dim(1)) {
        for (int x : rgb.dim(0)) {
            for (int c : rgb.dim(2)) rgb(x, y, c) = uint8_t(x + 10 * y + 100 * c);
            seen++;
        }
    }
    CHECK(seen == 15);
    CHECK(rgb.data()[0 * 3 + 2] == 200);  // channel innermost
    CHECK(rgb.data()[1 * 3 + 0] == 1);

    Buffer<float> s = Buffer<float>::make_scalar();
    CHECK(s.dimensions() == 0);
    s() = 2.5f;
    CHECK(s() == 2.5f);
    Buffer<> dynamic = Buffer<>::make_interleaved(Float(32), 4, 4, 2);
    CHECK(dynamic.dim(2).stride() == 1);

    // The same shape, storage order and mins as rgb, with storage of its own.
    Buffer<uint8_t> shaped = Buffer<uint8_t>::make_with_shape_of(rgb.translated({-2, 7, 0}));
    CHECK(shaped.dim(0).min() == -2);
    CHECK(shaped.dim(1).min() == 7);
    CHECK(shaped.dim(2).stride() == 1);
    CHECK(shaped.dim(0).stride() == 3);
    CHECK(shaped.data() != rgb.data());

    // A range over an empty dimension visits nothing; a cropped buffer's footprint.
    Buffer<int16_t> empty(0, 4);
    for (int x : empty.dim(0)) CHECK(x < 0);  // never runs
    CHECK(empty.size_in_bytes() == 0);
    Buffer<int16_t> wide(10, 4);
    CHECK(wide.cropped(0, 2, 3).size_in_bytes() == size_t((3 * 10 + 3) * 2));
    CHECK(wide.copy_to_host() == 0);
    wide.set_host_dirty();
}

TEST_CASE("cropped by a rectangle, transposed by an order, embedded and added dimensions") {
    Buffer<int> b(6, 5, 2);
    b.for_each_element([&](int x, int y, int c) { b(x, y, c) = x + 10 * y + 100 * c; });
    Buffer<int> r = b.cropped({{1, 3}, {2, 2}});
    CHECK(r.dim(0).min() == 1);
    CHECK(r.dim(0).extent() == 3);
    CHECK(r.dim(1).min() == 2);
    CHECK(r.dim(2).extent() == 2);  // not named: whole
    CHECK(r(3, 3, 1) == 133);
    Buffer<int> t = b.transposed({2, 0, 1});  // (c, x, y)
    CHECK(t.dim(0).extent() == 2);
    CHECK(t.dim(1).extent() == 6);
    CHECK(t(1, 4, 3) == 134);
    Buffer<int> e = b.sliced(2, 1).embedded(2, 1);
    CHECK(e.dimensions() == 3);
    CHECK(e.dim(2).min() == 1);
    CHECK(e(5, 4, 1) == 145);
    Buffer<int> plane = b.sliced(2, 0);
    plane.add_dimension();
    CHECK(plane.dimensions() == 3);
    CHECK(plane(2, 3, 0) == 32);
    std::string msg;
    try {
        b.transposed({0, 0, 1});
    } catch (const std::exception &ex) {
        msg = ex.what();
    }
    CHECK(msg.find("transposed(order): the order must name each of its 3 dimensions once") != std::string::npos);
    try {
        b.cropped({{0, 7}});
    } catch (const std::exception &ex) {
        msg = ex.what();
    }
    CHECK(msg.find("cropped(0, 0, 7): [0, 6] is not inside dimension 0's [0, 5]") != std::string::npos);
}
