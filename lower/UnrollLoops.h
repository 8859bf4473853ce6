// Replaces loops marked unrolled (constant extent) by copies of their body.
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt unroll_loops(const Stmt &s);

// The body of `loop` once for each of its first `copies` iterations, each under a let of the
// loop's name (min + i).
Stmt unrolled_copies(const For *loop, int64_t copies, const Stmt &body);

}  // namespace halo
