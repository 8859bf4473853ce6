// Run-time checks that every split factor known only at run time (an Expr of Params) is
// positive, placed before anything else runs: a factor <= 0 would make the split's loops run
// zero times, or forever, instead of computing the Func.
#pragma once

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

Stmt add_split_factor_checks(const Stmt &s, const Environment &env);

}  // namespace halo
