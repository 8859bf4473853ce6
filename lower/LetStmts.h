// Helpers for chains of LetStmts at the head of a statement, as bounds inference leaves them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dsl/IR.h"

namespace halo {

using LetList = std::vector<std::pair<std::string, Expr>>;

// Removes the LetStmts at the head of s and appends them, in order, to `lets`. With
// `through_realizations`, also looks through Realize and consume nodes (which bind no scalars).
Stmt peel_leading_lets(const Stmt &s, LetList &lets, bool through_realizations);

// s inside the lets, the first one outermost.
Stmt wrap_lets(Stmt s, const LetList &lets);

// Name -> value, for the simplifier.
std::map<std::string, Expr> let_values(const LetList &lets);

}  // namespace halo
