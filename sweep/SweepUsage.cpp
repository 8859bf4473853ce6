// The sweep's usage text: in a file of its own, so that halo-sweep (which only starts a
// generator executable's --sweep mode) prints it without linking the compiler.
#include "Sweep.h"

namespace halo::sweep {

std::string sweep_usage(const std::string &program) {
    return "usage: " + program +
           " -g NAME -r SIZES [--rounds N] [--threads N] [--csv FILE] [--png FILE]\n"
           "       [--input NAME=image.png|NAME=value ...] [--heatmap X,Y] [--report-func F] [--no-progress]\n"
           "       [--refine-auto] [param=v1,v2,... ...]\n"
           "\n"
           "Compiles every combination of the listed GeneratorParam values of generator NAME (a parameter\n"
           "with one value is fixed), runs each on the same inputs, times them interleaved round-robin and\n"
           "prints compile time, median and minimum ms, recompute factor and per-tile bytes (from the\n"
           "redundancy report) and the ratio to the best; writes a CSV file and a heatmap PNG.\n"
           "\n"
           "  -g NAME             the registered generator to sweep\n"
           "  -r SIZES            the size of every output, e.g. 225x150x8\n"
           "  --rounds N          timing rounds (default 7)\n"
           "  --threads N         worker threads (default: one per core)\n"
           "  --csv FILE          the table as CSV (default sweep_NAME.csv)\n"
           "  --png FILE          the heatmap (default sweep_NAME.png)\n"
           "  --input NAME=X      a PNG file for a buffer input (placed at the first point read), or a\n"
           "                      value for a scalar input; other buffer inputs get pseudo-random data\n"
           "                      over the region bounds inference finds (floats in [0, 1), integers in\n"
           "                      [0, 255]), other scalars keep their defaults\n"
           "  --heatmap X,Y       the heatmap's axes (default: the first two swept parameters); every\n"
           "                      combination of the other swept parameters gets a panel of its own\n"
           "  --report-func F     report the recompute factor of Func F (default: all Funcs together)\n"
           "  --refine-auto       start from the automatic schedule: build with auto_schedule=true, then\n"
           "                      sweep auto_tile_w and auto_tile_h over half, the same and twice the\n"
           "                      tile it chose (the strip height only, if it chose strips); the\n"
           "                      generator's schedule() must set its outputs' estimates\n"
           "  param=v1,v2,...     the values of a GeneratorParam\n"
           "\n"
           "Variants that fail to compile or to run are listed as skipped, with the reason. Every variant's\n"
           "output is compared with the first one's; a difference is reported. The exit status is 0,\n"
           "or 3 if some variant's output differs, 4 if no variant ran, 1 for a wrong request.\n";
}

}  // namespace halo::sweep
