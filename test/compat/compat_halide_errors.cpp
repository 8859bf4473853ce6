// User mistakes that Halide 14 refuses (its test/error/*.cpp programs, ported by behaviour with a
// namespace change): each must be refused by Halo with a CompileError (or, for what only the
// run can know, a RuntimeError) whose message names the Func / Var / buffer / directive
// involved. Where Halo legitimately accepts a program Halide refuses, the case says so and
// checks the result against plain C++ instead. SHOW_MESSAGES=1 prints every message checked.
// Not ported (Halo has no such API): output_buffers(), memoize, compute_with, hoist_storage.
// (Func(Type, dims) and bound_storage: compat_typed_func.cpp and compat_bound_storage.cpp.)
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "../TestUtil.h"
#include "CompatErrors.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

using halo_compat_errors::any_error_of;
using halo_compat_errors::check_message;

// ================================================================ definitions and calls

TEST_CASE("too_many_args: calling a 1-D Func with two arguments") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        g(x) = f(x, x);
        g.realize({10});
    });
    check_message(msg, {"'f'", "argument"});
}

TEST_CASE("missing args: calling a 2-D Func with one argument") {
    Func f("f2d"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    std::string msg = compile_error_of([&] {
        g(x) = f(x);
        g.realize({10});
    });
    check_message(msg, {"'f2d'", "argument"});
}

TEST_CASE("bad_dimensions: a 2-D ImageParam called with one argument") {
    ImageParam im(UInt(8), 2, "im");
    Func f("f");
    Var x("x");
    std::string msg = compile_error_of([&] {
        f(x) = im(x);
        Buffer<uint8_t> b(10, 10);
        im.set(b);
        f.realize({10});
    });
    check_message(msg, {"im"});
}

TEST_CASE("a 2-D Buffer called with three arguments") {
    Buffer<int> b(std::vector<int>{5, 5}, "small_buf");
    Func f("f");
    Var x("x"), y("y"), z("z");
    std::string msg = compile_error_of([&] {
        f(x, y, z) = b(x, y, z);
        f.realize({5, 5, 2});
    });
    check_message(msg, {"small_buf"});
}

TEST_CASE("float_arg: a float coordinate into a Func") {
    Func f("f"), g("g");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        g(x) = f(x * 1.5f);
        g.realize({4});
    });
    check_message(msg, {"'f'", "integer"});
}

TEST_CASE("func_expr_update_type_mismatch: an int Func updated with a float") {
    Func f("f");
    Var x("x");
    f(x) = 0;
    std::string msg = compile_error_of([&] { f(x) = cast<float>(x); });
    check_message(msg, {"'f'", "type"});
}

TEST_CASE("reduction_type_mismatch: a float Func updated with a double") {
    Func f("facc");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = 0.0f;
    std::string msg = compile_error_of([&] { f(x) = f(x) + cast<double>(r); });
    check_message(msg, {"'facc'", "type"});
}

TEST_CASE("func_tuple_types_mismatch: an update of a Tuple changes the type of a value") {
    Func f("ft");
    Var x("x");
    f(x) = Tuple(x, 0.5f);
    std::string msg = compile_error_of([&] { f(x) = Tuple(f(x)[0], f(x)[0]); });
    check_message(msg, {"'ft'", "type"});
}

TEST_CASE("func_tuple_dim_mismatch: an update of a 2-Tuple gives three values") {
    Func f("ft3");
    Var x("x");
    f(x) = Tuple(x, x + 1);
    std::string msg = compile_error_of([&] { f(x) = Tuple(f(x)[0], f(x)[1], x); });
    check_message(msg, {"'ft3'"});
}

TEST_CASE("a Tuple Func updated with a single value") {
    Func f("ft1");
    Var x("x");
    f(x) = Tuple(x, x + 1);
    std::string msg = compile_error_of([&] { f(x) = f(x)[0] + 1; });
    check_message(msg, {"'ft1'"});
}

TEST_CASE("a Func defined again with a different number of arguments") {
    Func f("fdim");
    Var x("x"), y("y");
    f(x) = x;
    std::string msg = compile_error_of([&] { f(x, y) = x + y; });
    check_message(msg, {"'fdim'", "argument"});
}

TEST_CASE("a pure definition given again is an update, as in Halide (accepted)") {
    // Halide accepts f(x) = x; f(x) = x * 3: the second is an update definition.
    Func f("f");
    Var x("x");
    f(x) = x;
    f(x) = f(x) * 3 + 1;
    Buffer<int> out = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(out(i) == i * 3 + 1);
}

TEST_CASE("init_def_should_be_all_vars: a first definition at x + 1") {
    Func f("fpure");
    Var x("x");
    std::string msg = compile_error_of([&] { f(x + 1) = x; });
    check_message(msg, {"'fpure'"});
}

TEST_CASE("reused_args: a pure definition with the same Var twice") {
    Func f("fxx");
    Var x("x");
    std::string msg = compile_error_of([&] { f(x, x) = x; });
    check_message(msg, {"'fxx'", "x"});
}

TEST_CASE("an update using a pure Var that is not on its left side") {
    Func f("fu");
    Var x("x"), y("y");
    f(x, y) = 0;
    std::string msg = compile_error_of([&] { f(x, 0) = y; });
    check_message(msg, {"'fu'", "'y'"});
}

TEST_CASE("undefined_func_realize: realizing a Func with no definition") {
    Func f("nothing");
    std::string msg = compile_error_of([&] { f.realize({10}); });
    check_message(msg, {"'nothing'", "no definition"});
}

TEST_CASE("undefined_func_compile: compile_jit of a Func with no definition") {
    Func f("nothing2");
    std::string msg = compile_error_of([&] { f.compile_jit(); });
    check_message(msg, {"'nothing2'", "no definition"});
}

// Pipeline::realize of a Func with no definition says so, as Func::realize does.
TEST_CASE("undefined_pipeline_realize: a Pipeline of a Func with no definition") {
    Func f("nothing3");
    std::string msg = compile_error_of([&] {
        Pipeline p(f);
        p.realize({10});
    });
    check_message(msg, {"'nothing3'", "no definition"});
}

TEST_CASE("calling a Func that has no definition") {
    Func f("undefined_callee"), g("caller");
    Var x("x");
    std::string msg = compile_error_of([&] {
        g(x) = f(x) + 1;
        g.realize({10});
    });
    check_message(msg, {"'undefined_callee'"});
}

TEST_CASE("define_after_use: an update added to f after g used it (accepted)") {
    // Halide refuses this. Halo accepts it: Funcs are handles, and g sees the whole of f at the
    // time g is compiled, updates included.
    Func f("fdu"), g("gdu");
    Var x("x");
    f(x) = x;
    g(x) = f(x) + 1;
    f(x) += 1;
    Buffer<int> out = g.realize({10});
    for (int i = 0; i < 10; i++) CHECK(out(i) == i + 2);
}

