// Programs that are large or deep: each compiles in time proportional to its size, or is
// refused with a message, never overflows the compiler's stack or runs for ever.
#include <chrono>

#include "TestUtil.h"
#include "lower/Environment.h"
#include "lower/FuncValueBounds.h"
#include "lower/IREquality.h"

using namespace halo;
using halo_test::check_against_reference;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("a 100,000-deep expression is refused with a message, and destroyed or assigned over without a crash") {
    Var x("x");
    Func f("f");
    std::string msg;
    {
        Expr e = x;
        for (int i = 0; i < 100000; i++) e = e + (i % 7);
        msg = compile_error_of([&] { f(x) = e; });
        Expr copy = e;
        e = Expr(0);     // still shared with copy: nothing is destroyed
        copy = Expr(1);  // the last reference: assigning over it destroys the chain
    }  // e (100,000 nodes deep) is destroyed here
    INFO(msg);
    CHECK(contains(msg, "Func 'f'"));
    CHECK(contains(msg, "levels deep"));
    CHECK(contains(msg, "at most 4096"));
}

TEST_CASE("an expression 4000 levels deep compiles and matches the reference") {
    Var x("x");
    Func f("f");
    Expr e = x;
    for (int i = 0; i < 1300; i++) e = max(e - 3, x) + 1;  // 3 levels per step
    f(x) = e;
    f.vectorize(x, 8);
    check_against_reference(f, Buffer<int>(16));
}

TEST_CASE("an expression graph whose tree is exponential compiles in linear time") {
    Var x("x");
    Func f("f");
    Expr e = x;
    // Each step uses e three times: 3^200 nodes as a tree, 600 as a graph.
    for (int i = 0; i < 200; i++) e = select(e > i, e - i, e + x);
    auto start = std::chrono::steady_clock::now();
    f(x) = e;
    Buffer<int> out = f.realize({8});
    CHECK(seconds_since(start) < 60);
    check_against_reference(f, Buffer<int>(8));
}

TEST_CASE("a graph-shaped definition stays a graph through renaming, inlining, updates and sliding") {
    // Substitution walked a graph as a tree and returned the tree, and an RDom predicate was
    // walked as a tree by every pass: 2^40 nodes here.
    Buffer<int> data = halo_test::random_image<int>({64}, 11, 0, 100);
    for (int schedule = 0; schedule < 7; schedule++) {
        CAPTURE(schedule);
        Var x("x");
        Expr e = data(x);
        for (int i = 0; i < 40; i++) e = (e + e) % 1000 + i;
        Func out("out"), f("f");
        f(x) = e;
        if (schedule == 0) {
            out(x) = f(x) + f(x + 1);
        } else if (schedule == 1) {
            Func g("f");  // the same name: renamed in lowering's copies
            g(x) = f(x) * 2;
            out(x) = g(x) + f(x);
            f.compute_root();
        } else if (schedule == 2) {
            Func h("h");
            RDom r(0, 4);
            h(x) = x;
            h(x) += select(e > 500, r, 0);
            out(x) = h(x) + f(x);
            h.compute_root();
        } else if (schedule == 3) {
            out(x) = f(x);
            f.compute_at(out, x).vectorize(x, 8);
            out.vectorize(x, 16);
        } else if (schedule == 4) {
            out(x) = f(x) + f(x + 1);
            f.store_root().compute_at(out, x);
        } else if (schedule == 5) {
            Var xi("xi");
            out(x) = f(x) * 3;
            out.split(x, x, xi, 7).unroll(xi);
        } else {
            Func h("h");
            RDom r(0, 4);
            r.where(e % 7 > r.x);
            h(x) = x;
            h(x) += r.x * 10;
            out(x) = h(x);
            h.compute_root();
        }
        auto start = std::chrono::steady_clock::now();
        out.compile_jit();
        CHECK(seconds_since(start) < 60);
        check_against_reference(out, Buffer<int>(40));
    }
}

TEST_CASE("an inlined Func called with an inlined value as its argument, 100 levels deep") {
    // Each level's argument is the previous level's inlined value: the inliner walked those
    // arguments again as trees (10 levels took 4 s, 12 over a minute).
    Var x("x");
    Func prev("level0");
    prev(x) = x + 1;
    Func below = prev;
    for (int i = 1; i <= 100; i++) {
        Func lut("lut" + std::to_string(i)), next("level" + std::to_string(i));
        lut(x) = (x * x + i) % 10007;
        next(x) = lut(prev(x) + below(x));
        below = prev;
        prev = next;
    }
    auto start = std::chrono::steady_clock::now();
    prev.compile_jit();
    CHECK(seconds_since(start) < 60);
    check_against_reference(prev, Buffer<int>(8));
}

