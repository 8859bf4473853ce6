// The ranges of scalar Params (Halide's Param(name, value, min, max), set_range,
// set_min_value, set_max_value, and a Generator's Input<T>{name, default, min, max}): a value
// outside the range fails the call before anything runs, with halo_error_code_param_out_of_range
// and a message naming the Param; a value inside computes as usual.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

// The code and message of the RuntimeError fn throws (code 0: none).
template <typename F>
std::pair<int, std::string> failure_of(F fn) {
    try {
        fn();
    } catch (const RuntimeError &e) {
        return {e.code, e.what()};
    }
    return {0, ""};
}

}  // namespace

TEST_CASE("an integer Param outside its range fails the call, naming it, inside it computes") {
    Param<int> radius("radius", 3, 1, 10);
    CHECK(radius.min_value().defined());
    Var x("x");
    Func f("scaled");
    f(x) = x * radius;
    Buffer<int> out = f.realize({4});
    CHECK(out(3) == 9);
    radius.set(10);
    out = f.realize({4});
    CHECK(out(3) == 30);
    radius.set(12);
    auto [code, msg] = failure_of([&] { f.realize({4}); });
    CHECK(code == -12);  // halo_error_code_param_out_of_range
    CHECK(msg == "Param 'radius' is 12, larger than its largest value 10 (set_range / set_max_value); give it a "
                 "value in its range");
    radius.set(0);
    auto [code2, msg2] = failure_of([&] { f.realize({4}); });
    CHECK(code2 == -12);
    CHECK(contains(msg2, "Param 'radius' is 0, smaller than its smallest value 1"));
    // Nothing was written by the failed calls.
    Buffer<int> untouched(4);
    untouched.fill(-7);
    (void)failure_of([&] { f.realize(untouched); });
    for (int i = 0; i < 4; i++) CHECK(untouched(i) == -7);
}

TEST_CASE("set_range after a compile recompiles with the new range, an undefined bound removes it") {
    Param<int> p("p_range", 5);
    Var x("x");
    Func f("pf");
    f(x) = x + p;
    CHECK(Buffer<>(f.realize({2})).get_as_double({1}) == 6);
    p.set_range(0, 4);
    CHECK(contains(failure_of([&] { f.realize({2}); }).second, "Param 'p_range' is 5, larger than its largest value 4"));
    p.set_max_value(Expr());
    p.set(1000);
    CHECK(Buffer<>(f.realize({2})).get_as_double({1}) == 1001);
    p.set_min_value(2000);
    CHECK(contains(failure_of([&] { f.realize({2}); }).second, "smaller than its smallest value 2000"));
}

TEST_CASE("float and narrow integer Params: the bound is cast to the Param's type") {
    Param<float> gain("gain", 0.5f, 0.0f, 1.0f);
    Param<uint8_t> level("level", 10, 5, 200);
    Var x("x");
    Func f("mixed");
    f(x) = cast<float>(x + level) * gain;
    CHECK(Buffer<>(f.realize({3})).get_as_double({2}) == 6.0f);
    gain.set(1.5f);
    CHECK(contains(failure_of([&] { f.realize({3}); }).second, "Param 'gain' is 1.5, larger than its largest value 1"));
    gain.set(1.0f);
    level.set(3);
    CHECK(contains(failure_of([&] { f.realize({3}); }).second, "Param 'level' is 3, smaller than its smallest value 5"));
    level.set(5);
    CHECK(Buffer<>(f.realize({3})).get_as_double({2}) == 7.0f);
}

