// Tile-size sweep: compiles an app's fused schedule over a grid of tile sizes and times every
// variant, together with the breadth-first schedule and the plain C++ loops, interleaved
// round-robin in one run. Prints a table (median and min ms, throughput, recompute factor and
// per-tile footprint from the redundancy report, ratio to the best), writes a CSV and a heatmap
// PNG of time over tile width x height, and shows progress on stderr.
//
// Usage: sweep <app> [--quick] [--rounds N] [--threads N] [--widths a,b,..] [--heights a,b,..] [--vectors a,b,..]
//              [--csv file] [--png file] [--no-plain]
//   apps: cnn_block (32 channels), cnn_block8 (8 channels), dw_pw (depthwise 3x3 -> pointwise
//         1x1, 32 channels), blur, harris, unsharp

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "BenchUtil.h"
#include "Heatmap.h"
#include "SweepApps.h"

using namespace halo;

namespace {

// "8,16,32" -> {8, 16, 32}; exits with a message on anything but positive integers.
std::vector<int> parse_list(const std::string &option, const char *s) {
    std::vector<int> v;
    std::stringstream in(s);
    std::string item;
    while (std::getline(in, item, ',')) {
        char *end = nullptr;
        long n = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end || n <= 0 || n > 1 << 20) {
            std::fprintf(stderr, "%s: '%s' is not a positive integer (give a list like 8,16,32)\n", option.c_str(), item.c_str());
            std::exit(2);
        }
        v.push_back(int(n));
    }
    return v;
}

