// Moves a store guard (store_guard(c), see shared_point_store_guards in ScheduleFunctions)
// out of the loops whose variables c does not use: for (x) { if (c) S } becomes
// if (c) { for (x) { S } }. The guard of a parallel ShiftInwards strip compares the strip and
// the row, so it is tested once per row instead of once per vector of the row, and the row's
// loop is a plain loop again (LLVM unrolls and schedules it as before the guard).
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt hoist_store_guards(const Stmt &s);

}  // namespace halo
