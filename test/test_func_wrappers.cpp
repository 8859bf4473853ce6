// Func::in (Halide's wrappers): an identity Func a consumer reads instead of the wrapped one,
// scheduled on its own. Every schedule must still compute what the algorithm says.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;


TEST_CASE("f.in(g): g reads a wrapper computed at its tiles, another consumer reads f") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::random_image<int>({70, 60}, 3, -99, 99);
    Func f("f"), g("g"), h("h"), out("out");
    f(x, y) = in(x, y) * 3 - in(x + 1, y + 2);
    g(x, y) = f(x - 1, y) + f(x + 1, y + 1);
    h(x, y) = f(x, y) * 2;
    out(x, y) = g(x, y) + h(x, y);
    f.compute_root();
    g.compute_root().tile(x, y, xo, yo, xi, yi, 8, 8);
    Func w = f.in(g);
    w.compute_at(g, xo).vectorize(x, 4);
    CHECK(w.name() == "f_in_g");
    std::string nest = out.loop_nest();
    CHECK(contains(nest, "produce f_in_g"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(31, 23, 2, 5));
}

TEST_CASE("asking for the same wrapper again returns it") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    g(x) = f(x) + 1;
    Func a = f.in(g), b = f.in(g);
    CHECK(a.function() == b.function());
    Func c = f.in(), d = f.in();
    CHECK(c.function() == d.function());
    CHECK(c.function() != a.function());
}

TEST_CASE("the global wrapper serves every consumer, a consumer's own wrapper comes first") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h"), out("out");
    f(x, y) = x * 7 + y;
    g(x, y) = f(x, y) + f(x + 1, y);
    h(x, y) = f(x, y - 1) * 2;
    out(x, y) = g(x, y) - h(x, y);
    g.compute_root();
    h.compute_root();
    f.in().compute_root();
    f.in(h).compute_at(h, y);
    std::string nest = out.loop_nest();
    CHECK(contains(nest, "produce f_global_wrapper"));
    CHECK(contains(nest, "produce f_in_h"));
    CHECK(!contains(nest, "produce f:"));  // f itself is inlined into its wrappers
    halo_test::check_against_reference(out, halo_test::int_buffer_at(17, 9, -3, -2));
}

TEST_CASE("one wrapper for several consumers, of a Func with an update") {
    Var x("x");
    RDom r(0, 4, "r");
    Func f("f"), g("g"), h("h"), out("out");
    f(x) = x;
    f(x) += r * x;
    g(x) = f(x) + 1;
    h(x) = f(x + 2) * 3;
    out(x) = g(x) + h(x);
    f.compute_root();
    g.compute_root();
    h.compute_root();
    Func w = f.in({g, h});
    w.compute_root().vectorize(x, 8);
    CHECK(f.in({g, h}).function() == w.function());
    Buffer<int> o(21);
    o.set_min(-6);
    halo_test::check_against_reference(out, o);
}

TEST_CASE("wrapping for itself is an error") {
    Var x("x");
    Func f("f");
    f(x) = x;
    std::string err = compile_error_of([&] { f.in(f); });
    CHECK(contains(err, "Func 'f': in(f) wraps a Func for its own use"));
    Func u("u");
    err = compile_error_of([&] { u.in(); });
    CHECK(contains(err, "before it has a definition"));
}

TEST_CASE("ImageParam::in(): a consumer reads a staged copy of the input, computed at its tiles") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    ImageParam im(Int(32), 2, "im");
    Buffer<int> in = halo_test::int_buffer_at(60, 50, -6, -4);
    halo_test::fill_random(in, -99, 99, 31);
    im.set(in);
    Func blur("blur"), other("other"), out("out");
    blur(x, y) = im(x - 1, y) + im(x, y) + im(x + 1, y + 1);
    other(x, y) = im(x, y) * 3;
    out(x, y) = blur(x, y) - other(x, y);
    out.tile(x, y, xo, yo, xi, yi, 8, 8);
    blur.compute_at(out, xo);
    Func staged = im.in(blur);
    CHECK(staged.name() == "im_in_blur");
    staged.compute_at(out, xo).vectorize(_0, 4);
    std::string nest = out.loop_nest();
    CHECK(contains(nest, "produce im_in_blur"));
    halo_test::check_against_reference(out, halo_test::int_buffer_at(41, 27, -5, -3));
    // Asking again gives the same wrapper; the global one is another.
    CHECK(im.in(blur).function() == staged.function());
    CHECK(im.in().function() != staged.function());
}

