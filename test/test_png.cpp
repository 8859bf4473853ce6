// PNG input and output: round trips of 8-bit gray, 8-bit RGB and 16-bit images, the sample
// photographs, and a pipeline on a photo saved and reloaded.
#include "TestUtil.h"

#include <cstdio>
#include <string>
#include <unistd.h>

using namespace halo;

namespace {

std::string data_path(const std::string &file) { return std::string(HALO_TEST_DATA_DIR) + "/" + file; }
std::string tmp_path(const std::string &file) {
    return "/tmp/halo_test_png_" + std::to_string(::getpid()) + "_" + file;
}

template <typename T>
void check_same(const Buffer<T> &a, const Buffer<T> &b) {
    REQUIRE(a.dimensions() == b.dimensions());
    for (int d = 0; d < a.dimensions(); d++) REQUIRE(a.dim(d).extent() == b.dim(d).extent());
    int bad = 0;
    a.for_each_element([&](const std::vector<int> &c) {
        std::vector<int> cb(c);
        for (int d = 0; d < a.dimensions(); d++) cb[d] += b.dim(d).min() - a.dim(d).min();
        const std::vector<int> &cbc = cb;
        if (a(c) != b(cbc)) bad++;
    });
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("round trip 8-bit gray") {
    Buffer<uint8_t> img(37, 23);
    halo_test::fill_random(img, 0, 255, 1);
    img(0, 0) = 0;
    img(1, 0) = 255;
    std::string p = tmp_path("gray8.png");
    save_png(img, p);
    Buffer<uint8_t> back = load_png_u8(p);
    CHECK(back.dimensions() == 2);
    CHECK(back.width() == 37);
    CHECK(back.height() == 23);
    check_same(img, back);
    std::remove(p.c_str());
}

TEST_CASE("round trip 8-bit RGB") {
    Buffer<uint8_t> img(19, 31, 3);
    halo_test::fill_random(img, 0, 255, 2);
    std::string p = tmp_path("rgb8.png");
    save_png(img, p);
    Buffer<uint8_t> back = load_png_u8(p);
    CHECK(back.dimensions() == 3);
    CHECK(back.width() == 19);
    CHECK(back.height() == 31);
    CHECK(back.channels() == 3);
    check_same(img, back);
    std::remove(p.c_str());
}

TEST_CASE("round trip 8-bit RGBA and gray+alpha") {
    for (int ch : {2, 4}) {
        Buffer<uint8_t> img(11, 7, ch);
        halo_test::fill_random(img, 0, 255, 3 + ch);
        std::string p = tmp_path("alpha" + std::to_string(ch) + ".png");
        save_png(img, p);
        Buffer<uint8_t> back = load_png_u8(p);
        CHECK(back.dimensions() == 3);
        CHECK(back.channels() == ch);
        check_same(img, back);
        std::remove(p.c_str());
    }
}

TEST_CASE("round trip 16-bit gray and RGB") {
    Buffer<uint16_t> gray(29, 17);
    halo_test::fill_random(gray, 0, 65535, 5);
    gray(0, 0) = 0;
    gray(1, 0) = 65535;
    gray(2, 0) = 0x1234;  // byte order matters
    std::string p = tmp_path("gray16.png");
    save_png(gray, p);
    Buffer<uint16_t> back = load_png_u16(p);
    CHECK(back.dimensions() == 2);
    check_same(gray, back);
    CHECK(back(2, 0) == 0x1234);
    std::remove(p.c_str());

    Buffer<uint16_t> rgb(13, 9, 3);
    halo_test::fill_random(rgb, 0, 65535, 6);
    std::string q = tmp_path("rgb16.png");
    save_png(rgb, q);
    Buffer<uint16_t> back3 = load_png_u16(q);
    CHECK(back3.dimensions() == 3);
    CHECK(back3.channels() == 3);
    check_same(rgb, back3);
    std::remove(q.c_str());
}

TEST_CASE("saving a buffer with non-zero mins") {
    Buffer<uint8_t> img(8, 6);
    halo_test::fill_random(img, 0, 255, 7);
    img.set_min(-3, 10);
    std::string p = tmp_path("mins.png");
    save_png(img, p);
    Buffer<uint8_t> back = load_png_u8(p);
    CHECK(back.dim(0).min() == 0);
    check_same(img, back);
    std::remove(p.c_str());
}

TEST_CASE("load the sample photographs") {
    Buffer<uint8_t> cam = load_png_u8(data_path("camera.png"));
    CHECK(cam.dimensions() == 2);
    CHECK(cam.width() == 512);
    CHECK(cam.height() == 512);
    CHECK(cam.dim(0).stride() == 1);
    CHECK(cam.dim(1).stride() == 512);
    // A real photo: not constant.
    int lo = 255, hi = 0;
    cam.for_each_element([&](const std::vector<int> &c) { lo = std::min<int>(lo, cam(c)); hi = std::max<int>(hi, cam(c)); });
    CHECK(hi - lo > 100);

    Buffer<uint8_t> cat = load_png_u8(data_path("chelsea.png"));
    CHECK(cat.dimensions() == 3);
    CHECK(cat.width() == 451);
    CHECK(cat.height() == 300);
    CHECK(cat.channels() == 3);
    CHECK(cat.dim(0).stride() == 1);
}

TEST_CASE("a missing or corrupt file is an error naming the file") {
    std::string missing = tmp_path("does_not_exist.png");
    std::string msg = halo_test::compile_error_of([&] { load_png_u8(missing); });
    CHECK(msg.find(missing) != std::string::npos);
    std::string bad = tmp_path("not_a_png.png");
    FILE *f = std::fopen(bad.c_str(), "wb");
    REQUIRE(f);
    std::fputs("this is not a PNG file at all", f);
    std::fclose(f);
    msg = halo_test::compile_error_of([&] { load_png_u8(bad); });
    CHECK(msg.find(bad) != std::string::npos);
    std::remove(bad.c_str());
}

TEST_CASE("brightness pipeline on the camera photo, saved and reloaded") {
    Buffer<uint8_t> cam = load_png_u8(data_path("camera.png"));
    ImageParam in(UInt(8), 2, "in");
    in.set(cam);
    Var x("x"), y("y");
    Func bright("bright");
    bright(x, y) = saturating_cast<uint8_t>(cast<int16_t>(in(x, y)) * 3 / 2 + 10);
    bright.vectorize(x, 16).parallel(y);
    Buffer<uint8_t> out = bright.realize({512, 512});
    std::string p = tmp_path("bright.png");
    save_png(out, p);
    Buffer<uint8_t> back = load_png_u8(p);
    REQUIRE(back.width() == 512);
    REQUIRE(back.height() == 512);
    int bad = 0;
    for (int j = 0; j < 512; j++)
        for (int i = 0; i < 512; i++) {
            int e = std::min(255, cam(i, j) * 3 / 2 + 10);
            if (back(i, j) != e) bad++;
        }
    CHECK(bad == 0);
    std::remove(p.c_str());
}

TEST_CASE("to_float and from_float on the RGB photo") {
    Buffer<uint8_t> cat = load_png_u8(data_path("chelsea.png"));
    Buffer<float> f = to_float(cat);
    CHECK(f.dimensions() == 3);
    CHECK(f.width() == 451);
    CHECK(f.channels() == 3);
    int bad = 0;
    cat.for_each_element([&](const std::vector<int> &c) {
        if (!(std::fabs(f(c) - cat(c) / 255.0f) <= 1e-6f)) bad++;
    });
    CHECK(bad == 0);
    Buffer<uint8_t> back = from_float(f);
    check_same(cat, back);

    // Darken in float through a pipeline, convert back, save, reload.
    Var x("x"), y("y"), c("c");
    Func dark("dark");
    dark(x, y, c) = f(x, y, c) * 0.5f;
    Buffer<float> d = dark.realize({451, 300, 3});
    Buffer<uint8_t> d8 = from_float(d);
    std::string p = tmp_path("dark.png");
    save_png(d8, p);
    Buffer<uint8_t> r = load_png_u8(p);
    check_same(d8, r);
    int off = 0;
    cat.for_each_element([&](const std::vector<int> &cc) {
        if (std::abs(int(r(cc)) - int(cat(cc)) / 2) > 1) off++;
    });
    CHECK(off == 0);
    std::remove(p.c_str());
}
