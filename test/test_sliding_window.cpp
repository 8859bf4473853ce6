// Sliding windows: a producer stored outside the serial loop it is computed in computes only
// the part of its region that is new in each iteration. Every schedule is checked against the
// reference evaluator, at sizes the loops do not divide and at non-zero mins, and the
// redundancy report's counts are asserted exactly.
#include "TestUtil.h"

#include <atomic>
#include <limits>

using namespace halo;
using halo_test::contains;
using halo_test::row_of;

TEST_CASE("a blur's horizontal pass slides down the rows: each row computed once") {
    Var x("x"), y("y");
    Buffer<uint16_t> in = halo_test::random_image<uint16_t>({80, 70}, 41, 0, 60000);
    Func bx("bx"), by("by");
    bx(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
    bx.store_root().compute_at(by, y).vectorize(x, 8);
    by.vectorize(x, 8);
    CHECK(contains(by.lowered_stmt(), "// bx: sliding window over by.s0.y in dimension y"));
    Buffer<uint16_t> out(61, 43);
    out.set_min(3, 5);
    halo_test::check_against_reference(by, out);
    // 61 x 45 rows of bx are needed; with the window each is computed once (vectorized by 8:
    // 64 columns computed per row, as without it).
    RedundancyReport r = redundancy_report(by, {61, 43});
    const RedundancyRow &b = row_of(r, "bx");
    CHECK(b.required == 61 * 45);
    CHECK(b.computed == 64 * 45);
}

TEST_CASE("a 5-stage stencil chain, every stage sliding under the output's rows") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::int_buffer_at(60, 80, -4, -9);
    halo_test::fill_random(in, -100, 100, 42);
    std::vector<Func> s;
    Func prev("s0");
    prev(x, y) = in(x, y) + in(x + 1, y);
    s.push_back(prev);
    for (int i = 1; i < 5; i++) {
        Func f("s" + std::to_string(i));
        f(x, y) = s.back()(x, y - 1) * 2 + s.back()(x, y + 1) - s.back()(x + 1, y);
        s.push_back(f);
    }
    Func out = s.back();
    for (int i = 0; i < 4; i++) s[i].store_root().compute_at(out, y);
    std::string stmt = out.lowered_stmt();
    for (int i = 0; i < 4; i++) CHECK(contains(stmt, "// s" + std::to_string(i) + ": sliding window over s4.s0.y"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(37, 29, -3, -1));
    RedundancyReport r = redundancy_report(out, {37, 29});
    for (int i = 0; i < 4; i++) {
        const RedundancyRow &row = row_of(r, "s" + std::to_string(i));
        CHECK(row.computed == row.required);
        CHECK(row.factor == 1.0);
    }
}

TEST_CASE("Harris-style float stages slide under tiles stored per tile row") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<float> in = halo_test::random_image<float>({90, 70}, 43, -1, 1);
    Func gx("gx"), gy("gy"), gxy("gxy"), sxy("sxy"), out("out");
    gx(x, y) = in(x + 1, y) - in(x, y);
    gy(x, y) = in(x, y + 1) - in(x, y);
    gxy(x, y) = gx(x, y) * gy(x, y);
    sxy(x, y) = gxy(x, y - 1) + gxy(x, y) + gxy(x, y + 1);
    out(x, y) = sxy(x, y) - 0.04f * gx(x, y) * gx(x, y);
    out.tile(x, y, xo, yo, xi, yi, 32, 8).parallel(yo);
    for (Func f : {gx, gy, gxy}) f.store_at(out, yo).compute_at(out, yi);
    sxy.compute_at(out, yi);
    std::string stmt = out.lowered_stmt();
    CHECK(contains(stmt, "// gxy: sliding window over out.s0.yi in dimension y"));
    INFO(stmt);
    Buffer<float> dst(83, 61);
    dst.set_min(2, 2);
    halo_test::check_against_reference(out, dst, 1e-5);
}

TEST_CASE("a producer slides along x when computed at the consumer's x loop") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({50, 20}, 44, -50, 50);
    Func f("f"), g("g");
    f(x, y) = in(x, y) * 3 + in(x, y + 1);
    g(x, y) = f(x - 1, y) + f(x, y) + f(x + 1, y + 2);
    f.store_at(g, y).compute_at(g, x);
    CHECK(contains(g.lowered_stmt(), "// f: sliding window over g.s0.x in dimension x"));
    halo_test::check_against_reference(g, halo_test::int_buffer_at(31, 11, 1, 2));
}

TEST_CASE("a producer slides under a scan's RVar loop") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({30, 40}, 45, -9, 9);
    Func p("p"), scan("scan");
    p(x, y) = in(x, y) + in(x, y + 1);
    RDom r(1, 30, "r");
    scan(x, y) = x;
    scan(x, r) = scan(x, r - 1) + p(x, r) * 2;
    p.store_root().compute_at(scan, r);
    CHECK(contains(scan.lowered_stmt(), "sliding window over scan.s1.r.x in dimension y"));
    halo_test::check_against_reference(scan, Buffer<int>(20, 31));
}

