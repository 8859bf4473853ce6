// Schedules must not change results: split with every tail strategy, tile, reorder, fuse,
// vectorize, unroll, parallel, compute_at, store_at. Each scheduled pipeline is compared with
// the reference evaluator (which ignores schedules), over regions with odd sizes and negative
// mins; a few simple ones are also checked against plain C++.
#include "TestUtil.h"

#include <functional>
#include <string>
#include <vector>

using namespace halo;
using halo_test::check_against_reference;

namespace {

// A small two-input world shared by the pipelines below.
struct World {
    Buffer<float> fin{std::vector<int>{120, 90}, "fin"};
    Buffer<uint8_t> u8in{std::vector<int>{120, 90}, "u8in"};
    Buffer<int32_t> iin{std::vector<int>{120, 90}, "iin"};
    World() {
        halo_test::fill_random(fin, -1, 1, 1);
        halo_test::fill_random(u8in, 0, 255, 2);
        halo_test::fill_random(iin, -1000, 1000, 3);
        fin.set_min(-30, -20);
        u8in.set_min(-30, -20);
        iin.set_min(-30, -20);
    }
};

Buffer<> out_buffer(Type t, std::vector<int> sizes, std::vector<int> mins) {
    Buffer<> b(t, sizes);
    b.set_min(mins);
    return b;
}

// blur_x (producer) -> blur_y (output): the classic two-stage stencil.
struct Blur {
    Var x{"x"}, y{"y"};
    Func bx{"bx"}, by{"by"};
    explicit Blur(const World &w) {
        bx(x, y) = w.fin(x - 1, y) + w.fin(x, y) * 2.0f + w.fin(x + 1, y);
        by(x, y) = bx(x, y - 1) + bx(x, y) * 2.0f + bx(x, y + 1);
    }
};

const TailStrategy all_tails[] = {TailStrategy::Auto, TailStrategy::GuardWithIf, TailStrategy::ShiftInwards};
const char *tail_name(TailStrategy t) {
    switch (t) {
    case TailStrategy::Auto: return "Auto";
    case TailStrategy::GuardWithIf: return "GuardWithIf";
    case TailStrategy::ShiftInwards: return "ShiftInwards";
    case TailStrategy::RoundUp: return "RoundUp";
    }
    return "?";
}

}  // namespace

TEST_CASE("split of the output with each tail strategy, size not divisible") {
    World w;
    for (TailStrategy t : all_tails) {
        for (int factor : {3, 8, 16}) {
            Var x("x"), y("y"), xo("xo"), xi("xi");
            Func f("f");
            f(x, y) = w.iin(x, y) * 3 + x - y;
            f.split(x, xo, xi, factor, t);
            std::string ctx = std::string(tail_name(t)) + " factor " + std::to_string(factor);
            INFO(ctx);
            check_against_reference(f, out_buffer(Int(32), {37, 11}, {-7, -3}));
            // Plain C++ as well.
            Buffer<int32_t> out(37, 11);
            out.set_min(-7, -3);
            f.realize(out);
            int bad = 0;
            for (int j = -3; j < 8; j++)
                for (int i = -7; i < 30; i++) bad += out(i, j) != w.iin(i, j) * 3 + i - j;
            CHECK(bad == 0);
        }
    }
}

TEST_CASE("nested splits with mixed tail strategies") {
    World w;
    Var x("x"), y("y"), xo("xo"), xi("xi"), xio("xio"), xii("xii"), yo("yo"), yi("yi");
    Func f("f");
    f(x, y) = w.fin(x, y) * w.fin(x + 1, y - 1);
    f.split(x, xo, xi, 12, TailStrategy::GuardWithIf)
        .split(xi, xio, xii, 5, TailStrategy::ShiftInwards)
        .split(y, yo, yi, 4, TailStrategy::GuardWithIf);
    check_against_reference(f, out_buffer(Float(32), {53, 19}, {-20, -10}));
}

