// Loop partitioning for GuardWithIf tails: a loop whose body is guarded by likely(v <= max)
// is split into a steady state, where the guard is provably true for every inner iteration
// and is removed (so the body vectorizes as straight-line code), and a guarded tail. In an
// innermost loop a clamp min(A, B), A growing with the loop variable and B free of it (a
// ShiftInwards split's min(xo * 16 + x.min, x.max - 15)), is likewise A in the steady state.
// Stage::partition sets a loop's policy: Never leaves it whole; Always makes finding nothing
// to partition in it an error (Halide's rule).
#pragma once

#include <map>
#include <string>

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// A loop's policy other than Auto, by the loop's name, with how the user wrote it.
struct LoopPartitionPolicy {
    Partition policy;
    std::string func, var;
};
using PartitionPolicies = std::map<std::string, LoopPartitionPolicy>;

// The policies the stages of env's Funcs (and their specializations) give their loops.
PartitionPolicies partition_policies(const Environment &env);

Stmt partition_loops(const Stmt &s, const PartitionPolicies &policies = {});

}  // namespace halo
