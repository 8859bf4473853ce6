#include "AutoSchedule.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "DistinctNames.h"
#include "Environment.h"
#include "InferInputBounds.h"
#include "RedundancyReport.h"
#include "Substitute.h"
#include "codegen/Target.h"
#include "dsl/Buffer.h"
#include "dsl/Func.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// How each Func is read by the others: the distinct points read, whether any index depends on
// data, and who reads it at scaled indices (2 * x, x / 2: pyramids), not only at shifts (x + 1, x + r.x).
class CallSites : public IRVisitor {
public:
    using IRVisitor::visit;
    std::string consumer;  // the Func whose definitions are being visited
    std::vector<std::string> consumer_args;  // its pure dimensions
    bool in_reduction = false;  // visiting an update over an RDom
    std::map<std::string, std::set<std::string>> distinct_reads;  // Func -> its distinct index tuples
    // Func -> consumer -> how many distinct index tuples that consumer reads it at.
    std::map<std::string, std::map<std::string, int>> reads_by;
    // Funcs some consumer reads at indices that ignore one of its own dimensions (gray(x, y) read
    // by an output (x, y, c)): inlined, they would be computed again for every value of that one.
    std::set<std::string> repeated_reads;
    std::set<std::string> read_in_reductions;
    std::set<std::string> data_dependent;
    std::map<std::string, std::set<std::string>> scaled_readers;

    void visit(const Call *op) override {
        if (op->call_type == Call::Halo) {
            std::ostringstream key;
            key << consumer << "(";
            for (auto &a : op->args) key << a << ",";
            if (distinct_reads[op->name].insert(key.str()).second) reads_by[op->name][consumer]++;
            if (in_reduction) read_in_reductions.insert(op->name);
            for (auto &dim : consumer_args) {
                bool used = false;
                for (auto &a : op->args) used = used || expr_uses_var(a, dim);
                if (!used) repeated_reads.insert(op->name);
            }
            for (auto &a : op->args) {
                if (reads_data(a)) data_dependent.insert(op->name);
                else if (!is_shift(a)) scaled_readers[op->name].insert(consumer);
            }
        }
        IRVisitor::visit(op);
    }

private:
    static bool is_shift(const Expr &e) {
        if (e.as<Variable>() || e.as<IntImm>()) return true;
        if (auto a = e.as<Add>()) return is_shift(a->a) && is_shift(a->b);
        if (auto s = e.as<Sub>()) return is_shift(s->a) && s->b.as<IntImm>();
        return false;
    }

    static bool reads_data(const Expr &e) {
        struct Finder : IRVisitor {
            using IRVisitor::visit;
            bool found = false;
            void visit(const Call *op) override {
                found |= op->call_type == Call::Halo || op->call_type == Call::Image;
                IRVisitor::visit(op);
            }
        } f;
        e.accept(&f);
        return f.found;
    }
};

void visit_definition(const Definition &d, CallSites &v) {
    v.in_reduction = d.rdom != nullptr;
    for (auto &e : d.args) e.accept(&v);
    for (auto &e : d.values) e.accept(&v);
    v.in_reduction = false;
}

// The arithmetic of a Func's pure definition, in operations per point (index arithmetic
// included), and whether it reads other Funcs only at its own point (reads of input images
// may be anywhere).
struct PureDefinitionCost {
    int ops = 0;
    int index_ops = 0;  // of those, the ones in the indices of reads (in(x + 1, y): 1)
    // Not in ops (the inliner's measure, calibrated without them): min, max, select and
    // comparisons, one vector instruction each (the max and min of a 3x3 window: 16 per point).
    int selections = 0;
    // The vector instructions computing values (what memory_bound weighs).
    int value_ops() const { return ops - index_ops + selections; }
    bool pointwise = true;
};

PureDefinitionCost pure_definition_cost(const FunctionContents &f) {
    struct Counter : IRVisitor {
        using IRVisitor::visit;
        const FunctionContents *f = nullptr;
        PureDefinitionCost cost;
        int index_depth = 0;
        void count(int ops) {
            cost.ops += ops;
            if (index_depth > 0) cost.index_ops += ops;
        }
        void visit(const Add *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Sub *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Mul *op) override { count(1); IRVisitor::visit(op); }
        void visit(const Div *op) override { count(4); IRVisitor::visit(op); }
        void visit(const Mod *op) override { count(4); IRVisitor::visit(op); }
        void visit(const Min *op) override { select(); IRVisitor::visit(op); }
        void visit(const Max *op) override { select(); IRVisitor::visit(op); }
        void visit(const Select *op) override { select(); IRVisitor::visit(op); }
        void visit(const EQ *op) override { select(); IRVisitor::visit(op); }
        void visit(const NE *op) override { select(); IRVisitor::visit(op); }
        void visit(const LT *op) override { select(); IRVisitor::visit(op); }
        void visit(const LE *op) override { select(); IRVisitor::visit(op); }
        void visit(const GT *op) override { select(); IRVisitor::visit(op); }
        void visit(const GE *op) override { select(); IRVisitor::visit(op); }
        void select() {
            if (index_depth == 0) cost.selections++;
        }
        void visit(const Call *op) override {
            if (op->call_type == Call::Halo) {
                bool same_point = op->args.size() == f->args.size();
                for (size_t i = 0; same_point && i < op->args.size(); i++) {
                    auto v = op->args[i].as<Variable>();
                    same_point = v && v->name == f->args[i];
                }
                cost.pointwise = cost.pointwise && same_point;
            } else if (op->call_type == Call::Intrinsic) {
                count(4);  // math functions
            }
            const bool reads = op->call_type == Call::Halo || op->call_type == Call::Image;
            index_depth += reads;
            IRVisitor::visit(op);
            index_depth -= reads;
        }
    } c;
    c.f = &f;
    for (auto &v : f.pure.values) v.accept(&c);
    return c.cost;
}

// The operations a pointwise Func costs at every point it is read (-1 if it is not pointwise:
// it reads other Funcs away from its own point).
int pointwise_cost(const FunctionContents &f) {
    if (!f.updates.empty()) return -1;
    PureDefinitionCost cost = pure_definition_cost(f);
    return cost.pointwise ? cost.ops : -1;
}

