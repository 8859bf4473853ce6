// Header-only C++ helpers for calling ahead-of-time compiled pipelines: halo_buffer_t
// descriptors from user memory (dense, dimension 0 innermost) or from a halo::Buffer, and a
// context for the functions' _with_context entry points.
#pragma once

#include <initializer_list>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
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

// A bool element is one byte, but its type is 1 bit wide, as the pipelines expect.
template <typename T>
constexpr int type_bits() {
    return std::is_same<T, bool>::value ? 1 : int(8 * sizeof(T));
}

// Owns the dimension array; converts to halo_buffer_t* for the generated function.
class BufferRef {
public:
    // Dense memory with the given extents (dimension 0 innermost) and mins.
    // Throws std::length_error where a stride would not fit halo_dimension_t's 32 bits.
    template <typename T>
    BufferRef(T *data, std::initializer_list<int> extents, std::initializer_list<int> mins = {}) {
        int64_t stride = 1;
        auto m = mins.begin();
        for (int e : extents) {
            if (stride > INT32_MAX) {
                throw std::length_error("halo::aot::BufferRef: extents whose product before the last dimension is " +
                                        std::to_string(stride) + " elements: a halo_buffer_t stride is 32-bit");
            }
            int mn = m != mins.end() ? *m++ : 0;
            dims_.push_back({mn, e, int32_t(stride), 0});
            stride *= e < 0 ? 0 : e;  // (a negative extent is the pipeline's error to report)
        }
        init(reinterpret_cast<uint8_t *>(data), type_code<T>(), type_bits<T>());
    }
    // Explicit per-dimension min, extent and stride (in elements).
    template <typename T>
    BufferRef(T *data, const std::vector<halo_dimension_t> &dims) : dims_(dims) {
        init(reinterpret_cast<uint8_t *>(data), type_code<T>(), type_bits<T>());
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

// A context for the _with_context entry points: an arena that keeps intermediate buffers from
// one call to the next (returning those unused for HALO_ARENA_KEEP_CALLS calls), and the
// messages of this context's errors. Use one Context per thread (or per call in flight).
//     halo::aot::Context ctx;
//     if (my_pipeline_with_context(ctx, in, out) != 0) fprintf(stderr, "%s\n", ctx.last_error().c_str());
class Context {
public:
    Context() {
        ctx_.arena = halo_arena_create();
        ctx_.user = this;
        ctx_.error_handler = &Context::record_error;
    }
    ~Context() { halo_arena_destroy(ctx_.arena); }
    Context(const Context &) = delete;
    Context &operator=(const Context &) = delete;

    operator halo_context_t *() { return &ctx_; }
    halo_context_t *get() { return &ctx_; }

    // The last error a call with this context reported ("" if none since clear_error()).
    const std::string &last_error() const { return error_; }
    void clear_error() { error_.clear(); }
    // Sends this context's errors to handler instead, with `user` in the context's user field
    // (the handler's first argument is the halo_context_t*). NULL restores last_error().
    // One call may report from several threads at once (iterations of a parallel loop that
    // fail together), so the handler must be safe to call concurrently.
    void set_error_handler(halo_error_handler_t handler, void *user) {
        ctx_.error_handler = handler ? handler : &Context::record_error;
        ctx_.user = handler ? user : this;
    }
    // Bytes the arena holds, and a way to give them all back now.
    int64_t arena_bytes() const { return halo_arena_bytes(ctx_.arena); }
    void release_memory() { halo_arena_release_unused(ctx_.arena); }

private:
    // Under a lock: iterations of one call's parallel loop that fail together report at once.
    static void record_error(void *user_context, const char *message) {
        auto *self = static_cast<Context *>(static_cast<halo_context_t *>(user_context)->user);
        std::lock_guard<std::mutex> lock(self->error_mutex_);
        self->error_ = message;
    }
    halo_context_t ctx_{};
    std::mutex error_mutex_;
    std::string error_;
};

}  // namespace aot
}  // namespace halo
