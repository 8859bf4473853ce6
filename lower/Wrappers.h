// Func::in wrappers: before anything else in lowering, calls of a wrapped Func are redirected
// to its wrappers (the one for that consumer, else the global one, never inside the wrapped
// Func's own wrappers), and Funcs the output no longer reaches are dropped.
#pragma once

#include "Environment.h"

namespace halo {

// env: the lowering's own copies of the Funcs (their definitions are rewritten).
void apply_wrappers(Environment &env, const std::vector<std::string> &outputs);

}  // namespace halo