TEST_CASE("define_after_realize: an update added after a realize (accepted: recompiles)") {
    // Halide refuses this; Halo recompiles the Func and the update takes effect.
    Func f("fdr");
    Var x("x");
    f(x) = x;
    Buffer<int> a = f.realize({10});
    f(x) += 5;
    Buffer<int> b = f.realize({10});
    for (int i = 0; i < 10; i++) {
        CHECK(a(i) == i);
        CHECK(b(i) == i + 5);
    }
}

TEST_CASE("overflow_during_constant_folding: int32 overflow in a definition") {
    Func f("fover");
    Var x("x");
    std::string msg = compile_error_of([&] {
        f(x) = Expr(std::numeric_limits<int32_t>::max()) + 1 + x;
        f.realize({4});
    });
    check_message(msg, {"'fover'", "overflow"});
}

TEST_CASE("bad_const_cast: a uint8 modulo 256") {
    Func f("f");
    Var x("x");
    std::string msg = compile_error_of([&] { f(x) = cast<uint8_t>(x) % 256; });
    check_message(msg, {"256", "uint8"});
}

TEST_CASE("clamp_out_of_range: clamp of an int8 to [0, 255]") {
    // Halide refuses the bound 255, which int8 cannot represent.
    Func f("fclamp");
    Var x("x");
    std::string msg = compile_error_of([&] {
        f(x) = clamp(cast<int8_t>(x), 0, 255);
        f.realize({42});
    });
    check_message(msg, {"clamp", "255", "int8"});
}

TEST_CASE("lerp_mismatch: lerp of a uint16 and a uint8") {
    Func f("flerp");
    std::string msg = compile_error_of([&] { f() = lerp(cast<uint16_t>(0), cast<uint8_t>(42), 0.5f); });
    check_message(msg, {"lerp", "uint16", "uint8"});
}

TEST_CASE("lerp_signed_weight: lerp with an int8 weight") {
    Func f("fsw");
    Var x("x");
    std::string msg = compile_error_of([&] {
        f(x) = lerp(cast<uint8_t>(0), cast<uint8_t>(200), cast<int8_t>(x));
        f.realize({4});
    });
    check_message(msg, {"lerp", "weight"});
}

// A constant float weight outside [0, 1] for an integer lerp is refused, as in Halide.
TEST_CASE("lerp_float_weight_out_of_range: a constant weight of 1.5") {
    Func f("fwr");
    Var x("x");
    std::string msg = compile_error_of([&] {
        f(x) = lerp(cast<uint8_t>(x), cast<uint8_t>(200), 1.5f);
        f.realize({4});
    });
    check_message(msg, {"lerp", "weight"});
}

// ================================================================ RDoms

TEST_CASE("rdom_undefined: an update over an RDom that was never given a domain") {
    Func f("frd");
    Var x("x");
    RDom r;
    std::string msg = compile_error_of([&] {
        f(x) = 0;
        f(r) += 1;
        f.realize({10});
    });
    check_message(msg, {"RDom", "0 dimensions"});
}

// r.x of an RDom never given a domain: the error says the RDom has no dimensions.
TEST_CASE("rdom_undefined: r.x of an RDom that was never given a domain") {
    Func f("frdx");
    Var x("x");
    RDom r;
    std::string msg = compile_error_of([&] {
        f(x) = 0;
        f(x) += r.x;
        f.realize({10});
    });
    check_message(msg, {"RDom", ".x", "no dimensions"});
}

// r.y of a 1-D RDom: the error names the RDom and its dimensions.
TEST_CASE("undefined_rdom_dimension: r.y of a 1-D RDom") {
    Func f("fry");
    Var x("x");
    RDom r(0, 10, "r");
    std::string msg = compile_error_of([&] {
        f(x) = 0;
        f(r.x) += r.y;
        f.realize({10});
    });
    check_message(msg, {"'r'", "r.y", "dimension"});
}

TEST_CASE("an RDom with a float extent") {
    std::string msg = compile_error_of([&] { RDom r(0, 10.5f, "rf"); });
    check_message(msg, {"'rf'", "integer"});
}

TEST_CASE("an RDom with an undefined extent") {
    std::string msg = compile_error_of([&] { RDom r(0, Expr(), "ru"); });
    check_message(msg, {"'ru'", "undefined"});
}

// An RDom bound that uses a pure Var is refused where the RDom is made (Halide refuses it too).
TEST_CASE("an RDom whose extent depends on a pure Var") {
    Func f("fvar_extent");
    Var x("x");
    std::string msg = compile_error_of([&] {
        RDom r(0, x, "rx");
        f(x) = 0;
        f(x) += r;
        f.realize({4});
    });
    check_message(msg, {"'x'"});
}

TEST_CASE("an update using RVars of two different RDoms") {
    Func f("f2rd");
    Var x("x");
    RDom r1(0, 5, "r1"), r2(0, 3, "r2");
    f(x) = 0;
    std::string msg = compile_error_of([&] { f(r1) += r2; });
    check_message(msg, {"'f2rd'", "RDom"});
}

TEST_CASE("an inline reduction with no RDom in it") {
    Var x("x");
    std::string msg = compile_error_of([&] { Expr e = sum(x + 1); });
    check_message(msg, {"sum", "RVar"});
}

TEST_CASE("an RVar in a pure definition") {
    Func f("fpr");
    Var x("x");
    RDom r(0, 10, "r");
    std::string msg = compile_error_of([&] { f(x) = x + r; });
    check_message(msg, {"'fpr'", "RVar"});
}

TEST_CASE("expanding_reduction: an update reading ever further along a pure dimension") {
    // f(r, y) reads rows y - 1 and y + 1 of f itself: Halide refuses it.
    // Halo refuses it as soon as the update is defined: an update may read its own Func only
    // with its pure Vars unchanged.
    ImageParam input(Int(32), 2, "input");
    Func f("fexp"), g("gexp");
    Var x("x"), y("y");
    RDom r(0, 100, "r");
    std::string msg = compile_error_of([&] {
        f(x, y) = input(x, y);
        f(r, y) = f(r, y - 1) + f(r, y + 1);
        f.compute_root();
        g(x, y) = f(x, y);
        g.infer_input_bounds({100, 100});
    });
    check_message(msg, {"'fexp'", "pure Var 'y'"});
}

TEST_CASE("reduction_bounds: a use of f at an unbounded coordinate inside a reduction") {
    // Halo refuses the program earlier than Halide, at the update: it reads g at x - 1 where its
    // left side has the pure Var x.
    Func f("fb"), g("gb");
    Var x("x");
    RDom r(0, 100, "r");
    std::string msg = compile_error_of([&] {
        f(x) = x;
        g(x) = 0;
        g(x) = f(g(x - 1)) + r;
        f.compute_at(g, r.x);
        g.realize({100});
    });
    check_message(msg, {"'gb'", "pure Var 'x'"});
}

// ================================================================ realize

TEST_CASE("wrong_type: realizing an int Func into a float Buffer") {
    Func f("fint");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] { Buffer<float> out = f.realize({10}); });
    check_message(msg, {"int32", "float32"});
}

TEST_CASE("realizing into a Buffer of the wrong type or dimensions") {
    Func f("frb");
    Var x("x"), y("y");
    f(x, y) = x;
    Buffer<float> bf(4, 4);
    check_message(compile_error_of([&] { f.realize(bf); }), {"'frb'", "int32", "float32"});
    Buffer<int> b1(4);
    check_message(compile_error_of([&] { f.realize(b1); }), {"'frb'", "2 dimensions"});
}