// A Buffer used directly in the algorithm that fits in the L2 cache (a lookup table, weights):
// its reads do not stream from memory.
bool small_fixed_buffer(const Call &read) {
    if (!read.param || !read.param->is_fixed_buffer || !read.param->buffer) return false;
    const BufferContents &b = *read.param->buffer;
    int64_t bytes = b.type.bytes();
    for (const halo_dimension_t &d : b.dims) bytes *= std::max<int64_t>(1, d.extent);
    return bytes <= 512 * 1024;
}

// The most points of one row of one source that a Func's pure definition reads along its
// first dimension, counting the reads `streamed` accepts: blur_x's in(x, y), in(x + 1, y) and
// in(x + 2, y) are 3 (each a vector load of its own, shifted from the others).
int shifted_reads_of_a_row(const FunctionContents &f, const std::function<bool(const Call &)> &streamed) {
    if (f.args.empty()) return 0;
    struct Rows : IRVisitor {
        using IRVisitor::visit;
        std::string x;
        const std::function<bool(const Call &)> *streamed = nullptr;
        std::map<std::string, std::set<std::string>> points_of_row;  // source and row -> first indices
        void visit(const Call *op) override {
            if (!op->args.empty() && expr_uses_var(op->args[0], x) && (*streamed)(*op)) {
                std::ostringstream row, first;
                row << op->name;
                for (size_t i = 1; i < op->args.size(); i++) row << "," << op->args[i];
                first << op->args[0];
                points_of_row[row.str()].insert(first.str());
            }
            IRVisitor::visit(op);
        }
    } rows;
    rows.x = f.args[0];
    rows.streamed = &streamed;
    for (auto &v : f.pure.values) v.accept(&rows);
    size_t most = 0;
    for (auto &[row, points] : rows.points_of_row) most = std::max(most, points.size());
    return int(most);
}

enum class Place { Inline, Tile, Root };

// The chooser's state: the pipeline's Funcs and where each goes.
struct Chooser {
    std::shared_ptr<FunctionContents> output;
    std::vector<int> estimates;
    AutoScheduleOptions options;
    Environment env;  // the user's Funcs (whose schedules are set), by lowering's names
    Environment copies;  // lowering's copies, named alike: their calls name the Funcs apart
    std::map<std::string, Place> place;
    std::map<std::string, std::vector<std::string>> calls;  // Func -> the Funcs it reads
    Target target;  // AutoScheduleOptions::target
    // The trial schedules' reports share their breadth-first halves (a cache, so mutable).
    mutable RedundancyReportCache report_cache;

    // A pipeline of little arithmetic per output point (no reductions): its time goes to
    // moving memory (blur: 12 operations per point; unsharp 23, harris 47).
    bool memory_bound = false;

    // The vector width: the target's natural one (a whole register), but half of it (32
    // bytes) in a memory-bound pipeline for a Func that loads shifted vectors from one row of
    // an input that streams from memory (reads_streamed_input). Measured on this AVX-512 machine
    // (bench/vector_loads): three shifted 64-byte loads per vector from rows streamed from
    // memory took 1.1-1.6x the time of 32-byte ones, though from the cache 0.75x
    // (blur_x at 16 uint16 lanes: 0.84x the time of 32, unsharp's blur_x at 8 floats 1.04x of 16).
    int lanes_for(const FunctionContents &f) const {
        int bits = 8;
        for (auto &t : f.types()) bits = std::max(bits, int(t.bits()));
        const int lanes = target.natural_vector_size(bits);
        const bool streams_shifted_loads = memory_bound && shifted_reads_of_a_row(f, streamed_reads()) >= 2;
        return streams_shifted_loads && lanes * bits > 256 ? lanes / 2 : lanes;
    }

    // The lowering names of the user's Funcs (a Call names its Func by pointer).
    std::map<const FunctionContents *, std::string> names;

    // Whether a read loads from an input that streams from memory: an input image (not a small
    // Buffer), or an inlined Func that reads one (a boundary condition's wrapper, which reads
    // the input at clamped indices wherever its consumer reads it).
    bool reads_streamed_input(const Call &read) const {
        if (read.call_type == Call::Image) return !small_fixed_buffer(read);
        if (read.call_type != Call::Halo || !read.func) return false;
        auto name = names.find(read.func.identity());
        if (name == names.end()) return false;
        auto p = place.find(name->second);
        if (p == place.end() || p->second != Place::Inline) return false;
        const FunctionContents &callee = *read.func;
        for (auto &v : callee.pure.values) {
            if (has_call(v, streamed_reads())) return true;
        }
        return false;
    }
    std::function<bool(const Call &)> streamed_reads() const {
        return [this](const Call &c) { return reads_streamed_input(c); };
    }

    void make_root_with_producers(const std::string &name) {
        if (place[name] == Place::Root || name == output->name) return;
        place[name] = Place::Root;
        for (auto &callee : calls[name]) {
            if (place[callee] != Place::Inline) make_root_with_producers(callee);
            else make_root_producers_of_inlined(callee);
        }
    }
    // An inlined Func's body becomes part of its (root) consumer: what it reads must be root too.
    void make_root_producers_of_inlined(const std::string &name) {
        for (auto &callee : calls[name]) {
            if (place[callee] != Place::Inline) make_root_with_producers(callee);
            else make_root_producers_of_inlined(callee);
        }
    }
};

