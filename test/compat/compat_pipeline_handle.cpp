// Pipeline as Halide's handle: `Pipeline p = f;`, copies that share one compiled pipeline, a
// Pipeline that keeps its outputs alive, outputs(), print_loop_nest() of several outputs and
// auto_schedule(target), as Halide 14's apps and tutorials use them.
#include <doctest/doctest.h>

#include <string>

#include "CompatUtil.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::thrown_message;

namespace {

// A Pipeline returned from a function that made its Funcs locally (as a generator's helper
// does): the Pipeline holds them.
Pipeline make_gradient_pipeline(int scale) {
    Var x("x"), y("y");
    Func gradient("gradient"), scaled("scaled");
    gradient(x, y) = x + y;
    scaled(x, y) = gradient(x, y) * scale;
    gradient.compute_root();
    return scaled;  // Func to Pipeline, implicitly
}

}  // namespace

TEST_CASE("Pipeline p = f realizes f, and copies of p share one compiled pipeline") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 3 + y;
    Pipeline p = f;
    CHECK(p.defined());
    Buffer<int> out(7, 5);
    out.set_min({-3, 2});
    p.realize(out);
    for (int yy = 2; yy < 7; yy++) {
        for (int xx = -3; xx < 4; xx++) REQUIRE(out(xx, yy) == xx * 3 + yy);
    }
    Pipeline q = p;
    Buffer<int> again = q.realize({4, 4});
    CHECK(again(3, 2) == 11);
    CHECK(p.compile_count() == 1);  // q ran p's code
    CHECK(q.compile_count() == 1);
    // A change to the Func is seen through every copy.
    f(x, y) = x - y;
    CHECK(!p.is_current());
    Buffer<int> changed = q.realize({4, 4});
    CHECK(changed(3, 2) == 1);
    CHECK(p.compile_count() == 2);
}

TEST_CASE("a Pipeline made from local Funcs outlives them, and outputs() gives them back") {
    Pipeline p = make_gradient_pipeline(5);
    Buffer<int> out = p.realize({6, 4});
    CHECK(out(5, 3) == 40);
    std::vector<Func> outs = p.outputs();
    REQUIRE(outs.size() == 1);
    CHECK(outs[0].name() == "scaled");
    Func gradient = p.get_func("gradient");
    CHECK(gradient.name() == "gradient");
}

TEST_CASE("Pipeline({f, g}) lists its outputs in order and prints both in its loop nest") {
    Var x("x");
    Func f("first_out"), g("second_out");
    f(x) = x;
    g(x) = f(x) * 2;
    g.vectorize(x, 4);
    Pipeline p({f, g});
    std::vector<Func> outs = p.outputs();
    REQUIRE(outs.size() == 2);
    CHECK(outs[0].name() == "first_out");
    CHECK(outs[1].name() == "second_out");
    std::string nest = p.loop_nest();
    CHECK(contains(nest, "produce first_out"));
    CHECK(contains(nest, "produce second_out"));
    CHECK(contains(nest, "vectorized second_out.s0.x_vi"));
    Buffer<int> a(9), b(9);
    p.realize({a, b});
    CHECK(b(8) == 16);
}

TEST_CASE("an undefined Pipeline, or one whose Func has no definition, says what to do") {
    Pipeline empty;
    CHECK(!empty.defined());
    std::string msg = thrown_message([&] { empty.realize({4}); });
    CHECK(contains(msg, "Pipeline::realize of an undefined Pipeline (one made by Pipeline()); assign it a Pipeline "
                        "of output Funcs first"));
    Func nothing("nothing_yet");
    Pipeline early(nothing);  // allowed, as in Halide: defined before it is used
    msg = thrown_message([&] { early.compile_jit(); });
    CHECK(contains(msg, "Pipeline::compile_jit: its output Func 'nothing_yet' has no definition"));
    Var x("x");
    nothing(x) = x + 1;
    Buffer<int> now = early.realize({3});
    CHECK(now(2) == 3);
    msg = thrown_message([&] { Pipeline(std::vector<Func>{Func("undefined_output")}); });
    CHECK(contains(msg, "Func 'undefined_output' is an output of a Pipeline but has no definition"));
}

TEST_CASE("Pipeline::auto_schedule(target) schedules a pipeline over its output's estimates") {
    ImageParam input(Float(32), 2, "input");
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func blur_x("blur_x"), blur_y("blur_y");
    blur_x(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_y.set_estimates({{0, 512}, {0, 384}});
    Pipeline p(blur_y);
    AutoSchedulerResults r = p.auto_schedule("Mullapudi2016", get_host_target());
    CHECK(r.scheduler_name == "Mullapudi2016");
    CHECK(r.target == get_host_target());
    CHECK(contains(r.schedule_source, "blur_y"));
    Buffer<float> in(301, 207);
    for (int yy = 0; yy < 207; yy++) {
        for (int xx = 0; xx < 301; xx++) in(xx, yy) = float(halo_compat::hash32(uint32_t(xx * 1000 + yy)) % 256);
    }
    input.set(in);
    Buffer<float> out = p.realize({301, 207});
    auto at = [&](int xx, int yy) { return in(std::clamp(xx, 0, 300), std::clamp(yy, 0, 206)); };
    for (int yy = 0; yy < 207; yy++) {
        for (int xx = 0; xx < 301; xx++) {
            float bx[3];
            for (int d = -1; d <= 1; d++) bx[d + 1] = (at(xx - 1, yy + d) + at(xx, yy + d) + at(xx + 1, yy + d)) / 3;
            float want = (bx[0] + bx[1] + bx[2]) / 3;
            REQUIRE(out(xx, yy) == doctest::Approx(want).epsilon(1e-5));
        }
    }
}

TEST_CASE("Pipeline::auto_schedule of several outputs is refused with what to do") {
    Var x("x");
    Func f("f_out"), g("g_out");
    f(x) = x;
    g(x) = f(x) + 1;
    f.set_estimates({{0, 100}});
    g.set_estimates({{0, 100}});
    Pipeline p({f, g});
    std::string msg = thrown_message([&] { p.auto_schedule(get_host_target()); });
    CHECK(contains(msg, "Pipeline::auto_schedule: Halo's auto-scheduler schedules a pipeline of one output, and this "
                        "one has 2 (the first is Func 'f_out')"));
}
