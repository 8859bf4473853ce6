// A read at an index made of another Func's value is bounded by the range of values that Func's
// definition can produce (Halide's function value bounds), whether that Func is inlined or
// computed: g(x + offset(x)) with offset(x) = clamp(..., -2, 2) computed at the root needs g
// over [min - 2, max + 2], not an unbounded region.
#include "TestUtil.h"

#include <string>

using namespace halo;

namespace {

Buffer<int> ramp_input(int min, int extent) {
    Buffer<int> b(std::vector<int>{extent}, "input");
    b.set_min({min});
    b.for_each_value([](const std::vector<int> &c) { return c[0] * 5 - 7; });
    return b;
}

}  // namespace

TEST_CASE("a Func read at an index offset by a clamped Func computed at the root") {
    for (int vec = 0; vec < 2; vec++) {
        Var x("x");
        Func offset("offset"), g("g"), out("out");
        offset(x) = clamp(x % 7 - 3, -2, 2);
        offset.compute_root();
        g(x) = x * 2 + 1;
        g.compute_root();
        out(x) = g(x + offset(x));
        if (vec) out.vectorize(x, 8);
        Buffer<int> o(std::vector<int>{29});
        o.set_min({-13});  // negative coordinates, a size 8 does not divide
        INFO((vec ? "vectorized" : "scalar"));
        halo_test::check_against_reference(out, o);
    }
}

TEST_CASE("an input read at such an index needs exactly the range the clamp allows") {
    // out over [-10, 19] reads input over [-12, 21]: an input of exactly that region suffices.
    ImageParam input(Int(32), 1, "input");
    Var x("x");
    Func offset("offset"), out("out");
    offset(x) = clamp(x % 5 - 2, -2, 2);
    offset.compute_root();
    out(x) = input(x + offset(x));
    Buffer<int> in = ramp_input(-12, 34);
    input.set(in);
    Buffer<int> o(std::vector<int>{30});
    o.set_min({-10});
    out.realize(o);
    halo_test::check_all<int>(o, [](const std::vector<int> &c) {
        int m = ((c[0] % 5) + 5) % 5;  // Halo's % is Euclidean, as Halide's
        int off = std::min(std::max(m - 2, -2), 2);
        return (c[0] + off) * 5 - 7;
    });
    // One element less on the right is a run-time error naming the input and the region.
    Buffer<int> small = ramp_input(-12, 33);
    input.set(small);
    std::string err = halo_test::runtime_error_of([&] { out.realize(o); });
    CHECK(halo_test::contains(err, "input"));
    CHECK(halo_test::contains(err, "[-12, 21]"));
}

TEST_CASE("value bounds pass through a chain of computed Funcs and Tuple components") {
    Var x("x"), y("y");
    Func base("base"), twice("twice"), pair("pair"), g("g"), out("out");
    base(x, y) = clamp(x - y, -3, 3);
    base.compute_root();
    twice(x, y) = base(x, y) * 2 + 1;  // [-5, 7]
    twice.compute_root();
    pair(x, y) = Tuple(x * y, max(min(x + y, 4), 0));  // component 1 in [0, 4]
    pair.compute_root();
    g(x, y) = x * 100 + y;
    g.compute_root();
    out(x, y) = g(x + twice(x, y), y - pair(x, y)[1]);
    Buffer<int> o(std::vector<int>{23, 17});
    o.set_min({-5, 3});
    halo_test::check_against_reference(out, o);
}

TEST_CASE("a Param in the clamp bounds the region by that Param") {
    ImageParam input(Int(32), 1, "input");
    Param<int> reach("reach");
    Var x("x");
    Func offset("offset"), out("out");
    offset(x) = clamp(x % 11, 0, reach);
    offset.compute_root();
    out(x) = input(x + offset(x));
    Buffer<int> in = ramp_input(0, 24);  // out over [0, 19] with reach 4 reads [0, 23]
    input.set(in);
    reach.set(4);
    Buffer<int> o = out.realize({20});
    halo_test::check_all<int>(o, [](const std::vector<int> &c) { return (c[0] + std::min(c[0] % 11, 4)) * 5 - 7; });
    reach.set(5);
    std::string err = halo_test::runtime_error_of([&] { out.realize({20}); });
    CHECK(halo_test::contains(err, "[0, 24]"));
}

TEST_CASE("a float Func cast to an index is bounded by its clamp") {
    Var x("x");
    Func wave("wave"), lut("lut"), out("out");
    wave(x) = clamp(sin(cast<float>(x)) * 10.0f, -4.0f, 6.0f);
    wave.compute_root();
    lut(x) = x * x - 3;
    lut.compute_root();
    out(x) = lut(cast<int>(wave(x)) + x);
    Buffer<int> o(std::vector<int>{40});
    o.set_min({-20});
    halo_test::check_against_reference(out, o);
}

TEST_CASE("a Func with an update definition has no value bounds: its index stays refused") {
    // An update can store anything (here it does store 1000), so the pure definition's clamp
    // says nothing about the values read.
    Var x("x");
    Func offset("offset"), g("g"), out("out");
    offset(x) = clamp(x, -2, 2);
    offset(3) = 1000;
    offset.compute_root();
    g(x) = x;
    g.compute_root();
    out(x) = g(x + offset(x));
    std::string err = halo_test::compile_error_of([&] { out.realize({10}); });
    CHECK(halo_test::contains(err, "Func 'out' reads Func 'g' at an index the compiler cannot bound in dimension 0"));
}

TEST_CASE("an update indexed by a clamped Func computed at the root (a histogram)") {
    Var x("x");
    Func bucket("bucket"), hist("hist");
    bucket(x) = clamp(x / 3 - 2, 0, 9);
    bucket.compute_root();
    RDom r(0, 50, "r");
    hist(x) = 0;
    hist(bucket(r)) += 1;
    Buffer<int> o = hist.realize({10});
    halo_test::check_all<int>(o, [](const std::vector<int> &c) {
        int n = 0;
        for (int i = 0; i < 50; i++) n += std::min(std::max(i / 3 - 2, 0), 9) == c[0];
        return n;
    });
}

TEST_CASE("an output that stores nothing somewhere (undef) has no value bounds") {
    // offset is an output of the pipeline: where its select picks undef(), its buffer keeps
    // what the caller put there, so its definition's clamp bounds nothing; the read of g at
    // offset's values cannot be bounded, and is refused rather than read out of bounds.
    Var x("x");
    Func offset("offset"), g("g"), out("out");
    offset(x) = select(x > 2, clamp(x % 5, -2, 2), undef<int>());
    g(x) = x * 2;
    g.compute_root();
    out(x) = g(x + offset(x));
    Pipeline both({offset, out});
    std::string err = halo_test::compile_error_of([&] { both.realize({10}); });
    CHECK(halo_test::contains(err, "reads Func 'g' at an index the compiler cannot bound"));
}