void progress(const char *what, int done, int total) {
    const int width = 30;
    int filled = total ? done * width / total : width;
    std::fprintf(stderr, "\r%-10s [%s%s] %d/%d", what, std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total);
    if (done == total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

struct Entry {
    std::string name;
    int tile_w = 0, tile_h = 0, vector_width = 0;  // 0 for the reference cases
    double compile_ms = 0, factor = NAN, footprint = NAN;
    std::string error;  // why the variant cannot run at this size (it is then left out)
    bench::Case c;
};

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help")) {
        std::fprintf(stderr, "usage: %s <cnn_block|cnn_block8|dw_pw|blur|harris|unsharp> [--quick] [--rounds N] "
                             "[--threads N] [--widths a,b] [--heights a,b] [--vectors a,b] [--csv file] [--png file] [--no-plain]\n", argv[0]);
        return 2;
    }
    std::string app_name = argv[1];
    bool quick = false, with_plain = true;
    int rounds = 7, threads = 0;
    std::vector<int> widths, heights, vectors;
    std::string csv_path = "sweep_" + app_name + ".csv", png_path = "sweep_" + app_name + ".png";
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
    if (threads > 0) halo_set_num_threads(threads);
    if (quick) rounds = std::min(rounds, 2);
    std::unique_ptr<bench::SweepApp> app = bench::make_sweep_app(app_name, quick);
    if (!app) {
        std::fprintf(stderr, "unknown app '%s' (see --help)\n", app_name.c_str());
        return 2;
    }
    if (widths.empty()) widths = quick ? std::vector<int>{8, 16} : app->default_widths;
    if (heights.empty()) heights = quick ? std::vector<int>{4, 8} : app->default_heights;
    if (vectors.empty()) vectors = {app->default_vector};

    // Compile every variant first (compile times are reported), then time them all together.
    std::vector<Entry> entries;
    int total = int(widths.size() * heights.size() * vectors.size()) + 1, done = 0;
    // A variant whose schedule or compilation fails (a tile the vector does not fit, say) is
    // reported and left out rather than ending the sweep; so is one that fails at run time.
    auto add = [&](const std::string &name, int tw, int th, int vw, const std::function<bench::SweepVariant()> &make) {
        Entry e;
        e.name = name;
        e.tile_w = tw;
        e.tile_h = th;
        e.vector_width = vw;
        e.c = {name, [] {}, {}};
        try {
            auto v = std::make_shared<bench::SweepVariant>(make());
            e.compile_ms = bench::time_ms([&] { v->output_func.compile_jit(); });
            RedundancyReport r = redundancy_report(v->output_func, app->output_sizes, 1e9);
            if (auto row = r.find(app->key_func)) e.factor = row->factor;
            double footprint = 0;
            for (auto &row : r.rows)
                if (row.allocations > 1) footprint += double(row.buffer_bytes);
            e.footprint = footprint;
            e.c.run = [v] { v->output_func.realize(v->output); };
        } catch (const std::exception &ex) {
            e.error = ex.what();
        }
        entries.push_back(std::move(e));
        progress("compiling", ++done, total);
    };
    add("breadth-first", 0, 0, 0, app->breadth_first);
    for (int vw : vectors)
        for (int th : heights)
            for (int tw : widths) {
                std::string name = "fused " + std::to_string(tw) + "x" + std::to_string(th);
                if (vectors.size() > 1) name += " v" + std::to_string(vw);
                add(name, tw, th, vw, [&] { return app->fused(tw, th, vw); });
            }
    if (app->plain && with_plain) {
        Entry e;
        e.name = "plain C++ (one thread)";
        e.c = {e.name, app->plain, {}};
        entries.push_back(std::move(e));
    }
    std::vector<bench::Case> cases;
    for (auto &e : entries) cases.push_back(e.c);
    for (size_t i = 0; i < cases.size(); i++) {  // warm-up
        if (!entries[i].error.empty()) continue;
        try {
            cases[i].run();
        } catch (const std::exception &ex) {
            entries[i].error = ex.what();
            cases[i].run = [] {};
        }
    }
    for (int r = 0; r < rounds; r++) {
        for (size_t i = 0; i < cases.size(); i++)
            cases[i].ms.push_back(entries[i].error.empty() ? bench::time_ms(cases[i].run) : NAN);
        progress("timing", r + 1, rounds);
    }

    double best = 1e300;
    size_t best_i = 0;
    for (size_t i = 0; i < cases.size(); i++)
        if (entries[i].error.empty() && cases[i].median() < best) best = cases[i].median(), best_i = i;
    std::printf("sweep %s: %s, %d threads, %d rounds (median of interleaved rounds)\n", app_name.c_str(),
                app->description.c_str(), threads > 0 ? threads : halo_get_num_threads(), rounds);
    std::printf("%-24s %9s %9s %9s %9s %9s %12s %8s\n", "case", "compile", "median ms", "min ms", app->unit.c_str(),
                "recompute", "tile bytes", "vs best");
    std::ofstream csv(csv_path);
    csv << "case,tile_w,tile_h,vector_width,compile_ms,median_ms,min_ms," << app->unit << ",recompute_factor,tile_footprint_bytes,vs_best\n";
    for (size_t i = 0; i < cases.size(); i++) {
        const Entry &e = entries[i];
        if (!e.error.empty()) {
            std::printf("%-24s skipped: %s\n", e.name.c_str(), e.error.c_str());
            csv << e.name << "," << e.tile_w << "," << e.tile_h << "," << e.vector_width << ",,,,,,,\n";
            continue;
        }
        double med = cases[i].median(), thr = app->work / med / 1e6;
        std::printf("%-24s %7.0fms %9.2f %9.2f %9.1f %9.3f %12.0f %7.2fx%s\n", e.name.c_str(), e.compile_ms, med,
                    cases[i].min(), thr, e.factor, e.footprint, med / best, i == best_i ? "  <- best" : "");
        csv << e.name << "," << e.tile_w << "," << e.tile_h << "," << e.vector_width << "," << e.compile_ms << "," << med << "," << cases[i].min()
            << "," << thr << "," << e.factor << "," << e.footprint << "," << med / best << "\n";
    }
    // The heatmap: median ms of each fused variant over tile width x height (the best vector
    // width of each cell when several were swept).
    bench::Heatmap h;
    h.title = "sweep " + app_name + ": " + app->description + ", median ms" +
              (vectors.size() > 1 ? " (best vector width)" : "");
    h.x_label = "tile width";
    h.y_label = "tile height";
    for (int tw : widths) h.x_ticks.push_back(std::to_string(tw));
    for (int th : heights) h.y_ticks.push_back(std::to_string(th));
    h.values.assign(heights.size(), std::vector<double>(widths.size(), 1e300));
    size_t k = 1;  // entries[0] is breadth-first
    for (size_t v = 0; v < vectors.size(); v++)
        for (size_t r = 0; r < heights.size(); r++)
            for (size_t c = 0; c < widths.size(); c++, k++)
                if (entries[k].error.empty()) h.values[r][c] = std::min(h.values[r][c], cases[k].median());
    for (auto &row : h.values)
        for (double &v : row)
            if (v == 1e300) v = NAN;  // no vector width could run this tile: an "n/a" cell
    double best_fused = 1e300;
    for (auto &row : h.values)
        for (double v : row)
            if (!std::isnan(v)) best_fused = std::min(best_fused, v);
    std::printf("breadth-first / best fused: %.2fx\n", cases[0].median() / best_fused);
    std::printf("%s", bench::render_text_art(h).c_str());
    bench::write_heatmap_png(h, png_path);
    std::printf("wrote %s and %s\n", csv_path.c_str(), png_path.c_str());
    return 0;
}