// The output's loops: which dimensions are tiled, which one is vectorized.
struct OutputLoops {
    int x = 0, y = 1, vector_dim = 0;
    int tile_w = 1, tile_h = 1, lanes = 1;
    // Channels innermost: the channels are split by their estimate too, so that every Func
    // computed in a tile has a constant extent over them (constant strides and loops that the
    // register blocks unroll completely; 1.6x on the CNN block).
    int channel_tile = 0;
    // Strips instead of tiles: the output split into strips of tile_h rows (in parallel), the
    // fused Funcs stored per strip and computed per row, so that the sliding window computes
    // each of their rows once (Halide's sliding-window schedule).
    bool sliding = false;
    int rows_estimate = 0;  // the estimated extent of dimension y
    // The tiles' rows are split for the parallel loop. Where the estimate is not a multiple of
    // the tile height, ShiftInwards would recompute the rows the last two iterations share
    // (each point is still stored once: see shared_point_store_guards), and could not serve an
    // output shorter than a tile: GuardWithIf. (Strips keep ShiftInwards: guarded strips
    // recompute more than tiles in the report, so the sliding window would never be chosen.)
    TailStrategy row_tail() const {
        return rows_estimate % std::max(1, tile_h) != 0 ? TailStrategy::GuardWithIf : TailStrategy::Auto;
    }
    std::string row_tail_source() const { return row_tail() == TailStrategy::GuardWithIf ? ", TailStrategy::GuardWithIf" : ""; }
    std::string xo = "xo", yo = "yo", xi = "xi", yi = "yi", co = "co";
    // The output's dimensions other than the tiled and the vectorized ones (colour channels):
    // their loops go inside each tile (inside each row of a strip), so that what is computed
    // per tile serves all of them (the tile's bytes count them too), not once for each.
    std::vector<int> untiled_dims(int dims) const {
        std::vector<int> v;
        for (int d = 0; d < dims; d++)
            if (d != x && d != y && d != vector_dim) v.push_back(d);
        return v;
    }
};

