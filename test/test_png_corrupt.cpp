// Bad PNG input and failed output: every damaged file, made here by mutating a good one, is a
// CompileError naming the file and the reason; nothing crashes, leaks or allocates what the
// header claims before checking it; a full disk or a missing directory is reported on save.
#include "TestUtil.h"

#include <png.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace halo;

namespace {

using Bytes = std::vector<uint8_t>;

std::string tmp_path(const std::string &file) {
    return "/tmp/halo_test_png_corrupt_" + std::to_string(::getpid()) + "_" + file;
}

Bytes read_bytes(const std::string &path) {
    Bytes b;
    FILE *f = std::fopen(path.c_str(), "rb");
    REQUIRE(f);
    int c;
    while ((c = std::fgetc(f)) != EOF) b.push_back(uint8_t(c));
    std::fclose(f);
    return b;
}

void write_bytes(const std::string &path, const Bytes &b) {
    FILE *f = std::fopen(path.c_str(), "wb");
    REQUIRE(f);
    if (!b.empty()) REQUIRE(std::fwrite(b.data(), 1, b.size(), f) == b.size());
    REQUIRE(std::fclose(f) == 0);
}

// A good PNG: 24 x 16 RGB noise (so the pixel data hardly compresses and spans the file).
Bytes good_png() {
    Buffer<uint8_t> img(24, 16, 3);
    halo_test::fill_random(img, 0, 255, 42);
    std::string p = tmp_path("good.png");
    save_png(img, p);
    Bytes b = read_bytes(p);
    std::remove(p.c_str());
    return b;
}

// Offsets in the file: the signature is 8 bytes, then IHDR (length, type, 13 bytes, CRC).
constexpr size_t ihdr_chunk = 8, ihdr_data = 16, ihdr_width = 16, ihdr_height = 20, ihdr_depth = 24,
                 ihdr_color = 25, ihdr_crc = 29;

uint32_t be32(const Bytes &b, size_t at) {
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 | b[at + 3];
}
void set_be32(Bytes &b, size_t at, uint32_t v) {
    for (int i = 0; i < 4; i++) b[at + i] = uint8_t(v >> (24 - 8 * i));
}

// The PNG CRC (CRC-32 over the chunk's type and data), bit by bit.
uint32_t crc32(const uint8_t *p, size_t n) {
    uint32_t c = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
    }
    return c ^ 0xffffffffu;
}

// Recomputes the CRC of the chunk whose length field is at `chunk`, so the mutation is seen
// by the checks after the CRC.
void fix_crc(Bytes &b, size_t chunk) {
    uint32_t len = be32(b, chunk);
    set_be32(b, chunk + 8 + len, crc32(&b[chunk + 4], len + 4));
}

// The offset of the first chunk of the given type.
size_t find_chunk(const Bytes &b, const char *type) {
    size_t at = 8;
    while (at + 8 <= b.size()) {
        if (std::equal(type, type + 4, b.begin() + long(at) + 4)) return at;
        at += 12 + be32(b, at);
    }
    FAIL("no " << type << " chunk");
    return 0;
}

// Writes the bytes to a file, loads it (as 8 or 16 bit) and returns the error message.
std::string load_error(const Bytes &b, bool as_u16 = false, const std::string &name = "mutated.png") {
    std::string p = tmp_path(name);
    write_bytes(p, b);
    std::string msg = halo_test::compile_error_of([&] {
        if (as_u16) load_png_u16(p);
        else load_png_u8(p);
    });
    std::remove(p.c_str());
    CHECK_MESSAGE(msg.find(p) != std::string::npos, "the message names the file: " << msg);
    return msg;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

Bytes with_ihdr_size(uint32_t w, uint32_t h) {
    Bytes b = good_png();
    set_be32(b, ihdr_width, w);
    set_be32(b, ihdr_height, h);
    fix_crc(b, ihdr_chunk);
    return b;
}

}  // namespace

TEST_CASE("the mutations start from a file that loads") {
    Bytes b = good_png();
    REQUIRE(b.size() > 100);
    CHECK(be32(b, ihdr_width) == 24);
    CHECK(crc32(&b[ihdr_chunk + 4], 17) == be32(b, ihdr_crc));
    std::string p = tmp_path("ok.png");
    write_bytes(p, b);
    CHECK(load_png_u8(p).width() == 24);
    std::remove(p.c_str());
}

TEST_CASE("a PNG cut short inside its signature is reported as truncated") {
    Bytes b = good_png();
    for (size_t n = 1; n < 8; n++) {
        std::string msg = load_error(Bytes(b.begin(), b.begin() + long(n)));
        CHECK_MESSAGE(contains(msg, "is truncated: it ends after " + std::to_string(n) +
                                        " bytes, inside the 8-byte PNG signature"), msg);
    }
}