TEST_CASE("a Func with update definitions slides: every stage computes only the new rows") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({40, 60}, 47, -9, 9);
    in.set_min({-3, -5});
    // A reduction (the convolutions' shape): pure definition, then an update over an RDom that
    // leaves x and y pure; the consumer reads three rows.
    Func f("f"), g("g");
    RDom r(0, 3, "r");
    f(x, y) = in(x, y) * 10;
    f(x, y) += in(x + r, y) * (r + 1);
    f(x, y) = f(x, y) * 2 - 1;  // a second update, pointwise
    g(x, y) = f(x, y - 1) + f(x, y) * 3 + f(x, y + 1);
    f.store_at(g, yo).compute_at(g, yi);
    // RoundUp along x (not the dimension it slides along) keeps the window.
    f.update(0).split(x, Var("xo"), Var("xi"), 4, TailStrategy::RoundUp);
    g.split(y, yo, yi, 8, TailStrategy::GuardWithIf);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(stmt, "// f: sliding window over g.s0.yi in dimension y"));
    Buffer<int> out(30, 37);  // strips of 8 do not divide 37
    out.set_min({-2, -4});
    halo_test::check_against_reference(g, out);
    // Each row of f computed once per strip, plus the strip's first two: the report counts it.
    RedundancyReport report = redundancy_report(g, {30, 37});
    REQUIRE(report.find("f") != nullptr);
    // 5 strips, 2 extra rows each; 32 columns (the update rounds 30 up to 32, and the pure
    // definition computes what the update reads of f)
    CHECK(report.find("f")->computed == 32 * (37 + 5 * 2));
}

TEST_CASE("a Func with updates whose pure definition shifts inwards along the window does not slide") {
    // Seed 52371 of the differential test: the pure definition, split by 5 with ShiftInwards
    // (its Auto), recomputed the 4 columns before the new one and reset what the update had
    // made of them, which the update (sliding) did not redo.
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Buffer<int> in = halo_test::random_image<int>({40, 40}, 48, -50, 50);
    in.set_min({-10, 0});  // ShiftInwards computes up to 4 columns before the first needed
    for (TailStrategy t : {TailStrategy::Auto, TailStrategy::ShiftInwards, TailStrategy::GuardWithIf}) {
        Func f("f"), g("g");
        f(x, y) = in(x, y + 1);
        f(x, y) = max(f(x, y), f(x, y) / 2 + in(x, y));
        g(x, y) = f(x, y) + f(x - 1, y) * 2;
        f.compute_at(g, x).store_at(g, y).split(x, xo, xi, 5, t);
        std::string stmt = g.lowered_stmt();
        if (t == TailStrategy::GuardWithIf) {
            CHECK(contains(stmt, "// f: sliding window over g.s0.x in dimension x"));
        } else {
            CHECK(contains(stmt, "// f: no sliding window over g.s0.x (a split of it along x shifts inwards, which would "
                                 "recompute rows its updates finished)"));
        }
        Buffer<int> out(16, 10);
        out.set_min({1, 0});
        halo_test::check_against_reference(g, out);
    }
}

TEST_CASE("no sliding window where it would be wrong, the lowered stmt says why") {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({40, 40}, 46, -9, 9);
    {
        // An update that is not pure in y writes rows of its own choosing: it could rewrite
        // rows earlier iterations finished.
        Func f("f"), g("g");
        RDom r(0, 3, "r");
        f(x, y) = in(x, y);
        f(x, r) += 1;
        g(x, y) = f(x, y) + f(x, y + 1);
        f.store_root().compute_at(g, y);
        CHECK(contains(g.lowered_stmt(), "// f: no sliding window over g.s0.y (its update 0 is not pure in y)"));
        halo_test::check_against_reference(g, Buffer<int>(30, 30));
    }
    {
        // A split of the producer that rounds up would compute past the realization from a
        // start off its grid (test_sliding_round_up.cpp has the windows that move by tiles).
        Func f("f"), g("g");
        f(x, y) = in(x, y) * 2;
        g(x, y) = f(x, y) + f(x, y + 1);
        f.store_root().compute_at(g, y).split(y, yo, yi, 2, TailStrategy::RoundUp);
        CHECK(contains(g.lowered_stmt(), "(a split of it rounds up by 2, and its region does not move by a multiple of 2 rows per iteration)"));
        halo_test::check_against_reference(g, Buffer<int>(30, 30));
    }
    {
        // Reads whose rows go up and down with the loop (y and -y): no window.
        Func f("f"), g("g");
        f(x, y) = in(x, y) - 1;
        g(x, y) = f(x, y) + f(x, 30 - y);
        f.store_root().compute_at(g, y);
        CHECK(contains(g.lowered_stmt(), "(its region does not only grow, nor only shrink)"));
        halo_test::check_against_reference(g, Buffer<int>(30, 30));
    }
}

