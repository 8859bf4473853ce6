// Replaces calls to inlined Funcs by their definitions.
#pragma once

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

Stmt inline_functions(const Stmt &s, const Environment &env, const std::string &output);

}  // namespace halo
