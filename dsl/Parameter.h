// The run-time inputs of a pipeline: scalar Params and buffers (ImageParam or Buffer).
#pragma once

#include <cstring>
#include <memory>
#include <string>

#include "Type.h"

namespace halo {

struct BufferContents;

struct ParameterContents {
    std::string name;
    Type type;
    bool is_buffer = false;
    int dimensions = 0;
    // For scalars: the value, stored as the native C type's bytes.
    alignas(8) unsigned char scalar[8] = {};
    bool scalar_set = false;
    // For buffers: the buffer bound to it (set by ImageParam::set or fixed for a Buffer).
    std::shared_ptr<BufferContents> buffer;
    bool is_fixed_buffer = false;  // a Buffer used directly in the algorithm

    template <typename T>
    void set_scalar(T v) {
        static_assert(sizeof(T) <= 8, "scalar too large");
        std::memset(scalar, 0, sizeof scalar);
        std::memcpy(scalar, &v, sizeof v);
        scalar_set = true;
    }
    // The scalar's value as a double or an int64 (for the reference evaluator).
    double scalar_as_double() const;
    int64_t scalar_as_int() const;
};

std::string unique_name(char prefix);

}  // namespace halo