TEST_CASE("a producer whose region does not move is computed in the first iteration only") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({16, 4}, 47, -9, 9);
    Func lut("lut"), g("g");
    lut(x) = in(x, 0) * in(x, 1);
    g(x, y) = lut(clamp(x, 0, 15)) + y;
    lut.store_root().compute_at(g, y);
    halo_test::check_against_reference(g, Buffer<int>(16, 9));
    RedundancyReport r = redundancy_report(g, {16, 9});
    CHECK(row_of(r, "lut").computed == 16);
}

TEST_CASE("random stencil chains sliding under random loops match the reference evaluator") {
    Buffer<int> in = halo_test::int_buffer_at(200, 200, -70, -70);
    halo_test::fill_random(in, -20, 20, 48);
    int folds_too_small = 0, folds_fine = 0;
    int backwards = 0, round_up_slides = 0, shifted_warm_ups = 0;
    // More by hand; half under the sanitizers (each seed takes ~5 s there).
    const unsigned seeds = unsigned(halo_test::env_int("HALO_SLIDING_SEEDS", HALO_TEST_SANITIZED ? 50 : 100));
    for (unsigned seed = 1; seed <= seeds; seed++) {
        std::mt19937 rng(seed);
        auto pick = [&](int n) { return int(rng() % unsigned(n)); };
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        std::vector<Func> s;
        std::vector<std::string> shifting;  // Funcs with a split along y that shifts inwards
        std::ostringstream log;
        int stages = 2 + pick(5);
        for (int i = 0; i < stages; i++) {
            Func f("s" + std::to_string(i));
            int dy = pick(3) - 1, dx = pick(3) - 1, dy2 = pick(4) - 1;
            if (i == 0) {
                f(x, y) = in(x + dx, y + dy) + in(x, y + dy2) * 2;
            } else if (pick(4) == 0) {
                // An upsampling in y, as the local Laplacian's: rows y / 2 + a (y % 2) + b and
                // y / 2 + c, whose union only grows with y for some a, b, c and not for others
                Func p = s[size_t(pick(i))], q = s.back();
                int a = pick(3), b = pick(3) - 1, c = pick(3) - 1;
                f(x, y) = p(x + dx, y / 2 + a * (y % 2) + b) * 3 + q(x, y / 2 + c);
                log << f.name() << " upsamples: rows y / 2 + " << a << " (y % 2) + " << b << " and y / 2 + " << c << "\n";
            } else if (pick(5) == 0) {
                // Rows walking backwards (40 - y): the producers' regions shrink as y grows
                // (those read through two reversals grow again)
                Func p = s[size_t(pick(i))], q = s.back();
                f(x, y) = p(x + dx, 40 - y + dy) * 2 - q(x, 40 - y + dy2);
                log << f.name() << " reads backwards\n";
            } else {
                Func p = s[size_t(pick(i))], q = s.back();
                f(x, y) = p(x + dx, y + dy) - q(x, y + dy2) / 2 + q(x - 1, y);
            }
            log << f.name() << " reads at dy " << dy << ", " << dy2 << "\n";
            s.push_back(f);
        }
        Func out = s.back();
        bool tiled = pick(2) == 0;
        // Or, as camera_pipe's: strips of `step` rows (yi) in groups (yo), both rounding up, tiles
        // along x inside a strip (loops yo, yi, xo, yii, xi). The producers' regions then move
        // by whole strips (no clamp at the end): their own splits along y that round up by a
        // divisor of the step can slide.
        bool round_up_strips = tiled && pick(2) == 0;
        int step = 2 + pick(3), strips = 1 + pick(3);
        if (round_up_strips) {
            Var yii("yii");
            out.split(x, xo, xi, 8 + pick(8), TailStrategy::GuardWithIf)
                .split(y, yi, yii, step, TailStrategy::RoundUp)
                .split(yi, yo, yi, strips, TailStrategy::RoundUp)
                .reorder(xi, yii, xo, yi, yo);
            log << "strips of " << step << " rows in groups of " << strips << ", RoundUp\n";
        } else if (tiled) {
            out.tile(x, y, xo, yo, xi, yi, 8 + pick(8), 2 + pick(6), TailStrategy::GuardWithIf);
        }
        if (pick(2) == 0) out.vectorize(tiled ? xi : x, 4, TailStrategy::GuardWithIf);
        // Producers at their consumers' loop or outside it: from the last stage back, the depth
        // only shrinks (tiled: 1 = xo, 2 = yi; round_up_strips: 1 = yi, 2 = xo; else 1 = y).
        int depth = 2;
        bool explicit_folds = false;
        for (int i = stages - 2; i >= 0; i--) {
            Func f = s[size_t(i)];
            int choice = pick(4);
            if (choice == 3) {
                log << f.name() << " inline\n";
                continue;
            }
            if (!tiled) choice = choice == 2 ? 0 : choice;
            const int xo_depth = round_up_strips ? 2 : 1;
            int want = tiled ? (choice == 2 ? xo_depth : 3 - xo_depth) : 1;
            if (want > depth) choice = round_up_strips ? 0 : 2, want = 1;
            depth = want;
            if (choice == 0) f.store_root().compute_at(out, tiled ? yi : y);
            else if (choice == 1) f.store_at(out, tiled ? yo : y).compute_at(out, tiled ? yi : y);
            else f.compute_at(out, xo);
            if (choice < 2 && pick(3) == 0) {
                int fold = 2 + pick(15);
                f.fold_storage(y, fold);
                log << f.name() << ".fold_storage(y, " << fold << ")\n";
                explicit_folds = true;
            }
            if (pick(3) == 0) f.vectorize(x, 4);
            if (pick(round_up_strips ? 2 : 3) == 0) {
                // A split along the window of its own: whole tiles, shifted or guarded (under
                // strips that round up, most often rounding up by the strip's step).
                const TailStrategy tails[] = {TailStrategy::RoundUp, TailStrategy::Auto, TailStrategy::GuardWithIf};
                int factor = round_up_strips && pick(2) == 0 ? step : 2 + pick(3);
                int tail = round_up_strips && pick(2) == 0 ? 0 : pick(3);
                f.split(y, y, Var("t"), factor, tails[tail]);
                log << f.name() << ".split(y, y, t, " << factor << ", tail " << tail << ")\n";
                if (tail == 1) shifting.push_back(f.name());
            }
            log << f.name() << " placement " << choice << "\n";
        }
        int w = 1 + pick(40), h = round_up_strips ? step * strips * (1 + pick(4)) : 1 + pick(40);
        Buffer<int> dst = halo_test::int_buffer_at(w, h, pick(20) - 10, pick(20) - 10);
        INFO("seed " << seed << "\n" << log.str());
        if (explicit_folds) {
            // A fold too small for what an iteration needs must be the run-time error, never a
            // wrong answer.
            try {
                out.realize(dst);
            } catch (const RuntimeError &e) {
                CHECK(contains(e.what(), "stored folded modulo"));
                CHECK(contains(e.what(), "are needed at once"));
                folds_too_small++;
                continue;
            }
            folds_fine++;
        }
        std::string stmt = out.lowered_stmt();
        backwards += contains(stmt, ", backwards");
        round_up_slides += contains(stmt, ".min.aligned");  // a RoundUp split that slides
        // A ShiftInwards one that warms up: named in the note "// L: starts K iterations early
        // to warm up the sliding windows of a, b".
        if (size_t at = stmt.find("iterations early to warm up"); at != std::string::npos) {
            std::string names = stmt.substr(at, stmt.find('\n', at) - at) + ",";
            for (const std::string &n : shifting) shifted_warm_ups += contains(names, " " + n + ",");
        }
        halo_test::check_against_reference(out, dst);
    }
    // Both outcomes of fold_storage occur, windows slide backwards, splits that round up slide,
    // and splits that shift inwards warm up.
    MESSAGE(seeds << " seeds: " << round_up_slides << " with a RoundUp split sliding, " << shifted_warm_ups
                  << " with a ShiftInwards split warming up, " << backwards << " backwards");
    CHECK(folds_too_small > 0);
    CHECK(folds_fine > 0);
    CHECK(backwards > 0);
    CHECK(round_up_slides > 0);
    CHECK(shifted_warm_ups > 0);
}