TEST_CASE("ImageParam::in() made after a compile recompiles the pipeline to read it") {
    Var x("x");
    ImageParam im(Float(32), 1, "im");
    Buffer<float> in = halo_test::random_image<float>({40}, 32, -1, 1);
    im.set(in);
    Func f("f");
    f(x) = im(x) * 2.0f + im(x + 1);
    f.realize({30});
    CHECK(!contains(f.lowered_stmt(), "im_global_wrapper"));
    im.in().compute_root();
    CHECK(contains(f.lowered_stmt(), "produce im_global_wrapper"));
    halo_test::check_against_reference(f, Buffer<float>(30));
}

TEST_CASE("a wrapper wrapped again for the same consumer: the consumer reads the last of the chain") {
    // f.in(g).in(g): g reads w2, w2 reads w1, w1 reads f (Halide's two_fold and multi_folds
    // wrapper tests; Halo refused it, saying g does not call w1).
    for (int global = 0; global < 2; global++) {
        Func f("f"), g("g");
        Var x("x");
        f(x) = x * 3;
        g(x) = f(x) + 1;
        Func w1 = global ? f.in() : f.in(g);
        Func w2 = w1.in(g);
        w1.compute_root();
        w2.compute_root().vectorize(x, 4);
        std::string stmt = g.lowered_stmt();
        INFO(stmt);
        CHECK(stmt.find("produce " + w1.name()) != std::string::npos);
        CHECK(stmt.find("produce " + w2.name()) != std::string::npos);
        Buffer<int> o = g.realize({10});
        for (int i = 0; i < 10; i++) CHECK(o(i) == i * 3 + 1);
    }
}

TEST_CASE("a wrapper serves the condition of select(c, v, undef()) and RDom predicates too") {
    // g holds an inline reduction (sum): read outside the wrapper, it was computed where the
    // consumer's loops did not expect it (a CompileError on a valid program, fuzz seed 10895).
    Var x("x");
    RDom r(0, 3, "r");
    Func g("g"), f("f");
    g(x) = sum(x + r);  // 3x + 3
    f(x) = select(g(x) > 9, g(x), undef<int>());
    g.in(f).compute_root();
    Buffer<int> out(8);
    out.set_min(-2);
    for (int i = -2; i < 6; i++) out(i) = -1;
    f.realize(out);
    for (int i = -2; i < 6; i++) {
        INFO("x = " << i);
        CHECK(out(i) == (3 * i + 3 > 9 ? 3 * i + 3 : -1));
    }

    Func h("h"), k("k");
    RDom s(0, 6, "s");
    h(x) = sum(x + r);
    k(x) = 0;
    s.where(h(s) > 6);
    k(s) += 1;
    h.in(k).compute_root();
    Buffer<int> counted = k.realize({6});
    for (int i = 0; i < 6; i++) CHECK(counted(i) == (3 * i + 3 > 6 ? 1 : 0));
}

TEST_CASE("the global wrapper of a Func whose updates read it: the updates still read the Func") {
    // f's own reads in its updates are not redirected to f.in() (as in Halide): they made a
    // cycle f -> f_global_wrapper -> f, refused as a CompileError.
    Var x("x");
    RDom r(1, 15, "r");
    {
        Func f("f"), g("g");
        f(x) = x;
        f(x) += 1;
        g(x) = f(x) * 2;
        f.compute_root();
        f.in().compute_root();
        Buffer<int> out(10);
        out.set_min({-3});
        halo_test::check_against_reference(g, out);
        CHECK(out(-3) == -4);
    }
    {
        Func scan("scan"), g("g");
        scan(x) = x;
        scan(r) = scan(r - 1) + scan(r);  // prefix sums
        g(x) = scan(x) + 1;
        scan.compute_root();
        Func w = scan.in();
        w.compute_at(g, x);
        Buffer<int> out(16);
        halo_test::check_against_reference(g, out);
        CHECK(out(15) == 15 * 16 / 2 + 1);
    }
    {
        Func hist("hist"), g("g");
        hist(x) = 0;
        hist(r % 3) += 1;
        g(x) = hist(x) * 10;
        hist.compute_root();
        hist.in().compute_root().vectorize(x, 4);
        Buffer<int> out(3);
        halo_test::check_against_reference(g, out);
        CHECK(out(0) == 50);
        CHECK(out(1) == 50);
        CHECK(out(2) == 50);
    }
}

