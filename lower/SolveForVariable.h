// Puts a variable alone on one side of a pair of bounds: from lower <= e <= upper, where e is
// an int32 expression in which the variable appears once, under additions, subtractions,
// multiplications by constants, divisions by positive constants, and min or max with another
// value, derives the bounds the variable itself must satisfy (needed, not sufficient: min(r, c)
// <= U bounds r only where c > U). Bounds inference uses it to narrow an RDom variable by an
// RDom::where condition written in any such form (r + 3 < 13, 2 * r < 20, -r > -10, r / 2 < 5,
// min(r, 20) < 10 all give r <= 9), as Halide's solver does.
#pragma once

#include <string>

#include "dsl/IR.h"

namespace halo {

// var <= upper, var >= lower, as int64 expressions (exact: the sums and quotients that solving
// makes do not wrap); undefined where e had no such bound.
struct VariableBounds {
    Expr upper, lower;
};

// e <= upper and e >= lower (either may be undefined; each int32 or int64). Returns false if
// var does not appear exactly once in e, or appears under an operation other than those above,
// or if any part of e is not a scalar int32.
bool solve_for_variable(const Expr &e, const std::string &var, const Expr &upper, const Expr &lower,
                        VariableBounds *result);

}  // namespace halo
