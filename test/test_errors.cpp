// User mistakes: each must throw (CompileError, or RuntimeError for run-time checks) with a
// message that names the Func (or input) and says what is wrong.
#include "TestUtil.h"

#include <string>

using namespace halo;
using halo_test::compile_error_of;

namespace {

bool has(const std::string &msg, const std::string &part) { return msg.find(part) != std::string::npos; }

template <typename F>
std::string runtime_error_of(F fn) {
    try {
        fn();
    } catch (const halo::RuntimeError &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("calling a Func that has no definition") {
    Var x("x");
    Func f("f"), g("g");
    std::string msg = compile_error_of([&] {
        g(x) = f(x) + 1;
        g.realize({10});
    });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "no definition"));
}

TEST_CASE("a Func used in an expression before its definition, which would fix its type") {
    Var x("x");
    Func f("early"), g("g");
    std::string msg = compile_error_of([&] {
        Expr e = f(x) * 2.0f;  // f's type is not known yet
        f(x) = cast<float>(x);
        g(x) = e;
    });
    INFO(msg);
    CHECK(has(msg, "'early'"));
    CHECK(has(msg, "no definition yet"));
    CHECK(has(msg, "Define it"));
}

TEST_CASE("realizing a Func that has no definition") {
    Func f("lonely");
    std::string msg = compile_error_of([&] { f.realize({10}); });
    INFO(msg);
    CHECK(has(msg, "'lonely'"));
    CHECK(has(msg, "no definition"));
}

TEST_CASE("calling a Func with the wrong number of arguments") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    std::string msg = compile_error_of([&] {
        g(x) = f(x) * 2;
        g.realize({10});
    });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "argument"));
    CHECK(has(msg, "2"));
    // Too many, too.
    msg = compile_error_of([&] {
        Var z("z");
        g(x) = f(x, x, z);
    });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "argument"));
}

TEST_CASE("an update whose type differs from the pure definition") {
    Var x("x");
    Func f("f");
    f(x) = 0;
    std::string msg = compile_error_of([&] { f(x) = f(x) + 1.5f; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "type"));
    CHECK(has(msg, "float32") + has(msg, "Float") + has(msg, "float") > 0);
}

TEST_CASE("an update with the wrong number of arguments") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = 0;
    std::string msg = compile_error_of([&] { f(x) += 1; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "argument"));
}

TEST_CASE("using an RDom variable in a pure definition") {
    Var x("x");
    RDom r(0, 10);
    Func f("f");
    std::string msg = compile_error_of([&] { f(x) = r.x + x; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "RVar"));
}

TEST_CASE("a pure definition that refers to itself") {
    Var x("x");
    Func f("f");
    std::string msg = compile_error_of([&] { f(x) = f(x - 1) + 1; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "cannot refer to itself"));
}

TEST_CASE("a pure definition using a Var that is not an argument") {
    Var x("x"), y("y");
    Func f("f");
    std::string msg = compile_error_of([&] { f(x) = x + y; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "'y'"));
}

TEST_CASE("an update using a pure Var that is not on its left side") {
    Var x("x"), y("y");
    RDom r(0, 5);
    Func f("f");
    f(x) = 0;
    std::string msg = compile_error_of([&] { f(r) = x + r; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "'x'"));
}

TEST_CASE("an update using RVars of two RDoms") {
    Var x("x");
    RDom r1(0, 5, "r1"), r2(0, 3, "r2");
    Func f("f");
    f(x) = 0;
    std::string msg = compile_error_of([&] { f(r1) += r2; });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "RDom"));
}

TEST_CASE("an inline reduction without an RVar") {
    Var x("x");
    std::string msg = compile_error_of([&] { Expr e = sum(x * 2); });
    INFO(msg);
    CHECK(has(msg, "sum"));
    CHECK(has(msg, "RVar"));
}

TEST_CASE("a float index into a Func, Buffer or ImageParam") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    std::string msg = compile_error_of([&] { g(x) = f(x * 0.5f); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "integer"));
    Buffer<int32_t> b(std::vector<int>{10}, "bufname");
    msg = compile_error_of([&] { g(x) = b(x * 0.5f); });
    CHECK(has(msg, "bufname"));
    ImageParam in(Int(32), 1, "imgname");
    msg = compile_error_of([&] { g(x) = in(x * 0.5f); });
    CHECK(has(msg, "imgname"));
}

