// The warm-up of sliding windows (Halide's, since Halide 12): a loop that Funcs slide over
// starts a few iterations early, and in those iterations only the sliding Funcs run, each
// computing the rows the loop's first iteration will need, a few at a time as the later
// iterations do. Without it the first iteration computes all of them at once, and a fold
// sized for the steady state (fold_storage(y, 4) in Halide's camera_pipe) is too small.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "dsl/IR.h"

namespace halo {

// A Func that slides over a loop and may warm up (see SlidingWindow.cpp): the iterations it
// needs before the first iteration of the loop that reads it, and the lowest row it computes
// (what the loop's first iteration needs of it; in terms of names outside the loop).
struct WarmupFunc {
    int iterations = 0;
    Expr first_min;
};
// Per loop, the Funcs that may warm up before it.
using WarmupPlan = std::map<std::string, std::map<std::string, WarmupFunc>>;

// The let that holds a loop's first iteration, warm-up included (its original min if none).
std::string warmup_min_name(const std::string &loop);

// The let that holds a warmed-up loop's original first iteration, and the guard of what runs
// only from it on: original_min <= loop. is_warmup_guard names the loop of such a guard.
std::string warmup_original_min_name(const std::string &loop);
Expr warmup_guard(const std::string &loop);
bool is_warmup_guard(const Expr &condition, std::string *loop);

// The loops whose name only one loop of s has (a warm-up is planned per loop name).
std::set<std::string> loops_named_once(const Stmt &s);

// Starts each planned loop early where that is safe: every Func computed in the loop's body
// outside the sliding ones (and the consumer's own code) runs only from the original first
// iteration on, so no sliding Func may read one of them; otherwise the loop keeps its range.
// Defines warmup_min_name(loop) for every planned loop either way. report gets a line per loop.
Stmt warm_up_sliding_windows(const Stmt &s, const WarmupPlan &plan, std::vector<std::string> &report);

}  // namespace halo
