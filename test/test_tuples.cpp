// Tuple-valued Funcs (Halide's Tuple): several values computed together at each point, one
// buffer per value, read with f(x)[i], realized into a Realization.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

namespace {

// Realizes f (Tuple-valued or not) over the region [mins, mins + sizes) compiled and with the
// reference evaluator, and compares every value's buffer.
void check_tuple_against_reference(Func f, const std::vector<int> &sizes, const std::vector<int> &mins,
                                   double tol = 0) {
    std::vector<Buffer<>> got, want;
    for (Type t : f.output_types()) {
        got.emplace_back(t, sizes);
        want.emplace_back(t, sizes);
        got.back().set_min(mins);
        want.back().set_min(mins);
    }
    Realization g(got), w(want);
    reference_realize(f, w);
    f.realize(g);
    for (size_t i = 0; i < got.size(); i++) {
        std::string err = halo_test::compare(got[i], want[i], tol);
        INFO("Func " << f.name() << " value " << i);
        CHECK_MESSAGE(err.empty(), err);
    }
}

}  // namespace

TEST_CASE("a Tuple-valued Func realizes into one buffer per value") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = {x + y, cast<float>(x * y) / 2, cast<uint8_t>(x)};
    CHECK(f.outputs() == 3);
    CHECK(f.output_types() == std::vector<Type>{Int(32), Float(32), UInt(8)});
    Realization r = f.realize({9, 7});
    REQUIRE(r.size() == 3);
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    Buffer<uint8_t> c = r[2];
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 9; i++) {
            CHECK(a(i, j) == i + j);
            CHECK(b(i, j) == float(i * j) / 2);
            CHECK(c(i, j) == i);
        }
    }
}

TEST_CASE("a Tuple update computes every value before writing any (a swap)") {
    Var x("x");
    Func f("f");
    f(x) = {x, x * 10};
    f(x) = {f(x)[1], f(x)[0]};
    Realization r = f.realize({6});
    Buffer<int> a = r[0], b = r[1];
    for (int i = 0; i < 6; i++) {
        CHECK(a(i) == i * 10);
        CHECK(b(i) == i);
    }
}

TEST_CASE("argmax as a Tuple reduction over an RDom") {
    Buffer<float> in = halo_test::random_image<float>({50}, 7, -100, 100);
    RDom r(0, 50, "r");
    Func best("best");
    best() = {0, in(0)};
    best() = {select(in(r) > best()[1], r, best()[0]), max(in(r), best()[1])};
    Realization out = best.realize(std::vector<int>{});
    Buffer<int> index = out[0];
    Buffer<float> value = out[1];
    int want = 0;
    for (int i = 1; i < 50; i++) {
        if (in(i) > in(want)) want = i;
    }
    CHECK(index() == want);
    CHECK(value() == in(want));
}

TEST_CASE("a Tuple-valued producer computed at a consumer's tiles, vectorized, at odd sizes and negative mins") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int> in = halo_test::int_buffer_at(90, 80, -20, -15);
    halo_test::fill_random(in, -50, 50, 3);
    Func pair("pair"), out("out");
    pair(x, y) = {in(x, y) + in(x + 1, y), in(x, y) * in(x, y + 1)};
    pair(x, y) = {pair(x, y)[0] - pair(x, y)[1], pair(x, y)[1] + 3};
    out(x, y) = pair(x - 1, y)[0] + pair(x + 1, y + 1)[1] * 2;
    out.tile(x, y, xo, yo, xi, yi, 8, 8).vectorize(xi, 4);
    pair.compute_at(out, xo).vectorize(x, 4);
    pair.update().vectorize(x, 4);
    Buffer<int> dst = halo_test::int_buffer_at(37, 29, -13, -9);
    halo_test::check_against_reference(out, dst);
}

TEST_CASE("an inlined Tuple-valued Func: each value is inlined where it is read") {
    Var x("x"), y("y");
    Func sc("sc"), out("out");
    sc(x, y) = {sin(cast<float>(x) * 0.1f), cos(cast<float>(y) * 0.2f)};
    out(x, y) = sc(x, y)[0] * sc(x, y)[0] + sc(x, y)[1];
    // (a * a + b may be a fused multiply-add in compiled code)
    check_tuple_against_reference(out, {13, 11}, {-4, 3}, 1e-6);
    CHECK(!contains(out.lowered_stmt(), "allocate sc"));
}

