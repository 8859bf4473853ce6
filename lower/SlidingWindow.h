// Sliding windows (Halide's): a Func stored outside the loop it is computed in, whose region
// moves monotonically with that serial loop, computes in each iteration only what the earlier
// iterations of the loop did not. The loop may start early to warm the windows up (see
// SlidingWarmup.h); otherwise its first iteration computes all of the first window. A Func
// whose region does not move at all is computed in the first iteration only.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "Environment.h"
#include "SlidingWarmup.h"
#include "dsl/IR.h"

namespace halo {

// After bounds inference. report (if given) gets one line per Func considered: where it
// slides, or why it does not, and where its storage is folded. The storage folds chosen (and
// those of fold_storage that apply) are recorded in env's schedules for storage flattening.
// The sliding Funcs that may warm up are planned in `plan`, for warm_up_sliding_windows
// (SlidingWarmup.h), which must run next: their starts name the loops' warmup_min lets it
// defines.
// `sliding` (if given) gets each Func that slides, with the dimension it slides along, and the
// way its window moves: 1 towards higher coordinates, -1 (backwards) towards lower ones.
using SlidingDims = std::map<std::pair<std::string, std::string>, int>;
Stmt sliding_window(const Stmt &s, Environment &env, std::vector<std::string> *report, WarmupPlan *plan,
                    SlidingDims *sliding = nullptr);

}  // namespace halo
