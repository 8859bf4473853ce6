// Multi-stage pipelines and bounds inference: stencils, resampling, indices with clamp and
// select, shared producers, non-zero and negative output mins, inputs with non-zero mins,
// scalar Params, and Funcs of 1 to 4 dimensions. Compared with plain C++ loops.
#include "TestUtil.h"

#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace halo;
using halo_test::check_all;
using halo_test::random_image;

namespace {


int floor_div(int a, int b) { return int(std::floor(double(a) / b)); }

}  // namespace

TEST_CASE("3x3 stencil with explicit offsets on an ImageParam with non-zero min") {
    const int W = 37, H = 23;
    Buffer<float> input = random_image<float>({W + 2, H + 2}, 1);
    input.set_min(-4, 7);  // covers x in [-4, W-2], y in [7, H+8]
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func blur("blur");
    Expr s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) s = s + in(x + dx, y + dy) * float(1 + dx + 3 * (dy + 1));
    blur(x, y) = s;
    Buffer<float> out(W, H);
    out.set_min(-3, 8);
    blur.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        float v = 0.0f;
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) v = v + input(c[0] + dx, c[1] + dy) * float(1 + dx + 3 * (dy + 1));
        return double(v);
    }, 1e-4);  // codegen may contract a * b + c into an FMA
}

TEST_CASE("separable blur with a compute_root producer, odd sizes and negative mins") {
    const int W = 41, H = 29;
    Buffer<int32_t> input = random_image<int32_t>({W + 4, H + 4}, 2, 0, 1000);
    input.set_min(-12, -7);
    Var x("x"), y("y");
    Func bx("bx"), by("by");
    bx(x, y) = input(x - 2, y) + input(x, y) * 2 + input(x + 2, y);
    by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    bx.compute_root();
    Buffer<int32_t> out(W, H - 2);
    out.set_min(-10, -6);
    by.realize(out);
    auto bxc = [&](int i, int j) { return input(i - 2, j) + input(i, j) * 2 + input(i + 2, j); };
    check_all(out, [&](const std::vector<int> &c) {
        return double(bxc(c[0], c[1] - 1) + bxc(c[0], c[1]) + bxc(c[0], c[1] + 1));
    });
    std::string stmt = by.lowered_stmt();
    CHECK(stmt.find("produce bx") != std::string::npos);
    CHECK(stmt.find("consume bx") != std::string::npos);
}

TEST_CASE("same pipeline with the producer inline") {
    Buffer<int16_t> input = random_image<int16_t>({50, 40}, 3, -1000, 1000);
    Var x("x"), y("y");
    Func bx("bx"), by("by");
    bx(x, y) = input(x, y) + input(x + 1, y);
    by(x, y) = bx(x, y) - bx(x, y + 1) * 3;
    Buffer<int16_t> out = by.realize({49, 39});
    check_all(out, [&](const std::vector<int> &c) {
        auto b = [&](int i, int j) { return int16_t(input(i, j) + input(i + 1, j)); };
        return double(int16_t(b(c[0], c[1]) - b(c[0], c[1] + 1) * 3));
    });
    std::string stmt = by.lowered_stmt();
    CHECK(stmt.find("produce bx") == std::string::npos);
}

TEST_CASE("downsampling by two (2*x + i)") {
    const int W = 23, H = 17;
    Buffer<uint8_t> input = random_image<uint8_t>({2 * W + 1, 2 * H}, 4, 0, 255);
    input.set_min(-2, 6);
    ImageParam in(UInt(8), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func wide("wide"), down("down");
    wide(x, y) = cast<uint16_t>(in(x, y));
    down(x, y) = cast<uint8_t>((wide(2 * x, 2 * y) + wide(2 * x + 1, 2 * y) + wide(2 * x, 2 * y + 1) +
                                wide(2 * x + 1, 2 * y + 1) + 2) / 4);
    wide.compute_root();
    Buffer<uint8_t> out(W, H);
    out.set_min(-1, 3);  // reads x in [-2, 2W-3], y in [6, 2H+5]
    down.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        int i = c[0], j = c[1];
        return double((input(2 * i, 2 * j) + input(2 * i + 1, 2 * j) + input(2 * i, 2 * j + 1) +
                       input(2 * i + 1, 2 * j + 1) + 2) / 4);
    });
}

