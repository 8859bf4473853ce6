// halide_peer: Halo's benchmark apps written and scheduled with the real Halide 14 (JIT), served
// over stdin/stdout so that Halo's benchmarks can time Halo and Halide in the same run.
// The protocol is in kHelp. Build: bench/halide_peer/CMakeLists.txt (needs libhalide14-0-dev).
#include "Halide.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

using namespace Halide;

namespace {

const char *kHelp =
    "halide_peer: Halide 14 JIT benchmark server. Commands on stdin, one answer line each:\n"
    "  setup <app> <schedule> <args...>  -> ok <case_id> <compile_ms> | error <message>\n"
    "      blur      breadth_first|tiled|sliding|mullapudi2016  W H\n"
    "      harris    breadth_first|tiled|sliding|mullapudi2016  W H\n"
    "      cnn_block breadth_first|fused|mullapudi2016          W H C [tile_w tile_h]  (fused tile: 8 8)\n"
    "      cnn_block sliding                                    W H C strip_h\n"
    "      (mullapudi2016: Halide's Mullapudi2016 autoscheduler; its time counts in compile_ms)\n"
    "  run <case_id>       -> ms <milliseconds of one realize into the preallocated output>\n"
    "  checksum <case_id>  -> sum <sum of all output values, %.17g>\n"
    "  quit                -> bye\n"
    "Options: --self-test (small sizes, checked against plain C++ loops), --help.\n"
    "Env: HL_NUM_THREADS sets the size of Halide's thread pool (default: all cores);\n"
    "     HALIDE_PEER_ALLOC=system uses Halide's own halide_malloc/halide_free instead of\n"
    "     reusing compute_root buffers across runs (as Halo's arena does).\n";

[[noreturn]] void fail(const std::string &msg) { throw std::runtime_error(msg); }

double ms_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::string fmt(const char *format, double v) {
    char s[64];
    std::snprintf(s, sizeof s, format, v);
    return s;
}

// ---------------------------------------------------------------- buffer reuse
// Halide's default halide_free hands big compute_root buffers back to the OS after every
// realize, so each run page-faults them in again (on this VM that can cost more than the
// computation). Halo's pipelines reuse buffers through an arena; for a like-for-like comparison
// the peer keeps freed blocks and reuses them for requests of the same size.
struct BlockPool {
    std::mutex m;
    std::multimap<size_t, void *> free_blocks;  // size -> block; the size also precedes a block
};
BlockPool &block_pool() {
    static BlockPool *p = new BlockPool;  // never destroyed: JIT code may still free at exit
    return *p;
}
void *pool_malloc(JITUserContext *, size_t size) {
    size = (size + 127) & ~size_t(127);
    BlockPool &p = block_pool();
    std::lock_guard<std::mutex> lock(p.m);
    auto it = p.free_blocks.find(size);
    if (it != p.free_blocks.end()) {
        void *b = it->second;
        p.free_blocks.erase(it);
        return b;
    }
    char *b = static_cast<char *>(std::aligned_alloc(128, size + 128));  // 128: header, aligned
    if (!b) return nullptr;
    *reinterpret_cast<size_t *>(b) = size;
    return b + 128;
}
void pool_free(JITUserContext *, void *b) {
    if (!b) return;
    BlockPool &p = block_pool();
    std::lock_guard<std::mutex> lock(p.m);
    p.free_blocks.emplace(*reinterpret_cast<size_t *>(static_cast<char *>(b) - 128), b);
}

// ---------------------------------------------------------------- inputs (shared with the refs)
Buffer<uint16_t> blur_input(int W, int H) {
    Buffer<uint16_t> in(W + 8, H + 2, "input");
    in.for_each_element([&](int x, int y) { in(x, y) = uint16_t((x * 31 + y * 17) & 0xffff); });
    return in;
}

Buffer<float> harris_input(int W, int H) {
    Buffer<float> in(W + 4, H + 4, "input");
    in.for_each_element([&](int x, int y) { in(x, y) = float((x * 7 + y * 13) % 256) / 255.0f; });
    return in;
}

struct CnnData {
    Buffer<float> in, w1, w2, b1, b2;  // in: (c, x, y); w: (co, kx, ky, ci); b: (co)
};

CnnData cnn_input(int W, int H, int C) {
    CnnData d{Buffer<float>(C, 2 * W + 4, 2 * H + 4), Buffer<float>(C, 3, 3, C),
              Buffer<float>(C, 3, 3, C), Buffer<float>(C), Buffer<float>(C)};
    d.in.set_name("input"), d.w1.set_name("w1"), d.w2.set_name("w2");
    d.b1.set_name("b1"), d.b2.set_name("b2");
    d.in.for_each_element([&](int c, int x, int y) {
        d.in(c, x, y) = float((x * 7 + y * 13 + c * 29) % 101) / 101.0f - 0.3f;
    });
    d.w1.for_each_element([&](int co, int kx, int ky, int ci) {
        // sin(phase + ...) in double, phase 0.1 for w1 and 0.7 for w2
        for (auto [w, phase] : {std::pair{&d.w1, 0.1}, std::pair{&d.w2, 0.7}})
            (*w)(co, kx, ky, ci) =
                float(std::sin(phase + 0.9 * kx + 1.7 * ky + 0.31 * ci + 0.57 * co) / (3.0 * C));
    });
    for (int co = 0; co < C; co++) {
        d.b1(co) = float(0.01 * (co % 5) - 0.02);
        d.b2(co) = float(0.015 * (co % 3) - 0.01);
    }
    return d;
}

// ---------------------------------------------------------------- the apps in Halide
// Each returns the output Func (scheduled) and its output buffer (min 0 in every dimension).
// The input is an ImageParam bound to the data, as in Halo's apps (and Halide's own app
// generators): a Buffer used directly would let Halide compile its strides in as constants,
// which Halo's side of the comparison does not know either.
struct Built {
    Func output;
    Buffer<> out;
    ImageParam input;
};

Var x("x"), y("y"), c("c"), xi("xi"), yi("yi"), xo("xo"), yo("yo");
Var co("co"), ci("ci"), bxo("bxo"), bxi("bxi");

Built build_blur(const std::string &sched, int W, int H) {
    ImageParam in(UInt(16), 2, "input");
    in.set(blur_input(W, H));
    Func blur_x("blur_x"), blur_y("blur_y");
    // uint16 throughout: the adds wrap and "/ 3" is unsigned integer division.
    blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3;
    blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    if (sched == "breadth_first") {
        blur_x.compute_root().vectorize(x, 16).parallel(y);
        blur_y.vectorize(x, 16).parallel(y);
    } else if (sched == "tiled") {
        blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 16).parallel(y);
        blur_x.compute_at(blur_y, x).vectorize(x, 16);
    } else if (sched == "sliding") {  // the schedule of Halide's apps/blur
        blur_y.split(y, y, yi, 32).parallel(y).vectorize(x, 16);
        blur_x.store_at(blur_y, y).compute_at(blur_y, yi).vectorize(x, 16);
    } else if (sched != "mullapudi2016") {
        fail("unknown blur schedule " + sched);
    }
    return {blur_y, Buffer<uint16_t>(W, H), in};
}