TEST_CASE("a window moving backwards does not slide a producer whose split along it shifts inwards") {
    // The shifted tile computes rows below the new ones: rows of later iterations, which in a
    // folded buffer overwrote rows the consumer still read (and below the realization at the
    // end). Split, vectorized, unrolled and fused-then-vectorized along y alike.
    Var x("x"), y("y"), yo("yo"), yi("yi"), t("t");
    Buffer<int> in = halo_test::int_buffer_at(60, 80, -30, -40);
    halo_test::fill_random(in, -50, 50, 5);
    for (int variant = 0; variant < 4; variant++) {
        for (int w : {1, 3, 9}) {
            Func f("f"), g("g");
            f(x, y) = in(x, y) * 3 + in(x + 1, y);
            g(x, y) = f(x, 20 - y) + f(x, 21 - y) * 2;
            f.store_root().compute_at(g, y);
            if (variant == 0) f.split(y, yo, yi, 4);
            if (variant == 1) f.vectorize(y, 4);
            if (variant == 2) f.unroll(y, 3);
            if (variant == 3) f.fuse(x, y, t).vectorize(t, 8);
            std::string stmt = g.lowered_stmt();
            INFO("variant " << variant << ", width " << w << "\n" << stmt);
            CHECK(contains(stmt, "(a split of it along y shifts inwards, which would compute rows of later iterations "
                                 "of a window moving backwards)"));
            halo_test::check_against_reference(g, halo_test::int_buffer_at(w, 13, -3, -4));
        }
    }
}