TEST_CASE("upsampling by two (x / 2) over negative coordinates") {
    Buffer<float> input = random_image<float>({20, 12}, 5);
    input.set_min(-10, -6);
    Var x("x"), y("y");
    Func up("up"), src("src");
    src(x, y) = input(x, y) * 2.0f;
    src.compute_root();
    up(x, y) = src(x / 2, y / 2) + src((x + 1) / 2, y / 2);
    Buffer<float> out(39, 24);
    out.set_min(-20, -12);  // x/2 in [-10, 9], (x+1)/2 in [-10, 9]
    up.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        int i = c[0], j = c[1];
        return 2.0 * input(floor_div(i, 2), floor_div(j, 2)) + 2.0 * input(floor_div(i + 1, 2), floor_div(j, 2));
    }, 1e-6);
}

TEST_CASE("clamp inside indices reads only the input, even for far-away outputs") {
    const int W = 15, H = 11;
    Buffer<int32_t> input = random_image<int32_t>({W, H}, 6, -50, 50);
    input.set_min(3, -2);
    ImageParam in(Int(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(clamp(x, in.dim(0).min(), in.dim(0).max()), clamp(y * 2, in.dim(1).min(), in.dim(1).max()));
    Buffer<int32_t> out(40, 30);
    out.set_min(-17, -13);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        int i = std::min(std::max(c[0], 3), 3 + W - 1), j = std::min(std::max(c[1] * 2, -2), -2 + H - 1);
        return double(input(i, j));
    });
}

TEST_CASE("select inside an index") {
    Buffer<int32_t> input = random_image<int32_t>({60}, 7, -1000, 1000);
    input.set_min(-30);
    Var x("x");
    Func f("f"), g("g");
    // Reflect negative coordinates. Both branches stay inside [-30, 29] for x in [-29, 29].
    f(x) = input(select(x < 0, -x - 1, x));
    Buffer<int32_t> out(59);
    out.set_min(-29);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) { return double(input(c[0] < 0 ? -c[0] - 1 : c[0])); });
    // Through a compute_root producer as well.
    Func p("p");
    p(x) = input(x) + 1;
    p.compute_root();
    g(x) = p(select(x % 2 == 0, x / 2, 29 - x / 2));
    Buffer<int32_t> og = g.realize({60});
    check_all(og, [&](const std::vector<int> &c) {
        int i = c[0];
        return double(input(i % 2 == 0 ? i / 2 : 29 - i / 2) + 1);
    });
}

TEST_CASE("a producer with several consumers") {
    Buffer<float> input = random_image<float>({44, 35}, 8);
    for (int root = 0; root < 2; root++) {
        Var x("x"), y("y");
        Func p("p"), c1("c1"), c2("c2"), out("out");
        p(x, y) = input(x + 2, y + 2) * 0.5f + 1.0f;
        c1(x, y) = p(x - 1, y) + p(x + 1, y);
        c2(x, y) = p(x, y - 2) * 2.0f - p(x + 2, y + 2);
        out(x, y) = c1(x, y) * c2(x, y) + p(x, y);
        if (root) {
            p.compute_root();
            c1.compute_root();
        }
        Buffer<float> o(39, 31);
        o.set_min(1, 0);
        out.realize(o);
        auto pv = [&](int i, int j) { return input(i + 2, j + 2) * 0.5f + 1.0f; };
        INFO("root=" << root);
        check_all(o, [&](const std::vector<int> &c) {
            int i = c[0], j = c[1];
            float a = pv(i - 1, j) + pv(i + 1, j), b = pv(i, j - 2) * 2.0f - pv(i + 2, j + 2);
            return double(a * b + pv(i, j));
        }, 1e-5);
        if (root) {
            std::string stmt = out.lowered_stmt();
            CHECK(stmt.find("produce p") != std::string::npos);
            CHECK(stmt.find("consume p") != std::string::npos);
            CHECK(stmt.find("produce c1") != std::string::npos);
            CHECK(stmt.find("produce c2") == std::string::npos);
        }
    }
}

