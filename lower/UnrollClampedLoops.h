// Unrolls short innermost loops whose copies lose their clamps. A ShiftInwards split of a
// tile whose width is not a multiple of the vector (harris's 258-wide derivatives in 16-lane
// vectors) clamps every vector's start, min(x.min + 16 xo, x.max - 15); once the simplifier
// knows x.max - x.min, each unrolled copy has a constant offset instead (the last one
// shifted), and the loop's clamp, index arithmetic and counter disappear: about 9% of harris
// under Halide's Mullapudi2016 schedule. LLVM does not unroll these itself (its loop unroller
// is off, as in Halide, and its full-unroll threshold is below 17 vector copies).
#pragma once

#include "dsl/IR.h"

namespace halo {

Stmt unroll_clamped_loops(const Stmt &s);

}  // namespace halo