TEST_CASE("realizing a negative size") {
    Func f("fneg");
    Var x("x");
    f(x) = x;
    check_message(compile_error_of([&] { f.realize({-5}); }), {"'fneg'", "negative"});
}

TEST_CASE("store_at a Func that does not use the producer") {
    Func f("fso"), g("gso"), other("oso");
    Var x("x");
    f(x) = x;
    g(x) = f(x) + 1;
    other(x) = x;
    std::string msg = compile_error_of([&] {
        f.compute_at(g, x).store_at(other, x);
        g.realize({4});
    });
    check_message(msg, {"'fso'", "store_at(oso, x)"});
}

TEST_CASE("unrolling a loop whose extent is a Param") {
    Func f("fud");
    Var x("x"), xo("xo"), xi("xi");
    Param<int> p("p");
    f(x) = x * 3;
    std::string msg = compile_error_of([&] {
        f.split(x, xo, xi, p).unroll(xi);
        p.set(4);
        f.realize({16});
    });
    check_message(msg, {"unroll", "fud", "xi", "constant"});
}

TEST_CASE("set_estimates with a non-constant extent") {
    Func f("fep");
    Var x("x");
    Param<int> p("p");
    f(x) = x;
    check_message(compile_error_of([&] { f.set_estimates({{0, p}}); }), {"'fep'", "constant"});
}

TEST_CASE("realizing a 2-D Func over one dimension") {
    Func f("f2"), g("g"), h("h2d");
    Var x("x"), y("y");
    h(x, y) = x + y;
    std::string msg = compile_error_of([&] { h.realize({10}); });
    check_message(msg, {"'h2d'", "dimension"});
}

TEST_CASE("tuple_realization_to_buffer: a Tuple Func's Realization as one Buffer") {
    Func f("ftb");
    Var x("x");
    f(x) = Tuple(x, x * 2);
    std::string msg = compile_error_of([&] { Buffer<int> b = f.realize({10}); });
    check_message(msg, {"2 buffers"});
}

TEST_CASE("realization_with_too_many_outputs: three buffers for a 2-Tuple") {
    Func f("ftm");
    Var x("x");
    f(x) = Tuple(x, x * 2);
    Buffer<int> a(10), b(10), c(10);
    std::string msg = compile_error_of([&] { f.realize(Realization(a, b, c)); });
    check_message(msg, {"'ftm'"});
}

TEST_CASE("a Tuple realized into buffers of different sizes") {
    Func f("fts");
    Var x("x");
    f(x) = Tuple(x, x * 2);
    Buffer<int> a(10), b(8);
    std::string msg = runtime_error_of([&] { f.realize(Realization(a, b)); });
    check_message(msg, {"'fts'", "same region"});
}

TEST_CASE("a Tuple value realized into a buffer of the wrong type") {
    Func f("ftt");
    Var x("x");
    f(x) = Tuple(x, cast<float>(x));
    Buffer<int> a(10), b(10);
    std::string msg = compile_error_of([&] { f.realize(Realization(a, b)); });
    check_message(msg, {"'ftt'", "type"});
}

TEST_CASE("tuple_output_bounds_check: an update of the output reads it out of bounds") {
    Func h("hout");
    Var x("x"), xo("xo"), xi("xi");
    const int size = 1024;
    RDom r(0, size, "r");
    h(x) = Tuple(0, 0);
    h(r) = Tuple(h(r - 100)[0], 0);
    h.split(x, xo, xi, 16, TailStrategy::RoundUp);
    Buffer<int> r0(size), r1(size);
    std::string msg = runtime_error_of([&] { h.realize(Realization(r0, r1)); });
    check_message(msg, {"'hout'", "[-100,"});
}

TEST_CASE("an update of the output reads beyond the output buffer") {
    Func f("fread");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = x;
    f(r) = f(r + 5) * 2;
    Buffer<int> ten(10);  // (realize({10}) computes [0, 14] and returns a crop, as Halide)
    std::string msg = runtime_error_of([&] { f.realize(ten); });
    check_message(msg, {"'fread'", "[0, 14]", "update"});
}

TEST_CASE("an update of the output writes beyond the output buffer") {
    Func f("fwrite");
    Var x("x");
    RDom r(0, 20, "r");
    f(x) = 0;
    f(r) = r * 3;
    Buffer<int> ten(10);  // (realize({10}) computes [0, 19] and returns a crop, as Halide)
    std::string msg = runtime_error_of([&] { f.realize(ten); });
    check_message(msg, {"'fwrite'", "[0, 19]", "update"});
}

TEST_CASE("unbounded_output: an update writing at coordinates read from images") {
    ImageParam in(Float(32), 2, "in");
    ImageParam x_coord(Int(32), 2, "x_coord"), y_coord(Int(32), 2, "y_coord");
    Func f("scatter");
    Var x("x"), y("y");
    RDom r(0, 10, 0, 10, "r");
    f(x, y) = 0.0f;
    f(x_coord(r.x, r.y), y_coord(r.x, r.y)) += in(r.x, r.y);
    Buffer<float> vin(10, 10);
    Buffer<int> xc(10, 10), yc(10, 10);
    vin.fill(1.0f);
    xc.fill(3);
    yc.fill(2);
    xc(9, 9) = 50;  // outside the 8x8 output
    in.set(vin);
    x_coord.set(xc);
    y_coord.set(yc);
    std::string msg = compile_error_of([&] { f.realize({8, 8}); });
    check_message(msg, {"'scatter'", "cannot bound", "bound("});
}

TEST_CASE("unbounded_input: an image read at coordinates read from another image") {
    ImageParam in(Float(32), 1, "in_data"), idx(Int(32), 1, "in_index");
    Func f("gather");
    Var x("x");
    f(x) = in(idx(x));
    Buffer<float> vin(10);
    Buffer<int> vidx(10);
    vin.fill(1.0f);
    vidx.fill(2);
    vidx(7) = 1000;  // far outside in_data
    in.set(vin);
    idx.set(vidx);
    std::string msg = compile_error_of([&] { f.realize({10}); });
    check_message(msg, {"'in_data'", "cannot bound", "clamp"});
}

// ================================================================ schedules: splits, reorders

// A loop directive on an inlined Func is refused, as in Halide.
TEST_CASE("bad_schedule: vectorizing a Func that is inlined") {
    Func f("finl"), g("g");
    Var x("x");
    f(x) = x;
    g(x) = f(x);
    f.vectorize(x, 4);
    std::string msg = compile_error_of([&] { g.realize({10}); });
    check_message(msg, {"'finl'", "inline"});
}

// A split naming an inner loop that already exists is refused (Halide refuses it too).
TEST_CASE("reuse_var_in_schedule: a split naming an inner loop that already exists") {
    Func f("fre");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.split(x, xo, xi, 4).split(xo, xo, xi, 4);
        f.realize({37});
    });
    check_message(msg, {"'fre'", "xi"});
}

