// Common-subexpression elimination for expressions that share subtrees. An expression is a
// graph: a user can build one whose tree is exponentially larger than its nodes (e = select(e
// > 0, e - 1, e + 1) in a loop), and inlining a chain of stencils builds such graphs too.
// Every pass walks trees, so shared subtrees that are worth it are lifted into Lets first,
// which makes the tree as small as the graph.
#pragma once

#include <cstdint>

#include "dsl/IR.h"

namespace halo {

// The shape of an expression's graph: computed without recursion, in time proportional to
// its distinct nodes.
struct ExprShape {
    uint64_t nodes = 0;      // distinct nodes
    uint64_t tree_size = 0;  // nodes as a tree (saturates at 2^62)
    uint64_t depth = 0;      // longest path from the root to a leaf
    bool has_lets = false;
};
ExprShape expr_shape(const Expr &e);

// Whether e, as a tree, has fewer than limit nodes: visits at most limit nodes.
bool tree_size_below(const Expr &e, uint64_t limit);

// e with every shared subexpression of a few nodes or more bound by a Let (unchanged if e
// shares little, or already binds names of its own).
// shape, if given, receives e's shape (found on the way); e comes back unchanged if it is
// deeper than max_depth.
Expr common_subexpression_elimination(const Expr &e, ExprShape *shape = nullptr,
                                      uint64_t max_depth = UINT64_MAX);

}  // namespace halo
