#include "Type.h"

#include <cmath>

namespace halo {

int64_t Type::min_int() const {
    if (is_int()) return bits_ >= 64 ? INT64_MIN : -(int64_t(1) << (bits_ - 1));
    return 0;
}

int64_t Type::max_int() const {
    if (is_int()) return bits_ >= 64 ? INT64_MAX : (int64_t(1) << (bits_ - 1)) - 1;
    if (bits_ >= 63) return INT64_MAX;
    return (int64_t(1) << bits_) - 1;
}

uint64_t Type::max_uint() const {
    if (bits_ >= 64) return UINT64_MAX;
    return (uint64_t(1) << bits_) - 1;
}

bool Type::can_represent(int64_t v) const {
    if (is_float()) return bits_ == 64 || std::fabs(double(v)) < (1 << 24) || double(float(v)) == double(v);
    if (is_uint()) return v >= 0 && (bits_ >= 64 || uint64_t(v) <= max_uint());
    return v >= min_int() && v <= max_int();
}

bool Type::can_represent(double v) const {
    if (is_float()) return bits_ == 64 || std::isnan(v) || double(float(v)) == v || std::isinf(v);
    if (v != std::floor(v)) return false;  // also NaN and infinities
    // Compare as doubles first: converting an out-of-range double to int64 is undefined.
    double lo = is_int() ? -std::ldexp(1.0, bits_ - 1) : 0.0;
    double top = std::ldexp(1.0, is_int() ? bits_ - 1 : bits_);
    return v >= lo && v < top;
}

std::string Type::to_string() const {
    std::string s;
    if (is_bool()) {
        s = "bool";
    } else {
        s = (is_int() ? "int" : is_uint() ? "uint" : "float") + std::to_string(int(bits_));
    }
    if (lanes_ > 1) s += "x" + std::to_string(lanes_);
    return s;
}

}  // namespace halo
