// Bounds of indices built with shifts by constants and bitwise or: f(x >> 1), f(x << 2),
// an update writing f(r >> 1), and f((r & 3) | 4). Halide bounds these (x >> c as a floor
// division, x << c as a product); each case reads from an input sized exactly as needed, so a
// bound one too small is a run-time error and one too large is caught by the exact-size input's
// check, and compares with the reference evaluator.
#include "TestUtil.h"

using namespace halo;
using namespace halo_test;

namespace {

Buffer<int> ramp_at(int min, int extent) {
    Buffer<int> b(extent);
    b.set_min({min});
    for (int i = min; i < min + extent; i++) b(i) = 7 * i - 3;
    return b;
}

}  // namespace

TEST_CASE("x >> 1 reads the input over the floor of half the range, negative coordinates too") {
    // x in [-7, 4]: x >> 1 in [-4, 2], rounding down as the arithmetic shift does.
    ImageParam im(Int(32), 1, "im");
    im.set(ramp_at(-4, 7));
    Var x("x");
    Func g("g");
    g(x) = im(x >> 1) + x;
    g.vectorize(x, 4);
    Buffer<int> out(12);
    out.set_min({-7});
    check_against_reference(g, out);
    CHECK(out(-7) == 7 * -4 - 3 - 7);
    // One element fewer is refused, naming what is needed.
    im.set(ramp_at(-3, 6));
    std::string msg = runtime_error_of([&] { g.realize(out); });
    CHECK_MESSAGE(contains(msg, "input 'im' covers dimension 0 in [-3, 2]"), msg);
    CHECK_MESSAGE(contains(msg, "needs [-4, 2]"), msg);
}

TEST_CASE("x << 2 and a Func computed at the root over the shifted range") {
    ImageParam im(Int(32), 1, "im");
    im.set(ramp_at(-8, 22));  // x in [-2, 3]: x << 2 in [-8, 12], plus 1: [-8, 13]
    Var x("x");
    Func f("f"), g("g");
    f(x) = im(x) * 2;
    g(x) = f(x << 2) + f((x << 2) + 1);
    f.compute_root();
    Buffer<int> out(6);
    out.set_min({-2});
    check_against_reference(g, out);
    CHECK(out(3) == 2 * (7 * 12 - 3) + 2 * (7 * 13 - 3));
}

TEST_CASE("an update writes f(r >> 1): the output's bounds cover it") {
    Var x("x");
    RDom r(0, 10, "r");
    Func f("f");
    f(x) = 0;
    f(r >> 1) += r;  // f(0..4)
    Buffer<int> out(5);
    check_against_reference(f, out);
    CHECK(out(4) == 8 + 9);
}

TEST_CASE("(r & 3) | 4 indexes 4..7") {
    ImageParam im(Int(32), 1, "im");
    im.set(ramp_at(4, 4));
    Var x("x");
    RDom r(0, 20, "r");
    Func f("f");
    f(x) = 0;
    f(x) += im((r & 3) | 4) * (x + 1);
    Buffer<int> out(2);
    check_against_reference(f, out);
    CHECK(out(0) == 5 * ((7 * 4 - 3) + (7 * 5 - 3) + (7 * 6 - 3) + (7 * 7 - 3)));
}
