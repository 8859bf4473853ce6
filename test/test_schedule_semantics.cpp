// Schedules that used to change what a pipeline computes: each must compute exactly what the
// algorithm says, or be refused with a message that says what to do.
#include "TestUtil.h"

using namespace halo;
using halo_test::check_against_reference;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

TEST_CASE("a split that reuses the old name, split again, with every tail strategy") {
    TailStrategy tails[] = {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf, TailStrategy::RoundUp};
    for (TailStrategy t1 : tails) {
        for (TailStrategy t2 : tails) {
            Var x("x"), y("y"), yi("yi"), yi2("yi2");
            Func f("f"), out("out");
            f(x, y) = x + y * 100;
            out(x, y) = f(x, y);
            // RoundUp on the output would write past its end; use it on the producer only.
            f.compute_root().split(y, y, yi, 2, t1).split(y, y, yi2, 3, t2);
            out.split(y, y, yi, 2, TailStrategy::GuardWithIf).split(y, y, yi2, 3, TailStrategy::GuardWithIf);
            Buffer<int> o(3, 11);
            o.set_min(0, -3);
            check_against_reference(out, o);
        }
    }
}

TEST_CASE("a split whose inner loop reuses the old name") {
    Var x("x"), y("y"), yo("yo"), yo2("yo2");
    Func f("f");
    f(x, y) = x - y * 7;
    f.split(y, yo, y, 4, TailStrategy::GuardWithIf).split(y, yo2, y, 2, TailStrategy::GuardWithIf);
    check_against_reference(f, Buffer<int>(5, 13));
}

TEST_CASE("store_root does not hide a compute_at outside the uses") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    f(x, y) = x + y;
    g(x, y) = f(x, y) * 2;
    h(x, y) = g(x, y) + f(x, y + 1);
    g.compute_root();
    // f is used by g and h, but computed inside h's loop over y only.
    f.compute_at(h, y).store_root();
    std::string msg = compile_error_of([&] { h.realize({4, 4}); });
    INFO(msg);
    CHECK(contains(msg, "Func 'f'"));
    CHECK(contains(msg, "'g' uses it outside that loop"));
    CHECK(contains(msg, "store_at/store_root only choose where its buffer lives"));
}

TEST_CASE("store_at outside compute_at computes the right values") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x * 3 + y;
    g(x, y) = f(x, y) + f(x, y + 1);
    f.compute_at(g, x).store_at(g, y);
    check_against_reference(g, Buffer<int>(7, 5));
}

TEST_CASE("bound() on the output smaller than the request is a run-time error") {
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    f.bound(x, 0, 10);
    std::string msg = runtime_error_of([&] { f.realize({20}); });
    INFO(msg);
    CHECK(contains(msg, "output 'f' is bounded to x in [0, 9]"));
    CHECK(contains(msg, "asks for x in [0, 19]"));
    // A buffer inside the bound but smaller would be written outside: also an error.
    Buffer<int> five(5);
    msg = runtime_error_of([&] { f.realize(five); });
    INFO(msg);
    CHECK(contains(msg, "output 'f'"));
    CHECK(contains(msg, "bound(x"));
    // realize(sizes) computes the bound and returns the 5 points asked for (as Halide).
    Buffer<int> cropped = f.realize({5});
    for (int i = 0; i < 5; i++) CHECK(cropped(i) == 2 * i);
    // Exactly the bound works.
    Buffer<int> o = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(o(i) == 2 * i);
}

TEST_CASE("bound() on a producer smaller than its consumers need is a run-time error") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x * 2;
    g(x) = f(x) + 1;
    f.compute_root().bound(x, 0, 10);
    CHECK_NOTHROW(g.realize({10}));
    std::string msg = runtime_error_of([&] { g.realize({20}); });
    INFO(msg);
    CHECK(contains(msg, "'f'"));
    CHECK(contains(msg, "bound"));
}

TEST_CASE("a split by a Param keeps the input bounds check") {
    Buffer<int> in(std::vector<int>{16}, "in");
    in.fill(1);
    Param<int> factor("factor");
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = in(x + 1);
    f.split(x, xo, xi, factor, TailStrategy::GuardWithIf);
    factor.set(4);
    CHECK_NOTHROW(f.realize({15}));
    std::string msg = runtime_error_of([&] { f.realize({40}); });
    INFO(msg);
    CHECK(contains(msg, "input 'in' covers dimension 0 in [0, 15]"));
    CHECK(contains(msg, "needs [1, 40]"));
}