Built build_harris(const std::string &sched, int W, int H) {
    ImageParam in(Float(32), 2, "input");
    in.set(harris_input(W, H));
    Func Ix("Ix"), Iy("Iy"), Ixx("Ixx"), Iyy("Iyy"), Ixy("Ixy");
    Func Sxx("Sxx"), Syy("Syy"), Sxy("Sxy"), out("harris");
    Ix(x, y) = (in(x + 2, y) - in(x, y)) + 2.0f * (in(x + 2, y + 1) - in(x, y + 1)) +
               (in(x + 2, y + 2) - in(x, y + 2));
    Iy(x, y) = (in(x, y + 2) - in(x, y)) + 2.0f * (in(x + 1, y + 2) - in(x + 1, y)) +
               (in(x + 2, y + 2) - in(x + 2, y));
    Ixx(x, y) = Ix(x, y) * Ix(x, y);
    Iyy(x, y) = Iy(x, y) * Iy(x, y);
    Ixy(x, y) = Ix(x, y) * Iy(x, y);
    auto box3 = [](Func f) {  // summed left to right: rows (j) outer, columns (i) inner
        Expr s = f(x, y);
        for (int k = 1; k < 9; k++) s = s + f(x + k % 3, y + k / 3);
        return s;
    };
    Sxx(x, y) = box3(Ixx);
    Syy(x, y) = box3(Iyy);
    Sxy(x, y) = box3(Ixy);
    Expr det = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
    Expr trace = Sxx(x, y) + Syy(x, y);
    out(x, y) = det - 0.04f * trace * trace;
    if (sched == "breadth_first") {
        for (Func f : {Ix, Iy, Ixx, Iyy, Ixy, Sxx, Syy, Sxy})
            f.compute_root().vectorize(x, 16).parallel(y);
        out.vectorize(x, 16).parallel(y);
    } else if (sched == "tiled") {
        out.tile(x, y, xi, yi, 256, 32).vectorize(xi, 16).parallel(y);
        Ix.compute_at(out, x).vectorize(x, 16);
        Iy.compute_at(out, x).vectorize(x, 16);
    } else if (sched == "sliding") {  // the schedule of Halide's apps/harris
        out.split(y, y, yi, 32).parallel(y).vectorize(x, 16);
        Ix.store_at(out, y).compute_at(out, yi).vectorize(x, 16);
        Iy.store_at(out, y).compute_at(out, yi).vectorize(x, 16);
    } else if (sched != "mullapudi2016") {
        fail("unknown harris schedule " + sched);
    }
    return {out, Buffer<float>(W, H), in};
}

