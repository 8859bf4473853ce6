// Gives unrolled and vectorized loops whose extent is not a constant (a loop over a dimension
// bound() to a constant size that a sliding window then shortens) the constant extent they need:
// the extent's constant upper bound, with the body guarded by the true extent, as Halide does.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt bound_constant_extent_loops(const Stmt &s);

}  // namespace halo
