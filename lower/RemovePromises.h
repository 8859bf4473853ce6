// Removes promise_clamped(value, lo, hi) wrappers once bounds inference no longer needs them.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt remove_promises(const Stmt &s);

}  // namespace halo
