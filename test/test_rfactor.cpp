// Stage::rfactor (Halide's): an associative reduction split into an intermediate Func over
// some RVar loops and the update over the rest; every result checked against the reference
// evaluator of the same algorithm (rfactor changes the order of the reduction only).
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("a 2-D sum rfactored on r.y: the intermediate computes a column sum per y, in parallel") {
    Buffer<int> in = halo_test::random_image<int>({37, 23}, 21, -99, 99);
    Var x("x"), u("u");
    RDom r(0, 37, 0, 23, "r");
    Func total("total"), ref("ref");
    total(x) = 0;
    total(x) += in(r.x, r.y) * (x + 1);
    ref(x) = 0;
    ref(x) += in(r.x, r.y) * (x + 1);
    Func intm = total.update().rfactor(r.y, u);
    CHECK(intm.name() == "total_intm");
    CHECK(intm.dimensions() == 2);
    intm.compute_root().update().parallel(u);
    Buffer<int> got = total.realize({5}), want = reference_realize(ref, {5});
    for (int i = 0; i < 5; i++) CHECK(got(i) == want(i));
    // The update now reduces the intermediate over r.y only.
    CHECK(contains(total.lowered_stmt(), "produce total_intm"));
}

TEST_CASE("the parallel-reduction idiom: split an RVar, rfactor its outer loop, vectorize the inner one") {
    Buffer<float> in = halo_test::random_image<float>({1000}, 22, -1, 1);
    Var u("u");
    RVar rxo("rxo"), rxi("rxi");
    for (int factor : {16, 7, 1000, 1001}) {
        INFO("factor " << factor);
        RDom r(0, 1000, "r");
        Func sum_f("sum_f"), ref("ref");
        sum_f() = 0.0f;
        sum_f() += in(r) * 2.0f;
        ref() = 0.0f;
        ref() += in(r) * 2.0f;
        sum_f.update().split(r.x, rxo, rxi, factor);
        Func intm = sum_f.update().rfactor(rxo, u);
        intm.compute_root().vectorize(u, 8).update().parallel(u);
        Buffer<float> got = sum_f.realize(std::vector<int>{}), want = reference_realize(ref, std::vector<int>{});
        // (the order of the additions differs: a float sum agrees to rounding)
        CHECK(got() == doctest::Approx(want()).epsilon(1e-4));
    }
}

TEST_CASE("integer reductions give exactly the reference's result, at sizes the splits do not divide") {
    Buffer<int> in = halo_test::int_buffer_at(50, 30, -7, 4);
    halo_test::fill_random(in, -1000, 1000, 23);
    Var x("x"), y("y"), u("u"), v("v");
    RVar ro("ro"), ri("ri");
    struct Case {
        const char *name;
        Expr (*make)(Func &f, const Expr &e);
    } cases[] = {
        {"+", [](Func &f, const Expr &e) { return Expr(f()) + e; }},
        {"min", [](Func &f, const Expr &e) { return min(f(), e); }},
        {"max", [](Func &f, const Expr &e) { return max(e, f()); }},
        {"*", [](Func &f, const Expr &e) { return Expr(f()) * select(e % 2 == 0, 1, -1); }},
    };
    for (auto &c : cases) {
        INFO("op " << std::string(c.name));
        RDom r(-7, 50, 4, 30, "r");
        Func f("f"), ref("ref");
        f() = c.name[0] == '*' ? 1 : 0;
        ref() = c.name[0] == '*' ? 1 : 0;
        Expr e = in(r.x, r.y) - r.x;
        f() = c.make(f, e);
        ref() = c.make(ref, e);
        f.update().split(r.y, ro, ri, 8);
        Func intm = f.update().rfactor({{ro, u}, {r.x, v}});
        intm.compute_root().update().parallel(u);
        Buffer<int> got = f.realize(std::vector<int>{}), want = reference_realize(ref, std::vector<int>{});
        CHECK(got() == want());
    }
}

