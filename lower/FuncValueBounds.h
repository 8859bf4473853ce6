// The range of values each Func can hold, from its definition alone (as Halide's
// compute_function_value_bounds): a read of a Func at an index made of another Func's value
// (g(x + offset(x)) with offset(x) = clamp(...) computed at the root) is then bounded by that
// value's range, as it would be if offset were inlined.
#pragma once

#include "Bounds.h"
#include "Environment.h"

namespace halo {

// Bounds for every Func (and Tuple component) whose values can be bounded: a pure Func (no
// update definitions, no undef()), bounded over every value of its arguments. The ends may
// name Params; they never name a Func's own Vars.
FuncValueBounds compute_func_value_bounds(const Environment &env);

}  // namespace halo