TEST_CASE("a chain of compute_root stages accumulates bounds") {
    Buffer<int32_t> input = random_image<int32_t>({64}, 9, 0, 100);
    input.set_min(-20);
    Var x("x");
    Func a("a"), b("b"), c("c"), d("d");
    a(x) = input(x) * 3;
    b(x) = a(x - 3) + a(x + 4);
    c(x) = b(2 * x) - b(x - 5);
    d(x) = c(x + 1) + c(x / 2);
    a.compute_root();
    b.compute_root();
    c.compute_root();
    Buffer<int32_t> out(17);
    out.set_min(-5);
    d.realize(out);
    auto av = [&](int i) { return input(i) * 3; };
    auto bv = [&](int i) { return av(i - 3) + av(i + 4); };
    auto cv = [&](int i) { return bv(2 * i) - bv(i - 5); };
    check_all(out, [&](const std::vector<int> &cc) { return double(cv(cc[0] + 1) + cv(floor_div(cc[0], 2))); });
}

TEST_CASE("Param<float> and Param<int> scalars") {
    Buffer<float> input = random_image<float>({50, 7}, 10);
    Param<float> scale("scale");
    Param<int> offset("offset");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = input(x + offset, y) * scale + cast<float>(offset);
    f.compile_jit();
    for (int off : {0, 3, 9}) {
        for (float sc : {1.0f, -2.5f}) {
            scale.set(sc);
            offset.set(off);
            Buffer<float> out = f.realize({40, 7});
            INFO("offset=" << off << " scale=" << sc);
            check_all(out, [&](const std::vector<int> &c) {
                return double(input(c[0] + off, c[1]) * sc + float(off));
            }, 1e-6);
        }
    }
    CHECK(scale.get() == -2.5f);
}

TEST_CASE("an ImageParam rebound to buffers of different sizes and mins") {
    ImageParam in(Int(16), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x) * 2 + in(x + 1);
    for (int k = 0; k < 3; k++) {
        int w = 20 + 7 * k, mn = -5 * k;
        Buffer<int16_t> input = random_image<int16_t>({w}, 11 + k, -100, 100);
        input.set_min(mn);
        in.set(input);
        Buffer<int16_t> out(w - 1);
        out.set_min(mn);
        f.realize(out);
        check_all(out, [&](const std::vector<int> &c) { return double(int16_t(input(c[0]) * 2 + input(c[0] + 1))); });
    }
}

TEST_CASE("input extent and min as Exprs") {
    Buffer<float> input = random_image<float>({13, 9}, 12);
    input.set_min(4, -3);
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func f("f");
    // Flip horizontally within the input's own bounds.
    f(x, y) = in(in.dim(0).min() + in.dim(0).extent() - 1 - (x - in.dim(0).min()), y) + cast<float>(in.width());
    Buffer<float> out(13, 9);
    out.set_min(4, -3);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) { return double(input(4 + 12 - (c[0] - 4), c[1]) + 13.0f); });
}

