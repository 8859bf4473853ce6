// Run-time checks, placed before anything runs, that every input buffer covers the region
// the pipeline will read from it and that the output's loops stay inside the output buffer.
// An input read the compiler cannot bound (an index that depends on data) is a compile error:
// it could not be checked up front, and it is never silently changed.
#pragma once

#include <memory>
#include <vector>

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// outputs: the pipeline's outputs, its last stage first (input messages name that one).
Stmt add_input_checks(const Stmt &s, const std::vector<std::shared_ptr<ParameterContents>> &params,
                      const std::vector<const FunctionContents *> &outputs);

// Every Tuple-valued output has a buffer per value (f.0, f.1, ...): defines f.min.d, f.extent.d and
// f.stride.d (which the lowered code uses for the output's region) from value 0's buffer, and
// checks that the other buffers cover the same region. The last pass, outside everything.
Stmt define_tuple_output_fields(const Stmt &s, const std::vector<const FunctionContents *> &outputs);

}  // namespace halo
