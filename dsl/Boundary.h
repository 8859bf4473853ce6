// Boundary conditions: Funcs that extend an input beyond its bounds (Halide's names).
// Without explicit bounds, an ImageParam's or Buffer's own bounds are used.
#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "Func.h"
#include "Param.h"
#include "Tuple.h"

namespace halo {
namespace BoundaryConditions {

using Region = std::vector<std::pair<Expr, Expr>>;  // (min, extent) per dimension

// Reads clamped to the nearest edge.
Func repeat_edge(const Func &source, const Region &bounds);
Func repeat_edge(const ImageParam &source, const Region &bounds = {});
Func repeat_edge(const Buffer<> &source, const Region &bounds = {});
// Outside the bounds, the given value (a Tuple of one value per element for a Tuple-valued
// source; the other conditions apply to every element of one).
Func constant_exterior(const Func &source, Expr value, const Region &bounds);
Func constant_exterior(const ImageParam &source, Expr value, const Region &bounds = {});
Func constant_exterior(const Buffer<> &source, Expr value, const Region &bounds = {});
Func constant_exterior(const Func &source, const Tuple &value, const Region &bounds);
Func constant_exterior(const ImageParam &source, const Tuple &value, const Region &bounds = {});
Func constant_exterior(const Buffer<> &source, const Tuple &value, const Region &bounds = {});
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

// The bounds given as arguments, min and extent of each dimension in turn, as in Halide:
// repeat_edge(f, 0, w, 0, h) is repeat_edge(f, {{0, w}, {0, h}}).
namespace detail {
inline void append_bounds(Region &) {}
template <typename... Rest>
void append_bounds(Region &r, const Expr &min, const Expr &extent, Rest &&...rest) {
    r.push_back({min, extent});
    append_bounds(r, std::forward<Rest>(rest)...);
}
template <typename... Bounds>
Region region_of_arguments(const Expr &min, const Expr &extent, Bounds &&...rest) {
    static_assert(sizeof...(Bounds) % 2 == 0, "boundary conditions take a min and an extent per dimension");
    Region r;
    append_bounds(r, min, extent, std::forward<Bounds>(rest)...);
    return r;
}
}  // namespace detail
template <typename S, typename... Bounds>
Func repeat_edge(const S &source, const Expr &min, const Expr &extent, Bounds &&...rest) {
    return repeat_edge(source, detail::region_of_arguments(min, extent, std::forward<Bounds>(rest)...));
}
template <typename S, typename V, typename... Bounds>
Func constant_exterior(const S &source, const V &value, const Expr &min, const Expr &extent, Bounds &&...rest) {
    return constant_exterior(source, value, detail::region_of_arguments(min, extent, std::forward<Bounds>(rest)...));
}
template <typename S, typename... Bounds>
Func mirror_image(const S &source, const Expr &min, const Expr &extent, Bounds &&...rest) {
    return mirror_image(source, detail::region_of_arguments(min, extent, std::forward<Bounds>(rest)...));
}
template <typename S, typename... Bounds>
Func mirror_interior(const S &source, const Expr &min, const Expr &extent, Bounds &&...rest) {
    return mirror_interior(source, detail::region_of_arguments(min, extent, std::forward<Bounds>(rest)...));
}
template <typename S, typename... Bounds>
Func repeat_image(const S &source, const Expr &min, const Expr &extent, Bounds &&...rest) {
    return repeat_image(source, detail::region_of_arguments(min, extent, std::forward<Bounds>(rest)...));
}

}  // namespace BoundaryConditions
namespace boundary = BoundaryConditions;
}  // namespace halo
