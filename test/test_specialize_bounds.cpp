// What a specialized stage reads is what the branch taken reads (Halide's rule): an input or
// producer read only by a branch not taken need not cover anything, and within a branch the
// definition knows the branch's condition (select(c, a, b) specialized on c reads a only, and
// on a condition implying c too). Checked through run-time bounds checks, infer_input_bounds,
// values against the reference evaluator, and the boxes' own select-on-condition merge.
#include "TestUtil.h"
#include "lower/Bounds.h"
#include "lower/EvaluateInt.h"

using namespace halo;
using halo_test::contains;
using halo_test::runtime_error_of;

namespace {

// The region infer_input_bounds bound to an ImageParam in dimension d: (min, extent).
std::pair<int, int> inferred(const ImageParam &p, int d) {
    Buffer<> b = p.get();
    return {b.dim(d).min(), b.dim(d).extent()};
}

Buffer<int> ramp(int w, int xmin) {
    Buffer<int> b(w);
    b.set_min(xmin);
    b.for_each_element([&](const std::vector<int> &c) { b(c) = 3 * c[0] + 1; });
    return b;
}

}  // namespace

TEST_CASE("an input read only by a specialization not taken need not cover the output") {
    ImageParam im(Int(32), 1, "im");
    Param<bool> use_input("use_input");
    Func f("f");
    Var x("x");
    f(x) = select(use_input, im(x) * 2, x - 5);
    f.specialize(use_input).vectorize(x, 8);
    im.set(ramp(10, 0));  // 10 points; the output has 37

    use_input.set(false);
    Buffer<int> out(37);
    out.set_min(-4);
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == c[0] - 5); });

    // Taken, the branch reads the whole output's region of im: the bounds check names both.
    use_input.set(true);
    std::string err = runtime_error_of([&] { f.realize(out); });
    CHECK(contains(err, "input 'im' covers dimension 0 in [0, 9], but producing output 'f' needs [-4, 32]"));
    im.set(ramp(37, -4));
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == 2 * (3 * c[0] + 1)); });
}

TEST_CASE("a Param's range known from a specialization decides the selects it implies") {
    // k > 6 implies k > 3: the branch reads only im(x + 10). Otherwise both arms are possible.
    for (int k_value : {9, 5, 1}) {
        CAPTURE(k_value);
        ImageParam im(Int(32), 1, "im");
        Param<int> k("k");
        Func f("f");
        Var x("x");
        f(x) = select(k > 3, im(x + 10), im(x - 10));
        f.specialize(k > 6);
        k.set(k_value);
        f.infer_input_bounds({100});
        if (k_value > 6) CHECK(inferred(im, 0) == std::make_pair(10, 100));
        else CHECK(inferred(im, 0) == std::make_pair(-10, 120));
        Buffer<int> out(100);
        f.realize(out);
        Buffer<int> in = im.get();
        out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == in(c[0] + (k_value > 3 ? 10 : -10))); });
    }
}

TEST_CASE("a failed specialization tells the branches after it: k <= 6 decides k > 8") {
    ImageParam im(Int(32), 1, "im");
    Param<int> k("k");
    Func f("f");
    Var x("x");
    f(x) = select(k > 8, im(x + 10), im(x - 10));
    f.specialize(k > 6).vectorize(x, 4);
    k.set(2);
    f.infer_input_bounds({50});  // the general branch runs, knowing k <= 6: only im(x - 10)
    CHECK(inferred(im, 0) == std::make_pair(-10, 50));
}

TEST_CASE("nested specializations: the reads of each combination of two bool Params") {
    for (int bits = 0; bits < 4; bits++) {
        bool p_value = bits & 1, q_value = bits & 2;
        CAPTURE(p_value);
        CAPTURE(q_value);
        ImageParam im(Int(32), 2, "im");
        Param<bool> p("p"), q("q");
        Func f("f");
        Var x("x"), y("y");
        f(x, y) = select(p, select(q, im(x, y + 20), im(x + 20, y)), im(x - 20, y - 20));
        f.specialize(p).specialize(q).vectorize(x, 4);
        f.specialize(p);
        p.set(p_value);
        q.set(q_value);
        f.infer_input_bounds({8, 6});
        std::pair<int, int> want_x = p_value ? (q_value ? std::make_pair(0, 8) : std::make_pair(20, 8)) : std::make_pair(-20, 8);
        std::pair<int, int> want_y = p_value ? (q_value ? std::make_pair(20, 6) : std::make_pair(0, 6)) : std::make_pair(-20, 6);
        CHECK(inferred(im, 0) == want_x);
        CHECK(inferred(im, 1) == want_y);
        halo_test::check_against_reference(f, Buffer<int>(8, 6));
    }
}

