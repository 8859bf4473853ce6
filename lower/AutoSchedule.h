// An automatic schedule (schedule=auto): chooses, for every Func of a pipeline, whether it is
// inlined, computed at the root, or computed at the tiles of the output (a fusion group with
// overlapped tiles), the output's tile size, the vectorized dimension and width, and the
// parallel loop; then applies the schedule to the Funcs and says what it chose as C++ source.
//
// The rules, in order:
// - a Func read once (one call site) and without update definitions is inlined;
//   a read that ignores one of the consumer's dimensions (gray(x, y) read by an RGB output)
//   counts as several: inlined, the Func would be computed again for each of its values;
// - the others are computed at the output's tiles, unless a consumer reads it at indices that
//   depend on data (computed at the root, see below), or the output has update definitions
//   (the tiles are loops of its pure definition only: everything goes to the root);
// - the redundancy report of that schedule (for the estimated output size) moves every fused
//   Func that would be recomputed more than `max_recompute` times over to the root, with
//   everything it reads (a root Func cannot read one computed inside the output's tiles), until
//   no Func is;
// - a Func read at data-dependent indices is then inlined after all where that evaluates it at
//   no more than half the points it has at the root (by that report): a lookup table stays at
//   the root, local Laplacian's Laplacian pyramid, of which each pixel reads 2 of 8 levels, is
//   inlined with the upsampling only it reads (at most a quarter more points inlined); the
//   report's rule then runs again;
// - where the fused Funcs recompute nothing at those tiles (each is read only at the points its
//   tile computes, as dw_pw's depthwise stage), the tile becomes 2 rows of as many points as keep
//   their buffers within 2 KiB: larger tiles buy nothing there and lose the L1 cache;
// - then strips of rows replace the tiles where that recomputes no more (by the report, which
//   counts sliding windows): the output split into strips of the tile's height, in parallel,
//   every fused Func stored per strip and computed per row, so that it slides down the strip
//   and computes each row once; not for channels-innermost outputs, and only while the fused
//   Funcs' live rows fit `tile_bytes`;
// - the tile is as tall as 32 rows (fewer for small outputs) and as wide as keeps the fused
//   Funcs' per-tile buffers within `tile_bytes` (a power of two from the vector width to 512);
//   a 3-D output whose first dimension is small (channels innermost) is tiled over its other
//   two dimensions and vectorized over the channels; else its dimensions beyond x and y loop
//   inside each tile (each row of a strip), so that what is fused serves all of them;
//   such an output's channels are split by their estimate as well, so that the Funcs computed in
//   its tiles have a constant extent over channels (constant strides, fully unrolled blocks);
// - every computed Func is vectorized over its first dimension by the target's natural width for
//   its type (at most the estimate of the output's first dimension), root Funcs run in parallel
//   over their last dimension, and update definitions are vectorized and parallel only over
//   dimensions they leave pure;
// - a reduction (an update over an RDom) that leaves its first two dimensions pure becomes a
//   register block, the hand-written convolution kernel: up to 4 vectors of the first
//   dimension times a block of the second (16 accumulators in all), unrolled, with the
//   reduction's loops inside; both splits guard their tails.
#pragma once

#include <string>
#include <vector>

#include "codegen/Target.h"

namespace halo {

class Func;

struct AutoScheduleOptions {
    // Not an aggregate: auto_schedule(f, {W, H}) means estimates, never options.
    AutoScheduleOptions() {}
    double max_recompute = 1.5;
    double tile_bytes = 256 * 1024;
    // The output's tile (or strip) size, where given (> 0), instead of the chosen one; a tile
    // width means tiles (no strips). A sweep refining the automatic schedule sets these.
    int tile_w = 0, tile_h = 0;
    // The target whose vectors the schedule is made for (Pipeline::auto_schedule's).
    Target target = get_host_target();
};

struct AutoScheduleResult {
    std::string source;      // the chosen schedule as C++ (paste into a schedule() and edit)
    std::string summary;     // one line per group (the output's tiles, the root Funcs)
    double seconds = 0;      // the time taken to choose
    bool sliding = false;  // strips of tile_h rows (tile_w is 0) rather than tiles
    int tile_w = 0, tile_h = 0, vector_width = 0;
};

// Schedules `output` and every Func it reads for an output of about `estimates` (one extent per
// dimension). The Funcs should carry no schedule yet (directives are added to what is there).
// The schedule is valid for any output at least one tile large (tiles are never larger than
// the estimates); smaller outputs get the run-time error of a tile larger than the output.
AutoScheduleResult auto_schedule(Func output, const std::vector<int> &estimates,
                                 const AutoScheduleOptions &options = AutoScheduleOptions());
// The same with the extents given by output.set_estimates(...) (a CompileError if there are none).
AutoScheduleResult auto_schedule(Func output, const AutoScheduleOptions &options = AutoScheduleOptions());

}  // namespace halo