int floor_pow2(int v) {
    int p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

OutputLoops choose_output_loops(const Chooser &c) {
    OutputLoops l;
    const FunctionContents &out = *c.output;
    const std::vector<int> &est = c.estimates;
    const int dims = out.dimensions();
    // Channels innermost: a small first dimension of a 3-D output is vectorized, not tiled.
    bool channels_innermost = dims >= 3 && est[0] <= 64 && est[dims - 1] > 8;
    l.x = channels_innermost ? 1 : 0;
    l.y = l.x + 1 < dims ? l.x + 1 : -1;
    if (l.y >= 0) l.rows_estimate = est[l.y];
    l.vector_dim = 0;
    l.lanes = std::max(1, std::min(c.lanes_for(out), floor_pow2(est[0])));
    if (channels_innermost) l.channel_tile = est[0];
    // Bytes per output point of the Funcs computed in a tile (their dimensions beyond the
    // tiled ones at the output's estimated extents).
    double bytes_per_point = 0;
    for (auto &[name, p] : c.place) {
        if (p != Place::Tile) continue;
        const FunctionContents &f = *c.env.at(name);
        double bytes = 0;
        for (auto &t : f.types()) bytes += t.bytes();
        for (int d = 0; d < f.dimensions() && d < dims; d++) {
            if (d != l.x && d != l.y) bytes *= est[d];
        }
        bytes_per_point += bytes;
    }
    // Tiles that the estimate does not divide overlap (ShiftInwards) by up to a tile: halve a
    // tile that would make the last one recompute more than an eighth of the extent.
    auto fit = [](int tile, int extent, int min_tile) {
        auto waste = [&](int t) { return double((extent + t - 1) / t * t) / extent; };
        while (tile > min_tile && waste(tile) > 1.125) tile /= 2;
        return tile;
    };
    l.tile_h = l.y >= 0 ? fit(floor_pow2(std::min(32, est[l.y])), est[l.y], 4) : 1;
    const int min_w = l.x == l.vector_dim ? l.lanes : 1;
    int w = floor_pow2(std::min(512, est[l.x]));
    while (w > min_w && bytes_per_point * w * l.tile_h > c.options.tile_bytes) w /= 2;
    // A tile the budget made narrower than tall (many channels per point) is turned on its
    // side: as much recomputed for a square stencil, but its rows are longer runs of memory
    // (cnn_block and dw_pw: 32x16 takes 0.92-0.93x the time of 16x32, in one interleaved run).
    if (w < l.tile_h && l.y >= 0) {
        int h = l.tile_h;
        l.tile_h = fit(std::min(w, floor_pow2(est[l.y])), est[l.y], 4);
        w = std::min(h, floor_pow2(est[l.x]));
    }
    l.tile_w = fit(std::max(w, std::min(min_w, est[l.x])), est[l.x], std::min(std::max(min_w, 8), est[l.x]));
    // Sizes the user gave (a sweep refining the automatic schedule) replace the chosen ones.
    if (c.options.tile_w > 0) l.tile_w = c.options.tile_w;
    if (c.options.tile_h > 0 && l.y >= 0) l.tile_h = c.options.tile_h;
    // Loop names that the output's own dimensions do not use.
    auto fresh = [&](std::string n) {
        while (std::find(out.args.begin(), out.args.end(), n) != out.args.end()) n += "_";
        return n;
    };
    l.xo = fresh("xo");
    l.yo = fresh("yo");
    l.xi = fresh("xi");
    l.yi = fresh("yi");
    l.co = fresh("co");
    return l;
}

// Applies the choices, writing each directive as C++ as well.
class Applier {
public:
    std::ostringstream source;
    std::ostringstream summary;

    void apply(Chooser &c, const OutputLoops &l) {
        extent0_hint = c.estimates.empty() ? 0 : c.estimates[0];
        Func out(c.output);
        const std::string &name = c.output->name;
        if (c.output->dimensions() > 0) {
            apply_output_loops(out, l);
        } else {
            summary << "output " << name << ": no dimensions, no loops\n";
        }
        Var xo(l.xo);
        std::vector<std::string> tiled, root;
        for (auto &[fname, p] : c.place) {
            if (fname == name || p == Place::Inline) continue;
            FunctionContents &f = *c.env.at(fname);
            Func func(c.env.at(fname));
            // Not wider than the output's first dimension: a vector wider than a Func's extent
            // would shift inwards past its start (and read inputs there).
            int lanes = std::min(c.lanes_for(f), std::max(1, floor_pow2(extent0_hint)));
            if (p == Place::Tile && l.sliding) {
                func.store_at(out, Var(l.yo)).compute_at(out, Var(l.yi));
                source << fname << ".store_at(" << name << ", " << l.yo << ").compute_at(" << name << ", " << l.yi << ")";
                tiled.push_back(fname);
            } else if (p == Place::Tile) {
                func.compute_at(out, xo);
                source << fname << ".compute_at(" << name << ", " << l.xo << ")";
                tiled.push_back(fname);
            } else {
                func.compute_root();
                source << fname << ".compute_root()";
                root.push_back(fname);
            }
            if (f.dimensions() >= 1 && lanes > 1) {
                func.vectorize(Var(f.args[0]), lanes);
                source << ".vectorize(" << f.args[0] << ", " << lanes << ")";
            }
            if (p == Place::Root && f.dimensions() >= 2) {
                func.parallel(Var(f.args.back()));
                source << ".parallel(" << f.args.back() << ")";
            }
            source << ";\n";
            for (int u = 0; u < int(f.updates.size()); u++) schedule_update(func, f, u, lanes, p == Place::Root);
        }
        summary << (l.sliding ? "  stored per strip, computed per row (sliding): " : "  computed in each tile: ") << join(tiled)
                << "\n";
        summary << "  computed at the root: " << join(root) << "\n";
        std::vector<std::string> inlined;
        for (auto &[fname, p] : c.place)
            if (p == Place::Inline && fname != name) inlined.push_back(fname);
        summary << "  inlined: " << join(inlined) << "\n";
    }

private:
    // The output's tiles: split, reordered (a vectorized channel dimension innermost),
    // vectorized, the outer rows parallel.
    void apply_output_loops(Func &out, const OutputLoops &l) {
        if (l.sliding) {
            apply_strips(out, l);
            return;
        }
        const auto &args = out.function()->args;
        const std::string &name = out.name();
        Var X(args[l.x]), xo(l.xo), xi(l.xi), yo(l.yo), yi(l.yi), V(args[l.vector_dim]);
        source << "Var " << l.xo << "(\"" << l.xo << "\"), " << l.xi << "(\"" << l.xi << "\")";
        if (l.y >= 0) source << ", " << l.yo << "(\"" << l.yo << "\"), " << l.yi << "(\"" << l.yi << "\")";
        if (l.channel_tile > 0) source << ", " << l.co << "(\"" << l.co << "\")";
        source << ";\n" << name;
        if (l.channel_tile > 0) {
            out.split(V, Var(l.co), V, l.channel_tile);
            source << ".split(" << args[l.vector_dim] << ", " << l.co << ", " << args[l.vector_dim] << ", " << l.channel_tile << ")";
        }
        out.split(X, xo, xi, l.tile_w);
        source << ".split(" << args[l.x] << ", " << l.xo << ", " << l.xi << ", " << l.tile_w << ")";
        std::vector<VarOrRVar> order;
        std::vector<std::string> order_names;
        if (l.x != l.vector_dim) {
            order.push_back(V);
            order_names.push_back(args[l.vector_dim]);
        }
        order.push_back(xi);
        order_names.push_back(l.xi);
        if (l.y >= 0) {
            Var Y(args[l.y]);
            out.split(Y, yo, yi, l.tile_h, l.row_tail());
            source << ".split(" << args[l.y] << ", " << l.yo << ", " << l.yi << ", " << l.tile_h << l.row_tail_source() << ")";
            order.push_back(yi);
            order_names.push_back(l.yi);
        }
        for (int d : l.untiled_dims(int(args.size()))) {
            order.push_back(Var(args[d]));
            order_names.push_back(args[d]);
        }
        order.push_back(xo);
        order_names.push_back(l.xo);
        if (l.channel_tile > 0) {
            order.push_back(Var(l.co));
            order_names.push_back(l.co);
        }
        if (l.y >= 0) {
            order.push_back(yo);
            order_names.push_back(l.yo);
        }
        out.reorder(order);
        source << ".reorder(";
        for (size_t i = 0; i < order_names.size(); i++) source << (i ? ", " : "") << order_names[i];
        source << ")";
        Var vectorized = l.x == l.vector_dim ? xi : V;
        std::string vectorized_name = l.x == l.vector_dim ? l.xi : args[l.vector_dim];
        if (l.lanes > 1) {
            out.vectorize(vectorized, l.lanes);
            source << ".vectorize(" << vectorized_name << ", " << l.lanes << ")";
        }
        Var parallel = l.y >= 0 ? yo : xo;
        out.parallel(parallel);
        source << ".parallel(" << (l.y >= 0 ? l.yo : l.xo) << ");\n";

        summary << "output " << name << ": tiles of " << l.tile_w << (l.y >= 0 ? "x" + std::to_string(l.tile_h) : "")
                << " over " << args[l.x] << (l.y >= 0 ? ", " + args[l.y] : "") << ", vectorized over "
                << args[l.vector_dim] << " by " << l.lanes << ", parallel over " << (l.y >= 0 ? l.yo : l.xo) << "\n";
    }

    // Strips of rows in parallel, each row vectorized.
    void apply_strips(Func &out, const OutputLoops &l) {
        const auto &args = out.function()->args;
        const std::string &name = out.name();
        Var X(args[l.x]), Y(args[l.y]), yo(l.yo), yi(l.yi);
        source << "Var " << l.yo << "(\"" << l.yo << "\"), " << l.yi << "(\"" << l.yi << "\");\n";
        out.split(Y, yo, yi, l.tile_h);
        source << name << ".split(" << args[l.y] << ", " << l.yo << ", " << l.yi << ", " << l.tile_h << ")";
        std::vector<int> others = l.untiled_dims(int(args.size()));
        if (!others.empty()) {
            std::vector<VarOrRVar> order = {X};
            source << ".reorder(" << args[l.x];
            for (int d : others) {
                order.push_back(Var(args[d]));
                source << ", " << args[d];
            }
            order.push_back(yi);
            order.push_back(yo);
            out.reorder(order);
            source << ", " << l.yi << ", " << l.yo << ")";
        }
        if (l.lanes > 1) {
            out.vectorize(X, l.lanes);
            source << ".vectorize(" << args[l.x] << ", " << l.lanes << ")";
        }
        out.parallel(yo);
        source << ".parallel(" << l.yo << ");\n";
        summary << "output " << name << ": strips of " << l.tile_h << " rows over " << args[l.y] << ", vectorized over "
                << args[l.x] << " by " << l.lanes << ", parallel over " << l.yo << "\n";
    }

    static std::string join(const std::vector<std::string> &v) {
        std::string s;
        for (auto &x : v) s += (s.empty() ? "" : ", ") + x;
        return s.empty() ? "(none)" : s;
    }

    // An update is vectorized (and, at the root, parallel) only over dimensions it leaves
    // pure: there every point is written by itself, in any order. A reduction (an update over
    // an RDom) that leaves its first two dimensions pure gets a register block instead.
    void schedule_update(Func &func, const FunctionContents &f, int u, int lanes, bool root) {
        auto pure_at = [&](int d) {
            auto v = f.updates[u].args[d].as<Variable>();
            return v && v->name == f.args[d];
        };
        const Definition &def = f.updates[u];
        if (def.rdom && f.dimensions() >= 2 && lanes > 1 && pure_at(0) && pure_at(1)) {
            register_block(func, f, u, lanes, root, pure_at);
            return;
        }
        std::string directives;
        if (f.dimensions() >= 1 && lanes > 1 && pure_at(0)) {
            func.update(u).vectorize(Var(f.args[0]), lanes);
            directives += ".vectorize(" + f.args[0] + ", " + std::to_string(lanes) + ")";
        }
        int last = f.dimensions() - 1;
        if (root && last >= 1 && pure_at(last)) {
            func.update(u).parallel(Var(f.args[last]));
            directives += ".parallel(" + f.args[last] + ")";
        }
        if (!directives.empty()) source << f.name << ".update(" << u << ")" << directives << ";\n";
    }

    // The hand-written convolution kernel: a block of `unroll0` vectors of the first dimension
    // times `block1` points of the second is accumulated in registers while the reduction runs
    // inside it, so every value the reduction reads is loaded once per block, not once per
    // point: the vectors share each broadcast value of the second operand, the points of the
    // second dimension share each vector of the first. 16 accumulators leave half of AVX-512's
    // registers (and all of AVX2's others) for the operands. At most 8 points of the second
    // dimension: each has its own broadcast address, (x + k) * stride with a stride known only
    // at run time, and 16 of them overflow x86-64's 16 general registers, so LLVM recomputes
    // each address with a multiply per tap (cnn_block with 8 channels: 16 points of 8 lanes
    // took 2x the time of 8 points, in one interleaved run; 8 points tie the hand schedule).
    // Both splits guard their tails, so the block is valid for any extent.
    template <typename PureAt>
    void register_block(Func &func, const FunctionContents &f, int u, int lanes, bool root, PureAt pure_at) {
        const Definition &def = f.updates[u];
        const int accumulators = 16;
        int unroll0 = std::max(1, std::min(4, extent0_hint / lanes));
        while (unroll0 & (unroll0 - 1)) unroll0--;  // a power of two
        const int block1 = std::min(8, accumulators / unroll0);
        std::set<std::string> taken(f.args.begin(), f.args.end());
        for (auto &rv : def.rdom->vars) taken.insert(rv.name);
        auto fresh = [&](std::string n) {
            while (taken.count(n)) n += "_";
            taken.insert(n);
            return n;
        };
        const std::string &d0 = f.args[0], &d1 = f.args[1];
        std::string d0o = fresh(d0 + "o"), d0u = fresh(d0 + "u"), d0v = fresh(d0 + "v");
        std::string d1o = fresh(d1 + "o"), d1i = fresh(d1 + "i");
        Stage s = func.update(u);
        // The loops the block makes are declared with it, in a scope of their own (so that
        // the source compiles as pasted, and names like co may recur for other Funcs).
        std::ostringstream line;
        line << "{\n    Var " << d0o << "(\"" << d0o << "\"), " << d0v << "(\"" << d0v << "\"), ";
        if (unroll0 > 1) line << d0u << "(\"" << d0u << "\"), ";
        line << d1o << "(\"" << d1o << "\"), " << d1i << "(\"" << d1i << "\");\n    ";
        line << f.name << ".update(" << u << ")";
        s.split(Var(d0), Var(d0o), Var(d0v), lanes * unroll0, TailStrategy::GuardWithIf);
        line << ".split(" << d0 << ", " << d0o << ", " << d0v << ", " << lanes * unroll0 << ", TailStrategy::GuardWithIf)";
        if (unroll0 > 1) {
            s.split(Var(d0v), Var(d0u), Var(d0v), lanes);
            line << ".split(" << d0v << ", " << d0u << ", " << d0v << ", " << lanes << ")";
        }
        s.split(Var(d1), Var(d1o), Var(d1i), block1, TailStrategy::GuardWithIf);
        line << ".split(" << d1 << ", " << d1o << ", " << d1i << ", " << block1 << ", TailStrategy::GuardWithIf)";
        std::vector<VarOrRVar> order;
        std::vector<std::string> names;
        auto add = [&](const std::string &n, bool is_rvar) {
            order.push_back(is_rvar ? VarOrRVar(RVar(n)) : VarOrRVar(Var(n)));
            // (an RVar by its name: the user's RDom variable may be named otherwise, or be none)
            names.push_back(is_rvar ? "RVar(\"" + n + "\")" : n);
        };
        add(d0v, false);
        if (unroll0 > 1) add(d0u, false);
        add(d1i, false);
        for (auto &rv : def.rdom->vars) add(rv.name, true);
        add(d0o, false);
        add(d1o, false);
        for (int d = 2; d < f.dimensions(); d++) add(f.args[d], false);
        s.reorder(order);
        line << ".reorder(";
        for (size_t i = 0; i < names.size(); i++) line << (i ? ", " : "") << names[i];
        line << ")";
        s.vectorize(Var(d0v));
        line << ".vectorize(" << d0v << ")";
        if (unroll0 > 1) {
            s.unroll(Var(d0u));
            line << ".unroll(" << d0u << ")";
        }
        s.unroll(Var(d1i));
        line << ".unroll(" << d1i << ")";
        int last = f.dimensions() - 1;
        if (root && last >= 2 && pure_at(last)) {
            s.parallel(Var(f.args[last]));
            line << ".parallel(" << f.args[last] << ")";
        }
        source << line.str() << ";\n}\n";
    }

    int extent0_hint = 0;  // the estimated extent of the output's first dimension (set by apply)
};

// Whether `word` occurs in `text` not as the end of a longer identifier.
bool names(const std::string &text, const std::string &word) {
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const char before = at ? text[at - 1] : ' ';
        const char after = at + word.size() < text.size() ? text[at + word.size()] : ' ';
        auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
        if (!ident(before) && !ident(after)) return true;
    }
    return false;
}

