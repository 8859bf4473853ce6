// Bounds inference: defines the loop bounds of every stage (the symbols f.s<k>.<var>.min/max
// that build_stage left free) and the region of every Realize, from what the Funcs consuming
// it read. A Func computed inside a loop of its consumer gets the region that one iteration
// of that loop needs, halo included, in terms of the loop's variables.
#pragma once

#include "Bounds.h"
#include "Environment.h"
#include "dsl/IR.h"
#include "dsl/Schedule.h"

namespace halo {

// other_outputs: the pipeline's outputs besides `output` (the last stage), computed at the root
// over their buffers.
Stmt bounds_inference(const Stmt &s, const Environment &env, const std::string &output,
                      const std::vector<std::string> &other_outputs = {});

// The region r of one dimension after the Func's explicit bounds b on it (align_bounds, then
// bound's min, then the extent, as in Halide).
Interval apply_bound(const Bound &b, Interval r);

}  // namespace halo
