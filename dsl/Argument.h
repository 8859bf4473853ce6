// Argument (Halide's): one argument of an ahead-of-time compiled pipeline function, an
// ImageParam (a buffer) or a Param (a scalar), in the order the function takes them:
// brighter.compile_to_static_library("brighter", {input, offset}).
#pragma once

#include <string>

#include "Param.h"
#include "Type.h"

namespace halo {

struct Argument {
    std::string name;
    bool is_buffer = false;
    Type type;
    int dimensions = 0;

    Argument() = default;
    Argument(std::string name, bool is_buffer, Type type, int dimensions)
        : name(std::move(name)), is_buffer(is_buffer), type(type), dimensions(dimensions) {}
    Argument(const ImageParam &p) : name(p.name()), is_buffer(true), type(p.type()), dimensions(p.dimensions()) {}
    template <typename T>
    Argument(const Param<T> &p) : name(p.name()), type(p.parameter()->type) {}
};

}  // namespace halo
