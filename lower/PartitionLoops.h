// Loop partitioning for GuardWithIf tails: a loop whose body is guarded by likely(v <= max)
// is split into a steady state, where the guard is provably true for every inner iteration
// and is removed (so the body vectorizes as straight-line code), and a guarded tail.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt partition_loops(const Stmt &s);

}  // namespace halo