TEST_CASE("split_same_var_names: a split whose outer and inner loops have one name") {
    Func f("fsame");
    Var x("x"), y("y"), xi("xi");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.split(x, xi, xi, 4); });
    check_message(msg, {"'fsame'", "split(x)", "different names"});
}

TEST_CASE("splitting a Var into a name the Func already uses") {
    Func f("fsplity");
    Var x("x"), y("y"), xi("xi");
    f(x, y) = x + y;
    std::string msg = compile_error_of([&] { f.split(x, y, xi, 4); });
    check_message(msg, {"'fsplity'", "y"});
}

TEST_CASE("splitting a var twice") {
    Func f("ftwice");
    Var x("x"), xo("xo"), xi("xi"), xo2("xo2"), xi2("xi2");
    f(x) = x;
    f.split(x, xo, xi, 4);
    std::string msg = compile_error_of([&] { f.split(x, xo2, xi2, 2); });
    check_message(msg, {"'ftwice'", "x"});
}

TEST_CASE("bad_reorder: reorder naming one loop twice") {
    Func f("freo");
    Var x("x"), y("y"), xi("xi");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.split(x, x, xi, 8).reorder(x, y, x); });
    check_message(msg, {"'freo'", "x"});
}

TEST_CASE("reorder of a Var the Func does not have") {
    Func f("fnoz");
    Var x("x"), y("y"), z("zz");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.reorder(z, x); });
    check_message(msg, {"'fnoz'", "zz"});
}

TEST_CASE("bad_reorder_storage: reorder_storage naming one dimension twice") {
    Func f("frs"), g("g");
    Var x("x"), y("y");
    f(x, y) = x;
    std::string msg = compile_error_of([&] {
        f.reorder_storage(x, x);
        f.compute_root();
        g(x, y) = f(x, y);
        g.realize({4, 4});
    });
    check_message(msg, {"'frs'", "x"});
}

TEST_CASE("reorder_storage of a Var the Func does not have") {
    Func f("frs2"), g("g");
    Var x("x"), y("y"), c("cc");
    f(x, y) = x;
    std::string msg = compile_error_of([&] {
        f.reorder_storage(c, x);
        f.compute_root();
        g(x, y) = f(x, y);
        g.realize({4, 4});
    });
    check_message(msg, {"'frs2'", "cc"});
}

// Fusing a loop with itself: the error says so (no reorder could help).
TEST_CASE("fuse of a loop with itself") {
    Func f("ffuse");
    Var x("x"), y("y"), xy("xy");
    f(x, y) = x;
    std::string msg = compile_error_of([&] { f.fuse(x, x, xy); });
    check_message(msg, {"'ffuse'", "fuse(x, x, xy)", "itself"});
}

TEST_CASE("vector_tile: tile with lists of different lengths") {
    Func f("ftile");
    Var i("i"), j("j"), io("io"), jo("jo"), ii("ii"), ji("ji");
    f(i, j) = i * j;
    std::string msg = compile_error_of([&] { f.tile({i, j}, {io, jo}, {ii, ji}, {8}); });
    check_message(msg, {"'ftile'", "tile"});
}

TEST_CASE("vectorize_dynamic: vectorizing a loop whose extent is a Param (accepted)") {
    // Halide refuses to vectorize a loop of non-constant extent; Halo accepts it. The result
    // must be right for any value of the Param and any size.
    Buffer<int> input(37, 5);
    input.for_each_element([&](int x, int y) { input(x, y) = x * 7 - y * 3; });
    Func f("fdyn");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Param<int> vector_size("vector_size");
    f(x, y) = input(x, y) * 2;
    f.split(x, xo, xi, vector_size).vectorize(xi);
    for (int vs : {1, 3, 4, 8}) {
        for (int w : {5, 37}) {
            vector_size.set(vs);
            INFO("vector_size " << vs << ", width " << w);
            std::string msg = any_error_of([&] {
                Buffer<int> out = f.realize({w, 5});
                int bad = 0;
                out.for_each_element([&](int x, int y) { bad += out(x, y) != 2 * (x * 7 - y * 3); });
                CHECK(bad == 0);
            });
            // A size the split cannot cover is a run-time error naming the Func.
            if (!msg.empty()) check_message(msg, {"runtime: ", "fdyn"});
        }
    }
}

TEST_CASE("vectorize_too_little: vectorize by 0") {
    Func f("fv0");
    Var x("x"), y("y");
    f(x, y) = x * 2;
    std::string msg = compile_error_of([&] {
        f.vectorize(x, 0);
        f.realize({5, 5});
    });
    check_message(msg, {"'fv0'", "vectorize"});
}

TEST_CASE("vectorize_too_much: vectorizing x and y by 8 over a 5x5 output") {
    // Halide: the ShiftInwards splits need at least 8 in each dimension, so a 5x5 output is an
    // error when the pipeline runs.
    Buffer<int> input(5, 5);
    Func f("fvm");
    Var x("x"), y("y");
    f(x, y) = input(x, y) * 2;
    f.vectorize(x, 8).vectorize(y, 8);
    std::string msg = runtime_error_of([&] { f.realize({5, 5}); });
    check_message(msg, {"'fvm'"});
}

TEST_CASE("vectorizing wider than 1024 lanes") {
    Func f("fwide");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.vectorize(x, 4096);
        f.realize({8192});
    });
    check_message(msg, {"'fwide'", "1024"});
}

TEST_CASE("unrolling more than 16384 copies") {
    Func f("funr");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.unroll(x, 20000);
        f.realize({20000});
    });
    check_message(msg, {"'funr'", "16384"});
}

TEST_CASE("parallel with a task size of 0") {
    Func f("fpar0");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.parallel(x, 0);
        f.realize({10});
    });
    check_message(msg, {"'fpar0'"});
}

TEST_CASE("nonexistent_update_stage: update(1) of a Func with one update") {
    Func f("fst");
    Var x("x");
    f(x) = x;
    f(x) += 1;
    std::string msg = compile_error_of([&] { f.update(1); });
    check_message(msg, {"'fst'", "update"});
}

TEST_CASE("scheduling a pure Var that an update does not have") {
    Func f("fnox");
    Var x("x");
    RDom r(0, 10, "r");
    f(x) = x;
    f(r) += 1;  // no pure Var in this update
    std::string msg = compile_error_of([&] { f.update().vectorize(x, 4); });
    check_message(msg, {"'fnox'", "x"});
}

// ================================================================ schedules: RVars

TEST_CASE("vectorizing the RVar of a scan") {
    Func f("scan");
    Var x("x");
    RDom r(1, 99, "r");
    f(x) = x;
    f(r) = f(r - 1) + f(r);
    std::string msg = compile_error_of([&] { f.update().vectorize(r.x, 4); });
    check_message(msg, {"'scan'", "r.x"});
}

TEST_CASE("parallel over the RVar of a histogram") {
    Buffer<int> in(std::vector<int>{100}, "values");
    in.fill(3);
    Func h("hist");
    Var x("x");
    RDom r(0, 100, "r");
    h(x) = 0;
    h(clamp(in(r), 0, 9)) += 1;
    std::string msg = compile_error_of([&] { h.update().parallel(r.x); });
    check_message(msg, {"'hist'", "parallel(r.x)", "rfactor"});
}

