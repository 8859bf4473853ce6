// Halide's random numbers: random_float, random_uint and random_int. Each call is a random
// variable whose value depends only on the coordinates of the point its Func computes, on that
// Func and definition, on which call it is, and on the seed: the same in every schedule, in
// the reference evaluator, and from run to run. Expr r = random_float(); r + r doubles one
// variable, while random_float() + random_float() adds two. A Tuple's values share them.
// They are a hash of those inputs (not for cryptography), and vectorize.
#pragma once

#include <string>
#include <vector>

#include "IR.h"

namespace halo {

// Uniform in [0, 1): a multiple of 2^-24.
Expr random_float(Expr seed = Expr());
// Uniform over all 32-bit values.
Expr random_uint(Expr seed = Expr());
Expr random_int(Expr seed = Expr());

namespace internal {
// The random calls of definition `definition` of Func `func`, made hashes of the point's
// coordinates (the left side's arguments and the RVars the definition iterates over).
Expr lower_random(const Expr &e, const std::vector<Expr> &coordinates, const std::string &func, int definition);
}  // namespace internal

}  // namespace halo
