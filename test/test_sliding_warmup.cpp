// The warm-up of sliding windows (Halide's since Halide 12): a loop that Funcs slide over starts
// early, and in the iterations before its first only the sliding Funcs run, each computing a
// few of the rows the first iteration needs, as the later iterations do. So a fold sized for
// the steady state holds, where a first iteration computing the whole window at once would not.
// Every schedule is checked against the reference evaluator at sizes the strips do not divide,
// with non-zero and negative mins.
#include "TestUtil.h"

#include <atomic>
#include <limits>

#include "lower/SlidingWarmup.h"

using namespace halo;
using halo_test::contains;
using halo_test::row_of;

namespace {


// Two 3-row stencils slid down pairs of output rows (the reduced case of Halide's camera_pipe):
// in the steady state one iteration computes 2 new rows of b, which read 4 rows of a.
struct TwoStencils {
    Var x{"x"}, y{"y"}, yo{"yo"}, yi{"yi"};
    Func a{"a"}, b{"b"}, out{"out"};
    explicit TwoStencils(TailStrategy tail = TailStrategy::Auto) {
        a(x, y) = x + y * 3;
        b(x, y) = a(x, y - 1) + a(x, y + 1);
        out(x, y) = b(x, y - 1) + b(x, y + 1);
        out.split(y, yo, yi, 2, tail);
        a.store_root().compute_at(out, yo);
        b.store_root().compute_at(out, yo);
    }
};

}  // namespace

TEST_CASE("warm-up: folds of the steady state hold two stencils slid down pairs of rows") {
    TwoStencils p;
    p.a.fold_storage(p.y, 4);
    p.b.fold_storage(p.y, 4);
    std::string stmt = p.out.lowered_stmt();
    CHECK(contains(stmt, "// out.s0.yo: starts 2 iterations early to warm up the sliding windows of a, b"));
    CHECK(contains(stmt, "// a: sliding window over out.s0.yo in dimension y"));
    CHECK(contains(stmt, "// b: sliding window over out.s0.yo in dimension y"));
    for (auto [w, h, xmin, ymin] : {std::array<int, 4>{10, 20, 0, 0}, {7, 13, -3, -50}, {5, 2, 4, 9}, {3, 31, 100, -7}}) {
        CAPTURE(h);
        CAPTURE(ymin);
        halo_test::check_against_reference(p.out, halo_test::int_buffer_at(w, h, xmin, ymin));
    }
}

TEST_CASE("warm-up: under a GuardWithIf split of the consumer, folds of the steady state hold") {
    // The consumer's rows are clamped to the output at its end only (GuardWithIf promises the
    // split variable's upper end; its lower end moves down with the warm-up's iterations), so
    // the warm-up computes the first iteration's rows a few at a time, as Halide's does, at
    // heights the strips do not divide.
    TwoStencils p(TailStrategy::GuardWithIf);
    p.a.fold_storage(p.y, 4);
    p.b.fold_storage(p.y, 4);
    CHECK(contains(p.out.lowered_stmt(), "// out.s0.yo: starts 2 iterations early to warm up the sliding windows of a, b"));
    for (int h : {1, 2, 3, 9, 16}) {
        CAPTURE(h);
        halo_test::check_against_reference(p.out, halo_test::int_buffer_at(6, h, 2, -h));
    }
    TwoStencils q(TailStrategy::GuardWithIf);
    q.a.fold_storage(q.y, 3);
    std::string msg = halo_test::runtime_error_of([&] { q.out.realize({6, 9}); });
    CHECK(contains(msg, "Func 'a' is stored folded modulo 3 in y (fold_storage), but 4 of it are needed at once"));
}

TEST_CASE("warm-up: a fold smaller than the steady state is still the run-time error") {
    TwoStencils p;
    p.a.fold_storage(p.y, 3);
    std::string msg = halo_test::runtime_error_of([&] { p.out.realize({10, 20}); });
    CHECK(contains(msg, "Func 'a' is stored folded modulo 3 in y (fold_storage), but 4 of it are needed at once: fold by at least 4"));
}