TEST_CASE("20 chained inlined stencils are inlined once per point, not exponentially") {
    Buffer<int> in = halo_test::random_image<int>({80}, 7, -10, 10);
    Var x("x");
    std::vector<Func> chain;
    Func first("s0");
    first(x) = in(clamp(Expr(x), 0, 79));
    chain.push_back(first);
    for (int i = 1; i <= 20; i++) {
        Func f("s" + std::to_string(i));
        Func p = chain.back();
        f(x) = (p(x - 1) + p(x) * 2 - p(x + 1)) % 1000;
        chain.push_back(f);
    }
    auto start = std::chrono::steady_clock::now();
    Buffer<int> out = chain.back().realize({16});
    CHECK(seconds_since(start) < 60);
    check_against_reference(chain.back(), Buffer<int>(16));
}

TEST_CASE("unroll by a huge factor is refused at the directive") {
    Var x("x");
    Func f("f");
    f(x) = x;
    std::string msg = compile_error_of([&] { f.unroll(x, 65536); });
    INFO(msg);
    CHECK(contains(msg, "Func 'f'"));
    CHECK(contains(msg, "unroll(x, 65536)"));
    CHECK(contains(msg, "at most 16384"));
}

TEST_CASE("unroll before a split: an unrolled loop of 20000 copies is refused, not compiled for minutes") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x * 2;
    f.unroll(x).split(x, xo, xi, 20000);
    std::string msg = compile_error_of([&] { f.realize({40000}); });
    INFO(msg);
    CHECK(contains(msg, "f.s0.xi"));
    CHECK(contains(msg, "20000 copies"));
    CHECK(contains(msg, "at most 16384"));
    // The intended schedule: unroll the inner loop by a small factor.
    Func g("g");
    g(x) = x * 2;
    g.split(x, xo, xi, 1000).unroll(xi, 4);
    check_against_reference(g, Buffer<int>(4000));
}

TEST_CASE("nested unrolled loops are limited in total") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    f.unroll(x, 256).unroll(y, 512);
    std::string msg = compile_error_of([&] { f.realize({256, 512}); });
    INFO(msg);
    CHECK(contains(msg, "131072 copies"));
    CHECK(contains(msg, "at most 65536"));
}

TEST_CASE("nested vectorize: the outer loop stays serial around the inner vectors") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 3 + y;
    f.vectorize(x, 4).vectorize(y, 4);
    check_against_reference(f, Buffer<int>(16, 8));
}

TEST_CASE("inlining that would need too many distinct points is refused with a message") {
    // Each stage reads its producer at 2x and 2x + 1, so no two reads share a point: 2^20
    // points after 20 stages.
    Var x("x");
    Func prev("g0");
    prev(x) = x;
    for (int i = 1; i <= 20; i++) {
        Func g("g" + std::to_string(i));
        g(x) = prev(x * 2) + prev(x * 2 + 1);
        prev = g;
    }
    std::string msg = compile_error_of([&] { prev.realize({4}); });
    INFO(msg);
    CHECK(contains(msg, "compute_root()"));
    CHECK(contains(msg, "distinct points"));
}

namespace {

// Halide's interpolate app in small: a pyramid of root levels pulled back up by levels computed
// per row strip of the output (stored per strip), each level's bounds there built from the
// next one's.
Func pyramid_pulled_up(int levels) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    std::vector<Func> down, downx, interp;
    for (int l = 0; l < levels; l++) {
        down.emplace_back("down_" + std::to_string(l));
        downx.emplace_back("downx_" + std::to_string(l));
        interp.emplace_back("interp_" + std::to_string(l));
    }
    down[0](x, y) = cast<float>((x * 7 + y * 3) % 17);
    for (int l = 1; l < levels; l++) {
        downx[l](x, y) = down[l - 1](2 * x - 1, y) + 2.0f * down[l - 1](2 * x, y) + down[l - 1](2 * x + 1, y);
        down[l](x, y) = (downx[l](x, 2 * y - 1) + 2.0f * downx[l](x, 2 * y) + downx[l](x, 2 * y + 1)) * 0.0625f;
    }
    interp[levels - 1](x, y) = down[levels - 1](x, y);
    for (int l = levels - 2; l >= 0; l--) {
        interp[l](x, y) = down[l](x, y) + (interp[l + 1](x / 2, y / 2) + interp[l + 1]((x + 1) / 2, (y + 1) / 2)) * 0.5f;
    }
    Func out("out");
    out(x, y) = interp[0](x, y);
    out.split(y, yo, yi, 8).parallel(yo).vectorize(x, 8);
    for (int l = 1; l < levels; l++) {
        down[l].compute_root();
        interp[l].store_at(out, yo).compute_at(out, yi).vectorize(x, 8);
    }
    return out;
}

}  // namespace