// A convolution's update as a register block: 16-lane channel vectors x (C/16) unrolled x 8
// unrolled pixels along x, with the whole 3x3xC reduction inside the block (LLVM keeps the
// C/16 * 8 accumulators in zmm registers across it).
Stage block_conv_update(Func conv, const RDom &r) {
    return conv.update()
        .split(c, co, ci, 16)
        .split(x, bxo, bxi, 8, TailStrategy::GuardWithIf)
        .reorder(ci, co, bxi, r.x, r.y, r.z, bxo, y)
        .vectorize(ci)
        .unroll(co)
        .unroll(bxi);
}

Built build_cnn(const std::string &sched, int W, int H, int C, int tw, int th) {
    CnnData d = cnn_input(W, H, C);
    ImageParam in(Float(32), 3, "input");
    in.set(d.in);
    Func conv1("conv1"), relu1("relu1"), conv2("conv2"), relu2("relu2"), pool("pool");
    RDom r(0, 3, 0, 3, 0, C, "r"), s(0, 3, 0, 3, 0, C, "s");
    conv1(c, x, y) = d.b1(c);
    conv1(c, x, y) += d.w1(c, r.x, r.y, r.z) * in(r.z, x + r.x, y + r.y);
    relu1(c, x, y) = max(conv1(c, x, y), 0.0f);
    conv2(c, x, y) = d.b2(c);
    conv2(c, x, y) += d.w2(c, s.x, s.y, s.z) * relu1(s.z, x + s.x, y + s.y);
    relu2(c, x, y) = max(conv2(c, x, y), 0.0f);
    pool(c, x, y) = max(max(relu2(c, 2 * x, 2 * y), relu2(c, 2 * x + 1, 2 * y)),
                        max(relu2(c, 2 * x, 2 * y + 1), relu2(c, 2 * x + 1, 2 * y + 1)));
    pool.bound(c, 0, C);
    if (sched == "breadth_first") {
        conv1.compute_root().vectorize(c, 16).parallel(y);
        block_conv_update(conv1, r).parallel(y);
        conv2.compute_root().vectorize(c, 16).parallel(y);
        block_conv_update(conv2, s).parallel(y);
        pool.vectorize(c, 16).parallel(y);
    } else if (sched == "fused") {
        // Both convolutions per tw x th pool tile (recomputing the tile's halo), channels in
        // the vector lanes, 8 px x C ch register blocks. Computing relu1 at the tile (instead of
        // inlining the max into conv2) was tried and does not help. On the 2-core AVX-512 dev
        // machine 64x32 tiles are the fastest, ~12% faster than 8x8 (less recomputed halo).
        pool.split(x, xo, xi, tw).split(y, yo, yi, th).reorder(c, xi, yi, xo, yo);
        pool.vectorize(c, 16).parallel(yo);
        conv1.compute_at(pool, xo).vectorize(c, 16);
        block_conv_update(conv1, r);
        conv2.compute_at(pool, xo).vectorize(c, 16);
        block_conv_update(conv2, s);
    } else if (sched == "sliding") {
        // Strips of th pool rows in parallel; in each, both convolutions slide down the rows
        // (each row computed once, none recomputed), their storage folded (as Halide's blur).
        pool.split(y, yo, yi, th).reorder(c, x, yi, yo);
        pool.vectorize(c, 16).parallel(yo);
        conv1.store_at(pool, yo).compute_at(pool, yi).vectorize(c, 16);
        block_conv_update(conv1, r);
        conv2.store_at(pool, yo).compute_at(pool, yi).vectorize(c, 16);
        block_conv_update(conv2, s);
    } else if (sched != "mullapudi2016") {
        fail("unknown cnn_block schedule " + sched);
    }
    return {pool, Buffer<float>(C, W, H), in};
}

