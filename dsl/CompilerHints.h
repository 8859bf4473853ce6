// Halide's hints to the compiler that leave a value as it is: likely_if_innermost,
// strict_float and unsafe_promise_clamped.
#pragma once

#include "IR.h"

namespace halo {

// likely(x): Halo partitions loops on a likely() condition wherever it is, so the innermost
// restriction of Halide's variant changes nothing here.
Expr likely_if_innermost(Expr x);

// x, computed without contracting its float multiplies and adds into fused multiply-adds
// (Halo relaxes nothing else of IEEE arithmetic anywhere).
Expr strict_float(Expr x);

// value, which the user promises lies in [min, max] (an undefined bound: no promise on that
// side). Bounds inference uses the promise, so reads through a data-dependent index need no
// clamp. As in Halide nothing checks it: a false promise reads or writes outside the buffers'
// regions. Use clamp() unless the promise is certain. A bound of another type counts only
// where it converts to value's type without loss (a constant it holds), as in Halide.
Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max);

}  // namespace halo
