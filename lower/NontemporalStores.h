// Streaming (nontemporal) stores for large outputs.
//
// A pipeline's output is written once and not read again by the pipeline; when it is larger
// than the caches, each ordinary store first reads its cache line from memory (to own it) and
// later writes it back, so a third of a streaming kernel's memory traffic is reads of lines it
// overwrites whole. A nontemporal store writes whole lines without reading them (a 3x3 blur of
// 6400x4800 uint16 in C++: 5.5 ms with ordinary stores, 4.1 with streaming ones).
//
// So an innermost serial loop whose vector stores to an output move by whole vectors per
// iteration gets a second version with nontemporal stores, taken at run time when the output
// is large (HALO_NONTEMPORAL_MIN_BYTES, default 16 MiB in total) and the first store of each
// such output is aligned to the vector's size (then every one is; an x86 streaming store of a
// whole vector needs that). Streaming stores are weakly ordered: a store fence at the end of
// each task of a parallel loop that makes them, and at the end of the pipeline, orders them
// before whatever reads the output next (another thread after the loop's barrier, or the
// caller). Outputs the pipeline reads itself (an update, or another output's stage) keep
// ordinary stores: they are read back, and a streamed line would have left the cache. So do
// outputs with update definitions (Lower.cpp leaves them out of `outputs`): a later stage's
// ordinary store to a place a streaming store wrote is not ordered after it without a fence.
// (The tails of a split store the same values again, or other places.)
// HALO_NONTEMPORAL_MIN_BYTES=0 streams every such output (tests), "off" none.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "dsl/IR.h"

namespace halo {

// The last pass, on the flattened, vectorized loop nest. outputs: the pipeline's output
// buffers by name, with their dimensions; strided: buffers whose dimension 0 may not be dense.
struct OutputBufferShape {
    std::string name;
    int dimensions;
};
Stmt nontemporal_output_stores(const Stmt &s, const std::vector<OutputBufferShape> &outputs,
                               const std::set<std::string> &strided);

}  // namespace halo
