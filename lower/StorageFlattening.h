// Turns multi-dimensional Realize/Provide/Call into flat Allocate/Store/Load with explicit
// strides: x is innermost (stride 1) in every Func's own storage.
#pragma once

#include <set>
#include <string>

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// strided_buffers: the input and output buffers whose dimension 0 is not known to be dense.
Stmt storage_flattening(const Stmt &s, const Environment &env, const std::set<std::string> &strided_buffers);

}  // namespace halo
