// Deep structural comparison of expressions: equality, and a total order for sorting terms.
#pragma once

#include "dsl/IR.h"

namespace halo {

// <0, 0, >0 like strcmp.
int compare_expr(const Expr &a, const Expr &b);
inline bool equal(const Expr &a, const Expr &b) { return compare_expr(a, b) == 0; }
struct ExprLess {
    bool operator()(const Expr &a, const Expr &b) const { return compare_expr(a, b) < 0; }
};

}  // namespace halo
