// The tile-size sweep of any registered generator (sweep/Sweep.h): the grid, inputs sized by
// bounds inference, skipped variants, outputs compared between variants, the CSV and heatmap
// files, and the errors of a wrong request.
#include "TestUtil.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

#include "sweep/Heatmap.h"
#include "sweep/Sweep.h"
#include "sweep/SweepInputs.h"

using namespace halo;

namespace {

// A two-stage stencil with a tiled schedule: its input is read one point beyond the output on
// every side, and `bias` (not a schedule parameter) changes the result.
class SweepStencil : public Generator<SweepStencil> {
public:
    GeneratorParam<int> tile_w{"tile_w", 16, 1, 256};
    GeneratorParam<int> tile_h{"tile_h", 8, 1, 256};
    GeneratorParam<int> vector_width{"vector_width", 8, 1, 32};
    GeneratorParam<int> bias{"bias", 0, -100, 100};
    Input<Buffer<float>> input{"input", 2};
    Input<float> gain{"gain", 1.0f};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        blur_x(x, y) = input(x - 1, y) + input(x, y) + input(x + 1, y);
        output(x, y) = (blur_x(x, y - 1) + blur_x(x, y + 1)) * gain + float(int(bias));
    }
    void schedule() {
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).vectorize(xi, vector_width);
        blur_x.compute_at(output, xo).vectorize(x, vector_width);
    }

private:
    Var x{"x"}, y{"y"};
    Func blur_x{"blur_x"};
};

// A uint8 image input, for PNG files.
class SweepBrighten : public Generator<SweepBrighten> {
public:
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};
    void generate() { output(x, y) = saturating_cast<uint8_t>(input(x + 2, y + 3) * 2); }
    void schedule() { output.vectorize(x, vector_width); }

private:
    Var x{"x"}, y{"y"};
};

// A producer too costly to inline, for auto_schedule (which it needs estimates for).
class SweepAuto : public Generator<SweepAuto> {
public:
    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};
    void generate() {
        f(x, y) = (input(x, y) + input(x + 1, y) + input(x, y + 1)) / 3.0f;
        output(x, y) = f(x, y) + f(x + 2, y + 2) + f(x + 1, y);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, 64}, {0, 40}});
    }

private:
    Var x{"x"}, y{"y"};
    Func f{"f"};
};

// A uint64 output near 2^60, which a double cannot tell from the next integer.
class SweepWide : public Generator<SweepWide> {
public:
    GeneratorParam<int> delta{"delta", 0, 0, 10};
    Input<uint64_t> offset{"offset", 0};
    Output<Buffer<uint64_t>> output{"output", 1};
    void generate() { output(x) = (cast<uint64_t>(1) << 60) + cast<uint64_t>(x * int(delta)) + offset; }
    void schedule() {}

private:
    Var x{"x"};
};

HALO_REGISTER_GENERATOR(SweepStencil, "sweep_stencil")
HALO_REGISTER_GENERATOR(SweepWide, "sweep_wide")
HALO_REGISTER_GENERATOR(SweepAuto, "sweep_auto")
HALO_REGISTER_GENERATOR(SweepBrighten, "sweep_brighten")

std::string temp_path(const std::string &name) { return "/tmp/halo_test_sweep_" + std::to_string(::getpid()) + "_" + name; }

std::vector<std::string> lines_of(const std::string &path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

sweep::Options stencil_options() {
    sweep::Options o;
    o.generator = "sweep_stencil";
    o.sizes = {45, 21};  // not a multiple of any tile
    o.rounds = 2;
    o.progress = false;
    return o;
}

int count_colour(const Buffer<uint8_t> &img, const uint8_t rgb[3]) {
    int n = 0;
    for (int y = 0; y < img.dim(1).extent(); y++)
        for (int x = 0; x < img.dim(0).extent(); x++)
            n += img(x, y, 0) == rgb[0] && img(x, y, 1) == rgb[1] && img(x, y, 2) == rgb[2];
    return n;
}

}  // namespace