TEST_CASE("warm-up: every row is computed once, and the automatic folds are unchanged") {
    TwoStencils p;
    std::string stmt = p.out.lowered_stmt();
    CHECK(contains(stmt, "// b: storage folded modulo 4 in dimension y"));
    CHECK(contains(stmt, "// a: storage folded modulo 8 in dimension y"));
    RedundancyReport r = redundancy_report(p.out, {10, 20});
    // out's 20 rows read b over [-1, 20] and a over [-2, 21].
    CHECK(row_of(r, "b").computed == 10 * 22);
    CHECK(row_of(r, "a").computed == 10 * 24);
}

TEST_CASE("warm-up: a stage that reads the input directly asks no more of the input") {
    // The consumer's reads are guarded off in the iterations before the first: the input's
    // required region is what it was without the warm-up, so an input of exactly that size works.
    Var x("x"), y("y"), yo("yo"), yi("yi");
    ImageParam in(Int(32), 2, "in");
    Func a("a"), out("out");
    a(x, y) = in(x, y) * 2;
    out(x, y) = a(x, y - 1) + a(x, y + 2) + in(x, y + 1);
    out.split(y, yo, yi, 4, TailStrategy::GuardWithIf);
    a.store_root().compute_at(out, yo).fold_storage(y, 8);
    Buffer<int> ib = halo_test::random_image<int>({6, 13}, 7, -100, 100);
    ib.set_min(0, -1);
    in.set(ib);
    CHECK(contains(out.lowered_stmt(), "starts 1 iteration early to warm up the sliding window of a"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(6, 10, 0, 0));
}

TEST_CASE("warm-up: not when a Func stored in the loop encloses a sliding Func") {
    // g is stored and computed per strip: its buffer, sized for an iteration, must not be
    // allocated in the iterations before the first; b, computed inside it, cannot warm up.
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func g("g"), b("b"), out("out");
    g(x, y) = x * 7 - y;
    b(x, y) = g(x, y) + g(x, y + 1);
    out(x, y) = b(x, y) + b(x, y + 2);
    out.split(y, yo, yi, 2);
    g.compute_at(out, yo);
    b.store_root().compute_at(out, yo);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// out.s0.yo: no warm-up before the loop (the buffer of g, stored in the loop, encloses a sliding Func)"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(5, 11, 1, -4));
}

TEST_CASE("warm-up: not when a sliding Func reads a Func computed in the loop that does not warm up") {
    // g slides but has an update, so it runs only from the loop's first iteration on; b reads it.
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func g("g"), b("b"), out("out");
    g(x, y) = x * 7 - y;
    g(x, y) += 3;
    b(x, y) = g(x, y) + g(x, y + 1);
    out(x, y) = b(x, y) + b(x, y + 2);
    out.split(y, yo, yi, 2);
    g.store_root().compute_at(out, yo);
    b.store_root().compute_at(out, yo);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// out.s0.yo: no warm-up before the loop (the sliding Func b reads g, which is computed in the loop "
                         "and does not warm up)"));
    CHECK(contains(stmt, "// g: sliding window over out.s0.yo in dimension y"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(5, 11, 1, -4));
}

TEST_CASE("warm-up: a Func whose own split along the window shifts inwards computes a whole tile from the first iteration's start") {
    // From the one row of a warm-up iteration, a's split by 4 would compute 3 rows below what
    // the first iteration needs, outside a's buffer (and ask more of the input): in the
    // warm-up, a's max is raised to 4 rows past the first iteration's start. (Halide's
    // camera_pipe warms up `denoised`, tiled by 2 rows.)
    Var x("x"), y("y"), yo("yo"), yi("yi"), ay("ay"), ayi("ayi");
    ImageParam in(Int(32), 2, "in");
    Func a("a"), out("out");
    a(x, y) = in(x, y) + 1;
    out(x, y) = a(x, y) + a(x, y + 1) * 3 + a(x, y + 3);
    out.split(y, yo, yi, 2);
    a.store_root().compute_at(out, yo).split(y, ay, ayi, 4).fold_storage(x, 16);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// a: sliding window over out.s0.yo in dimension y"));
    CHECK(contains(stmt, "early to warm up the sliding window of a"));
    // The input holds exactly the rows the first iteration needs and later ones.
    Buffer<int> ib = halo_test::random_image<int>({12, 14}, 8, -100, 100);
    ib.set_min(0, 3);
    in.set(ib);
    halo_test::check_against_reference(out, halo_test::int_buffer_at(12, 8, 0, 3));
    // The warm-up computes only rows from the first iteration's start on: without the raise,
    // its iterations would compute tiles below it (outside a's buffer, values never read).
    RedundancyReport r = redundancy_report(out, {12, 8});
    CHECK(row_of(r, "a").computed == 12 * 20);
    // A strip of 2 reads 5 rows of a; they are what a fold must hold.
    a.fold_storage(y, 4);
    std::string msg = halo_test::runtime_error_of([&] {
        Buffer<int> o = halo_test::int_buffer_at(12, 8, 0, 3);
        out.realize(o);
    });
    CHECK(contains(msg, "Func 'a' is stored folded modulo 4 in y (fold_storage), but 5 of it are needed at once"));
}

