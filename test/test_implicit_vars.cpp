// Halide's implicit arguments: the placeholder _ in calls and on the left side of a pure
// definition, the implicit Vars _0, _1, ... it stands for (scheduled by those names), and the
// errors for their misuse. Results against plain C++ and the reference evaluator, at non-zero
// buffer mins.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

Buffer<int> image3(int w, int h, int c) {
    Buffer<int> b(std::vector<int>{w, h, c}, "im3");
    b.for_each_element([&](int x, int y, int z) { b(x, y, z) = x * 100 + y * 10 + z; });
    return b;
}

}  // namespace

TEST_CASE("f(x, _) = g(x, _) gives f the implicit Vars of a 3-D g, in order") {
    Buffer<int> in = image3(9, 7, 3);
    Var x("x");
    Func g("g"), f("f");
    g(x, _) = in(x, _) * 2;
    f(x, _) = g(x, _) + 1;
    CHECK(g.dimensions() == 3);
    CHECK(f.dimensions() == 3);
    REQUIRE(f.args().size() == 3);
    CHECK(f.args()[1].name() == "_0");
    CHECK(f.args()[2].name() == "_1");
    Buffer<int> out(std::vector<int>{6, 5, 3});
    out.set_min(2, 1, 0);
    f.realize(out);
    out.for_each_element([&](int xx, int y, int c) { CHECK(out(xx, y, c) == in(xx, y, c) * 2 + 1); });
    halo_test::check_against_reference(f, out);
}

TEST_CASE("the placeholder alone, in the middle, and scheduled through _0 and _1") {
    Buffer<int> in = image3(16, 6, 4);
    ImageParam ip(Int(32), 3, "ip3");
    ip.set(in);
    Var c("c");
    Func all("all"), mid("mid");
    all(_) = ip(_) - 5;
    mid(_, c) = ip(_, 3 - c) * 3;
    CHECK(all.dimensions() == 3);
    REQUIRE(mid.dimensions() == 3);
    CHECK(mid.args()[0].name() == "_0");
    CHECK(mid.args()[1].name() == "_1");
    CHECK(mid.args()[2].name() == "c");
    all.vectorize(_0, 8).parallel(_2);
    mid.split(_1, Var("yo"), Var("yi"), 4, TailStrategy::GuardWithIf).vectorize(_0, 4);
    Buffer<int> a = all.realize({16, 6, 4}), m = mid.realize({16, 6, 4});
    a.for_each_element([&](int x, int y, int z) { CHECK(a(x, y, z) == in(x, y, z) - 5); });
    m.for_each_element([&](int x, int y, int z) { CHECK(m(x, y, z) == in(x, y, 3 - z) * 3); });
    halo_test::check_against_reference(mid, Buffer<int>(std::vector<int>{16, 6, 4}));
}

TEST_CASE("the placeholder in updates and in calls of a defined Func, a right side without implicit Vars") {
    Buffer<int> in = image3(5, 4, 2);
    Var x("x");
    Func f("f_upd"), h("h"), only_x("only_x");
    h(x, _) = in(x, _) + 1000;
    f(x, _) = h(x, _);
    f(x, _) += h(4 - x, _) * 2;
    only_x(x, _) = x * 7;  // the right side uses no implicit Var: a 1-D Func
    CHECK(only_x.dimensions() == 1);
    Buffer<int> out = f.realize({5, 4, 2});
    out.for_each_element([&](int xx, int y, int c) { CHECK(out(xx, y, c) == in(xx, y, c) + 1000 + (in(4 - xx, y, c) + 1000) * 2); });
    Buffer<int> o = only_x.realize({3});
    CHECK(o(2) == 14);
}

TEST_CASE("misuse of the placeholder is an error that says what to write") {
    Buffer<int> in = image3(4, 4, 2);
    Var x("x");
    Func g("g_pl"), f("f_pl");
    g(x, _) = in(x, _);
    std::string msg = compile_error_of([&] { f(x) = g(x, _); });
    CHECK(contains(msg, "Func 'f_pl': its pure definition uses the implicit Var _0"));
    CHECK(contains(msg, "write f_pl(..., _) = ..."));
    CHECK(contains(compile_error_of([&] { (void)Expr(g(_, x, _)); }), "Func 'g_pl' is called with the placeholder _ twice"));
    CHECK(contains(compile_error_of([&] { (void)in(x, x, x, x, _); }),
                   "Buffer 'im3' has 3 dimensions but is called with 4 arguments besides the placeholder _"));
    ImageParam ip(Int(32), 2, "ip2");
    CHECK(contains(compile_error_of([&] { (void)ip(x, x, x, _); }),
                   "ImageParam 'ip2' has 2 dimensions but is called with 3 arguments besides the placeholder _"));
}

TEST_CASE("the first f(x, _) += of an undefined Func takes the implicit Vars of its right side") {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    h(x, y) = x + y;
    f(x, _) += h(_) + 2;  // f(x, _0, _1) = 0; f(x, _0, _1) += h(_0, _1) + 2
    g(_) *= h(_);         // g(_0, _1) = 1; g(_0, _1) *= h(_0, _1)
    REQUIRE(f.dimensions() == 3);
    Buffer<int> out = f.realize({3, 4, 5});
    out.for_each_element([&](const std::vector<int> &c) { CHECK(out(c[0], c[1], c[2]) == c[1] + c[2] + 2); });
    Buffer<int> go = g.realize({4, 5});
    CHECK(go(3, 4) == 7);
}