TEST_CASE("a sweep times every point of the grid and writes the CSV and the heatmap") {
    sweep::Options o = stencil_options();
    o.params = {{"tile_w", {"8", "16", "32"}}, {"tile_h", {"4", "8"}}, {"vector_width", {"4"}}};
    o.extra_variants = {{"one tile", {{"tile_w", "45"}, {"tile_h", "21"}}}};
    o.report_func = "blur_x";
    o.csv_path = temp_path("grid.csv");
    o.png_path = temp_path("grid.png");
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    INFO(table.str());
    REQUIRE(r.rows.size() == 7);
    CHECK(r.rows[0].label == "tile_w=8 tile_h=4");  // the first parameter varies fastest
    CHECK(r.rows[1].label == "tile_w=16 tile_h=4");
    CHECK(r.rows[5].label == "tile_w=32 tile_h=8");
    CHECK(r.rows[6].label == "one tile");
    for (auto &row : r.rows) {
        INFO(row.label);
        CHECK(row.error.empty());
        CHECK(row.disagreement.empty());
        CHECK(row.median_ms > 0);
        CHECK(row.min_ms <= row.median_ms);
        CHECK(row.compile_ms > 0);
    }
    // 8 x 4 tiles recompute blur_x's 2 extra rows per 4: (4 + 2) / 4 over full tiles.
    CHECK(r.rows[0].recompute_factor > 1.3);
    // One tile covers the output: no halo recomputed, only 4-wide vectors over 45 columns (48).
    CHECK(r.rows[6].recompute_factor == doctest::Approx(48.0 / 45.0));
    CHECK(r.best >= 0);
    CHECK(table.str().find("<- best") != std::string::npos);
    CHECK(table.str().find("fixed: vector_width=4") != std::string::npos);

    auto csv = lines_of(o.csv_path);
    REQUIRE(csv.size() == 8);
    CHECK(csv[0] ==
          "case,tile_w,tile_h,vector_width,compile_ms,median_ms,min_ms,recompute_factor,tile_bytes,vs_best,agrees,status");
    CHECK(csv[1].rfind("tile_w=8 tile_h=4,8,4,4,", 0) == 0);
    CHECK(csv[7].rfind("one tile,45,21,4,", 0) == 0);
    for (size_t i = 1; i < csv.size(); i++) CHECK(csv[i].substr(csv[i].size() - 7) == ",yes,ok");
    Buffer<uint8_t> png = load_png_u8(o.png_path);
    CHECK(png.dimensions() == 3);
    CHECK(count_colour(png, sweep::best_border_rgb) > 100);
    std::remove(o.csv_path.c_str());
    std::remove(o.png_path.c_str());
}

TEST_CASE("--refine-auto sweeps the tile sizes around what auto_schedule chose") {
    // What it chooses for this stencil: strips (it slides), so the strip height is swept.
    auto g = GeneratorRegistry::create("sweep_auto");
    g->set_param("auto_schedule", "true");
    g->build_outputs();
    INFO(g->auto_schedule_source());
    REQUIRE(g->auto_schedule_tile_w() == 0);
    const int h = g->auto_schedule_tile_h();
    REQUIRE(h >= 2);
    sweep::Options o = stencil_options();
    o.generator = "sweep_auto";
    o.sizes = {64, 40};  // its estimates (tiles and strips fit outputs at least that large)
    o.refine_auto = true;
    o.csv_path = temp_path("refine.csv");
    o.png_path = temp_path("refine.png");
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    INFO(table.str());
    CHECK(table.str().find("auto_schedule chose strips of " + std::to_string(h) + " rows") != std::string::npos);
    REQUIRE(r.rows.size() == 3);
    CHECK(r.rows[0].label == "auto_tile_h=" + std::to_string(h));  // the automatic choice first
    CHECK(r.rows[1].label == "auto_tile_h=" + std::to_string(h / 2));
    CHECK(r.rows[2].label == "auto_tile_h=" + std::to_string(2 * h));
    for (auto &row : r.rows) {
        INFO(row.label);
        CHECK(row.error.empty());
        CHECK(row.disagreement.empty());
    }
    std::remove(o.csv_path.c_str());
    std::remove(o.png_path.c_str());
    // A tile width asks for tiles: the sweep then varies both.
    auto tiled = GeneratorRegistry::create("sweep_auto");
    tiled->set_param("auto_schedule", "true");
    tiled->set_param("auto_tile_w", "64");
    tiled->set_param("auto_tile_h", "16");
    tiled->build_outputs();
    INFO(tiled->auto_schedule_source());
    CHECK(tiled->auto_schedule_tile_w() == 64);
    CHECK(tiled->auto_schedule_tile_h() == 16);
    // 16 does not divide the 40 estimated rows: the parallel rows are guarded, not shifted.
    CHECK(tiled->auto_schedule_source().find("output.split(x, xo, xi, 64).split(y, yo, yi, 16, TailStrategy::GuardWithIf)") != std::string::npos);
    CHECK(tiled->auto_schedule_source().find("store_at") == std::string::npos);
    // The parameters it sweeps may not be listed too.
    sweep::Options twice = stencil_options();
    twice.generator = "sweep_auto";
    twice.refine_auto = true;
    twice.params = {{"auto_tile_h", {"4"}}};
    std::ostringstream ignored;
    CHECK_THROWS_WITH(sweep::run_sweep(twice, ignored), doctest::Contains("--refine-auto sweeps auto_tile_h itself; do not list it"));
}

