// bound_constant_extent_loops: an unrolled or vectorized loop whose extent is not a constant
// runs over the constant upper bound of its extent with its body guarded (as in Halide), where
// that bound is small enough to unroll or vectorize; otherwise it is left as it is.
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

TEST_CASE("a producer unrolled inside the outer loop of a GuardWithIf split unrolls 8 guarded copies") {
    Var x("x"), xo("xo"), xi("xi");
    Buffer<int> in = halo_test::random_image<int>({40}, 3, -50, 50);
    Func f("f"), g("g");
    f(x) = in(x) * 3 + 1;
    g(x) = f(x) - f(x + 1);
    g.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    f.compute_at(g, xo).unroll(x);  // f's extent: 9, or less in the last tile
    Buffer<int> out(23);
    out.set_min(5);
    halo_test::check_against_reference(g, out);
    // Vectors the same way.
    Func p("p"), q("q");
    p(x) = in(x) * 5;
    q(x) = p(x) + p(x + 2);
    q.split(x, xo, xi, 6, TailStrategy::GuardWithIf);
    p.compute_at(q, xo).vectorize(x);  // p's extent: at most 8
    halo_test::check_against_reference(q, Buffer<int>(29));
}

TEST_CASE("a loop whose extent has no useful constant bound is not made to run over 2^31 - 1") {
    // An inline reduction's Func computed inside the vectorized rows of a GuardWithIf tile of a
    // producer computed per point of a fused loop: the bound of its loop found from the
    // region's clamps was 2^31 - 1, and a case of the typed fuzz test (seed 356) ran for
    // minutes over the guarded loop.
    Var x("x"), y("y"), c("c"), xc("xc"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({30, 20, 3}, 4, -50, 50);
    Func f("f"), g("g"), out("out");
    RDom r(-1, 3, "r");
    f(x, y, c) = in(clamp(x, 0, 29), clamp(y, 0, 19), c);
    g(x, y, c) = sum(f(x + r, y, c) * (r + 2));
    out(x, y, c) = g(x, y, c) + 1;
    f.compute_root();
    out.reorder(y, x, c).fuse(x, c, xc).parallel(xc);
    g.compute_at(out, xc).tile(x, y, xo, yo, xi, yi, 8, 6, TailStrategy::GuardWithIf)
        .vectorize(xi, 8, TailStrategy::GuardWithIf);
    std::string stmt = out.lowered_stmt();
    INFO(stmt);
    CHECK(!contains(stmt, ", 2147483647) {"));
    halo_test::check_against_reference(out, Buffer<int>(21, 13, 3));
}

TEST_CASE("a producer unrolled inside an RVar loop unrolled with a GuardWithIf tail (its extent bounded through lets)") {
    // Halide's conv_layer with an odd number of input channels: after loop partitioning the
    // steady loop runs to a let (steady_end = 2), and the producer's extent, max - min + 1 of
    // two lets, is at most 2 only once its Vars cancel and the loop's range is known.
    Var x("x");
    RDom r(0, 5, "r");
    Func g("g"), f("f");
    g(x) = x * 3;
    f(x) = 0;
    f(x) += g(r + x);
    f.update().unroll(r, 2);
    g.compute_at(f, r).unroll(x);
    Buffer<int> out(4);
    out.set_min(-2);
    halo_test::check_against_reference(f, out);
}
