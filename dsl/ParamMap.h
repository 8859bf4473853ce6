// Inputs for one call: values of Params and buffers of ImageParams that a realization uses
// instead of those set on the parameters themselves (Halide's ParamMap). With it, threads
// realizing the same pipeline at once can each give their own inputs.
#pragma once

#include <cstring>
#include <initializer_list>
#include <memory>
#include <vector>

#include "Buffer.h"
#include "Param.h"

namespace halo {

class ParamMap {
public:
    // One parameter's value for the call: {param, value} or {image_param, buffer}.
    struct ParamMapping {
        std::shared_ptr<ParameterContents> param;
        alignas(8) unsigned char scalar[8] = {};
        Buffer<> buffer;

        template <typename T, typename V, typename = std::enable_if_t<std::is_arithmetic_v<V>>>
        ParamMapping(const Param<T> &p, V value) : param(p.parameter()) {
            T v = T(value);
            std::memcpy(scalar, &v, sizeof v);
        }
        template <typename T>
        ParamMapping(const ImageParam &p, const Buffer<T> &b) : param(p.parameter()), buffer(b) {
            check_image_param_buffer(*param, buffer, "mapped to");
        }
    };

    ParamMap() = default;
    ParamMap(std::initializer_list<ParamMapping> mappings) {
        for (const ParamMapping &m : mappings) add(m);
    }

    template <typename T>
    void set(const Param<T> &p, T value) { add(ParamMapping(p, value)); }
    template <typename T>
    void set(const ImageParam &p, const Buffer<T> &b) { add(ParamMapping(p, b)); }

    size_t size() const { return mappings_.size(); }
    // The mapping of a parameter, or nullptr if the map does not mention it.
    const ParamMapping *find(const ParameterContents *p) const {
        for (const ParamMapping &m : mappings_) {
            if (m.param.get() == p) return &m;
        }
        return nullptr;
    }
    static const ParamMap &empty_map() {
        static const ParamMap empty;
        return empty;
    }

private:
    // A later mapping of the same parameter replaces the earlier one.
    void add(const ParamMapping &m) {
        for (ParamMapping &old : mappings_) {
            if (old.param == m.param) {
                old = m;
                return;
            }
        }
        mappings_.push_back(m);
    }
    std::vector<ParamMapping> mappings_;
};

}  // namespace halo
