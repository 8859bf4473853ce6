// Replaces loops marked unrolled (constant extent) by copies of their body.
#pragma once

#include "dsl/IR.h"

namespace halo {

// Copies of a loop body unrolling makes at most: of one loop (Halide's unroll_huge_mux unrolls
// 10000), and of loops nested in each other in all. Beyond, a user's mistake (unroll of a whole
// image row) would compile for minutes.
constexpr int64_t max_unroll_copies = 16384;
constexpr int64_t max_nested_unroll_copies = 65536;

Stmt unroll_loops(const Stmt &s);

// The body of `loop` once for each of its first `copies` iterations, each under a let of the
// loop's name (min + i).
Stmt unrolled_copies(const For *loop, int64_t copies, const Stmt &body);

}  // namespace halo
