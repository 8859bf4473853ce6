// Input bounds inference before anything runs (what Halide's infer_input_bounds answers): the
// region of every input buffer that realizing the outputs over [0, sizes) reads, computed from
// the run-time checks lowering puts in front of the pipeline (the same expressions the
// compiled code checks its inputs with).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/Function.h"

namespace halo {

struct InputRegion {
    std::shared_ptr<ParameterContents> param;
    std::vector<int64_t> min, extent;  // per dimension
};

// Every input buffer the pipeline of `outputs` reads, by name (ImageParams with a buffer bound
// keep it and report what they need of it; Buffers used directly are left out). Scalar Params
// take their current values. An input whose reads are clamped to its own bounds (a boundary
// condition) is given the output's extents in the dimensions they share. Throws CompileError
// naming the input if its region cannot be computed before running.
std::map<std::string, InputRegion> infer_input_regions(const std::vector<std::shared_ptr<FunctionContents>> &outputs,
                                                       const std::vector<int> &sizes);

}  // namespace halo
