// Header-only C++ helper for calling ahead-of-time compiled pipelines: makes halo_buffer_t
// descriptors from user memory (dense, dimension 0 innermost) or from a halo::Buffer.
#pragma once

#include <initializer_list>
#include <type_traits>
#include <vector>

#include "HaloRuntime.h"

namespace halo {
namespace aot {

template <typename T>
constexpr halo_type_code_t type_code() {
    return std::is_floating_point<T>::value ? halo_type_float
                                            : std::is_signed<T>::value ? halo_type_int : halo_type_uint;
}

// Owns the dimension array; converts to halo_buffer_t* for the generated function.
class BufferRef {
public:
    // Dense memory with the given extents (dimension 0 innermost) and mins.
    template <typename T>
    BufferRef(T *data, std::initializer_list<int> extents, std::initializer_list<int> mins = {}) {
        int stride = 1;
        auto m = mins.begin();
        for (int e : extents) {
            int mn = m != mins.end() ? *m++ : 0;
            dims_.push_back({mn, e, stride, 0});
            stride *= e;
        }
        init(reinterpret_cast<uint8_t *>(data), type_code<T>(), std::is_same<T, bool>::value ? 1 : 8 * sizeof(T));
    }
    // Explicit per-dimension min, extent and stride (in elements).
    template <typename T>
    BufferRef(T *data, const std::vector<halo_dimension_t> &dims) : dims_(dims) {
        init(reinterpret_cast<uint8_t *>(data), type_code<T>(), 8 * sizeof(T));
    }
    // Any object with raw_buffer() (such as halo::Buffer).
    template <typename B, typename = decltype(std::declval<const B &>().raw_buffer())>
    BufferRef(const B &b) {
        const halo_buffer_t *r = b.raw_buffer();
        dims_.assign(r->dim, r->dim + r->dimensions);
        init(r->host, halo_type_code_t(r->type_code), r->type_bits);
    }
    BufferRef(const BufferRef &o) : dims_(o.dims_), buf_(o.buf_) { buf_.dim = dims_.data(); }
    BufferRef &operator=(const BufferRef &) = delete;

    operator halo_buffer_t *() { return &buf_; }
    halo_buffer_t *get() { return &buf_; }

private:
    void init(uint8_t *host, halo_type_code_t code, int bits) {
        buf_.host = host;
        buf_.type_code = uint8_t(code);
        buf_.type_bits = uint8_t(bits);
        buf_.reserved = 0;
        buf_.dimensions = int32_t(dims_.size());
        buf_.dim = dims_.data();
    }
    std::vector<halo_dimension_t> dims_;
    halo_buffer_t buf_{};
};

}  // namespace aot
}  // namespace halo