TEST_CASE("RoundUp on a compute_root producer") {
    World w;
    for (int factor : {4, 7, 16}) {
        Blur b(w);
        Var xo("xo"), xi("xi");
        b.bx.compute_root().split(b.x, xo, xi, factor, TailStrategy::RoundUp);
        INFO("factor " << factor);
        check_against_reference(b.by, out_buffer(Float(32), {45, 21}, {-9, -5}), 1e-5);
    }
}

TEST_CASE("tile with each tail strategy") {
    World w;
    for (TailStrategy t : all_tails) {
        Blur b(w);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        b.by.tile(b.x, b.y, xo, yo, xi, yi, 8, 4, t);
        b.bx.compute_root();
        INFO(std::string(tail_name(t)));
        check_against_reference(b.by, out_buffer(Float(32), {37, 23}, {-11, -6}), 1e-5);
    }
}

TEST_CASE("reorder") {
    World w;
    {
        Blur b(w);
        b.by.reorder(b.y, b.x);  // column-major traversal
        b.bx.compute_root().reorder(b.y, b.x);
        check_against_reference(b.by, out_buffer(Float(32), {29, 31}, {-3, -17}), 1e-5);
    }
    {
        Var x("x"), y("y"), c("c");
        Func f("f");
        f(x, y, c) = cast<int32_t>(w.u8in(x, y)) * (c + 1) - w.iin(x + c, y);
        f.reorder(c, x, y);
        check_against_reference(f, out_buffer(Int(32), {17, 9, 3}, {-5, 4, 0}));
        Func g("g");
        g(x, y, c) = cast<int32_t>(w.u8in(x, y)) * (c + 1) - w.iin(x + c, y);
        g.reorder(y, c, x);
        check_against_reference(g, out_buffer(Int(32), {17, 9, 3}, {-5, 4, 0}));
    }
}

TEST_CASE("fuse, then parallel and vectorize") {
    World w;
    Var x("x"), y("y"), xy("xy"), c("c"), yc("yc");
    Func f("f");
    f(x, y) = w.iin(x, y) - w.iin(x, y + 1);
    f.fuse(x, y, xy).parallel(xy);
    check_against_reference(f, out_buffer(Int(32), {13, 7}, {-4, 2}));
    Func g("g");
    g(x, y, c) = w.fin(x, y) + cast<float>(c);
    g.fuse(y, c, yc).parallel(yc).vectorize(x, 8);
    check_against_reference(g, out_buffer(Float(32), {21, 5, 3}, {0, -2, 0}));
}

TEST_CASE("vectorize float, uint8 and a 2*x downsample") {
    World w;
    {
        Blur b(w);
        b.by.vectorize(b.x, 8);
        b.bx.compute_root().vectorize(b.x, 8);
        check_against_reference(b.by, out_buffer(Float(32), {43, 9}, {-13, 1}), 1e-5);
    }
    {
        // uint8 averaging with widening and narrowing.
        Var x("x"), y("y");
        Func avg("avg");
        avg(x, y) = cast<uint8_t>((cast<uint16_t>(w.u8in(x, y)) + w.u8in(x + 1, y) + w.u8in(x, y + 1) +
                                   w.u8in(x + 1, y + 1) + 2) / 4);
        avg.vectorize(x, 16);
        check_against_reference(avg, out_buffer(UInt(8), {51, 7}, {-29, 0}));
        Buffer<uint8_t> out(51, 7);
        out.set_min(-29, 0);
        avg.realize(out);
        int bad = 0;
        for (int j = 0; j < 7; j++)
            for (int i = -29; i < 22; i++) {
                int e = (w.u8in(i, j) + w.u8in(i + 1, j) + w.u8in(i, j + 1) + w.u8in(i + 1, j + 1) + 2) / 4;
                bad += out(i, j) != e;
            }
        CHECK(bad == 0);
    }
    {
        // Downsample: strided loads at 2*x and 2*x + 1.
        Var x("x"), y("y");
        Func down("down");
        down(x, y) = w.fin(2 * x, 2 * y) + w.fin(2 * x + 1, 2 * y) * 0.5f - w.fin(2 * x - 1, 2 * y + 1);
        down.vectorize(x, 8);
        check_against_reference(down, out_buffer(Float(32), {27, 13}, {-13, -9}), 1e-6);
        Func downu("downu");
        downu(x, y) = w.u8in(2 * x, y) / 2 + w.u8in(2 * x + 1, y) / 2;
        downu.vectorize(x, 16);
        check_against_reference(downu, out_buffer(UInt(8), {37, 5}, {-15, 3}));
    }
    {
        // Upsample: x / 2 in a vector.
        Var x("x"), y("y");
        Func up("up");
        up(x, y) = w.iin(x / 2, y) + w.iin((x + 1) / 2, y) * (x % 2);
        up.vectorize(x, 8);
        check_against_reference(up, out_buffer(Int(32), {61, 3}, {-59, 0}));
    }
}

