// Lifts a loop-invariant if out of the loops it makes do nothing (Halide's trim_no_ops):
// where everything a loop does (its stores, its calls of C functions, its prints) happens only
// under `if (c)`, and c reads nothing the loop changes (no loop variable, no let of the loop,
// no memory), then `for (x) { ... if (c) S ... }` becomes `if (c) { for (x) { ... S ... } }`:
// when c is false every iteration did nothing, so skipping the loop is the same, and inside
// the lifted if the inner ifs on c are true. Repeated outwards, an if on a Param (a select
// against undef() on it, an RDom::where on Params only) is tested once per pipeline instead of
// once per point.
//
// What counts as doing something: a Store, an Evaluate of anything but a constant, an assert
// (it may fail the pipeline), a let whose value calls a C function or prints. The exception is
// the checks add_bounds_overflow_checks puts before a loop (that its last iteration fits in 32
// bits): they protect only the loop they stand before, which does nothing when c is false.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt hoist_invariant_ifs(const Stmt &s);

}  // namespace halo
