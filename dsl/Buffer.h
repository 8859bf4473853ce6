// Buffer<T>: an n-dimensional strided array, owning its memory or wrapping the user's.
// Buffer<void> (the default) has its element type at run time. Dimension 0 is innermost.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdlib>
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
        d.type_code = type.code();
        d.type_bits = type.bits();
        d.dimensions = int32_t(dims.size());
        d.dim = const_cast<halo_dimension_t *>(dims.data());
        return d;
    }
    // The descriptor generated code reads; valid while this object lives.
    halo_buffer_t *raw_buffer() {
        raw.host = host;
        raw.type_code = type.code();
        raw.type_bits = type.bits();
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
    // Wraps user memory of the given extents: Buffer<float>(ptr, 640, 480).
    template <typename... Ints, typename = std::enable_if_t<(std::is_integral_v<Ints> && ...)>>
    Buffer(T *data, int first, Ints... rest) : Buffer(data, std::vector<int>{first, int(rest)...}) {}
    // Wraps user memory with explicit per-dimension min, extent and stride (in elements), as
    // Halide's Buffer(T *data, int dimensions, const halide_dimension_t *shape).
    Buffer(T *data, int dimensions, const halo_dimension_t *shape, const std::string &name = "") {
        static_assert(!is_dynamic, "wrap memory with a typed Buffer<T>");
        user_assert(dimensions >= 0 && (dimensions == 0 || shape != nullptr))
            << "Buffer: wrapping memory needs a shape for each of its " << dimensions << " dimensions";
        contents = std::make_shared<BufferContents>();
        contents->name = name.empty() ? unique_name('b') : name;
        contents->type = static_type();
        contents->dims.assign(shape, shape + dimensions);
        contents->host = reinterpret_cast<uint8_t *>(data);
    }
    // Halide's named constructors. An interleaved image: channels innermost in memory (strides
    // channels, width * channels and 1), as a PNG is laid out.
    static Buffer make_interleaved(int width, int height, int channels, const std::string &name = "") {
        static_assert(!is_dynamic, "Buffer<void> needs a Type: Buffer<>::make_interleaved(type, ...)");
        return make_interleaved(static_type(), width, height, channels, name);
    }
    static Buffer make_interleaved(Type t, int width, int height, int channels, const std::string &name = "") {
        Buffer b(t, {channels, width, height}, name);
        return b.transposed({1, 2, 0});
    }
    // A buffer of no dimensions (one element).
    static Buffer make_scalar(const std::string &name = "") {
        static_assert(!is_dynamic, "Buffer<void> needs a Type: Buffer<>::make_scalar(type)");
        return Buffer(static_type(), std::vector<int>{}, name);
    }
    static Buffer make_scalar(Type t, const std::string &name = "") { return Buffer(t, std::vector<int>{}, name); }
    // A new buffer with src's mins and extents and its storage order (the dimension with the
    // smallest stride innermost), dense and zero-filled.
    template <typename U>
    static Buffer make_with_shape_of(const Buffer<U> &src, const std::string &name = "") {
        const std::vector<int> order = src.storage_order();
        std::vector<int> sizes;
        for (int d : order) sizes.push_back(src.dim(d).extent());
        Buffer<> dense(src.type(), sizes, name);
        Buffer out(dense.transposed(inverse_permutation(order)));
        std::vector<int> mins;
        for (int d = 0; d < src.dimensions(); d++) mins.push_back(src.dim(d).min());
        out.set_min(mins);
        return out;
    }
    // Conversion between typed and untyped buffers (checked).
    template <typename U>
    Buffer(const Buffer<U> &other) : contents(other.contents) {
        if (contents) check_type(contents->type);
    }

    bool defined() const { return contents != nullptr; }
    Type type() const { return live("type")->type; }
    const std::string &name() const { return live("name")->name; }
    int dimensions() const { return int(live("dimensions")->dims.size()); }
    struct DimView {
        const halo_dimension_t &d;
        int min() const { return d.min; }
        int extent() const { return d.extent; }
        int max() const { return d.min + d.extent - 1; }
        int stride() const { return d.stride; }
        // The coordinates of the dimension, as in Halide: for (int y : buf.dim(1)) ...
        struct iterator {
            int64_t value;
            int operator*() const { return int(value); }
            iterator &operator++() {
                ++value;
                return *this;
            }
            bool operator!=(const iterator &other) const { return value != other.value; }
        };
        iterator begin() const { return {d.min}; }
        iterator end() const { return {int64_t(d.min) + std::max(d.extent, 0)}; }
    };
    DimView dim(int i) const {
        user_assert(i >= 0 && i < dimensions())
            << "Buffer '" << name() << "' has " << dimensions() << " dimensions; no dimension " << i;
        return DimView{contents->dims[i]};
    }
    int min(int d) const { return dim(d).min(); }
    int extent(int d) const { return dim(d).extent(); }
    int stride(int d) const { return dim(d).stride(); }
    // Halide's names for the edges of the first two dimensions.
    int left() const { return dim(0).min(); }
    int right() const { return dim(0).max(); }
    int top() const { return dim(1).min(); }
    int bottom() const { return dim(1).max(); }
    int width() const { return dimensions() > 0 ? dim(0).extent() : 1; }
    int height() const { return dimensions() > 1 ? dim(1).extent() : 1; }
    int channels() const { return dimensions() > 2 ? dim(2).extent() : 1; }
    // The bytes from the lowest to the highest element addressed (the buffer's footprint in
    // memory, as Halide's size_in_bytes); 0 if a dimension is empty.
    size_t size_in_bytes() const {
        int64_t span = 1;
        for (auto &d : live("size_in_bytes")->dims) {
            if (d.extent <= 0) return 0;
            span += int64_t(d.extent - 1) * (d.stride < 0 ? -int64_t(d.stride) : int64_t(d.stride));
        }
        return size_t(span) * size_t(type().bytes());
    }
    // Halide's device synchronisation calls: Halo computes on the host only, so the host's
    // memory is always current and these have nothing to do.
    int copy_to_host() const { return 0; }
    void set_host_dirty(bool = true) const {}
    int64_t number_of_elements() const {
        int64_t n = 1;
        for (auto &d : live("number_of_elements")->dims) n *= d.extent;
        return n;
    }
    auto *data() const {
        live("data");
        if constexpr (is_dynamic) return contents->host;
        else return reinterpret_cast<T *>(contents->host);
    }
    halo_buffer_t *raw_buffer() const { return live("raw_buffer")->raw_buffer(); }

    // Moves the buffer's coordinate origin: dimension i then starts at mins[i].
    Buffer &set_min(const std::vector<int> &mins) {
        for (size_t i = 0; i < mins.size() && i < live("set_min")->dims.size(); i++) contents->dims[i].min = mins[i];
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
    // Calls f for every element, x fastest, with its coordinates: f(const std::vector<int> &),
    // f(const int *), or one int per dimension as in Halide (f(int x, int y) for 2-D). As in
    // Halide, a callable of k ints on a buffer of more dimensions is called once per point of
    // the first k dimensions (it loops over the others itself), and one of more ints than
    // dimensions gets 0 for the extra ones.
    template <typename F>
    void for_each_element(F &&f) const {
        if constexpr (std::is_invocable_v<F &, const std::vector<int> &>) {
            walk_elements(f);
        } else if constexpr (std::is_invocable_v<F &, const int *>) {
            walk_elements([&](const std::vector<int> &c) { f(c.data()); });
        } else if constexpr (std::is_invocable_v<F &, int>) {
            walk_first_dimensions(1, [&](const int *c) { f(c[0]); });
        } else if constexpr (std::is_invocable_v<F &, int, int>) {
            walk_first_dimensions(2, [&](const int *c) { f(c[0], c[1]); });
        } else if constexpr (std::is_invocable_v<F &, int, int, int>) {
            walk_first_dimensions(3, [&](const int *c) { f(c[0], c[1], c[2]); });
        } else {
            static_assert(std::is_invocable_v<F &, int, int, int, int>,
                          "for_each_element: f takes const std::vector<int> &, const int *, or 1 to 4 ints");
            walk_first_dimensions(4, [&](const int *c) { f(c[0], c[1], c[2], c[3]); });
        }
    }
    // Two forms. f(coords) -> value: sets every element to it (Halo's). f(T &value, U &other...)
    // as in Halide: calls f with every element and the elements of the other buffers at the
    // same coordinates (they must cover this buffer's region). Both visit the elements in this
    // buffer's storage order (dimensions by increasing stride), as Halide's for_each_value does.
    template <typename F, typename... Others>
    Buffer &for_each_value(F f, Others &...others) {
        if constexpr (sizeof...(Others) == 0 && std::is_invocable_v<F &, const std::vector<int> &>) {
            walk_elements([&](const std::vector<int> &c) { set_value(c, f(c)); }, storage_order());
        } else {
            static_assert(!is_dynamic, "for_each_value(f(T &value, ...)) needs a typed Buffer<T>");
            walk_elements([&](const std::vector<int> &c) { f((*this)(c), others(c)...); }, storage_order());
        }
        return *this;
    }
    // Whether the coordinates lie inside the buffer.
    bool contains(const std::vector<int> &coords) const {
        if (int(coords.size()) != dimensions()) return false;
        for (int d = 0; d < dimensions(); d++) {
            const halo_dimension_t &dm = contents->dims[d];
            if (coords[d] < dm.min || int64_t(coords[d]) > int64_t(dm.min) + dm.extent - 1) return false;
        }
        return true;
    }
    template <typename... Ints, typename = std::enable_if_t<(std::is_integral_v<Ints> && ...)>>
    bool contains(Ints... coords) const { return contains(std::vector<int>{int(coords)...}); }

    // Views of the same memory (as in Halide; the view keeps an owned allocation alive):
    // dimension d restricted to [min, min + extent), or fixed at pos (one dimension fewer).
    Buffer cropped(int d, int min, int extent) const {
        check_dim(d, "cropped");
        const halo_dimension_t &dm = contents->dims[d];
        user_assert(extent >= 0 && min >= dm.min && int64_t(min) + extent <= int64_t(dm.min) + dm.extent)
            << "Buffer '" << name() << "'.cropped(" << d << ", " << min << ", " << extent << "): [" << min << ", "
            << int64_t(min) + extent - 1 << "] is not inside dimension " << d << "'s [" << dm.min << ", "
            << int64_t(dm.min) + dm.extent - 1 << "]";
        Buffer view = alias();
        view.contents->host += int64_t(min - dm.min) * dm.stride * type().bytes();
        view.contents->dims[d].min = min;
        view.contents->dims[d].extent = extent;
        return view;
    }
    // In place: every handle of this buffer sees the new shape (as in Halide).
    Buffer &crop(int d, int min, int extent) { return become(cropped(d, min, extent)); }
    // The first rect.size() dimensions cropped to {min, extent} each: b.cropped({{0, 8}, {2, 4}}).
    Buffer cropped(const std::vector<std::pair<int, int>> &rect) const {
        user_assert(int(rect.size()) <= dimensions())
            << "Buffer '" << name() << "'.cropped: given " << rect.size() << " ranges but it has " << dimensions()
            << " dimensions";
        Buffer view = alias();
        for (size_t d = 0; d < rect.size(); d++) view = view.cropped(int(d), rect[d].first, rect[d].second);
        return view;
    }
    Buffer &crop(const std::vector<std::pair<int, int>> &rect) { return become(cropped(rect)); }
    Buffer sliced(int d, int pos) const {
        check_dim(d, "sliced");
        const halo_dimension_t &dm = contents->dims[d];
        user_assert(pos >= dm.min && int64_t(pos) <= int64_t(dm.min) + dm.extent - 1)
            << "Buffer '" << name() << "'.sliced(" << d << ", " << pos << "): " << pos << " is not inside dimension "
            << d << "'s [" << dm.min << ", " << int64_t(dm.min) + dm.extent - 1 << "]";
        Buffer view = alias();
        view.contents->host += int64_t(pos - dm.min) * dm.stride * type().bytes();
        view.contents->dims.erase(view.contents->dims.begin() + d);
        return view;
    }
    Buffer sliced(int d) const { return sliced(d, dim(d).min()); }
    Buffer &slice(int d, int pos) { return become(sliced(d, pos)); }
    // Moves the coordinates of dimension d (or of each dimension) by delta.
    Buffer &translate(int d, int delta) {
        check_dim(d, "translate");
        contents->dims[d].min += delta;
        return *this;
    }
    Buffer &translate(const std::vector<int> &deltas) {
        for (size_t d = 0; d < deltas.size(); d++) translate(int(d), deltas[d]);
        return *this;
    }
    Buffer translated(int d, int delta) const { return alias().translate(d, delta); }
    Buffer translated(const std::vector<int> &deltas) const { return alias().translate(deltas); }
    // A dimension of extent 1 inserted at d, whose one coordinate is pos (Halide's embedded),
    // or added after the last (add_dimension, coordinate 0).
    Buffer embedded(int d, int pos = 0) const {
        user_assert(d >= 0 && d <= dimensions())
            << "Buffer '" << name() << "'.embedded(" << d << ", ...): it has " << dimensions()
            << " dimensions, so the new one goes at 0 to " << dimensions();
        Buffer view = alias();
        int64_t stride = 1;
        for (auto &dm : contents->dims) stride = std::max(stride, int64_t(dm.extent) * std::abs(int64_t(dm.stride)));
        user_assert(stride <= INT32_MAX) << "Buffer '" << name() << "'.embedded: its stride would not fit 32 bits";
        view.contents->dims.insert(view.contents->dims.begin() + d, halo_dimension_t{pos, 1, int32_t(stride), 0});
        return view;
    }
    Buffer &embed(int d, int pos = 0) { return become(embedded(d, pos)); }
    Buffer &add_dimension() { return embed(dimensions(), 0); }
    // Swaps dimensions d1 and d2 of the descriptor: the same memory, seen with its axes
    // exchanged (Halide's transposed; an interleaved image is a (c, x, y) buffer transposed to
    // (x, y, c)).
    Buffer transposed(int d1, int d2) const {
        check_dim(d1, "transposed");
        check_dim(d2, "transposed");
        Buffer view = alias();
        std::swap(view.contents->dims[d1], view.contents->dims[d2]);
        return view;
    }
    Buffer &transpose(int d1, int d2) { return become(transposed(d1, d2)); }
    // Dimension i of the view is dimension order[i] of this buffer (order is a permutation).
    Buffer transposed(const std::vector<int> &order) const {
        std::vector<bool> seen(dimensions(), false);
        bool permutation = int(order.size()) == dimensions();
        for (int d : order) {
            permutation = permutation && d >= 0 && d < dimensions() && !seen[d];
            if (permutation) seen[d] = true;
        }
        user_assert(permutation) << "Buffer '" << name() << "'.transposed(order): the order must name each of its "
                                 << dimensions() << " dimensions once";
        Buffer view = alias();
        for (size_t i = 0; i < order.size(); i++) view.contents->dims[i] = contents->dims[order[i]];
        return view;
    }
    Buffer &transpose(const std::vector<int> &order) { return become(transposed(order)); }
    // Whether every element equals v.
    template <typename V>
    bool all_equal(V v) const {
        bool equal = true;
        walk_elements([&](const std::vector<int> &c) { equal = equal && get_as_double(c) == double(v); });
        return equal;
    }
    // Copies the elements of src that this buffer also covers (as Halide's copy_from).
    template <typename U>
    void copy_from(const Buffer<U> &src) {
        user_assert(src.type() == type() && src.dimensions() == dimensions())
            << "Buffer '" << name() << "'.copy_from('" << src.name() << "'): the buffers must have the same type and dimensions";
        int bytes = type().bytes();
        walk_elements([&](const std::vector<int> &c) {
            if (src.contains(c)) {
                std::memcpy(&contents->host[contents->offset_of(c.data()) * bytes],
                            &src.contents->host[src.contents->offset_of(c.data()) * bytes], bytes);
            }
        });
    }

    // The element as a double, whatever the type (for tests and tools).
    double get_as_double(const std::vector<int> &c) const;
    void set_value(const std::vector<int> &c, double v) const;

    // A deep copy with its own dense storage and the same mins.
    Buffer copy() const {
        live("copy");
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

    // The dimensions by increasing stride (stable, so equal strides keep their order).
    std::vector<int> storage_order() const {
        std::vector<int> order(dimensions());
        for (int d = 0; d < dimensions(); d++) order[d] = d;
        std::stable_sort(order.begin(), order.end(),
                         [&](int a, int b) { return contents->dims[a].stride < contents->dims[b].stride; });
        return order;
    }

private:
    static std::vector<int> inverse_permutation(const std::vector<int> &order) {
        std::vector<int> inverse(order.size());
        for (size_t i = 0; i < order.size(); i++) inverse[order[i]] = int(i);
        return inverse;
    }
    // Visits every element's coordinates, dimension order[0] fastest (x fastest by default).
    template <typename F>
    void walk_elements(F &&f, const std::vector<int> &order = {}) const {
        int n = dimensions();
        std::vector<int> c(n);
        if (!start_at_mins(c.data(), n)) return;
        do {
            f(static_cast<const std::vector<int> &>(c));
        } while (advance(c.data(), n, order));
    }
    // Visits the points of the first k dimensions (Halide's for_each_element with a callable
    // of k ints); coordinates past the buffer's dimensions are 0.
    template <typename F>
    void walk_first_dimensions(int k, F &&f) const {
        int walked = std::min(k, dimensions());
        int c[4] = {0, 0, 0, 0};
        if (!start_at_mins(c, walked)) return;
        do {
            f(static_cast<const int *>(c));
        } while (advance(c, walked, {}));
    }
    // Sets the first n coordinates to their dimensions' mins; false if one of them is empty.
    bool start_at_mins(int *c, int n) const {
        for (int d = 0; d < n; d++) {
            if (contents->dims[d].extent <= 0) return false;
            c[d] = contents->dims[d].min;
        }
        return true;
    }
    // The next point of the first n dimensions, order[0] (or dimension 0) fastest; false after
    // the last one.
    bool advance(int *c, int n, const std::vector<int> &order) const {
        for (int i = 0; i < n; i++) {
            int d = order.empty() ? i : order[i];
            if (int64_t(c[d]) + 1 <= int64_t(contents->dims[d].min) + contents->dims[d].extent - 1) {
                c[d]++;
                return true;
            }
            c[d] = contents->dims[d].min;
        }
        return false;
    }
    void check_dim(int d, const char *what) const {
        user_assert(d >= 0 && d < dimensions())
            << "Buffer '" << name() << "'." << what << "(" << d << ", ...): it has " << dimensions() << " dimensions";
    }
    Buffer &become(const Buffer &view) {
        contents->host = view.contents->host;
        contents->dims = view.contents->dims;
        return *this;
    }
    // A new descriptor of the same memory, sharing its ownership.
    Buffer alias() const {
        Buffer view;
        view.contents = std::make_shared<BufferContents>();
        view.contents->name = contents->name;
        view.contents->type = contents->type;
        view.contents->dims = contents->dims;
        view.contents->storage = contents->storage;
        view.contents->host = contents->host;
        return view;
    }
    // The contents, or a CompileError naming the method if the Buffer has none (Halide fails
    // too, where a default-constructed Buffer is used as if it held one).
    BufferContents *live(const char *method) const {
        user_assert(contents != nullptr) << "Buffer::" << method << "() of an undefined Buffer (default-constructed, "
                                         << "with no storage); give it sizes, or assign it a Buffer, before using it";
        return contents.get();
    }
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
    return buffer_get_as_double(*live("get_as_double"), c.data());
}
template <typename T>
void Buffer<T>::set_value(const std::vector<int> &c, double v) const {
    buffer_set_from_double(*live("set_value"), c.data(), v);
}
template <typename T>
Expr Buffer<T>::operator()(std::vector<Expr> args) const {
    live("operator()");
    return buffer_call(contents, std::move(args));
}

}  // namespace halo