TEST_CASE("a third swept parameter gives a heatmap panel per value") {
    sweep::Options o = stencil_options();
    o.params = {{"vector_width", {"4", "8"}}, {"tile_w", {"8", "16"}}, {"tile_h", {"8", "16"}}};
    o.heatmap_x = "tile_w";
    o.heatmap_y = "tile_h";
    o.rounds = 1;
    o.png_path = temp_path("facets.png");
    std::ostringstream table;
    sweep::run_sweep(o, table);
    Buffer<uint8_t> two = load_png_u8(o.png_path);
    o.params[0].second = {"4"};
    sweep::run_sweep(o, table);
    Buffer<uint8_t> one = load_png_u8(o.png_path);
    CHECK(two.dim(1).extent() == 2 * one.dim(1).extent());
    std::remove(o.png_path.c_str());
}

TEST_CASE("inputs are sized by bounds inference, filled the same for every variant, and given values") {
    sweep::Options o = stencil_options();
    o.params = {{"tile_w", {"8", "32"}}, {"tile_h", {"8"}}, {"vector_width", {"4", "8"}}};
    o.inputs = {{"gain", "0.5"}};
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    INFO(table.str());
    for (auto &row : r.rows) {
        CHECK(row.error.empty());
        CHECK(row.disagreement.empty());  // schedules agree on the same data
    }
    // The data itself: a function of the coordinates only.
    Buffer<> a = sweep::pseudo_random_input("input", Float(32), {-1, -1}, {10, 10});
    Buffer<> b = sweep::pseudo_random_input("input", Float(32), {3, 2}, {4, 4});
    CHECK(a.get_as_double({3, 2}) == b.get_as_double({3, 2}));
    CHECK(a.get_as_double({3, 2}) != a.get_as_double({2, 3}));
    for (int i = 0; i < 10; i++) CHECK((a.get_as_double({i - 1, 0}) >= 0 && a.get_as_double({i - 1, 0}) < 1));
}

TEST_CASE("a variant whose output differs from the first is reported") {
    sweep::Options o = stencil_options();
    o.params = {{"bias", {"0", "1"}}};
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].disagreement.empty());
    CHECK(r.rows[1].disagreement.find("output 0 at (0, 0) is ") == 0);
    CHECK(table.str().find("DIFFERS from the first variant") != std::string::npos);
}

TEST_CASE("64-bit integer outputs are compared and printed exactly") {
    sweep::Options o;
    o.generator = "sweep_wide";
    o.sizes = {4};
    o.rounds = 1;
    o.progress = false;
    o.params = {{"delta", {"0", "1"}}};
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].disagreement.empty());
    CHECK(r.rows[1].disagreement == "output 0 at (1) is 1152921504606846977, not 1152921504606846976");
    // Every uint64 value is a value of the scalar input; a sign is not.
    o.inputs = {{"offset", "18446744073709551615"}};
    r = sweep::run_sweep(o, table);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].error.empty());
    o.inputs = {{"offset", "-1"}};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("Input 'offset' is uint64; '-1' is out of range"));
}

