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

// depthwise_separable_conv's CPU schedule: the output's rows split by 2 and fused with the
// batch, a producer computed per iteration of the fused loop and unrolled over its 2 rows. The
// fused loop's variable was bounded by clamps whose ends differed in form, so the producer's
// extent (2) was not seen as a constant: "unroll of loop 'f.s0.y' whose extent ... is not a
// constant" (Halide 14 runs it). With a GuardWithIf split the last rows make the extent 1 or
// 2: the producer's bounds were lets (let n = v in n) that hid the difference of the ends from
// the bound finder, so that one was refused until the simplifier dropped such lets.
TEST_CASE("a producer computed per iteration of a fused loop unrolls over its constant rows") {
    Var x("x"), y("y"), b("b"), yi("yi");
    Buffer<float> in = halo_test::random_image<float>({9, 12, 3}, 5, -50, 50);
    for (TailStrategy tail : {TailStrategy::Auto, TailStrategy::GuardWithIf})
    for (int rows : {10, 11, 2, 1}) {  // 11: the last pair of rows shifted inwards or guarded
        if (rows == 1 && tail != TailStrategy::GuardWithIf) continue;  // ShiftInwards needs 2
        CAPTURE(rows);
        CAPTURE(int(tail));
        Func f("f"), out("out");
        f(x, y, b) = in(x, y, b) * 2.0f;
        out(x, y, b) = f(x, y, b) + f(x, y, b) * 0.5f;
        out.split(y, y, yi, 2, tail).fuse(y, b, b).parallel(b);
        f.compute_at(out, b).unroll(y);
        Buffer<float> o(9, rows, 3);
        o.set_min(0, 1, 0);
        halo_test::check_against_reference(out, o);
        CHECK(!contains(out.lowered_stmt(), "for (f.s0.y"));  // unrolled
    }
}

// The bounds of a fused loop's variables over an empty loop stay empty: an output with no rows
// or no batches (a loop fused from one of no iterations) computes nothing and needs no input.
TEST_CASE("fused loops of an empty output need nothing, in either order, producers anywhere") {
    for (int how = 0; how < 4; how++) {
        for (int rows : {0, 4}) {
            for (int batches : {0, 3}) {
                CAPTURE(how);
                CAPTURE(rows);
                CAPTURE(batches);
                ImageParam in(Float(32), 3, "in");
                Var x("x"), y("y"), b("b"), yi("yi");
                Func f("f"), out("out");
                f(x, y, b) = in(x, y, b) * 2.0f;
                out(x, y, b) = f(x, y, b) + 1.0f;
                out.split(y, y, yi, 2, TailStrategy::GuardWithIf);
                if (how < 2) out.fuse(y, b, b);
                else out.fuse(b, y, b);
                if (how % 2) f.compute_root();
                else f.compute_at(out, b);
                Buffer<float> input = halo_test::random_image<float>({5, rows, batches}, 6, -9, 9);
                in.set(input);
                halo_test::check_against_reference(out, Buffer<float>(5, rows, batches));
            }
        }
    }
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
