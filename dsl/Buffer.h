// Buffer<T>: an n-dimensional strided array, owning its memory or wrapping the user's.
// Buffer<void> (the default) has its element type at run time. Dimension 0 is innermost.
#pragma once

#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Error.h"
#include "IR.h"
#include "Parameter.h"

namespace halo {

// The dimensions of a dense buffer of the given sizes (x innermost), with checked strides.
std::vector<halo_dimension_t> dense_dimensions(const std::vector<int> &sizes, const std::string &name);

struct BufferContents {
    std::string name;
    Type type;
    std::vector<halo_dimension_t> dims;
    std::shared_ptr<uint8_t> storage;  // null when wrapping user memory
    uint8_t *host = nullptr;
    halo_buffer_t raw{};
    std::weak_ptr<ParameterContents> param;

    // A descriptor of this buffer for one call (generated code does not write to it, nor to
    // its dims), made without touching this object, so calls on other threads may make theirs.
    halo_buffer_t descriptor() const {
        halo_buffer_t d{};
        d.host = host;
        d.type_code = type.code;
        d.type_bits = type.bits;
        d.dimensions = int32_t(dims.size());
        d.dim = const_cast<halo_dimension_t *>(dims.data());
        return d;
    }
    // The descriptor generated code reads; valid while this object lives.
    halo_buffer_t *raw_buffer() {
        raw.host = host;
        raw.type_code = type.code;
        raw.type_bits = type.bits;
        raw.dimensions = int32_t(dims.size());
        raw.dim = dims.data();
        return &raw;
    }
    std::shared_ptr<ParameterContents> get_param(const std::shared_ptr<BufferContents> &self);
    int64_t offset_of(const int *coords) const {
        int64_t off = 0;
        for (size_t d = 0; d < dims.size(); d++) {
            int c = coords[d] - dims[d].min;
            user_assert(c >= 0 && c < dims[d].extent)
                << "Buffer '" << name << "' accessed at coordinate " << coords[d]
                << " in dimension " << d << ", outside [" << dims[d].min << ", "
                << dims[d].min + dims[d].extent - 1 << "]";
            off += int64_t(c) * dims[d].stride;
        }
        return off;
    }
    static std::shared_ptr<BufferContents> allocate(Type t, const std::vector<int> &sizes,
                                                    const std::string &name);
};

template <typename T = void>
class Buffer {
    static constexpr bool is_dynamic = std::is_void_v<T>;
    using ElemRef = std::conditional_t<is_dynamic, uint8_t, T> &;

public:
    std::shared_ptr<BufferContents> contents;

    Buffer() = default;
    // A dense buffer with the given extents (mins 0), x innermost.
    explicit Buffer(const std::vector<int> &sizes, const std::string &name = "")
        : contents(BufferContents::allocate(static_type(), sizes, name)) {
        static_assert(!is_dynamic, "Buffer<void> needs a Type: Buffer<>(type, sizes)");
    }
    template <typename... Ints, typename = std::enable_if_t<(std::is_integral_v<Ints> && ...)>>
    explicit Buffer(int first, Ints... rest)
        : Buffer(std::vector<int>{first, int(rest)...}) {}
    Buffer(Type t, const std::vector<int> &sizes, const std::string &name = "")
        : contents(BufferContents::allocate(t, sizes, name)) {
        check_type(t);
    }
    // Wraps user memory (dense, x innermost); the memory must outlive the Buffer.
    Buffer(T *data, const std::vector<int> &sizes, const std::string &name = "") {
        static_assert(!is_dynamic, "wrap memory with a typed Buffer<T>");
        contents = std::make_shared<BufferContents>();
        contents->name = name.empty() ? unique_name('b') : name;
        contents->type = static_type();
        contents->dims = dense_dimensions(sizes, contents->name);
        contents->host = reinterpret_cast<uint8_t *>(data);
    }
    // Wraps user memory with explicit per-dimension min, extent and stride (in elements).
    Buffer(T *data, const std::vector<halo_dimension_t> &dims, const std::string &name = "") {
        static_assert(!is_dynamic, "wrap memory with a typed Buffer<T>");
        contents = std::make_shared<BufferContents>();
        contents->name = name.empty() ? unique_name('b') : name;
        contents->type = static_type();
        contents->dims = dims;
        contents->host = reinterpret_cast<uint8_t *>(data);
    }
    // Conversion between typed and untyped buffers (checked).
    template <typename U>
    Buffer(const Buffer<U> &other) : contents(other.contents) {
        if (contents) check_type(contents->type);
    }

    bool defined() const { return contents != nullptr; }
    Type type() const { return contents->type; }
    const std::string &name() const { return contents->name; }
    int dimensions() const { return int(contents->dims.size()); }
    struct DimView {
        const halo_dimension_t &d;
        int min() const { return d.min; }
        int extent() const { return d.extent; }
        int max() const { return d.min + d.extent - 1; }
        int stride() const { return d.stride; }
    };
    DimView dim(int i) const {
        user_assert(i >= 0 && i < dimensions())
            << "Buffer '" << name() << "' has " << dimensions() << " dimensions; no dimension " << i;
        return DimView{contents->dims[i]};
    }
    int width() const { return dimensions() > 0 ? dim(0).extent() : 1; }
    int height() const { return dimensions() > 1 ? dim(1).extent() : 1; }
    int channels() const { return dimensions() > 2 ? dim(2).extent() : 1; }
    int64_t number_of_elements() const {
        int64_t n = 1;
        for (auto &d : contents->dims) n *= d.extent;
        return n;
    }
    auto *data() const {
        if constexpr (is_dynamic) return contents->host;
        else return reinterpret_cast<T *>(contents->host);
    }
    halo_buffer_t *raw_buffer() const { return contents->raw_buffer(); }

