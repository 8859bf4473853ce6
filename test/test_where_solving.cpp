// An RDom::where condition narrows the region an update touches whatever linear form it is
// written in: r + 3 < 13, 2 * r < 20, -r > -10 and 13 > r + 3 all keep r in [0, 9], as r < 10
// does (Halide solves the condition for the variable). Each case realizes into (or reads from)
// a buffer of exactly the narrowed size, so a bound that is too wide is a run-time error, and
// compares the values with the reference evaluator.
#include "TestUtil.h"

using namespace halo;
using namespace halo_test;

namespace {

// g(r) = 99 over RDom [lo, lo + extent) where cond(r), realized into exactly [first, last].
void check_output_narrowed(const std::function<Expr(RVar)> &cond, int lo, int extent, int first, int last) {
    Var x("x");
    Func g("g");
    RDom r(lo, extent, "r");
    r.where(cond(r.x));
    g(x) = x;
    g(r) = 99;
    Buffer<int> out(last - first + 1);
    out.set_min({first});
    std::string msg = runtime_error_of([&] { check_against_reference(g, out); });
    CHECK_MESSAGE(msg.empty(), msg);
    for (int i = first; i <= last; i++) CHECK(out(i) == 99);
}

}  // namespace

TEST_CASE("where r + 3 < 13 narrows an output's update to r in 0..9") {
    check_output_narrowed([](RVar r) { return r + 3 < 13; }, 0, 50, 0, 9);
}

TEST_CASE("where 2 * r < 20 narrows to 0..9, rounding the quotient down") {
    check_output_narrowed([](RVar r) { return 2 * r < 20; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return 3 * r <= 28; }, 0, 50, 0, 9);
}

TEST_CASE("where -r > -10 and 13 > r + 3, the variable negated or on the right") {
    check_output_narrowed([](RVar r) { return -r > -10; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return 13 > r + 3; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return 20 - r > 10; }, 0, 50, 0, 9);
}

TEST_CASE("lower bounds solved too, at negative coordinates: r - 2 >= -10 and 2 * r + 1 > -9") {
    // RDom [-20, -4].
    check_output_narrowed([](RVar r) { return r - 2 >= -10; }, -20, 17, -8, -4);
    check_output_narrowed([](RVar r) { return 2 * r + 1 > -9; }, -20, 17, -4, -4);
    check_output_narrowed([](RVar r) { return r * -3 <= 6 && r + 1 < 3; }, -20, 30, -2, 1);
}

TEST_CASE("a solved where narrows the input an update reads, sized exactly") {
    Buffer<int> in(10);
    for (int i = 0; i < 10; i++) in(i) = i * i + 1;
    ImageParam im(Int(32), 1, "im");
    im.set(in);
    Var x("x");
    Func f("f");
    RDom r(0, 40, "r");
    r.where(r + 3 < 13);
    f(x) = 0;
    f(x) += im(r) * (x + 1);
    Buffer<int> out(3);
    std::string msg = runtime_error_of([&] { check_against_reference(f, out); });
    CHECK_MESSAGE(msg.empty(), msg);
    CHECK(out(2) == 3 * (0 + 1 + 4 + 9 + 16 + 25 + 36 + 49 + 64 + 81 + 10));
}

TEST_CASE("two RDom variables in one condition narrow each other by their ranges") {
    Var x("x");
    Func g("g");
    RDom r(0, 30, 0, 4, "r");
    r.where(r.x + r.y < 8);  // r.x <= 7 - r.y <= 7
    g(x) = 0;
    g(r.x) += r.y + 1;
    Buffer<int> out(8);
    std::string msg = runtime_error_of([&] { check_against_reference(g, out); });
    CHECK_MESSAGE(msg.empty(), msg);
    CHECK(out(0) == 1 + 2 + 3 + 4);
    CHECK(out(7) == 1);
}

TEST_CASE("a where whose bounds would wrap in 32 bits keeps the whole range") {
    // r + 1000 <= 2147483646 holds for every r in [0, 50): nothing may be narrowed away (in
    // 32 bits, 2147483646 - 1000 + ... is fine, but r - 5 <= INT_MAX - 2 would overflow when
    // solved naively, as INT_MAX + 3).
    check_output_narrowed([](RVar r) { return r + 1000 <= 2147483646; }, 0, 50, 0, 49);
    check_output_narrowed([](RVar r) { return r - 5 <= 2147483645; }, 0, 50, 0, 49);
    check_output_narrowed([](RVar r) { return r + 5 >= -2147483645; }, 0, 50, 0, 49);
}

TEST_CASE("divisions by constants, min and max are solved as Halide solves them") {
    // (Found by a review: each of these kept the whole RDom, and an output or input of exactly
    // the rows the condition allows was refused, where Halide 14 runs them.)
    check_output_narrowed([](RVar r) { return r / 2 < 5; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return r / 3 >= 3 && r / 3 <= 4; }, 0, 50, 9, 14);
    check_output_narrowed([](RVar r) { return (r + 1) / 4 - 1 < 1; }, -20, 50, -20, 6);
    check_output_narrowed([](RVar r) { return min(r, 20) < 10; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return max(r, -5) >= 3; }, -20, 50, 3, 29);
    check_output_narrowed([](RVar r) { return min(r, 9) == r; }, 0, 50, 0, 9);
    check_output_narrowed([](RVar r) { return r == max(r, 3); }, -20, 50, 3, 29);
    // min(r, 5) < 10 holds for every r: nothing is narrowed (the whole RDom is written).
    check_output_narrowed([](RVar r) { return min(r, 5) < 10; }, 0, 12, 0, 11);
    // Negative divisors are not solved (the whole range stays; the values are still right).
    check_output_narrowed([](RVar r) { return r / -2 > -10; }, 0, 12, 0, 11);
}