TEST_CASE("1-D, 2-D, 3-D and 4-D Funcs with non-zero mins") {
    Var x("x"), y("y"), z("z"), w("w");
    Func f1("f1"), f2("f2"), f3("f3"), f4("f4");
    f1(x) = x * 3 - 7;
    f2(x, y) = x + 100 * y;
    f3(x, y, z) = x + 100 * y + 10000 * z;
    f4(x, y, z, w) = x + 10 * y + 100 * z + 1000 * w;
    Buffer<int32_t> o1(19);
    o1.set_min(-9);
    f1.realize(o1);
    check_all(o1, [](const std::vector<int> &c) { return double(c[0] * 3 - 7); });
    Buffer<int32_t> o2(7, 5);
    o2.set_min(-3, 11);
    f2.realize(o2);
    check_all(o2, [](const std::vector<int> &c) { return double(c[0] + 100 * c[1]); });
    Buffer<int32_t> o3(5, 4, 3);
    o3.set_min(2, -2, -1);
    f3.realize(o3);
    check_all(o3, [](const std::vector<int> &c) { return double(c[0] + 100 * c[1] + 10000 * c[2]); });
    Buffer<int32_t> o4(3, 4, 5, 2);
    o4.set_min(-1, 0, -3, 7);
    f4.realize(o4);
    check_all(o4, [](const std::vector<int> &c) { return double(c[0] + 10 * c[1] + 100 * c[2] + 1000 * c[3]); });
    Buffer<> o4b = f4.realize({2, 3, 4, 5});
    CHECK(o4b.dimensions() == 4);
    CHECK(o4b.dim(3).extent() == 5);
    check_all(Buffer<int32_t>(o4b), [](const std::vector<int> &c) { return double(c[0] + 10 * c[1] + 100 * c[2] + 1000 * c[3]); });
}

TEST_CASE("3-D color pipeline reading a 3-D input with a channel offset") {
    Buffer<uint8_t> input = random_image<uint8_t>({21, 13, 3}, 13, 0, 255);
    Var x("x"), y("y"), c("c");
    Func gray("gray"), tint("tint");
    gray(x, y) = (cast<uint16_t>(input(x, y, 0)) * 77 + cast<uint16_t>(input(x, y, 1)) * 150 +
                  cast<uint16_t>(input(x, y, 2)) * 29) >> 8;
    gray.compute_root();
    tint(x, y, c) = cast<uint8_t>(min(gray(x, y) + input(x, y, 2 - c), 255));
    Buffer<uint8_t> out = tint.realize({21, 13, 3});
    check_all(out, [&](const std::vector<int> &cc) {
        int i = cc[0], j = cc[1], ch = cc[2];
        int g = uint16_t(input(i, j, 0) * 77 + input(i, j, 1) * 150 + input(i, j, 2) * 29) >> 8;
        return double(std::min(g + input(i, j, 2 - ch), 255));
    });
}

TEST_CASE("lowered_stmt shows produce/consume of a compute_root Func") {
    Var x("x"), y("y");
    Func prod("prod"), cons("cons");
    prod(x, y) = x * y;
    cons(x, y) = prod(x, y) + prod(x + 1, y);
    prod.compute_root();
    std::string stmt = cons.lowered_stmt();
    INFO(stmt);
    CHECK(stmt.find("produce prod {") != std::string::npos);
    CHECK(stmt.find("consume prod {") != std::string::npos);
    CHECK(stmt.find("produce cons {") != std::string::npos);
    CHECK(stmt.find("realize") != std::string::npos);
    CHECK(stmt.find("for (prod.s0.x") != std::string::npos);
    CHECK(stmt.find("for (cons.s0.y") != std::string::npos);
    CHECK(stmt.find("produce prod") < stmt.find("produce cons"));
}

TEST_CASE("wrapped user memory as input and output, including a cropped strided view") {
    std::vector<int32_t> mem(16 * 10);
    for (size_t i = 0; i < mem.size(); i++) mem[i] = int32_t(i * 7 % 101);
    Buffer<int32_t> whole(mem.data(), {16, 10});
    // A 5x4 crop starting at (3, 2), with coordinates starting at (-2, 40).
    std::vector<halo_dimension_t> dims = {{-2, 5, 1, 0}, {40, 4, 16, 0}};
    Buffer<int32_t> crop(mem.data() + 2 * 16 + 3, 2, dims.data());
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = crop(x, y) * 10 + crop(x + 1, y);
    Buffer<int32_t> out(4, 4);
    out.set_min(-2, 40);
    f.realize(out);
    check_all(out, [&](const std::vector<int> &c) {
        int i = c[0] + 2 + 3, j = c[1] - 40 + 2;
        return double(mem[j * 16 + i] * 10 + mem[j * 16 + i + 1]);
    });
    // Output into user memory.
    std::vector<float> omem(6 * 5, -1.0f);
    Buffer<float> wrapped(omem.data(), {6, 5});
    Func g("g");
    g(x, y) = cast<float>(whole(x, y)) + 0.5f;
    g.realize(wrapped);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 6; i++) CHECK(omem[j * 6 + i] == float(mem[j * 16 + i]) + 0.5f);
}