TEST_CASE("a split by a Param with ShiftInwards and RoundUp on a producer") {
    Buffer<int> in(std::vector<int>{40}, "in");
    halo_test::fill_random(in, -100, 100, 3);
    Param<int> factor("factor");
    for (TailStrategy t : {TailStrategy::ShiftInwards, TailStrategy::RoundUp, TailStrategy::GuardWithIf}) {
        Var x("x"), xo("xo"), xi("xi");
        Func f("f"), g("g");
        f(x) = in(x) * 3;
        g(x) = f(x) + f(x + 1);
        f.compute_root().split(x, xo, xi, factor, t);
        for (int F : {1, 3, 7, 64}) {
            factor.set(F);
            Buffer<int> o(30);
            if (t != TailStrategy::GuardWithIf && F == 64) {
                // A factor larger than the loop: ShiftInwards computes 64 points ending at the
                // loop's end (starting before the input), RoundUp 64 from its start (past the
                // input's end). Either way the input must cover them.
                CHECK(contains(runtime_error_of([&] { g.realize(o); }), "input 'in' covers dimension 0 in [0, 39]"));
                continue;
            }
            INFO("factor " << F);
            check_against_reference(g, o);
        }
    }
}

TEST_CASE("a producer stored outside a Param-split loop and split itself is bounded") {
    // s4 is computed per tile of a loop split by a Param, stored at the root, and split by 3
    // itself: its root region is the union over the Param-split loop of per-tile regions whose
    // largest point, min(xo * factor + ..., max), had no lower bound (fuzz seed 106183 got a
    // false "cannot bound ... depends on data" CompileError).
    Buffer<int> in(std::vector<int>{40, 12}, "in");
    halo_test::fill_random(in, -100, 100, 4);
    Param<int> factor("factor");
    // RoundUp by the Param: the number of tiles, (extent + factor - 1) / factor, is a
    // quotient by a symbol, which was unbounded (a false CompileError as well).
    for (TailStrategy t : {TailStrategy::ShiftInwards, TailStrategy::GuardWithIf, TailStrategy::RoundUp}) {
        Var x("x"), y("y"), xo("xo"), xi("xi"), xo6("xo6"), xi6("xi6");
        Func clamped("clamped"), s4("s4"), s5("s5"), s6("s6");
        clamped(x, y) = in(clamp(x, 0, 39), clamp(y, 0, 11));
        s4(x, y) = clamped(x, y) + 1;
        s5(x, y) = s4(x, y) * 2;
        s6(x, y) = s5(x, y) + 1;
        clamped.compute_root();
        s6.split(x, xo6, xi6, 4, TailStrategy::GuardWithIf);
        s5.compute_at(s6, xo6).store_at(s6, y).split(x, xo, xi, factor, t);
        s4.compute_at(s5, xo).store_root().split(x, Var("a"), Var("b"), 3, t);
        for (int F : {1, 2, 5}) {
            factor.set(F);
            INFO("tail " << int(t) << ", factor " << F);
            Buffer<int> o(14, 9);
            o.set_min(3, -4);
            check_against_reference(s6, o);
        }
    }
}

TEST_CASE("a split factor that is not positive at run time is an error") {
    Param<int> factor("factor");
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x;
    f.split(x, xo, xi, factor);
    for (int bad : {0, -3}) {
        factor.set(bad);
        std::string msg = runtime_error_of([&] { f.realize({8}); });
        INFO(msg);
        CHECK(contains(msg, "f: split(x, ...) by a factor that is " + std::to_string(bad)));
        CHECK(contains(msg, "positive"));
    }
}

TEST_CASE("a split factor that depends on a loop variable is refused") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("f");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.split(x, xo, xi, y + 1); });
    INFO(msg);
    CHECK(contains(msg, "Func 'f'"));
    CHECK(contains(msg, "the loop variable 'y'"));
}

