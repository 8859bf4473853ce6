// Run-time checks, placed before anything runs, that every input buffer covers the region
// the pipeline will read from it (and clamps of data-dependent input indices, which cannot
// be checked up front, so that they never read outside the buffer).
#pragma once

#include <memory>
#include <vector>

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

Stmt clamp_data_dependent_input_reads(const Stmt &s);
Stmt add_input_checks(const Stmt &s, const std::vector<std::shared_ptr<ParameterContents>> &params,
                      const FunctionContents &output);

}  // namespace halo