// ---------------------------------------------------------------- cases
struct Case {
    Pipeline pipe;
    Buffer<> out;
    Target target;
    double compile_ms = 0;
};

// Builds, JIT-compiles (timed) and warms up one case.
std::unique_ptr<Case> make_case(const std::string &app, const std::string &sched,
                                const std::vector<int> &a) {
    bool cnn = app == "cnn_block", tile = cnn && a.size() == 5, strip = cnn && sched == "sliding";
    if (app != "blur" && app != "harris" && !cnn) fail("unknown app " + app);
    if (strip ? a.size() != 4u : a.size() != (cnn ? 3u : 2u) && !tile) fail(app + ": wrong number of arguments");
    if (std::any_of(a.begin(), a.end(), [](int v) { return v <= 0; }))
        fail("arguments must be positive");
    if (cnn && a[2] % 16) fail("cnn_block: C must be a multiple of 16 (the vector width)");
    Built b = app == "blur"     ? build_blur(sched, a[0], a[1])
              : app == "harris" ? build_harris(sched, a[0], a[1])
                                : build_cnn(sched, a[0], a[1], a[2], tile ? a[3] : 8, tile ? a[4] : strip ? a[3] : 8);
    // The target is the host (AVX-512 here) unless HL_JIT_TARGET says otherwise.
    auto k = std::make_unique<Case>(Case{b.output, b.out, get_jit_target_from_environment()});
    const char *alloc = std::getenv("HALIDE_PEER_ALLOC");
    if (!alloc || std::string(alloc) != "system") {
        k->pipe.jit_handlers().custom_malloc = pool_malloc;
        k->pipe.jit_handlers().custom_free = pool_free;
    }
    auto t0 = std::chrono::steady_clock::now();
    if (sched == "mullapudi2016") {
        // Halide's Mullapudi2016 autoscheduler (the plugin Debian ships with Halide 14), told
        // the output's size and this machine: 2 cores, a 32 MiB last-level cache. Its time
        // counts in compile_ms.
        static bool loaded = false;
        if (!loaded) load_plugin("/usr/lib/x86_64-linux-gnu/halide14/libautoschedule_mullapudi2016.so");
        loaded = true;
        Region estimates;
        for (int d = 0; d < b.out.dimensions(); d++) estimates.push_back({0, b.out.dim(d).extent()});
        b.output.set_estimates(estimates);
        Region input_estimates;
        const Buffer<> &bound = b.input.get();
        for (int d = 0; d < bound.dimensions(); d++) input_estimates.push_back({bound.dim(d).min(), bound.dim(d).extent()});
        b.input.set_estimates(input_estimates);
        AutoSchedulerResults chosen =
            k->pipe.auto_schedule("Mullapudi2016", k->target, MachineParams(2, 32 * 1024 * 1024, 40));
        // HALIDE_PEER_PRINT_SCHEDULE=1 shows what it chose (to compare with Halo's auto_schedule).
        const char *print = std::getenv("HALIDE_PEER_PRINT_SCHEDULE");
        if (print && std::string(print) == "1") std::fprintf(stderr, "%s\n", chosen.schedule_source.c_str());
    }
    k->pipe.compile_jit(k->target);
    k->compile_ms = ms_since(t0);
    // HALIDE_PEER_ASM=file writes the case's assembly (to compare with Pipeline::assembly()).
    if (const char *asm_file = std::getenv("HALIDE_PEER_ASM")) {
        k->pipe.compile_to_assembly(asm_file, {b.input}, app, k->target);
    }
    k->pipe.realize(k->out, k->target);  // warm-up
    return k;
}

// Halide JIT-compiles its own runtime on first use in a process (about 0.35 s here). Do that up
// front so that the first case's compile_ms is comparable with the others'.
void warm_up_jit() {
    Func f("warm_up");
    f(x) = x;
    Buffer<int> b(16);
    f.realize(b, get_jit_target_from_environment());
}

double run_case(Case &k) {
    auto t0 = std::chrono::steady_clock::now();
    k.pipe.realize(k.out, k.target);
    return ms_since(t0);
}