TEST_CASE("a histogram rfactored over rows, with RDom::where kept in the intermediate") {
    Buffer<uint8_t> in = halo_test::random_image<uint8_t>({40, 30}, 24, 0, 255);
    Var x("x"), u("u");
    RDom r(0, 40, 0, 30, "r");
    r.where((r.x + r.y) % 3 != 0);
    Func hist("hist"), ref("ref");
    hist(x) = 0;
    hist(cast<int>(in(r.x, r.y)) / 16) += 1;
    RDom r2(0, 40, 0, 30, "r2");
    r2.where((r2.x + r2.y) % 3 != 0);
    ref(x) = 0;
    ref(cast<int>(in(r2.x, r2.y)) / 16) += 1;
    Func intm = hist.update().rfactor(r.y, u);
    intm.compute_root().update().parallel(u);
    Buffer<int> got = hist.realize({16}), want = reference_realize(ref, {16});
    for (int i = 0; i < 16; i++) CHECK(got(i) == want(i));
}

TEST_CASE("an rfactored Func computed at its consumer's loop: the reference of the rewritten and of the original algorithm agree with it") {
    Buffer<int> in = halo_test::random_image<int>({20, 12}, 25, -50, 50);
    Var x("x"), y("y"), u("u");
    RDom r(0, 20, "r"), r2(0, 20, "r2");
    Func g("g"), original("original");
    g(y) = 0;
    g(y) += in(r, y) * in(r, (y + 1) % 12);
    original(y) = 0;
    original(y) += in(r2, y) * in(r2, (y + 1) % 12);
    Buffer<int> want = reference_realize(original, {12});
    RVar ro("ro"), ri("ri");
    g.update().split(r.x, ro, ri, 6);
    g.update().rfactor(ro, u).compute_at(g, y);
    Buffer<int> got(12);
    halo_test::check_against_reference(g, got);
    CHECK(halo_test::compare(got, want).empty());
}

