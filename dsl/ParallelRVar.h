// Whether a loop over an RVar of an update may run in parallel or as vector lanes (Halide's
// rule): no two of its iterations may touch the same point of the Func, one writing it.
#pragma once

#include <string>

#include "Function.h"

namespace halo {

// True when it can be shown that distinct iterations of `loop` (an RVar of def, a loop split
// from one, or a loop fused from several) never write a point another iteration writes or
// reads. False when it cannot be shown (the directive is then refused).
bool rvar_loop_is_race_free(const FunctionContents &func, const Definition &def, const std::string &loop);

}  // namespace halo
