// Replacing variables by expressions, and asking which variables an IR tree uses.
#pragma once

#include <map>
#include <set>
#include <string>

#include "dsl/IR.h"

namespace halo {

Expr substitute(const std::string &name, const Expr &replacement, const Expr &e);
Stmt substitute(const std::string &name, const Expr &replacement, const Stmt &s);
Expr substitute(const std::map<std::string, Expr> &m, const Expr &e);
Stmt substitute(const std::map<std::string, Expr> &m, const Stmt &s);
// Replaces every subexpression equal to `find` (structurally) by `replacement`.
Expr substitute_expr(const Expr &find, const Expr &replacement, const Expr &e);

bool expr_uses_var(const Expr &e, const std::string &name);
bool stmt_uses_var(const Stmt &s, const std::string &name);
// Adds the names of the variables e reads to `names`.
void collect_variables(const Expr &e, std::set<std::string> &names);

}  // namespace halo
