// Two different Funcs made with one name in one pipeline (a helper that makes Func("blur")
// called twice) get distinct names before anything looks a Func up by name.
#pragma once

#include <memory>
#include <vector>

#include "dsl/Function.h"

namespace halo {

// Halide's Func(name) makes every repeat of a name unique as it is constructed ("blur",
// "blur$1"). Halo keeps the names users give and numbers apart only Funcs that share a name in
// a pipeline that uses them together: the one made first (or an output) keeps the name, the
// others become name$1, name$2, ... in the order they were made. The renaming is permanent (the
// Funcs are renamed, as Halide's are, so messages and reports name them the same way every
// time), and every reference to a renamed Func follows it: calls in every definition, and
// compute_at/store_at levels and wrappers (in(consumer)) made from the Func. A reference by
// name alone that cannot tell the Funcs apart (a LoopLevel GeneratorParam "g.x") is a user
// error naming it.
void name_funcs_apart(const std::vector<std::shared_ptr<FunctionContents>> &outputs);

}  // namespace halo