TEST_CASE("a data-dependent read of an input is refused with a message, not clamped") {
    Buffer<int> idx(std::vector<int>{8}, "idx");
    Buffer<int> data(std::vector<int>{8}, "data");
    for (int i = 0; i < 8; i++) {
        idx(i) = i * 5;  // reads far outside data
        data(i) = i;
    }
    Var x("x");
    Func f("f");
    f(x) = data(idx(x));
    std::string msg = compile_error_of([&] { f.realize({8}); });
    INFO(msg);
    CHECK(contains(msg, "Input 'data'"));
    CHECK(contains(msg, "depends on data"));
    CHECK(contains(msg, "clamp"));
    CHECK(contains(msg, "BoundaryConditions"));
}

TEST_CASE("a data-dependent read through a narrow index type is bounded by the type") {
    Buffer<uint8_t> idx(std::vector<int>{8}, "idx8");
    for (int i = 0; i < 8; i++) idx(i) = uint8_t(i * 37);
    Buffer<int> small(std::vector<int>{100}, "small");
    Buffer<int> lut(std::vector<int>{256}, "lut");
    for (int i = 0; i < 256; i++) lut(i) = 1000 - i;
    small.fill(0);
    Var x("x");
    Func f("f"), g("g");
    f(x) = lut(idx(x));
    check_against_reference(f, Buffer<int>(8));
    // A buffer that cannot cover every uint8 index is refused at run time.
    g(x) = small(idx(x));
    std::string msg = runtime_error_of([&] { g.realize({8}); });
    INFO(msg);
    CHECK(contains(msg, "input 'small' covers dimension 0 in [0, 99]"));
    CHECK(contains(msg, "needs [0, 255]"));
}

TEST_CASE("an inline reduction inside a Func with updates is computed in the stage that uses it") {
    // sum() makes a helper Func with an update; inlined into consumer's pure definition, it
    // must be computed in the pure stage's loop, not in the last update's.
    Buffer<int> in = halo_test::random_image<int>({30}, 5, -9, 9);
    Var x("x");
    Func blur("blur"), out("out"), final_out("final_out");
    RDom k(0, 3, "k");
    blur(x) = sum(in(clamp(x + k, 0, 29)));
    out(x) = blur(x);
    RDom s(0, 5, "s");
    out(s) = out(s + 1);
    final_out(x) = out(x) + 1;
    out.compute_root();
    check_against_reference(final_out, Buffer<int>(8));
    // Used by both stages: computed at root.
    Func both("both"), final2("final2");
    both(x) = blur(x);
    both(s) = both(s + 1) + blur(s);
    final2(x) = both(x);
    both.compute_root();
    check_against_reference(final2, Buffer<int>(8));
}

// The lines of a loop nest from the first one containing `from` on.
std::string loop_nest_from(const std::string &nest, const std::string &from) {
    size_t at = nest.find(from);
    return at == std::string::npos ? "" : nest.substr(at);
}

TEST_CASE("a Func with updates and no placement used by several stages is computed at the innermost loop around them") {
    // As in Halide: "as close to the innermost loop as possible". Halo computed such a Func at
    // the root, and refused the program when a Func it reads is computed at an inner loop.
    Var x("x"), y("y"), z("z");
    SUBCASE("read by another reduction and by the consumer's update, its producer at the RVar loop") {
        Func m("m"), val("val"), idx("idx"), c("c"), total("total");
        m(x, y, z) = (x * 3 + y * 5 + z * 7 + 100) % 11;
        RDom t(1, 5, "t");
        val(x, y) = 100;
        val(x, y) = min(val(x, y), m(x, y, t));
        idx(x, y) = 0;
        idx(x, y) = select(m(x, y, t) == val(x, y), t, idx(x, y));
        c(x, y) = idx(x, y) * 16 + val(x, y);
        RDom r(-3, 7, -2, 3, "r");
        total() = 0;
        total() = (total() * 5 + c(r.x, r.y)) % 1000003;
        m.compute_at(total, r.x);
        std::string nest = loop_nest_from(total.loop_nest(), "for total.s1.r.x");
        CHECK(contains(nest, "produce val"));
        CHECK(contains(nest, "produce idx"));
        check_against_reference(total, Buffer<int>(std::vector<int>{}));
    }
    SUBCASE("read by two Funcs computed per row of the output, outside its vector loop") {
        Func f("f"), g1("g1"), g2("g2"), out("out");
        RDom k(0, 4, "k");
        f(x, y) = x - y;
        f(x, y) += (x + k) * (y - k) % 7;
        g1(x, y) = f(x, y) + f(x + 1, y);
        g2(x, y) = f(x - 1, y) * 2;
        out(x, y) = g1(x, y) + g2(x, y);
        Var xo("xo"), xi("xi");
        out.split(x, xo, xi, 4).vectorize(xi);
        g1.compute_at(out, xi);
        g2.compute_at(out, xi);
        std::string nest = out.loop_nest();
        CHECK(contains(loop_nest_from(nest, "for out.s0.xo"), "produce f"));
        CHECK_FALSE(contains(loop_nest_from(nest, "vectorized out.s0.xi"), "produce f"));
        Buffer<int> dst(std::vector<int>{13, 5});
        dst.set_min({-6, -2});
        check_against_reference(out, dst);
    }
}

