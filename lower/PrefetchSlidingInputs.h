// Software prefetch for sliding windows. A Func that slides down the rows of a strip computes
// one new row per iteration and then its consumers run: the reads of the Func's input stop
// while they do, the hardware prefetcher loses the input's stream, and every row starts with
// cache misses (plain C++ loops of a 3x3 blur in sliding strips: 4.3-4.6 ms for 6400x4800,
// 3.5-3.8 with a prefetch of the next input row). So in the innermost loops of a sliding Func,
// each read of a buffer that lives outside every loop (an input, or a Func computed at the
// root) also prefetches the same place one row further along the sliding dimension (one row
// back where the window moves backwards): the row its next iteration reads. Reads that the
// next row already covers (the other rows of a stencil) get no prefetch.
// The prefetch is to the second-level cache (codegen: prefetched into L1, the row evicted the
// rows being read and blur ran slower than without any prefetch).
// HALO_PREFETCH_SLIDING=0 turns it off (to measure it).
#pragma once

#include "SlidingWindow.h"
#include "dsl/IR.h"

namespace halo {

// After vectorization: the last pass, on the flattened loop nest.
Stmt prefetch_sliding_inputs(const Stmt &s, const SlidingDims &sliding);

}  // namespace halo
