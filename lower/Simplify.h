// The simplifier: constant folding, affine canonicalisation of integer arithmetic
// (a + 3 - (a + 1) -> 2), min/max/select rules, and dead let / loop / branch removal.
#pragma once

#include "dsl/IR.h"

namespace halo {

Expr simplify(const Expr &e);
Stmt simplify(const Stmt &s);
// True if e simplifies to the constant true.
bool can_prove(const Expr &e);

}  // namespace halo
