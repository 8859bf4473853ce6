// Halide's implicit arguments: the placeholder `_` in a call stands for as many implicit Vars
// (_0, _1, ...) as the callee has dimensions left, and on the left side of a pure definition
// for the implicit Vars its right side uses: f(x, _) = g(x, _) defines f(x, _0, _1) when g is
// 3-D. Schedules name them _0, _1, ... as any Var.
#pragma once

#include <string>
#include <vector>

#include "IR.h"

namespace halo {

// Whether name is an implicit Var's (_0, _1, ...).
bool is_implicit_var_name(const std::string &name);

// Replaces the placeholder `_` in args by the implicit Vars _0.._k that bring args to
// `dimensions` entries. With dimensions < 0 (a Func not yet defined) the placeholder is only
// removed. Returns where it was, or -1 if args had none. `callee` names what is called, for
// the errors (two placeholders, or more arguments than dimensions besides it).
int expand_placeholder(std::vector<Expr> &args, int dimensions, const std::string &callee);

}  // namespace halo