TEST_CASE("a producer whose split along the window shifts inwards on a parallel loop does not slide") {
    // Rows r and r + fold share a row of the folded buffer; two threads could write both.
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<int> in = halo_test::int_buffer_at(60, 80, -10, -20);
    halo_test::fill_random(in, -9, 9, 4);
    Func bx("bx"), by("by");
    bx(x, y) = in(x, y) + in(x + 1, y) * 2;
    by(x, y) = bx(x, y) + bx(x, y + 1) + bx(x, y + 2);
    bx.store_root().compute_at(by, y).split(y, yo, yi, 8).parallel(yi);
    std::string stmt = by.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "(a split of it along y shifts inwards and its loop yi is parallel, so two threads could "
                         "write the same row)"));
    halo_test::check_against_reference(by, halo_test::int_buffer_at(50, 50, -5, -5));
}

TEST_CASE("a producer slides under an update whose RDom::where predicate is likely(...)") {
    // The predicate's if is no GuardWithIf tail guard: the producer must be computed in every
    // iteration, skipped or not, or the iterations after a skipped one miss its rows.
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({30, 40}, 45, -9, 9);
    Func p("p"), scan("scan");
    p(x, y) = in(x, y) + in(x, y + 1);
    RDom r(1, 30, "r");
    r.where(likely(r % 3 != 1));
    scan(x, y) = x;
    scan(x, r) = scan(x, r - 1) + p(x, r) * 2 + p(x, r - 1);
    p.store_root().compute_at(scan, r);
    std::string stmt = scan.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "// p: sliding window over scan.s1.r"));
    halo_test::check_against_reference(scan, Buffer<int>(20, 31));
}

TEST_CASE("a window moving towards lower rows slides backwards, folds, and computes each row once") {
    // Halide's sliding_backwards: g reads f at rows 20 - y and 21 - y; as y grows, f's region
    // moves down. Each iteration after the first computes only the row below the last one.
    Var x("x"), y("y");
    Buffer<int> in = halo_test::int_buffer_at(40, 60, -10, -20);
    halo_test::fill_random(in, -50, 50, 5);
    for (int variant = 0; variant < 3; variant++) {
        Func f("f"), g("g");
        f(x, y) = in(x, y) * 3 + in(x + 1, y);
        if (variant == 2) f(x, y) += in(x, y - 1);  // an update, pure in y, slides with it
        g(x, y) = f(x, 20 - y) + f(x, 21 - y) * 2;
        f.store_root().compute_at(g, y);
        if (variant == 1) f.fold_storage(y, 2);
        std::string stmt = g.lowered_stmt();
        INFO("variant " << variant << "\n" << stmt);
        CHECK(contains(stmt, "// f: sliding window over g.s0.y in dimension y, backwards"));
        CHECK(contains(stmt, "// f: storage folded modulo 2 in dimension y"));
        halo_test::check_against_reference(g, halo_test::int_buffer_at(9, 13, -3, -4));
        RedundancyReport r = redundancy_report(g, {9, 13});
        const RedundancyRow &row = row_of(r, "f");
        CHECK(row.required == 9 * 14);
        CHECK(row.computed == 9 * 14);
    }
    // A fold too small for the two rows an iteration reads is the run-time error.
    Func f("f"), g("g");
    f(x, y) = in(x, y);
    g(x, y) = f(x, 20 - y) + f(x, 23 - y);
    f.store_root().compute_at(g, y).fold_storage(y, 2);
    std::string err = halo_test::runtime_error_of([&] { g.realize({5, 5}); });
    INFO(err);
    CHECK(contains(err, "'f'"));
    CHECK(contains(err, "fold by at least 4"));
}

TEST_CASE("storage folding: a sliding Func keeps only the rows an iteration needs") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({70, 90}, 49, -50, 50);
    Func bx("bx"), by("by");
    bx(x, y) = in(x, y) + in(x + 1, y) * 2;
    by(x, y) = bx(x, y) + bx(x, y + 1) + bx(x, y + 2);
    bx.store_root().compute_at(by, y);
    CHECK(contains(by.lowered_stmt(), "// bx: storage folded modulo 4 in dimension y"));
    halo_test::check_against_reference(by, halo_test::int_buffer_at(60, 77, 3, 2));
    // 4 rows of 60 instead of 79.
    RedundancyReport r = redundancy_report(by, {60, 77});
    CHECK(row_of(r, "bx").buffer_bytes == 4 * 60 * 4);
}

