// The inputs of a sweep's variants: deterministic pseudo-random buffers, PNG files, scalar
// values given as text.
#pragma once

#include <string>
#include <vector>

#include "dsl/Halo.h"

namespace halo::sweep {

// A buffer over [min, min + extent) per dimension whose every value depends only on the input's
// name and the coordinates, so that variants reading different regions see the same data:
// floats uniform in [0, 1), integers in [0, 255], bools 0 or 1.
Buffer<> pseudo_random_input(const std::string &name, Type type, const std::vector<int64_t> &min,
                             const std::vector<int64_t> &extent);

// A PNG file as input `name` of `type` (uint8, uint16, or float in [0, 1]) and `dimensions`
// (2: gray, the first channel of a colour file; 3: x, y, channels as stored). Its region is
// translated to start at `min` (the first point the variants read). Throws CompileError naming
// the input and the file if it cannot be used, or if it is smaller than `extent`.
Buffer<> png_input(const std::string &name, const std::string &path, Type type, int dimensions,
                   const std::vector<int64_t> &min, const std::vector<int64_t> &extent);

// Sets a scalar parameter of any type from text ("3", "-0.5", "true"); throws CompileError
// naming the input if the text is not a value of its type.
void set_scalar_from_text(ParameterContents &param, const std::string &text);

}  // namespace halo::sweep