TEST_CASE("a producer read by one branch only is still computed right under both") {
    // g is computed at the root, h inside f's rows: each is read by one branch of f's select.
    for (bool wide : {true, false}) {
        CAPTURE(wide);
        Param<bool> p("p");
        Func g("g"), h("h"), f("f");
        Var x("x"), y("y");
        g(x, y) = x * 7 - y;
        h(x, y) = x + y * 11;
        f(x, y) = select(p, g(x - 2, y) + g(x + 3, y + 1), h(x, y - 4) * 3);
        g.compute_root().vectorize(x, 8);
        h.compute_at(f, y);
        f.specialize(p).vectorize(x, 8, TailStrategy::GuardWithIf).split(y, y, Var("yi"), 3);
        for (bool pv : {true, false}) {
            CAPTURE(pv);
            p.set(pv);
            halo_test::check_against_reference(f, halo_test::int_buffer_at(wide ? 29 : 5, 7, -6, 3));
        }
    }
}

TEST_CASE("a Func read only in the arm of a constant-false select computes nothing") {
    Func g("g"), f("f");
    Var x("x");
    g(x) = x * 2;
    f(x) = select(Expr(false), g(x), x + 1);
    g.compute_root();
    std::string stmt = f.lowered_stmt();
    CHECK(contains(stmt, "allocate g[int32 * (int64)0]"));
    Buffer<int> out(10);
    out.set_min(-3);
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == c[0] + 1); });
}

TEST_CASE("a chain read only by a branch that never runs reads no input") {
    // g is read only where p holds, and the general branch fails: when the Func is realized
    // (p true), the select picks x, so g, h and their reads of im are needed nowhere.
    ImageParam im(Int(32), 1, "im");
    Param<bool> p("p");
    Func h("h"), g("g"), f("f");
    Var x("x");
    h(x) = im(x + 100);
    g(x) = im(x - 1) + h(x - 1) + h(x + 1);
    f(x) = select(p, x * 5, g(x));
    h.compute_root();
    g.compute_root().bound(x, 5, 10);
    f.specialize(p);
    f.specialize_fail("p must be set");
    p.set(true);
    im.set(ramp(3, 0));
    std::string stmt = f.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "allocate h[int32 * (int64)0]"));
    CHECK(!contains(stmt, "for (g.s0"));  // g keeps its bound's buffer, but nothing computes it
    Buffer<int> out(12);
    out.set_min(-2);
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == c[0] * 5); });
    p.set(false);
    CHECK(contains(runtime_error_of([&] { f.realize(out); }), "p must be set"));
}

TEST_CASE("a producer read only by branches that do not run is not computed, nor its inputs read") {
    // h reads im far to the right; only the general branch (p false) reads g and through it h.
    ImageParam im(Int(32), 1, "im");
    Param<bool> p("p");
    Func h("h"), g("g"), f("f");
    Var x("x");
    h(x) = im(x + 100) * 2;
    g(x) = h(x - 1) + h(x + 1);
    f(x) = select(p, x * 5, g(x));
    h.compute_root();
    g.compute_root().vectorize(x, 4);
    f.specialize(p).vectorize(x, 8, TailStrategy::GuardWithIf);
    Buffer<int> out(13);
    out.set_min(-3);

    p.set(true);
    im.set(ramp(3, 0));  // far too small for g, which does not run
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c) == c[0] * 5); });

    p.set(false);
    std::string err = runtime_error_of([&] { f.realize(out); });
    CHECK(contains(err, "input 'im' covers dimension 0 in [0, 2], but producing output 'f' needs"));
    im.set(ramp(200, 0));
    f.realize(out);
    out.for_each_element([&](const std::vector<int> &c) {
        int v = c[0];
        CHECK(out(c) == 2 * (3 * (v + 99) + 1) + 2 * (3 * (v + 101) + 1));
    });
    // g's region [-3, 9] reads h over [-4, 10], which reads im over [96, 110]: exactly that.
    im.set(ramp(15, 96));
    halo_test::check_against_reference(f, ramp(13, -3));
    p.set(true);
    halo_test::check_against_reference(f, ramp(13, -3));
}

