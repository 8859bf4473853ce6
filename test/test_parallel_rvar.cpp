// parallel() and vectorize() of an RVar loop (dsl/ParallelRVar.cpp): accepted exactly where no
// iteration can write a point another iteration writes or reads, as Halide proves it; each
// accepted schedule computes what the serial one does, each refusal says why.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

Buffer<int> input() { return halo_test::random_image<int>({64, 16}, 17, -50, 50); }

// Realizes f as scheduled and checks it against the reference evaluator.
void check(Func f, int w, int h) {
    Buffer<int> out(w, h);
    out.set_min(-3, -2);
    halo_test::check_against_reference(f, out);
}

std::string refusal(const std::function<void()> &schedule) { return compile_error_of(schedule); }

}  // namespace

TEST_CASE("race-free RVar loops that read the Func elsewhere run in parallel and in vectors") {
    Buffer<int> in = input();
    Var x("x"), y("y");
    {  // Reads a part of the Func no iteration writes: columns [20, 31] against [0, 11].
        RDom r(0, 12, 0, 10, "r");
        Func f("shifted_read");
        f(x, y) = x * 3 - y;
        f(r.x, r.y) += f(r.x + 20, r.y) * in(r.x, r.y);
        f.update().parallel(r.x).vectorize(r.y, 4);
        check(f, 40, 14);
    }
    {  // Writes odd points, reads even ones.
        RDom r(0, 16, "r");
        Func f("odd_from_even");
        f(x, y) = x + y * 7;
        f(2 * r + 1, y) += f(2 * r, y);
        f.update().vectorize(r, 8);
        check(f, 40, 4);
    }
    {  // Writes row 0, reads row 1.
        RDom r(0, 30, "r");
        Func f("row_from_row");
        f(x, y) = x - y;
        f(r, 0) += f(r - 1, 1);
        f.update().parallel(r);
        check(f, 36, 4);
    }
    {  // A fused tile loop of both RVars of a 2-D scatter of ones.
        RDom r(0, 12, 0, 10, "r");
        RVar rxo("rxo"), ryo("ryo"), rxi("rxi"), ryi("ryi"), t("t");
        Func f("fused_tiles");
        f(x, y) = 0;
        f(r.x, r.y) += 1 + in(r.x, r.y);
        f.update().tile(r.x, r.y, rxo, ryo, rxi, ryi, 4, 2).fuse(rxo, ryo, t).parallel(t);
        check(f, 16, 12);
    }
    {  // The outer loop of a split RVar, reading its own point and a constant row.
        RDom r(0, 50, "r");
        RVar ro("ro"), ri("ri");
        Func f("split_outer");
        f(x, y) = x * y;
        f(r, 1) = f(r, 1) * 2 + f(r + 3, 0);
        f.update().split(r, ro, ri, 8).parallel(ro).vectorize(ri);
        check(f, 60, 4);
    }
}

TEST_CASE("RVar loops whose iterations may meet are still refused, naming the stage") {
    Var x("x"), y("y");
    auto refused = [](const std::string &msg, const std::string &func) {
        INFO(msg);
        CHECK(contains(msg, "Func '" + func + "' update 0: parallel("));
        CHECK(contains(msg, "over an RVar"));
    };
    {  // f(r) += f(r + 20) over 21 values: iteration 20 writes what iteration 0 reads.
        RDom r(0, 21, "r");
        Func f("reach");
        f(x) = x;
        f(r) += f(r + 20);
        refused(refusal([&] { f.update().parallel(r); }), "reach");
        RDom s(0, 20, "s");  // over 20 values they never meet
        Func g("no_reach");
        g(x) = x;
        g(s) += g(s + 20);
        g.update().parallel(s);
        Buffer<int> out(45);
        out.set_min(-3);
        halo_test::check_against_reference(g, out);
    }
    {  // A scan: each iteration reads the previous one's point.
        RDom r(1, 20, "r");
        Func f("scan");
        f(x) = x;
        f(r) = f(r - 1) + f(r);
        refused(refusal([&] { f.update().parallel(r); }), "scan");
    }
    {  // Even points from even points two further on.
        RDom r(0, 10, "r");
        Func f("even_even");
        f(x) = x;
        f(2 * r) += f(2 * r + 2);
        refused(refusal([&] { f.update().parallel(r); }), "even_even");
    }
    {  // A position not affine in the RVar.
        RDom r(0, 10, "r");
        Func f("modular");
        f(x) = x;
        f(r % 4) += 1;
        refused(refusal([&] { f.update().parallel(r); }), "modular");
    }
    {  // A fused loop of an RVar and a Var when the RVar is not on the left side.
        RDom r(0, 10, "r");
        Func f("fused_var");
        f(x, y) = 0;
        f(x, y) += r;
        refused(refusal([&] { f.update().fuse(r, y, Var("t")).parallel(Var("t")); }), "fused_var");
    }
}

TEST_CASE("parallel over an RVar whose update reads a point the RDom never writes") {
    Var x("x");
    Func f("f"), g("g");
    RDom r(1, 10, "r");
    f(x) = 1;
    f(r) = f(0) + f(-1) + f(11) + 1;  // 0, -1 and 11 lie outside [1, 10]
    f.update().parallel(r);
    Buffer<int> out = f.realize({14});
    for (int k = 0; k < 14; k++) CHECK(out(k) == (k >= 1 && k <= 10 ? 4 : 1));
    // A point inside what the RDom writes is a race, and still refused.
    g(x) = 1;
    g(r) = g(5) + 1;
    std::string msg = halo_test::compile_error_of([&] { g.update().parallel(r); });
    CHECK(halo_test::contains(msg, "cannot run in"));
}

TEST_CASE("allow_race_conditions lets an unproven RVar loop run in parallel, and the refusal mentions it") {
    Var x("x");
    RDom r(0, 64, "r");
    Func f("f"), g("g");
    // Each iteration writes its own point through a permutation the proof cannot see.
    f(x) = 0;
    f((r * 37) % 64) = r;
    std::string msg = compile_error_of([&] { f.update().parallel(r); });
    CHECK(contains(msg, "or call atomic() on the stage first (its stores then become atomic updates; or, if the "
                        "races are intended, allow_race_conditions())"));
    f.update().allow_race_conditions().parallel(r);
    Buffer<int> out = f.realize({64});
    for (int k = 0; k < 64; k++) CHECK(out((k * 37) % 64) == k);
}
