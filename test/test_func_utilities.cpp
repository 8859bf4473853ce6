// Halide's small conveniences around Funcs: lambda, evaluate, print_loop_nest, and realizing
// a Func of no dimensions.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

TEST_CASE("lambda defines a Func over the given Vars") {
    Var x("x"), y("y");
    Func f = lambda(x, y, x * 10 + y);
    Buffer<int> out = f.realize({4, 3});
    CHECK(out(3, 2) == 32);
    Func g = lambda(x, f(x, 1) * 2);
    CHECK(Buffer<int>(g.realize({3}))(2) == 42);
    Func c = lambda(Expr(7) * 6);
    CHECK(c.dimensions() == 0);
}

TEST_CASE("a Func of no dimensions realizes to a scalar buffer") {
    Func f("zero_dims");
    f() = cast<float>(3) / 4.0f;
    Buffer<float> out = f.realize(std::vector<int>{});
    CHECK(out.dimensions() == 0);
    CHECK(out() == 0.75f);
    halo_test::check_against_reference(f, Buffer<float>(std::vector<int>{}));
}

TEST_CASE("evaluate gives the value of an Expr without Vars") {
    Param<int> p("p", 5);
    CHECK(evaluate<int>(p * 3 + 1) == 16);
    CHECK(evaluate<float>(sqrt(Expr(16.0f))) == 4.0f);
    Buffer<uint8_t> b(10);
    b.fill(7);
    RDom r(0, 10);
    CHECK(evaluate<int>(sum(cast<int>(b(r)))) == 70);
    std::string msg = compile_error_of([&] { evaluate<float>(p + 1); });
    CHECK(contains(msg, "evaluate<float32>((p + 1)): the Expr has type int32; cast it, or evaluate it as that type"));
}

TEST_CASE("print_loop_nest shows where each Func is produced and its loops' kinds") {
    Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
    ImageParam in(Float(32), 2, "in");
    Func bx("bx"), by("by");
    bx(x, y) = in(x, y) + in(x + 1, y);
    by(x, y) = bx(x, y) + bx(x, y + 1);
    by.tile(x, y, xo, yo, xi, yi, 32, 8).vectorize(xi, 8).parallel(yo);
    bx.compute_at(by, xo);
    std::string nest = by.loop_nest();
    INFO(nest);
    CHECK(nest == "produce by:\n"
                  "  parallel by.s0.yo:\n"
                  "    for by.s0.xo:\n"
                  "      store bx:\n"
                  "        produce bx:\n"
                  "          for bx.s0.y:\n"
                  "            for bx.s0.x:\n"
                  "              bx(...) = ...\n"
                  "        for by.s0.yi:\n"
                  "          for by.s0.xi:\n"
                  "            vectorized by.s0.xi_vi:\n"
                  "              by(...) = ...\n");
    CHECK(!contains(nest, "assert"));
}

TEST_CASE("HALO_TIME_PASSES=1 prints the time of every lowering pass and LLVM step") {
    setenv("HALO_TIME_PASSES", "1", 1);
    std::FILE *capture = std::tmpfile();
    REQUIRE(capture);
    std::fflush(stderr);
    int saved = dup(2);
    dup2(fileno(capture), 2);
    Var x("x");
    Func f("timed");
    f(x) = x * 2;
    f.vectorize(x, 8);
    Buffer<int> out = f.realize({16});
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    unsetenv("HALO_TIME_PASSES");
    std::rewind(capture);
    std::string text;
    char chunk[4096];
    for (size_t n; (n = std::fread(chunk, 1, sizeof chunk, capture)) > 0;) text.append(chunk, n);
    std::fclose(capture);
    CHECK(out(15) == 30);
    for (const char *step : {"schedule_functions", "bounds_inference", "vectorize_loops", "llvm_codegen",
                             "llvm_optimize", "llvm_machine_code"}) {
        CAPTURE(step);
        CHECK(text.find(std::string(" ") + step) != std::string::npos);
    }
    CHECK(text.find("halo time: ") != std::string::npos);
}
