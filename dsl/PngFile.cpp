#include "PngFile.h"

#include <png.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <new>

#include "Error.h"

namespace halo {
namespace internal {

namespace {

// libpng reports an error by calling our error callback, which longjmps back to the last
// setjmp. A longjmp that skips a destructor is undefined behaviour in C++ (and in practice
// leaks), so:
//  - everything with a destructor (the FILE, libpng's structs, the pixel vectors) belongs to
//    a session object or the caller, created before and destroyed after any setjmp frame;
//  - each libpng step runs in a small function with only plain locals, which sets its own
//    jump point and returns false when libpng fails;
//  - the callbacks copy libpng's text into fixed arrays (nothing allocates on the error path).
struct PngMessages {
    char error[256] = "";
    char warning[256] = "";  // the first one: libpng explains "Invalid IHDR data" in warnings
};

void copy_text(char (&dst)[256], const char *src) { std::snprintf(dst, sizeof dst, "%s", src ? src : "(no text)"); }

void on_error(png_structp png, png_const_charp msg) {
    copy_text(static_cast<PngMessages *>(png_get_error_ptr(png))->error, msg);
    png_longjmp(png, 1);
}

void on_warning(png_structp png, png_const_charp msg) {
    auto *m = static_cast<PngMessages *>(png_get_error_ptr(png));
    if (!m->warning[0]) copy_text(m->warning, msg);
}

std::string reason(const PngMessages &m) {
    std::string r = m.error[0] ? m.error : "libpng failed without saying why";
    if (m.warning[0]) r += std::string(" (") + m.warning + ")";
    return r;
}

bool host_is_little_endian() {
    const uint16_t one = 1;
    uint8_t first;
    std::memcpy(&first, &one, 1);
    return first == 1;
}

// a * b * ..., or UINT64_MAX if that overflows (a header may claim anything).
uint64_t saturating_product(std::initializer_list<uint64_t> factors) {
    uint64_t p = 1;
    for (uint64_t f : factors) {
        if (__builtin_mul_overflow(p, f, &p)) return UINT64_MAX;
    }
    return p;
}

// Deflate expands at most 1032:1 (a 258-byte match coded as two 1-bit codes), so a file of n
// bytes cannot hold more than 1032 n bytes of rows.
constexpr uint64_t max_deflate_ratio = 1032;

// ---------------------------------------------------------------- reading

struct ReadSession {
    FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    PngMessages messages;
    uint64_t bytes_read = 0;
    ReadSession() = default;
    ReadSession(const ReadSession &) = delete;
    ReadSession &operator=(const ReadSession &) = delete;
    ~ReadSession() {
        if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
        if (file) std::fclose(file);
    }
};

// libpng's own reader says only "Read Error"; this one says the file is truncated, and where.
void read_bytes(png_structp png, png_bytep out, size_t length) {
    auto *s = static_cast<ReadSession *>(png_get_io_ptr(png));
    size_t got = std::fread(out, 1, length, s->file);
    s->bytes_read += got;
    if (got == length) return;
    char msg[200];
    if (std::ferror(s->file)) {
        std::snprintf(msg, sizeof msg, "read error after %llu bytes: %s", (unsigned long long)s->bytes_read,
                      std::strerror(errno));
    } else {
        std::snprintf(msg, sizeof msg, "the file ends after %llu bytes, before the image does: it is truncated",
                      (unsigned long long)s->bytes_read);
    }
    png_error(png, msg);
}

bool read_header(png_structp png, png_infop info) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_sig_bytes(png, 8);
    png_read_info(png, info);
    return true;
}

// Palettes and gray below 8 bits become 8-bit samples; 16-bit samples come out in host order.
bool set_transforms(png_structp png, png_infop info, int color, int depth) {
    if (setjmp(png_jmpbuf(png))) return false;
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (depth == 16 && host_is_little_endian()) png_set_swap(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return true;
}

// Reads the rows, then the rest of the file (so a damaged or missing tail is reported too).
bool read_rows(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr);
    return true;
}

// ---------------------------------------------------------------- writing

struct WriteSession {
    FILE *file = nullptr;
    png_structp png = nullptr;
    png_infop info = nullptr;
    PngMessages messages;
    WriteSession() = default;
    WriteSession(const WriteSession &) = delete;
    WriteSession &operator=(const WriteSession &) = delete;
    ~WriteSession() {
        if (png) png_destroy_write_struct(&png, info ? &info : nullptr);
        if (file) std::fclose(file);
    }
};

void write_bytes(png_structp png, png_bytep data, size_t length) {
    auto *s = static_cast<WriteSession *>(png_get_io_ptr(png));
    if (std::fwrite(data, 1, length, s->file) != length) png_error(png, std::strerror(errno));
}

void flush_bytes(png_structp png) {
    auto *s = static_cast<WriteSession *>(png_get_io_ptr(png));
    if (std::fflush(s->file) != 0) png_error(png, std::strerror(errno));
}

bool write_header(png_structp png, png_infop info, int width, int height, int depth, int color) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), depth, color, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if (depth == 16 && host_is_little_endian()) png_set_swap(png);
    return true;
}

