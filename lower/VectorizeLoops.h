// Turns loops marked vectorized into vector code: the loop variable becomes a Ramp and every
// expression that depends on it is widened. Dense loads and stores become vector loads and
// stores in codegen; other accesses become gathers and scatters.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt vectorize_loops(const Stmt &s);

// Whether a loop whose body makes this call runs lane by lane instead of as vector code: calls
// of C functions (which take scalars) and prints (whose lines come in the order of the points).
bool call_runs_lane_by_lane(const Call &c);

}  // namespace halo
