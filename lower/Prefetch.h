// Halide's Stage::prefetch. schedule_functions puts a placeholder at the top of the body of
// each loop a prefetch names as `at`; once bounds inference and the checks of the inputs are
// done (a prefetch may reach past what the pipeline needs, and must not make it need more),
// inject_prefetches replaces it with loops that prefetch, one cache line at a time, the region
// of the buffer the loop's body reads with loop `from` moved `offset` iterations on. The
// region is clamped to the buffer, or prefetched only when wholly inside it, or taken as it
// is, as the directive's PrefetchBoundStrategy says. A prefetch inside a vectorized loop, or of
// a Func stored inside the loop (nothing to prefetch into yet), is dropped: it is only a hint.
#pragma once

#include <string>
#include <vector>

#include "Environment.h"
#include "dsl/IR.h"
#include "dsl/Schedule.h"

namespace halo {

struct FunctionCopies;

// The placeholder for directive p, put in the body of loop at_loop; from_loop is the full name
// of loop `from`.
Stmt prefetch_placeholder(const PrefetchDirective &p, const std::string &from_loop, const std::string &at_loop);

// Points every prefetch of a Func at that Func's name among the copies lowering works on (two
// Funcs may share a name); forgets those of Funcs the pipeline does not use.
void resolve_prefetch_targets(FunctionCopies &copies);

// After the input checks, before storage flattening: each placeholder becomes the prefetches.
Stmt inject_prefetches(const Stmt &s, const std::vector<std::string> &outputs);

}  // namespace halo
