// Halide-style specializations (the idioms of Halide's specialize tests): a bool Param
// choosing a vectorized schedule, an input's width choosing the vector width, nested and
// update specializations, and specialize_fail for values the pipeline does not handle.
#include <doctest/doctest.h>

#include <string>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("a vectorized fast path chosen by a bool Param") {
    Param<bool> param;
    Var x;
    Func f;
    f(x) = select(param, x * 3, x * 17);
    f.specialize(param).vectorize(x, 8);
    f.specialize(!param).vectorize(x, 4);
    for (bool p : {true, false}) {
        param.set(p);
        Buffer<int> out = f.realize({100});
        int bad = 0;
        for (int i = 0; i < 100; i++) bad += out(i) != (p ? i * 3 : i * 17);
        CHECK(bad == 0);
    }
}

TEST_CASE("the vector width chosen from the input's width") {
    ImageParam im(Int(32), 1);
    Var x;
    Func f;
    f(x) = im(x) * 2;
    Expr w = im.width();
    f.specialize(w >= 16).vectorize(x, 16);
    f.specialize(w >= 8).vectorize(x, 8);
    f.specialize(w >= 4).vectorize(x, 4);
    for (int width : {3, 5, 9, 20}) {
        Buffer<int> input(width);
        for (int i = 0; i < width; i++) input(i) = i * i - 7;
        im.set(input);
        Buffer<int> out = f.realize({width});
        int bad = 0;
        for (int i = 0; i < width; i++) bad += out(i) != input(i) * 2;
        CHECK(bad == 0);
    }
}

TEST_CASE("nested specializations and a specialized update") {
    Param<bool> p1, p2;
    Var x, y;
    Func f;
    f(x, y) = x + y;
    f(x, y) += select(p2, 10, 20);
    f.specialize(p1).specialize(p2).vectorize(x, 4);
    f.update().specialize(p2).vectorize(x, 8).parallel(y);
    for (int k = 0; k < 4; k++) {
        p1.set((k & 1) != 0);
        p2.set((k & 2) != 0);
        Buffer<int> out = f.realize({19, 7});
        int bad = 0;
        for (int j = 0; j < 7; j++)
            for (int i = 0; i < 19; i++) bad += out(i, j) != i + j + ((k & 2) ? 10 : 20);
        CHECK(bad == 0);
    }
}

TEST_CASE("specialize_fail reports values no specialization handles") {
    Param<int> p;
    Var x;
    Func f;
    f(x) = x * p;
    f.specialize(p == 0);
    f.specialize(p == 1).vectorize(x, 4);
    f.specialize_fail("Unhandled value of p");
    p.set(1);
    Buffer<int> out = f.realize({10});
    CHECK(out(9) == 9);
    p.set(2);
    std::string message;
    try {
        f.realize({10});
    } catch (const RuntimeError &e) {
        message = e.what();
    }
    CHECK(message.find("Unhandled value of p") != std::string::npos);
}