TEST_CASE("Func(Expr) and realizing the same Func twice at different sizes") {
    Var x("x"), y("y");
    Func f(x * 2 + y);
    Buffer<> a = f.realize({5, 3});
    Buffer<> b = f.realize({11, 7});
    check_all(Buffer<int32_t>(a), [](const std::vector<int> &c) { return double(c[0] * 2 + c[1]); });
    check_all(Buffer<int32_t>(b), [](const std::vector<int> &c) { return double(c[0] * 2 + c[1]); });
}

TEST_CASE("a stage used at two different offsets by a compute_root consumer and the output") {
    Buffer<float> input = random_image<float>({70}, 14);
    input.set_min(-35);
    Var x("x");
    Func a("a"), b("b"), out("out");
    a(x) = input(x) + 1.0f;
    b(x) = a(x - 10) * 2.0f;
    b.compute_root();
    out(x) = b(x + 5) + a(x + 20);
    a.compute_root();
    Buffer<float> o(30);
    o.set_min(-20);
    out.realize(o);
    check_all(o, [&](const std::vector<int> &c) {
        int i = c[0];
        return double((input(i + 5 - 10) + 1.0f) * 2.0f + input(i + 20) + 1.0f);
    }, 1e-6);
}

TEST_CASE("a producer read at a row chosen by a value of an image covers both choices") {
    // The row is select(in(0, 0) > 5, 3, -2): h's region spans both, and is computed before
    // in is read (and checked).
    Var x("x"), y("y");
    for (int v : {0, 9}) {
        CAPTURE(v);
        Buffer<int> in(4, 4);
        in.fill(v);
        Func h("h"), out("out");
        h(x, y) = x * 10 + y;
        out(x, y) = h(x, select(in(0, 0) > 5, 3, -2)) + y;
        h.compute_root();
        halo_test::check_against_reference(out, Buffer<int>(6, 3));
    }
}

TEST_CASE("an index divided by a float Param of zero is a bounds error, not a read far outside") {
    // in(int(x / p)): with p == 0, x / p is NaN at x == 0 (read as in(0)) and +inf, which the
    // int cast saturates to INT_MAX, at x > 0: a bounds error. (A quotient by zero is bounded
    // by the infinities, so the region needed is the whole int range. Bounds from the
    // quotients of its ends, 0 / 0 and 3 / 0, gave [NaN, inf] -> [INT_MAX, 0], an empty region
    // that every input passed, and the pipeline read in(INT_MAX).)
    ImageParam in(Int(32), 1, "in");
    Param<float> p("p");
    Var x("x");
    Func f("f"), g("g");
    f(x) = in(cast<int>(cast<float>(x) / p));
    Buffer<int> input(10);
    input.for_each_value([](const std::vector<int> &c) { return c[0] * 5; });
    in.set(input);
    p.set(0.0f);
    CHECK_THROWS_WITH_AS(f.realize({4}), doctest::Contains("input 'in' covers dimension 0 in [0, 9], but producing output 'f' needs [-2147483648, 2147483647]"),
                         RuntimeError);
    p.set(-0.0f);
    CHECK_THROWS_WITH_AS(f.realize({4}), doctest::Contains("needs [-2147483648, 2147483647]"), RuntimeError);
    // A non-zero divisor reads what it should.
    p.set(2.0f);
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == (i / 2) * 5);
    // A constant zero divisor: the same error.
    g(x) = in(cast<int>(cast<float>(x) / 0.0f));
    CHECK_THROWS_WITH_AS(g.realize({4}), doctest::Contains("'g' needs [-2147483648, 2147483647]"), RuntimeError);
}
