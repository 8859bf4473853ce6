// Inputs given for one call (ParamMap): they replace the values set on the parameters for that
// call only, and a wrong mapping is refused with a message naming the parameter.
#include <doctest/doctest.h>

#include "Halo.h"
#include "TestUtil.h"

using namespace halo;

TEST_CASE("a ParamMap gives one call its scalars and buffers, and leaves the parameters as set") {
    ImageParam in(Int(32), 1, "in");
    Param<int> offset("offset");
    Param<float> scale("scale");
    Var x("x");
    Func f("f");
    f(x) = cast<int>(cast<float>(in(x) + offset) * scale);

    Buffer<int> set_input(8), mapped_input(8);
    for (int i = 0; i < 8; i++) {
        set_input(i) = i;
        mapped_input(i) = 100 + i;
    }
    in.set(set_input);
    offset.set(1);
    scale.set(2.0f);

    // Everything mapped: the map's values.
    Buffer<int> a = f.realize({8}, {{in, mapped_input}, {offset, 10}, {scale, 3}});
    // Nothing mapped: the values set.
    Buffer<int> b = f.realize({8});
    // Partly mapped (with set()): the rest as set.
    ParamMap only_offset;
    only_offset.set(offset, -5);
    Buffer<int> c(8);
    f.realize(c, only_offset);
    for (int i = 0; i < 8; i++) {
        CHECK(a(i) == (100 + i + 10) * 3);
        CHECK(b(i) == (i + 1) * 2);
        CHECK(c(i) == (i - 5) * 2);
    }
    // The parameters themselves were not changed by the maps.
    CHECK(offset.get() == 1);
    CHECK(scale.get() == 2.0f);
    CHECK(in.get().contents == set_input.contents);
    CHECK(f.function()->pipeline->compile_count() == 1);
}

TEST_CASE("a ParamMap's later mapping of a parameter replaces the earlier one") {
    Param<int> k("k");
    Var x("x");
    Func f("f");
    f(x) = x * k;
    ParamMap m;
    m.set(k, 2);
    m.set(k, 7);
    CHECK(m.size() == 1);
    Buffer<int> out = f.realize({4}, m);
    CHECK(out(3) == 21);
}

TEST_CASE("an input buffer given only in the ParamMap is bounds-checked like a set one") {
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x + 1, y);
    Buffer<uint8_t> small(4, 4);
    std::string msg = halo_test::runtime_error_of([&] { f.realize({4, 4}, {{in, small}}); });
    CHECK(msg.find("'in'") != std::string::npos);
    Buffer<uint8_t> big(5, 4);
    for (int yy = 0; yy < 4; yy++) {
        for (int xx = 0; xx < 5; xx++) big(xx, yy) = uint8_t(xx + 10 * yy);
    }
    Buffer<uint8_t> out = f.realize({4, 4}, {{in, big}});
    CHECK(out(3, 2) == 24);
}

TEST_CASE("a ParamMap mapping a buffer of the wrong type or dimensions names the ImageParam") {
    ImageParam in(Float(32), 2, "weights");
    Buffer<int> wrong_type(3, 3);
    Buffer<float> wrong_dims(9);
    std::string type_msg = halo_test::compile_error_of([&] { ParamMap m{{in, wrong_type}}; });
    CHECK(type_msg.find("ImageParam 'weights' has type float32 but was mapped to Buffer") != std::string::npos);
    std::string dims_msg = halo_test::compile_error_of([&] {
        ParamMap m;
        m.set(in, wrong_dims);
    });
    CHECK(dims_msg.find("ImageParam 'weights' has 2 dimensions but was mapped to Buffer") != std::string::npos);
}

TEST_CASE("an ImageParam neither set nor mapped is an error that says how to give it") {
    ImageParam in(Int(16), 1, "samples");
    Var x("x");
    Func f("f");
    f(x) = in(x) * 2;
    std::string msg = halo_test::runtime_error_of([&] { f.realize({4}); });  // (a RuntimeError, as in Halide)
    CHECK(msg.find("ImageParam 'samples' is used by Func 'f' but no Buffer is bound to it") != std::string::npos);
    CHECK(msg.find("ParamMap") != std::string::npos);
}

TEST_CASE("realize with a Target compiles for it and takes the ParamMap") {
    Param<int> k("k");
    Var x("x");
    Func f("f");
    f(x) = x + k;
    Buffer<int> out = f.realize({4}, Target(), {{k, 5}});
    CHECK(out(2) == 7);
}
