// Turns multi-dimensional Realize/Provide/Call into flat Allocate/Store/Load with explicit
// strides: x is innermost (stride 1) in every Func's own storage.
#pragma once

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

Stmt storage_flattening(const Stmt &s, const Environment &env, const std::string &output);

}  // namespace halo