TEST_CASE("race_condition: parallel over an RVar of a transpose-accumulate") {
    Func f("frace");
    Var x("x"), y("y");
    RDom r(0, 10, 0, 10, "r");
    f(x, y) = 0;
    f(r.x, r.y) += f(r.y, r.x);
    std::string msg = compile_error_of([&] { f.update().parallel(r.y); });
    check_message(msg, {"'frace'", "r.y"});
}

TEST_CASE("rdom_where_races: parallel over an RVar whose predicate reads the Func") {
    // The predicate reads f(0), which the iterations write: they cannot run in parallel.
    Func f("fwh");
    Var x("x");
    RDom r(0, 10, "r");
    std::string msg = compile_error_of([&] {
        f(x) = 1;
        r.where(f(0) == 1);
        f(r) = 2;
        f.update().parallel(r);
        f.realize({10});
    });
    check_message(msg, {"Func 'fwh' update 0: parallel(r.x) over an RVar", "may touch the same points of fwh"});
}

TEST_CASE("bad_rvar_order: reordering the RVars of a non-associative update") {
    Func f("fro");
    Var x("x"), y("y");
    RDom r(1, 9, 1, 9, "r");
    f(x, y) = x + y;
    f(r.x, r.y) = f(r.x - 1, r.y) * 2 + f(r.x, r.y - 1);
    std::string msg = compile_error_of([&] { f.update().reorder(r.y, r.x); });
    check_message(msg, {"'fro'", "RVar"});
}

TEST_CASE("treat_rvar_as_var: splitting an RVar disguised as a Var") {
    Func f("fdisg");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    RDom r(0, 10, "r");
    f(x, y) = 0;
    f(x, y) += r;
    std::string msg = compile_error_of([&] {
        f.update().split(Var(r.x.name()), xo, xi, 8, TailStrategy::RoundUp);
        f.realize({4, 4});
    });
    check_message(msg, {"'fdisg'", "r"});
}

TEST_CASE("fuse_vectorized_var_with_rvar: fusing a vectorized Var with an RVar") {
    Func input("input"), local_sum("local_sum"), blurry("blurry");
    Var x("x"), y("y");
    RVar yr("yr");
    RDom r(-2, 5, -2, 5, "rdom_r");
    input(x, y) = 2 * x + 5 * y;
    local_sum(x, y) = 0;
    local_sum(x, y) += input(x + r.x, y + r.y);
    blurry(x, y) = local_sum(x, y) / 25;
    std::string msg = compile_error_of([&] {
        local_sum.update(0).vectorize(y).fuse(y, r.y, yr);
        blurry.realize({8, 8});
    });
    check_message(msg, {"'local_sum'"});
}

// Once the loops are adjacent, the fused loop keeps the inner loop's vectorize (as in Halide), which
// over an RVar that is not race free is refused.
TEST_CASE("fuse_vectorized_var_with_rvar: the same, after a reorder makes the loops adjacent") {
    Func input("input"), local_sum("local_sum"), blurry("blurry");
    Var x("x"), y("y");
    RVar yr("yr");
    RDom r(-2, 5, -2, 5, "rdom_r");
    input(x, y) = 2 * x + 5 * y;
    local_sum(x, y) = 0;
    local_sum(x, y) += input(x + r.x, y + r.y);
    blurry(x, y) = local_sum(x, y) / 25;
    local_sum.compute_root();
    std::string msg = compile_error_of([&] {
        local_sum.update(0).reorder(r.x, x, y, r.y).vectorize(y).fuse(y, r.y, yr);
        blurry.realize({8, 8});
    });
    check_message(msg, {"'local_sum'", "vectorize(yr)", "RVar"});
}

TEST_CASE("split_inner_wrong_tail_strategy: RoundUp of the inner loop of an update's split") {
    Func f("fin"), g("g");
    Var x("x"), xo("xo"), xi("xi"), xio("xio"), xii("xii");
    f(x) = x;
    f(x) += 1;
    f.compute_root();
    std::string msg = compile_error_of([&] {
        f.update().split(x, xo, xi, 8).split(xi, xio, xii, 9, TailStrategy::RoundUp);
        g(x) = f(x);
        g.realize({10});
    });
    check_message(msg, {"'fin'", "RoundUp"});
}

TEST_CASE("shift_inwards_and_blend_race: ShiftInwards on an update") {
    Func f("fsi");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = x;
    f(x) += 1;
    std::string msg = compile_error_of([&] { f.update().split(x, xo, xi, 8, TailStrategy::ShiftInwards); });
    check_message(msg, {"'fsi'", "ShiftInwards"});
}

// ================================================================ compute_at / store_at

TEST_CASE("bad_compute_at: a producer computed inside one consumer's loop that another needs outside") {
    Func f("f"), g("g"), h("h"), junk1("junk1"), junk2("junk2"), junk3("junk3");
    Var x("x"), y("y");
    f(x) = x;
    g(x) = f(x);
    junk1(x) = 3;
    junk2(x) = 3;
    junk3(x, y) = 3;
    h(x, y) = g(x) + f(x) + junk1(x) + junk2(x) + junk3(x, y);
    g.compute_at(h, y);
    junk1.compute_at(h, y);
    junk2.compute_at(h, x);
    junk3.compute_root();
    f.compute_at(h, x);  // g, computed at (h, y), reads f outside (h, x)
    std::string msg = compile_error_of([&] { h.realize({10, 10}); });
    check_message(msg, {"'f'", "'g'"});
}

TEST_CASE("compute_at a loop that does not exist in the consumer") {
    Func f("fp"), g("gc");
    Var x("x"), y("y"), nope("nope");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + 1;
    std::string msg = compile_error_of([&] {
        f.compute_at(g, nope);
        g.realize({4, 4});
    });
    check_message(msg, {"'fp'", "nope"});
}

TEST_CASE("compute_at a Func that does not use the producer") {
    Func f("fp2"), g("gc2"), other("other");
    Var x("x");
    f(x) = x;
    g(x) = f(x) + 1;
    other(x) = x * 2;
    std::string msg = compile_error_of([&] {
        f.compute_at(other, x);
        g.realize({4});
    });
    check_message(msg, {"'fp2'"});
}

TEST_CASE("compute_at a consumer's own loops in a cycle") {
    Func a("ca"), b("cb"), c("cc");
    Var x("x"), y("y");
    a(x, y) = x + y;
    b(x, y) = a(x, y) * 2;
    c(x, y) = b(x, y) + 1;
    a.compute_at(b, x);
    b.compute_at(a, x);
    std::string msg = compile_error_of([&] { c.realize({4, 4}); });
    check_message(msg, {"'cb'"});
}

// The Func being realized is computed at the root into the output buffer, so a compute_at
// given it is not used there (Halide 14 ignores it too). Only the pipeline's other outputs
// refuse placements. The result is checked instead.
TEST_CASE("compute_at_on_output: the output's own compute_at does not apply when it is realized") {
    Func f("fout"), g("gout");
    Var x("x");
    g(x) = x;
    f(x) = g(x) + 1;
    f.compute_at(g, x);
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(out(i) == i + 1);
}

