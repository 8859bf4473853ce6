// The simplifier decides comparisons over the ranges of the enclosing loops (those with a
// constant min and extent), through lets: the guards of GuardWithIf splits that always hold
// (a vector of 16 lanes inside a region of 32) disappear, so that the loop can be vectorized,
// and nothing is decided from a range that does not apply (a let or inner loop of the same name).
#include "TestUtil.h"

#include "dsl/IRPrinter.h"
#include "lower/IREquality.h"
#include "lower/Simplify.h"

#include <sstream>

using namespace halo;

namespace {

Expr var(const std::string &n) { return Variable::make(Int(32), n); }
Stmt store_at(Expr index) { return Store::make("buf", Expr(1.0f), index); }
Stmt loop(const std::string &n, int min, int extent, Stmt body) {
    return For::make(n, Expr(min), Expr(extent), ForType::Serial, body);
}
std::string text(const Stmt &s) {
    std::ostringstream o;
    o << s;
    return o.str();
}
bool has_if(const Stmt &s) { return text(s).find("if (") != std::string::npos; }

}  // namespace

TEST_CASE("a guard that holds over the whole loop range is removed, one that never holds removes its body") {
    // for (v, 0, 16) if (likely(v <= 31)) store: always true
    Stmt always = loop("v", 0, 16, IfThenElse::make(likely(var("v") <= 31), store_at(var("v"))));
    Stmt s = simplify(always);
    INFO(s);
    CHECK_FALSE(has_if(s));
    CHECK(text(s).find("buf[") != std::string::npos);
    // for (v, 0, 16) if (likely(v > 20)) store: never true, nothing is stored
    Stmt never = loop("v", 0, 16, IfThenElse::make(likely(var("v") > 20), store_at(var("v"))));
    s = simplify(never);
    INFO(s);
    CHECK(text(s).find("buf[") == std::string::npos);
    // v <= 14 holds for some of the lanes only: it stays
    Stmt partly = loop("v", 0, 16, IfThenElse::make(likely(var("v") <= 14), store_at(var("v"))));
    s = simplify(partly);
    INFO(s);
    CHECK(has_if(s));
}

TEST_CASE("a guard on a let of two loops (an unrolled block of vectors) is decided through the let") {
    // for (u, 0, 2) for (v, 0, 16) { let w = u * 16 + v; if (likely(w <= 31)) store }
    Stmt body = LetStmt::make("w", var("u") * 16 + var("v"),
                              IfThenElse::make(likely(var("w") <= 31), store_at(var("w"))));
    Stmt s = simplify(loop("u", 0, 2, loop("v", 0, 16, body)));
    INFO(s);
    CHECK_FALSE(has_if(s));
    // w <= 30 fails at u = 1, v = 15
    Stmt body2 = LetStmt::make("w", var("u") * 16 + var("v"),
                               IfThenElse::make(likely(var("w") <= 30), store_at(var("w"))));
    s = simplify(loop("u", 0, 2, loop("v", 0, 16, body2)));
    INFO(s);
    CHECK(has_if(s));
}

TEST_CASE("a loop's range does not apply where a let or an inner loop of the same name hides it") {
    Expr n = Variable::make(Int(32), "n");
    // for (v, 0, 16) { let v = n; if (v <= 31) store }: v is n here, unknown
    Stmt shadowed_by_let = loop("v", 0, 16, LetStmt::make("v", n * 3, IfThenElse::make(var("v") <= 31, store_at(var("v")))));
    Stmt s = simplify(shadowed_by_let);
    INFO(s);
    CHECK(has_if(s));
    // for (v, 0, 16) for (v, 0, n) if (v <= 31) store: the inner v is unbounded
    Stmt shadowed_by_loop = loop("v", 0, 16, For::make("v", Expr(0), n, ForType::Serial,
                                                         IfThenElse::make(var("v") <= 31, store_at(var("v")))));
    s = simplify(shadowed_by_loop);
    INFO(s);
    CHECK(has_if(s));
    // after the inner loop, the outer range applies again
    Stmt after = loop("v", 0, 16, Block::make(For::make("v", Expr(0), n, ForType::Serial, store_at(var("v"))),
                                              IfThenElse::make(var("v") <= 31, store_at(var("v") + 100))));
    s = simplify(after);
    INFO(s);
    CHECK_FALSE(has_if(s));
    // and outside the loop nothing is known
    s = simplify(Block::make(loop("v", 0, 16, store_at(var("v"))), IfThenElse::make(var("v") <= 31, store_at(var("v")))));
    INFO(s);
    CHECK(has_if(s));
}

TEST_CASE("a guarded vector block computes what the algorithm says, for channel counts the block does not divide") {
    // The register block auto_schedule gives reductions: channels split by 32 (two vectors of
    // 16, unrolled), a block of x unrolled, both guarded; the channel extent is constant.
    for (int channels : {32, 24, 40, 7}) {
        Var c("c"), x("x"), co("co"), cu("cu"), cv("cv"), xo("xo"), xi("xi");
        Func in("in"), f("f"), out("out");
        in(c, x) = cast<float>((c * 7 + x * 3) % 11);
        RDom r(0, 3, "r");
        f(c, x) = 0.0f;
        f(c, x) += in(c, x + r) * cast<float>(r + 1);
        out(c, x) = f(c, x);
        in.compute_root();
        f.compute_root();
        f.update()
            .split(c, co, cv, 32, TailStrategy::GuardWithIf)
            .split(cv, cu, cv, 16)
            .split(x, xo, xi, 4, TailStrategy::GuardWithIf)
            .reorder(cv, cu, xi, r, co, xo)
            .vectorize(cv)
            .unroll(cu)
            .unroll(xi);
        out.bound(c, 0, channels);
        Buffer<float> dst(channels, 13);
        INFO("channels " << channels);
        halo_test::check_against_reference(out, dst);
        if (channels == 32) CHECK(out.lowered_stmt().find("ramp(") != std::string::npos);
    }
}