TEST_CASE("errors: rfactor names the stage and what it needs") {
    Buffer<int> in = halo_test::random_image<int>({10}, 26, -5, 5);
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    Func f("f");
    f(x) = 0;
    f(x) = f(x) * 2 - in(r);
    std::string msg = compile_error_of([&] { f.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'f' update 0: rfactor needs an associative update of the form f(...) = f(...) op e"));
    Func g("g");
    g(x) = 0;
    g(x) += in(r);
    msg = compile_error_of([&] { g.update().rfactor(RVar("nope"), u); });
    CHECK(contains(msg, "rfactor(nope, u): 'nope' is not one of its RVar loops (r.x)"));
    msg = compile_error_of([&] { g.update().rfactor(r, x); });
    CHECK(contains(msg, "'x' is already a Var of g; use a new Var"));
    Func h("h");
    h(x) = x;
    msg = compile_error_of([&] { Stage(h.function(), 0).rfactor(r, u); });
    CHECK(contains(msg, "rfactor applies to an update definition"));
}

TEST_CASE("rfactor of every RVar loop: the intermediate's update has no RDom, as Halide allows") {
    Buffer<int> in = halo_test::random_image<int>({23, 5}, 31, -20, 20);
    Var x("x"), u("u"), v("v");
    RDom r(0, 23, 0, 5, "r");
    r.where(r.x % 3 != 1);
    Func f("f");
    f(x) = x;
    f(x) += in(r.x, r.y) * (x + 1);
    Buffer<int> want(4);
    want.set_min(-1);
    Buffer<> want_any(want);
    halo::reference_realize(f, want_any);
    Func intm = f.update().rfactor({{r.x, u}, {r.y, v}});
    intm.compute_root().vectorize(u, 8);
    Buffer<int> got(4);
    got.set_min(-1);
    halo_test::check_against_reference(f, got);
    CHECK(halo_test::compare(got, want).empty());
    // The outer loop of a split that does not divide: its guard selects instead.
    Func g("g");
    RDom s(0, 23, "s");
    RVar so("so"), si("si");
    g(x) = 0;
    g(x) += in(s, 0) * x;
    g.update().split(s, so, si, 5);
    Func gi = g.update().rfactor({{so, u}, {si, v}});
    gi.compute_root();
    halo_test::check_against_reference(g, Buffer<int>(3));
}

// max(f + e, f) is f + max(e, 0) (min likewise): a sum in any order, as Halide's associativity
// prover knows (for 32- and 64-bit signed integers). Both operand orders, at sizes the splits
// do not divide.
TEST_CASE("max(f + e, f) and min(f + e, f) rfactor as sums of max(e, 0) and min(e, 0)") {
    Buffer<int> in = halo_test::random_image<int>({53, 11}, 31, -40, 40);
    Var x("x"), u("u");
    RVar rxo("rxo"), rxi("rxi");
    for (int form = 0; form < 4; form++) {
        INFO("form " << form);
        RDom r(0, 53, 0, 11, "r");
        Func f("f"), ref("ref");
        Expr e = in(r.x, r.y) * (x + 1) - 7;
        auto update = [&](Func &g) {
            if (form == 0) g(x) = max(g(x) + e, g(x));
            if (form == 1) g(x) = max(g(x), e + g(x));
            if (form == 2) g(x) = min(g(x) + e, g(x));
            if (form == 3) g(x) = min(g(x), g(x) + e);
        };
        f(x) = 5 - x;
        update(f);
        ref(x) = 5 - x;
        update(ref);
        f.update().split(r.x, rxo, rxi, 8);
        Func intm = f.update().rfactor({{rxo, u}});
        intm.compute_root().update().parallel(u);
        Buffer<int> got = f.realize({6}), want = reference_realize(ref, {6});
        for (int i = 0; i < 6; i++) CHECK(got(i) == want(i));
    }
}

// Where the sum wraps (unsigned or narrow types), max(f + e, f) keeps f and f + max(e, 0) does
// not; with float infinities and NaNs the order matters: not associative, refused.
TEST_CASE("max(f + e, f) of a type whose sums wrap, or of floats, is not taken for a sum") {
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    Func f("f");
    f(x) = cast<uint8_t>(200);
    f(x) = max(f(x) + cast<uint8_t>(r * 20), f(x));
    std::string msg = compile_error_of([&] { f.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'f' update 0: rfactor needs an associative update of the form f(...) = f(...) op e"));
    // Run in order, it is right (200 + 20k wraps for k >= 3, so max keeps f there).
    Buffer<uint8_t> got = f.realize({2}), want = reference_realize(f, {2});
    CHECK(got(0) == want(0));
    Func g("g");
    g(x) = 1.0f;
    g(x) = max(g(x) + cast<float>(r) - 4.5f, g(x));
    msg = compile_error_of([&] { g.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'g' update 0: rfactor needs an associative update of the form g(...) = g(...) op e"));
}

// RVar loops fused before rfactor (as Halide allows): the fused loop runs over the product of
// the extents, inner = t % inner extent + min, outer = t / inner extent + min. Kept by the
// intermediate (then split there) or moved into its pure Var.
TEST_CASE("rfactor after a fuse of RVar loops, keeping the fused loop or factoring it") {
    Buffer<int> in = halo_test::random_image<int>({9, 7, 5}, 33, -30, 30);
    Var x("x"), u("u");
    for (bool factor_fused : {false, true}) {
        INFO("factor the fused loop: " << factor_fused);
        RDom r(-2, 9, 3, 7, 1, 5, "r");  // extents 9, 7, 5 at non-zero mins
        Func g("g"), ref("ref");
        Expr e = in(r.x + 2, r.y - 3, r.z - 1) * (r.x - 2 * r.y + 3 * r.z) + x;
        g(x) = x;
        g(x) += e;
        ref(x) = x;
        ref(x) += e;
        RVar rf("rf"), rfo("rfo"), rfi("rfi");
        g.update().fuse(r.x, r.y, rf);
        Func intm = factor_fused ? g.update().rfactor(rf, u) : g.update().rfactor(r.z, u);
        intm.compute_root();
        if (!factor_fused) intm.update().split(rf, rfo, rfi, 4);  // 63 = 4 * 15 + 3
        Buffer<int> got = g.realize({4}), want = reference_realize(ref, {4});
        for (int i = 0; i < 4; i++) CHECK(got(i) == want(i));
    }
}

TEST_CASE("rfactor after an RVar loop is fused with a pure Var's loop is a clear error") {
    Var x("x"), u("u"), xr("xr");
    RDom r(0, 10, "r");
    Func g("g");
    g(x) = 0;
    g(x) += r * x;
    g.update().fuse(r, x, xr);
    std::string msg = compile_error_of([&] { g.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'g' update 0: rfactor of an update whose RVar loop is fused with a pure Var's loop (xr)"));
}

// As in Halide: rfactor of one specialization of an update. Only that branch reduces through
// the intermediate; the others keep the original update (and the reference evaluator runs
// the algorithm, which rfactor does not change).
TEST_CASE("rfactor of a specialization: that branch reduces through the intermediate, the others do not") {
    Buffer<int> in = halo_test::random_image<int>({31, 17}, 27, -50, 50);
    Var x("x"), y("y"), u("u");
    Param<int> p("p"), q("q");
    RDom r(0, 31, 0, 17, "r");
    Func hist("spec_hist");
    hist(x, y) = 0;
    hist(x, y) += in(r.x, r.y) * (x - y) + r.y;
    Stage wide = hist.update().specialize(p > 2);
    wide.vectorize(x, 4);
    // Nested: a specialization of a specialization, with its intermediate at the default schedule.
    Func deep = wide.specialize(q > 0).rfactor(r.y, u);
    Func top = hist.update().specialize(p > 1).rfactor(r.x, u);
    top.compute_root().update().parallel(u);
    CHECK(contains(hist.lowered_stmt(), "produce spec_hist_intm"));
    for (int pv : {0, 2, 3}) {
        for (int qv : {0, 1}) {
            INFO("p = " << pv << ", q = " << qv);
            p.set(pv);
            q.set(qv);
            Buffer<int> out(7, 5);
            out.set_min({-3, 2});
            halo_test::check_against_reference(hist, out);
        }
    }
    // Computed at a loop every branch has: only the branch that reads it computes it.
    Func at_y("spec_at_y");
    at_y(x, y) = 0;
    at_y(x, y) += in(r.x, r.y) * (x + 2 * y);
    at_y.update().specialize(p > 1).rfactor(r.y, u).compute_at(at_y, y);
    for (int pv : {0, 2}) {
        p.set(pv);
        Buffer<int> out(6, 4);
        out.set_min({1, -2});
        halo_test::check_against_reference(at_y, out);
    }
    // A producer computed at a loop the rfactored branch split away: that branch reads it
    // through its intermediate, so the missing loop is an error naming the specialization.
    {
        Func prod("spec_prod"), sum2("spec_sum2");
        prod(x, y) = in(x, y) * 3;
        sum2(x) = 0;
        RDom s(0, 31, 0, 17, "s");
        sum2(x) += prod(s.x, s.y) + x;
        Stage sp = sum2.update().specialize(q > 1);
        sp.rfactor(s.y, u);
        Var xo("xo"), xi("xi");
        sp.split(x, xo, xi, 4);
        prod.compute_at(sum2, x);
        std::string msg = compile_error_of([&] { sum2.realize({5}); });
        CHECK(contains(msg, "but the specialization specialize((q > 1)) of spec_sum2's update 0 has no loop 'x'"));
    }
    // The unspecialized update still refuses rfactor once it has specializations.
    std::string msg = compile_error_of([&] { hist.update().rfactor(r.x, u); });
    CHECK(contains(msg, "is specialized; rfactor it before specializing it"));
}

// Tuple-valued updates (Halide's rfactor takes them): each value reduced on its own by its own
// operator, or a product of complex numbers. Integers, so the result is exactly the
// reference's whatever the order; sizes the splits do not divide, a non-zero RDom min.
TEST_CASE("Tuple-valued reductions: a sum with a max, and a product of complex numbers, exactly as the reference") {
    Buffer<int> in = halo_test::int_buffer_at(45, 13, -9, 3);
    halo_test::fill_random(in, -3, 3, 41);
    Var x("x"), u("u");
    RVar ro("ro"), ri("ri");
    for (int which = 0; which < 2; which++) {
        for (int factor : {4, 7}) {
            CAPTURE(which);
            CAPTURE(factor);
            RDom r(-9, 45, 3, 13, "r");
            Func f("f"), ref("ref");
            // (uint32: the complex products wrap, exactly in any order; int32 would overflow.)
            Expr e0 = cast<uint32_t>(in(r.x, r.y) + x), e1 = cast<uint32_t>(in(r.x, r.y) * 2 - r.y);
            for (Func *g : {&f, &ref}) {
                Func &h = *g;
                if (which == 0) {
                    h(x) = {cast<uint32_t>(0), cast<uint32_t>(7)};
                    h(x) = {h(x)[0] + e0, max(e1, h(x)[1])};
                } else {
                    // (a + bi)(c + di) = (ac - bd) + (bc + ad)i, written with the terms in
                    // another order than the pattern's.
                    h(x) = {cast<uint32_t>(1), cast<uint32_t>(0)};
                    Expr a = h(x)[0], b = h(x)[1];
                    h(x) = {e0 * a - b * e1, a * e1 + e0 * b};
                }
            }
            f.update().split(r.x, ro, ri, factor, TailStrategy::GuardWithIf);
            Func intm = f.update().rfactor({{ri, u}, {r.y, Var("v")}});
            intm.compute_root().vectorize(u, 8).update().parallel(Var("v"));
            Realization got = f.realize({6});
            Realization want = reference_realize(ref, {6});
            for (int i = 0; i < 6; i++) {
                CHECK(Buffer<uint32_t>(got[0])(i) == Buffer<uint32_t>(want[0])(i));
                CHECK(Buffer<uint32_t>(got[1])(i) == Buffer<uint32_t>(want[1])(i));
            }
            // The RVars of such an update may be reordered too.
            Func g("g");
            RDom s(0, 5, 0, 4, "s");
            g() = {0, 0};
            g() = {g()[0] + s.x * s.y, g()[1] + s.x};
            CHECK(compile_error_of([&] { g.update().reorder(s.y, s.x); }) == "");
        }
    }
}

TEST_CASE("Tuple-valued updates rfactor refuses: a value reading another, and a mismatched complex product") {
    Buffer<int> in = halo_test::random_image<int>({10}, 42, -5, 5);
    Var u("u");
    RDom r(0, 10, "r");
    // Value 1 adds value 0: not a form of its own, nor one that follows a min or max.
    Func running("running");
    running() = {1000, 0};
    running() = {running()[0] + in(r), running()[1] + running()[0]};
    std::string msg = compile_error_of([&] { running.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'running' update 0: rfactor needs an associative update"));
    CHECK(contains(msg, "(for a Tuple: each value so, reading only its own value of running, or left as it is, or an "
                        "argmin or argmax: select(running[j] < e_j, running[i], e_i) beside min(running[j], e_j); or a "
                        "product of complex numbers)"));
    // (a c - b d, a d + b c) with d in the real part but c' != c in the imaginary part.
    Func z("z");
    z() = {1, 0};
    Expr a = z()[0], b = z()[1];
    z() = {a * in(r) - b * 2, a * 2 + b * (in(r) + 1)};
    msg = compile_error_of([&] { z.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'z' update 0: rfactor needs an associative update"));
    // A select that does not pick the side its min picks: the smaller value with the larger's
    // position.
    Func wrong("wrong");
    wrong() = {1000, 0};
    wrong() = {min(wrong()[0], in(r)), select(wrong()[0] > in(r), wrong()[1], r)};
    msg = compile_error_of([&] { wrong.update().rfactor(r, u); });
    CHECK(contains(msg, "Func 'wrong' update 0: rfactor needs an associative update"));
}

namespace {

// An argmin or argmax over r of in(r, x) (values with many ties), spelled `form`; the pair
// starts from (start, -1).
void define_arg_reduction(Func f, const Buffer<int> &in, const RDom &r, int form, int start) {
    Var x("x");
    f(x) = {start, -1};
    Expr v = in(r, x), best = f(x)[0], at = f(x)[1];
    switch (form) {
    case 0: f(x) = {min(best, v), select(best < v, at, r)}; break;    // argmin, the last of equal values
    case 1: f(x) = {min(best, v), select(v < best, r, at)}; break;    // argmin, the first
    case 2: f(x) = {max(v, best), select(best >= v, at, r)}; break;   // argmax, the first
    default: f(x) = {max(best, v), select(v >= best, r, at)}; break;  // argmax, the last
    }
}

}  // namespace

TEST_CASE("argmin and argmax Tuples rfactor over their outer loops, ties resolved as the serial order resolves them") {
    // Values 0..3 over 37 points: every row has many equal minima and maxima.
    Buffer<int> in = halo_test::random_image<int>({37, 6}, 43, 0, 3);
    for (int form = 0; form < 4; form++) {
        for (int how = 0; how < 3; how++) {
            CAPTURE(form);
            CAPTURE(how);
            RDom r(0, 37, "r");
            Func f("f"), ref("ref");
            const int start = form < 2 ? 2 : 1;  // ties with the values too
            define_arg_reduction(f, in, r, form, start);
            define_arg_reduction(ref, in, r, form, start);
            RVar ro("ro"), ri("ri");
            Var u("u"), v("v");
            if (how == 0) {
                f.update().rfactor(r.x, u).compute_root().update().parallel(u);
            } else if (how == 1) {
                f.update().split(r.x, ro, ri, 4);
                f.update().rfactor(ro, u).compute_root().update().parallel(u);
            } else {
                f.update().split(r.x, ro, ri, 4);
                f.update().rfactor({{ro, u}, {ri, v}}).compute_root();
            }
            Realization got = f.realize({6}), want = reference_realize(ref, {6});
            for (int x = 0; x < 6; x++) {
                CAPTURE(x);
                CHECK(Buffer<int>(got[0])(x) == Buffer<int>(want[0])(x));
                CHECK(Buffer<int>(got[1])(x) == Buffer<int>(want[1])(x));
            }
        }
    }
}

TEST_CASE("an argmin whose intermediate visits no point of some part keeps the position from before") {
    // Rows x >= 3 leave out every point: an intermediate part that visited nothing must not
    // bring its identity's position in, even where its value ties with the pair so far (the
    // highest int, where the pair starts).
    Buffer<int> in = halo_test::random_image<int>({37, 5}, 44, 0, 3);
    for (int how = 0; how < 2; how++) {
        CAPTURE(how);
        Var x("x"), u("u"), v("v");
        RDom r(0, 37, "r");
        r.where(r.x < 12 - 4 * x);
        Func f("f"), ref("ref");
        for (Func *g : {&f, &ref}) {
            (*g)(x) = {Expr(INT32_MAX), -1};
            Expr best = (*g)(x)[0];
            (*g)(x) = {min(best, in(r, x)), select(best < in(r, x), (*g)(x)[1], r)};
        }
        RVar ro("ro"), ri("ri");
        f.update().split(r.x, ro, ri, 4);
        if (how == 0) f.update().rfactor(ro, u).compute_root().update().parallel(u);
        else f.update().rfactor({{ro, u}, {ri, v}}).compute_root();
        Realization got = f.realize({5}), want = reference_realize(ref, {5});
        for (int i = 0; i < 5; i++) {
            CAPTURE(i);
            CHECK(Buffer<int>(got[0])(i) == Buffer<int>(want[0])(i));
            CHECK(Buffer<int>(got[1])(i) == Buffer<int>(want[1])(i));
        }
        CHECK(Buffer<int>(got[1])(4) == -1);
    }
}

TEST_CASE("rfactor of an argmin's inner loop alone is an error: the intermediate would change the order of ties") {
    Buffer<int> in = halo_test::random_image<int>({37, 6}, 45, 0, 3);
    RDom r(0, 37, "r");
    Func f("f");
    define_arg_reduction(f, in, r, 1, 2);
    RVar ro("ro"), ri("ri");
    Var u("u");
    f.update().split(r.x, ro, ri, 4);
    std::string msg = compile_error_of([&] { f.update().rfactor(ri, u); });
    CHECK(contains(msg, "Func 'f' update 0: rfactor(ri, u): the update is an argmin or argmax, whose result depends on "
                        "the order of its points (between equal values, the first or the last one wins, as its select "
                        "says), and the RVar loop 'ro' it leaves to the intermediate is outside 'ri'"));
    CHECK(contains(msg, "rfactor 'ro' too, or an outer loop instead"));
}

TEST_CASE("an argmin's intermediate is not rfactored again, and an argmin's RVars keep their order, both said plainly") {
    Buffer<int> in = halo_test::random_image<int>({50, 4}, 46, 0, 3);
    Var x("x"), u("u"), v("v");
    RDom r(0, 50, "r");
    Func f("f");
    define_arg_reduction(f, in, r, 1, 2);
    RVar ro("ro"), ri("ri"), a("a"), b("b");
    f.update().split(r.x, ro, ri, 10);
    Func intm = f.update().rfactor(ro, u);
    intm.update().split(ri, a, b, 5);
    std::string msg = compile_error_of([&] { intm.update().rfactor(a, v); });
    CHECK(contains(msg, "Func 'f_intm' update 0: rfactor of the intermediate of an argmin's or argmax's rfactor"));
    CHECK(contains(msg, "Rfactor the original update once, with every RVar loop that should become a Var"));
    // Reordering a 2-D argmin's RVars.
    RDom s(0, 5, 0, 10, "s");
    Func g("g");
    g(x) = {100, -1};
    Expr best = g(x)[0], val = in(s.x + 5 * x % 10, s.y % 4);
    g(x) = {min(best, val), select(best < val, g(x)[1], s.x + s.y * 5)};
    msg = compile_error_of([&] { g.update().reorder(s.y, s.x); });
    CHECK(contains(msg, "reorder would change the order of its RVars"));
    CHECK(contains(msg, "an argmin or argmax is not commutative: which of equal values wins depends on the order"));
}

TEST_CASE("a difference with the most negative int32 constant rfactors: the constant is negated wrapping") {
    Buffer<int> in = halo_test::random_image<int>({1, 3}, 47, -3, 0);
    Var x("x"), u("u");
    RDom r(0, 1, "r");
    Func f("f"), ref("ref");
    for (Func *g : {&f, &ref}) {
        (*g)(x) = -5 - x;
        (*g)(x) = (*g)(x) - Expr(INT32_MIN) - in(r, x);  // -5 - x + 2^31 - in fits
    }
    f.update().rfactor(r.x, u).compute_root();
    Buffer<int> got = f.realize({3}), want = reference_realize(ref, {3});
    for (int i = 0; i < 3; i++) CHECK(got(i) == want(i));
}

// Updates Halide 14's associativity prover accepts once its simplifier has rewritten them:
// select(e > f, e, f) is max(f, e), select(c, f + e, f) is f + select(c, e, 0), f * e + f is
// f * (e + 1), max(f, e) + min(f, e) is f + e, max(f + e, f) + e is f + (max(e, 0) + e). Each
// must give the reference's result exactly for integers (floats: the sums may round
// differently), at random data, split sizes the RDom does not divide and a parallel intermediate.
template <typename T>
void check_rewritten_form(const char *name, Expr (*update)(Expr f, Expr e), unsigned seed) {
    INFO("form " << std::string(name) << " on " << type_of<T>() << ", seed " << seed);
    const double lo = type_of<T>().is_uint() ? 0 : -20, hi = type_of<T>().is_uint() ? 255 : 20;
    Buffer<T> in = halo_test::random_image<T>({41, 5}, seed, lo, hi);
    Var x("x"), u("u");
    RVar ro("ro"), ri("ri");
    RDom r(0, 41, "r");
    Func f("f"), ref("ref");
    for (Func *g : {&f, &ref}) {
        (*g)(x) = cast(type_of<T>(), x + 3);
        (*g)(x) = update((*g)(x), in(r, x));
    }
    f.update().split(r.x, ro, ri, 1 + int(seed % 7));
    Func intm = f.update().rfactor(ro, u);
    intm.compute_root().update().parallel(u);
    Buffer<T> got = f.realize({5}), want = reference_realize(ref, {5});
    for (int i = 0; i < 5; i++) {
        if (type_of<T>().is_float()) CHECK(double(got(i)) == doctest::Approx(double(want(i))).epsilon(1e-5));
        else CHECK(double(got(i)) == double(want(i)));
    }
}

TEST_CASE("updates that rewrite to a max, min, sum or product rfactor, as in Halide") {
    using Form = Expr (*)(Expr f, Expr e);
    struct Case {
        const char *name;
        Form update;
        bool integers_only, int32_only;
    } cases[] = {
        {"select(e > f, e, f)", [](Expr f, Expr e) { return select(e > f, e, f); }, false, false},
        {"select(e > f, f, e)", [](Expr f, Expr e) { return select(e > f, f, e); }, false, false},
        {"select(f < e, e, f)", [](Expr f, Expr e) { return select(f < e, e, f); }, false, false},
        {"select(f < e, f, e)", [](Expr f, Expr e) { return select(f < e, f, e); }, false, false},
        {"select(e <= f, e, f)", [](Expr f, Expr e) { return select(e <= f, e, f); }, true, false},
        {"select(f >= e, f, e)", [](Expr f, Expr e) { return select(f >= e, f, e); }, true, false},
        {"select(e > 3, f + e, f)", [](Expr f, Expr e) { return select(e > 3, f + e, f); }, false, false},
        {"select(e < 5, f, f - e)", [](Expr f, Expr e) { return select(e < 5, f, f - e); }, false, false},
        {"select(e > 9, e + f, select(e < 3, f + 1, f))",
         [](Expr f, Expr e) { return select(e > 9, e + f, select(e < 3, f + 1, f)); }, false, false},
        // (factors of -1 and 1, or 255 and 1: products that do not overflow int32)
        {"f * k + f", [](Expr f, Expr e) { return f * cast(f.type(), (e & 1) * 2 - 2) + f; }, true, false},
        {"f + f * k - f * 2", [](Expr f, Expr e) { return f + f * ((e & 1) * 2) - f * 2; }, true, false},
        {"max(f, e) + min(e, f)", [](Expr f, Expr e) { return max(f, e) + min(e, f); }, true, false},
        {"max(f + e, f) + e", [](Expr f, Expr e) { return max(f + e, f) + e; }, true, true},
        {"max(f, e + f) - 1", [](Expr f, Expr e) { return max(f, e + f) - 1; }, true, true},
        {"max(min(f + e, f), f - 1)", [](Expr f, Expr e) { return max(min(f + e, f), f - 1); }, true, true},
        {"min(max(f + e, f), f + 2)", [](Expr f, Expr e) { return min(max(f + e, f), f + 2); }, true, true},
    };
    for (const Case &c : cases) {
        for (unsigned seed = 1; seed <= 3; seed++) {
            check_rewritten_form<int32_t>(c.name, c.update, seed);
            if (c.int32_only) continue;
            check_rewritten_form<uint8_t>(c.name, c.update, seed + 10);
            check_rewritten_form<int16_t>(c.name, c.update, seed + 20);
            if (!c.integers_only) check_rewritten_form<float>(c.name, c.update, seed + 30);
        }
    }
}

// Rewrites that are not exact are not made: the update stays refused, as in Halide where noted.
TEST_CASE("updates that only look like a max or a conditional sum stay refused") {
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    auto refusal = [&](Type t, Expr (*update)(Expr f, Expr e)) {
        Func f("f");
        f(x) = cast(t, x);
        f(x) = update(f(x), cast(t, r));
        return compile_error_of([&] { f.update().rfactor(r, u); });
    };
    const std::string needs = "Func 'f' update 0: rfactor needs an associative update of the form f(...) = f(...) op e";
    // The condition reads f: which points add depends on the order (Halide refuses it too).
    CHECK(contains(refusal(Int(32), [](Expr f, Expr e) { return select(f > 3, f + e, f); }), needs));
    // A tie of +0 and -0 picks by the order: not max for floats.
    CHECK(contains(refusal(Float(32), [](Expr f, Expr e) { return select(e >= f, e, f); }), needs));
    // The arms are not the compared values.
    CHECK(contains(refusal(Int(32), [](Expr f, Expr e) { return select(e > f, e + 1, f); }), needs));
    // max + min of different operands, and a sum with a term without f beside f * e.
    CHECK(contains(refusal(Int(32), [](Expr f, Expr e) { return max(f, e) + min(f, e + 1); }), needs));
    CHECK(contains(refusal(Int(32), [](Expr f, Expr e) { return f * e + f + e; }), needs));
    // Sums that wrap: max(f + e, f) + e keeps f where f + e wraps.
    CHECK(contains(refusal(UInt(8), [](Expr f, Expr e) { return max(f + e, f) + e; }), needs));
}

// An update that reads its RVars only where the simplifier removes them: matched as
// simplified, its e no longer reads them, yet the intermediate must still apply it once per
// point of its RDom (it applied it once per intermediate point, a wrong product).
TEST_CASE("an update whose e reads its RVars only trivially still applies once per point") {
    Buffer<int> in = halo_test::random_image<int>({11, 4}, 5, -3, 3);
    Var x("x"), u("u");
    RVar ro("ro"), ri("ri");
    for (int form = 0; form < 3; form++) {
        INFO("form " << form);
        RDom r(0, 11, "r");
        Func f("f"), ref("ref");
        for (Func *g : {&f, &ref}) {
            (*g)(x) = x + 1;
            Expr e = in(r, x), fx = (*g)(x);
            if (form == 0) (*g)(x) = fx * 4 + e * 0;
            if (form == 1) (*g)(x) = fx + (e - e + 2);
            if (form == 2) (*g)(x) = max(fx, e - e + 9 + x);
        }
        f.update().split(r.x, ro, ri, 3);
        f.update().rfactor(ro, u).compute_root();
        Buffer<int> got = f.realize({4}), want = reference_realize(ref, {4});
        for (int i = 0; i < 4; i++) CHECK(got(i) == want(i));
    }
}