// Funcs a library function made (boundary conditions, inline reductions) have no variable of
// their name in the user's code: the source declares a handle to each one it schedules, and
// their own Vars (a boundary condition of an image loops over bc0, bc1) that no other Func has.
std::string library_handles(const Chooser &c, const std::string &source) {
    std::set<std::string> user_vars;
    for (auto &[name, f] : c.env) {
        if (!f->made_by_library) user_vars.insert(f->args.begin(), f->args.end());
    }
    std::ostringstream h;
    std::set<std::string> declared;
    for (auto &[name, f] : c.env) {
        if (!f->made_by_library || !names(source, name)) continue;
        h << "Func " << name << " = Pipeline(" << c.output->name << ").get_func(\"" << f->name
          << "\");  // made by a library function\n";
        for (auto &a : f->args) {
            if (!user_vars.count(a) && names(source, a) && declared.insert(a).second) h << "Var " << a << "(\"" << a << "\");\n";
        }
    }
    return h.str();
}

// The redundancy report's row of every Func under the schedule, for the estimated size; empty if the
// report cannot be made (it is advice: the rules' placement then stays), e.g. for loops over
// regions near the ends of int32. Inputs with no buffer get placeholders for a second try (the
// report needs their sizes when reads are clamped to them).
std::map<std::string, RedundancyRow> report_rows(const Chooser &c) {
    Func out(c.output);
    std::map<std::string, RedundancyRow> m;
    auto report = [&] {
        for (auto &row : redundancy_report(out, c.estimates, 1e9, &c.report_cache).rows) m[row.func] = row;
    };
    try {
        report();
        return m;
    } catch (const CompileError &) {
        m.clear();
    }
    std::vector<std::shared_ptr<ParameterContents>> bound;
    try {
        for (auto &[name, region] : infer_input_regions({c.output}, c.estimates)) {
            if (region.param->buffer) continue;
            region.param->set_buffer(allocate_input_region(name, region).contents);
            bound.push_back(region.param);
        }
        if (!bound.empty()) report();
    } catch (const std::exception &) {
        m.clear();
    }
    for (auto &p : bound) p->set_buffer(nullptr);
    return m;
}

