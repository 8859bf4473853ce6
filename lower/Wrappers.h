// Func::in wrappers: before anything else in lowering, calls of a wrapped Func are redirected
// to its wrappers (the one for that consumer, else the global one, never inside the wrapped
// Func's own wrappers), and Funcs the output no longer reaches are dropped.
#pragma once

#include "DistinctNames.h"
#include "Environment.h"

namespace halo {

// env: the lowering's own copies of the Funcs (their definitions are rewritten); names: the
// name each wrapper (one of the user's Funcs) has among them.
void apply_wrappers(Environment &env, const std::vector<std::string> &outputs, const FunctionCopies &names);

}  // namespace halo