TEST_CASE("warm-up: a sliding reader of a Func that shifts inwards reads only computed rows in the warm-up") {
    // c reads 2 rows of b, which is split by 4: in the warm-up iteration where c computes its
    // first rows, b must have computed the rows c reads (found by a review: an earlier version
    // had b compute nothing there, and c read rows never computed).
    for (int factor : {2, 3, 4, 5}) {
        CAPTURE(factor);
        Var x("x"), y("y"), yo("yo"), yi("yi"), t("t");
        Func b("b"), c("c"), out("out");
        b(x, y) = x + y * 7;
        c(x, y) = b(x, y) + b(x, y + 1) * 3;
        out(x, y) = c(x, y - 1) + c(x, y + 1);
        out.split(y, yo, yi, 2);
        c.store_root().compute_at(out, yo);
        b.store_root().compute_at(out, yo).split(y, y, t, factor);
        CHECK(contains(out.lowered_stmt(), "early to warm up the sliding windows of b, c"));
        for (auto [h, ymin] : {std::pair{8, 0}, {5, -3}, {13, 6}}) {
            halo_test::check_against_reference(out, halo_test::int_buffer_at(4, h, 0, ymin));
        }
    }
}

TEST_CASE("warm-up: a fold of the rows a strip needs holds a Func whose split shifts inwards past them") {
    // a's tile of 4 ends at the 2 rows a row of out needs and starts 2 rows below them: written
    // in order, the last 2 rows written are the ones kept (as without the warm-up).
    Var x("x"), y("y"), t("t");
    Func a("a"), out("out");
    a(x, y) = x + y;
    out(x, y) = a(x, y) + a(x, y + 1);
    a.store_root().compute_at(out, y).split(y, y, t, 4).fold_storage(y, 2);
    CHECK(contains(out.lowered_stmt(), "early to warm up the sliding window of a"));
    for (auto [h, ymin] : {std::pair{8, 0}, {5, -3}, {1, 6}}) {
        halo_test::check_against_reference(out, halo_test::int_buffer_at(8, h, 0, ymin));
    }
}

TEST_CASE("warm-up: a fold of a whole tile holds a Func whose split shifts inwards") {
    Var x("x"), y("y"), yo("yo"), yi("yi"), ay("ay"), ayi("ayi");
    for (int factor : {2, 3, 4}) {
        for (int strip : {1, 2, 3}) {
            CAPTURE(factor);
            CAPTURE(strip);
            Func b("b"), c("c"), out("out");
            b(x, y) = x * 3 + y * y;
            c(x, y) = b(x, y - 1) - b(x, y + 1);
            out(x, y) = c(x, y) + c(x, y + 1) * 3 + c(x, y + 2);
            out.split(y, yo, yi, strip);
            b.store_root().compute_at(out, yo).split(y, ay, ayi, factor);
            c.store_root().compute_at(out, yo);
            int fold = 1;
            while (fold < std::max(factor, strip + 4)) fold *= 2;
            b.fold_storage(y, fold);
            CHECK(contains(out.lowered_stmt(), "early to warm up the sliding windows of b, c"));
            for (auto [h, ymin] : {std::pair{3, 0}, {7, -9}, {16, 4}}) {
                halo_test::check_against_reference(out, halo_test::int_buffer_at(5, h, -2, ymin));
            }
        }
    }
}