TEST_CASE("bad_store_at: stored at a loop inside its compute_root") {
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y");
    f(x) = x;
    g(x) = f(x);
    h(x, y) = g(x);
    g.compute_at(h, y);
    f.store_at(h, y).compute_root();
    std::string msg = compile_error_of([&] { h.realize({10, 10}); });
    check_message(msg, {"'f'", "store"});
}

TEST_CASE("store_at a loop inside the compute_at loop") {
    Func f("fsa"), g("gsa");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_at(g, y).store_at(g, x);
    std::string msg = compile_error_of([&] { g.realize({4, 4}); });
    check_message(msg, {"'fsa'", "store_at"});
}

TEST_CASE("store_at_without_compute_at: store_root of an inlined Func") {
    Func f("fsr"), g("gsr");
    Var x("x");
    f(x) = x;
    g(x) = f(x) * 2;
    f.store_root();
    std::string msg = compile_error_of([&] { g.realize({4}); });
    check_message(msg, {"'fsr'", "compute_at"});
}

// Not an error: Halide 14 ignores compute_inline (and compute_at) of an output, which it computes
// at the root into the output buffer (test_multi_output.cpp has the other placements).
TEST_CASE("compute_inline of the output is ignored, as in Halide 14") {
    Func f("foinl");
    Var x("x");
    f(x) = x * 3;
    f.compute_inline();
    Buffer<int> out = f.realize({4});
    CHECK(out(3) == 9);
}

TEST_CASE("bad_fold: a fold of 2 rows where 3 are needed at once") {
    Func f("ffold"), g("gfold");
    Var x("x"), y("y");
    f(x, y) = x;
    g(x, y) = f(x - 1, y + 1) + f(x, y - 1);
    f.store_root().compute_at(g, y).fold_storage(y, 2);
    std::string msg = runtime_error_of([&] { g.realize({100, 100}); });
    check_message(msg, {"'ffold'", "fold_storage", "at least 3"});
}

// A bound that uses the pure Var is refused at bound() (Halide requires bounds free of the Vars).
TEST_CASE("a bound whose extent uses the bounded Var") {
    Func f("fbv");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.bound(x, 0, x);
        f.realize({4});
    });
    check_message(msg, {"'fbv'", "bound", "'x'"});
}

TEST_CASE("fold_storage of a dimension the Func does not have") {
    Func f("ffd"), g("gfd");
    Var x("x"), y("y"), z("z");
    f(x, y) = x;
    g(x, y) = f(x, y);
    std::string msg = compile_error_of([&] {
        f.compute_at(g, y).store_root().fold_storage(z, 2);
        g.realize({4, 4});
    });
    check_message(msg, {"'ffd'", "fold_storage(z"});
}

TEST_CASE("bad_bound: bound on a Var the Func does not have") {
    Func f("fbound");
    Var x("x"), y("y");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.bound(y, 0, 10);
        f.realize({10});
    });
    check_message(msg, {"'fbound'", "y"});
}

TEST_CASE("a bound smaller than the region the consumer needs") {
    Func f("fsmall"), g("gsmall");
    Var x("x");
    f(x) = x;
    g(x) = f(x) + f(x + 1);
    f.compute_root().bound(x, 0, 10);
    std::string msg = runtime_error_of([&] { g.realize({10}); });  // needs [0, 10]
    check_message(msg, {"fsmall", "bound"});
}

TEST_CASE("a bound on the output that the realization does not match") {
    Func f("fob");
    Var x("x");
    f(x) = x;
    f.bound(x, 0, 8);
    std::string msg = runtime_error_of([&] { f.realize({16}); });
    check_message(msg, {"fob", "bound"});
}

TEST_CASE("set_estimates with the wrong number of dimensions") {
    Func f("fest");
    Var x("x"), y("y");
    f(x, y) = x + y;
    std::string msg = compile_error_of([&] { f.set_estimates({{0, 100}}); });
    check_message(msg, {"'fest'"});
}

TEST_CASE("set_estimate of a Var the Func does not have") {
    Func f("fest2");
    Var x("x"), y("y");
    f(x) = x;
    std::string msg = compile_error_of([&] { f.set_estimate(y, 0, 100); });
    check_message(msg, {"'fest2'", "y"});
}

// ================================================================ wrappers

// f.in(g) where g does not call f is refused, as in Halide.
TEST_CASE("wrapper_never_used: f.in(g) where g does not call f") {
    Func f("fw"), g("gw"), h("hw");
    Var x("x");
    f(x) = x;
    g(x) = x * 2;
    h(x) = f(x) + g(x);
    std::string msg = compile_error_of([&] {
        f.in(g).compute_root();
        h.realize({4});
    });
    check_message(msg, {"'fw'", "'gw'"});
}

// f.in(g3) after f.in({g1, g4, g3}) asks for a wrapper of g3 alone, which shares one with g1
// and g4: refused at in(), as in Halide 14 ("Redefinition of shared wrapper").
TEST_CASE("wrap_custom_after_shared: a consumer of a shared wrapper asked for alone") {
    Func f("f"), g1("g1"), g2("g2"), g3("g3"), g4("g4"), out("wrap_out");
    Var x("x"), y("y");
    f(x) = x;
    g1(x, y) = f(x);
    g2(x, y) = f(x);
    g3(x, y) = f(x);
    g4(x, y) = x + y;
    out(x, y) = g1(x, y) + g3(x, y) + g4(x, y);
    Func w1 = f.in({g1, g4, g3});
    std::string msg = compile_error_of([&] { f.in(g3); });
    check_message(msg, {"'f'", "'g3'", "shares its wrapper 'f_in_g1_g4_g3'"});
}

TEST_CASE("wrapping a Func for its own use: f.in(f)") {
    Func f("fself"), g("g");
    Var x("x");
    f(x) = x;
    g(x) = f(x);
    std::string msg = compile_error_of([&] { f.in(f); });
    check_message(msg, {"'fself'", "in(fself)"});
}

TEST_CASE("wrap_frozen: giving a wrapper an update definition (accepted)") {
    // Halide refuses to redefine a wrapper. Halo accepts the update: the wrapper is then an
    // ordinary Func that g reads, while other readers of f still see f.
    Func f("fz"), g("gz"), h("hz");
    Var x("x");
    f(x) = x;
    g(x) = f(x);
    h(x) = g(x) * 100 + f(x);
    Func wrapper = f.in(g);
    wrapper(x) += 1;
    Buffer<int> out = h.realize({10});
    for (int i = 0; i < 10; i++) CHECK(out(i) == (i + 1) * 100 + i);
}

// ================================================================ rfactor

