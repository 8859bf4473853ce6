// The simplifier removes a let whose value simplifies to a constant or a variable, putting the
// value in for each use of its name as it simplifies the body (not by rewriting the body first):
// inner bindings of the same name (lets, loops) keep their own meaning, the names in an
// assertion's message are replaced too, and a value an enclosing if fixes still applies.
#include "TestUtil.h"

#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"
#include "lower/Simplify.h"

#include <sstream>

using namespace halo;

namespace {

Expr var(const std::string &n) { return Variable::make(Int(32), n); }
Stmt store_at(Expr index) { return Store::make("buf", Expr(1.0f), index); }
std::string text(const Stmt &s) {
    std::ostringstream o;
    o << s;
    return o.str();
}
std::string text(const Expr &e) {
    std::ostringstream o;
    o << e;
    return o.str();
}
bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("a let of a constant is put in for its uses, not for an inner let or loop of its name") {
    // let a = 5 { buf[a]; let a = x + 1 { buf[a] }; for (a, 0, n) { buf[a] }; buf[a + 1] }
    Stmt body = Block::make({store_at(var("a")), LetStmt::make("a", var("x") + 1, store_at(var("a") * 2)),
                             For::make("a", Expr(0), var("n"), ForType::Serial, store_at(var("a") * 3)),
                             store_at(var("a") + 1)});
    Stmt s = simplify(LetStmt::make("a", Expr(5), body));
    std::string t = text(s);
    INFO(t);
    CHECK(contains(t, "buf[5]"));
    CHECK(contains(t, "buf[6]"));
    CHECK(contains(t, "let a = (x + 1)"));
    CHECK(contains(t, "buf[(a * 2)]"));
    CHECK(contains(t, "for (a, 0, n)"));
    CHECK(contains(t, "buf[(a * 3)]"));
    CHECK_FALSE(contains(t, "let a = 5"));
}

TEST_CASE("a chain of lets of variables resolves to the first variable") {
    // let a = b { let c = a { buf[c] } }, and let x = y { let y = x { buf[y] } }: y is the outer y
    Stmt s = simplify(LetStmt::make("a", var("b"), LetStmt::make("c", var("a"), store_at(var("c")))));
    INFO(s);
    CHECK(text(s) == text(store_at(var("b"))));
    Stmt swap = simplify(LetStmt::make("x", var("y"), LetStmt::make("y", var("x"), store_at(var("y") + var("x")))));
    INFO(swap);
    CHECK(text(swap) == text(store_at(var("y") * 2)));
}

TEST_CASE("a variable put in for a let takes the value an enclosing if fixes") {
    // let a = w { if (w == 3) { buf[a] } }
    Stmt s = simplify(LetStmt::make("a", var("w"), IfThenElse::make(var("w") == 3, store_at(var("a")))));
    std::string t = text(s);
    INFO(t);
    CHECK(contains(t, "buf[3]"));
}

TEST_CASE("the names of removed lets are replaced in an assertion's message") {
    Expr message = Call::make(Int(32), "halo_error_bounds", {var("a"), var("x")}, Call::Extern);
    Stmt s = simplify(LetStmt::make("a", Expr(7), AssertStmt::make(var("x") > var("a"), message)));
    std::string t = text(s);
    INFO(t);
    CHECK(contains(t, "halo_error_bounds(7, x)"));
    CHECK_FALSE(contains(t, "(a"));
    // an inner let of the name in the message keeps it
    Expr shadowed = Let::make("a", var("z") * 2, Call::make(Int(32), "halo_error_bounds", {var("a"), var("x")}, Call::Extern));
    s = simplify(LetStmt::make("a", Expr(7), AssertStmt::make(var("x") > var("a"), shadowed)));
    t = text(s);
    INFO(t);
    CHECK(contains(t, "(x > 7)"));
    CHECK(contains(t, "let a = (z * 2) in halo_error_bounds(a, x)"));
}

TEST_CASE("an expression's let of a constant is put in, an inner let of its name keeps its value") {
    // (let a = 2 in (let a = y * 3 in a + 1) + a)
    Expr e = Let::make("a", Expr(2), Let::make("a", var("y") * 3, var("a") + 1) + var("a"));
    Expr r = simplify(e);
    std::string t = text(r);
    INFO(t);
    CHECK(contains(t, "let a = (y * 3) in (a + 1)"));
    CHECK(contains(t, "+ 2"));
    CHECK_FALSE(contains(t, "let a = 2"));
}

// Bounds name a shared end with a let whose body is only its name; as a let, the end's form
// (a min or max of arms) was hidden from the pass that bounds the difference of two ends, and
// a producer unrolled under a fused GuardWithIf split was refused.
TEST_CASE("let n = v in n simplifies to v, and a let used otherwise stays") {
    Expr v = min(var("a") + 1, var("b"));
    CHECK(text(simplify(Let::make("n", v, var("n")))) == text(simplify(v)));
    Expr kept = simplify(Let::make("n", v, var("n") * var("n")));
    CHECK(kept.as<Let>() != nullptr);
    // A body naming another variable is not the let's own name.
    CHECK(contains(text(simplify(Let::make("n", v, var("m") + 0))), "m"));
}