TEST_CASE("fold_storage: an explicit fold, and one too small for an iteration") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({40, 50}, 50, -50, 50);
    Func bx("bx"), by("by");
    bx(x, y) = in(x, y) - in(x + 1, y);
    by(x, y) = bx(x, y) * bx(x, y + 2);
    bx.store_root().compute_at(by, y).fold_storage(y, 3);
    CHECK(contains(by.lowered_stmt(), "// bx: storage folded modulo 3 in dimension y"));
    halo_test::check_against_reference(by, halo_test::int_buffer_at(30, 41, 2, 1));
    Func cx("cx"), cy("cy");
    cx(x, y) = in(x, y) + 1;
    cy(x, y) = cx(x, y) + cx(x, y + 3);
    cx.store_root().compute_at(cy, y).fold_storage(y, 2);
    std::string msg = halo_test::runtime_error_of([&] { cy.realize({10, 10}); });
    CHECK(contains(msg, "Func 'cx' is stored folded modulo 2 in y (fold_storage), but 4 of it are needed at once"));
    // Without a sliding window the fold must hold the whole realization.
    Func dx("dx"), dy("dy");
    dx(x, y) = in(x, y);
    dy(x, y) = dx(x, y) + dx(x + 1, y);
    dx.compute_at(dy, y).fold_storage(y, 1);
    halo_test::check_against_reference(dy, Buffer<int>(10, 10));
    dx.compute_root();
    msg = halo_test::runtime_error_of([&] { dy.realize({10, 10}); });
    CHECK(contains(msg, "Func 'dx' is stored folded modulo 1 in y (fold_storage), but 10 of it are needed at once"));
    // A Func that does not slide needs its whole realization at once: the error says why it
    // does not slide (a RoundUp split by 2 of a region moving by 1 row).
    Func ex("ex"), ey("ey");
    Var yo("yo"), yi("yi");
    ex(x, y) = in(x, y + 1) * 2 + 1;
    ey(x, y) = ex(x, y - 1) + ex(x, y) + ex(x, y + 1);
    ex.split(y, yo, yi, 2, TailStrategy::RoundUp);
    ex.store_root().compute_at(ey, y).fold_storage(y, 4);
    msg = halo_test::runtime_error_of([&] { ey.realize({20, 21}); });
    CHECK(contains(msg, "Func 'ex' is stored folded modulo 4 in y (fold_storage), but 24 of it are needed at once: fold "
                        "by at least 24 (it is not computed as a sliding window: a split of it rounds up by 2, and its "
                        "region does not move by a multiple of 2 rows per iteration)"));
}

TEST_CASE("a bounded dimension unrolled or vectorized whole still slides: its loop is guarded to the new part") {
    // bound(c, 0, 4) makes f's loop over c constant, so unroll(c) and vectorize(c) apply; the
    // sliding window then shortens that loop in later iterations. As in Halide, the loop keeps
    // the constant upper bound of its extent with its body guarded (unroll refused it before).
    Var x("x"), y("y"), c("c");
    for (int vectorized = 0; vectorized < 2; vectorized++) {
        Func f("f"), g("g");
        f(x, y, c) = x + y * 10 + c * 100;
        g(x, y, c) = f(x, y, c) * 3 - f(x, y, (c + 1) % 4);
        f.bound(c, 0, 4).compute_at(g, c).store_root();
        if (vectorized) f.reorder(c, x, y).vectorize(c);
        else f.unroll(c);
        g.reorder(x, y, c);
        INFO((vectorized ? "vectorize(c)" : "unroll(c)"));
        CHECK(contains(g.lowered_stmt(), "// f: sliding window over g.s0.c in dimension c"));
        Buffer<int> out(9, 5, 4);
        out.set_min({3, -2, 0});
        halo_test::check_against_reference(g, out);
    }
    // The window moves with c: each iteration computes one new plane of 8.
    Func p("p"), q("q");
    p(x, y, c) = x * 7 + y - c;
    q(x, y, c) = p(x, y, c) + p(x, y, c + 1);
    p.bound(c, 0, 8).compute_at(q, c).store_root().unroll(c);
    q.reorder(x, y, c);
    halo_test::check_against_reference(q, Buffer<int>(6, 4, 7));
}

TEST_CASE("fold_storage along a loop outside the one the Func slides over: the rows of one outer iteration") {
    // g slides along x over f's x loop; each row of f needs rows y..y+2 of g, so a fold of 3
    // in y holds what one iteration of f's y loop keeps (Halide's storage_folding test). Halo
    // asked for the whole realization (31 rows).
    Var x("x"), y("y");
    for (int factor : {3, 4, 2}) {
        Func f("f"), g("g");
        g(x, y) = x * 5 - y * 3;
        f(x, y) = g(2 * x, y) + g(2 * x + 1, y + 2);
        g.compute_at(f, x).store_root().fold_storage(y, factor);
        INFO("fold " << factor);
        Buffer<int> out(33, 29);
        out.set_min(-4, -7);
        if (factor >= 3) {
            halo_test::check_against_reference(f, out);
        } else {
            std::string msg = halo_test::runtime_error_of([&] { f.realize(out); });
            CHECK(contains(msg, "Func 'g' is stored folded modulo 2 in y (fold_storage), but 3 of it are needed at once"));
        }
    }
    // Not sliding at all (a specialized Func does not slide): what one iteration computes.
    Param<bool> p("p");
    p.set(true);
    Func f("f"), g("g");
    g(x, y) = x + y * 7;
    f(x, y) = g(x, y) - g(x, y + 1);
    g.compute_at(f, y).store_root().fold_storage(y, 2);
    g.specialize(p);
    CHECK(contains(f.lowered_stmt(), "g: no sliding window over f.s0.y (it is specialized)"));
    halo_test::check_against_reference(f, halo_test::int_buffer_at(9, 12, 2, -3));
}