// Halide refuses this rfactor, taking g -= e for a non-commutative operator. Halo reads it as
// g += -e, a sum, which any order computes: the program runs, with the serial loop's values.
TEST_CASE("rfactor_inner_dim_non_commutative: rfactor of a subtraction") {
    Func f("f"), g("gsub");
    Var x("x"), y("y"), u("u");
    f(x, y) = x + y;
    f.compute_root();
    Param<int> inner_extent("inner_extent"), outer_extent("outer_extent");
    RDom r(10, inner_extent, 30, outer_extent, "r");
    inner_extent.set(20);
    outer_extent.set(40);
    g(x, y) = 40;
    g(x, y) -= f(r.x, r.y);
    RVar rxo("rxo"), rxi("rxi");
    g.update(0).split(r.x, rxo, rxi, 2);
    std::string msg = compile_error_of([&] { g.update(0).rfactor(rxi, u).compute_root(); });
    CHECK(msg == "");
    Buffer<int> out = g.realize({2, 2});
    int want = 40;
    for (int j = 30; j < 70; j++)
        for (int i = 10; i < 30; i++) want -= i + j;
    for (int yy = 0; yy < 2; yy++)
        for (int xx = 0; xx < 2; xx++) CHECK(out(xx, yy) == want);
}

TEST_CASE("rfactor of a scan (not an associative reduction)") {
    Func f("fscan");
    Var x("x"), u("u");
    RDom r(1, 10, "r");
    f(x) = x;
    f(r) = f(r - 1) + f(r);
    std::string msg = compile_error_of([&] { f.update().rfactor(r.x, u); });
    check_message(msg, {"'fscan'", "rfactor"});
}

TEST_CASE("rfactor to a Var the Func already has") {
    Func f("fhist");
    Var x("x");
    RDom r(0, 10, 0, 10, "r");
    f(x) = 0;
    f(x) += r.x * r.y + x;
    std::string msg = compile_error_of([&] { f.update().rfactor(r.y, x); });
    check_message(msg, {"'fhist'", "x"});
}

TEST_CASE("rfactor_fused_var_and_rvar: rfactor after fusing a Var with an RVar") {
    Func f("ffused");
    Var x("x"), u("u");
    RVar fused("fused");
    RDom r(0, 10, 0, 10, "r");
    f(x) = 0;
    f(x) += r.x * r.y + x;
    std::string msg = compile_error_of([&] {
        f.update().fuse(r.y, x, fused).rfactor(r.x, u);
        f.realize({4});
    });
    check_message(msg, {"'ffused'"});
}

TEST_CASE("rfactor of a Func with a pure definition only") {
    Func f("fnoupd");
    Var x("x"), u("u");
    RDom r(0, 10, "r");
    f(x) = x;
    std::string msg = compile_error_of([&] { f.update(0).rfactor(r.x, u); });
    check_message(msg, {"'fnoupd'"});
}

// ================================================================ specialize

TEST_CASE("specialize_fail: no specialization holds at run time") {
    Func f("fspec");
    Var x("x");
    Param<int> p("p");
    f(x) = x;
    f.specialize(p == 0).vectorize(x, 4);
    f.specialize_fail("p must be 0 here");
    p.set(0);
    CHECK_NOTHROW(f.realize({8}));
    p.set(1);
    std::string msg = runtime_error_of([&] { f.realize({8}); });
    check_message(msg, {"p must be 0 here"});
}

TEST_CASE("specialize after specialize_fail") {
    Func f("fspec2");
    Var x("x");
    Param<int> p("p");
    f(x) = x;
    f.specialize(p == 0);
    f.specialize_fail("no");
    std::string msg = compile_error_of([&] { f.specialize(p == 1); });
    check_message(msg, {"'fspec2'", "specialize_fail"});
}

TEST_CASE("specialize on a condition that is not a bool") {
    Func f("fspec3");
    Var x("x");
    Param<int> p("p");
    f(x) = x;
    std::string msg = compile_error_of([&] { f.specialize(p + 1); });
    check_message(msg, {"'fspec3'", "bool"});
}

TEST_CASE("specialize on a condition that uses a pure Var") {
    Func f("fspec4");
    Var x("x");
    f(x) = x;
    std::string msg = compile_error_of([&] {
        f.specialize(x > 3).vectorize(x, 4);
        f.realize({8});
    });
    check_message(msg, {"'fspec4'", "x"});
}

TEST_CASE("a producer computed at a loop that only a specialization has") {
    Func f("fsp"), g("gsp");
    Var x("x"), xo("xo"), xi("xi");
    Param<bool> p("p");
    g(x) = x * 2;
    f(x) = g(x) + 1;
    f.specialize(p).split(x, xo, xi, 4);
    g.compute_at(f, xi);  // the general schedule has no loop xi
    p.set(true);
    std::string msg = compile_error_of([&] { f.realize({16}); });
    check_message(msg, {"'gsp'", "compute_at(fsp, xi)", "no loop 'xi'"});
}

// ================================================================ inputs and constraints

TEST_CASE("a Pipeline of outputs of different dimensions realized over one size") {
    Func f("p1"), g("p2");
    Var x("x"), y("y");
    f(x) = x;
    g(x, y) = x + y;
    Pipeline p({f, g});
    std::string msg = compile_error_of([&] { p.realize({10}); });
    check_message(msg, {"'p2'", "2 dimensions"});
}

TEST_CASE("a ParamMap binding an ImageParam to a Buffer of the wrong dimensions") {
    ImageParam im(Int(32), 2, "pmimg");
    Func f("fpi");
    Var x("x"), y("y");
    f(x, y) = im(x, y);
    Buffer<int> b(10);
    std::string msg = compile_error_of([&] {
        ParamMap m;
        m.set(im, b);
        f.realize({4, 4}, m);
    });
    check_message(msg, {"'pmimg'", "2 dimensions"});
}

TEST_CASE("a Buffer input too small for the region the output needs") {
    Buffer<int> input(std::vector<int>{10}, "small_input");
    Func g("gin");
    Var x("x");
    g(x) = input(x) + input(x + 2);
    std::string msg = runtime_error_of([&] { g.realize({10}); });
    check_message(msg, {"small_input", "gin"});
}

TEST_CASE("uninitialized_param: an ImageParam with no buffer bound") {
    ImageParam in(Float(32), 2, "never_set");
    Func f("fns");
    Var x("x"), y("y");
    f(x, y) = in(x, y);
    std::string msg = runtime_error_of([&] { f.realize({4, 4}); });  // a RuntimeError, as in Halide
    check_message(msg, {"'never_set'", "'fns'", "set("});
}

TEST_CASE("binding an ImageParam to a Buffer of the wrong type or dimensions") {
    ImageParam in(UInt(8), 2, "in8");
    Buffer<float> wrong_type(4, 4);
    Buffer<uint8_t> wrong_dims(4, 4, 3);
    check_message(compile_error_of([&] { in.set(wrong_type); }), {"'in8'", "type"});
    check_message(compile_error_of([&] { in.set(wrong_dims); }), {"'in8'", "dimensions"});
}

TEST_CASE("dim(0).set_min(0) violated by the input") {
    ImageParam in(Int(32), 1, "cin");
    in.dim(0).set_min(0);
    Func f("fc");
    Var x("x");
    f(x) = in(x);
    Buffer<int> b(20);
    b.set_min(-5);
    in.set(b);
    std::string msg = runtime_error_of([&] { f.realize({10}); });
    check_message(msg, {"cin", "min"});
}

