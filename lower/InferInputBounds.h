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

#include "dsl/Buffer.h"
#include "dsl/Function.h"

namespace halo {

struct InputRegion {
    std::shared_ptr<ParameterContents> param;
    std::vector<int64_t> min, extent;  // per dimension
};

// Every input buffer the pipeline of `outputs` reads, by name (an ImageParam with a buffer bound
// reports that buffer's region; Buffers used directly are left out). Scalar Params
// take their current values. An input whose reads are clamped to its own bounds (a boundary
// condition) is given the output's extents in the dimensions they share. Throws CompileError
// naming the input if its region cannot be computed before running.
std::map<std::string, InputRegion> infer_input_regions(const std::vector<std::shared_ptr<FunctionContents>> &outputs,
                                                       const std::vector<int> &sizes);

// A zero-filled buffer of the input's type over the region; throws CompileError naming the input
// if the region does not fit a buffer's 32-bit mins and extents.
Buffer<> allocate_input_region(const std::string &name, const InputRegion &region);

}  // namespace halo