TEST_CASE("GuardWithIf skips the producers computed inside the guarded loop") {
    // The producer is computed per point of the consumer, and stored further out, where its
    // buffer covers only the points inside the output: the iterations past the end that
    // GuardWithIf skips must not compute it either (they used to write past its buffer).
    Buffer<int> in = halo_test::random_image<int>({24, 20}, 3, -50, 50);
    Var x("x"), y("y");
    for (int variant = 0; variant < 3; variant++) {
        Func clamped("clamped"), f("f"), out("out");
        clamped(x, y) = in(clamp(Expr(x), 0, 23), clamp(Expr(y), 0, 19));
        f(x, y) = max(clamped(y, x), clamped(x, y)) + min(clamped(x, y), 5);
        out(x, y) = f(x, y) + 1;
        f.compute_root();
        if (variant == 0) {
            f.vectorize(x, 8, TailStrategy::GuardWithIf).vectorize(y, 2, TailStrategy::GuardWithIf);
            clamped.compute_at(f, Var("x_vi")).store_at(f, Var("y_vi"));
        } else if (variant == 1) {
            f.tile(x, y, Var("xo"), Var("yo"), Var("xi"), Var("yi"), 4, 3, TailStrategy::GuardWithIf);
            clamped.compute_at(f, Var("yi")).store_at(f, Var("yo"));
        } else {
            f.split(x, Var("xo"), Var("xi"), 5, TailStrategy::GuardWithIf);
            clamped.compute_at(f, Var("xi")).store_root();
        }
        Buffer<int> o(10, 7);
        o.set_min(-2, -1);
        check_against_reference(out, o);
    }
}

TEST_CASE("fuse on a producer and on an update computes the right answer") {
    // fuse() on a Func that is not the output, or on an update, used to break bounds inference
    // and be refused with a false "depends on data" message about a placeholder Func.
    Buffer<int> in = halo_test::random_image<int>({16, 12}, 4, -20, 20);
    Var x("x"), y("y"), xy("xy");
    Func p("p"), q("q"), out("out");
    p(x, y) = in(clamp(Expr(x), 0, 15), clamp(Expr(y), 0, 11)) * 2;
    q(x, y) = p(x, y) + p(x + 1, y - 1);
    RDom k(-1, 3, "k");
    q(x, y) += p(x + k, y);
    out(x, y) = q(x, y) - 1;
    p.compute_root().fuse(x, y, xy).parallel(xy);
    q.compute_at(out, y);
    q.update(0).fuse(x, y, xy);
    Buffer<int> o(9, 5);
    o.set_min(-3, 2);
    check_against_reference(out, o);
}