TEST_CASE("a Func of no dimensions stored outside its compute loop has nothing to slide") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({8, 8}, 51, -9, 9);
    Func scale("scale"), g("g");
    scale() = in(0, 0) * 3 + 1;
    g(x, y) = in(x, y) * scale() + y;
    scale.store_root().compute_at(g, y);
    halo_test::check_against_reference(g, Buffer<int>(8, 8));
}

TEST_CASE("a Func computed in two specialization branches, sliding in one only, is not folded") {
    // Seed 9000123 of the differential test: the serial branch slides and folded the shared
    // buffer to one row, which the vectorized branch (two rows at once) then overwrote.
    Var x("x"), y("y");
    Buffer<int> in = halo_test::random_image<int>({30, 20}, 52, -50, 50);
    Func f("f"), g("g");
    f(x, y) = in(x, y) * 2 + in(x + 1, y);
    g(x, y) = f(x, y) - y;
    g.specialize(g.output_buffer().width() >= 9).vectorize(x, 8, TailStrategy::GuardWithIf).vectorize(y, 2,
                                                                                                      TailStrategy::GuardWithIf);
    g.reorder(y, x);
    f.store_root().compute_at(g, y);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(stmt, "// f: sliding window over"));
    CHECK(!contains(stmt, "storage folded"));
    halo_test::check_against_reference(g, halo_test::int_buffer_at(21, 7, 4, 3));
    halo_test::check_against_reference(g, halo_test::int_buffer_at(5, 7, 4, 3));
}

TEST_CASE("a Func realized in two specialization branches with different windows is not folded by the first one's fold") {
    // Stored at the consumer's rows, computed at its x: each branch of the specialized
    // consumer gets a realization of its own, sliding along x. The branch first in the IR (the
    // specialization, unsplit: a window of 2 columns) proposed a fold of 2; the general case
    // (split by 4: a window of 5) once took that fold as if the user had given it, and
    // overwrote columns it still needed (wrong results at the first column). Now a Func is
    // folded automatically only where all its realizations agree.
    Buffer<int> in = halo_test::int_buffer_at(80, 80, -20, -20);
    halo_test::fill_random(in, -50, 50, 7);
    Param<bool> wide("wide");
    Var x("x"), y("y"), xi("xi");
    Func p("p"), c("c");
    p(x, y) = in(x, y) * 2 + in(x + 1, y - 1);
    c(x, y) = p(x, y) - p(x - 1, y + 1);
    c.specialize(wide);  // keeps the schedule it has now: no split
    c.split(x, x, xi, 4);
    p.store_at(c, y).compute_at(c, x);
    for (bool w : {true, false}) {
        wide.set(w);
        INFO("wide = " << w);
        halo_test::check_against_reference(c, halo_test::int_buffer_at(13, 9, -7, -5));
    }
    CHECK(!contains(c.lowered_stmt(), "storage folded"));
}

TEST_CASE("an upsampled producer slides: its rows y / 2 - 1 + 2 * (y % 2) and y / 2 only grow, remainder by remainder") {
    // The upsampling of Halide's local Laplacian, once and twice (nested divisions): each
    // output row reads two rows of the level below, alternately the one above and below. The
    // row regions are not monotonic term by term, but are for every remainder of y modulo 2
    // (4 for the nested one).
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Buffer<float> in = halo_test::random_image<float>({40, 40}, 43, -1, 1);
    in.set_min(-20, -20);
    auto up = [&](Func f, const std::string &name) {
        Func u(name);
        u(x, y) = 0.25f * f(x, y / 2 - 1 + 2 * (y % 2)) + 0.75f * f(x, y / 2);
        return u;
    };
    Func base("base");
    // Multiples of 1/32, so that 0.25a + 0.75b is exact whether or not it becomes a fused
    // multiply-add (which Halo may form, as Halide does; the reference evaluator does not).
    base(x, y) = floor(in(clamp(x, -20, 19), clamp(y, -20, 19)) * 64.0f) * (1.0f / 32);
    Func once = up(base, "once");
    Func twice = up(once, "twice");
    Func out("out");
    out(x, y) = twice(x, y) + 1.0f;
    out.split(y, yo, yi, 16).parallel(yo);
    base.store_at(out, yo).compute_at(out, yi);
    once.store_at(out, yo).compute_at(out, yi);
    twice.compute_at(out, yi);  // its row's bounds are lets: once's rows stay exact expressions
    std::string stmt = out.lowered_stmt();
    INFO(stmt);
    CHECK(contains(stmt, "// once: sliding window over out.s0.yi in dimension y"));
    CHECK(contains(stmt, "// base: sliding window over out.s0.yi in dimension y"));
    for (auto [w, h, mx, my] : {std::tuple{23, 37, -11, -9}, {30, 50, 3, 5}}) {
        Buffer<float> dst(w, h);
        dst.set_min(mx, my);
        INFO(w << "x" << h << " at (" << mx << ", " << my << ")");
        halo_test::check_against_reference(out, dst);
    }
    // Strip s of 16 output rows reads rows 8s - 1 .. 8s + 8 of once: each computed once per
    // strip (10 rows; without the window, two per output row), only the strips' halos twice.
    RedundancyReport r = redundancy_report(out, {23, 64});
    const RedundancyRow &o = row_of(r, "once");
    CHECK(o.computed == 23 * 4 * 10);
    CHECK(o.required == 23 * 34);
}

