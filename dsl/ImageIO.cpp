#include "ImageIO.h"

#include <png.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

namespace halo {

namespace {

// libpng's warnings (e.g. about colour profiles) are not errors; keep them off stderr.
void ignore_warning(png_structp, png_const_charp) {}

struct File {
    FILE *f;
    ~File() {
        if (f) std::fclose(f);
    }
};

// Reads any PNG into 8- or 16-bit samples; returns width, height, channels, bit depth.
std::vector<uint8_t> read_png(const std::string &path, int &w, int &h, int &channels, int &depth) {
    File file{std::fopen(path.c_str(), "rb")};
    user_assert(file.f) << "Cannot open PNG file '" << path << "' for reading";
    unsigned char sig[8];
    user_assert(std::fread(sig, 1, 8, file.f) == 8 && !png_sig_cmp(sig, 0, 8))
        << "File '" << path << "' is not a PNG image";
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, ignore_warning);
    png_infop info = png_create_info_struct(png);
    std::vector<uint8_t> data;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, nullptr);
        user_error << "PNG file '" << path << "' is corrupt";
    }
    png_init_io(png, file.f);
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    int color = png_get_color_type(png, info);
    depth = png_get_bit_depth(png, info);
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (depth < 8) depth = 8;
    if (depth == 16) png_set_swap(png);  // little-endian samples
    png_read_update_info(png, info);
    w = int(png_get_image_width(png, info));
    h = int(png_get_image_height(png, info));
    channels = png_get_channels(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    data.resize(row_bytes * h);
    std::vector<png_bytep> rows(h);
    for (int y = 0; y < h; y++) rows[y] = data.data() + y * row_bytes;
    png_read_image(png, rows.data());
    png_destroy_read_struct(&png, &info, nullptr);
    return data;
}

template <typename T>
Buffer<T> load(const std::string &path) {
    int w, h, c, depth;
    std::vector<uint8_t> data = read_png(path, w, h, c, depth);
    Buffer<T> out = c == 1 ? Buffer<T>(std::vector<int>{w, h}) : Buffer<T>(std::vector<int>{w, h, c});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int ch = 0; ch < c; ch++) {
                size_t i = (size_t(y) * w + x) * c + ch;
                double v = depth == 16 ? double(reinterpret_cast<uint16_t *>(data.data())[i]) : double(data[i]);
                // Convert between depths so values keep their meaning (255 <-> 65535).
                if (sizeof(T) == 2 && depth == 8) v *= 257;
                if (sizeof(T) == 1 && depth == 16) v = std::round(v / 257);
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
    File file{std::fopen(path.c_str(), "wb")};
    user_assert(file.f) << "Cannot open PNG file '" << path << "' for writing";
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, ignore_warning);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        user_error << "Writing PNG file '" << path << "' failed";
    }
    png_init_io(png, file.f);
    static const int types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                PNG_COLOR_TYPE_RGB_ALPHA};
    int depth = int(sizeof(T)) * 8;
    png_set_IHDR(png, info, w, h, depth, types[c - 1], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (depth == 16) png_set_swap(png);
    std::vector<T> row(size_t(w) * c);
    int x0 = img.dim(0).min(), y0 = img.dim(1).min(), c0 = c > 1 ? img.dim(2).min() : 0;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            for (int ch = 0; ch < c; ch++) {
                row[size_t(x) * c + ch] = img.dimensions() == 2 ? img(x0 + x, y0 + y) : img(x0 + x, y0 + y, c0 + ch);
            }
        }
        png_write_row(png, reinterpret_cast<png_bytep>(row.data()));
    }
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
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