TEST_CASE("in() of a list: its consumers share one wrapper already, or none has one, as in Halide") {
    Var x("x");
    auto make = [&](Func &f, Func &g, Func &h) {
        f(x) = x;
        g(x) = f(x) + 1;
        h(x) = f(x) * 2;
    };
    {
        Func f("f"), g("g"), h("h");
        make(f, g, h);
        Func w = f.in({g, h});
        std::string msg = compile_error_of([&] { f.in(h); });
        CHECK_MESSAGE(contains(msg, "Func 'f': in() of a list naming 'h' but not 'g', which shares its wrapper 'f_in_g_h'"), msg);
    }
    {
        Func f("f"), g("g"), h("h");
        make(f, g, h);
        f.in(h);
        std::string msg = compile_error_of([&] { f.in({g, h}); });
        CHECK_MESSAGE(contains(msg, "'h' already reads the wrapper 'f_in_h' while 'g' has none"), msg);
    }
    {
        Func f("f"), g("g"), h("h");
        make(f, g, h);
        f.in(g);
        f.in(h);
        std::string msg = compile_error_of([&] { f.in({g, h}); });
        CHECK_MESSAGE(contains(msg, "which already read different wrappers of it ('f_in_g' and 'f_in_h')"), msg);
    }
    {
        // A consumer listed without a wrapper of its own is left alone (as in Halide): h still
        // reads f, and the values are right.
        Func f("f"), g("g"), h("h"), out("out");
        make(f, g, h);
        out(x) = g(x) + h(x);
        Func w = f.in(g);
        CHECK(f.in({g, h}).function() == w.function());
        w.compute_root();
        halo_test::check_against_reference(out, Buffer<int>(10));
        CHECK(!contains(out.loop_nest(), "f_in_h"));
    }
}

namespace {

// A helper in the style of Halide's apps: it makes its input locally, schedules a wrapper of it
// and returns only the output Func.
Func blurred_input_with_staged_copy(const Buffer<int> &in, int tile) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    ImageParam im(Int(32), 2, "im");
    im.set(in);
    Func clamped = BoundaryConditions::repeat_edge(im);
    Func out("out");
    out(x, y) = clamped(x - 1, y) + clamped(x + 1, y + 1) * 2;
    out.tile(x, y, xo, yo, xi, yi, tile, tile);
    im.in().compute_at(out, xo);
    return out;
}

}  // namespace

TEST_CASE("ImageParam::in(): the wrapper's schedule applies after the ImageParam is destroyed") {
    Buffer<int> in = halo_test::int_buffer_at(30, 20, -3, 2);
    halo_test::fill_random(in, -99, 99, 33);
    Func out = blurred_input_with_staged_copy(in, 8);
    std::string nest = out.loop_nest();
    CHECK(contains(nest, "produce im_global_wrapper"));
    // Sizes the tiles do not divide, reading past the input's edges on every side.
    halo_test::check_against_reference(out, halo_test::int_buffer_at(37, 29, -6, -1));
}

TEST_CASE("ImageParam::in(): an update of the wrapper may read the image, and the wrapper still applies") {
    Var x("x");
    Buffer<int> in(24);
    for (int i = 0; i < 24; i++) in(i) = i * 3 - 20;
    Func f("f");
    {
        ImageParam im(Int(32), 1, "im");
        im.set(in);
        f(x) = im(x) + 1;
        Func w = im.in();
        w(_0) += im(_0 + 1);
        w.compute_root();
    }
    CHECK(contains(f.loop_nest(), "produce im_global_wrapper"));
    Buffer<int> out = f.realize({20});
    for (int i = 0; i < 20; i++) CHECK(out(i) == in(i) + in(i + 1) + 1);
}
