// The sweep's command line (halo-sweep, and a generator executable's --sweep mode).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>

#include "Sweep.h"
#include "dsl/Halo.h"

namespace halo::sweep {

namespace {

int positive(const std::string &option, const std::string &text) {
    char *end = nullptr;
    long v = std::strtol(text.c_str(), &end, 10);
    user_assert(!text.empty() && *end == 0 && v >= 1 && v <= 100000)
        << option << " takes a whole number from 1 to 100000; '" << text << "' is not one";
    return int(v);
}

Options parse(int argc, char **argv, bool &help) {
    Options o;
    bool sizes_given = false, csv_given = false, png_given = false;
    std::set<std::string> seen;  // options that take one value
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&]() -> std::string {
            user_assert(i + 1 < argc) << "Option " << a << " needs a value";
            // (--input may repeat, for different inputs)
            user_assert(a == "--input" || seen.insert(a).second) << "Option " << a << " is given twice; give it once";
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            help = true;
            return o;
        } else if (a == "-g") {
            o.generator = value();
        } else if (a == "-r") {
            o.sizes = internal::parse_output_sizes(value(), "-r");
            sizes_given = true;
        } else if (a == "--rounds") {
            o.rounds = positive(a, value());
        } else if (a == "--threads") {
            o.threads = positive(a, value());
        } else if (a == "--csv") {
            o.csv_path = value();
            csv_given = true;
        } else if (a == "--png") {
            o.png_path = value();
            png_given = true;
        } else if (a == "--input") {
            std::string v = value();
            size_t eq = v.find('=');
            user_assert(eq != std::string::npos && eq > 0 && eq + 1 < v.size())
                << "--input takes NAME=FILE.png (a buffer input) or NAME=VALUE (a scalar input); '" << v << "' is neither";
            user_assert(o.inputs.emplace(v.substr(0, eq), v.substr(eq + 1)).second)
                << "--input " << v.substr(0, eq) << " is given twice";
        } else if (a == "--heatmap") {
            auto axes = internal::split_list(value(), ',');
            user_assert(axes.size() == 2 && !axes[0].empty() && !axes[1].empty() && axes[0] != axes[1])
                << "--heatmap takes two different swept parameters, X,Y (e.g. --heatmap tile_w,tile_h)";
            o.heatmap_x = axes[0];
            o.heatmap_y = axes[1];
        } else if (a == "--report-func") {
            o.report_func = value();
        } else if (a == "--refine-auto") {
            o.refine_auto = true;
        } else if (a == "--no-progress") {
            o.progress = false;
        } else if (a.find('=') != std::string::npos && a[0] != '-') {
            std::string name = a.substr(0, a.find('='));
            std::vector<std::string> values = internal::split_list(a.substr(a.find('=') + 1), ',');
            for (auto &v : values) {
                user_assert(!v.empty()) << "Parameter '" << name << "': '" << a << "' has an empty value; list values as "
                                        << name << "=v1,v2,...";
            }
            o.params.push_back({name, values});
        } else {
            user_error << "Unknown option '" << a << "'; run with --help for the options";
        }
    }
    user_assert(!o.generator.empty()) << "No generator given (-g NAME); run with --help to list them";
    user_assert(sizes_given) << "No output size given (-r WxH[x...], e.g. -r 256x256x32)";
    if (!csv_given) o.csv_path = "sweep_" + o.generator + ".csv";
    if (!png_given) o.png_path = "sweep_" + o.generator + ".png";
    return o;
}

// halo-sweep starts a generator executable in its --sweep mode and cannot tell from the exit
// status alone that it ran a sweep (`halo-sweep /bin/true` exits 0): the sweep says so in the
// file halo-sweep names.
void mark_sweep_ran() {
    if (const char *path = std::getenv("HALO_SWEEP_DONE_FILE")) std::ofstream(path) << "ran\n";
}

}  // namespace

int run_sweep_command_line(int argc, char **argv) {
    const std::string program = argc > 0 ? argv[0] : "halo-sweep";
    try {
        bool help = false;
        Options o = parse(argc, argv, help);
        if (help) {
            std::printf("%s", sweep_usage(program).c_str());
            std::printf("\ngenerators in this program:");
            for (auto &name : GeneratorRegistry::names()) std::printf(" %s", name.c_str());
            std::printf("\n");
            mark_sweep_ran();
            return 0;
        }
        Result r = run_sweep(o, std::cout);
        std::cout << "wrote " << o.csv_path << " and " << o.png_path << "\n";
        mark_sweep_ran();
        // A script (or halo_add_sweep) must notice outputs that differ, or a sweep of nothing.
        int differing = 0, ran = 0;
        for (const Row &row : r.rows) {
            ran += row.error.empty();
            differing += row.error.empty() && !row.disagreement.empty();
        }
        if (differing) {
            std::fprintf(stderr, "error: %d variant(s) computed outputs that differ from the first variant's (see the "
                                 "table's DIFFERS lines): a schedule computes something else\n", differing);
            return 3;
        }
        if (!ran) {
            std::fprintf(stderr, "error: no variant ran; each was skipped, with the reason in the table\n");
            return 4;
        }
        return 0;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}

}  // namespace halo::sweep
