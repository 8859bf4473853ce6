// Argument (Halide's): one argument of an ahead-of-time compiled pipeline function, an
// ImageParam (a buffer) or a Param (a scalar), in the order the function takes them:
// brighter.compile_to_static_library("brighter", {input, offset}).
#pragma once

#include <string>

#include "Param.h"
#include "Type.h"

namespace halo {

struct Argument {
    // As Halide's: a scalar input, an input buffer, or an output buffer.
    enum Kind { InputScalar = 0, InputBuffer = 1, OutputBuffer = 2 };
    std::string name;
    Kind kind = InputScalar;
    Type type;
    int dimensions = 0;

    Argument() = default;
    Argument(std::string name, Kind kind, Type type, int dimensions)
        : name(std::move(name)), kind(kind), type(type), dimensions(dimensions) {}
    Argument(const ImageParam &p) : name(p.name()), kind(InputBuffer), type(p.type()), dimensions(p.dimensions()) {}
    template <typename T>
    Argument(const Param<T> &p) : name(p.name()), type(p.parameter()->type) {}

    bool is_buffer() const { return kind == InputBuffer || kind == OutputBuffer; }
    bool is_scalar() const { return kind == InputScalar; }
    bool is_input() const { return kind == InputScalar || kind == InputBuffer; }
    bool is_output() const { return kind == OutputBuffer; }
};

}  // namespace halo