TEST_CASE("realizing a size the Buffer input cannot cover") {
    Buffer<int32_t> input(std::vector<int>{10}, "input");
    input.fill(1);
    Var x("x");
    Func g("g");
    g(x) = input(x) + input(x + 2);
    CHECK_NOTHROW(g.realize({8}));
    std::string msg = runtime_error_of([&] { g.realize({10}); });  // needs [0, 11]
    INFO(msg);
    CHECK(has(msg, "'input'"));
    CHECK(has(msg, "covers"));
    CHECK(has(msg, "'g'"));
    CHECK(has(msg, "11"));
}

TEST_CASE("an ImageParam too small in y, with non-zero mins") {
    Buffer<float> buf(20, 10);
    buf.set_min(-5, 3);
    ImageParam in(Float(32), 2, "photo");
    in.set(buf);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y - 1);
    Buffer<float> out(20, 10);
    out.set_min(-5, 3);  // needs y in [2, 11], the input has [3, 12]
    std::string msg = runtime_error_of([&] { f.realize(out); });
    INFO(msg);
    CHECK(has(msg, "'photo'"));
    CHECK(has(msg, "covers dimension 1 in [3, 12]"));
    CHECK(has(msg, "needs [2, 11]"));
    // Shifted output region that fits: no error.
    out.set_min(-5, 4);
    CHECK_NOTHROW(f.realize(out));
}

TEST_CASE("an ImageParam with no Buffer bound") {
    ImageParam in(UInt(8), 2, "unbound_input");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y);
    std::string msg;
    try {
        f.realize({4, 4});
    } catch (const std::exception &e) {
        msg = e.what();
    }
    INFO(msg);
    CHECK(has(msg, "unbound_input"));
}

TEST_CASE("binding an ImageParam to a buffer of the wrong type or dimensions") {
    ImageParam in(UInt(8), 2, "in8");
    Buffer<float> wrong_type(4, 4);
    Buffer<uint8_t> wrong_dims(4, 4, 3);
    std::string msg = compile_error_of([&] { in.set(wrong_type); });
    INFO(msg);
    CHECK(has(msg, "'in8'"));
    CHECK(has(msg, "type"));
    msg = compile_error_of([&] { in.set(wrong_dims); });
    CHECK(has(msg, "'in8'"));
    CHECK(has(msg, "dimensions"));
}

TEST_CASE("realizing into a buffer of the wrong type or dimensions") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    Buffer<float> bf(4, 4);
    std::string msg = compile_error_of([&] { f.realize(bf); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "type"));
    Buffer<int32_t> b1(4);
    msg = compile_error_of([&] { f.realize(b1); });
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "dimensions"));
    msg = compile_error_of([&] { f.realize({4, 4, 4}); });
    CHECK(has(msg, "'f'"));
}

TEST_CASE("compute_inline of a Func with update definitions") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    f(x) += 1;
    f.compute_inline();
    g(x) = f(x);
    std::string msg = compile_error_of([&] { g.realize({10}); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "update"));
}

TEST_CASE("split of a variable that does not exist lists the loops") {
    Var col("col"), row("row"), nope("nope"), a("col_outer"), b("col_inner");
    Func f("f");
    f(col, row) = col + row;
    std::string msg = compile_error_of([&] { f.split(nope, a, b, 4); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "nope"));
    CHECK(has(msg, "col"));
    CHECK(has(msg, "row"));
    // After a split, the old name is gone.
    f.split(col, a, b, 4);
    msg = compile_error_of([&] { f.vectorize(col); });
    INFO(msg);
    CHECK(has(msg, "col"));
    CHECK(has(msg, "col_outer"));
    CHECK(has(msg, "col_inner"));
}

TEST_CASE("vectorize, unroll and split with a non-positive factor") {
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x;
    std::string msg = compile_error_of([&] { f.vectorize(x, 0); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "vectorize"));
    CHECK(has(msg, "positive"));
    msg = compile_error_of([&] { f.unroll(x, -2); });
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "unroll"));
    msg = compile_error_of([&] { f.split(x, xo, xi, 0); });
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "split"));
}