TEST_CASE("a Tuple-valued output with updates, tiled and parallel, over non-zero mins") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<uint8_t> in = halo_test::random_image<uint8_t>({40, 30}, 11, 0, 255);
    Func f("f");
    RDom r(-1, 3, "r");
    f(x, y) = {cast<int>(in(x, y)), cast<float>(0)};
    f(x, y) = {f(x, y)[0] + cast<int>(in(x + r, y)), f(x, y)[1] + cast<float>(in(x, y + r)) * 0.5f};
    f.tile(x, y, xo, yo, xi, yi, 8, 4).parallel(yo).vectorize(xi, 4);
    check_tuple_against_reference(f, {30, 20}, {3, 5});
    check_tuple_against_reference(f, {9, 5}, {2, 1});
}

TEST_CASE("a wrapper of a Tuple-valued Func copies every value") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = {x * 2 + y, x - y};
    g(x, y) = f(x, y)[0] * f(x + 1, y)[1];
    f.compute_root();
    f.in(g).compute_at(g, y);
    check_tuple_against_reference(g, {10, 6}, {-2, 0});
    CHECK(contains(g.lowered_stmt(), "allocate f_in_g.1"));
}

TEST_CASE("a Tuple-valued Func stores each value in a buffer of its own (f.0, f.1)") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = {x, cast<double>(x)};
    g(x) = cast<double>(f(x)[0]) + f(x)[1];
    f.compute_root();
    std::string stmt = g.lowered_stmt();
    CHECK(contains(stmt, "allocate f.0[int32"));
    CHECK(contains(stmt, "allocate f.1[float64"));
}

TEST_CASE("Tuple t = f(x) reads every value, Func::values() gives the definition") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = {x + 1, x * 3};
    Tuple t = f(x);
    CHECK(t.size() == 2);
    g(x) = t[0] + t[1];
    Buffer<int> out = g.realize({5});
    for (int i = 0; i < 5; i++) CHECK(out(i) == i + 1 + i * 3);
    CHECK(f.values().size() == 2);
    // Copying a Tuple-valued Func: h(x) = f(x) defines every value.
    Func h("h");
    h(x) = f(x);
    CHECK(h.outputs() == 2);
}

TEST_CASE("errors: a Tuple-valued Func used as one Expr names the Func and the fix") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = {x, x};
    std::string msg = compile_error_of([&] { g(x) = f(x) + 1; });
    CHECK(contains(msg, "Func 'f' is Tuple-valued (2 values) and is used as one Expr"));
    CHECK(contains(msg, "f(...)[i]"));
    msg = compile_error_of([&] { g(x) = f(x)[2]; });
    CHECK(contains(msg, "Func 'f' has 2 values; f(...)[2] does not exist"));
    msg = compile_error_of([&] { (void)f.value(); });
    CHECK(contains(msg, "use values() instead of value()"));
    msg = compile_error_of([&] { (void)f.output_type(); });
    CHECK(contains(msg, "use output_types()"));
    msg = compile_error_of([&] { f(x) += 1; });
    CHECK(contains(msg, "Func 'f' is Tuple-valued (2 values); += updates one value"));
}

TEST_CASE("errors: an update with the wrong number or types of values") {
    Var x("x");
    Func f("f");
    f(x) = {x, cast<float>(x)};
    std::string msg = compile_error_of([&] { f(x) = f(x)[0] + 1; });
    CHECK(contains(msg, "update definition 0 has 1 value, but its pure definition has 2"));
    msg = compile_error_of([&] { f(x) = {f(x)[0], f(x)[0]}; });
    CHECK(contains(msg, "update definition 0 value 1 has type int32, but its pure definition value 1 has type float32"));
}

TEST_CASE("errors: realizing a Tuple into the wrong buffers") {
    Var x("x");
    Func f("f");
    f(x) = {x, cast<float>(x)};
    Buffer<int> one({4});
    std::string msg = compile_error_of([&] { f.realize(one); });
    CHECK(contains(msg, "Func 'f' has 2 values but is realized into 1 buffer"));
    Buffer<int> a({4});
    Buffer<int> wrong_type({4});
    msg = compile_error_of([&] { f.realize(Realization(a, wrong_type)); });
    CHECK(contains(msg, "Func 'f' value 1 has type float32 but is realized into Buffer"));
    Buffer<float> shorter({3});
    msg = runtime_error_of([&] { f.realize(Realization(a, shorter)); });
    CHECK(contains(msg, "the output buffers of Tuple-valued Func 'f' must cover the same region"));
    CHECK(contains(msg, "value 1 has dimension 0 at [0, 2] where the buffer of value 0 has [0, 3]"));
    msg = compile_error_of([&] { Buffer<int> b = f.realize({4}); });
    CHECK(contains(msg, "a Realization of 2 buffers converted to one Buffer"));
}