TEST_CASE("a Func read under many specializations: its bounds stay small (compile time)") {
    // Each update reads g only where its own Param holds: without a limit, the merged ends
    // would double with every update (2^24 nodes here).
    const int n = 24;
    std::vector<Param<bool>> ps;
    for (int i = 0; i < n; i++) ps.emplace_back("p" + std::to_string(i));
    Func g("g"), f("f");
    Var x("x");
    g(x) = x * 3;
    g.compute_root();
    f(x) = g(x);
    for (int i = 0; i < n; i++) {
        f(x) += select(ps[size_t(i)], g(x + i), 0);
        f.update(i).specialize(ps[size_t(i)]);
    }
    for (int i = 0; i < n; i++) ps[size_t(i)].set(i % 3 == 0);
    halo_test::check_against_reference(f, ramp(17, -5));
}

TEST_CASE("a specialization on a float Param: infer_input_bounds follows the branch taken") {
    for (float v : {0.75f, 0.25f}) {
        CAPTURE(v);
        ImageParam im(Float(32), 1, "im");
        Param<float> fp("fp");
        Func f("f");
        Var x("x");
        f(x) = select(fp > 0.5f, im(x + 3), im(x - 3) * fp);
        f.specialize(fp > 0.5f);
        fp.set(v);
        f.infer_input_bounds({20});
        CHECK(inferred(im, 0) == std::make_pair(v > 0.5f ? 3 : -3, 20));
    }
}

// The merge of boxes that may be unused (Box::used_if), evaluated under every outcome of the
// conditions: the union of the boxes touched, whichever they are.
TEST_CASE("box_union of boxes touched under conditions is exact under every outcome") {
    Expr p = Variable::make(Bool(), "p"), q = Variable::make(Bool(), "q");
    auto box = [](int lo, int hi, Expr used_if) {
        Box b;
        b.used = true;
        b.dims.push_back(Interval(Expr(lo), Expr(hi)));
        b.used_if = used_if;
        return b;
    };
    auto eval = [](const Expr &e, bool pv, bool qv) {
        IntEvaluation r = evaluate_int(e, {{"p", pv}, {"q", qv}});
        REQUIRE(r.value);
        return *r.value;
    };
    struct Case {
        Box a, b;
    };
    Case cases[] = {
        {box(0, 9, p), box(20, 29, !p)},    // complementary
        {box(0, 9, p), box(20, 29, q)},     // independent
        {box(0, 9, p), box(-5, 3, Expr())}, // one always touched
        {box(0, 9, Expr()), box(5, 30, q)},
        {box(0, 9, p && q), box(4, 12, p)}, // nested
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CAPTURE(i);
        Box u = box_union(cases[i].a, cases[i].b);
        REQUIRE(u.dims.size() == 1);
        for (int bits = 0; bits < 4; bits++) {
            bool pv = bits & 1, qv = bits & 2;
            CAPTURE(pv);
            CAPTURE(qv);
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            bool any = false;
            for (const Box *b : {&cases[i].a, &cases[i].b}) {
                if (b->maybe_unused() && !eval(b->used_if, pv, qv)) continue;
                any = true;
                lo = std::min(lo, eval(b->dims[0].min, pv, qv));
                hi = std::max(hi, eval(b->dims[0].max, pv, qv));
            }
            CHECK(any == (!u.maybe_unused() || eval(u.used_if, pv, qv)));
            if (!any) continue;
            CHECK(eval(u.dims[0].min, pv, qv) == lo);
            CHECK(eval(u.dims[0].max, pv, qv) == hi);
        }
    }
}
