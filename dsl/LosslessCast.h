// Lossless casts: converting an Expr to another type only where no value can change. clamp
// uses them for its bounds, as Halide's clamp does, so a bound that might not fit x's type is
// refused instead of silently wrapping.
#pragma once

#include "IR.h"

namespace halo {

// Whether every value of type `from` is a value of type `to` (lanes are ignored): a wider
// integer of the same signedness, a signed integer wider than an unsigned one, or a float
// whose significand holds every value of the integer or float type.
bool type_can_represent(Type to, Type from);

// e as a value of type t if that conversion keeps every value e can take, else an undefined
// Expr. Halide 14's rules: equal types; a type t represents; constants t represents; through
// widening casts; and for integer t of 16 bits or more, sums, differences (signed t only) and
// products of two operands that fit in half of t's bits, computed in a type that holds t (so
// that they did not wrap). A Broadcast casts its value.
Expr lossless_cast(Type t, const Expr &e);

}  // namespace halo