// Each level's region inside the strip loops is built from the next level's; written out in
// full, the lowered statement grew 4.3x from 8 to 10 levels of Halide's interpolate (10 levels
// compiled in 13 s). Bounds inference names the large ends of the intervals (Halide's
// BoxesTouched does too), so the statement grows much slower than that.
TEST_CASE("a pyramid pulled up per row strip: its bounds do not double with every level") {
    std::vector<size_t> sizes;
    for (int levels : {6, 8}) {
        Func out = pyramid_pulled_up(levels);
        sizes.push_back(out.lowered_stmt().size());
        Buffer<float> result(37, 29);
        check_against_reference(out, result);
    }
    INFO("lowered statement of 6 levels: " << sizes[0] << " characters, of 8: " << sizes[1]);
    CHECK(sizes[1] < 3 * sizes[0]);  // 2.0x; 4.3x before the ends were named
}

namespace {

// Halide's sliding_window_cascade: a chain of Funcs each reading the one before it at two
// places, all stored at the root and computed per point of the output, so that each slides.
Func sliding_cascade(int n) {
    Var x("x");
    std::vector<Func> f;
    for (int i = 0; i < n; i++) f.emplace_back("f" + std::to_string(i));
    f[0](x) = x % 2;
    Func out("out");
    for (int i = 1; i < n; i++) f[size_t(i)](x) = f[size_t(i) - 1](x - 1) + f[size_t(i) - 1](min(x + 1, 20));
    out(x) = f.back()(x);
    for (auto &fi : f) fi.store_root().compute_at(out, x);
    out.bound(x, 0, 10);
    return out;
}

}  // namespace

// Each Func's bounds are built from the next one's, twice (x - 1 and min(x + 1, 20)); the
// sliding window pass expanded them into trees that doubled with every Func (16 Funcs took
// 6 s to compile, 20 took 96 s; Halide 14 takes 42 s for 20). The expansion is now bound by
// Lets where it shares, as in Halide since this test: 20 Funcs compile in 0.35 s. (The
// simplified statement never showed the trees: only the time does.)
TEST_CASE("a cascade of 20 sliding Funcs compiles without its bounds doubling with every Func") {
    Func out = sliding_cascade(20);
    auto start = std::chrono::steady_clock::now();
    out.compile_jit();
    CHECK(seconds_since(start) < 30);
    check_against_reference(out, Buffer<int>(10));
}

// The range of values of such a chain doubles with every Func: past 2^31 the sum of two
// int32 ends overflows (undefined behaviour) and was left unfolded, a graph that doubled as
// a tree with every further Func (60 Funcs took minutes in compute_func_value_bounds). Such an
// end is no bound at all.
TEST_CASE("value bounds that overflow int32 are dropped, not carried down a chain of Funcs") {
    Var x("x");
    std::vector<Func> f;
    for (int i = 0; i < 40; i++) f.emplace_back("v" + std::to_string(i));
    f[0](x) = x % 2;
    for (size_t i = 1; i < f.size(); i++) f[i](x) = f[i - 1](x - 1) + f[i - 1](x + 1);
    Environment env;
    for (auto &fc : pipeline_functions({f.back().function()})) env[fc->name] = fc;
    FuncValueBounds bounds = compute_func_value_bounds(env);
    auto bound_of = [&](const std::string &name) -> Interval {
        auto it = bounds.find({name, 0});
        return it == bounds.end() ? Interval() : it->second;
    };
    // f0 is in [0, 1] (x % 2 is Euclidean), f30 in [0, 2^30]: constants.
    REQUIRE(bound_of("v30").max.defined());
    CHECK(equal(bound_of("v30").max, Expr(1 << 30)));
    CHECK(equal(bound_of("v30").min, Expr(0)));
    // From f31 on the max does not fit: no bound, rather than an unfolded sum.
    for (const char *name : {"v31", "v39"}) {
        INFO(name);
        CHECK(!bound_of(name).max.defined());
    }
}
