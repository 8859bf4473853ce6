// Tile-size sweep of the built-in apps: presets (sizes, tile grids, the breadth-first schedule
// and the plain C++ loops to compare with, the work for GFLOP/s or GB/s) over the one sweep
// implementation every generator executable has (sweep/Sweep.h, halo-sweep). The apps are the
// registered generators of apps/generators.cpp, linked into this program.
//
// Usage: sweep <app> [--quick] [--rounds N] [--threads N] [--widths a,b,..] [--heights a,b,..] [--vectors a,b,..]
//              [--csv file] [--png file] [--no-plain]
//   apps: cnn_block (32 channels), cnn_block8 (8 channels), dw_pw (depthwise 3x3 -> pointwise
//         1x1, 32 channels), blur, harris, unsharp, local_laplacian
// The same sweep of any generator: halo-sweep GENERATOR_EXE -g NAME -r SIZES param=v1,v2,...

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "AppInputs.h"
#include "app_generators.h"
#include "sweep/Sweep.h"

using namespace halo;

namespace {

struct Preset {
    sweep::Options options;
    std::vector<int> widths, heights;
    int vector_width = 16;
};

std::vector<std::string> strings(const std::vector<int> &v) {
    std::vector<std::string> s;
    for (int x : v) s.push_back(std::to_string(x));
    return s;
}

// "8,16,32" -> {8, 16, 32}; exits with a message on anything but positive integers.
std::vector<int> parse_list(const std::string &option, const char *text) {
    std::vector<int> v;
    std::string s = text, item;
    size_t start = 0;
    while (true) {
        size_t end = s.find(',', start);
        item = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
        char *stop = nullptr;
        long n = std::strtol(item.c_str(), &stop, 10);
        if (item.empty() || *stop || n <= 0 || n > 1 << 20) {
            std::fprintf(stderr, "%s: '%s' is not a positive integer (give a list like 8,16,32)\n", option.c_str(), item.c_str());
            std::exit(2);
        }
        v.push_back(int(n));
        if (end == std::string::npos) return v;
        start = end + 1;
    }
}

// The app's preset; false for an unknown app.
bool make_preset(const std::string &app, bool quick, bool with_plain, Preset &p) {
    sweep::Options &o = p.options;
    auto fixed = [&](const std::string &k, const std::string &v) { o.params.push_back({k, {v}}); };
    if (app == "cnn_block" || app == "cnn_block8") {
        const int C = app == "cnn_block" ? 32 : 8, W = quick ? 24 : (C == 32 ? 256 : 1024), H = W;
        p.vector_width = C >= 16 ? 16 : 8;
        o.generator = "cnn_block";
        o.sizes = {C, W, H};
        fixed("channels", std::to_string(C));
        fixed("schedule", "blocked");
        o.extra_variants.push_back({"breadth-first", {{"schedule", "breadth_first_blocked"}}});
        // Image-wide strips in which both convolutions slide down the rows (no halo recomputed).
        const std::string strip = std::to_string(std::max(1, std::min(64, H / 2)));
        o.extra_variants.push_back({"sliding strips of " + strip + " rows", {{"schedule", "sliding_blocked"}, {"tile_h", strip}}});
        o.report_func = "conv1";
        o.work = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;
        o.work_unit = "GFLOP/s";
        p.widths = {4, 8, 16, 32, 64};
        p.heights = {4, 8, 16, 32};
        if (with_plain) {
            Buffer<float> in = bench::channels_innermost_input(C, 2 * W + 4, 2 * H + 4), out(C, W, H);
            auto ref = std::make_shared<apps::CnnBlock>(C, apps::CnnBlock::Layout::ChannelsInnermost);
            o.extra_cases.push_back({"plain C++ (one thread)", [=]() mutable { ref->plain(in, out); }});
        }
    } else if (app == "dw_pw") {
        const int C = 32, W = quick ? 40 : 1024, H = W;
        o.generator = "dw_pw";
        o.sizes = {C, W, H};
        fixed("schedule", "tiled");
        o.extra_variants.push_back({"breadth-first", {{"schedule", "breadth_first"}}});
        o.report_func = "relu1";
        o.work = 2.0 * W * H * C * (C + 9);
        o.work_unit = "GFLOP/s";
        p.widths = {8, 16, 32, 64, 128};
        p.heights = {2, 4, 8, 16};
        if (with_plain) {
            Buffer<float> in = bench::channels_innermost_input(C, W + 2, H + 2), out(C, W, H);
            auto ref = std::make_shared<apps::DepthwisePointwise>(C);
            o.extra_cases.push_back({"plain C++ (one thread)", [=]() mutable { ref->plain(in, out); }});
        }
    } else if (app == "blur" || app == "harris" || app == "unsharp" || app == "local_laplacian") {
        const bool blur = app == "blur", ll = app == "local_laplacian";
        const int W = blur ? (quick ? 600 : 6400) : ll ? (quick ? 96 : 1536) : (quick ? 300 : 2560);
        const int H = blur ? (quick ? 200 : 4800) : ll ? (quick ? 64 : 1024) : (quick ? 100 : 1920);
        o.generator = app;
        o.sizes = {W, H};
        if (app == "unsharp" || ll) o.sizes.push_back(3);
        fixed("schedule", "tiled");
        o.extra_variants.push_back({"breadth-first", {{"schedule", "breadth_first"}}});
        o.report_func = blur || app == "unsharp" ? "blur_x" : app == "harris" ? "Ix" : "";
        o.work = (blur ? 4.0 : app == "harris" ? 8.0 : 24.0) * W * H;
        o.work_unit = "GB/s";
        p.widths = blur ? std::vector<int>{128, 256, 512, 1024, W} : ll ? std::vector<int>{32, 64, 128, 256}
                                                                        : std::vector<int>{64, 128, 256, 512, W};
        p.heights = blur ? std::vector<int>{2, 4, 8, 16, 32} : ll ? std::vector<int>{8, 16, 32, 64}
                                                                 : std::vector<int>{4, 8, 16, 32, 64};
        p.vector_width = ll ? 8 : 16;
        if (with_plain && !ll) {
            if (blur) {
                Buffer<uint16_t> in = bench::blur_input(W, H), out(W, H);
                o.extra_cases.push_back({"plain C++ (one thread)", [=]() mutable { apps::Blur::plain(in, out); }});
            } else if (app == "harris") {
                Buffer<float> in = bench::harris_input(W, H), out(W, H);
                o.extra_cases.push_back({"plain C++ (one thread)", [=]() mutable { apps::Harris::plain(in, out); }});
            } else {
                Buffer<float> in = bench::unsharp_input(W, H), out(W, H, 3);
                o.extra_cases.push_back({"plain C++ (one thread)", [=]() mutable { apps::Unsharp::plain(in, out); }});
            }
        }
    } else {
        return false;
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help")) {
        std::fprintf(stderr, "usage: %s <cnn_block|cnn_block8|dw_pw|blur|harris|unsharp|local_laplacian> [--quick] "
                             "[--rounds N] [--threads N] [--widths a,b] [--heights a,b] [--vectors a,b] [--csv file] "
                             "[--png file] [--no-plain]\n", argv[0]);
        return 2;
    }
    std::string app = argv[1];
    bool quick = false, with_plain = true;
    int rounds = 7, threads = 0;
    std::vector<int> widths, heights, vectors;
    std::string csv_path = "sweep_" + app + ".csv", png_path = "sweep_" + app + ".png";
    for (int i = 2; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--quick") quick = true;
        else if (a == "--no-plain") with_plain = false;
        else if (a == "--rounds") rounds = std::atoi(next());
        else if (a == "--threads") threads = std::atoi(next());
        else if (a == "--widths") widths = parse_list(a, next());
        else if (a == "--heights") heights = parse_list(a, next());
        else if (a == "--vectors") vectors = parse_list(a, next());
        else if (a == "--csv") csv_path = next();
        else if (a == "--png") png_path = next();
        else {
            std::fprintf(stderr, "unknown option %s (see --help)\n", a.c_str());
            return 2;
        }
    }
    Preset p;
    if (!make_preset(app, quick, with_plain, p)) {
        std::fprintf(stderr, "unknown app '%s' (see --help)\n", app.c_str());
        return 2;
    }
    sweep::Options &o = p.options;
    if (widths.empty()) widths = quick ? std::vector<int>{8, 16} : p.widths;
    if (heights.empty()) heights = quick ? std::vector<int>{4, 8} : p.heights;
    if (vectors.empty()) vectors = {p.vector_width};
    o.params.push_back({"tile_w", strings(widths)});
    o.params.push_back({"tile_h", strings(heights)});
    o.params.push_back({"vector_width", strings(vectors)});
    o.heatmap_x = "tile_w";
    o.heatmap_y = "tile_h";
    o.rounds = quick ? std::min(rounds, 2) : rounds;
    o.threads = threads;
    o.csv_path = csv_path;
    o.png_path = png_path;
    try {
        sweep::run_sweep(o, std::cout);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    std::cout << "wrote " << csv_path << " and " << png_path << "\n";
    return 0;
}