    // Moves the buffer's coordinate origin: dimension i then starts at mins[i].
    Buffer &set_min(const std::vector<int> &mins) {
        for (size_t i = 0; i < mins.size() && i < contents->dims.size(); i++) contents->dims[i].min = mins[i];
        return *this;
    }
    template <typename... Ints>
    Buffer &set_min(int first, Ints... rest) { return set_min(std::vector<int>{first, int(rest)...}); }

    // Element access with integer coordinates.
    template <typename... Ints, typename = std::enable_if_t<(std::is_integral_v<Ints> && ...)>>
    ElemRef operator()(Ints... coords) const {
        int c[] = {int(coords)..., 0};
        user_assert(int(sizeof...(Ints)) == dimensions())
            << "Buffer '" << name() << "' has " << dimensions() << " dimensions but was accessed with "
            << sizeof...(Ints) << " coordinates";
        return at(c);
    }
    ElemRef operator()(std::vector<int> &coords) const { return (*this)(static_cast<const std::vector<int> &>(coords)); }
    ElemRef operator()(const std::vector<int> &coords) const {
        user_assert(int(coords.size()) == dimensions())
            << "Buffer '" << name() << "' has " << dimensions() << " dimensions but was accessed with "
            << coords.size() << " coordinates";
        return at(coords.data());
    }
    // A read of this buffer inside an algorithm.
    Expr operator()(std::vector<Expr> args) const;
    template <typename... Args,
              typename = std::enable_if_t<!(std::is_integral_v<std::decay_t<Args>> && ...)>>
    Expr operator()(Args &&...args) const {
        return (*this)(std::vector<Expr>{Expr(args)...});
    }

    // Sets every element to v.
    template <typename V>
    Buffer &fill(V v) {
        for_each_element([&](const std::vector<int> &c) { set_value(c, v); });
        return *this;
    }
    // Calls f(coords) for every element, x fastest.
    void for_each_element(const std::function<void(const std::vector<int> &)> &f) const {
        int n = dimensions();
        std::vector<int> c(n);
        for (int d = 0; d < n; d++) {
            if (contents->dims[d].extent <= 0) return;
            c[d] = contents->dims[d].min;
        }
        while (true) {
            f(c);
            int d = 0;
            for (; d < n; d++) {
                if (++c[d] <= contents->dims[d].min + contents->dims[d].extent - 1) break;
                c[d] = contents->dims[d].min;
            }
            if (d == n) return;
        }
    }
    // Sets every element to f(coords).
    template <typename F>
    Buffer &for_each_value(F f) {
        for_each_element([&](const std::vector<int> &c) { set_value(c, f(c)); });
        return *this;
    }
    // The element as a double, whatever the type (for tests and tools).
    double get_as_double(const std::vector<int> &c) const;
    void set_value(const std::vector<int> &c, double v) const;

    // A deep copy with its own dense storage and the same mins.
    Buffer copy() const {
        std::vector<int> sizes;
        for (auto &d : contents->dims) sizes.push_back(d.extent);
        Buffer<T> out(Buffer<>(type(), sizes, name() + "_copy"));
        std::vector<int> mins;
        for (auto &d : contents->dims) mins.push_back(d.min);
        out.set_min(mins);
        int bytes = type().bytes();
        for_each_element([&](const std::vector<int> &c) {
            std::memcpy(&out.contents->host[out.contents->offset_of(c.data()) * bytes],
                        &contents->host[contents->offset_of(c.data()) * bytes], bytes);
        });
        return out;
    }

private:
    static Type static_type() {
        if constexpr (is_dynamic) return Type();
        else return type_of<T>();
    }
    static void check_type(Type t) {
        if constexpr (!is_dynamic) {
            user_assert(t == type_of<T>()) << "Buffer of type " << t.to_string()
                                           << " converted to Buffer<" << type_of<T>().to_string()
                                           << ">: use the matching element type";
        }
        (void)t;
    }
    ElemRef at(const int *c) const {
        int64_t off = contents->offset_of(c);
        if constexpr (is_dynamic) return contents->host[off * contents->type.bytes()];
        else return reinterpret_cast<T *>(contents->host)[off];
    }
};

// Reads element c of any buffer as a double.
double buffer_get_as_double(const BufferContents &b, const int *c);
void buffer_set_from_double(const BufferContents &b, const int *c, double v);
Expr buffer_call(const std::shared_ptr<BufferContents> &b, std::vector<Expr> args);

template <typename T>
double Buffer<T>::get_as_double(const std::vector<int> &c) const {
    return buffer_get_as_double(*contents, c.data());
}
template <typename T>
void Buffer<T>::set_value(const std::vector<int> &c, double v) const {
    buffer_set_from_double(*contents, c.data(), v);
}
template <typename T>
Expr Buffer<T>::operator()(std::vector<Expr> args) const {
    return buffer_call(contents, std::move(args));
}

}  // namespace halo