TEST_CASE("variants that cannot compile or run are skipped with the reason") {
    sweep::Options o = stencil_options();
    o.sizes = {6, 21};  // narrower than the 8-wide vectors of the output
    o.params = {{"tile_w", {"4", "300"}}, {"vector_width", {"4", "8"}}};
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    INFO(table.str());
    REQUIRE(r.rows.size() == 4);
    CHECK(r.rows[0].error.empty());  // 4 x 8 tiles, 4-wide vectors
    CHECK(r.rows[1].error.find("GeneratorParam 'tile_w' is an integer in [1, 256]; '300' is out of range") !=
          std::string::npos);
    CHECK(r.rows[2].error.find("output 'output' would be computed at x in") != std::string::npos);
    CHECK(table.str().find("tile_w=300 vector_width=4                skipped: GeneratorParam") != std::string::npos);
    CHECK(r.best == 0);
}

TEST_CASE("a PNG file stands for a buffer input, placed at the first point read") {
    const std::string png = std::string(HALO_TEST_DATA_DIR) + "/camera.png";
    Buffer<uint8_t> image = load_png_u8(png);
    sweep::Options o;
    o.generator = "sweep_brighten";
    o.sizes = {64, 48};
    o.rounds = 1;
    o.progress = false;
    o.params = {{"vector_width", {"8", "16"}}};
    o.inputs = {{"input", png}};
    std::ostringstream table;
    sweep::Result r = sweep::run_sweep(o, table);
    for (auto &row : r.rows) CHECK(row.error.empty());
    // Too small for the output: a clear error before anything runs.
    const int w = image.dim(0).extent();
    o.sizes = {w + 1, 8};
    const std::string expected = "Input 'input': the PNG file " + png + " has " + std::to_string(w) +
                                 " points in dimension 0, but the variants read " + std::to_string(w + 1) + " (from 2)";
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains(expected.c_str()));
}

TEST_CASE("a wrong request is an error naming what is wrong") {
    sweep::Options o = stencil_options();
    std::ostringstream table;
    o.generator = "no_such";
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("Unknown generator 'no_such'"));
    o = stencil_options();
    o.params = {{"tile_x", {"8"}}};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table),
                      doctest::Contains("Parameter 'tile_x' is not a GeneratorParam of generator 'sweep_stencil' (it "
                                        "has: auto_schedule, auto_tile_w, auto_tile_h, tile_w, tile_h, vector_width, bias)"));
    o = stencil_options();
    o.inputs = {{"image", "x.png"}};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("has no Input named 'image'"));
    o = stencil_options();
    o.sizes = {45, 21, 3};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table),
                      doctest::Contains("-r gives 3 extents, but the output 'output' of generator 'sweep_stencil' has 2"));
    o = stencil_options();
    o.params = {{"tile_w", {"8", "16"}}};
    o.heatmap_x = "tile_h";
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("The heatmap's axis 'tile_h' is not a swept parameter"));
    o = stencil_options();
    o.inputs = {{"gain", "fast"}};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("Input 'gain' is float32; 'fast' is not a number"));
    o = stencil_options();
    o.report_func = "blur_y";
    CHECK_THROWS_WITH(sweep::run_sweep(o, table),
                      doctest::Contains("--report-func blur_y: the redundancy report of generator 'sweep_stencil' has no "
                                        "Func of that name; its Funcs are blur_x, output"));
    o = stencil_options();
    o.inputs = {{"gain", "1e39"}};  // past FLT_MAX: it would be inf
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("Input 'gain' is float32; '1e39' is out of range"));
    o.inputs = {{"gain", " 2"}};
    CHECK_THROWS_WITH(sweep::run_sweep(o, table), doctest::Contains("Input 'gain' is float32; ' 2' is not a number"));
}
