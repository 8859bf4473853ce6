// Boundary conditions: Funcs that extend an input beyond its bounds (Halide's names).
// Without explicit bounds, an ImageParam's or Buffer's own bounds are used.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "Func.h"
#include "Param.h"

namespace halo {
namespace BoundaryConditions {

using Region = std::vector<std::pair<Expr, Expr>>;  // (min, extent) per dimension

// Reads clamped to the nearest edge.
Func repeat_edge(const Func &source, const Region &bounds);
Func repeat_edge(const ImageParam &source, const Region &bounds = {});
Func repeat_edge(const Buffer<> &source, const Region &bounds = {});
// Outside the bounds, the given value.
Func constant_exterior(const Func &source, Expr value, const Region &bounds);
Func constant_exterior(const ImageParam &source, Expr value, const Region &bounds = {});
Func constant_exterior(const Buffer<> &source, Expr value, const Region &bounds = {});
// The image reflected at its edges (edge pixels repeated: ... 2 1 0 | 0 1 2 ... n-1 | n-1 ...).
Func mirror_image(const Func &source, const Region &bounds);
Func mirror_image(const ImageParam &source, const Region &bounds = {});
Func mirror_image(const Buffer<> &source, const Region &bounds = {});
// Reflected without repeating the edge pixels (... 2 1 | 0 1 2 ... n-1 | n-2 ...).
Func mirror_interior(const Func &source, const Region &bounds);
Func mirror_interior(const ImageParam &source, const Region &bounds = {});
Func mirror_interior(const Buffer<> &source, const Region &bounds = {});
// The image tiled over the plane (... n-1 | 0 1 ... n-1 | 0 ...).
Func repeat_image(const Func &source, const Region &bounds);
Func repeat_image(const ImageParam &source, const Region &bounds = {});
Func repeat_image(const Buffer<> &source, const Region &bounds = {});

}  // namespace BoundaryConditions
namespace boundary = BoundaryConditions;
}  // namespace halo
