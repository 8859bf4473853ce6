// Funcs declared with their types and dimensions, as Halide users write them (Halide's
// typed_func test and error/func_expr_dim_mismatch, func_expr_type_mismatch and
// func_tuple_update_types_mismatch), and Func(Buffer): before the definition the Func already
// answers output_types(), outputs(), dimensions() and output_buffer(); a definition of other
// types or dimensions is refused with a message that says which and what to do.
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

TEST_CASE("an undefined Func without a declared type has none") {
    Func f("f");
    CHECK(!f.defined());
    CHECK(f.dimensions() == 0);
    CHECK(contains(thrown_message([&] { f.output_type(); }), "Func 'f' has no definition, so it has no type"));
    CHECK(contains(thrown_message([&] { f.output_buffer().dim(0); }), "output_buffer() of Func 'f', which has no definition yet"));
}

TEST_CASE("a typed Func reports its types and dimensions before it is defined") {
    Func f(Int(32), 2, "f");
    CHECK(!f.defined());
    CHECK(f.output_type() == Int(32));
    CHECK(f.output_types() == std::vector<Type>{Int(32)});
    CHECK(f.outputs() == 1);
    CHECK(f.dimensions() == 2);

    Func t({Int(32), Float(64)}, 3, "t");
    CHECK(!t.defined());
    CHECK(t.output_types() == std::vector<Type>{Int(32), Float(64)});
    CHECK(t.outputs() == 2);
    CHECK(t.dimensions() == 3);
    CHECK(contains(thrown_message([&] { t.output_type(); }), "use output_types()"));
}

TEST_CASE("the Func of an ImageParam records the image's type and dimensions") {
    ImageParam im(Int(32), 2, "im");
    Func f = im;
    CHECK(f.function()->required_types == std::vector<Type>{Int(32)});
    CHECK(f.function()->required_dimensions == 2);
}

TEST_CASE("output_buffer() constraints set before the definition hold after it") {
    Var x("x"), y("y");
    Func f(Int(32), 2, "f");
    f.output_buffer().dim(0).set_bounds(0, 10).dim(1).set_bounds(0, 10);
    f(x, y) = x + y;
    Buffer<int> b = f.realize({10, 10});
    CHECK(mismatches<int>(b, [](const std::vector<int> &c) { return c[0] + c[1]; }) == 0);
    std::string msg = thrown_message([&] { f.realize({10, 11}); });
    CHECK(contains(msg, "f"));
    CHECK(contains(msg, "extent"));
}

TEST_CASE("a typed Func defined with its types computes as any other, updates included") {
    Var x("x"), y("y");
    Func f(UInt(8), 2, "f");
    f(x, y) = cast<uint8_t>(x * 3 + y);
    f(x, y) += cast<uint8_t>(1);
    Buffer<uint8_t> b = f.realize({20, 30});
    CHECK(mismatches<uint8_t>(b, [](const std::vector<int> &c) { return uint8_t(c[0] * 3 + c[1] + 1); }) == 0);
    // Any number of dimensions (Halide's AnyDims is -1).
    Func g(Float(32), -1, "g");
    g(x) = cast<float>(x) / 2;
    Buffer<float> gb = g.realize({9});
    CHECK(mismatches<float>(gb, [](const std::vector<int> &c) { return float(c[0]) / 2; }) == 0);
}

TEST_CASE("a definition over other dimensions than declared is refused (Halide's func_expr_dim_mismatch)") {
    Var x("x"), y("y");
    Func f(Int(32), 1, "f");
    std::string msg = thrown_message([&] { f(x, y) = cast<int>(0); });
    CHECK(contains(msg, "Func 'f' was declared with 1 dimension (Func(type, 1, \"f\")), but its pure definition has 2; "
                        "define it over 1 Vars, or declare it with 2"));
    CHECK(!f.defined());
}

TEST_CASE("a definition of another type than declared is refused (Halide's func_expr_type_mismatch)") {
    Var x("x"), y("y");
    Func f(Float(32), 1, "f");
    std::string msg = thrown_message([&] { f(x) = cast<uint8_t>(0); });
    CHECK(contains(msg, "Func 'f' was declared to hold float32, but its pure definition has type uint8; wrap the value "
                        "in cast<float32>(...) or declare the Func with uint8"));
    Func t({UInt(8), Float(64)}, 2, "t");
    msg = thrown_message([&] { t(x, y) = Tuple(cast<uint8_t>(0), cast<float>(0)); });
    CHECK(contains(msg, "declared to hold float64 value 1, but its pure definition value 1 has type float32"));
    msg = thrown_message([&] { t(x, y) = cast<uint8_t>(0); });
    CHECK(contains(msg, "Func 't' was declared with 2 value types, but its pure definition gives 1 value"));
}

TEST_CASE("an update of other types than the Tuple's is refused (Halide's func_tuple_update_types_mismatch)") {
    Var x("x"), y("y");
    Func f({UInt(8), Float(64)}, 2, "f");
    f(x, y) = Tuple(cast<uint8_t>(0), cast<double>(0));
    std::string msg = thrown_message([&] { f(x, y) = Tuple(cast<int>(0), cast<float>(0)); });
    CHECK(contains(msg, "Func 'f': update definition 0 value 0 has type int32, but its pure definition value 0 has "
                        "type uint8"));
}

TEST_CASE("declared types and dimensions that cannot be are refused") {
    CHECK(contains(thrown_message([&] { Func f(std::vector<Type>{}, 2, "f"); }),
                   "Func 'f' declared with an empty list of required types"));
    CHECK(contains(thrown_message([&] { Func f(Int(32), -2, "f"); }),
                   "Func 'f' declared with -2 dimensions; give a count of 0 or more, or -1 (AnyDims) for any"));
}

TEST_CASE("Func(Buffer) is a Func of the buffer's values, over its dimensions") {
    Buffer<int> im(6, 4);
    im.for_each_element([&](const std::vector<int> &c) { im(c) = c[0] * 10 + c[1]; });
    Func f(im);
    CHECK(f.dimensions() == 2);
    CHECK(f.output_type() == Int(32));
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = f(x, y) * 2;
    Buffer<int> out = g.realize({6, 4});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return (c[0] * 10 + c[1]) * 2; }) == 0);
}