TEST_CASE("vectorize with select, min/max, casts and integer division") {
    World w;
    Var x("x"), y("y");
    Func f("f");
    Expr v = w.iin(x, y);
    f(x, y) = select(v > 0, v / 7, (v % 5) * x) + max(min(v, 300), -300) + cast<int32_t>(w.fin(x, y) * 100.0f);
    f.vectorize(x, 8);
    check_against_reference(f, out_buffer(Int(32), {45, 6}, {-30, -20}));
}

TEST_CASE("unroll") {
    World w;
    {
        Var x("x"), y("y"), xo("xo"), xi("xi");
        Func f("f");
        f(x, y) = w.iin(x, y) + w.iin(x + 2, y) * 2;
        f.unroll(x, 3);  // 37 is not a multiple of 3
        check_against_reference(f, out_buffer(Int(32), {37, 5}, {-10, -1}));
    }
    {
        Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
        Func f("f");
        f(x, y) = w.fin(x, y) * 3.0f;
        f.split(x, xo, xi, 8, TailStrategy::GuardWithIf).vectorize(xi).split(y, yo, yi, 2).unroll(yi);
        check_against_reference(f, out_buffer(Float(32), {29, 13}, {-7, 5}));
    }
}

TEST_CASE("unroll a channel loop made constant by bound()") {
    // Halide's idiom: f.bound(c, 0, 3).unroll(c).
    World w;
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = w.iin(x, y) * (c + 2);
    f.bound(c, 0, 3).reorder(c, x, y).unroll(c);
    check_against_reference(f, out_buffer(Int(32), {11, 4, 3}, {3, 3, 0}));
}

TEST_CASE("parallel(y), on the output and on a producer and an update") {
    World w;
    {
        Blur b(w);
        b.by.parallel(b.y).vectorize(b.x, 4);
        b.bx.compute_root().parallel(b.y);
        check_against_reference(b.by, out_buffer(Float(32), {55, 41}, {-25, -17}), 1e-5);
    }
    {
        Var x("x"), y("y");
        RDom r(0, 5);
        Func f("f");
        f(x, y) = 0;
        f(x, y) += w.iin(x + r, y);
        f.parallel(y);
        f.update(0).parallel(y).vectorize(x, 4);
        check_against_reference(f, out_buffer(Int(32), {23, 17}, {-9, -11}));
    }
    {
        Var x("x"), y("y"), yo("yo"), yi("yi");
        Func f("f");
        f(x, y) = w.fin(x, y) + 1.0f;
        f.split(y, yo, yi, 4, TailStrategy::GuardWithIf).parallel(yo);
        check_against_reference(f, out_buffer(Float(32), {9, 23}, {0, -20}));
    }
}

