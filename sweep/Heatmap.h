// Heatmaps for benchmark sweeps, e.g. the time in ms of every tile width x tile height: an RGB
// PNG (cells on a viridis-like ramp, labelled, the best cell outlined, a legend) or a plain-text
// table. Self-contained: text is drawn with a built-in 5x7 bitmap font (BitmapFont.h) and the
// file is written with halo::save_png.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace halo::sweep {

struct Heatmap {
    std::string title;                          // drawn at the top
    std::string x_label, y_label;               // axis names, e.g. "tile width", "tile height"
    std::vector<std::string> x_ticks, y_ticks;  // column labels, row labels
    std::vector<std::vector<double>> values;    // values[row][col]; NaN = missing (grey cell, "n/a")
    std::string unit = "ms";                    // shown in the legend and in the best-cell note
    bool lower_is_better = true;
};

// Colours of the PNG that callers (and tests) may look for: the outline of the best cell and
// the fill of missing cells. Neither occurs on the colour ramp.
inline constexpr uint8_t best_border_rgb[3] = {255, 40, 40};
inline constexpr uint8_t missing_cell_rgb[3] = {170, 170, 170};

// The grid as a plain-text table, values with 3 significant digits, the best one marked '*'.
// Throws std::invalid_argument if the values do not match the ticks (see write_heatmap_png).
std::string render_text_art(const Heatmap &h);

// Writes an RGB PNG: one cell per value coloured on a perceptual ramp (best = dark blue/purple,
// worst = yellow), each labelled with its value; the best cell outlined, with a note under the
// grid "best: <x_tick> x <y_tick> = <value> <unit>"; axis labels and ticks; a legend bar with its
// min and max. Throws std::invalid_argument unless values has one row per y tick and every row
// one column per x tick (and the grid is not empty); std::runtime_error naming the path if the
// file cannot be written.
void write_heatmap_png(const Heatmap &h, const std::string &path);

// Several heatmaps (e.g. one per value of a third parameter) in one PNG, one under another,
// each with its own colour scale. Throws as write_heatmap_png does, and if `panels` is empty.
void write_heatmaps_png(const std::vector<Heatmap> &panels, const std::string &path);

}  // namespace halo::sweep
