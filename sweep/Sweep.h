// Tile-size (and any other GeneratorParam) sweeps of a registered generator: every variant
// JIT-compiled through the generator registry, run on the same inputs, timed interleaved
// round-robin (median and minimum), checked to agree with the first, and reported as a table,
// a CSV file and a heatmap PNG. `halo-sweep` and a generator executable's `--sweep` mode are
// its command line (run_sweep_command_line); bench/sweep calls run_sweep with the apps' presets.
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace halo::sweep {

// One point of the sweep: GeneratorParam settings, in the order the sweep's parameters are listed.
using Settings = std::vector<std::pair<std::string, std::string>>;

struct Options {
    std::string generator;   // a name in the GeneratorRegistry of this program
    std::vector<int> sizes;  // of every output, as the generator driver's -r
    // The grid: every combination of these values (a parameter with one value is fixed).
    std::vector<std::pair<std::string, std::vector<std::string>>> params;
    // Variants timed besides the grid (e.g. a breadth-first schedule): not on the heatmap.
    std::vector<std::pair<std::string, Settings>> extra_variants;  // label, settings
    // Cases that are not generators (e.g. plain C++ loops), timed in rounds of their own after
    // the variants' (so that what they allocate and free does not slow the variant after them).
    std::vector<std::pair<std::string, std::function<void()>>> extra_cases;
    // Input name -> a PNG file (buffer inputs) or a value (scalar inputs). Other buffer inputs
    // get deterministic pseudo-random data over the region the variants read; other scalars keep
    // their defaults.
    std::map<std::string, std::string> inputs;
    int rounds = 7;
    int threads = 0;  // 0: the runtime's default
    std::string csv_path, png_path;  // empty: not written
    // The heatmap's axes (GeneratorParam names); empty: the first two swept parameters. The
    // other swept parameters make one panel per combination of their values.
    std::string heatmap_x, heatmap_y;
    // The Func whose recompute factor is reported; empty: all Funcs together.
    std::string report_func;
    // Work per run (flops, bytes...) for a throughput column, e.g. {2e9, "GFLOP/s"}: work / 1e6 / ms.
    double work = 0;
    std::string work_unit;
    bool progress = true;  // a progress bar on stderr
    // Start from the automatic schedule: build the generator once with auto_schedule=true (and
    // the fixed parameters), then sweep auto_tile_w and auto_tile_h over half, the same and
    // twice the tile it chose (only auto_tile_h, the strip height, if it chose strips). The
    // automatic choice itself is the first variant.
    bool refine_auto = false;
};

// The grid --refine-auto sweeps (adds auto_schedule=true and the tile parameters to o.params);
// returns a line saying what the automatic schedule chose.
std::string add_auto_schedule_refinement(Options &o);

struct Row {
    std::string label;
    Settings settings;  // empty for extra cases
    bool on_grid = false;
    std::string error;  // why it was skipped ("" if it ran)
    // NaN where there is no figure (extra cases have no compile time and no report).
    double compile_ms = NAN, median_ms = NAN, min_ms = NAN;
    double recompute_factor = NAN;  // computed / required points
    double tile_bytes = NAN;        // bytes of the buffers allocated more than once (per tile)
    std::string disagreement;     // how its output differs from the first variant's ("" if it agrees)
};

struct Result {
    std::vector<Row> rows;
    int best = -1;  // the fastest row that ran
};

// Runs the sweep and prints the table to `out`. Throws CompileError for a wrong request (an
// unknown generator, parameter, input or file, sizes that do not fit the outputs); a variant
// that fails to compile or to run is a row with its error.
Result run_sweep(const Options &options, std::ostream &out);

// The command line of halo-sweep and of a generator executable's --sweep mode (argv[0] is the
// program's name, the options follow). Returns the exit status; errors go to stderr.
int run_sweep_command_line(int argc, char **argv);

// The usage text (the program name substituted).
std::string sweep_usage(const std::string &program);

}  // namespace halo::sweep