TEST_CASE("fuse of loops that are not adjacent, or named outer loop first, as in Halide") {
    // The fused loop takes the inner loop's place, the outer one moving next to it. Halo
    // required the two adjacent, in order.
    Var x("x"), y("y"), c("c"), xc("xc"), cx("cx");
    Func f("f"), g("g"), out("out");
    f(x, y, c) = x * 100 + y * 10 + c;
    g(x, y, c) = f(x, y, c) * 3 + x - c;
    out(x, y, c) = g(x, y, c) + f(x + 1, y, c);
    f.compute_root().fuse(x, c, xc);  // y lies between x and c: the loops are xc, y
    g.compute_at(out, y).reorder(c, x, y).fuse(x, c, cx);  // x named inner though c is inside it
    out.fuse(x, c, xc).parallel(y);
    std::string stmt = out.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "for (f.s0.xc"));
    Buffer<int> o(7, 5, 3);
    o.set_min({-2, 1, 0});
    check_against_reference(out, o);
    // Moving one RVar past another reorders the reduction: allowed only where reorder would be.
    RDom r(0, 4, 0, 3, "r");
    Func sum2("sum2"), scan("scan");
    sum2(x) = 0;
    sum2(x) += r.x * r.y + x;
    sum2.update(0).reorder(r.y, x, r.x).fuse(r.y, r.x, Var("ryx"));
    check_against_reference(sum2, Buffer<int>(6));
    scan(x) = x;
    scan(r.x + r.y) = scan(r.x + r.y - 1) * 2 + r.y;
    std::string msg = compile_error_of([&] { scan.update(0).fuse(r.y, r.x, Var("ryx")); });
    CHECK(contains(msg, "Func 'scan' update 0: fuse(r.y, r.x, ryx) would change the order of its RVars"));
    scan.update(0).fuse(r.x, r.y, Var("rxy"));  // in the order they run: allowed
    Buffer<int> s(10);
    s.set_min(-1);
    check_against_reference(scan, s);
}

TEST_CASE("compute_at a stage's loop that exists only in another stage names the stages") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func p("p"), g("g");
    p(x, y) = x + y;
    g(x, y) = p(x, y);
    RDom r(0, 4, "r");
    g(r, y) += 1;
    g.update(0).split(y, xo, xi, 2);
    p.compute_at(g, xi);
    std::string msg = compile_error_of([&] { g.realize({4, 4}); });
    INFO(msg);
    // p is used by g's pure definition, whose loops are y and x; xi is only in update 0.
    CHECK(contains(msg, "has no loop 'xi'"));
    CHECK(contains(msg, "That stage's loops, outermost first, are: y, x"));
    CHECK(!contains(msg, "r.x"));
    CHECK(!contains(msg, "its consumer"));
}

TEST_CASE("compute_at(f, Var::outermost()) computes the producer once per realization of f") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({60, 50}, 21, -50, 50);
    Func g("g"), h("h"), out("out");
    g(x, y) = in(x + 1, y) - in(x, y + 1);
    h(x, y) = g(x, y) * 2 + g(x + 1, y + 1);
    out(x, y) = h(x, y) + h(x + 2, y);
    out.tile(x, y, xo, yo, xi, yi, 8, 4);
    h.compute_at(out, xo);
    g.compute_at(h, Var::outermost());  // inside each tile's h, outside h's loops
    Buffer<int> dst(29, 17);
    dst.set_min(3, 2);
    halo_test::check_against_reference(out, dst);
    // g is produced inside h's production, before h's loops.
    std::string nest = out.loop_nest();
    size_t produce_h = nest.find("produce h"), produce_g = nest.find("produce g"), loop_h = nest.find("for h.");
    REQUIRE(produce_h != std::string::npos);
    REQUIRE(produce_g != std::string::npos);
    REQUIRE(loop_h != std::string::npos);
    CHECK(produce_h < produce_g);
    CHECK(produce_g < loop_h);
}

TEST_CASE("store_in chooses where a buffer lives, never what is computed") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({80, 80}, 4, -9, 9);
    for (MemoryType m : {MemoryType::Auto, MemoryType::Heap, MemoryType::Stack, MemoryType::Register}) {
        Func g("g"), big("big"), out("out");
        g(x, y) = in(x, y) + in(x + 1, y + 1);
        big(x, y) = in(x, y) * 2;
        out(x, y) = g(x, y) + g(x + 1, y) + big(x, y);
        out.tile(x, y, xo, yo, xi, yi, 8, 8);
        g.compute_at(out, xo).store_in(m);   // 9 x 8 ints: constant size
        big.compute_root().store_in(m);      // variable size: always on the heap
        std::string stmt = out.lowered_stmt();
        if (m == MemoryType::Heap) CHECK(contains(stmt, "in Heap"));
        if (m == MemoryType::Stack) CHECK(contains(stmt, "in Stack"));
        // The tile buffer is the only one that may go on the stack.
        std::string ir = out.llvm_ir();
        size_t mallocs = 0;
        for (size_t p = ir.find("call ptr @halo_malloc"); p != std::string::npos; p = ir.find("call ptr @halo_malloc", p + 1)) mallocs++;
        CHECK(mallocs == (m == MemoryType::Heap ? 2u : 1u));
        Buffer<int> dst(30, 21);
        dst.set_min(1, 2);
        check_against_reference(out, dst);
    }
}

