// The ground truth: evaluates a Func straight from its definitions, point by point, ignoring
// every schedule directive. Slow and simple on purpose; tests compare compiled code to it.
#pragma once

#include <vector>

#include "dsl/Buffer.h"

namespace halo {

class Func;

// Fills dst (any mins) with f's values.
void reference_realize(const Func &f, Buffer<> &dst);
// f over [0, sizes) in each dimension.
Buffer<> reference_realize(const Func &f, const std::vector<int> &sizes);

}  // namespace halo
