// Recognising associative updates, for rfactor and for reordering a reduction's loops: an
// update f(args) = f(args) op e whose result does not depend on how its RDom's points are
// grouped (up to the rounding of floats, as in Halide), and which of them also do not depend on
// the order the points are visited in.
#pragma once

#include <vector>

#include "Function.h"

namespace halo {

// The recognised forms. Each value of f is one of (writing x for the value f(args)[i] the
// update reads, y for the e that does not read f):
// - x + y, x * y, min(x, y), max(x, y), x && y, x || y, and x itself (the value left alone);
//   sums and products in any grouping and order, differences whose x is not subtracted
//   (x - a - b is x + (-a - b)), chains of mins or maxes, and forms the simplifier brings to one
//   of these (max(f + g, f - 3) is f + max(g, -3) for 32- and 64-bit signed integers);
// - a saturating add of an unsigned integer: uint8(min(uint16(x) + uint16(y), 255)),
//   saturating_cast of the wide sum, select(x > 255 - y, 255, x + y), select(x < ~y, x + y, 255);
// - an argmin or argmax: the value follows a min or max value j of the same update,
//   select(x_j < y_j, x, y) beside min(x_j, y_j) (the later point wins ties) or
//   select(x_j <= y_j, x, y) (the earlier point wins), and the same for max with > and >=.
//   Several values may follow one min or max (the position in x and y, say).
// - a product of complex numbers, value 0 the real and value 1 the imaginary part:
//   f = (f0 * e0 - f1 * e1, f1 * e0 + f0 * e1) (Halide's associativity prover knows it too).
// All but the argmin and argmax are commutative as well, so the points may be visited in any
// order. An argmin or argmax is not: between equal values the one visited first or last wins.
struct AssociativeUpdate {
    enum Op { Add, Mul, Min, Max, And, Or, SaturatingAdd, Keep, Follow };
    bool complex_mul = false;
    std::vector<Op> ops;        // per value, where !complex_mul
    std::vector<Expr> others;   // y, per value (undefined for Keep)
    std::vector<int> follows;   // for Follow: the index of the min or max value it follows
    std::vector<bool> first_wins;  // for Follow: between equal values, the earlier point's

    // Whether visiting the points in another order gives the same result.
    bool commutative() const;
    // Whether some value follows a min or max (an argmin or argmax).
    bool has_follow() const;
    // The values the reduction starts from, for values of these types.
    std::vector<Expr> identity(const std::vector<Type> &types) const;
    // a op b, a the points visited before b's.
    std::vector<Expr> combine(const std::vector<Expr> &a, const std::vector<Expr> &b) const;
    // The values after visiting b's point alone, from `initial` (which only a Keep value keeps):
    // b itself, without the identity, which an argmin's is not from the left (between equal
    // values the first point wins over the identity's position).
    std::vector<Expr> first(const std::vector<Expr> &initial, const std::vector<Expr> &b) const;
};

// Whether the update (values at the left side args) of f is one of the forms above; fills out.
// False where a left side or a y reads f.
bool match_associative(const std::vector<Expr> &values, const FunctionContents &f, const std::vector<Expr> &args,
                       AssociativeUpdate &out);

// Whether every point of an update's RDom applies one map to the point of f it updates: the
// values read f only at that point (the left side's args) and, besides, do not depend on the
// RVars, so that iterations updating one point commute whatever the map is
// (f(b) = f(b) * 3 + 1, f(b) = max(f(b) + 1, 100); Halide's atomics test's CAS update).
bool iterations_apply_one_map(const std::vector<Expr> &values, const FunctionContents &f,
                              const std::vector<Expr> &args, const std::vector<std::string> &rvars);

// Whether e calls f (by identity: another Func may have f's name).
bool calls_func(const Expr &e, const FunctionContents &f);

}  // namespace halo
