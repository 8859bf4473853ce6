// The box of one Func (box_required, box_provided) walks only the statements that touch it:
// a read in a let's value, a loop's bounds or an if's condition counts as a touch, and the
// statements around it that do not touch it still bind the names it reads.
#include "TestUtil.h"

#include "lower/Bounds.h"
#include "lower/Simplify.h"

#include <string>

using namespace halo;

namespace {

Expr i32(int v) { return IntImm::make(Int(32), v); }
Expr var(const std::string &name) { return Variable::make(Int(32), name); }
Expr call(const std::string &f, Expr arg) { return Call::make(Int(32), f, {std::move(arg)}, Call::Halo); }
Stmt store(const std::string &f, Expr arg, Expr value) { return Provide::make(f, {std::move(value)}, {std::move(arg)}); }

// The box's one dimension as constants, after simplification.
std::pair<int64_t, int64_t> constant_interval(const Box &b) {
    REQUIRE(b.used);
    REQUIRE(b.dims.size() == 1);
    Expr lo = simplify(b.dims[0].min), hi = simplify(b.dims[0].max);
    const int64_t *l = as_const_int(lo), *h = as_const_int(hi);
    REQUIRE(l != nullptr);
    REQUIRE(h != nullptr);
    return {*l, *h};
}

}  // namespace

TEST_CASE("a read in a let's value is found where the let's body does not read the Func") {
    // for x in [0, 9]: let t = f(x + 100) in g(x) = t
    Stmt s = For::make("x", i32(0), i32(10), ForType::Serial,
                       LetStmt::make("t", call("f", var("x") + 100), store("g", var("x"), var("t"))));
    CHECK(constant_interval(box_required(s, "f")) == std::make_pair(int64_t(100), int64_t(109)));
    CHECK(constant_interval(boxes_required(s)["f"]) == std::make_pair(int64_t(100), int64_t(109)));
}

TEST_CASE("a read in a loop's extent is found where the loop's body does not read the Func") {
    // for x in [0, 4]: for y in [0, f(x - 3) - 1]: g(y) = y
    Stmt s = For::make("x", i32(0), i32(5), ForType::Serial,
                       For::make("y", i32(0), call("f", var("x") - 3), ForType::Serial, store("g", var("y"), var("y"))));
    CHECK(constant_interval(box_required(s, "f")) == std::make_pair(int64_t(-3), int64_t(1)));
}

TEST_CASE("a read in an if's condition is found where neither branch reads the Func") {
    // for x in [2, 7]: if (f(2 * x) > 0) g(x) = 1
    Stmt s = For::make("x", i32(2), i32(6), ForType::Serial,
                       IfThenElse::make(call("f", var("x") * 2) > 0, store("g", var("x"), i32(1))));
    CHECK(constant_interval(box_required(s, "f")) == std::make_pair(int64_t(4), int64_t(14)));
}

TEST_CASE("statements that do not touch the Func still bind the names its reads use") {
    // let n = 20 in (for x in [0, 3]: g(x) = 0) ; (for x in [0, n - 1]: h(x) = f(x + 1))
    Stmt untouched = For::make("x", i32(0), i32(4), ForType::Serial, store("g", var("x"), i32(0)));
    Stmt touching = For::make("x", i32(0), var("n"), ForType::Serial, store("h", var("x"), call("f", var("x") + 1)));
    Stmt s = LetStmt::make("n", i32(20), Block::make(untouched, touching));
    CHECK(constant_interval(box_required(s, "f")) == std::make_pair(int64_t(1), int64_t(20)));
    CHECK(constant_interval(box_provided(s, "h")) == std::make_pair(int64_t(0), int64_t(19)));
    CHECK(constant_interval(box_provided(s, "g")) == std::make_pair(int64_t(0), int64_t(3)));
    CHECK(box_required(s, "nothing").empty());
    CHECK(box_provided(s, "f").empty());
}

TEST_CASE("a select on a fixed condition is one value, on a read of a Func or image both sides") {
    // for x in [0, 9]: g(x) = f(select(p > 3, 5, -5))  (p not bound here: one value)
    Stmt fixed = For::make("x", i32(0), i32(10), ForType::Serial,
                           store("g", var("x"), call("f", Select::make(var("p") > 3, i32(5), i32(-5)))));
    Box b = box_required(fixed, "f");
    REQUIRE(b.used);
    CHECK(b.dims[0].min.as<Select>() != nullptr);
    // The same select on a value read from h: a region's ends must not read h (they are
    // computed before h is, and where the read is not checked), so it spans both sides.
    Stmt read = For::make("x", i32(0), i32(10), ForType::Serial,
                          store("g", var("x"), call("f", Select::make(call("h", i32(0)) > 3, i32(5), i32(-5)))));
    CHECK(constant_interval(box_required(read, "f")) == std::make_pair(int64_t(-5), int64_t(5)));
}
