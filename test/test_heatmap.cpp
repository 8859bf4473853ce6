// The benchmark heatmap (sweep/Heatmap.h): the PNG it writes (size, best-cell outline, grey
// missing cells), input validation, and the plain-text table.
#include "doctest/doctest.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "sweep/Heatmap.h"
#include "dsl/ImageIO.h"

using halo::sweep::Heatmap;

namespace {

// A 3-row x 4-column sweep; the best (smallest) time is at 64 x 16, one measurement is missing.
Heatmap sample() {
    Heatmap h;
    h.title = "test sweep";
    h.x_label = "tile width";
    h.y_label = "tile height";
    h.x_ticks = {"16", "32", "64", "128"};
    h.y_ticks = {"8", "16", "32"};
    h.values = {{12.345, 10.0, 9.5, 11.0}, {11.5, 8.25, 3.14159, 7.0}, {20.0, NAN, 1234.5, 15.0}};
    return h;
}

// A file name in the current directory, unique to this process; removed on destruction.
struct TempPng {
    std::string path = "test_heatmap_" + std::to_string(::getpid()) + ".png";
    ~TempPng() { std::remove(path.c_str()); }
};

// How many pixels of img have exactly the colour rgb.
int count_colour(const halo::Buffer<uint8_t> &img, const uint8_t rgb[3]) {
    int n = 0;
    for (int y = 0; y < img.height(); y++)
        for (int x = 0; x < img.width(); x++)
            n += img(x, y, 0) == rgb[0] && img(x, y, 1) == rgb[1] && img(x, y, 2) == rgb[2];
    return n;
}

// The message of the std::invalid_argument that f throws ("" if it throws none).
template <typename F>
std::string invalid_argument_message(F f) {
    try {
        f();
    } catch (const std::invalid_argument &e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("heatmap PNG: size, best-cell outline and grey missing cell") {
    TempPng tmp;
    halo::sweep::write_heatmap_png(sample(), tmp.path);
    halo::Buffer<uint8_t> img = halo::load_png_u8(tmp.path);
    REQUIRE(img.dimensions() == 3);
    CHECK(img.channels() == 3);
    // 4 columns of labelled cells plus ticks and a legend, drawn at 2x: a few hundred pixels.
    CHECK(img.width() >= 200);
    CHECK(img.width() <= 2000);
    CHECK(img.height() >= 150);
    CHECK(img.height() <= 1500);
    CHECK(img.width() % 2 == 0);
    CHECK(img.height() % 2 == 0);
    // The outline is a few pixels thick around a whole cell: hundreds of pixels.
    CHECK(count_colour(img, halo::sweep::best_border_rgb) > 300);
    // The missing cell is grey, apart from its "n/a".
    CHECK(count_colour(img, halo::sweep::missing_cell_rgb) > 1000);

    // Without the missing value there is no grey cell.
    Heatmap full = sample();
    full.values[2][1] = 5.0;
    halo::sweep::write_heatmap_png(full, tmp.path);
    CHECK(count_colour(halo::load_png_u8(tmp.path), halo::sweep::missing_cell_rgb) == 0);
}

TEST_CASE("heatmap with no value at all still renders") {
    TempPng tmp;
    Heatmap h = sample();
    for (auto &row : h.values)
        for (double &v : row) v = NAN;
    halo::sweep::write_heatmap_png(h, tmp.path);
    halo::Buffer<uint8_t> img = halo::load_png_u8(tmp.path);
    CHECK(count_colour(img, halo::sweep::best_border_rgb) == 0);
    CHECK(halo::sweep::render_text_art(h).find("best: n/a") != std::string::npos);
}

TEST_CASE("heatmap sizes must match the ticks") {
    Heatmap rows = sample();
    rows.y_ticks.push_back("64");
    std::string msg = invalid_argument_message([&] { halo::sweep::write_heatmap_png(rows, "unused.png"); });
    CHECK(msg.find("rows") != std::string::npos);
    CHECK(msg.find("y_ticks") != std::string::npos);
    CHECK(!invalid_argument_message([&] { halo::sweep::render_text_art(rows); }).empty());

    Heatmap cols = sample();
    cols.values[1].pop_back();
    msg = invalid_argument_message([&] { halo::sweep::write_heatmap_png(cols, "unused.png"); });
    CHECK(msg.find("columns") != std::string::npos);
    CHECK(msg.find("x_ticks") != std::string::npos);

    Heatmap empty;
    CHECK(!invalid_argument_message([&] { halo::sweep::render_text_art(empty); }).empty());
}

TEST_CASE("heatmap PNG that cannot be written names the path") {
    const std::string path = "no_such_directory_for_heatmaps/out.png";
    try {
        halo::sweep::write_heatmap_png(sample(), path);
        FAIL("expected std::runtime_error");
    } catch (const std::runtime_error &e) {
        CHECK(std::string(e.what()).find(path) != std::string::npos);
    }
}

TEST_CASE("heatmap text art marks the best cell") {
    const std::string art = halo::sweep::render_text_art(sample());
    INFO(art);
    CHECK(art.find("3.14*") != std::string::npos);
    int marked_rows = 0;  // grid lines (those with a " |") with a '*'
    for (size_t begin = 0, end; (end = art.find('\n', begin)) != std::string::npos; begin = end + 1) {
        const std::string line = art.substr(begin, end - begin);
        if (line.find(" |") != std::string::npos && line.find('*') != std::string::npos) marked_rows++;
    }
    CHECK(marked_rows == 1);
    // 3 significant digits, missing values as n/a, and the note.
    CHECK(art.find("12.3 ") != std::string::npos);
    CHECK(art.find("1230 ") != std::string::npos);
    CHECK(art.find("n/a") != std::string::npos);
    CHECK(art.find("best: 64 x 16 = 3.14 ms") != std::string::npos);

    // Higher is better: the largest value is the best.
    Heatmap h = sample();
    h.lower_is_better = false;
    CHECK(halo::sweep::render_text_art(h).find("1230*") != std::string::npos);
    h.values = {{0.01234, 2e9, 0.0}, {-1.5, 99.96, 100.04}, {NAN, NAN, NAN}};
    h.x_ticks = {"a", "b", "c"};
    const std::string small = halo::sweep::render_text_art(h);
    INFO(small);
    for (const char *s : {"0.0123", "2.00e+09*", " 0\n", "-1.50", " 100 "}) CHECK(small.find(s) != std::string::npos);
}
