// The lowering pipeline: from a Func and its schedule to a flat loop nest ready for codegen.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dsl/Function.h"
#include "dsl/IR.h"
#include "dsl/Parameter.h"

namespace halo {

struct LoweredPipeline {
    std::string name;
    Stmt body;
    std::shared_ptr<FunctionContents> output;
    // Scalar Params and input buffers, in the order the compiled function takes them
    // (after the output buffer).
    std::vector<std::shared_ptr<ParameterContents>> params;
};

// Lowers the pipeline that computes `output`. If the environment variable HALO_DUMP_IR is
// set, prints the IR after every pass to stderr.
LoweredPipeline lower(const std::shared_ptr<FunctionContents> &output, const std::string &name);

}  // namespace halo
