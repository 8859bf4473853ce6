// Halide-style rfactor (the idioms of Halide's tutorial 18 and its rfactor tests): a histogram
// whose rows are reduced in parallel, and a sum split into vectorizable strips.
#include <doctest/doctest.h>

#include <vector>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("a histogram rfactored over rows, the intermediate parallel over them (tutorial 18)") {
    Buffer<uint8_t> input(64, 48);
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 64; x++) input(x, y) = uint8_t((x * 7 + y * 13) % 256);
    }
    Func histogram("hist_serial");
    Var x;
    RDom r(input);
    histogram(x) = 0;
    histogram(input(r.x, r.y)) += 1;
    Var u;
    Func intermediate = histogram.update().rfactor({{r.y, u}});
    intermediate.compute_root().update().parallel(u);
    Buffer<int> out = histogram.realize({256});
    std::vector<int> want(256, 0);
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 64; x++) want[input(x, y)]++;
    }
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += out(i) != want[i];
    CHECK(bad == 0);
}

TEST_CASE("a sum split into strips: rfactor the outer loop, vectorize the strips") {
    const int N = 4099;
    Buffer<int> input(N);
    long long want = 0;
    for (int i = 0; i < N; i++) {
        input(i) = (i * 31) % 1000 - 500;
        want += input(i);
    }
    Func sum_all;
    RDom r(0, N);
    sum_all() = 0;
    sum_all() += input(r);
    RVar rxo, rxi;
    Var u;
    sum_all.update().split(r.x, rxo, rxi, 32);
    Func intm = sum_all.update().rfactor(rxo, u);
    intm.compute_root().vectorize(u, 8).update().parallel(u);
    Buffer<int> out = sum_all.realize({});
    CHECK(out() == want);
}