// The output's values in memory order (dense, dimension 0 innermost).
std::vector<double> values(const Buffer<> &b) {
    std::vector<double> v(b.number_of_elements());
    if (b.type() == UInt(16)) std::copy_n(b.as<uint16_t>().data(), v.size(), v.begin());
    else std::copy_n(b.as<float>().data(), v.size(), v.begin());
    return v;
}

double checksum(const Case &k) {
    std::vector<double> v = values(k.out);
    return std::accumulate(v.begin(), v.end(), 0.0);
}

// ---------------------------------------------------------------- plain C++ references
// Each returns the output in the Halide output's memory order.
std::vector<double> ref_blur(int W, int H) {
    Buffer<uint16_t> in = blur_input(W, H);
    auto bx = [&](int x, int y) { return uint16_t(in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3; };
    std::vector<double> out;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            out.push_back(uint16_t(bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3);
    return out;
}

std::vector<double> ref_harris(int W, int H) {
    Buffer<float> in = harris_input(W, H);
    auto Ix = [&](int x, int y) {
        return (in(x + 2, y) - in(x, y)) + 2.0f * (in(x + 2, y + 1) - in(x, y + 1)) +
               (in(x + 2, y + 2) - in(x, y + 2));
    };
    auto Iy = [&](int x, int y) {
        return (in(x, y + 2) - in(x, y)) + 2.0f * (in(x + 1, y + 2) - in(x + 1, y)) +
               (in(x + 2, y + 2) - in(x + 2, y));
    };
    std::vector<double> out;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float sxx = 0, syy = 0, sxy = 0;
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++) {
                    float a = Ix(x + i, y + j), b = Iy(x + i, y + j);
                    sxx += a * a, syy += b * b, sxy += a * b;
                }
            float det = sxx * syy - sxy * sxy, trace = sxx + syy;
            out.push_back(det - 0.04f * trace * trace);
        }
    return out;
}

// 3x3 valid convolution C -> C plus bias, then relu; src is (C, sw, sh) channels innermost.
std::vector<float> ref_conv_relu(const std::vector<float> &src, int sw, int sh, int C,
                                 const Buffer<float> &w, const Buffer<float> &b) {
    std::vector<float> dst;
    for (int y = 0; y < sh - 2; y++)
        for (int x = 0; x < sw - 2; x++)
            for (int c = 0; c < C; c++) {
                float acc = b(c);
                for (int rz = 0; rz < C; rz++)
                    for (int ry = 0; ry < 3; ry++)
                        for (int rx = 0; rx < 3; rx++)
                            acc += w(c, rx, ry, rz) * src[(size_t(y + ry) * sw + x + rx) * C + rz];
                dst.push_back(std::max(acc, 0.0f));
            }
    return dst;
}

std::vector<double> ref_cnn(int W, int H, int C) {
    CnnData d = cnn_input(W, H, C);
    std::vector<float> in(d.in.data(), d.in.data() + d.in.number_of_elements());
    std::vector<float> r1 = ref_conv_relu(in, 2 * W + 4, 2 * H + 4, C, d.w1, d.b1);
    std::vector<float> r2 = ref_conv_relu(r1, 2 * W + 2, 2 * H + 2, C, d.w2, d.b2);
    auto at = [&](int c, int x, int y) { return r2[(size_t(y) * 2 * W + x) * C + c]; };
    std::vector<double> out;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < C; c++)
                out.push_back(std::max(std::max(at(c, 2 * x, 2 * y), at(c, 2 * x + 1, 2 * y)),
                                       std::max(at(c, 2 * x, 2 * y + 1), at(c, 2 * x + 1, 2 * y + 1))));
    return out;
}

