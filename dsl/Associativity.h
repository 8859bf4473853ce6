// Recognising associative updates, for rfactor and for reordering a reduction's loops: an
// update f(args) = f(args) op e whose result does not depend on the order its RDom's points are
// visited in (up to the rounding of floats, as in Halide).
#pragma once

#include <vector>

#include "Function.h"

namespace halo {

// The recognised forms, one per value of f:
// - every value on its own: f(args)[i] = f(args)[i] op_i e_i, op_i one of +, *, min and max,
//   with no e_i reading f (a Func of one value, or a Tuple sum or min);
// - a product of complex numbers, value 0 the real and value 1 the imaginary part:
//   f = (f0 * e0 - f1 * e1, f1 * e0 + f0 * e1) (Halide's associativity prover knows it too).
// Every form is commutative as well, so the points may also be visited in any order.
struct AssociativeUpdate {
    enum Op { Add, Mul, Min, Max };
    bool complex_mul = false;
    std::vector<Op> ops;        // per value, where !complex_mul
    std::vector<Expr> others;   // e, per value

    // The values the reduction starts from, for values of these types.
    std::vector<Expr> identity(const std::vector<Type> &types) const;
    // a op b, value by value.
    std::vector<Expr> combine(const std::vector<Expr> &a, const std::vector<Expr> &b) const;
};

// Whether the update (values at the left side args) of f is one of the forms above; fills out.
// False where a left side or an e reads f.
bool match_associative(const std::vector<Expr> &values, const FunctionContents &f, const std::vector<Expr> &args,
                       AssociativeUpdate &out);

// Whether e calls f (by identity: another Func may have f's name).
bool calls_func(const Expr &e, const FunctionContents &f);

}  // namespace halo
