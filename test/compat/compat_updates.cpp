// Scheduling update definitions as Halide programs do: RVars split, reordered and unrolled, pure
// Vars of an update vectorized and parallelized, a diagonal update, and a Func of no dimensions
// used as a scalar accumulator.
#include <doctest/doctest.h>

#include <cstdint>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

TEST_CASE("a matrix multiply with its reduction split and the pure loops vectorized and parallel") {
    const int N = 19, K = 13;
    Buffer<float> A(K, N), B(N, K);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < K; k++) A(k, i) = float((i * 3 + k * 5) % 7) - 3, B(i, k) = float((i + k * 2) % 5) - 2;
    Var x("x"), y("y");
    RDom r(0, K);
    RVar ro("ro"), ri("ri");
    Func prod("prod");
    prod(x, y) = 0.0f;
    prod(x, y) += A(r, y) * B(x, r);
    prod.update(0).split(r, ro, ri, 4).reorder(ri, x, ro, y).vectorize(x, 8).parallel(y).unroll(ri);
    Buffer<float> out = prod.realize({N, N});
    int bad = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float e = 0;
            for (int k = 0; k < K; k++) e += A(k, j) * B(i, k);
            bad += out(i, j) != e;  // small integers: exact in any order
        }
    CHECK(bad == 0);
}

TEST_CASE("a diagonal update and a scalar accumulator") {
    Var x("x"), y("y");
    Func m("m");
    m(x, y) = 0;
    m(x, x) = 1;  // the identity matrix
    Buffer<int> id = m.realize({5, 5});
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 5; i++) CHECK(id(i, j) == (i == j));
    Buffer<int16_t> v(50);
    for (int i = 0; i < 50; i++) v(i) = int16_t(i % 9 - 4);
    RDom r(0, 50);
    Func total("total");
    total() = 0;
    total() += cast<int>(v(r)) * cast<int>(v(r));
    Buffer<int> t = total.realize(std::vector<int>{});
    int e = 0;
    for (int i = 0; i < 50; i++) e += v(i) * v(i);
    CHECK(t() == e);
}
