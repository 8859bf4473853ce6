// Scalar and vector element types of Halo expressions.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "../runtime/HaloRuntime.h"

namespace halo {

struct Expr;

struct Type {
    enum Code : uint8_t { Int = halo_type_int, UInt = halo_type_uint, Float = halo_type_float };

    constexpr Type() = default;
    constexpr Type(Code c, int b, int l = 1)
        : code_(c), bits_(static_cast<uint8_t>(b)), lanes_(static_cast<uint16_t>(l)) {}

    // Methods, as in Halide (t.bits(), t.lanes(), t.code()), so Halide code reads them as it is.
    constexpr Code code() const { return code_; }
    constexpr int bits() const { return bits_; }
    constexpr int lanes() const { return lanes_; }

    bool is_int() const { return code_ == Int; }
    bool is_uint() const { return code_ == UInt; }
    bool is_int_or_uint() const { return code_ == Int || code_ == UInt; }
    bool is_float() const { return code_ == Float; }
    bool is_bool() const { return code_ == UInt && bits_ == 1; }
    bool is_scalar() const { return lanes_ == 1; }
    bool is_vector() const { return lanes_ > 1; }
    int bytes() const { return (bits_ + 7) / 8; }
    Type element_of() const { return Type(code_, bits_, 1); }
    Type with_lanes(int l) const { return Type(code_, bits_, l); }
    Type with_bits(int b) const { return Type(code_, b, lanes_); }
    Type with_code(Code c) const { return Type(c, bits_, lanes_); }
    // Twice (half) the bits, as Halide's widen() and narrow().
    Type widen() const { return with_bits(bits_ * 2); }
    Type narrow() const { return with_bits(bits_ / 2); }

    bool operator==(const Type &o) const {
        return code_ == o.code_ && bits_ == o.bits_ && lanes_ == o.lanes_;
    }
    bool operator!=(const Type &o) const { return !(*this == o); }

    // Range of representable integer values (for saturating casts and literal checks).
    int64_t min_int() const;
    int64_t max_int() const;
    uint64_t max_uint() const;
    bool can_represent(int64_t v) const;
    bool can_represent(double v) const;
    // Halide's Type::max() and min(): the type's largest and smallest values as Exprs (for
    // floats, +inf and -inf, as in Halide 14).
    Expr max() const;
    Expr min() const;

    std::string to_string() const;

private:
    Code code_ = Int;
    uint8_t bits_ = 32;
    uint16_t lanes_ = 1;
};

inline Type Int(int bits, int lanes = 1) { return Type(Type::Int, bits, lanes); }
inline Type UInt(int bits, int lanes = 1) { return Type(Type::UInt, bits, lanes); }
inline Type Float(int bits, int lanes = 1) { return Type(Type::Float, bits, lanes); }
inline Type Bool(int lanes = 1) { return Type(Type::UInt, 1, lanes); }

// The Halo type of a C++ scalar type.
template <typename T>
Type type_of() {
    if constexpr (std::is_same_v<T, bool>) {
        return Bool();
    } else if constexpr (std::is_floating_point_v<T>) {
        return Float(8 * sizeof(T));
    } else if constexpr (std::is_signed_v<T>) {
        return Int(8 * sizeof(T));
    } else {
        static_assert(std::is_unsigned_v<T>, "type_of<T>: T must be an arithmetic type");
        return UInt(8 * sizeof(T));
    }
}

}  // namespace halo