// ---------------------------------------------------------------- self-test
int self_test() {
    struct Test {
        std::string app, sched;
        std::vector<int> args;
    };
    // blur and harris are wider than their 256-wide tiles (ShiftInwards tails need that) and
    // not a multiple of them, so the tails run too.
    const std::vector<Test> tests = {
        {"blur", "breadth_first", {288, 72}},         {"blur", "tiled", {288, 72}},
        {"blur", "sliding", {288, 72}},               {"harris", "breadth_first", {288, 72}},
        {"harris", "tiled", {288, 72}},               {"harris", "sliding", {288, 72}},
        {"cnn_block", "breadth_first", {16, 16, 32}}, {"cnn_block", "fused", {16, 16, 32}},
        {"cnn_block", "fused", {16, 16, 32, 4, 16}},  {"cnn_block", "sliding", {16, 20, 32, 8}},
        {"blur", "mullapudi2016", {288, 72}},
        {"harris", "mullapudi2016", {288, 72}},       {"cnn_block", "mullapudi2016", {16, 16, 32}}};
    int failures = 0;
    warm_up_jit();
    for (const Test &t : tests) {
        std::string args;
        for (int v : t.args) args += " " + std::to_string(v);
        try {
            std::unique_ptr<Case> k = make_case(t.app, t.sched, t.args);
            run_case(*k);
            double ms = run_case(*k);
            const std::vector<int> &a = t.args;
            std::vector<double> ref = t.app == "blur"     ? ref_blur(a[0], a[1])
                                      : t.app == "harris" ? ref_harris(a[0], a[1])
                                                          : ref_cnn(a[0], a[1], a[2]);
            std::vector<double> got = values(k->out);
            double maxerr = 0, maxabs = 0;
            for (size_t i = 0; i < ref.size() && i < got.size(); i++) {
                // (a NaN on one side only is an infinite error: std::max would drop it)
                bool one_nan = std::isnan(got[i]) != std::isnan(ref[i]);
                maxerr = std::max(maxerr, one_nan ? INFINITY : got[i] == ref[i] ? 0.0 : std::fabs(got[i] - ref[i]));
                maxabs = std::max(maxabs, std::fabs(ref[i]));
            }
            // blur exact; harris relative to the largest |value|; cnn absolute
            double tol = t.app == "blur" ? 0 : t.app == "harris" ? 1e-4 * maxabs : 1e-4;
            bool ok = got.size() == ref.size() && maxerr <= tol;
            failures += !ok;
            std::printf("%s %s compile_ms=%.1f ms=%.3f checksum=%.17g %s maxerr=%.3g (args%s)\n",
                        t.app.c_str(), t.sched.c_str(), k->compile_ms, ms, checksum(*k),
                        ok ? "PASS" : "FAIL", maxerr, args.c_str());
        } catch (const std::exception &e) {
            failures++;
            std::printf("%s %s FAIL (args%s): %s\n", t.app.c_str(), t.sched.c_str(), args.c_str(),
                        e.what());
        }
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed\n", int(tests.size()) - failures, failures);
    return failures ? 1 : 0;
}

// ---------------------------------------------------------------- server loop
int serve() {
    std::vector<std::unique_ptr<Case>> cases;
    auto find = [&](std::istringstream &is) -> Case & {
        size_t id;
        if (!(is >> id) || id >= cases.size()) fail("unknown case id");
        return *cases[id];
    };
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream is(line);
        std::string cmd;
        if (!(is >> cmd)) continue;
        try {
            if (cmd == "setup") {
                if (cases.empty()) warm_up_jit();
                std::string app, sched, tok;
                is >> app >> sched;
                std::vector<int> a;
                while (is >> tok) {
                    char *end;
                    a.push_back(int(std::strtol(tok.c_str(), &end, 10)));
                    if (*end) fail("bad integer argument " + tok);
                }
                cases.push_back(make_case(app, sched, a));
                std::cout << "ok " << cases.size() - 1 << " "
                          << fmt("%.3f", cases.back()->compile_ms) << std::endl;
            } else if (cmd == "run") {
                double ms = run_case(find(is));
                std::cout << "ms " << fmt("%.4f", ms) << std::endl;
            } else if (cmd == "checksum") {
                double sum = checksum(find(is));
                std::cout << "sum " << fmt("%.17g", sum) << std::endl;
            } else if (cmd == "quit") {
                std::cout << "bye" << std::endl;
                return 0;
            } else {
                fail("unknown command " + cmd);
            }
        } catch (const std::exception &e) {  // Halide::Error and std::exception alike
            std::string msg = e.what();
            std::replace(msg.begin(), msg.end(), '\n', ' ');
            msg.erase(msg.find_last_not_of(' ') + 1);
            std::cout << "error " << msg << std::endl;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    std::string arg = argc > 1 ? argv[1] : "";
    if (arg.empty()) return serve();
    if (arg == "--self-test") return self_test();
    bool help = arg == "--help" || arg == "-h";
    if (!help) std::cerr << "unknown option " << arg << "\n";
    (help ? std::cout : std::cerr) << kHelp;
    return help ? 0 : 2;
}