TEST_CASE("warm-up: not for a Func whose split shifts inwards and that reads a Func computed in the loop") {
    // b's max is raised in the warm-up; a's region, made from b's bounds before sliding, would
    // not follow. b still slides (from the loop's first iteration on); a warms up alone.
    Var x("x"), y("y"), yo("yo"), yi("yi"), ay("ay"), ayi("ayi");
    Func a("a"), b("b"), out("out");
    a(x, y) = x * 3 + y * y;
    b(x, y) = a(x, y - 1) - a(x, y + 1);
    out(x, y) = b(x, y) + b(x, y + 1) * 3 + b(x, y + 2);
    out.split(y, yo, yi, 2);
    a.store_root().compute_at(out, yo);
    b.store_root().compute_at(out, yo).split(y, ay, ayi, 3);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// b: sliding window over out.s0.yo in dimension y"));
    CHECK(contains(stmt, "early to warm up the sliding window of a\n"));
    for (auto [h, ymin] : {std::pair{3, 0}, {7, -9}, {16, 4}}) {
        halo_test::check_against_reference(out, halo_test::int_buffer_at(5, h, -2, ymin));
    }
}

TEST_CASE("warm-up: a loop that runs no iteration still runs none") {
    // The rows of out come from a Param: with none, neither the warm-up nor its fold checks run.
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Param<int> rows("rows");
    Func a("a"), b("b"), out("out");
    a(x, y) = x + y;
    b(x, y) = a(x, y) + a(x, y + 1);
    out(x, y) = b(x, y) + b(x, y + 1);
    out.split(y, yo, yi, 2, TailStrategy::GuardWithIf).bound(y, 0, rows);
    a.store_root().compute_at(out, yo).fold_storage(y, 4);
    b.store_root().compute_at(out, yo);
    CHECK(contains(out.lowered_stmt(), "early to warm up"));
    rows.set(0);
    Buffer<int> empty(4, 0);
    out.realize(empty);
    // (Counted by running the loop skeleton: a warm-up of an empty loop would compute rows.)
    CHECK(row_of(redundancy_report(out, {4, 0}), "a").computed == 0);
    rows.set(6);
    halo_test::check_against_reference(out, Buffer<int>(4, 6));
}

TEST_CASE("warm-up: rows near the low end of int32 compute everything in the first iteration") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func a("a"), b("b"), out("out");
    a(x, y) = x + y % 7;
    b(x, y) = a(x, y) + a(x, y + 1);
    out(x, y) = b(x, y) * 2 + b(x, y + 1);
    out.split(y, yo, yi, 2);
    a.store_root().compute_at(out, yo);
    b.store_root().compute_at(out, yo);
    Buffer<int> o = halo_test::int_buffer_at(3, 8, 0, std::numeric_limits<int>::min() + 1);
    halo_test::check_against_reference(out, o);
}

TEST_CASE("warm-up: a chain of five stencils, each folded to its steady state") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({30, 90}, 3, -1000, 1000);
    in.set_min(-5, -20);
    std::vector<Func> s;
    for (int i = 0; i < 5; i++) {
        Func f("s" + std::to_string(i));
        if (i == 0) f(x, y) = in(x, y) + in(x + 1, y);
        else f(x, y) = s.back()(x, y - 1) * 3 + s.back()(x, y + 1) - s.back()(x, y);
        s.push_back(f);
    }
    Func out("out");
    out(x, y) = s.back()(x, y) + s.back()(x, y + 1);
    out.split(y, yo, yi, 4);
    for (auto &f : s) f.store_root().compute_at(out, yo).fold_storage(y, 8);
    CHECK(contains(out.lowered_stmt(), "to warm up the sliding windows of s0, s1, s2, s3, s4"));
    for (int h : {4, 5, 17, 60}) {
        CAPTURE(h);
        halo_test::check_against_reference(out, halo_test::int_buffer_at(20, h, -5, -15));
    }
    RedundancyReport r = redundancy_report(out, {20, 60});
    // Each stage's rows once: s4 61 rows, s3 63, ... s0 69.
    for (int i = 0; i < 5; i++) CHECK(row_of(r, "s" + std::to_string(i)).computed == 20 * (61 + 2 * (4 - i)));
}