// A Func's schedules (its own and each stage's), to put back after a trial.
struct SavedSchedule {
    FuncSchedule func;
    std::vector<StageSchedule> stages;
    static SavedSchedule of(const FunctionContents &f) {
        SavedSchedule s{f.schedule, {}};
        for (int i = 0; i < f.stages(); i++) s.stages.push_back(f.stage(i).schedule);
        return s;
    }
};

void restore(const Environment &env, const std::map<std::string, SavedSchedule> &saved) {
    for (auto &[name, f] : env) {
        const SavedSchedule &s = saved.at(name);
        f->schedule = s.func;
        for (int i = 0; i < f->stages(); i++) f->stage(i).schedule = s.stages[i];
        f->changed();
    }
}

// Reconsiders the Funcs read at indices that depend on data, which the rules put at the root.
// There such a Func covers every value those indices might take: a lookup table its whole range,
// local Laplacian's Laplacian pyramid all of its intensity levels where each pixel interpolates
// two. Inlined, it is computed only where it is read: where that is at most half as many points,
// it is inlined, and with it the producers only its body reads that cost no more than a quarter
// more points inlined than computed once (the upsampling it subtracts: the buffer traffic saved
// pays for that); what its body then reads stays at the root (read at data-dependent indices
// too). `required` is the points each Func not inlined needs (the report's, any schedule).
class DataDependentPlacer {
public:
    DataDependentPlacer(Chooser &c, const CallSites &sites, std::map<std::string, int64_t> required)
        : c(c), sites(sites), required(std::move(required)) {}

    // Returns whether any Func was inlined.
    bool place(const std::vector<std::string> &consumers_first) {
        bool changed = false;
        for (auto &name : consumers_first) {
            if (!sites.data_dependent.count(name) || c.place[name] == Place::Inline) continue;
            if (inlinable(name) && 2 * points_if_inlined(name) <= required_of(name)) {
                c.place[name] = Place::Inline;
                inline_exclusive_producers(name);
                c.make_root_producers_of_inlined(name);
                changed = true;
            }
        }
        return changed;
    }

private:
    Chooser &c;
    const CallSites &sites;
    std::map<std::string, int64_t> required;

    bool is_inlined(const std::string &name) const {
        auto p = c.place.find(name);
        return p != c.place.end() && p->second == Place::Inline && name != c.output->name;
    }

    double required_of(const std::string &name) const {
        auto it = required.find(name);
        return it == required.end() ? 0 : double(it->second);
    }

    bool inlinable(const std::string &name) const {
        const FunctionContents &f = *c.env.at(name);
        return name != c.output->name && f.updates.empty() && !sites.read_in_reductions.count(name) &&
               required.count(name);
    }

    // The points at which an inlined Func would be evaluated: its distinct reads times the
    // points of each reader, through inlined readers (infinite where a size is unknown).
    double points_if_inlined(const std::string &name, int depth = 0) const {
        auto it = sites.reads_by.find(name);
        if (it == sites.reads_by.end() || depth > 64) return INFINITY;
        double points = 0;
        for (auto &[reader, reads] : it->second) {
            double reader_points = is_inlined(reader) ? points_if_inlined(reader, depth + 1)
                                                      : (required.count(reader) ? required_of(reader) : INFINITY);
            points += reads * reader_points;
        }
        return points;
    }

    void inline_exclusive_producers(const std::string &name) {
        for (auto &callee : c.calls[name]) {
            if (is_inlined(callee)) {
                inline_exclusive_producers(callee);
                continue;
            }
            auto readers = sites.reads_by.find(callee);
            bool only_inlined_readers = readers != sites.reads_by.end();
            if (only_inlined_readers) {
                for (auto &[r, reads] : readers->second) only_inlined_readers = only_inlined_readers && is_inlined(r);
            }
            if (only_inlined_readers && inlinable(callee) && !sites.data_dependent.count(callee) &&
                points_if_inlined(callee) <= 1.25 * required_of(callee)) {
                c.place[callee] = Place::Inline;
                inline_exclusive_producers(callee);
            }
        }
    }
};

}  // namespace

