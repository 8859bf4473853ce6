// Halide's mux: one of several values chosen by an index, as a many-way select().
#pragma once

#include <initializer_list>
#include <vector>

#include "IR.h"
#include "Tuple.h"

namespace halo {

// values[id], or the last value where id is out of range (negative or too large), as in
// Halide: img(x, y, c) = mux(c, {100, 50, 25}). The values must have one type.
Expr mux(const Expr &id, const std::vector<Expr> &values);
Expr mux(const Expr &id, std::initializer_list<Expr> values);
// The Tuple's elements as the values.
Expr mux(const Expr &id, const Tuple &values);
// Tuples of one size and types: the element-wise mux.
Tuple mux(const Expr &id, const std::vector<Tuple> &values);
Tuple mux(const Expr &id, std::initializer_list<Tuple> values);

}  // namespace halo
