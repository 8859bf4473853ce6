// Halide tutorial-style scheduling: split, tile, fuse, vectorize, unroll, parallel, compute_at,
// store_root, and loop names after vectorize/unroll (the outer loop keeps the name).
#include <doctest/doctest.h>

#include <cmath>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

namespace {
// The gradient of lesson 5, checked at every point.
void check_gradient(Func f, int w, int h) {
    Buffer<int> out = f.realize({w, h});
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) bad += out(x, y) != x + y;
    CHECK(bad == 0);
}
}  // namespace

TEST_CASE("lesson 5 schedules of a gradient") {
    Var x("x"), y("y"), x_outer("x_outer"), x_inner("x_inner"), y_outer("y_outer"), y_inner("y_inner"),
        fused("fused"), tile_index("tile_index");
    {
        Func gradient("gradient_split");
        gradient(x, y) = x + y;
        gradient.split(x, x_outer, x_inner, 2);
        check_gradient(gradient, 7, 5);
    }
    {
        Func gradient("gradient_fused");
        gradient(x, y) = x + y;
        gradient.fuse(x, y, fused);
        check_gradient(gradient, 7, 5);
    }
    {
        Func gradient("gradient_tiled");
        gradient(x, y) = x + y;
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 4, 4);
        check_gradient(gradient, 8, 8);
    }
    {
        Func gradient("gradient_in_vectors");
        gradient(x, y) = x + y;
        gradient.vectorize(x, 4);
        check_gradient(gradient, 8, 4);
    }
    {
        Func gradient("gradient_unroll");
        gradient(x, y) = x + y;
        gradient.unroll(x, 2);
        check_gradient(gradient, 4, 4);
    }
    {
        Func gradient("gradient_fast");
        gradient(x, y) = x + y;
        gradient.tile(x, y, x_outer, y_outer, x_inner, y_inner, 64, 64)
            .fuse(x_outer, y_outer, tile_index)
            .parallel(tile_index);
        Var x_inner_outer, y_inner_outer, x_vectors, y_pairs;
        gradient.tile(x_inner, y_inner, x_inner_outer, y_inner_outer, x_vectors, y_pairs, 4, 2)
            .vectorize(x_vectors)
            .unroll(y_pairs);
        check_gradient(gradient, 350, 250);
    }
}

TEST_CASE("lesson 8: producer placement") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    auto expected = [](int x, int y) {
        auto p = [](int i, int j) { return std::sqrt(float(i * j)); };
        return (p(x, y) + p(x, y + 1) + p(x + 1, y) + p(x + 1, y + 1)) / 4;
    };
    for (int variant = 0; variant < 4; variant++) {
        Func producer("producer"), consumer("consumer");
        producer(x, y) = sqrt(x * y);
        consumer(x, y) = (producer(x, y) + producer(x, y + 1) + producer(x + 1, y) + producer(x + 1, y + 1)) / 4;
        if (variant == 0) producer.compute_root();
        if (variant == 1) producer.compute_at(consumer, y);
        if (variant == 2) producer.store_root().compute_at(consumer, y);
        if (variant == 3) {
            consumer.tile(x, y, xo, yo, xi, yi, 4, 4);
            producer.compute_at(consumer, xo);
        }
        Buffer<float> out = consumer.realize({10, 9});
        int bad = 0;
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 10; i++) bad += !(std::fabs(out(i, j) - expected(i, j)) <= 1e-5f);
        INFO("variant " << variant);
        CHECK(bad == 0);
    }
}

TEST_CASE("compute_at the outer loop that vectorize keeps the name of") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    g(x, y) = x * 2 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    f.vectorize(x, 8);
    g.compute_at(f, x);  // once per vector of f, as in Halide
    Buffer<int> out = f.realize({21, 3});
    int bad = 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 21; i++) bad += out(i, j) != (i * 2 + j) + ((i + 1) * 2 + j);
    CHECK(bad == 0);
}
