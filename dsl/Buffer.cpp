#include "Buffer.h"
#include "IROperator.h"

#include "ImplicitVars.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>

namespace halo {

std::string unique_name(char prefix) {
    static std::atomic<int> counter{0};
    return std::string(1, prefix) + std::to_string(counter++);
}

double ParameterContents::scalar_as_double() const {
    switch (type.code()) {
    case Type::Float:
        if (type.bits() == 32) { float f; std::memcpy(&f, scalar, 4); return f; }
        { double d; std::memcpy(&d, scalar, 8); return d; }
    default:
        return double(scalar_as_int());
    }
}

int64_t ParameterContents::scalar_as_int() const {
    if (type.is_float()) return int64_t(scalar_as_double());
    int64_t v = 0;
    if (type.is_int()) {
        switch (type.bits()) {
        case 8: { int8_t x; std::memcpy(&x, scalar, 1); v = x; break; }
        case 16: { int16_t x; std::memcpy(&x, scalar, 2); v = x; break; }
        case 32: { int32_t x; std::memcpy(&x, scalar, 4); v = x; break; }
        default: std::memcpy(&v, scalar, 8);
        }
    } else {
        uint64_t u = 0;
        std::memcpy(&u, scalar, type.bytes());
        v = int64_t(u);
    }
    return v;
}

namespace {

// Elements in a dense buffer of these sizes, saturating at 2^62 instead of overflowing
// (anything that large cannot be allocated anyway).
int64_t element_count(const std::vector<int> &sizes) {
    const int64_t cap = int64_t(1) << 62;
    int64_t n = 1;
    for (int s : sizes) n = s > 0 && n > cap / s ? cap : n * std::max(s, 0);
    return n;
}

std::string sizes_text(const std::vector<int> &sizes) {
    std::string s;
    for (size_t i = 0; i < sizes.size(); i++) s += (i ? "x" : "") + std::to_string(sizes[i]);
    return s;
}

}  // namespace

std::vector<halo_dimension_t> dense_dimensions(const std::vector<int> &sizes, const std::string &name) {
    std::vector<halo_dimension_t> dims;
    for (size_t d = 0; d < sizes.size(); d++) {
        user_assert(sizes[d] >= 0) << "Buffer '" << name << "' given negative extent "
                                   << sizes[d] << " in dimension " << d;
        // Strides are 32-bit in halo_buffer_t (as in halide_buffer_t): dimension d's stride is
        // the number of elements in dimensions 0 .. d-1.
        int64_t stride = element_count(std::vector<int>(sizes.begin(), sizes.begin() + d));
        user_assert(stride <= INT32_MAX)
            << "Buffer '" << name << "' of sizes " << sizes_text(sizes) << " would need a stride of "
            << stride << " elements in dimension " << d << ", more than the 32-bit strides of a "
            << "buffer hold (2^31 - 1); use smaller extents in the inner dimensions";
        dims.push_back({0, sizes[d], int32_t(stride), 0});
    }
    return dims;
}

std::shared_ptr<BufferContents> BufferContents::allocate(Type t, const std::vector<int> &sizes,
                                                         const std::string &name) {
    auto b = std::make_shared<BufferContents>();
    b->name = name.empty() ? unique_name('b') : name;
    b->type = t;
    b->dims = dense_dimensions(sizes, b->name);
    int64_t elements = element_count(sizes);
    // 2^40 bytes (1 TiB) is far beyond any machine this runs on; past it the size itself is suspect.
    user_assert(elements <= (int64_t(1) << 40) / t.bytes())
        << "Buffer '" << b->name << "' of sizes " << sizes_text(sizes) << " would need "
        << (elements >= (int64_t(1) << 62) ? std::string("more than 2^62") : std::to_string(elements))
        << " elements of " << t.bytes() << " bytes, more than the 1 TiB a Buffer may allocate";
    size_t bytes = size_t((elements * t.bytes() + 63) / 64 * 64);
    if (bytes == 0) bytes = 64;
    uint8_t *mem = static_cast<uint8_t *>(std::aligned_alloc(64, bytes));
    user_assert(mem != nullptr) << "Out of memory allocating Buffer '" << b->name << "' (" << bytes << " bytes)";
    std::memset(mem, 0, bytes);
    b->storage = std::shared_ptr<uint8_t>(mem, [](uint8_t *p) { std::free(p); });
    b->host = mem;
    return b;
}

std::shared_ptr<ParameterContents> BufferContents::get_param(
    const std::shared_ptr<BufferContents> &self) {
    auto p = param.lock();
    if (!p) {
        p = std::make_shared<ParameterContents>();
        p->name = name;
        p->type = type;
        p->is_buffer = true;
        p->dimensions = int(dims.size());
        p->buffer = self;
        p->is_fixed_buffer = true;
        param = p;
    }
    return p;
}

double buffer_get_as_double(const BufferContents &b, const int *c) {
    const uint8_t *p = b.host + b.offset_of(c) * b.type.bytes();
    switch (b.type.code()) {
    case Type::Float:
        if (b.type.bits() == 32) { float f; std::memcpy(&f, p, 4); return f; }
        { double d; std::memcpy(&d, p, 8); return d; }
    case Type::Int:
        switch (b.type.bits()) {
        case 8: return *reinterpret_cast<const int8_t *>(p);
        case 16: { int16_t x; std::memcpy(&x, p, 2); return x; }
        case 32: { int32_t x; std::memcpy(&x, p, 4); return x; }
        default: { int64_t x; std::memcpy(&x, p, 8); return double(x); }
        }
    default:
        switch (b.type.bits()) {
        case 1: case 8: return *p;
        case 16: { uint16_t x; std::memcpy(&x, p, 2); return x; }
        case 32: { uint32_t x; std::memcpy(&x, p, 4); return x; }
        default: { uint64_t x; std::memcpy(&x, p, 8); return double(x); }
        }
    }
}

void buffer_set_from_double(const BufferContents &b, const int *c, double v) {
    uint8_t *p = b.host + b.offset_of(c) * b.type.bytes();
    auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (b.type.code()) {
    case Type::Float:
        if (b.type.bits() == 32) put(float(v));
        else put(v);
        return;
    case Type::Int:
        switch (b.type.bits()) {
        case 8: put(int8_t(int64_t(v))); return;
        case 16: put(int16_t(int64_t(v))); return;
        case 32: put(int32_t(int64_t(v))); return;
        default: put(int64_t(v)); return;
        }
    default:
        switch (b.type.bits()) {
        case 1: put(uint8_t(v != 0)); return;
        case 8: put(uint8_t(uint64_t(int64_t(v)))); return;
        case 16: put(uint16_t(uint64_t(int64_t(v)))); return;
        case 32: put(uint32_t(uint64_t(int64_t(v)))); return;
        default: put(uint64_t(v)); return;
        }
    }
}

Expr buffer_call(const std::shared_ptr<BufferContents> &b, std::vector<Expr> args) {
    user_assert(b != nullptr) << "Use of an undefined Buffer in an algorithm";
    expand_placeholder(args, int(b->dims.size()), "Buffer '" + b->name + "'");
    user_assert(args.size() == b->dims.size())
        << "Buffer '" << b->name << "' has " << b->dims.size() << " dimensions but is called with "
        << args.size() << " arguments";
    for (size_t i = 0; i < args.size(); i++) args[i] = call_argument(args[i], "Buffer '" + b->name + "'", i);
    return Call::make(b->type, b->name, std::move(args), Call::Image, nullptr, b->get_param(b));
}

}  // namespace halo