TEST_CASE("reordering RVars: a left side that reads f, and an RVar moved past one reorder does not name") {
    Var x("x"), y("y");
    // f(f(r)) += 1: where each iteration writes depends on earlier ones, whatever the value's form.
    Func hist("hist");
    hist(x) = (x * 5 + 2) % 9;
    RDom r(0, 3, 0, 3, "r");
    hist(clamp(hist(r.x + 3 * r.y), 0, 8)) += 1;
    std::string msg = compile_error_of([&] { hist.update(0).reorder(r.y, r.x); });
    CHECK(contains(msg, "Func 'hist' update 0: reorder would change the order of its RVars"));
    msg = compile_error_of([&] { hist.update(0).fuse(r.y, r.x, Var("ryx")); });
    CHECK(contains(msg, "would change the order of its RVars"));
    check_against_reference(hist, Buffer<int>(9));
    // reorder(x, r.x) over loops (r.x, r.y, x) gives (x, r.y, r.x): r.x moves outside r.y although
    // the directive names only one RVar. A recurrence in r.y must keep its order.
    Func rec("rec");
    rec(x, y) = x + y;
    RDom s(0, 3, 1, 3, "s");
    rec(x, s.y) = rec(x, s.y) * 2 + rec(x, s.y - 1) + s.x;
    msg = compile_error_of([&] { rec.update(0).reorder(x, s.x); });
    CHECK(contains(msg, "Func 'rec' update 0: reorder would change the order of its RVars"));
    rec.update(0).reorder(s.x, x);  // moves only x (a pure Var) and keeps the RVars' order
    check_against_reference(rec, Buffer<int>(2, 4));
    // Where every RDom point is independent, any order is the same: allowed.
    Func ind("ind");
    ind(x, y) = x - y;
    RDom q(0, 5, -2, 4, "q");
    ind(q.x, q.y) = ind(q.x, q.y) * 3 + 1;
    RVar qxo("qxo"), qxi("qxi"), qyo("qyo"), qyi("qyi");
    ind.update(0).tile(q.x, q.y, qxo, qyo, qxi, qyi, 2, 3);
    Buffer<int> o(6, 7);
    o.set_min(-1, -3);
    check_against_reference(ind, o);
    // Where every iteration applies one map to the point it updates (not an associative form,
    // and iterations meet at points), any order is the same too: allowed.
    Func same("same_map");
    same(x) = x;
    RDom p(0, 7, 0, 5, "p");
    same((p.x * 3 + p.y) % 4) = max(same((p.x * 3 + p.y) % 4) * 3 - 2, 1) % 1000;
    same.update(0).reorder(p.y, p.x);
    check_against_reference(same, Buffer<int>(4));
    // One that reads the RVars besides is refused.
    Func other("depends_on_p");
    other(x) = x;
    other((p.x * 3 + p.y) % 4) = other((p.x * 3 + p.y) % 4) * 3 - p.x;
    msg = compile_error_of([&] { other.update(0).reorder(p.y, p.x); });
    CHECK(contains(msg, "nor does every iteration apply one map to the point it updates (depends_on_p(b) = depends_on_p(b) * 3 + 1)"));
}

TEST_CASE("fusing the RVars of an empty RDom with two negative extents runs nothing") {
    Var x("x"), u("u");
    Param<int> n("n");
    for (int schedule = 0; schedule < 3; schedule++) {
        Func f("f");
        f(x) = x;
        RDom r(0, n, 0, n, "r");
        f(x) += r.x + r.y + 1;
        RVar t("t");
        if (schedule == 1) f.update(0).fuse(r.x, r.y, t);
        if (schedule == 2) f.update(0).fuse(r.x, r.y, t).rfactor(t, u).compute_root();
        for (int extent : {-2, 0, 3}) {
            n.set(extent);
            Buffer<int> b = f.realize({3});
            int e = std::max(extent, 0), added = 0;
            for (int i = 0; i < e; i++) {
                for (int j = 0; j < e; j++) added += i + j + 1;
            }
            for (int i = 0; i < 3; i++) CHECK(b(i) == i + added);
        }
    }
}
