// Sliding windows (Halide's): a Func stored outside the loop it is computed in, whose region
// moves monotonically with that serial loop, computes in each iteration only what the earlier
// iterations of the loop did not (the first computes all of it). A Func whose region does not
// move at all is computed in the first iteration only.
#pragma once

#include <string>
#include <vector>

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// After bounds inference. report (if given) gets one line per Func considered: where it
// slides, or why it does not, and where its storage is folded. The storage folds chosen (and
// those of fold_storage that apply) are recorded in env's schedules for storage flattening.
Stmt sliding_window(const Stmt &s, Environment &env, std::vector<std::string> *report = nullptr);

}  // namespace halo