TEST_CASE("parallel or vectorize over an RVar") {
    Var x("x");
    RDom r(0, 10);
    Func f("f");
    f(x) = 0;
    f(r) = f(r - 1) + 1;
    std::string msg = compile_error_of([&] { f.update(0).parallel(r.x); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "RVar"));
    CHECK(has(msg, "parallel"));
    msg = compile_error_of([&] { f.update(0).vectorize(r.x); });
    CHECK(has(msg, "RVar"));
    CHECK(has(msg, "rfactor"));
    // Each iteration with points of its own: allowed (as in Halide).
    Func g("g");
    g(x) = x;
    g(r) = g(r) * 3 + r;
    CHECK(compile_error_of([&] { g.update(0).parallel(r.x); }).empty());
    // Reading a neighbour (another iteration's point): refused.
    Func h("h");
    h(x) = x;
    h(r) = h(r) + h(r + 1);
    CHECK(has(compile_error_of([&] { h.update(0).vectorize(r.x, 4); }), "'h'"));
    // An argument affine in the RVar with a nonzero coefficient also gives each iteration a
    // point of its own (Halide's interleave test vectorizes o(2 * r) = ...): allowed, and right.
    Func o("o");
    o(x) = x;
    o(2 * r + 1) = o(2 * r + 1) * 10;
    o(7 - 3 * r) = r;
    CHECK(compile_error_of([&] {
        o.update(0).vectorize(r.x, 4);
        o.update(1).parallel(r.x);
    }).empty());
    Buffer<int> out(50);  // the updates write [-20, 19]
    out.set_min(-25);
    halo_test::check_against_reference(o, out);
    // Not when its coefficient is 0 (r - r), the read is elsewhere, or it is not affine (r % 4).
    for (Expr lhs : {Expr(r.x) - r.x + 3, r.x % 4, r.x * r.x}) {
        Func k("k");
        k(x) = x;
        k(lhs) = k(lhs) + 1;
        std::string m = compile_error_of([&] { k.update(0).vectorize(r.x, 4); });
        INFO(lhs);
        CHECK(has(m, "affine function of it"));
    }
    Func n("n");
    n(x) = x;
    n(2 * r) = n(2 * r + 2) + 1;
    CHECK(has(compile_error_of([&] { n.update(0).parallel(r.x); }), "'n'"));
}

