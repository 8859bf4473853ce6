// The ground truth: evaluates a Func straight from its definitions, point by point, ignoring
// every schedule directive. Slow and simple on purpose; tests compare compiled code to it.
#pragma once

#include <vector>

#include "dsl/Buffer.h"
#include "dsl/Tuple.h"

namespace halo {

class Func;

// Fills dst (any mins) with f's values.
void reference_realize(const Func &f, Buffer<> &dst);
// A Tuple-valued Func: one buffer per value, all over the same region.
void reference_realize(const Func &f, Realization &dst);
// f over [0, sizes) in each dimension (one buffer per value).
Realization reference_realize(const Func &f, const std::vector<int> &sizes);

}  // namespace halo
