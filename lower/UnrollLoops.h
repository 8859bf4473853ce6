// Replaces loops marked unrolled (constant extent) by copies of their body.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt unroll_loops(const Stmt &s);

}  // namespace halo