AutoScheduleResult auto_schedule(Func output, const std::vector<int> &estimates, const AutoScheduleOptions &options) {
    auto start = std::chrono::steady_clock::now();
    user_assert(output.defined()) << "auto_schedule: Func '" << output.name() << "' has no definition";
    user_assert(int(estimates.size()) == output.dimensions())
        << "auto_schedule: Func '" << output.name() << "' has " << output.dimensions() << " dimensions but was given "
        << estimates.size() << " estimates";
    for (int e : estimates) {
        user_assert(e >= 1) << "auto_schedule: the estimates of Func '" << output.name() << "' must be positive";
    }
    user_assert(options.tile_w >= 0 && options.tile_h >= 0)
        << "auto_schedule: the tile sizes given for Func '" << output.name() << "' must be positive (or 0: chosen)";
    // (Written so that NaN fails them too: every comparison with a NaN is false.)
    user_assert(options.max_recompute >= 0 && std::isfinite(options.max_recompute))
        << "auto_schedule: max_recompute for Func '" << output.name() << "' is " << options.max_recompute
        << "; it must be a finite factor (1: nothing is recomputed)";
    user_assert(options.tile_bytes > 0 && std::isfinite(options.tile_bytes))
        << "auto_schedule: tile_bytes for Func '" << output.name() << "' is " << options.tile_bytes
        << "; it must be a finite positive size in bytes";
    Chooser c;
    c.output = output.function();
    c.estimates = estimates;
    c.options = options;
    c.target = options.target;
    // Lowering's names (two different Funcs may share a name; reports name them apart), and
    // the call graph of lowering's copies, whose calls follow those names.
    FunctionCopies copies = copy_with_distinct_names({c.output});
    c.env = std::move(copies.originals);
    c.copies = std::move(copies.env);
    for (auto &[name, f] : c.env) c.names[f.get()] = name;
    CallSites sites;
    for (auto &[name, f] : c.copies) {
        sites.consumer = name;
        sites.consumer_args = f->args;
        for (int s = 0; s < f->stages(); s++) visit_definition(f->stage(s), sites);
        c.calls[name] = direct_calls(*f);
    }
    int ops_per_point = 0;
    bool reductions = false;
    for (auto &[name, f] : c.env) {
        ops_per_point += pure_definition_cost(*f).value_ops();
        reductions |= !f->updates.empty();
    }
    c.memory_bound = !reductions && ops_per_point < 16;
    // Inlined: Funcs read at one point per consumer point (several reads of the same point
    // are one after CSE), or pointwise ones cheap enough to recompute at every point read,
    // unless a reduction reads them and they cost arithmetic (it would recompute them at every
    // step).
    // Producers first: an inlined Func brings the cost (and the reads) of what it inlines.
    std::map<std::string, int> cost_with_inlined;
    for (auto &name : realization_order(c.copies, {c.output->name})) {
        const FunctionContents &f = *c.env.at(name);
        int cost = pointwise_cost(f);
        for (auto &callee : c.calls[name]) {
            if (cost < 0 || c.place[callee] != Place::Inline) continue;
            int callee_cost = cost_with_inlined[callee];
            cost = callee_cost < 0 ? -1 : cost + callee_cost;
        }
        cost_with_inlined[name] = cost;
        // A read that ignores a dimension of its consumer counts as two at least.
        const int reads = std::max(int(sites.distinct_reads[name].size()), sites.repeated_reads.count(name) ? 2 : 0);
        // A reduction would evaluate an inlined Func at every step: only one that costs no
        // arithmetic (a relu's max, a cast) is inlined there, as the hand schedules do: the step
        // loads its value either way, and at the tile it costs a buffer, a store and a load
        // (cnn_block: 1.07-1.09x the time of relu1 inlined).
        const bool free_in_reductions = cost == 0;
        bool inline_it = f.updates.empty() && (!sites.read_in_reductions.count(name) || free_in_reductions) &&
                         (reads <= 1 || (cost >= 0 && cost * reads <= 16));
        c.place[name] = inline_it && name != c.output->name ? Place::Inline : Place::Tile;
    }
    for (auto &name : sites.data_dependent) c.make_root_with_producers(name);
    // A Func read at scaled indices inside the output's tiles (a pyramid level read by the next)
    // would be recomputed over a region growing with every level: root. Read so by the output
    // itself (a pooling output), it fuses.
    for (auto &[name, readers] : sites.scaled_readers) {
        for (auto &reader : readers) {
            if (reader != c.output->name && c.place[name] != Place::Inline) c.make_root_with_producers(name);
        }
    }

    // An output of no dimensions has no tiles: what is not inlined is computed at the root.
    if (c.output->dimensions() == 0) {
        for (auto &[name, f] : c.env)
            if (c.place[name] == Place::Tile) c.make_root_with_producers(name);
    }
    // The tiles are loops of the output's pure definition, but compute_at(output, xo) means the
    // output's last stage that reads the Func (through inlined Funcs), else its last stage: with
    // update definitions, a Func read only by its updates, or only through other fused Funcs,
    // would look for the tile loop in an update. An output with updates fuses nothing.
    if (c.output->stages() > 1) {
        for (auto &[name, f] : c.env)
            if (c.place[name] == Place::Tile) c.make_root_with_producers(name);
    }

    // Move Funcs recomputed too often to the root, on trial schedules, until none is.
    std::map<std::string, SavedSchedule> saved;
    for (auto &[name, f] : c.env) saved[name] = SavedSchedule::of(*f);
    OutputLoops loops;
    std::map<std::string, RedundancyRow> tile_rows;  // the report of the last trial, if current
    bool rows_current = false;
    auto trial_rows = [&](const OutputLoops &l) {
        Applier trial;
        trial.apply(c, l);
        std::map<std::string, RedundancyRow> rows = report_rows(c);
        restore(c.env, saved);
        return rows;
    };
    auto any_fused = [&] {
        for (auto &[name, p] : c.place)
            if (p == Place::Tile && name != c.output->name) return true;
        return false;
    };
    auto settle_tiles = [&] {
        for (int round = 0; round < 8 && c.output->dimensions() > 0; round++) {
            loops = choose_output_loops(c);
            rows_current = false;
            if (!any_fused()) break;
            tile_rows = trial_rows(loops);
            rows_current = true;
            bool moved = false;
            for (auto &[name, row] : tile_rows) {
                auto it = c.place.find(name);
                if (it == c.place.end() || it->second != Place::Tile || name == c.output->name) continue;
                if (row.factor > options.max_recompute) {
                    c.make_root_with_producers(name);
                    moved = true;
                }
            }
            if (!moved) break;
            rows_current = false;
        }
    };
    settle_tiles();
    // The report of the settled schedule says how many points every Func not inlined needs:
    // enough to reconsider the data-dependent reads (one more report, not one of its own).
    if (!sites.data_dependent.empty() && c.output->dimensions() > 0) {
        if (!rows_current) tile_rows = trial_rows(loops);
        rows_current = true;
        std::map<std::string, int64_t> required;
        for (auto &[name, row] : tile_rows) required[name] = row.required;
        std::vector<std::string> consumers_first = realization_order(c.copies, {c.output->name});
        std::reverse(consumers_first.begin(), consumers_first.end());
        if (DataDependentPlacer(c, sites, std::move(required)).place(consumers_first)) settle_tiles();
    }
    // Fusion that recomputes nothing: every fused Func is needed only at the points of the tile
    // that computes it (dw_pw's depthwise stage, whose halo is on the input). Larger tiles then
    // buy nothing and lose locality: the tile is 2 rows of as many points as keep the fused
    // buffers within 2 KiB, in the L1 cache. dw_pw (1024x1024x32, halo-sweep, 5 interleaved
    // rounds): 4x2 tiles (2 KiB) 18.9 ms, 16x1 19.9, 8x2 20.8, 4x4 21.3, and 32x16 (what the
    // 256 KiB budget chose) 27.0.
    if (c.output->dimensions() >= 2 && loops.y >= 0 && options.tile_w == 0 && options.tile_h == 0 && any_fused()) {
        if (!rows_current) tile_rows = trial_rows(loops);
        rows_current = true;
        bool recompute_free = true;
        double tile_bytes = 0;
        for (auto &[name, p] : c.place) {
            if (p != Place::Tile || name == c.output->name) continue;
            auto t = tile_rows.find(name);
            recompute_free = recompute_free && t != tile_rows.end() && t->second.factor <= 1.0 + 1e-9;
            if (t != tile_rows.end()) tile_bytes += double(t->second.buffer_bytes);
        }
        const double bytes_per_point = tile_bytes / double(std::max(1, loops.tile_w * loops.tile_h));
        if (recompute_free && bytes_per_point > 0) {
            const int est_x = c.estimates[loops.x], est_y = c.estimates[loops.y];
            const int min_w = loops.x == loops.vector_dim ? loops.lanes : 1;
            const int h = std::min(2, est_y);
            int w = floor_pow2(std::max(1, int(2048 / (bytes_per_point * h))));
            w = std::min(std::max(w, min_w), floor_pow2(est_x));
            if (w * h < loops.tile_w * loops.tile_h) {
                loops.tile_w = w;
                loops.tile_h = h;
                rows_current = false;
            }
        }
    }
    // Strips with sliding windows instead of tiles, where they recompute no more than the tiles
    // and the fused Funcs' rows (as many as are live) fit the same per-tile budget. Channels
    // innermost outputs keep their tiles (the register blocks need them).
    if (c.output->dimensions() >= 2 && loops.channel_tile == 0 && loops.y >= 0 && options.tile_w == 0 && any_fused()) {
        if (!rows_current) tile_rows = trial_rows(loops);
        OutputLoops strips = loops;
        strips.sliding = true;
        // Taller strips recompute fewer first rows; keep 8 strips per core for the balance.
        if (options.tile_h == 0) {
            const int est_y = c.estimates[loops.y];
            const int min_strips = 8 * std::max(1, int(std::thread::hardware_concurrency()));
            for (int h = 128; h > loops.tile_h; h /= 2) {
                int strips_needed = (est_y + h - 1) / h;
                if (strips_needed >= min_strips && double(strips_needed) * h / est_y <= 1.125) {
                    strips.tile_h = h;
                    break;
                }
            }
        }
        std::map<std::string, RedundancyRow> strip_rows = trial_rows(strips);
        bool better = !strip_rows.empty() && !tile_rows.empty();
        double bytes = 0;
        for (auto &[name, p] : c.place) {
            if (p != Place::Tile || name == c.output->name || !better) continue;
            auto s = strip_rows.find(name), t = tile_rows.find(name);
            better = s != strip_rows.end() && t != tile_rows.end() && s->second.factor <= t->second.factor &&
                     s->second.factor <= options.max_recompute;
            if (better) bytes += double(s->second.buffer_bytes);
        }
        if (better && bytes <= options.tile_bytes) loops = strips;
    }
    Applier applier;
    applier.apply(c, loops);
    AutoScheduleResult r;
    r.source = library_handles(c, applier.source.str()) + applier.source.str();
    r.summary = applier.summary.str();
    r.sliding = loops.sliding;
    r.tile_w = loops.sliding ? 0 : loops.tile_w;
    r.tile_h = loops.tile_h;
    r.vector_width = loops.lanes;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

AutoScheduleResult auto_schedule(Func output, const AutoScheduleOptions &options) {
    const auto &given = output.function()->estimates;
    std::vector<int> extents;
    for (size_t d = 0; d < given.size(); d++) {
        user_assert(given[d].second >= 1)
            << "auto_schedule: Func '" << output.name() << "' has no estimate for dimension " << d << " ("
            << output.function()->args[d] << "); give every dimension one with set_estimates";
        extents.push_back(given[d].second);
    }
    user_assert(int(extents.size()) == output.dimensions())
        << "auto_schedule: Func '" << output.name() << "' has no estimates of its size; call " << output.name()
        << ".set_estimates({{min, extent}, ...}) first, one pair per dimension, or pass the extents to auto_schedule";
    return auto_schedule(output, extents, options);
}

}  // namespace halo