bool write_row(png_structp png, png_bytep row) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_write_row(png, row);
    return true;
}

bool write_end(png_structp png) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_write_end(png, nullptr);
    return true;
}

}  // namespace

PngSamples read_png_samples(const std::string &path, int caller_sample_bytes) {
    ReadSession s;
    s.file = std::fopen(path.c_str(), "rb");
    int open_errno = errno;
    user_assert(s.file) << "Cannot open PNG file '" << path << "' for reading: " << std::strerror(open_errno);
    // Only a regular file has a size to check the header against.
    struct stat st {};
    bool have_size = false;
    if (::fstat(::fileno(s.file), &st) == 0) {
        user_assert(!S_ISDIR(st.st_mode)) << "Cannot read PNG file '" << path << "': it is a directory";
        have_size = S_ISREG(st.st_mode);
    }
    const uint64_t file_bytes = have_size ? uint64_t(st.st_size) : 0;

    unsigned char sig[8];
    size_t got = std::fread(sig, 1, sizeof sig, s.file);
    int read_errno = errno;
    user_assert(!std::ferror(s.file)) << "Cannot read PNG file '" << path << "': " << std::strerror(read_errno);
    user_assert(got > 0) << "PNG file '" << path << "' is empty (0 bytes)";
    user_assert(png_sig_cmp(sig, 0, got) == 0)
        << "File '" << path << "' is not a PNG image: it does not start with the PNG signature";
    user_assert(got == sizeof sig) << "PNG file '" << path << "' is truncated: it ends after " << got
                                   << " bytes, inside the 8-byte PNG signature";
    s.bytes_read = got;

    s.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s.messages, on_error, on_warning);
    if (s.png) s.info = png_create_info_struct(s.png);
    user_assert(s.png && s.info) << "Cannot read PNG file '" << path << "': libpng could not start (out of memory)";
    png_set_read_fn(s.png, &s, read_bytes);
    const std::string corrupt = "PNG file '" + path + "' is corrupt: ";
    user_assert(read_header(s.png, s.info)) << corrupt << reason(s.messages);

    const png_uint_32 width = png_get_image_width(s.png, s.info), height = png_get_image_height(s.png, s.info);
    const int file_depth = png_get_bit_depth(s.png, s.info);
    const uint64_t file_row_bytes = png_get_rowbytes(s.png, s.info);
    user_assert(set_transforms(s.png, s.info, png_get_color_type(s.png, s.info), file_depth))
        << corrupt << reason(s.messages);

    PngSamples out;
    out.width = int(width);  // libpng refuses dimensions above 2^31 - 1
    out.height = int(height);
    out.channels = png_get_channels(s.png, s.info);
    out.bit_depth = png_get_bit_depth(s.png, s.info);
    user_assert(out.bit_depth == 8 || out.bit_depth == 16)
        << "PNG file '" << path << "' decodes to " << out.bit_depth << "-bit samples; only 8 and 16 are supported";
    const uint64_t row_bytes = png_get_rowbytes(s.png, s.info);
    const uint64_t sample_bytes = std::max<uint64_t>(uint64_t(out.bit_depth / 8), uint64_t(caller_sample_bytes));
    const uint64_t pixel_bytes = std::max(saturating_product({width, height, uint64_t(out.channels), sample_bytes}),
                                          saturating_product({row_bytes, height}));
    user_assert(pixel_bytes <= max_png_pixel_bytes)
        << "PNG file '" << path << "' claims " << width << " x " << height << " pixels of " << out.channels
        << " channel(s): " << pixel_bytes << " bytes of pixel data, more than the 1 GiB that load_png accepts "
        << "(if the image is real, split it into tiles; otherwise the header is corrupt)";
    // Refuse before allocating when the file is too short to hold the rows its header claims.
    const uint64_t compressed_rows = saturating_product({height, file_row_bytes + 1});
    user_assert(!have_size || file_bytes >= compressed_rows / max_deflate_ratio)
        << "PNG file '" << path << "' is truncated or its header is corrupt: " << width << " x " << height
        << " pixels need at least " << compressed_rows / max_deflate_ratio
        << " bytes of compressed data, but the file has only " << file_bytes << " bytes";

    std::vector<png_bytep> rows;
    try {
        out.data.resize(size_t(row_bytes) * height);
        rows.resize(height);
    } catch (const std::bad_alloc &) {
        user_error << "Out of memory loading PNG file '" << path << "' (" << pixel_bytes << " bytes of pixels)";
    }
    for (png_uint_32 y = 0; y < height; y++) rows[y] = out.data.data() + size_t(y) * row_bytes;
    user_assert(read_rows(s.png, rows.data())) << corrupt << reason(s.messages);
    return out;
}