TEST_CASE("a PNG cut short at any later offset is reported as truncated, with the offset") {
    Bytes b = good_png();
    for (size_t n = 8; n < b.size(); n++) {
        std::string msg = load_error(Bytes(b.begin(), b.begin() + long(n)));
        CHECK_MESSAGE(contains(msg, "is corrupt: the file ends after " + std::to_string(n) +
                                        " bytes, before the image does: it is truncated"),
                      "cut at " << n << ": " << msg);
    }
}

TEST_CASE("a flipped byte in IHDR is a CRC error") {
    Bytes good = good_png();
    for (size_t at = ihdr_data; at < ihdr_crc; at++) {
        Bytes b = good;
        b[at] ^= 0x5a;
        std::string msg = load_error(b);
        CHECK_MESSAGE(contains(msg, "is corrupt: IHDR: CRC error"), "byte " << at << ": " << msg);
    }
}

TEST_CASE("a flipped byte in the pixel data's CRC is a CRC error") {
    Bytes b = good_png();
    size_t idat = find_chunk(b, "IDAT");
    b[idat + 8 + be32(b, idat)] ^= 0x01;
    CHECK(contains(load_error(b), "is corrupt: IDAT: CRC error"));
}

TEST_CASE("zero width or height with a valid CRC is named") {
    CHECK(contains(load_error(with_ihdr_size(0, 16)), "Image width is zero in IHDR"));
    CHECK(contains(load_error(with_ihdr_size(24, 0)), "Image height is zero in IHDR"));
}

TEST_CASE("huge dimensions with a valid CRC are refused before allocating") {
    // 10^12 and 4.3 * 10^9 pixels: over the 1 GiB limit (once std::bad_alloc, once 4.3 GB).
    for (uint32_t side : {1000000u, 65535u}) {
        std::string msg = load_error(with_ihdr_size(side, side));
        std::string dims = std::to_string(side) + " x " + std::to_string(side);
        CHECK_MESSAGE(contains(msg, "claims " + dims + " pixels of 3 channel(s)"), msg);
        CHECK_MESSAGE(contains(msg, "more than the 1 GiB that load_png accepts"), msg);
    }
    // Beyond libpng's own limits.
    CHECK(contains(load_error(with_ihdr_size(0x7fffffffu, 16)), "Image width exceeds user limit in IHDR"));
    CHECK(contains(load_error(with_ihdr_size(24, 0x80000000u)), "PNG unsigned integer out of range"));
}

TEST_CASE("a header claiming more pixels than the file can hold is refused before allocating") {
    // 16000 x 16000 RGB is 768 MB, under the limit, but a file of a few hundred bytes cannot
    // hold it even at deflate's best ratio.
    std::string msg = load_error(with_ihdr_size(16000, 16000));
    CHECK_MESSAGE(contains(msg, "is truncated or its header is corrupt: 16000 x 16000 pixels need at least"), msg);
}

TEST_CASE("the size limit counts the samples the caller asked for") {
    // 17000 x 17000 RGB is 867 MB as 8-bit samples (under the limit, so the file's length
    // refuses it) but 1.7 GB as the 16-bit samples load_png_u16 makes.
    Bytes b = with_ihdr_size(17000, 17000);
    CHECK(contains(load_error(b, false), "is truncated or its header is corrupt"));
    CHECK(contains(load_error(b, true), "more than the 1 GiB that load_png accepts"));
}

TEST_CASE("an invalid bit depth or colour type is named") {
    Bytes depth = good_png();
    depth[ihdr_depth] = 3;
    fix_crc(depth, ihdr_chunk);
    std::string msg = load_error(depth);
    CHECK_MESSAGE(contains(msg, "Invalid IHDR data (Invalid bit depth in IHDR)"), msg);
    Bytes color = good_png();
    color[ihdr_color] = 7;
    fix_crc(color, ihdr_chunk);
    msg = load_error(color);
    CHECK_MESSAGE(contains(msg, "Invalid IHDR data (Invalid color type in IHDR)"), msg);
}

TEST_CASE("data that is not a PNG is named as such") {
    const std::string text = "this is not a PNG file at all";
    std::string msg = load_error(Bytes(text.begin(), text.end()));
    CHECK(contains(msg, "is not a PNG image: it does not start with the PNG signature"));
}

TEST_CASE("an empty file is named as empty") {
    CHECK(contains(load_error(Bytes{}), "is empty (0 bytes)"));
}

