// Tuple: several Exprs that a Func computes together at each point (Halide's Tuple), and
// Realization: the buffers a Tuple-valued Func (or a pipeline of several outputs) fills.
#pragma once

#include <utility>
#include <vector>

#include "Buffer.h"
#include "Error.h"
#include "IR.h"

namespace halo {

class FuncRef;

class Tuple {
public:
    explicit Tuple(std::vector<Expr> exprs) : exprs_(std::move(exprs)) {
        user_assert(!exprs_.empty()) << "a Tuple needs at least one Expr";
    }
    // A Tuple of one element (Halide's Tuple(e)).
    explicit Tuple(const Expr &e) : exprs_{e} {}
    template <typename... Args>
    Tuple(const Expr &a, const Expr &b, Args &&...rest) : exprs_{a, b, Expr(std::forward<Args>(rest))...} {}
    // Every value of a Tuple-valued Func at a point: Tuple t = f(x); t[0], t[1], ...
    Tuple(const FuncRef &call);

    size_t size() const { return exprs_.size(); }
    Expr &operator[](size_t i) {
        user_assert(i < exprs_.size()) << "Tuple index " << i << " out of range (the Tuple has " << exprs_.size()
                                       << " elements)";
        return exprs_[i];
    }
    const Expr &operator[](size_t i) const { return const_cast<Tuple &>(*this)[i]; }
    const std::vector<Expr> &as_vector() const { return exprs_; }

private:
    std::vector<Expr> exprs_;
};

// Halide's tuple_select: select() of each element, under one condition or one per element.
Tuple tuple_select(const Expr &condition, const Tuple &true_value, const Tuple &false_value);
Tuple tuple_select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value);
// The many-way form: tuple_select(c0, v0, c1, v1, ..., otherwise) is v0 where c0 holds, else v1
// where c1 holds, ..., else otherwise (conditions are Exprs, or Tuples of one per element).
template <typename C, typename... Rest>
Tuple tuple_select(const C &c0, const Tuple &v0, const C &c1, const Tuple &v1, Rest &&...rest) {
    return tuple_select(c0, v0, tuple_select(c1, v1, std::forward<Rest>(rest)...));
}

// One buffer per value of the Func (per output of the pipeline), all over the same region.
class Realization {
public:
    explicit Realization(std::vector<Buffer<>> buffers) : buffers_(std::move(buffers)) {
        user_assert(!buffers_.empty()) << "a Realization needs at least one buffer";
    }
    template <typename T>
    Realization(const Buffer<T> &b) : buffers_{Buffer<>(b)} {}
    template <typename... Ts>
    Realization(const Buffer<> &a, const Buffer<> &b, const Ts &...rest) : buffers_{a, b, Buffer<>(rest)...} {}

    size_t size() const { return buffers_.size(); }
    Buffer<> &operator[](size_t i) {
        user_assert(i < buffers_.size()) << "Realization index " << i << " out of range (it has " << buffers_.size()
                                         << " buffers)";
        return buffers_[i];
    }
    const Buffer<> &operator[](size_t i) const { return const_cast<Realization &>(*this)[i]; }
    const std::vector<Buffer<>> &buffers() const { return buffers_; }

    // A Realization of one buffer converts to it (Buffer<float> out = f.realize({w, h})).
    template <typename T>
    operator Buffer<T>() const {
        user_assert(buffers_.size() == 1) << "a Realization of " << buffers_.size()
                                          << " buffers converted to one Buffer; index it (r[0], r[1], ...)";
        return Buffer<T>(buffers_[0]);
    }

private:
    std::vector<Buffer<>> buffers_;
};

}  // namespace halo
