// Run-time checks of values the algorithm and schedule take from Params (and input sizes),
// placed before anything else runs:
//  - every split factor known only at run time is positive (a factor <= 0 would make the
//    split's loops run zero times or forever instead of computing the Func);
//  - every RDom's last value, min + extent - 1, fits in 32 bits (past it the reduction's loop
//    would wrap around and run zero times);
//  - a stage with specialize_fail has a specialization that applies.
#pragma once

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// params: the pipeline's Params and inputs (find_parameters): each scalar one with a range is
// checked, also where lowering found its only uses dead (a stage nothing needs).
Stmt add_parameter_checks(const Stmt &s, const Environment &env,
                          const std::vector<std::shared_ptr<ParameterContents>> &params);

// At compile time: every specialization condition reads only what a call provides (Params,
// input buffer fields, the fields of the outputs' own buffers), else a CompileError naming it.
void check_specialization_conditions(const Environment &env, const std::vector<std::string> &outputs);

}  // namespace halo
