// Heatmap rendering (see Heatmap.h). The picture is laid out and drawn on a Canvas with one
// pixel per font pixel, then enlarged by an integer factor (nearest neighbour) so that the
// bitmap font stays crisp.
#include "Heatmap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "BitmapFont.h"
#include "dsl/ImageIO.h"

namespace halo::sweep {
namespace {

constexpr int output_scale = 2;  // PNG pixels per canvas pixel

// Throws std::invalid_argument unless there is one row of values per y tick, one column per
// x tick, and at least one of each.
void validate(const Heatmap &h) {
    const std::string what = "Heatmap '" + h.title + "': ";
    if (h.values.size() != h.y_ticks.size()) {
        throw std::invalid_argument(what + "values has " + std::to_string(h.values.size()) +
                                    " rows but y_ticks has " + std::to_string(h.y_ticks.size()) +
                                    " labels (there must be one row per y tick)");
    }
    for (size_t r = 0; r < h.values.size(); r++) {
        if (h.values[r].size() != h.x_ticks.size()) {
            throw std::invalid_argument(what + "row " + std::to_string(r) + " of values has " +
                                        std::to_string(h.values[r].size()) + " columns but x_ticks has " +
                                        std::to_string(h.x_ticks.size()) +
                                        " labels (there must be one column per x tick)");
        }
    }
    if (h.values.empty() || h.x_ticks.empty()) {
        throw std::invalid_argument(what + "no values: it needs at least one row and one column");
    }
}

// NaN (and infinities) mark missing measurements.
bool present(double v) { return std::isfinite(v); }

// v rounded to 3 significant digits, in fixed notation unless tiny or huge:
// 0.0123, 1.23, 12.3, 123, 12300, 1.23e+09; "n/a" when missing.
std::string format_value(double v) {
    if (!present(v)) return "n/a";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", v);
    const double rounded = std::strtod(buf, nullptr), a = std::fabs(rounded);
    if (a == 0) return "0";
    if (a >= 1e-3 && a < 1e6) {
        const int decimals = std::max(0, 2 - int(std::floor(std::log10(a))));
        std::snprintf(buf, sizeof buf, "%.*f", decimals, rounded);
    } else {
        std::snprintf(buf, sizeof buf, "%.2e", rounded);
    }
    return buf;
}

// The range of the present values and the position of the best one (-1 if none is present).
struct Stats {
    double lo = NAN, hi = NAN;
    int best_row = -1, best_col = -1;
};

Stats stats_of(const Heatmap &h) {
    Stats s;
    for (size_t r = 0; r < h.values.size(); r++) {
        for (size_t c = 0; c < h.values[r].size(); c++) {
            const double v = h.values[r][c];
            if (!present(v)) continue;
            const bool first = s.best_row < 0;
            const double best = first ? v : h.values[s.best_row][s.best_col];
            if (first || (h.lower_is_better ? v < best : v > best)) s.best_row = int(r), s.best_col = int(c);
            s.lo = first ? v : std::min(s.lo, v);
            s.hi = first ? v : std::max(s.hi, v);
        }
    }
    return s;
}

std::string best_note(const Heatmap &h, const Stats &s) {
    if (s.best_row < 0) return "best: n/a (no values)";
    return "best: " + h.x_ticks[s.best_col] + " x " + h.y_ticks[s.best_row] + " = " +
           format_value(h.values[s.best_row][s.best_col]) + " " + h.unit;
}

struct RGB {
    uint8_t r, g, b;
};
constexpr RGB white{255, 255, 255}, black{0, 0, 0}, ink{40, 40, 40};
constexpr RGB best_border{best_border_rgb[0], best_border_rgb[1], best_border_rgb[2]};
constexpr RGB missing{missing_cell_rgb[0], missing_cell_rgb[1], missing_cell_rgb[2]};

// A viridis-like ramp: matplotlib's viridis at 10 evenly spaced points, interpolated linearly.
// t = 0 is dark purple, t = 1 yellow.
RGB ramp(double t) {
    static constexpr RGB stops[] = {{0x44, 0x01, 0x54}, {0x48, 0x28, 0x78}, {0x3E, 0x49, 0x89},
                                    {0x31, 0x68, 0x8E}, {0x26, 0x82, 0x8E}, {0x1F, 0x9E, 0x89},
                                    {0x35, 0xB7, 0x79}, {0x6E, 0xCE, 0x58}, {0xB5, 0xDE, 0x2B},
                                    {0xFD, 0xE7, 0x25}};
    constexpr int n = sizeof stops / sizeof stops[0];
    const double x = std::clamp(t, 0.0, 1.0) * (n - 1);
    const int i = std::min(int(x), n - 2);
    const double f = x - i;
    auto mix = [f](uint8_t a, uint8_t b) { return uint8_t(std::lround(a + (b - a) * f)); };
    return {mix(stops[i].r, stops[i + 1].r), mix(stops[i].g, stops[i + 1].g), mix(stops[i].b, stops[i + 1].b)};
}

// The colour of value v: the best value at the dark end of the ramp, the worst at the yellow end.
RGB colour_of(double v, const Stats &s, bool lower_is_better) {
    if (!present(v)) return missing;
    const double t = s.hi > s.lo ? (v - s.lo) / (s.hi - s.lo) : 0.0;
    return ramp(lower_is_better ? t : 1 - t);
}

// Black or white, whichever contrasts more with bg (WCAG relative luminance).
RGB text_colour_on(RGB bg) {
    auto linear = [](uint8_t c) {
        const double x = c / 255.0;
        return x <= 0.04045 ? x / 12.92 : std::pow((x + 0.055) / 1.055, 2.4);
    };
    const double lum = 0.2126 * linear(bg.r) + 0.7152 * linear(bg.g) + 0.0722 * linear(bg.b);
    return (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? black : white;
}

// An RGB picture with clipped drawing of rectangles and bitmap-font text.
struct Canvas {
    int w, h;
    std::vector<RGB> px;

    Canvas(int w_, int h_, RGB bg) : w(w_), h(h_), px(size_t(w_) * h_, bg) {}
    void set(int x, int y, RGB c) {
        if (x >= 0 && x < w && y >= 0 && y < h) px[size_t(y) * w + x] = c;
    }
    void fill(int x0, int y0, int rw, int rh, RGB c) {
        for (int y = y0; y < y0 + rh; y++)
            for (int x = x0; x < x0 + rw; x++) set(x, y, c);
    }
    // A frame of thickness t drawn inside the rectangle.
    void frame(int x0, int y0, int rw, int rh, int t, RGB c) {
        fill(x0, y0, rw, t, c);
        fill(x0, y0 + rh - t, rw, t, c);
        fill(x0, y0, t, rh, c);
        fill(x0 + rw - t, y0, t, rh, c);
    }
    // Calls plot(u, v) for every inked pixel of s laid out left to right, (0, 0) its top left.
    template <typename Plot>
    static void rasterize(const std::string &s, Plot plot) {
        for (size_t i = 0; i < s.size(); i++) {
            const uint8_t *g = font::find_glyph(s[i]);
            if (!g) g = font::unknown_glyph;
            for (int gy = 0; gy < font::glyph_h; gy++)
                for (int gx = 0; gx < font::glyph_w; gx++)
                    if ((g[gy] >> (font::glyph_w - 1 - gx)) & 1) plot(int(i) * font::advance + gx, gy);
        }
    }
    // Text with its top-left corner at (x, y).
    void text(int x, int y, const std::string &s, RGB c) {
        rasterize(s, [&](int u, int v) { set(x + u, y + v, c); });
    }
    // Text reading bottom to top (turned a quarter anticlockwise), occupying the columns
    // x .. x + glyph_h - 1 and ending at row y_bottom.
    void text_up(int x, int y_bottom, const std::string &s, RGB c) {
        rasterize(s, [&](int u, int v) { set(x + v, y_bottom - u, c); });
    }
    // The picture enlarged k times as an (x, y, c) RGB buffer.
    halo::Buffer<uint8_t> enlarged(int k) const {
        halo::Buffer<uint8_t> img(w * k, h * k, 3);
        for (int y = 0; y < h * k; y++) {
            for (int x = 0; x < w * k; x++) {
                const RGB &p = px[size_t(y / k) * w + x / k];
                img(x, y, 0) = p.r;
                img(x, y, 1) = p.g;
                img(x, y, 2) = p.b;
            }
        }
        return img;
    }
};

}  // namespace

std::string render_text_art(const Heatmap &h) {
    validate(h);
    const Stats s = stats_of(h);
    // Every value column is as wide as its longest entry plus a slot for the '*' marker.
    size_t w = 1, row_w = 1;
    for (const auto &row : h.values)
        for (double v : row) w = std::max(w, format_value(v).size());
    for (const auto &t : h.x_ticks) w = std::max(w, t.size());
    for (const auto &t : h.y_ticks) row_w = std::max(row_w, t.size());
    auto pad = [](const std::string &t, size_t n) { return std::string(n > t.size() ? n - t.size() : 0, ' ') + t; };

    std::ostringstream out;
    if (!h.title.empty()) out << h.title << "\n";
    out << "rows: " << h.y_label << ", columns: " << h.x_label << "; values in " << h.unit << ", "
        << (h.lower_is_better ? "lower" : "higher") << " is better; * = best\n";
    auto end_line = [&out](std::string line) {  // without trailing blanks
        line.erase(line.find_last_not_of(' ') + 1);
        out << line << "\n";
    };
    std::string line = pad("", row_w) + " |";
    for (const auto &t : h.x_ticks) line += " " + pad(t, w) + " ";
    end_line(line);
    end_line(std::string(row_w + 1, '-') + "+" + std::string(h.x_ticks.size() * (w + 2), '-'));
    for (size_t r = 0; r < h.values.size(); r++) {
        line = pad(h.y_ticks[r], row_w) + " |";
        for (size_t c = 0; c < h.values[r].size(); c++) {
            const bool best = int(r) == s.best_row && int(c) == s.best_col;
            line += " " + pad(format_value(h.values[r][c]), w) + (best ? "*" : " ");
        }
        end_line(line);
    }
    out << best_note(h, s) << "\n";
    return out.str();
}

namespace {

halo::Buffer<uint8_t> render_heatmap(const Heatmap &h) {
    validate(h);
    const Stats s = stats_of(h);
    const int rows = int(h.values.size()), cols = int(h.x_ticks.size());
    const int line = font::cap_h, margin = 8;  // line: text height above the baseline
    auto width = [](const std::string &t) { return font::text_width(t); };

    // Cells: wide enough for the longest value label and x tick, with 5 pixels either side.
    int label_w = width("n/a");
    for (const auto &row : h.values)
        for (double v : row) label_w = std::max(label_w, width(format_value(v)));
    for (const auto &t : h.x_ticks) label_w = std::max(label_w, width(t));
    const int cell_w = label_w + 10, cell_h = line + 10, gap = 1;
    const int grid_w = cols * (cell_w + gap) - gap, grid_h = rows * (cell_h + gap) - gap;
    int ytick_w = 0;
    for (const auto &t : h.y_ticks) ytick_w = std::max(ytick_w, width(t));

    // Left to right: the y label (turned), the y ticks, the grid, the legend bar and its labels.
    const int ylabel_len = width(h.y_label);
    const int grid_x = margin + (h.y_label.empty() ? 0 : line + 6) + ytick_w + 5;
    const int bar_x = grid_x + grid_w + 14, bar_w = 10, legend_x = bar_x + bar_w + 5;
    const std::string hi_label = format_value(s.hi) + " " + h.unit, lo_label = format_value(s.lo) + " " + h.unit;
    // Top to bottom: the title, the grid (lowered if the turned y label is taller than it), the
    // x ticks, the x label, the best-cell note.
    const int title_h = h.title.empty() ? 0 : line + 8;
    const int overhang = std::max(0, (ylabel_len - grid_h + 1) / 2);
    const int grid_y = margin + title_h + overhang;
    const int xtick_y = grid_y + grid_h + 5;
    const int xlabel_y = xtick_y + line + 5;
    const int note_y = xlabel_y + (h.x_label.empty() ? 0 : line + 8);
    const std::string note = best_note(h, s);

    const std::string direction = h.lower_is_better ? "lower is better" : "higher is better";
    const int canvas_w = std::max({legend_x + std::max(width(hi_label), width(lo_label)), bar_x + width(direction),
                                   margin + width(h.title), grid_x + width(note),
                                   grid_x + width(h.x_label)}) + margin;
    const int canvas_h = std::max(note_y + line, grid_y + grid_h + overhang) + margin;
    Canvas cv(canvas_w, canvas_h, white);

    cv.text(margin, margin, h.title, ink);
    cv.text_up(margin, grid_y + (grid_h + ylabel_len) / 2, h.y_label, ink);
    for (int r = 0; r < rows; r++) {
        const int y = grid_y + r * (cell_h + gap);
        cv.text(grid_x - 5 - width(h.y_ticks[r]), y + (cell_h - line) / 2, h.y_ticks[r], ink);
        for (int c = 0; c < cols; c++) {
            const int x = grid_x + c * (cell_w + gap);
            const double v = h.values[r][c];
            const RGB bg = colour_of(v, s, h.lower_is_better);
            const std::string label = format_value(v);
            cv.fill(x, y, cell_w, cell_h, bg);
            cv.text(x + (cell_w - width(label) + 1) / 2, y + (cell_h - line) / 2, label,
                    present(v) ? text_colour_on(bg) : ink);
        }
    }
    for (int c = 0; c < cols; c++) {
        const int x = grid_x + c * (cell_w + gap);
        cv.text(x + (cell_w - width(h.x_ticks[c]) + 1) / 2, xtick_y, h.x_ticks[c], ink);
    }
    // The x label is centred under the grid, but never left of it (where the y label is).
    cv.text(std::max(grid_x, grid_x + (grid_w - width(h.x_label)) / 2), xlabel_y, h.x_label, ink);
    if (s.best_row >= 0) {
        // Three pixels thick: two inside the best cell, one over the gap around it.
        cv.frame(grid_x + s.best_col * (cell_w + gap) - 1, grid_y + s.best_row * (cell_h + gap) - 1,
                 cell_w + 2, cell_h + 2, 3, best_border);
    }
    cv.text(grid_x, note_y, note, ink);

    // The legend: the ramp from the largest value (top) to the smallest (bottom), framed.
    for (int i = 0; i < grid_h; i++) {
        const double v = present(s.lo) ? s.hi - (s.hi - s.lo) * i / std::max(1, grid_h - 1) : NAN;
        cv.fill(bar_x, grid_y + i, bar_w, 1, colour_of(v, s, h.lower_is_better));
    }
    cv.frame(bar_x - 1, grid_y - 1, bar_w + 2, grid_h + 2, 1, ink);
    cv.text(legend_x, grid_y, hi_label, ink);
    cv.text(legend_x, grid_y + grid_h - line, lo_label, ink);
    cv.text(bar_x, xtick_y, direction, ink);

    return cv.enlarged(output_scale);
}

void save(const halo::Buffer<uint8_t> &img, const std::string &path) {
    try {
        halo::save_png(img, path);
    } catch (const std::exception &e) {
        throw std::runtime_error("write_heatmap_png: cannot write '" + path + "': " + e.what());
    }
}

}  // namespace

void write_heatmap_png(const Heatmap &h, const std::string &path) { save(render_heatmap(h), path); }

void write_heatmaps_png(const std::vector<Heatmap> &panels, const std::string &path) {
    if (panels.empty()) throw std::invalid_argument("write_heatmaps_png: no heatmaps to draw");
    std::vector<halo::Buffer<uint8_t>> images;
    int width = 0, height = 0;
    for (auto &h : panels) {
        images.push_back(render_heatmap(h));
        width = std::max(width, images.back().dim(0).extent());
        height += images.back().dim(1).extent();
    }
    halo::Buffer<uint8_t> out(width, height, 3);
    out.for_each_value([](const std::vector<int> &) { return uint8_t(255); });
    int top = 0;
    for (auto &img : images) {
        img.for_each_element([&](const std::vector<int> &p) { out(p[0], p[1] + top, p[2]) = img(p[0], p[1], p[2]); });
        top += img.dim(1).extent();
    }
    save(out, path);
}

}  // namespace halo::sweep
