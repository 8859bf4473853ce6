#include "Sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "Heatmap.h"
#include "SweepInputs.h"
#include "dsl/Halo.h"
#include "lower/InferInputBounds.h"

namespace halo::sweep {

namespace {

double time_ms(const std::function<void()> &f) {
    auto t = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? NAN : v[v.size() / 2];
}

void progress(bool on, const char *what, int done, int total) {
    if (!on) return;
    const int width = 30;
    int filled = total ? done * width / total : width;
    std::fprintf(stderr, "\r%-10s [%s%s] %d/%d", what, std::string(filled, '#').c_str(),
                 std::string(width - filled, '.').c_str(), done, total);
    if (done == total) std::fprintf(stderr, "\n");
    std::fflush(stderr);
}

std::string label_of(const Settings &s) {
    std::string l;
    for (auto &[k, v] : s) l += (l.empty() ? "" : " ") + k + "=" + v;
    return l.empty() ? "(defaults)" : l;
}

// A generator variant: its generator (which owns the Inputs), pipeline and output buffers.
struct Variant {
    Row row;
    std::unique_ptr<GeneratorBase> generator;
    std::vector<Func> outputs;
    std::unique_ptr<Pipeline> pipeline;
    std::map<std::string, InputRegion> regions;
    std::vector<Buffer<>> result;
};

// Every combination of the swept values, the first parameter varying fastest.
std::vector<Settings> grid_of(const Options &o) {
    std::vector<Settings> grid;
    std::vector<size_t> index(o.params.size(), 0);
    while (true) {
        Settings s;
        for (size_t i = 0; i < o.params.size(); i++) s.push_back({o.params[i].first, o.params[i].second[index[i]]});
        grid.push_back(s);
        size_t i = 0;
        for (; i < index.size(); i++) {
            if (++index[i] < o.params[i].second.size()) break;
            index[i] = 0;
        }
        if (i == index.size()) return grid;
    }
}

// Checks the request against the generator before anything is compiled.
void check_request(const Options &o) {
    auto g = GeneratorRegistry::create(o.generator);
    std::set<std::string> params, inputs;
    std::string known;
    for (auto *p : g->params()) {
        params.insert(p->name);
        known += (known.empty() ? "" : ", ") + p->name;
    }
    auto check_param = [&](const std::string &name, const char *what) {
        user_assert(params.count(name)) << what << " '" << name << "' is not a GeneratorParam of generator '" << o.generator
                                        << "' (it has: " << (known.empty() ? "none" : known) << ")";
    };
    std::set<std::string> seen;
    for (auto &[name, values] : o.params) {
        check_param(name, "Parameter");
        user_assert(seen.insert(name).second) << "Parameter '" << name << "' is swept twice; list its values once";
        user_assert(!values.empty()) << "Parameter '" << name << "' has no values to sweep";
    }
    for (auto &[label, settings] : o.extra_variants)
        for (auto &kv : settings) check_param(kv.first, "Parameter");
    for (auto *io : g->ios()) {
        if (io->io_is_output) {
            user_assert(io->io_dimensions == int(o.sizes.size()))
                << "-r gives " << o.sizes.size() << " extents, but the output '" << io->io_name << "' of generator '"
                << o.generator << "' has " << io->io_dimensions << " dimensions";
        } else {
            inputs.insert(io->io_name);
        }
    }
    for (auto &[name, value] : o.inputs) {
        user_assert(inputs.count(name)) << "--input " << name << "=...: generator '" << o.generator
                                        << "' has no Input named '" << name << "'";
    }
    for (auto *io : g->ios()) {  // scalar values are checked here, on this throwaway generator
        auto given = o.inputs.find(io->io_name);
        if (!io->io_is_output && !io->io_is_buffer && given != o.inputs.end())
            set_scalar_from_text(*io->input_parameter(), given->second);
    }
    for (const std::string *axis : {&o.heatmap_x, &o.heatmap_y}) {
        if (axis->empty()) continue;
        bool swept = false;
        for (auto &[name, values] : o.params) swept |= name == *axis;
        user_assert(swept) << "The heatmap's axis '" << *axis << "' is not a swept parameter";
    }
    user_assert(o.rounds >= 1) << "--rounds must be at least 1 (it is " << o.rounds << ")";
}

// Creates, sets up and compiles one variant; a failure is the row's error.
void compile_variant(const Options &o, Variant &v) {
    try {
        v.generator = GeneratorRegistry::create(o.generator);
        for (auto &[k, value] : v.row.settings) v.generator->set_param(k, value);
        v.outputs = v.generator->build_outputs();
        v.pipeline = std::make_unique<Pipeline>(v.outputs);
        v.row.compile_ms = time_ms([&] { v.pipeline->compile_jit(); });
        std::vector<std::shared_ptr<FunctionContents>> outs;
        for (auto &f : v.outputs) outs.push_back(f.function());
        v.regions = infer_input_regions(outs, o.sizes);
    } catch (const std::exception &e) {
        v.row.error = e.what();
    }
}

// The inputs every variant reads, over the union of what they read.
std::map<std::string, Buffer<>> make_inputs(const Options &o, const std::vector<Variant> &variants) {
    std::map<std::string, std::pair<std::vector<int64_t>, std::vector<int64_t>>> lo_hi;
    for (auto &v : variants) {
        if (!v.row.error.empty()) continue;
        for (auto &[name, r] : v.regions) {
            auto [it, fresh] = lo_hi.emplace(name, std::make_pair(r.min, r.min));
            auto &[lo, hi] = it->second;
            for (size_t d = 0; d < r.min.size(); d++) {
                int64_t last = r.min[d] + r.extent[d] - 1;
                lo[d] = fresh ? r.min[d] : std::min(lo[d], r.min[d]);
                hi[d] = fresh ? last : std::max(hi[d], last);
            }
        }
    }
    std::map<std::string, Buffer<>> data;
    auto g = GeneratorRegistry::create(o.generator);
    for (auto *io : g->ios()) {
        if (io->io_is_output || !io->io_is_buffer) continue;
        std::vector<int64_t> min(io->io_dimensions, 0), extent(io->io_dimensions, 1);
        if (auto it = lo_hi.find(io->io_name); it != lo_hi.end()) {
            for (int d = 0; d < io->io_dimensions; d++) {
                min[d] = it->second.first[d];
                extent[d] = it->second.second[d] - min[d] + 1;
                user_assert(extent[d] <= INT32_MAX && min[d] >= INT32_MIN && min[d] <= INT32_MAX)
                    << "Input '" << io->io_name << "' would need " << extent[d] << " points in dimension " << d
                    << "; sweep a smaller output size (-r)";
            }
        }
        auto given = o.inputs.find(io->io_name);
        data[io->io_name] = given == o.inputs.end()
                                ? pseudo_random_input(io->io_name, io->io_type, min, extent)
                                : png_input(io->io_name, given->second, io->io_type, io->io_dimensions, min, extent);
    }
    return data;
}

void bind_inputs(const Options &o, const std::map<std::string, Buffer<>> &data, Variant &v) {
    for (auto *io : v.generator->ios()) {
        std::shared_ptr<ParameterContents> p = io->input_parameter();
        if (!p) continue;
        if (io->io_is_buffer) {
            p->set_buffer(data.at(io->io_name).contents);
        } else if (auto given = o.inputs.find(io->io_name); given != o.inputs.end()) {
            set_scalar_from_text(*p, given->second);
        }
    }
}

// The recompute factor and per-tile bytes from the redundancy report of every output.
void add_report(const Options &o, Variant &v) {
    int64_t computed = 0, required = 0;
    double factor = NAN;
    v.row.tile_bytes = 0;
    std::set<std::string> funcs;
    try {
        for (auto &f : v.outputs) {
            RedundancyReport r = redundancy_report(f, o.sizes, 1e9);
            for (auto &row : r.rows) {
                computed += row.computed;
                required += row.required;
                if (row.allocations > 1) v.row.tile_bytes += double(row.buffer_bytes);
                if (row.func == o.report_func) factor = row.factor;
                funcs.insert(row.func);
            }
        }
        if (o.report_func.empty() && required > 0) factor = double(computed) / double(required);
    } catch (const std::exception &) {
        // A schedule whose loops depend on data: no report, the variant still runs.
        funcs.clear();
    }
    if (!o.report_func.empty() && !funcs.empty() && !funcs.count(o.report_func)) {
        std::string list;
        for (auto &name : funcs) list += (list.empty() ? "" : ", ") + name;
        user_error << "--report-func " << o.report_func << ": the redundancy report of generator '" << o.generator
                   << "' has no Func of that name; its Funcs are " << list;
    }
    v.row.recompute_factor = factor;
}

// The element of b at c, exactly: floats to 17 digits, integers of every width as they are
// (a double cannot hold every 64-bit integer: 2^60 and 2^60 + 1 are the same double).
struct Element {
    bool is_float;
    double f;
    uint64_t bits;  // the integer's bits, sign-extended for signed types
    std::string text() const {
        std::ostringstream s;
        if (is_float) s << std::setprecision(17) << f;
        else s << bits;
        return s.str();
    }
};

Element element_at(const Buffer<> &b, const std::vector<int> &c) {
    const Type t = b.type();
    if (t.is_float()) return {true, b.get_as_double(c), 0};
    const halo_buffer_t *raw = b.raw_buffer();
    int64_t offset = 0;
    for (size_t d = 0; d < c.size(); d++) offset += int64_t(c[d] - raw->dim[d].min) * raw->dim[d].stride;
    const uint8_t *p = raw->host + offset * t.bytes();
    uint64_t bits = 0;
    std::memcpy(&bits, p, size_t(t.bytes()));  // little-endian x86
    const int width = 8 * t.bytes();
    if (t.is_int() && width < 64 && (bits >> (width - 1)) & 1) bits |= ~uint64_t(0) << width;
    return {false, 0, bits};
}

// How `got` differs from `expected` ("" if it agrees): relative to max(1, |expected|) for floats.
std::string difference(const std::vector<Buffer<>> &got, const std::vector<Buffer<>> &expected) {
    for (size_t i = 0; i < got.size() && i < expected.size(); i++) {
        std::string what;
        const Type t = got[i].type();
        got[i].for_each_element([&](const std::vector<int> &c) {
            if (!what.empty()) return;
            Element a = element_at(got[i], c), b = element_at(expected[i], c);
            bool same = a.is_float ? a.f == b.f || (std::isnan(a.f) && std::isnan(b.f)) ||
                                         std::fabs(a.f - b.f) <= 1e-4 * std::max(1.0, std::fabs(b.f))
                                   : a.bits == b.bits;
            if (same) return;
            std::ostringstream s;
            s << "output " << i << " at (";
            for (size_t d = 0; d < c.size(); d++) s << (d ? ", " : "") << c[d];
            std::string at = a.text(), want = b.text();
            if (t.is_int()) at = std::to_string(int64_t(a.bits)), want = std::to_string(int64_t(b.bits));
            s << ") is " << at << ", not " << want;
            what = s.str();
        });
        if (!what.empty()) return what;
    }
    return "";
}

std::string csv_field(std::string s) {
    for (char &c : s)
        if (c == '\n' || c == '\r') c = ' ';
    if (s.find_first_of(",\"") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

std::string number(double v, const char *format) {
    if (!std::isfinite(v)) return "";
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

void write_csv(const Options &o, const Result &r) {
    std::ofstream csv(o.csv_path);
    user_assert(bool(csv)) << "Cannot write the CSV file '" << o.csv_path << "'";
    csv << "case";
    for (auto &[name, values] : o.params) csv << "," << csv_field(name);
    csv << ",compile_ms,median_ms,min_ms";
    if (o.work > 0) csv << "," << csv_field(o.work_unit);
    csv << ",recompute_factor,tile_bytes,vs_best,agrees,status\n";
    const double best = r.best >= 0 ? r.rows[r.best].median_ms : NAN;
    for (auto &row : r.rows) {
        csv << csv_field(row.label);
        for (auto &[name, values] : o.params) {
            std::string v;
            for (auto &kv : row.settings)
                if (kv.first == name) v = kv.second;
            csv << "," << csv_field(v);
        }
        bool ran = row.error.empty();
        csv << "," << (ran ? number(row.compile_ms, "%.1f") : "") << ","
            << (ran ? number(row.median_ms, "%.4f") : "") << "," << (ran ? number(row.min_ms, "%.4f") : "");
        if (o.work > 0) csv << "," << (ran ? number(o.work / row.median_ms / 1e6, "%.2f") : "");
        csv << "," << (ran ? number(row.recompute_factor, "%.4f") : "") << "," << (ran ? number(row.tile_bytes, "%.0f") : "")
            << "," << (ran ? number(row.median_ms / best, "%.3f") : "") << ","
            << (ran && !row.settings.empty() ? (row.disagreement.empty() ? "yes" : "no") : "") << ","
            << csv_field(ran ? (row.disagreement.empty() ? "ok" : "differs: " + row.disagreement) : "skipped: " + row.error)
            << "\n";
    }
    user_assert(bool(csv)) << "Writing the CSV file '" << o.csv_path << "' failed";
}

// One heatmap panel per combination of the swept parameters other than the two axes.
void write_heatmap(const Options &o, const Result &r, const std::vector<Settings> &grid) {
    std::vector<std::string> swept;
    for (auto &[name, values] : o.params)
        if (values.size() > 1) swept.push_back(name);
    std::string x = o.heatmap_x, y = o.heatmap_y;
    for (auto &name : swept) {
        if (x.empty() && name != y) x = name;
        else if (y.empty() && name != x) y = name;
    }
    auto values_of = [&](const std::string &name) {
        for (auto &[n, values] : o.params)
            if (n == name) return values;
        return std::vector<std::string>{""};
    };
    auto setting = [](const Settings &s, const std::string &name) {
        for (auto &kv : s)
            if (kv.first == name) return kv.second;
        return std::string();
    };
    std::vector<std::string> xs = values_of(x), ys = values_of(y);
    std::vector<std::pair<std::string, Heatmap>> panels;  // facet label -> panel, in grid order
    for (size_t i = 0; i < grid.size(); i++) {
        Settings facet;
        for (auto &kv : grid[i])
            if (kv.first != x && kv.first != y && values_of(kv.first).size() > 1) facet.push_back(kv);
        std::string key = facet.empty() ? "" : label_of(facet);
        auto it = std::find_if(panels.begin(), panels.end(), [&](auto &p) { return p.first == key; });
        bool fresh = it == panels.end();
        if (fresh) it = panels.insert(panels.end(), {key, Heatmap()});
        Heatmap &h = it->second;
        if (fresh) {
            h.title = "sweep " + o.generator + (key.empty() ? "" : " (" + key + ")") + ": median ms";
            h.x_label = x;
            h.y_label = y;
            h.x_ticks = xs;
            h.y_ticks = ys;
            h.values.assign(ys.size(), std::vector<double>(xs.size(), NAN));
        }
        const Row &row = r.rows[i];
        size_t cx = std::find(xs.begin(), xs.end(), x.empty() ? "" : setting(grid[i], x)) - xs.begin();
        size_t cy = std::find(ys.begin(), ys.end(), y.empty() ? "" : setting(grid[i], y)) - ys.begin();
        if (row.error.empty() && cx < xs.size() && cy < ys.size()) h.values[cy][cx] = row.median_ms;
    }
    std::vector<Heatmap> list;
    for (auto &[key, h] : panels) list.push_back(h);
    write_heatmaps_png(list, o.png_path);
}

void print_table(const Options &o, const Result &r, std::ostream &out) {
    char line[512];
    std::snprintf(line, sizeof line, "%-40s %9s %9s %9s", "case", "compile", "median ms", "min ms");
    out << line;
    if (o.work > 0) out << " " << std::string(std::max<int>(0, 9 - int(o.work_unit.size())), ' ') << o.work_unit;
    std::snprintf(line, sizeof line, " %9s %12s %8s\n", "recompute", "tile bytes", "vs best");
    out << line;
    const double best = r.best >= 0 ? r.rows[r.best].median_ms : NAN;
    for (int i = 0; i < int(r.rows.size()); i++) {
        const Row &row = r.rows[i];
        if (!row.error.empty()) {
            std::snprintf(line, sizeof line, "%-40s skipped: ", row.label.c_str());
            out << line << row.error << "\n";
            continue;
        }
        std::snprintf(line, sizeof line, "%-40s %9s %9.3f %9.3f", row.label.c_str(),
                      std::isfinite(row.compile_ms) ? number(row.compile_ms, "%.0fms").c_str() : "-", row.median_ms,
                      row.min_ms);
        out << line;
        if (o.work > 0) out << " " << number(o.work / row.median_ms / 1e6, "%9.1f");
        std::snprintf(line, sizeof line, " %9s %12s %7.2fx%s", number(row.recompute_factor, "%.3f").c_str(),
                      number(row.tile_bytes, "%.0f").c_str(), row.median_ms / best, i == r.best ? "  <- best" : "");
        out << line;
        if (!row.disagreement.empty()) out << "  DIFFERS from the first variant: " << row.disagreement;
        out << "\n";
    }
}

}  // namespace

std::string add_auto_schedule_refinement(Options &o) {
    for (auto &[name, values] : o.params) {
        user_assert(name != "auto_schedule" && name != "auto_tile_w" && name != "auto_tile_h")
            << "--refine-auto sweeps " << name << " itself; do not list it";
    }
    auto g = GeneratorRegistry::create(o.generator);
    for (auto &[name, values] : o.params)
        if (values.size() == 1) g->set_param(name, values[0]);
    g->set_param("auto_schedule", "true");
    g->build_outputs();
    const int w = g->auto_schedule_tile_w(), h = g->auto_schedule_tile_h();
    // Half, the same and twice, the chosen value first (the first variant is the reference).
    auto around = [](int v) {
        std::vector<std::string> values{std::to_string(v)};
        if (v / 2 >= 1) values.push_back(std::to_string(v / 2));
        values.push_back(std::to_string(v * 2));
        return values;
    };
    std::vector<std::pair<std::string, std::vector<std::string>>> refined{{"auto_schedule", {"true"}}};
    if (w > 0) refined.push_back({"auto_tile_w", around(w)});
    if (h > 0) refined.push_back({"auto_tile_h", around(h)});
    o.params.insert(o.params.begin(), refined.begin(), refined.end());
    std::string chose = w > 0 ? "tiles of " + std::to_string(w) + "x" + std::to_string(h)
                              : "strips of " + std::to_string(h) + " rows";
    return "auto_schedule chose " + chose + "; sweeping around it";
}

Result run_sweep(const Options &o_given, std::ostream &out) {
    Options o = o_given;
    if (o.refine_auto) out << add_auto_schedule_refinement(o) << "\n";
    check_request(o);
    if (o.threads > 0) halo_set_num_threads(o.threads);

    // Compile every variant first (compile times are reported), then time them all together.
    std::vector<Settings> grid = grid_of(o);
    std::vector<Variant> variants;
    for (auto &s : grid) {
        Variant v;
        Settings swept;
        for (auto &kv : s) {
            for (auto &[name, values] : o.params)
                if (name == kv.first && values.size() > 1) swept.push_back(kv);
        }
        v.row.label = label_of(swept);
        v.row.settings = s;
        v.row.on_grid = true;
        variants.push_back(std::move(v));
    }
    for (auto &[label, settings] : o.extra_variants) {
        Variant v;
        v.row.label = label;
        // The fixed parameters of the grid apply to the extra variants too, unless overridden.
        for (auto &[name, values] : o.params) {
            bool overridden = false;
            for (auto &kv : settings) overridden |= kv.first == name;
            if (values.size() == 1 && !overridden) v.row.settings.push_back({name, values[0]});
        }
        for (auto &kv : settings) v.row.settings.push_back(kv);
        variants.push_back(std::move(v));
    }
    const int total = int(variants.size());
    for (int i = 0; i < total; i++) {
        compile_variant(o, variants[i]);
        progress(o.progress, "compiling", i + 1, total);
    }
    std::map<std::string, Buffer<>> data = make_inputs(o, variants);

    // Bind the inputs, run each variant once (warm-up, and its output to compare), report.
    const std::vector<Buffer<>> *first = nullptr;
    for (auto &v : variants) {
        if (!v.row.error.empty()) continue;
        try {
            bind_inputs(o, data, v);
            v.result = v.pipeline->realize(o.sizes).buffers();
            // Again into those buffers, as every timed call is: realize(sizes) grows an output
            // its schedule writes outside of (vectors wider than it) and returns a crop, and a
            // call into the crop is the run-time error the variant is skipped with.
            Realization again(v.result);
            v.pipeline->realize(again);
        } catch (const std::exception &e) {
            v.row.error = e.what();
            continue;
        }
        add_report(o, v);
        if (first) v.row.disagreement = difference(v.result, *first);
        else first = &v.result;
    }

    struct Timed {
        Row *row;
        std::function<void()> run;
        std::vector<double> ms;
    };
    std::vector<Timed> timed;
    for (auto &v : variants) {
        if (!v.row.error.empty()) continue;
        Realization dst(v.result);
        Pipeline *p = v.pipeline.get();
        timed.push_back({&v.row, [p, dst]() mutable { p->realize(dst); }, {}});
    }
    // The extra cases (plain C++ loops) are timed in rounds of their own after the variants':
    // loops that allocate and free a large intermediate in every run made the code run after
    // them up to 10x slower for ~200 ms on a VM with shadow page tables (bench/app_bench.cpp),
    // which would have slowed whichever variant came next.
    std::vector<Timed> timed_apart;
    std::vector<Row> extra_rows(o.extra_cases.size());
    for (size_t i = 0; i < o.extra_cases.size(); i++) {
        extra_rows[i].label = o.extra_cases[i].first;
        try {
            o.extra_cases[i].second();  // warm-up
        } catch (const std::exception &e) {
            extra_rows[i].error = e.what();
        }
        timed_apart.push_back({&extra_rows[i], o.extra_cases[i].second, {}});
    }
    auto time_rounds = [&](std::vector<Timed> &cases, const char *what) {
        for (int round = 0; round < o.rounds && !cases.empty(); round++) {
            for (auto &t : cases) {
                try {
                    if (t.row->error.empty()) t.ms.push_back(time_ms(t.run));
                } catch (const std::exception &e) {
                    t.row->error = e.what();
                }
            }
            progress(o.progress, what, round + 1, o.rounds);
        }
    };
    time_rounds(timed, "timing");
    time_rounds(timed_apart, "timing the other cases");
    timed.insert(timed.end(), timed_apart.begin(), timed_apart.end());
    for (auto &t : timed) {
        t.row->median_ms = median(t.ms);
        t.row->min_ms = t.ms.empty() ? NAN : *std::min_element(t.ms.begin(), t.ms.end());
    }

    Result r;
    for (auto &v : variants) r.rows.push_back(v.row);
    for (auto &row : extra_rows) r.rows.push_back(row);
    for (int i = 0; i < int(r.rows.size()); i++) {
        const Row &row = r.rows[i];
        if (row.error.empty() && std::isfinite(row.median_ms) && (r.best < 0 || row.median_ms < r.rows[r.best].median_ms))
            r.best = i;
    }
    out << "sweep " << o.generator << " at ";
    for (size_t d = 0; d < o.sizes.size(); d++) out << (d ? "x" : "") << o.sizes[d];
    out << ", " << (o.threads > 0 ? o.threads : halo_get_num_threads()) << " threads, " << o.rounds
        << " rounds (median of interleaved rounds)";
    Settings fixed;
    for (auto &[name, values] : o.params)
        if (values.size() == 1) fixed.push_back({name, values[0]});
    if (!fixed.empty()) out << "; fixed: " << label_of(fixed);
    out << "\n";
    print_table(o, r, out);
    if (!o.csv_path.empty()) write_csv(o, r);
    if (!o.png_path.empty() && !grid.empty()) write_heatmap(o, r, grid);
    return r;
}

}  // namespace halo::sweep
