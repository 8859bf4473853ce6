// Inline reductions (Halide's names): sum(f(x + r.x)) is a call of an anonymous Func that
// reduces the expression over its RDom, computed inline within its user.
#pragma once

#include <string>

#include "IR.h"
#include "Tuple.h"
#include "Var.h"

namespace halo {

// Over the one RDom whose RVars e uses (RVars of several RDoms are an error: say which one
// with the forms below).
Expr sum(Expr e, const std::string &name = "sum");
// The sum, clamped to e's type at each step (a float sum is an ordinary sum).
Expr saturating_sum(Expr e, const std::string &name = "saturating_sum");
Expr product(Expr e, const std::string &name = "product");
Expr maximum(Expr e, const std::string &name = "maximum");
Expr minimum(Expr e, const std::string &name = "minimum");
// The first maximum / minimum of e over its RDom, as Halide's: a Tuple of the point's coordinates
// (in RDom dimension order; the first in iteration order, dimension 0 fastest) and then the value.
Tuple argmax(Expr e, const std::string &name = "argmax");
Tuple argmin(Expr e, const std::string &name = "argmin");

// The same over the RDom r only: RVars of other RDoms in e stay free, so an outer reduction
// can reduce over them: product(sum(r1, r1 + r3) + sum(r2, r2 * 2 + r3)) is a product over r3.
Expr sum(const RDom &r, Expr e, const std::string &name = "sum");
Expr saturating_sum(const RDom &r, Expr e, const std::string &name = "saturating_sum");
Expr product(const RDom &r, Expr e, const std::string &name = "product");
Expr maximum(const RDom &r, Expr e, const std::string &name = "maximum");
Expr minimum(const RDom &r, Expr e, const std::string &name = "minimum");
Tuple argmax(const RDom &r, Expr e, const std::string &name = "argmax");
Tuple argmin(const RDom &r, Expr e, const std::string &name = "argmin");

}  // namespace halo