void write_png_samples(const std::string &path, int width, int height, int channels, int bit_depth,
                       const std::function<void(int y, uint8_t *row)> &fill_row) {
    user_assert(width >= 1 && height >= 1) << "save_png: cannot save an empty image (" << width << " x " << height
                                           << ") as '" << path << "'; a PNG needs at least one pixel";
    internal_assert(channels >= 1 && channels <= 4 && (bit_depth == 8 || bit_depth == 16))
        << "write_png_samples: " << channels << " channels of " << bit_depth << " bits";
    WriteSession s;
    s.file = std::fopen(path.c_str(), "wb");
    int open_errno = errno;
    user_assert(s.file) << "Cannot open PNG file '" << path << "' for writing: " << std::strerror(open_errno);
    struct stat st {};
    const bool regular = ::fstat(::fileno(s.file), &st) == 0 && S_ISREG(st.st_mode);
    // On failure the file is incomplete: close it and (if it is an ordinary file) remove it, so
    // that nothing later mistakes it for an image.
    auto fail = [&](const std::string &why) {
        if (s.png) png_destroy_write_struct(&s.png, s.info ? &s.info : nullptr);
        s.png = nullptr;
        s.info = nullptr;
        if (s.file) std::fclose(s.file);
        s.file = nullptr;
        bool removed = regular && std::remove(path.c_str()) == 0;
        user_error << "Writing PNG file '" << path << "' failed: " << why
                   << (removed ? "; the incomplete file was removed" : "; the file is incomplete");
    };

    s.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &s.messages, on_error, on_warning);
    if (s.png) s.info = png_create_info_struct(s.png);
    if (!s.png || !s.info) fail("libpng could not start (out of memory)");
    png_set_write_fn(s.png, &s, write_bytes, flush_bytes);
    static const int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                      PNG_COLOR_TYPE_RGB_ALPHA};
    if (!write_header(s.png, s.info, width, height, bit_depth, color_types[channels - 1])) fail(reason(s.messages));
    std::vector<uint8_t> row;
    try {
        row.resize(size_t(width) * size_t(channels) * size_t(bit_depth / 8));
    } catch (const std::bad_alloc &) {
        fail("out of memory for one row of " + std::to_string(width) + " pixels");
    }
    for (int y = 0; y < height; y++) {
        fill_row(y, row.data());
        if (!write_row(s.png, row.data())) fail(reason(s.messages));
    }
    if (!write_end(s.png)) fail(reason(s.messages));
    // stdio holds the end of the file in its buffer: a full disk shows only now.
    if (std::fflush(s.file) != 0) fail(std::strerror(errno));
    FILE *f = s.file;
    s.file = nullptr;
    if (std::fclose(f) != 0) fail(std::strerror(errno));
}

}  // namespace internal
}  // namespace halo