TEST_CASE("Tuple updates: f(x) += {a, b} and the other operators, on defined and undefined Funcs") {
    Var x("x");
    RDom r(0, 5, "r");
    Func f("f"), g("g"), h("h");
    f(x) = Tuple(x, cast<float>(x));
    f(x) += Tuple(r, 0.5f);           // each value with its element, over r
    f(x) *= Tuple(2, 2.0f);
    g(x) += Tuple(x + r, cast<float>(r));  // undefined: starts from zeros
    h(x) = Tuple(x, 1.0f);
    h(x) -= g(x);  // a Tuple-valued Func on the right
    Realization fr = f.realize({6}), gr = g.realize({6}), hr = h.realize({6});
    Buffer<int> f0 = fr[0], g0 = gr[0], h0 = hr[0];
    Buffer<float> f1 = fr[1], g1 = gr[1], h1 = hr[1];
    for (int k = 0; k < 6; k++) {
        CHECK(f0(k) == (k + 10) * 2);
        CHECK(f1(k) == (float(k) + 2.5f) * 2.0f);
        CHECK(g0(k) == 5 * k + 10);
        CHECK(g1(k) == 10.0f);
        CHECK(h0(k) == k - (5 * k + 10));
        CHECK(h1(k) == 1.0f - 10.0f);
    }
    std::string msg = halo_test::compile_error_of([&] { f(x) += Tuple(x, x, x); });
    CHECK(halo_test::contains(msg, "Func 'f' has 2 values but += gives a Tuple of 3"));
}

TEST_CASE("a Tuple of one element, and an RDom over an ImageParam") {
    Var x("x");
    Func f("f");
    f(x) = Tuple(x * 2);
    Buffer<int> out = f.realize({5});
    CHECK(out(4) == 8);
    ImageParam in(Int(32), 2, "in");
    Func total("total");
    RDom r(in);
    total() = 0;
    total() += in(r.x, r.y);
    Buffer<int> b(7, 3);
    b.set_min({-2, 5});
    int want = 0;
    b.for_each_element([&](const std::vector<int> &c) { b(c[0], c[1]) = c[0] * 10 + c[1]; want += c[0] * 10 + c[1]; });
    in.set(b);
    Buffer<int> t = total.realize(std::vector<int>{});
    CHECK(t() == want);
}

TEST_CASE("conditionally-undef Tuple values need one condition, as in Halide") {
    Var x("x");
    Func f("f");
    f(x) = {x, x * 2};
    // One condition for both values: the update stores both where x is even.
    f(x) = {select(x % 2 == 0, f(x)[0] + 100, undef<int>()), select(x % 2 == 0, f(x)[1] + 1, undef<int>())};
    Realization r = f.realize({7});
    Buffer<int> a = r[0], b = r[1];
    for (int i = 0; i < 7; i++) {
        CHECK(a(i) == (i % 2 == 0 ? i + 100 : i));
        CHECK(b(i) == (i % 2 == 0 ? 2 * i + 1 : 2 * i));
    }
    // A wholly undef() value leaves that value as it is, whatever the others' condition.
    Func g("g");
    g(x) = {x, x};
    g(x) = {undef<int>(), select(x < 3, g(x)[1] * 10, undef<int>())};
    Realization rg = g.realize({5});
    Buffer<int> g1 = rg[1];
    for (int i = 0; i < 5; i++) CHECK(g1(i) == (i < 3 ? 10 * i : i));
    // Different conditions are refused, naming the Func and both conditions.
    Func h("h");
    h(x) = {x, x};
    std::string msg = halo_test::compile_error_of(
        [&] { h(x) = {select(x < 3, h(x)[0] + 1, undef<int>()), select(x < 4, h(x)[1] + 1, undef<int>())}; });
    CHECK(msg.find("Func 'h': conditionally-undef values in a Tuple must have the same conditions") != std::string::npos);
    CHECK(msg.find("value 1 is defined where (x < 4), value 0 where (x < 3)") != std::string::npos);
}

TEST_CASE("a call of a Tuple-valued Func prints which value it reads, [0] included") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = Tuple(x, x * 2);
    g(x) = x;
    std::ostringstream os;
    os << (f(x)[0] + f(x)[1] + g(x));
    CHECK(os.str() == "((f(x)[0] + f(x)[1]) + g(x))");
}