TEST_CASE("dim(0).set_extent violated by the input") {
    ImageParam in(Int(32), 1, "ein");
    in.dim(0).set_extent(16);
    Func f("fe");
    Var x("x");
    f(x) = in(x);
    Buffer<int> b(20);
    in.set(b);
    std::string msg = runtime_error_of([&] { f.realize({10}); });
    check_message(msg, {"ein", "extent", "16"});
}

TEST_CASE("dim(1).set_stride violated by the input") {
    ImageParam in(Int(32), 2, "sin");
    in.dim(1).set_stride(32);
    Func f("fs");
    Var x("x"), y("y");
    f(x, y) = in(x, y);
    Buffer<int> b(20, 20);  // stride 20
    in.set(b);
    std::string msg = runtime_error_of([&] { f.realize({10, 10}); });
    check_message(msg, {"sin", "stride", "32"});
}

TEST_CASE("output_buffer().dim(0).set_min(0) violated by the output") {
    Func f("fomin");
    Var x("x");
    f(x) = x;
    f.output_buffer().dim(0).set_min(0);
    Buffer<int> out(10);
    out.set_min(3);
    std::string msg = runtime_error_of([&] { f.realize(out); });
    check_message(msg, {"fomin", "min"});
}

TEST_CASE("constraint_uses_non_param: a constraint that uses a pure Var") {
    ImageParam in(Int(32), 1, "vin");
    Var x("x");
    Func f("fv");
    std::string msg = compile_error_of([&] {
        in.dim(0).set_min(x);
        f(x) = in(x);
        Buffer<int> b(10);
        in.set(b);
        f.realize({10});
    });
    check_message(msg, {"vin"});
    CHECK_MESSAGE(contains(msg, "'x'"), msg);
}

// An input whose region cannot settle: the error names the input and the Func.
TEST_CASE("impossible_constraints: an input that must be larger than itself") {
    ImageParam input(Float(32), 2, "photo");
    Func out("out");
    out() = input(input.width(), input.height()) + input(0, 0);
    std::string msg = any_error_of([&] { out.infer_input_bounds({}); });
    check_message(msg, {"compile: ", "'photo'", "'out'"});
}

TEST_CASE("constrain_wrong_output_buffer: constraining a Tuple Func's output") {
    // Halide refuses output_buffer() of a Tuple-valued Func (use output_buffers()). Halo's
    // output_buffer() constrains the buffers of every value (they cover one region): a min of 4
    // is then required, and buffers that meet it work.
    Func f("ftup");
    Var x("x");
    f(x) = Tuple(x, cast<float>(x) * 0.5f);
    f.output_buffer().dim(0).set_min(4);
    Buffer<int> a(10);
    Buffer<float> b(10);
    std::string msg = runtime_error_of([&] { f.realize(Realization(a, b)); });
    check_message(msg, {"'ftup'", "requires 4"});
    a.set_min(4);
    b.set_min(4);
    f.realize(Realization(a, b));
    for (int i = 4; i < 14; i++) {
        CHECK(a(i) == i);
        CHECK(b(i) == i * 0.5f);
    }
}

TEST_CASE("dupe_param_name: two Params with one name in a pipeline") {
    Param<int> p1("same_name"), p2("same_name");
    Func f("fdupe");
    Var x("x");
    f(x) = x + p1 + p2;
    p1.set(1);
    p2.set(2);
    std::string msg = compile_error_of([&] { f.realize({4}); });
    check_message(msg, {"same_name"});
}

TEST_CASE("two ImageParams with one name in a pipeline") {
    ImageParam a(Int(32), 1, "twin"), b(Int(32), 1, "twin");
    Func f("fdupe2");
    Var x("x");
    f(x) = a(x) + b(x);
    Buffer<int> ba(10), bb(10);
    a.set(ba);
    b.set(bb);
    std::string msg = compile_error_of([&] { f.realize({4}); });
    check_message(msg, {"twin"});
}

TEST_CASE("two Funcs with one name in a pipeline are not an error") {
    Func f1("twin_func"), f2("twin_func"), g("gdup");
    Var x("x");
    f1(x) = x;
    f2(x) = x * 2;
    f1.compute_root();
    f2.compute_root();
    g(x) = f1(x) + f2(x);
    // Halide renames one of them (it numbers every repeat of a name); Halo names its lowering's
    // copies apart and leaves the user's Funcs as they are (it once refused, naming them).
    Buffer<int> r = g.realize({8});
    for (int i = 0; i < 8; i++) CHECK(r(i) == 3 * i);
    CHECK(f2.name() == "twin_func");
    CHECK(g.lowered_stmt().find("produce twin_func$1") != std::string::npos);
}

// ================================================================ Generators

namespace {

class UndefinedOutput : public Halide::Generator<UndefinedOutput> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};
    Output<Buffer<uint8_t>> forgotten{"forgotten", 2};
    Var x{"x"}, y{"y"};
    void generate() { output(x, y) = input(x, y); }
};

class WrongDimsOutput : public Halide::Generator<WrongDimsOutput> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"flat_out", 2};
    Var x{"x"};
    void generate() { output(x) = input(x, 0); }
};

class WrongTypeOutput : public Halide::Generator<WrongTypeOutput> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"typed_out", 2};
    Var x{"x"}, y{"y"};
    void generate() { output(x, y) = cast<float>(input(x, y)) * 0.5f; }
};

class Scaler : public Halide::Generator<Scaler> {
public:
    GeneratorParam<int> factor{"factor", 2, 1, 8};
    Input<Buffer<int>> input{"input", 1};
    Output<Buffer<int>> output{"output", 1};
    Var x{"x"};
    void generate() { output(x) = input(x) * factor; }
};

}  // namespace

TEST_CASE("Generator: an Output that generate() does not define") {
    UndefinedOutput gen;
    std::string msg = compile_error_of([&] { gen.build_outputs(); });
    check_message(msg, {"'forgotten'", "not defined"});
}

TEST_CASE("Generator: an Output defined with the wrong number of dimensions") {
    WrongDimsOutput gen;
    std::string msg = compile_error_of([&] { gen.build(); });
    check_message(msg, {"flat_out", "dimension"});
}

TEST_CASE("Generator: an Output defined with the wrong type") {
    WrongTypeOutput gen;
    std::string msg = compile_error_of([&] { gen.build(); });
    check_message(msg, {"typed_out", "type"});
}

TEST_CASE("Generator: an unknown GeneratorParam, one out of range, one not a number") {
    Scaler gen;
    check_message(compile_error_of([&] { gen.set_param("fctor", "3"); }), {"fctor"});
    check_message(compile_error_of([&] { gen.set_param("factor", "9"); }), {"factor", "range"});
    check_message(compile_error_of([&] { gen.set_param("factor", "two"); }), {"factor", "integer"});
}

TEST_CASE("Generator: an Input bound to a buffer of the wrong dimensions") {
    Scaler gen;
    Func f = gen.build();
    Buffer<int> wrong(4, 4);
    std::string msg = compile_error_of([&] { gen.input.set(wrong); });
    check_message(msg, {"'input'", "dimensions"});
}
