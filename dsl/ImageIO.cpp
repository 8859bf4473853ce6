#include "ImageIO.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "PngFile.h"

namespace halo {

namespace {

template <typename T>
Buffer<T> load(const std::string &path) {
    internal::PngSamples png = internal::read_png_samples(path, int(sizeof(T)));
    const int w = png.width, h = png.height, c = png.channels;
    Buffer<T> out = c == 1 ? Buffer<T>(std::vector<int>{w, h}) : Buffer<T>(std::vector<int>{w, h, c});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int ch = 0; ch < c; ch++) {
                size_t i = (size_t(y) * w + x) * c + ch;
                double v;
                if (png.bit_depth == 16) {
                    uint16_t s;
                    std::memcpy(&s, png.data.data() + 2 * i, 2);
                    v = s;
                } else {
                    v = png.data[i];
                }
                // Convert between depths so values keep their meaning (255 <-> 65535).
                if (sizeof(T) == 2 && png.bit_depth == 8) v *= 257;
                if (sizeof(T) == 1 && png.bit_depth == 16) v = std::round(v / 257);
                if (c == 1) out(x, y) = T(v);
                else out(x, y, ch) = T(v);
            }
        }
    }
    return out;
}

template <typename T>
void save(const Buffer<T> &img, const std::string &path) {
    user_assert(img.defined() && (img.dimensions() == 2 || img.dimensions() == 3))
        << "save_png: '" << path << "' needs a 2-D or 3-D buffer";
    int w = img.width(), h = img.height(), c = img.dimensions() == 3 ? img.channels() : 1;
    user_assert(c >= 1 && c <= 4) << "save_png: '" << path << "' has " << c << " channels; PNG allows 1 to 4";
    int x0 = img.dim(0).min(), y0 = img.dim(1).min(), c0 = c > 1 ? img.dim(2).min() : 0;
    internal::write_png_samples(path, w, h, c, int(sizeof(T)) * 8, [&](int y, uint8_t *row) {
        for (int x = 0; x < w; x++) {
            for (int ch = 0; ch < c; ch++) {
                T v = img.dimensions() == 2 ? img(x0 + x, y0 + y) : img(x0 + x, y0 + y, c0 + ch);
                std::memcpy(row + (size_t(x) * c + ch) * sizeof(T), &v, sizeof(T));
            }
        }
    });
}

}  // namespace

Buffer<uint8_t> load_png_u8(const std::string &path) { return load<uint8_t>(path); }
Buffer<uint16_t> load_png_u16(const std::string &path) { return load<uint16_t>(path); }
void save_png(const Buffer<uint8_t> &image, const std::string &path) { save(image, path); }
void save_png(const Buffer<uint16_t> &image, const std::string &path) { save(image, path); }

Buffer<float> to_float(const Buffer<uint8_t> &image) {
    std::vector<int> sizes;
    for (int d = 0; d < image.dimensions(); d++) sizes.push_back(image.dim(d).extent());
    Buffer<float> out(sizes);
    std::vector<int> mins;
    for (int d = 0; d < image.dimensions(); d++) mins.push_back(image.dim(d).min());
    out.set_min(mins);
    out.for_each_element([&](const std::vector<int> &c) { out(c) = image(c) / 255.0f; });
    return out;
}

Buffer<uint8_t> from_float(const Buffer<float> &image) {
    std::vector<int> sizes, mins;
    for (int d = 0; d < image.dimensions(); d++) {
        sizes.push_back(image.dim(d).extent());
        mins.push_back(image.dim(d).min());
    }
    Buffer<uint8_t> out(sizes);
    out.set_min(mins);
    out.for_each_element([&](const std::vector<int> &c) {
        float v = std::round(std::fmin(std::fmax(image(c), 0.0f), 1.0f) * 255.0f);
        out(c) = uint8_t(v);
    });
    return out;
}

}  // namespace halo
