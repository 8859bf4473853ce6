// require() (Halide's): the value where the condition holds; a run-time error naming the
// condition, the message and the Func where it fails, in compiled code (scalar, vectorized,
// parallel) and in the reference evaluator alike.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

TEST_CASE("require passes the value through where the condition holds") {
    Var x("x");
    Param<int> p("p");
    Func f("f");
    f(x) = require(p > 0, x * p, "p must be positive, got", p);
    p.set(3);
    Buffer<int> out = f.realize({10});
    for (int k = 0; k < 10; k++) CHECK(out(k) == 3 * k);
}

TEST_CASE("a failed require is a run-time error with the condition, the message and the Func") {
    Var x("x");
    Param<int> p("p");
    Func f("f");
    f(x) = require(p > 0, x * p, "p must be positive, got", p);
    p.set(-2);
    std::string msg = runtime_error_of([&] { f.realize({10}); });
    CHECK(contains(msg, "Requirement Failed: (p > 0) p must be positive, got -2 (a require() in Func 'f')"));
    std::string ref = runtime_error_of([&] { reference_realize(f, {10}); });
    CHECK(contains(ref, "Requirement Failed: (p > 0) p must be positive, got -2 (a require() in Func 'f')"));
    // The pipeline still runs once the condition holds.
    p.set(1);
    Buffer<int> out = f.realize({10});
    CHECK(out(9) == 9);
}

TEST_CASE("a require that fails at some points only, vectorized and parallel, reports a failing point") {
    Var x("x"), y("y");
    ImageParam in(Int(32), 2, "in");
    Func f("f");
    f(x, y) = require(in(x, y) >= 0, in(x, y) * 2, "negative input", in(x, y), "at", x, y);
    f.vectorize(x, 8).parallel(y);
    Buffer<int> b(32, 16);
    b.fill(5);
    in.set(b);
    Buffer<int> out = f.realize({32, 16});
    CHECK(out(31, 15) == 10);
    b(13, 9) = -7;
    std::string msg = runtime_error_of([&] { f.realize({32, 16}); });
    CHECK(contains(msg, "Requirement Failed: (in(x, y) >= 0) negative input -7 at 13 9 (a require() in Func 'f')"));
    std::string ref = runtime_error_of([&] { reference_realize(f, {32, 16}); });
    CHECK(contains(ref, "negative input -7 at 13 9"));
}

TEST_CASE("a require inside an intermediate Func computed at a tile stops the pipeline and frees its memory") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Param<float> scale("scale");
    Func g("g"), h("h");
    g(x, y) = require(scale != 0.0f, cast<float>(x + y) / scale, "scale is zero");
    h(x, y) = g(x, y) + g(x + 1, y);
    h.tile(x, y, xo, yo, xi, yi, 16, 8);
    g.compute_at(h, xo);
    scale.set(0.0f);
    std::string msg = runtime_error_of([&] { h.realize({64, 32}); });
    CHECK(contains(msg, "Requirement Failed: (scale != 0f) scale is zero (a require() in Func 'g')"));
    scale.set(2.0f);
    Buffer<float> out = h.realize({64, 32});
    CHECK(out(3, 4) == (7.0f + 8.0f) / 2.0f);
}

TEST_CASE("a require whose condition is true at compile time costs nothing") {
    Var x("x");
    Func f("f");
    f(x) = require(Expr(true), x + 1);
    CHECK(!contains(f.llvm_ir(), "halo_error_requirement_failed"));
    Buffer<int> out = f.realize({4});
    CHECK(out(3) == 4);
}

TEST_CASE("require errors at definition name what is wrong") {
    Var x("x");
    std::string msg = compile_error_of([&] { require(x, x); });
    CHECK(contains(msg, "require(x, ...): the condition must be a boolean Expr"));
    msg = compile_error_of([&] { require(x > 0, std::vector<Expr>{}); });
    CHECK(contains(msg, "needs a value"));
}
