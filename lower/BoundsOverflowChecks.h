// Coordinates, and so the bounds lowering computes (every stage's loop bounds, every
// realization, what each input must cover), are 32-bit. Near the ends of that range they
// could wrap around, and a wrapped bound could let an input check pass and the pipeline read
// outside a buffer. This pass recomputes each bound that is computed once per call (the lets
// outside all loops) in 64 bits, from the earlier ones, and stops the pipeline with an error
// if the 32-bit value differs (inside loops: the per-tile bounds); it makes the input and
// output checks compare in 64 bits; and it checks the last value of each loop and
// realization outside all loops, and of every loop inside them.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt add_bounds_overflow_checks(const Stmt &s);

// The exact value of a 32-bit integer expression, as an int64 expression (its variables taken
// as they are). Error messages report ranges this way, so a range that wrapped is printed as
// the number it really is, not as its 32-bit remainder.
Expr exact_int64(const Expr &e);

// Whether a let of this name computes bounds (a stage's loop min or max, a realization's min
// or extent), which this pass checks inside loops too.
bool is_bound_name(const std::string &name);

}  // namespace halo