TEST_CASE("warm-up: inside a GuardWithIf guard of the loop, in tiles the strips do not divide") {
    // a and b are computed at yi under the tile's guard likely(yi <= ...): it holds in the
    // iterations before the first, so they warm up there. (The loop that warms up is yi, inside
    // each tile; y = yi + yo * 6 + min is promised no lower than min, the promise moving down
    // only with yo below 0. So in the first row of tiles the warm-up iterations' regions are
    // the first iteration's, and a's fold must hold its first window.)
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("a"), b("b"), out("out");
    a(x, y) = x * 5 - y * 3;
    b(x, y) = a(x, y - 1) + a(x, y + 2);
    out(x, y) = b(x, y) - b(x, y + 1);
    out.tile(x, y, xo, yo, xi, yi, 8, 6, TailStrategy::GuardWithIf);
    a.store_at(out, yo).compute_at(out, yi).fold_storage(y, 8);
    b.store_at(out, yo).compute_at(out, yi);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// out.s0.yi: starts 4 iterations early to warm up the sliding windows of a, b"));
    for (auto [w, h] : {std::pair{20, 13}, {8, 6}, {3, 1}, {17, 25}}) {
        CAPTURE(w);
        CAPTURE(h);
        halo_test::check_against_reference(out, halo_test::int_buffer_at(w, h, -4, 7));
    }
}

TEST_CASE("warm-up: not under a condition that changes with the loop through a let") {
    // for t: let b = 2t - 10 in if (likely(t <= b)) produce f: the guard holds only from t = 10
    // on, not in the iterations before the first, so f cannot warm up under it.
    auto i32 = [](int v) { return IntImm::make(Int(32), v); };
    Expr t = Variable::make(Int(32), "t"), b = Variable::make(Int(32), "b");
    Stmt produce = ProducerConsumer::make("f", true, Provide::make("f", {t}, {t}));
    Stmt guarded = IfThenElse::make(Call::make(Bool(), Call::likely, {t <= b}, Call::Intrinsic), produce);
    Stmt loop = For::make("t", i32(0), i32(20), ForType::Serial, LetStmt::make("b", t * 2 - 10, guarded));
    WarmupPlan plan{{"t", {{"f", WarmupFunc{2, i32(0)}}}}};
    std::vector<std::string> report;
    warm_up_sliding_windows(loop, plan, report);
    REQUIRE(report.size() == 1);
    CHECK(contains(report[0], "t: no warm-up before the loop (a sliding Func is computed under a statement"));
    // The same guard on a bound fixed for the loop lets f warm up.
    Stmt fixed = For::make("t", i32(0), i32(20), ForType::Serial, LetStmt::make("b", i32(15), guarded));
    report.clear();
    warm_up_sliding_windows(fixed, plan, report);
    REQUIRE(report.size() == 1);
    CHECK(contains(report[0], "t: starts 2 iterations early to warm up the sliding window of f"));
}

TEST_CASE("warm-up: sliding along x over the inner loop of a ShiftInwards split checks only the points computed") {
    // The warm-up iteration (xi = -1) stores nothing of g, but g's coordinate, a let bound
    // outside the warm-up guard, kept its range over the whole loop: the output check asked
    // for x = min - 1 (a false "would be computed at x in [-1, 15]"), and a consumer that is
    // not the output asked its input for a column nobody reads. (Found by a review.)
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Buffer<int> in = halo_test::random_image<int>({17, 3}, 5, -100, 100);
    in.set_min(-4, 2);
    Func f("f"), g("g");
    f(x, y) = in(x, y) * 2;
    g(x, y) = f(x, y) + f(x + 1, y) * 3;
    g.split(x, xo, xi, 8);
    f.store_root().compute_at(g, xi);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(stmt, "// f: sliding window over g.s0.xi in dimension x"));
    CHECK(contains(stmt, "early to warm up the sliding window of f"));
    for (int w : {8, 13, 16}) halo_test::check_against_reference(g, halo_test::int_buffer_at(w, 3, -4, 2));

    // The same consumer behind another Func: the input holds exactly the columns read.
    Buffer<int> weights = halo_test::random_image<int>({16, 3}, 6, -100, 100);
    weights.set_min(-4, 2);
    Func f2("f2"), h("h"), out("out");
    f2(x, y) = in(x, y) * 2;
    h(x, y) = f2(x, y) + f2(x + 1, y) + weights(x, y);
    out(x, y) = h(x, y);
    h.compute_root().split(x, xo, xi, 8);
    f2.store_root().compute_at(h, xi);
    halo_test::check_against_reference(out, halo_test::int_buffer_at(16, 3, -4, 2));
}

