// Interval arithmetic over the IR: the range of values an expression takes when some of its
// variables range over intervals, and the boxes of Funcs and images a statement touches.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dsl/IR.h"

namespace halo {

// [min, max], inclusive; an undefined end means unbounded on that side.
struct Interval {
    Expr min, max;
    Interval() = default;
    Interval(Expr mn, Expr mx) : min(std::move(mn)), max(std::move(mx)) {}
    static Interval point(const Expr &e) { return Interval(e, e); }
    bool is_bounded() const { return min.defined() && max.defined(); }
};

Interval interval_union(const Interval &a, const Interval &b);

// Variables bound to the intervals they range over; variables not in it stand for themselves.
using Scope = std::map<std::string, Interval>;

Interval bounds_of_expr_in_scope(const Expr &e, const Scope &scope);

// What the values of some Funcs are known to lie in, by Func name and Tuple component.
using FuncValueBounds = std::map<std::pair<std::string, int>, Interval>;

// While one of these lives, every bound computed on this thread (lowering runs on a thread of
// its own) bounds a call to a listed Func by its value bounds instead of by its type's range.
// Soundness: a Func's stored values are exactly what its pure definition computes, and bounds
// inference makes every point read be computed.
class UseFuncValueBounds {
public:
    explicit UseFuncValueBounds(const FuncValueBounds &bounds);
    ~UseFuncValueBounds();
    UseFuncValueBounds(const UseFuncValueBounds &) = delete;
    UseFuncValueBounds &operator=(const UseFuncValueBounds &) = delete;

private:
    const FuncValueBounds *previous_;
};

// A constant no smaller than every value of the integer expression e (from its constants,
// min/max and non-wrapping sums), if one below the type's own maximum can be found.
std::optional<int64_t> constant_upper_bound(const Expr &e);

// A multi-dimensional interval.
struct Box {
    std::vector<Interval> dims;
    bool used = false;  // false: nothing touched (a 0-D box can be used and have no dims)
    // Defined: the box is touched only when this holds, a condition fixed for the whole call
    // (a specialization's, or an if on Params), Halide's Box::used. Undefined: whenever the
    // statement runs. The dims are exact when it holds and merely defined when it does not, so
    // a consumer may ignore it at the price of requiring more than is read.
    Expr used_if;
    bool empty() const { return !used; }
    bool maybe_unused() const { return used_if.defined(); }
};
// The union of two boxes: where one of them is touched only under a condition, the dims
// select on it, so the union is exact under every outcome of both conditions.
Box box_union(const Box &a, const Box &b);
// check, run only when the box is touched (a bounds check of a box that may be unused must not
// fail when it is not).
Stmt guard_by_use(const Box &b, const Stmt &check);

// The regions of every Func and image read (Call) in s.
// Values of lets that enclose s (outside it): the simplifier uses them to cancel terms, while
// the boxes keep naming them.
using LetValues = std::map<std::string, Expr>;
std::map<std::string, Box> boxes_required(const Stmt &s, const Scope &scope = {}, const LetValues &outer_lets = {});
// The region of one Func or image read in s (empty Box if never read).
Box box_required(const Stmt &s, const std::string &name, const Scope &scope = {}, const LetValues &outer_lets = {});
// The region of a Func written (Provide) in s.
Box box_provided(const Stmt &s, const std::string &name, const Scope &scope = {}, const LetValues &outer_lets = {});

}  // namespace halo
