#include "SweepInputs.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace halo::sweep {

namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finalizer
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t name_seed(const std::string &name) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (char c : name) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
}

std::vector<int> to_ints(const std::vector<int64_t> &v) { return std::vector<int>(v.begin(), v.end()); }

}  // namespace

Buffer<> pseudo_random_input(const std::string &name, Type type, const std::vector<int64_t> &min,
                             const std::vector<int64_t> &extent) {
    Buffer<> b(type, to_ints(extent), name);
    b.set_min(to_ints(min));
    const uint64_t seed = name_seed(name);
    b.for_each_element([&](const std::vector<int> &c) {
        uint64_t h = seed;
        for (int x : c) h = mix(h ^ uint64_t(uint32_t(x)));
        double v;
        if (type.is_float()) v = double(h >> 11) * 0x1.0p-53;
        else if (type.is_bool()) v = double(h & 1);
        else v = double(h & 255);
        b.set_value(c, v);
    });
    return b;
}

Buffer<> png_input(const std::string &name, const std::string &path, Type type, int dimensions,
                   const std::vector<int64_t> &min, const std::vector<int64_t> &extent) {
    user_assert(dimensions == 2 || dimensions == 3)
        << "Input '" << name << "' has " << dimensions << " dimensions; a PNG file (" << path
        << ") can stand for a 2-D (gray) or 3-D (x, y, channels) input only";
    bool is_u8 = type == UInt(8), is_u16 = type == UInt(16), is_float = type == Float(32);
    user_assert(is_u8 || is_u16 || is_float)
        << "Input '" << name << "' is " << type.to_string() << "; a PNG file (" << path
        << ") can stand for a uint8, uint16 or float input only";
    Buffer<> image;
    if (is_u16) image = load_png_u16(path);
    else if (is_u8) image = load_png_u8(path);
    else image = to_float(load_png_u8(path));
    if (dimensions == 2 && image.dimensions() == 3) {
        Buffer<> gray(type, {image.dim(0).extent(), image.dim(1).extent()}, name);
        gray.for_each_element([&](const std::vector<int> &c) { gray.set_value(c, image.get_as_double({c[0], c[1], 0})); });
        image = gray;
    } else if (dimensions == 3 && image.dimensions() == 2) {
        Buffer<> colour(type, {image.dim(0).extent(), image.dim(1).extent(), 1}, name);
        colour.for_each_element([&](const std::vector<int> &c) { colour.set_value(c, image.get_as_double({c[0], c[1]})); });
        image = colour;
    }
    for (int d = 0; d < dimensions; d++) {
        user_assert(image.dim(d).extent() >= extent[d])
            << "Input '" << name << "': the PNG file " << path << " has " << image.dim(d).extent() << " points in dimension "
            << d << ", but the variants read " << extent[d] << " (from " << min[d] << "); give a larger image, a "
            << "smaller output size (-r), or read the input through a boundary condition";
    }
    image.set_min(to_ints(min));
    return image;
}

void set_scalar_from_text(ParameterContents &param, const std::string &text) {
    const Type t = param.type;
    auto bad = [&](const char *what) {
        user_error << "Input '" << param.name << "' is " << t.to_string() << "; '" << text << "' is " << what;
    };
    if (t.is_bool()) {
        if (text == "true" || text == "1") param.set_scalar<bool>(true);
        else if (text == "false" || text == "0") param.set_scalar<bool>(false);
        else bad("not true or false");
        return;
    }
    // A number starts like one: strtod and strtoll would skip spaces (" 2").
    const char c0 = text.empty() ? 0 : text[0];
    if (!(std::isdigit(static_cast<unsigned char>(c0)) || c0 == '-' || c0 == '+' || c0 == '.')) {
        bad(t.is_float() ? "not a number" : "not an integer");
    }
    char *end = nullptr;
    errno = 0;
    if (t.is_float()) {
        double v = std::strtod(text.c_str(), &end);
        if (*end) bad("not a number");
        // (a float32 past FLT_MAX would become inf)
        if (!std::isfinite(v) || (t.bits() == 32 && std::fabs(v) > double(std::numeric_limits<float>::max()))) {
            bad("out of range");
        }
        if (t.bits() == 64) param.set_scalar<double>(v);
        else param.set_scalar<float>(float(v));
        return;
    }
    const int bits = t.bits();
    if (t.is_uint()) {
        // strtoull takes "-1" as 2^64 - 1: a sign is refused first.
        if (c0 == '-') bad("out of range");
        unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (*end) bad("not an integer");
        if (errno == ERANGE || (bits < 64 && v > (1ull << bits) - 1)) bad("out of range");
        if (bits == 8) param.set_scalar<uint8_t>(uint8_t(v));
        else if (bits == 16) param.set_scalar<uint16_t>(uint16_t(v));
        else if (bits == 32) param.set_scalar<uint32_t>(uint32_t(v));
        else param.set_scalar<uint64_t>(uint64_t(v));
        return;
    }
    long long v = std::strtoll(text.c_str(), &end, 10);
    if (*end) bad("not an integer");
    if (errno == ERANGE || (bits < 64 && (v < -(1ll << (bits - 1)) || v > (1ll << (bits - 1)) - 1))) bad("out of range");
    if (bits == 8) param.set_scalar<int8_t>(int8_t(v));
    else if (bits == 16) param.set_scalar<int16_t>(int16_t(v));
    else if (bits == 32) param.set_scalar<int32_t>(int32_t(v));
    else param.set_scalar<int64_t>(int64_t(v));
}

}  // namespace halo::sweep