// The message must show values that differ from the bound as different: a uint64 past
// INT64_MAX printed as an int64 was -1, a double just past 1 printed with 6 digits was 1.
TEST_CASE("uint64 and double Params out of range print their exact values") {
    Param<uint64_t> big("big", 5, 0, 100);
    Param<double> ratio("ratio", 0.5, 0.0, 1.0);
    Var x("x");
    Func f("exact");
    f(x) = cast<double>(big + cast<uint64_t>(x)) * ratio;
    big.set(UINT64_MAX);
    CHECK(contains(failure_of([&] { f.realize({3}); }).second,
                   "Param 'big' is 18446744073709551615, larger than its largest value 100"));
    big.set(5);
    ratio.set(1.0000001);
    CHECK(contains(failure_of([&] { f.realize({3}); }).second, "Param 'ratio' is 1.0000001, larger than its largest value 1 "));
    ratio.set(-1e-300);
    CHECK(contains(failure_of([&] { f.realize({3}); }).second, "Param 'ratio' is -1e-300, smaller than its smallest value 0 "));
    ratio.set(0.1);
    CHECK(Buffer<>(f.realize({3})).get_as_double({2}) == doctest::Approx(0.7));
}

TEST_CASE("a Param range must be constant numbers") {
    Param<int> p("p_bad"), q("q_other");
    std::string msg = compile_error_of([&] { p.set_min_value(q + 1); });
    CHECK(contains(msg, "Param 'p_bad': set_min_value((q_other + 1)): the bound must be a constant"));
    CHECK(contains(compile_error_of([&] { p.set_max_value(Expr(1) < 2); }), "the bound must be a number"));
    p.set_estimate(7);  // for schedulers only
    Var x("x");
    Func f("est");
    p.set(2);
    f(x) = x * p;
    CHECK(Buffer<>(f.realize({3})).get_as_double({2}) == 4);
}

namespace {

class RangedBrighten : public Generator<RangedBrighten> {
public:
    Input<Buffer<uint8_t>> input{"input", 1};
    Input<int> offset{"offset", 3, 0, 50};
    Output<Buffer<uint8_t>> output{"output", 1};
    void generate() { output(x) = saturating_cast<uint8_t>(input(x) + offset); }
    Var x{"x"};
};

}  // namespace

HALO_REGISTER_GENERATOR(RangedBrighten, "ranged_brighten")

TEST_CASE("a Generator's Input<int>{name, default, min, max} checks its range") {
    auto g = GeneratorRegistry::create("ranged_brighten");
    std::vector<Func> outs = g->build_outputs();
    REQUIRE(outs.size() == 1);
    auto *gen = dynamic_cast<RangedBrighten *>(g.get());
    REQUIRE(gen != nullptr);
    Buffer<uint8_t> in(4);
    for (int i = 0; i < 4; i++) in(i) = uint8_t(i * 60);
    gen->input.set(in);
    Func out = outs[0];
    Buffer<uint8_t> r = out.realize({4});
    CHECK(r(1) == 63);
    gen->offset.set(51);
    auto [code, msg] = failure_of([&] { out.realize({4}); });
    CHECK(code == -12);
    CHECK(contains(msg, "Param 'offset' is 51, larger than its largest value 50"));
}

TEST_CASE("a Param out of range fails the call also where only a stage nothing needs uses it") {
    // (Found by the pipeline fuzzer, seed 590671: the split factor of a stage read only in the
    // arm of a select that a specialization makes false.) Lowering drops the stage; the
    // caller's value is still out of the range it declared.
    Param<int> factor("factor", 4, 5, 11);
    Param<int> k("k", 5);
    Var x("x"), xo("xo"), xi("xi");
    Func unused("unused"), out("out");
    unused(x) = x * 2;
    unused.compute_root().split(x, xo, xi, factor);
    out(x) = select(k > 4, x, unused(x));
    out.specialize(k > 4);
    out.specialize_fail("k must be more than 4");
    auto [code, msg] = failure_of([&] { out.realize({6}); });
    CHECK(code == -12);
    CHECK(contains(msg, "Param 'factor' is 4, smaller than its smallest value 5"));
    factor.set(5);
    Buffer<int> o = out.realize({6});
    CHECK(o(5) == 5);
}
