// Loop partitioning for GuardWithIf tails: a loop whose body is guarded by likely(v <= max)
// is split into a steady state, where the guard is provably true for every inner iteration
// and is removed (so the body vectorizes as straight-line code), and a guarded tail. In an
// innermost loop a clamp min(A, B), A growing with the loop variable and B free of it (a
// ShiftInwards split's min(xo * 16 + x.min, x.max - 15)), is likewise A in the steady state.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt partition_loops(const Stmt &s);

}  // namespace halo
