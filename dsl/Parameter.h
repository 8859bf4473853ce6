// The run-time inputs of a pipeline: scalar Params and buffers (ImageParam or Buffer).
#pragma once

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "IR.h"
#include "Type.h"

namespace halo {

struct BufferContents;
struct FunctionContents;

// The wrappers of a Func or an input image (Func::in, ImageParam::in): identity Funcs that
// consumers read instead of it. A wrapper made for a consumer belongs to that Func itself, not
// to its name (two different Funcs may have one name; each gets its own wrapper, as in Halide).
struct WrapperSet {
    struct ForConsumer {
        std::weak_ptr<FunctionContents> consumer;  // (a wrapper for a Func that is gone applies to none)
        std::shared_ptr<FunctionContents> wrapper;
    };
    std::shared_ptr<FunctionContents> global;  // in(): for every consumer without one of its own
    std::vector<ForConsumer> for_consumers;

    bool empty() const { return !global && for_consumers.empty(); }
    // The wrapper made for this consumer, or null.
    std::shared_ptr<FunctionContents> for_consumer(const FunctionContents *consumer) const {
        for (auto &e : for_consumers) {
            if (e.consumer.lock().get() == consumer) return e.wrapper;
        }
        return nullptr;
    }
    // Makes w the wrapper of this consumer (replacing one it had); forgets the wrappers of
    // consumers that are gone.
    void set_for_consumer(const std::shared_ptr<FunctionContents> &consumer, const std::shared_ptr<FunctionContents> &w) {
        std::vector<ForConsumer> kept;
        for (auto &e : for_consumers) {
            auto c = e.consumer.lock();
            if (c && c != consumer) kept.push_back(e);
        }
        kept.push_back({consumer, w});
        for_consumers = std::move(kept);
    }
    // Every wrapper, the global one first.
    std::vector<std::shared_ptr<FunctionContents>> all() const {
        std::vector<std::shared_ptr<FunctionContents>> w;
        if (global) w.push_back(global);
        for (auto &e : for_consumers) w.push_back(e.wrapper);
        return w;
    }
};

// An ImageParam's wrappers. Held by the ImageParam handles and by every read of the image in a
// user's definition (ImageParam::operator()), so that a wrapper scheduled through a handle that
// is gone still applies to the Funcs that read the image, as in Halide (where reads of an
// ImageParam are calls of a Func that holds its wrappers). The wrappers' own definitions read the
// image without holding them, and the image's own contents refer to them weakly: no cycle.
struct ImageParamWrappers : WrapperSet {
    // ImageParam's conversion to a Func, while it is alive (its definition holds these wrappers).
    std::weak_ptr<FunctionContents> as_func;
};

// What a pipeline requires of one dimension of a buffer it reads or writes, set with
// ImageParam::dim(d).set_min(...) or Func::output_buffer().dim(d).set_...: checked when the
// pipeline runs, and known to the compiler from then on (a constant stride or min simplifies
// the addressing). Undefined fields are free.
struct BufferDimConstraint {
    Expr min, extent, stride;
    // set_stride was called, even with an undefined Expr: for dimension 0 of an input this
    // replaces the default constraint, stride 1 (as Halide's set_stride(Expr()) does).
    bool stride_set = false;
};

struct ParameterContents {
    std::string name;
    Type type;
    bool is_buffer = false;
    int dimensions = 0;
    // For scalars: the value, stored as the native C type's bytes.
    alignas(8) unsigned char scalar[8] = {};
    bool scalar_set = false;
    // A generator's scalar Input with no value (no default, never set) while its generate()
    // runs: it cannot have a value yet, so realizing a Func that reads it is refused.
    bool generating_without_value = false;
    // For buffers: the buffer bound to it (set by ImageParam::set or fixed for a Buffer).
    std::shared_ptr<BufferContents> buffer;
    bool is_fixed_buffer = false;  // a Buffer used directly in the algorithm
    // For scalars: the range the value must lie in (Param::set_range; undefined: no bound),
    // checked when a pipeline runs, and the estimate (Param::set_estimate) for schedulers.
    Expr min_value, max_value, estimate;
    // For ImageParams: constraints per dimension (empty: none), and a count of their changes
    // (a compiled pipeline that used older ones recompiles; so do scalars' ranges).
    std::vector<BufferDimConstraint> constraints;
    uint64_t constraints_version = 0;
    int host_alignment = 0;  // ImageParam::set_host_alignment (0: none)
    // ImageParam::in wrappers (alive while a handle of the ImageParam or a user's read of it
    // is), and this ParameterContents itself, for reads that must not hold them.
    std::weak_ptr<ImageParamWrappers> wrappers;
    std::weak_ptr<ParameterContents> plain;

    // The value and the bound buffer change under this lock, and a realization reads them
    // under it once at its start: setting an input while another thread realizes is safe (that
    // realization uses the old or the new value, never a mix).
    mutable std::mutex mutex;

    template <typename T>
    void set_scalar(T v) {
        static_assert(sizeof(T) <= 8, "scalar too large");
        std::lock_guard<std::mutex> lock(mutex);
        std::memset(scalar, 0, sizeof scalar);
        std::memcpy(scalar, &v, sizeof v);
        scalar_set = true;
    }
    template <typename T>
    T get_scalar() const {
        T v;
        std::lock_guard<std::mutex> lock(mutex);
        std::memcpy(&v, scalar, sizeof v);
        return v;
    }
    void copy_scalar(unsigned char out[8]) const {
        std::lock_guard<std::mutex> lock(mutex);
        std::memcpy(out, scalar, sizeof scalar);
    }
    void set_buffer(std::shared_ptr<BufferContents> b) {
        std::lock_guard<std::mutex> lock(mutex);
        buffer = std::move(b);
    }
    std::shared_ptr<BufferContents> bound_buffer() const {
        std::lock_guard<std::mutex> lock(mutex);
        return buffer;
    }
    // The scalar's value as a double or an int64 (for the reference evaluator).
    double scalar_as_double() const;
    int64_t scalar_as_int() const;
};

std::string unique_name(char prefix);

}  // namespace halo