TEST_CASE("compute_at(consumer, x) and (consumer, y)") {
    World w;
    {
        Blur b(w);
        b.bx.compute_at(b.by, b.x);
        check_against_reference(b.by, out_buffer(Float(32), {19, 13}, {-9, -7}), 1e-5);
        std::string stmt = b.by.lowered_stmt();
        INFO(stmt);
        size_t loop = stmt.find("for (by.s0.x"), prod = stmt.find("produce bx");
        REQUIRE(loop != std::string::npos);
        REQUIRE(prod != std::string::npos);
        CHECK(loop < prod);
    }
    {
        Blur b(w);
        b.bx.compute_at(b.by, b.y).vectorize(b.x, 8);
        b.by.vectorize(b.x, 8);
        check_against_reference(b.by, out_buffer(Float(32), {35, 13}, {-9, -7}), 1e-5);
        std::string stmt = b.by.lowered_stmt();
        size_t loop_y = stmt.find("for (by.s0.y"), prod = stmt.find("produce bx");
        REQUIRE(loop_y != std::string::npos);
        REQUIRE(prod != std::string::npos);
        CHECK(loop_y < prod);
    }
}

TEST_CASE("compute_at a tile loop") {
    World w;
    for (TailStrategy t : all_tails) {
        Blur b(w);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        b.by.tile(b.x, b.y, xo, yo, xi, yi, 16, 8, t).vectorize(xi, 8).parallel(yo);
        b.bx.compute_at(b.by, xo);
        INFO(std::string(tail_name(t)));
        check_against_reference(b.by, out_buffer(Float(32), {45, 27}, {-21, -13}), 1e-5);
    }
}

TEST_CASE("compute_at a tile loop with the producer vectorized") {
    World w;
    for (TailStrategy t : all_tails) {
        Blur b(w);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        b.by.tile(b.x, b.y, xo, yo, xi, yi, 16, 8, t).vectorize(xi, 8).parallel(yo);
        b.bx.compute_at(b.by, xo).vectorize(b.x, 8);
        INFO(std::string(tail_name(t)));
        // The input covers [-30, 89] x [-20, 69]; this output needs [-22, 24] x [-14, 14].
        check_against_reference(b.by, out_buffer(Float(32), {45, 27}, {-21, -13}), 1e-5);
    }
}

TEST_CASE("store_root with compute_at, and store_at an outer tile loop") {
    World w;
    {
        Blur b(w);
        b.bx.store_root().compute_at(b.by, b.y);
        check_against_reference(b.by, out_buffer(Float(32), {31, 25}, {-6, -12}), 1e-5);
    }
    {
        Blur b(w);
        b.bx.store_root().compute_at(b.by, b.x);
        check_against_reference(b.by, out_buffer(Float(32), {17, 9}, {-6, 3}), 1e-5);
    }
    {
        Blur b(w);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        b.by.tile(b.x, b.y, xo, yo, xi, yi, 8, 8);
        b.bx.store_at(b.by, yo).compute_at(b.by, xo);
        check_against_reference(b.by, out_buffer(Float(32), {37, 21}, {-13, -4}), 1e-5);
    }
}

TEST_CASE("a three-stage pipeline with every stage placed differently") {
    World w;
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("a"), b("b"), c("c"), out("out");
    a(x, y) = cast<int32_t>(w.u8in(x, y)) + w.iin(x, y);
    b(x, y) = a(x - 1, y) + a(x + 1, y) + a(x, y);
    c(x, y) = b(x, y - 1) - b(x, y + 1);
    out(x, y) = c(2 * x, y) + c(2 * x + 1, y) + b(x, y);
    out.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf).vectorize(xi, 4).parallel(yo);
    c.compute_at(out, xo).vectorize(x, 4);
    Var yb("yb"), yy("yy");
    b.compute_root().split(y, yb, yy, 4).parallel(yb);
    a.store_at(b, yb).compute_at(b, yy);
    check_against_reference(out, out_buffer(Int(32), {23, 19}, {-8, -10}));
}

