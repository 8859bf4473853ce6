// Turns loops marked vectorized into vector code: the loop variable becomes a Ramp and every
// expression that depends on it is widened. Dense loads and stores become vector loads and
// stores in codegen; other accesses become gathers and scatters.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt vectorize_loops(const Stmt &s);

}  // namespace halo