TEST_CASE("a parity access whose rows go back and forth does not slide, and stays right") {
    // g's row y reads f's rows y / 2 and y / 2 + 2 * (y % 2): rows {0}, {0, 2}, {1}, {1, 3}, ...:
    // the last row needed goes 0, 2, 1, 3, 2, ...: down at every even y
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f("f"), g("g"), out("out");
    f(x, y) = x * 100 + y;
    g(x, y) = f(x, y / 2 + 2 * (y % 2)) + f(x, y / 2);
    out(x, y) = g(x, y);
    out.split(y, yo, yi, 8);
    g.compute_at(out, yi);
    f.store_at(out, yo).compute_at(out, yi);
    CHECK(contains(out.lowered_stmt(), "// f: no sliding window over out.s0.yi (its region does not only grow, nor only shrink)"));
    Buffer<int> dst(5, 19);
    dst.set_min(-2, -7);
    halo_test::check_against_reference(out, dst);
}

namespace {
std::atomic<int> lowest_row{std::numeric_limits<int>::max()};
}
// Records the lowest row a Func is computed at.
extern "C" int note_row(int y, int value) {
    int seen = lowest_row.load();
    while (y < seen && !lowest_row.compare_exchange_weak(seen, y)) {
    }
    return value;
}
HalideExtern_2(int, note_row, int, int);

// Seed 8600700 of the differential test wrote before a buffer. a slid along out's tiles, and
// the loop its split vectorizes fuses x and y: every tile reads a at columns c and c + 3 (c a
// clamped Param), so each tile's whole region holds at least 4 columns of 3 rows, more than a
// vector of 8, but a tile past them adds only 2 new columns, 6 points: sliding, a shifted
// vector of 8 started 2 points before them, in the row above, outside a's buffer (sized for
// the regions before sliding, which need no such shift). Such a split now keeps a from
// sliding, and a is never computed above the output's rows.
TEST_CASE("sliding window: not for a Func whose fused loop's split shifts inwards") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi"), xy("xy");
    Func a("a"), out("out");
    Param<int> column("column");
    column.set(5);
    a(x, y) = note_row(y, x * 5 + y);
    out(x, y) = a(x / 2, y) * 3 + a(clamp(column, 0, 12), y) + a(clamp(column, 0, 12) + 3, y) + x;
    out.tile(x, y, xo, yo, xi, yi, 4, 3);
    a.store_at(out, yo).compute_at(out, xo).fuse(x, y, xy).vectorize(xy, 8);
    CHECK(contains(out.lowered_stmt(), "(a split of a loop fused from x shifts inwards, which from the few points new in "
                                       "an iteration would compute rows outside its buffer)"));
    Buffer<int> got(40, 9);
    got.set_min({-4, -2});
    lowest_row = std::numeric_limits<int>::max();
    out.realize(got);
    CHECK(lowest_row.load() == -2);
    halo_test::check_against_reference(out, got);
}

// The same for a Func computed inside the sliding Func's produce, over a region made from the
// slid one: its fused loop's shifted vector would reach rows of the other dimension outside its
// buffer. b does not slide then (a conservative rule: the shift may also stay inside).
TEST_CASE("sliding window: not for a Func that computes inside it a Func whose fused loop's split shifts inwards") {
    Var x("x"), y("y"), xy("xy");
    Func a("a"), b("b"), out("out");
    a(x, y) = x * 3 + y;
    b(x, y) = a(x, y) * 2;
    out(x, y) = b(x, y) + b(x + 1, y);
    b.store_root().compute_at(out, x);
    a.compute_at(b, Var::outermost()).fuse(x, y, xy).vectorize(xy, 8);
    CHECK(contains(out.lowered_stmt(), "b: no sliding window over out.s0.x (a, computed inside it, has a split of a "
                                       "fused loop that shifts inwards"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(11, 5, -3, 2));
}
