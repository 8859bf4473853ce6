// The simplifier: constant folding, affine canonicalisation of integer arithmetic
// (a + 3 - (a + 1) -> 2), min/max/select rules, and dead let / loop / branch removal.
#pragma once

#include <map>
#include <string>

#include "dsl/IR.h"

namespace halo {

Expr simplify(const Expr &e);
Stmt simplify(const Stmt &s);
// Simplifies e knowing the values of the enclosing lets (so that v - w can cancel when both
// are lets of the same base).
Expr simplify(const Expr &e, const std::map<std::string, Expr> &lets);
// True if e simplifies to the constant true.
bool can_prove(const Expr &e);

// The simplifier never folds an int32 or int64 operation on constants that overflows (that is
// undefined behaviour). This raises a CompileError naming the Func for such an operation in
// the value or arguments of a Provide, unless it sits inside a select arm (which may never be
// evaluated; it is then left unfolded).
void check_constant_overflow(const Stmt &s);

}  // namespace halo