TEST_CASE("update(i) that does not exist") {
    Var x("x");
    Func f("f");
    f(x) = 0;
    f(x) += 1;
    std::string msg = compile_error_of([&] { f.update(1); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
}

TEST_CASE("a data-dependent, unbounded index into a compute_root Func") {
    Buffer<int32_t> data(std::vector<int>{16}, "idx");
    data.fill(3);
    Var x("x");
    Func f("f"), g("g");
    f(x) = x * 2;
    f.compute_root();
    g(x) = f(data(x));
    std::string msg = compile_error_of([&] { g.realize({16}); });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK((has(msg, "clamp") || has(msg, "bound")));
    // The suggested fix works.
    Func g2("g2"), f2("f2");
    f2(x) = x * 2;
    f2.compute_root();
    g2(x) = f2(clamp(data(x), 0, 100));
    Buffer<int32_t> out = g2.realize({16});
    CHECK(out(5) == 6);
}

TEST_CASE("compute_at a loop that does not exist or a Func that does not use it") {
    Var x("x"), y("y"), nope("nope");
    Func f("f"), g("g"), h("h");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + 1;
    h(x, y) = x * y;
    std::string msg = compile_error_of([&] {
        f.compute_at(g, nope);
        g.realize({4, 4});
    });
    INFO(msg);
    CHECK(has(msg, "'f'"));
    CHECK(has(msg, "nope"));
    Func f3("f3"), g3("g3"), h3("h3");
    f3(x, y) = x + y;
    h3(x, y) = x * y;
    g3(x, y) = f3(x, y) + 1;
    msg = compile_error_of([&] {
        f3.compute_at(h3, x);  // h3 does not call f3 and is not in the pipeline
        g3.realize({4, 4});
    });
    INFO(msg);
    CHECK(has(msg, "'f3'"));
}

TEST_CASE("a literal that does not fit the other operand's type") {
    Param<uint8_t> p("p");
    std::string msg = compile_error_of([&] { Expr e = Expr(p) + 1000; });
    INFO(msg);
    CHECK(has(msg, "1000"));
    CHECK(has(msg, "uint8"));
}

TEST_CASE("a Buffer converted to the wrong element type") {
    Buffer<> dyn(Float(32), {4, 4});
    std::string msg = compile_error_of([&] { Buffer<uint8_t> b(dyn); });
    INFO(msg);
    CHECK(has(msg, "float32"));
}

TEST_CASE("element access outside a Buffer") {
    Buffer<int32_t> b(std::vector<int>{5, 5}, "small");
    b.set_min(2, 0);
    std::string msg = compile_error_of([&] { b(1, 0) = 3; });
    INFO(msg);
    CHECK(has(msg, "small"));
    CHECK(has(msg, "1"));
}

TEST_CASE("realizing into wrapped memory with a negative extent is a bad-extent error") {
    std::vector<int32_t> mem(16, 7);
    halo_dimension_t shape[] = {{0, 4, 1, 0}, {0, -3, 4, 0}};
    Buffer<int32_t> out(mem.data(), 2, shape, "neg_out");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    int code = 0;
    std::string msg;
    try {
        f.realize(out);
    } catch (const halo::RuntimeError &e) {
        code = e.code;
        msg = e.what();
    }
    CHECK(code == halo_error_code_bad_extent);
    CHECK_MESSAGE(has(msg, "buffer 'f' has extent -3 in dimension 1: extents must be 0 or more"), msg);
    CHECK(mem[0] == 7);
}

TEST_CASE("an ImageParam bound to wrapped memory with a negative extent is a bad-extent error") {
    std::vector<float> mem(64, 1.0f);
    halo_dimension_t shape[] = {{0, -2, 1, 0}, {0, 8, 8, 0}};
    Buffer<float> bad(mem.data(), 2, shape);
    ImageParam in(Float(32), 2, "negative_photo");
    in.set(bad);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 2.0f;
    int code = 0;
    std::string msg;
    try {
        f.realize({4, 4});
    } catch (const halo::RuntimeError &e) {
        code = e.code;
        msg = e.what();
    }
    CHECK(code == halo_error_code_bad_extent);
    CHECK_MESSAGE(has(msg, "buffer 'negative_photo' has extent -2 in dimension 0: extents must be 0 or more"), msg);
}

TEST_CASE("wrapped memory whose last coordinate does not fit in 32 bits is a bad-extent error") {
    // min + extent - 1 wraps to a negative max in 32 bits, which would pass the bounds checks.
    std::vector<float> mem(64, 1.0f);
    halo_dimension_t shape[] = {{2147483646, 5, 1, 0}, {0, 8, 8, 0}};
    Buffer<float> huge(mem.data(), 2, shape);
    ImageParam in(Float(32), 2, "wrapping");
    in.set(huge);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y);
    std::string msg = runtime_error_of([&] { f.realize({4, 4}); });
    CHECK_MESSAGE(has(msg, "buffer 'wrapping' has min 2147483646 and extent 5 in dimension 0: its last "
                           "coordinate 2147483650 does not fit in 32 bits"),
                  msg);
}

TEST_CASE("an output Func named like an input buffer is refused, and the input stays untouched") {
    // The Func's buffer and the input were one buffer in the generated code: the pipeline
    // read its own output and wrote over the caller's input. (Halide 14 gives out(x) = in(x)
    // here, without the + 1.)
    Buffer<float> in(std::vector<int>{8}, "g");
    for (int i = 0; i < 8; i++) in(i) = float(i) * 10;
    Var x("x");
    Func g("g");
    g(x) = in(x) + 1;
    std::string msg = compile_error_of([&] { g.realize({8}); });
    INFO(msg);
    CHECK(has(msg, "input buffer 'g' has the same name as the pipeline's output Func 'g'"));
    CHECK(has(msg, "give them distinct names"));
    for (int i = 0; i < 8; i++) CHECK(in(i) == float(i) * 10);
    Param<int> k("k");
    Func kout("k");
    kout(x) = x + k;
    msg = compile_error_of([&] { kout.realize({4}); });
    CHECK(has(msg, "Param 'k' has the same name as the pipeline's output Func 'k'"));
}

TEST_CASE("a non-output Func named like an input buffer or Param is renamed in lowering, as in Halide") {
    // Halide names a Func made after ImageParam "foo" foo$1; lowering's copies do the same.
    Buffer<float> in(std::vector<int>{8}, "g");
    for (int i = 0; i < 8; i++) in(i) = float(i) * 10;
    Var x("x");
    Func g("g"), out("out");
    g(x) = in(x) + 1;
    out(x) = g(x) * 2 + in(x);
    g.compute_root();
    Buffer<float> o = out.realize({8});
    for (int i = 0; i < 8; i++) {
        CHECK(o(i) == (float(i) * 10 + 1) * 2 + float(i) * 10);
        CHECK(in(i) == float(i) * 10);
    }
    Param<int> k("k");
    k.set(5);
    Func kf("k"), kout("kout");
    kf(x) = x + k;
    kout(x) = kf(x);
    Buffer<int> ko = kout.realize({4});
    for (int i = 0; i < 4; i++) CHECK(ko(i) == i + 5);
}