namespace {
std::atomic<int> lowest_x{std::numeric_limits<int>::max()};
}
// Records the lowest x a Func is computed at.
extern "C" int note_x(int x, int value) {
    int seen = lowest_x.load();
    while (x < seen && !lowest_x.compare_exchange_weak(seen, x)) {
    }
    return value;
}
HalideExtern_2(int, note_x, int, int);

// Seed 8201242 of the typed differential test wrote before a buffer (a heap corruption).
// t2 slides along t3's x and warms up; t1 is computed inside t2's produce, over t2's region,
// and its unroll by 2 shifts inwards. A warm-up iteration's region, clipped to the columns the
// first iteration needs, was one column wide: the shifted unroll computed the column below
// them, outside t1's buffer. No warm-up there now: t1 is never computed below the columns its
// consumers need (t3's x in [-6, 12] reads t2, hence t1, from x = -3).
TEST_CASE("warm-up: not when a Func computed in the sliding Func's region has a split that shifts inwards") {
    Var x("x"), y("y"), c("c"), yo("yo"), yi("yi");
    Func t1("t1"), t2("t2"), t3("t3");
    t1(x, y, c) = note_x(x, x * 3 + y - c);
    t2(x, y, c) = t1(x, y, c) ^ (x + y);
    t3(x, y, c) = t2(x / 2, y / 2, c) + t2((x + 1) / 2, y, c);
    t3.reorder(y, x, c).unroll(x, 2, TailStrategy::GuardWithIf);
    t2.compute_at(t3, x).store_root().reorder(x, y, c);
    t2.split(y, yo, yi, 2, TailStrategy::GuardWithIf).vectorize(x, 8, TailStrategy::GuardWithIf);
    t1.compute_at(t2, c).store_root().reorder_storage(c, x, y).unroll(x, 2, TailStrategy::ShiftInwards);
    Buffer<int> out(19, 10, 3);
    out.set_min({-6, -6, 0});
    lowest_x = std::numeric_limits<int>::max();
    t3.realize(out);
    CHECK(lowest_x.load() == -3);
    Buffer<int> want(19, 10, 3);
    want.set_min({-6, -6, 0});
    Buffer<> want_any = want;
    reference_realize(t3, want_any);
    CHECK(halo_test::compare(out, want).empty());
}

// Seed 9930605 of the differential test wrote before a buffer: the same shape, with the
// ShiftInwards split of the Func computed in the sliding Func's region made only in a
// specialization (the check looked at the general schedule alone). s1 slides along s3's x and
// warms up; p, computed per row of s1, splits x by 5 and its outer loop by 3 where `fast`
// holds. A warm-up column of s1 needs 4 columns of p, and the shifted split computed 5, one
// below p's buffer. No warm-up there now either, and p is never computed below what s3 needs.
TEST_CASE("warm-up: not when a Func computed in the sliding Func's region shifts inwards in a specialization") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), xoo("xoo"), xoi("xoi");
    Func p("p"), s1("s1"), s3("s3");
    Param<bool> fast("fast");
    p(x, y) = note_x(x, x * 7 + y);
    s1(x, y) = p(x - 1, y) * 2 + p(x + 2, y + 1);
    s3(x, y) = s1(x - 1, y) * 2 + s1(x + 2, y + 1);
    s1.compute_at(s3, x).store_root();
    p.compute_at(s1, y).store_root();
    p.specialize(fast).split(x, xo, xi, 5, TailStrategy::ShiftInwards).split(xo, xoo, xoi, 3);
    for (bool f : {true, false}) {
        CAPTURE(f);
        fast.set(f);
        Buffer<int> out(15, 12);
        out.set_min({-2, 2});
        lowest_x = std::numeric_limits<int>::max();
        s3.realize(out);
        CHECK(lowest_x.load() == -4);
        Buffer<int> want(15, 12);
        want.set_min({-2, 2});
        Buffer<> want_any = want;
        reference_realize(s3, want_any);
        CHECK(halo_test::compare(out, want).empty());
    }
}
