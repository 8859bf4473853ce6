// GeneratorParams set from text: strict parsing (the whole text, in range for the type and for
// the declared range), errors naming the parameter and the accepted range, never a wrapped or
// truncated value.
#include "TestUtil.h"

#include <cstdint>

using namespace halo;

namespace {

class Params : public Generator<Params> {
public:
    GeneratorParam<int> width{"width", 8, 1, 64};
    GeneratorParam<int> plain{"plain", 3};
    GeneratorParam<uint8_t> small{"small", 7};
    GeneratorParam<uint64_t> huge{"huge", 1};
    GeneratorParam<float> gain{"gain", 0.5f, 0.0f, 1.0f};
    GeneratorParam<float> any{"any", 2.0f};
    Input<Buffer<uint8_t>> input{"input", 1};
    Output<Buffer<uint8_t>> output{"output", 1};
    void generate() { output(x) = input(x); }
    Var x{"x"};
};

// The CompileError of set_param, and checks the value did not change.
template <typename T>
std::string set_error(Params &g, GeneratorParam<T> &p, const std::string &text) {
    T before = p.value();
    std::string msg = halo_test::compile_error_of([&] { g.set_param(p.name, text); });
    CHECK_MESSAGE(p.value() == before, "'" << text << "' changed the value");
    return msg;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("an integer outside its declared range is refused, naming the parameter and the range") {
    Params g;
    for (const char *text : {"0", "65", "-3", "1000000"}) {
        std::string msg = set_error(g, g.width, text);
        CHECK_MESSAGE(contains(msg, std::string("GeneratorParam 'width' is an integer in [1, 64]; '") + text +
                                        "' is out of range"),
                      msg);
    }
    g.set_param("width", "64");
    CHECK(g.width.value() == 64);
    g.set_param("width", "1");
    CHECK(g.width.value() == 1);
}

TEST_CASE("an integer too large for its type is refused, not wrapped") {
    Params g;
    // Once parsed as -1 (strtoll saturates; the cast to int wrapped).
    std::string msg = set_error(g, g.plain, "99999999999999999999");
    CHECK_MESSAGE(contains(msg, "GeneratorParam 'plain' is an integer in [-2147483648, 2147483647]; "
                                "'99999999999999999999' is out of range"),
                  msg);
    CHECK(contains(set_error(g, g.plain, "4294967295"), "is out of range"));
    CHECK(contains(set_error(g, g.small, "256"), "GeneratorParam 'small' is an integer in [0, 255]; '256' is out of range"));
    CHECK(contains(set_error(g, g.small, "-1"), "is out of range"));
    g.set_param("small", "255");
    CHECK(int(g.small.value()) == 255);
}

// uint64 values past INT64_MAX were refused as out of range (parsed as int64); a sign is not.
TEST_CASE("a uint64 GeneratorParam takes every uint64 value") {
    Params g;
    g.set_param("huge", "18446744073709551615");
    CHECK(g.huge.value() == UINT64_MAX);
    g.set_param("huge", "+9223372036854775808");
    CHECK(g.huge.value() == uint64_t(INT64_MAX) + 1);
    CHECK(contains(set_error(g, g.huge, "-1"),
                   "GeneratorParam 'huge' is an integer in [0, 18446744073709551615]; '-1' is out of range"));
    CHECK(contains(set_error(g, g.huge, "18446744073709551616"), "is out of range"));
    CHECK(contains(set_error(g, g.huge, " 5"), "is not an integer"));
    CHECK(contains(set_error(g, g.huge, "5x"), "is not an integer"));
}

TEST_CASE("integer text must be exactly an integer") {
    Params g;
    for (const char *text : {"", " 8", "8 ", "8x", "0x10", "+", "-", "eight", "1.5"}) {
        std::string msg = set_error(g, g.width, text);
        CHECK_MESSAGE(contains(msg, std::string("'width' is an integer in [1, 64]; '") + text + "' is not an integer"),
                      "'" << text << "': " << msg);
    }
}

TEST_CASE("a floating-point value must be a finite number within the range") {
    Params g;
    for (const char *text : {"nan", "inf", "", " 0.5", "0.5f"}) {
        std::string msg = set_error(g, g.any, text);
        CHECK_MESSAGE(contains(msg, std::string("GeneratorParam 'any' is a number in ")), msg);
        CHECK_MESSAGE(contains(msg, std::string("'") + text + "' is not a number"), "'" << text << "': " << msg);
    }
    CHECK(contains(set_error(g, g.any, "-inf"), "is out of range"));
    CHECK(contains(set_error(g, g.any, "1e39"), "'1e39' is out of range"));  // beyond float
    CHECK(contains(set_error(g, g.gain, "1.5"), "GeneratorParam 'gain' is a number in [0, 1]; '1.5' is out of range"));
    g.set_param("gain", "0.25");
    CHECK(g.gain.value() == 0.25f);
}

TEST_CASE("set() checks the declared range too") {
    Params g;
    std::string msg = halo_test::compile_error_of([&] { g.width.set(100); });
    CHECK_MESSAGE(contains(msg, "GeneratorParam 'width' accepts values in [1, 64]; 100 is out of range"), msg);
    CHECK(g.width.value() == 8);
}

TEST_CASE("a default outside the declared range is the generator's error") {
    struct Bad : Generator<Bad> {
        GeneratorParam<int> p{"p", 100, 1, 64};
        Output<Buffer<uint8_t>> output{"output", 1};
        void generate() {}
    };
    std::string msg = halo_test::compile_error_of([] { Bad b; });
    CHECK_MESSAGE(contains(msg, "GeneratorParam 'p' has default 100 outside its range [1, 64]"), msg);
}

TEST_CASE("the declared range is part of the parameter's description") {
    Params g;
    CHECK(g.width.type_name() == "int in [1, 64]");
    CHECK(g.plain.type_name() == "int");
    CHECK(g.gain.type_name() == "float in [0, 1]");
}

namespace {
// Halide-style use of GeneratorParams in the algorithm and the schedule.
class Scaled : public Generator<Scaled> {
public:
    GeneratorParam<int> tile_w{"tile_w", 8};
    GeneratorParam<int> tile_h{"tile_h", 4};
    GeneratorParam<int> offset{"offset", 3};
    GeneratorParam<float> gain{"gain", 1.5f};
    GeneratorParam<bool> vectorized{"vectorized", true};
    Input<Buffer<int16_t>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};
    Var x{"x"}, y{"y"}, xi{"xi"}, yi{"yi"};
    void generate() {
        Expr bias = offset;  // int32
        output(x, y) = cast<float>(input(x, y) + offset) * gain + bias + min(x, tile_w) - max(tile_h, y);
        output.tile(x, y, xi, yi, tile_w, tile_h);
        if (vectorized && tile_w % 8 == 0) output.vectorize(xi, tile_w / 2);
    }
};
}  // namespace

TEST_CASE("GeneratorParams convert to Expr and to their number, as in Halide") {
    Scaled g;
    Expr e = g.offset;
    CHECK(e.type() == Int(32));
    Expr f = g.gain;
    CHECK(f.type() == Float(32));
    Expr b = g.vectorized;
    CHECK(b.type() == Bool());
    Expr s = Var("v") + g.offset;  // the Expr's type, as with a literal
    CHECK(s.type() == Int(32));
    CHECK(g.tile_w * 2 == 16);  // two C++ numbers give a C++ number
    CHECK(!(g.tile_w < g.tile_h));
    Func out = g.build();
    Buffer<int16_t> in = halo_test::random_image<int16_t>({29, 11}, 3, -1000, 1000);
    g.input.set(in);
    Buffer<float> r(29, 11);
    out.realize(r);
    halo_test::check_all(r, [&](const std::vector<int> &c) {
        return double(float(in(c[0], c[1]) + 3) * 1.5f + 3 + std::min(c[0], 8) - std::max(4, c[1]));
    });
    halo_test::check_against_reference(out, Buffer<float>(29, 11));
    CHECK(out.lowered_stmt().find("output.s0.xi_vi") == std::string::npos);  // vectorized: no lane loop
}

namespace {
// A generator that realizes a lookup table inside generate() from a scalar Input: refused when
// the Input has no value there (it cannot have one before the pipeline is called), allowed when
// the Input has a default, which is then the value the table is made with.
class TableInGenerate : public Generator<TableInGenerate> {
public:
    GeneratorParam<bool> with_default{"with_default", false};
    Input<Buffer<uint8_t>> input{"input", 1};
    Input<float> gain{"gain"};
    Input<float> gain_with_default{"gain_with_default", 2.0f};
    Output<Buffer<uint8_t>> output{"output", 1};
    Var x{"x"};
    void generate() {
        Func lut("lut");
        lut(x) = cast<uint8_t>(min(x * (with_default ? Expr(gain_with_default) : Expr(gain)), 255.0f));
        Buffer<uint8_t> table = lut.realize({256});
        output(x) = input(x) + table(input(x));
    }
};
}  // namespace

TEST_CASE("realizing inside generate a Func that reads a scalar Input without a value is refused") {
    TableInGenerate g;
    std::string msg = halo_test::compile_error_of([&] { g.build(); });
    CHECK(contains(msg, "generator Input 'gain'"));
    CHECK(contains(msg, "Func 'lut'"));
    CHECK(contains(msg, "has no value while generate() runs"));
    CHECK(contains(msg, "compute_root()"));
    // Once generate() is over the Input is an ordinary Param again, set or not.
    Func f("f");
    Var x("x");
    f(x) = x * g.gain;
    Buffer<float> unset_result = f.realize({3});
    CHECK(unset_result(2) == 0.0f);
}

TEST_CASE("realizing inside generate a Func that reads a scalar Input with a default uses the default") {
    TableInGenerate g;
    g.set_param("with_default", "true");
    Func out = g.build();
    Buffer<uint8_t> in(5);
    for (int i = 0; i < 5; i++) in(i) = uint8_t(i * 50);
    g.input.set(in);
    Buffer<uint8_t> r = out.realize({5});
    for (int i = 0; i < 5; i++) CHECK(int(r(i)) == int(uint8_t(i * 50 + std::min(i * 50 * 2, 255))));
}