TEST_CASE("a three-stage pipeline with every stage placed differently, scalar producers") {
    World w;
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func a("a"), b("b"), c("c"), out("out");
    a(x, y) = cast<int32_t>(w.u8in(x, y)) + w.iin(x, y);
    b(x, y) = a(x - 1, y) + a(x + 1, y) + a(x, y);
    c(x, y) = b(x, y - 1) - b(x, y + 1);
    out(x, y) = c(2 * x, y) + c(2 * x + 1, y) + b(x, y);
    out.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::GuardWithIf).vectorize(xi, 4).parallel(yo);
    c.compute_at(out, xo);
    Var yb("yb"), yy("yy");
    b.compute_root().split(y, yb, yy, 4).parallel(yb);
    a.store_at(b, yb).compute_at(b, yy);
    check_against_reference(out, out_buffer(Int(32), {23, 19}, {-8, -10}));
}

TEST_CASE("a reduction computed at its consumer's x, and an update scheduled with splits") {
    World w;
    {
        Var x("x"), y("y");
        RDom r(-2, 5);
        Func s("s"), out("out");
        s(x, y) = 0.0f;
        s(x, y) += w.fin(x + r, y) * w.fin(x, y + r);
        out(x, y) = s(x, y) * 0.5f + s(x + 1, y);
        s.compute_at(out, x);
        check_against_reference(out, out_buffer(Float(32), {21, 11}, {-5, -3}), 1e-5);
    }
    {
        Var x("x"), y("y"), xo("xo"), xi("xi");
        RDom r(0, 3, 0, 3);
        Func s("s");
        s(x, y) = 0;
        s(x, y) += w.iin(x + r.x, y + r.y) * (r.x - r.y);
        s.update(0).split(x, xo, xi, 8).vectorize(xi).reorder(r.x, r.y, xi, xo, y);
        s.vectorize(x, 4);
        check_against_reference(s, out_buffer(Int(32), {35, 7}, {-20, -5}));
    }
    {
        // Split an RVar of a scan-free reduction (order does not change the sum of ints).
        Var x("x");
        RDom r(0, 30);
        RVar ro("ro"), ri("ri");
        Func s("s");
        s(x) = 0;
        s(x) += w.iin(r, x);
        s.update(0).split(r, ro, ri, 4, TailStrategy::GuardWithIf);
        check_against_reference(s, out_buffer(Int(32), {13}, {-7}));
    }
}

TEST_CASE("a scan whose update keeps its order under scheduling of the pure var") {
    World w;
    Var x("x"), y("y");
    RDom r(1, 39);
    Func s("s");
    s(x, y) = w.iin(x, y);
    s(r, y) = s(r - 1, y) + s(r, y);
    s.update(0).parallel(y);
    s.vectorize(x, 8);
    check_against_reference(s, out_buffer(Int(32), {40, 15}, {0, -10}));
}

TEST_CASE("the same Func realized again after its schedule changes") {
    World w;
    Blur b(w);
    b.bx.compute_root();
    check_against_reference(b.by, out_buffer(Float(32), {19, 13}, {-9, -7}), 1e-5);
    b.bx.compute_at(b.by, b.y);
    b.by.vectorize(b.x, 4);
    check_against_reference(b.by, out_buffer(Float(32), {19, 13}, {-9, -7}), 1e-5);
    std::string stmt = b.by.lowered_stmt();
    CHECK(stmt.find("for (by.s0.y") < stmt.find("produce bx"));
}

TEST_CASE("lowered_stmt after a schedule change shows the new schedule, and realize recompiles") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f_restage");
    f(x) = x * 3;
    Buffer<int> first = f.realize({10});
    CHECK(f.lowered_stmt().find("f_restage.s0.xo") == std::string::npos);
    f.split(x, xo, xi, 4, TailStrategy::GuardWithIf);
    CHECK(f.lowered_stmt().find("f_restage.s0.xo") != std::string::npos);
    Buffer<int> second = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(second(i) == 3 * i);
}