TEST_CASE("a directory is not read as a PNG") {
    std::string dir = tmp_path("a_directory.png");
    REQUIRE(::mkdir(dir.c_str(), 0700) == 0);
    std::string msg = halo_test::compile_error_of([&] { load_png_u8(dir); });
    ::rmdir(dir.c_str());
    CHECK_MESSAGE(contains(msg, "Cannot read PNG file '" + dir + "': it is a directory"), msg);
}

TEST_CASE("a missing file gives the system's reason") {
    std::string p = tmp_path("missing.png");
    std::string msg = halo_test::compile_error_of([&] { load_png_u16(p); });
    CHECK_MESSAGE(contains(msg, "Cannot open PNG file '" + p + "' for reading: No such file or directory"), msg);
}

TEST_CASE("save_png to a full disk fails with the reason") {
    struct stat st {};
    if (::stat("/dev/full", &st) != 0) {
        MESSAGE("no /dev/full on this system; skipped");
        return;
    }
    Buffer<uint8_t> img(64, 64);
    halo_test::fill_random(img, 0, 255, 1);
    std::string msg = halo_test::compile_error_of([&] { save_png(img, "/dev/full"); });
    CHECK_MESSAGE(contains(msg, "Writing PNG file '/dev/full' failed: No space left on device"), msg);
}

TEST_CASE("save_png into a missing directory fails with the reason") {
    Buffer<uint16_t> img(4, 4);
    std::string p = tmp_path("no_such_dir") + "/out.png";
    std::string msg = halo_test::compile_error_of([&] { save_png(img, p); });
    CHECK_MESSAGE(contains(msg, "Cannot open PNG file '" + p + "' for writing: No such file or directory"), msg);
}

TEST_CASE("save_png of an image with no pixels is an error, not a broken file") {
    Buffer<uint8_t> img(std::vector<int>{0, 5});
    std::string p = tmp_path("empty.png");
    std::string msg = halo_test::compile_error_of([&] { save_png(img, p); });
    CHECK_MESSAGE(contains(msg, "cannot save an empty image (0 x 5)"), msg);
    CHECK(::access(p.c_str(), F_OK) != 0);
}

TEST_CASE("interlaced, palette and 1-bit gray files load") {
    // Written with libpng directly: save_png writes none of these forms.
    auto write = [](const std::string &path, int w, int h, int depth, int color, int interlace, const Bytes &packed,
                    int row_bytes) {
        FILE *f = std::fopen(path.c_str(), "wb");
        REQUIRE(f);
        png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
        png_infop info = png_create_info_struct(png);
        png_init_io(png, f);
        png_set_IHDR(png, info, w, h, depth, color, interlace, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_color palette[2] = {{10, 20, 30}, {200, 150, 100}};
        if (color == PNG_COLOR_TYPE_PALETTE) png_set_PLTE(png, info, palette, 2);
        png_write_info(png, info);
        std::vector<png_bytep> rows(h);
        for (int y = 0; y < h; y++) rows[y] = const_cast<png_bytep>(packed.data()) + y * row_bytes;
        png_write_image(png, rows.data());
        png_write_end(png, nullptr);
        png_destroy_write_struct(&png, &info);
        std::fclose(f);
    };
    const int w = 13, h = 7;
    // 1 bit per pixel: pixel (x, y) is set when (x + y) is odd.
    Bytes bits(size_t((w + 7) / 8) * h, 0);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if ((x + y) % 2) bits[size_t(y) * ((w + 7) / 8) + x / 8] |= uint8_t(0x80 >> (x % 8));
    Bytes gray(size_t(w) * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) gray[size_t(y) * w + x] = uint8_t(x * 19 + y * 7);

    std::string p1 = tmp_path("gray1.png"), p2 = tmp_path("palette1.png"), p3 = tmp_path("adam7.png");
    write(p1, w, h, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE, bits, (w + 7) / 8);
    write(p2, w, h, 1, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE, bits, (w + 7) / 8);
    write(p3, w, h, 8, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_ADAM7, gray, w);
    Buffer<uint8_t> g1 = load_png_u8(p1), pal = load_png_u8(p2), adam7 = load_png_u8(p3);
    std::remove(p1.c_str());
    std::remove(p2.c_str());
    std::remove(p3.c_str());
    REQUIRE(g1.dimensions() == 2);
    REQUIRE(pal.dimensions() == 3);
    REQUIRE(pal.channels() == 3);
    REQUIRE(adam7.dimensions() == 2);
    int bad = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool set = (x + y) % 2;
            if (g1(x, y) != (set ? 255 : 0)) bad++;
            if (pal(x, y, 0) != (set ? 200 : 10) || pal(x, y, 2) != (set ? 100 : 30)) bad++;
            if (adam7(x, y) != uint8_t(x * 19 + y * 7)) bad++;
        }
    CHECK(bad == 0);
}