TEST_CASE("a min or max is decided over the loop's range: the shift of a split whose factor divides the extent") {
    // for (v, 0, 16): v * 16 <= 240 always, so min(v * 16, 240) is v * 16 and max(...) is 240
    Stmt s = simplify(loop("v", 0, 16, store_at(min(var("v") * 16, 240))));
    INFO(s);
    CHECK(text(s).find("min(") == std::string::npos);
    CHECK(text(s).find("buf[(v * 16)]") != std::string::npos);
    s = simplify(loop("v", 0, 16, store_at(max(var("v") * 16, 240))));
    INFO(s);
    CHECK(text(s).find("buf[240]") != std::string::npos);
    // v * 16 > 239 at v = 15: it stays
    s = simplify(loop("v", 0, 16, store_at(min(var("v") * 16, 239))));
    INFO(s);
    CHECK(text(s).find("min((v * 16), 239)") != std::string::npos);
}

TEST_CASE("a min whose operands differ by loop terms only, through lets, becomes an offset of the loop alone") {
    // The shift of a ShiftInwards split of a 258-wide region into vectors of 16:
    // let hi = m + 257; for (v, 0, 17) buf[min(m + v * 16, hi - 15)]
    Stmt body = loop("v", 0, 17, store_at(min(var("m") + var("v") * 16, var("hi") - 15)));
    Stmt s = simplify(LetStmt::make("hi", var("m") + 257, body));
    INFO(s);
    CHECK(text(s).find("min(((v * 16) - 242), 0)") != std::string::npos);
    // min(v, 5) is as simple as it gets: it stays
    s = simplify(loop("v", 0, 17, store_at(min(var("v"), 5))));
    INFO(s);
    CHECK(text(s).find("min(v, 5)") != std::string::npos);
}

TEST_CASE("a let inside a loop moves its constant offset into its uses, so that unrolled copies share one base") {
    // for (i, 0, n) { let x = a * 8 + b + 3; buf[int64(x) * 32] }: x = a * 8 + b, the index
    // int64(x) * 32 + 96 (LLVM cannot widen the 32-bit x + 3 itself)
    Expr wide = Cast::make(Int(64), var("x")) * Expr(int64_t(32));
    Stmt in_loop = For::make("i", Expr(0), var("n"), ForType::Serial,
                             LetStmt::make("x", var("a") * 8 + var("b") + 3, store_at(wide + var("i"))));
    Stmt s = simplify(in_loop);
    INFO(s);
    CHECK(text(s).find("let x = ((a * 8) + b)") != std::string::npos);
    CHECK(text(s).find("(int64)96") != std::string::npos);
    // Outside loops, and for bounds inside them, lets keep the whole sum: the overflow checks
    // compare each with its exact value
    s = simplify(LetStmt::make("x", var("a") * 8 + var("b") + 3, store_at(wide)));
    INFO(s);
    CHECK(text(s).find("let x = (((a * 8) + b) + 3)") != std::string::npos);
    Stmt bound = For::make("i", Expr(0), var("n"), ForType::Serial,
                           LetStmt::make("f.s0.x.min", var("a") + 3, store_at(var("f.s0.x.min") + var("i"))));
    s = simplify(bound);
    INFO(s);
    CHECK(text(s).find("let f.s0.x.min = (a + 3)") != std::string::npos);
}

TEST_CASE("the last vector of a ShiftInwards split and its clamp: min(x + ((y - x) / c) * c, y - (c - 1)) is the clamp") {
    Var a("a"), b("b");
    Expr last = a + ((b - a) / 8) * 8;
    CHECK(equal(simplify(min(last, b - 7)), simplify(b - 7)));
    CHECK(equal(simplify(max(last, b - 7)), simplify(last)));
    CHECK(equal(simplify(min(last, b + 1)), simplify(last)));
    // Not decided where the difference can have either sign.
    Expr undecided = simplify(min(last, b - 3));
    CHECK(undecided.as<Min>() != nullptr);
}

TEST_CASE("a chain of vectorized stages computed per row compiles in time linear in its length") {
    // Each stage's bounds named both ends of the next one's region twice: the expressions
    // doubled per stage (10 stages took 46 s to compile). Values against the reference.
    const int N = 12;
    Var x("x"), y("y"), yo("yo"), yi("yi");
    std::vector<Func> f;
    for (int i = 0; i <= N; i++) f.push_back(Func("chain" + std::to_string(i)));
    f[0](x, y) = x + y * 3;
    for (int i = 1; i <= N; i++) f[size_t(i)](x, y) = f[size_t(i - 1)](x - 1, y) + f[size_t(i - 1)](x + 1, y) / 2;
    Func out("chain_out");
    out(x, y) = f[N](x, y);
    out.split(y, yo, yi, 8);
    for (int i = 0; i <= N; i++) f[size_t(i)].compute_at(out, yi).vectorize(x, 8);
    Buffer<int> o(37, 19);
    o.set_min(-4, 3);
    halo_test::check_against_reference(out, o);
}
