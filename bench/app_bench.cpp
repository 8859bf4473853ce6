// The apps side by side in one run: Halo's fused (tiled) and breadth-first schedules, plain C++
// loops, and the same pipelines and schedules built with Halide 14 (a separate process, driven
// over a pipe) where it is installed. Cases of one app run interleaved round-robin (the plain
// C++ loops in rounds of their own after them: see Row::apart).
// Usage: app_bench [--quick] [--rounds N] [--pause MS] [--load] [app...]
//   apps: blur harris cnn_block conv_avgpool int16_conv_add unsharp local_laplacian (default: all)
//   --pause MS: the sleep before every case (default 50, which lets the previous case's worker
//           threads go idle; on this 2-vCPU VM a two-thread case right after it often waits
//           2-3.5 ms for its second thread: 0 times the kernels back to back).
//   --load: time every case idle, then again with one CPU-bound process per core competing,
//           and report each case's slowdown (how parallel loops cope with a loaded machine).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

#include "AppInputs.h"
#include "BenchUtil.h"
#include "PeakFma.h"
#include "PeerClient.h"
#include "blur.h"
#include "cnn_block.h"
#include "conv_variants.h"
#include "harris.h"
#include "local_laplacian.h"
#include "unsharp.h"

using namespace halo;

namespace {

struct Row {
    bench::Case c;
    double compile_ms = 0;
    std::function<double()> sum;  // of the output, printed to compare implementations
    // Timed after the interleaved rounds, not in them: the plain C++ loops allocate and free
    // their intermediates (tens of MB) in every run, and on this VM (Firecracker, shadow page
    // tables) the process's code runs up to 10x slower for about 200 ms after that (blur's
    // tiles 36-68 ms instead of 5.3, with no page faults of their own), which slowed the
    // Halo rows that followed it and not the Halide peer's, in another process. (The plain
    // rows' own times may still read high: each follows the previous one's free.)
    bool apart = false;
};

const std::set<std::string> known_apps = {"blur", "harris", "cnn_block", "conv_avgpool", "int16_conv_add", "unsharp",
                                          "local_laplacian"};

double sum_of(const Buffer<> &b) {
    double s = 0;
    b.for_each_element([&](const std::vector<int> &c) { s += b.get_as_double(c); });
    return s;
}

bool with_load = false;
int pause_ms = 50;

// One CPU-bound process per core for as long as it lives (the competing load of --load).
class BusyProcesses {
public:
    BusyProcesses() {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        for (long i = 0; i < std::max(1L, cpus); i++) {
            pid_t pid = fork();
            if (pid == 0) {
                volatile unsigned long spin = 0;
                for (;;) spin = spin + 1;
            }
            if (pid > 0) pids_.push_back(pid);
        }
    }
    ~BusyProcesses() {
        for (pid_t p : pids_) kill(p, SIGKILL);
        for (pid_t p : pids_) waitpid(p, nullptr, 0);
    }

private:
    std::vector<pid_t> pids_;
};

// With --load: the same cases timed idle and under load, and each one's slowdown.
void report_load(const std::string &title, const std::vector<bench::Case> &idle, const std::vector<bench::Case> &loaded) {
    std::printf("\n%s: idle, then one CPU-bound process per core\n", title.c_str());
    std::printf("%-44s %12s %14s %9s\n", "case", "idle median", "loaded median", "slowdown");
    for (size_t i = 0; i < idle.size(); i++) {
        std::printf("%-44s %12.2f %14.2f %8.2fx\n", idle[i].name.c_str(), idle[i].median(), loaded[i].median(),
                    loaded[i].median() / idle[i].median());
    }
    std::fflush(stdout);
}

// Times the rows' cases, and `extra` (if given) with them, returned in the rows' order with
// `extra` last: interleaved round-robin, the rows marked apart in rounds of their own after.
std::vector<bench::Case> time_rows(const std::vector<Row> &rows, int rounds, const bench::Case *extra) {
    std::vector<bench::Case> together, apart;
    for (auto &r : rows) (r.apart ? apart : together).push_back(r.c);
    if (extra) together.push_back(*extra);
    bench::run_interleaved(together, rounds, pause_ms);
    bench::run_interleaved(apart, rounds, pause_ms);
    std::vector<bench::Case> ordered;
    size_t next_together = 0, next_apart = 0;
    for (auto &r : rows) ordered.push_back(r.apart ? apart[next_apart++] : together[next_together++]);
    if (extra) ordered.push_back(together.back());
    return ordered;
}

// Runs the rows and prints one table; `work` is bytes (GB/s) or flops (GFLOP/s).
// With flops, the machine's fp32 FMA peak (bench/PeakFma.h) is timed interleaved with the rows
// and each row's GFLOP/s is also given as a share of it: a ratio of one run on a noisy machine.
void report(const std::string &title, std::vector<Row> &rows, int rounds, double work, const char *unit) {
    static const bench::FmaPeak peak(10'000'000);  // about 20 ms per run
    static volatile float peak_checksum = 0;
    const bool with_peak = !with_load && std::strcmp(unit, "GFLOP/s") == 0 && peak.available();
    const bench::Case peak_case{"fp32 FMA peak", [] { peak_checksum = peak_checksum + peak.run(); }, {}};
    std::vector<bench::Case> cases = time_rows(rows, rounds, with_peak ? &peak_case : nullptr);
    if (with_load) {
        std::vector<bench::Case> loaded;
        {
            BusyProcesses busy;
            loaded = time_rows(rows, rounds, nullptr);
        }
        report_load(title, cases, loaded);
        return;
    }
    double peak_gflops = 0;
    if (with_peak) {
        peak_gflops = peak.flops() / cases.back().median() / 1e6;
        cases.pop_back();
    }
    double best = 1e300;
    for (auto &c : cases) best = std::min(best, c.median());
    std::printf("\n%s, %d rounds, %d ms pause before each case\n", title.c_str(), rounds, pause_ms);
    if (with_peak) {
        std::printf("fp32 FMA peak, timed between the cases (%u threads x %d-lane vectors): median %.1f GFLOP/s\n",
                    peak.threads(), peak.lanes(), peak_gflops);
    }
    std::printf("%-44s %10s %10s %10s %9s %8s %14s%s\n", "case", "compile ms", "median ms", "min ms", unit, "vs best",
                "checksum", with_peak ? "  of peak" : "");
    for (size_t i = 0; i < rows.size(); i++) {
        double cs = rows[i].sum ? rows[i].sum() : 0;
        double rate = work / cases[i].median() / 1e6;
        std::printf("%-44s %10.0f %10.2f %10.2f %9.1f %7.2fx %14.6g", cases[i].name.c_str(), rows[i].compile_ms,
                    cases[i].median(), cases[i].min(), rate, cases[i].median() / best, cs);
        if (with_peak) std::printf("  %6.1f%%", 100.0 * rate / peak_gflops);
        std::printf("\n");
    }
    std::fflush(stdout);
}

Row halo_row(const std::string &name, Func out_func, Buffer<> out) {
    Row r;
    r.compile_ms = bench::time_ms([&] { out_func.compile_jit(); });
    r.c = {name, [out_func, out]() mutable { out_func.realize(out); }, {}};
    r.sum = [out] { return sum_of(out); };
    return r;
}

// The same, compiled without the prefetches of sliding windows (lower/PrefetchSlidingInputs.h),
// to measure what they bring.
Row halo_row_without_sliding_prefetch(const std::string &name, Func out_func, Buffer<> out) {
    setenv("HALO_PREFETCH_SLIDING", "0", 1);
    Row r = halo_row(name, out_func, out);
    unsetenv("HALO_PREFETCH_SLIDING");
    return r;
}

// auto_schedule's schedule of out_func for out's size (the row's name says how long choosing took).
Row halo_auto_row(Func out_func, Buffer<> out) {
    std::vector<int> sizes;
    for (int d = 0; d < out.dimensions(); d++) sizes.push_back(out.dim(d).extent());
    AutoScheduleResult chosen = auto_schedule(out_func, sizes);
    char name[96];
    std::snprintf(name, sizeof name, "halo: auto_schedule (chosen in %.0f ms)", chosen.seconds * 1000);
    return halo_row(name, out_func, out);
}

// The plain C++ loops, writing `out`.
Row plain_row(std::function<void()> run, Buffer<> out) {
    Row r;
    r.c = {"plain C++ (one thread)", std::move(run), {}};
    r.apart = true;
    r.sum = [out] { return sum_of(out); };
    return r;
}

void add_peer_rows(bench::PeerClient &peer, std::vector<Row> &rows, const std::string &app,
                   const std::vector<std::pair<std::string, std::string>> &schedules) {
    if (!peer.ok()) return;
    for (auto &[label, args] : schedules) {
        Row r;
        int id = peer.setup(app + " " + args, &r.compile_ms);
        if (id < 0) {
            std::fprintf(stderr, "%s\n", peer.why().c_str());
            continue;
        }
        r.c.name = "halide 14: " + label;
        r.c.timed = [&peer, id] { return peer.run(id); };
        r.sum = [&peer, id] { return peer.checksum(id); };
        rows.push_back(r);
    }
}

}  // namespace

int main(int argc, char **argv) {
    bool quick = false;
    int rounds = 9;
    std::set<std::string> apps;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick")) quick = true, rounds = 2;
        else if (!std::strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--pause") && i + 1 < argc) pause_ms = std::max(0, std::atoi(argv[++i]));
        else if (!std::strcmp(argv[i], "--load")) with_load = true;
        else if (known_apps.count(argv[i])) apps.insert(argv[i]);
        else {
            std::string names;
            for (auto &a : known_apps) names += " " + a;
            std::fprintf(stderr, "app_bench: unknown option or app '%s'; apps:%s\n", argv[i], names.c_str());
            return 2;
        }
    }
    auto want = [&](const char *a) { return apps.empty() || apps.count(a); };
    const char *peer_path = std::getenv("HALO_HALIDE_PEER");
#ifdef HALO_HALIDE_PEER_PATH
    if (!peer_path) peer_path = HALO_HALIDE_PEER_PATH;
#endif
    bool peer_exists = peer_path && access(peer_path, X_OK) == 0;
    bench::PeerClient peer(peer_path ? peer_path : "");
    if (!peer.ok()) std::printf("%s\n", peer.why().c_str());
    try {

        if (want("blur")) {
            const int W = quick ? 512 : 6400, H = quick ? 256 : 4800;
            Buffer<uint16_t> in = bench::blur_input(W, H);
            apps::Blur tiled, strips, bf, sliding, sliding_np, automatic;
            tiled.schedule_tiled(256, 32, 16);
            strips.schedule_tiled(W, 32, 16);  // the sweep's best: tiles as wide as the image
            bf.schedule_breadth_first(16);
            sliding.schedule_sliding(32, 16);
            sliding_np.schedule_sliding(32, 16);
            for (auto *a : {&tiled, &strips, &bf, &sliding, &sliding_np, &automatic}) a->input.set(in);
            Buffer<> o1(UInt(16), {W, H}), o2(UInt(16), {W, H}), o4(UInt(16), {W, H}), o5(UInt(16), {W, H}), o6(UInt(16), {W, H}),
                o7(UInt(16), {W, H});
            Buffer<uint16_t> o3(W, H);
            std::vector<Row> rows = {halo_row("halo: tiled 256x32", tiled.blur_y, o1),
                                     halo_row("halo: tiled " + std::to_string(W) + "x32 (sweep's best)", strips.blur_y, o4),
                                     halo_row("halo: sliding window (Halide's app)", sliding.blur_y, o5),
                                     halo_row_without_sliding_prefetch("halo: sliding window, no prefetch", sliding_np.blur_y, o7),
                                     halo_row("halo: breadth-first", bf.blur_y, o2), halo_auto_row(automatic.blur_y, o6)};
            rows.push_back(plain_row([&] { apps::Blur::plain(in, o3); }, o3));
            std::string size = std::to_string(W) + " " + std::to_string(H);
            add_peer_rows(peer, rows, "blur", {{"tiled 256x32", "tiled " + size}, {"breadth-first", "breadth_first " + size},
                                               {"sliding window (Halide's app)", "sliding " + size},
                                               {"Mullapudi2016 autoscheduler", "mullapudi2016 " + size}});
            report("blur " + std::to_string(W) + "x" + std::to_string(H) + " uint16", rows, rounds,
                   4.0 * W * H, "GB/s");  // one read and one write of every pixel
        }
        if (want("harris")) {
            const int W = quick ? 512 : 2560, H = quick ? 256 : 1920;
            Buffer<float> in = bench::harris_input(W, H);
            apps::Harris tiled, bf, sliding, sliding_np, automatic, mullapudi;
            tiled.schedule_tiled(256, 32, 16);
            bf.schedule_breadth_first(16);
            sliding.schedule_sliding(32, 16);
            sliding_np.schedule_sliding(32, 16);
            mullapudi.schedule_like_mullapudi2016();
            for (auto *a : {&tiled, &bf, &sliding, &sliding_np, &automatic, &mullapudi}) a->input.set(in);
            Buffer<> o1(Float(32), {W, H}), o2(Float(32), {W, H}), o5(Float(32), {W, H}), o6(Float(32), {W, H}),
                o7(Float(32), {W, H}), o8(Float(32), {W, H});
            Buffer<float> o3(W, H);
            std::vector<Row> rows = {halo_row("halo: tiled 256x32", tiled.output, o1),
                                     halo_row("halo: sliding window (Halide's app)", sliding.output, o5),
                                     halo_row_without_sliding_prefetch("halo: sliding window, no prefetch", sliding_np.output, o8),
                                     halo_row("halo: breadth-first", bf.output, o2), halo_auto_row(automatic.output, o6),
                                     halo_row("halo: Mullapudi2016's schedule", mullapudi.output, o7)};
            rows.push_back(plain_row([&] { apps::Harris::plain(in, o3); }, o3));
            std::string size = std::to_string(W) + " " + std::to_string(H);
            add_peer_rows(peer, rows, "harris", {{"tiled 256x32", "tiled " + size}, {"breadth-first", "breadth_first " + size},
                                                 {"sliding window (Halide's app)", "sliding " + size},
                                                 {"Mullapudi2016 autoscheduler", "mullapudi2016 " + size}});
            report("harris " + std::to_string(W) + "x" + std::to_string(H) + " float", rows, rounds, 8.0 * W * H, "GB/s");
        }
        if (want("cnn_block")) {
            const int W = quick ? 32 : 256, H = quick ? 32 : 256, C = 32;
            Buffer<float> in = bench::channels_innermost_input(C, 2 * W + 4, 2 * H + 4);
            using L = apps::CnnBlock::Layout;
            apps::CnnBlock fused8(C, L::ChannelsInnermost), fused_big(C, L::ChannelsInnermost), bf(C, L::ChannelsInnermost),
                automatic(C, L::ChannelsInnermost), sliding(C, L::ChannelsInnermost);
            fused8.schedule_fused_blocked(8, 8);
            const int big_w = std::min(64, W), big_h = std::min(32, H);  // the sweep's best, if it fits
            fused_big.schedule_fused_blocked(big_w, big_h);
            bf.schedule_breadth_first_blocked();
            const int strip = std::max(1, std::min(64, H / 2));  // image-wide strips (4 at 256 rows)
            sliding.schedule_sliding_blocked(strip);
            for (auto *n : {&fused8, &fused_big, &bf, &automatic, &sliding}) n->input.set(in);
            Buffer<> o1(Float(32), {C, W, H}), o2(Float(32), {C, W, H}), o3(Float(32), {C, W, H}), o6(Float(32), {C, W, H}),
                o8(Float(32), {C, W, H});
            std::vector<Row> rows = {halo_row("halo: fused 8x8, 8px x 32ch blocks", fused8.pool, o1),
                                     halo_row("halo: fused 64x32 (sweep's best)", fused_big.pool, o2),
                                     halo_row("halo: sliding strips of " + std::to_string(strip) + " rows", sliding.pool, o8),
                                     halo_row("halo: breadth-first, same kernels", bf.pool, o3),
                                     halo_auto_row(automatic.pool, o6)};
            // Under --load also the planar breadth-first schedule at a quarter of the size: a
            // parallel loop over rows inside the channel loop, 136 short parallel loops per call
            // (the case that collapsed with libgomp's spinning workers on a loaded machine).
            apps::CnnBlock planar(C, L::Planar);
            const int pw = std::max(8, W / 4), ph = std::max(8, H / 4);
            Buffer<float> planar_in(2 * pw + 4, 2 * ph + 4, C);
            planar_in.for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13 + p[2] * 29) % 101) / 101.0f - 0.3f; });
            Buffer<> o4(Float(32), {pw, ph, C});
            if (with_load) {
                planar.schedule_breadth_first(16);
                planar.input.set(planar_in);
                rows.push_back(halo_row("halo: planar breadth-first " + std::to_string(pw) + "x" + std::to_string(ph) + ", 136 loops", planar.pool, o4));
            }
            std::string size = std::to_string(W) + " " + std::to_string(H) + " " + std::to_string(C);
            add_peer_rows(peer, rows, "cnn_block", {{"fused 8x8", "fused " + size + " 8 8"}, {"fused 64x32 (its best)", "fused " + size + " " + std::to_string(big_w) + " " + std::to_string(big_h)},
                                                    {"sliding strips of " + std::to_string(strip) + " rows", "sliding " + size + " " + std::to_string(strip)},
                                                    {"breadth-first", "breadth_first " + size},
                                                    {"Mullapudi2016 autoscheduler", "mullapudi2016 " + size}});
            double flops = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;
            report("cnn_block " + std::to_string(W) + "x" + std::to_string(H) + "x" + std::to_string(C) + " float", rows, rounds,
                   flops, "GFLOP/s");
        }
        if (want("conv_avgpool")) {
            const int W = quick ? 64 : 512, H = quick ? 32 : 512, C = 16;
            Buffer<float> in(2 * W + 2, 2 * H + 2, C);
            in.for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13 + p[2] * 29) % 101) / 101.0f - 0.3f; });
            apps::ConvAvgPool tiled(C, C), bf(C, C), ref(C, C);
            tiled.schedule_tiled(32, 8, 16);
            bf.schedule_breadth_first(16);
            tiled.input.set(in);
            bf.input.set(in);
            Buffer<> o1(Float(32), {W, H, C}), o2(Float(32), {W, H, C});
            Buffer<float> o3(W, H, C);
            std::vector<Row> rows = {halo_row("halo: conv at 32x8 pool tiles", tiled.pool, o1),
                                     halo_row("halo: breadth-first", bf.pool, o2)};
            rows.push_back(plain_row([&] { ref.plain(in, o3); }, o3));
            double flops = 2.0 * (2.0 * W) * (2.0 * H) * C * C * 9;
            report("conv 3x3 + bias + relu -> 2x2 avg pool, " + std::to_string(W) + "x" + std::to_string(H) + "x16 float", rows,
                   rounds, flops, "GFLOP/s");
        }
        if (want("int16_conv_add")) {
            const int W = quick ? 512 : 4096, H = quick ? 256 : 3072;
            Buffer<int16_t> in(W + 2, H + 2), res(W, H);
            in.for_each_value([](const std::vector<int> &p) { return int16_t((p[0] * 31 + p[1] * 17) % 2001 - 1000); });
            res.for_each_value([](const std::vector<int> &p) { return int16_t((p[0] * 13 + p[1] * 7) % 501 - 250); });
            apps::Int16ConvAdd tiled, bf, ref;
            tiled.schedule_tiled(256, 16, 32);
            bf.schedule_breadth_first(32);
            for (auto *a : {&tiled, &bf}) a->input.set(in), a->residual.set(res);
            Buffer<> o1(Int(16), {W, H}), o2(Int(16), {W, H});
            Buffer<int16_t> o3(W, H);
            std::vector<Row> rows = {halo_row("halo: conv at 256x16 tiles", tiled.output, o1),
                                     halo_row("halo: breadth-first", bf.output, o2)};
            rows.push_back(plain_row([&] { ref.plain(in, res, o3); }, o3));
            report("int16 conv 3x3 + add, " + std::to_string(W) + "x" + std::to_string(H), rows, rounds, 6.0 * W * H, "GB/s");
        }
        if (want("unsharp")) {
            const int W = quick ? 256 : 2560, H = quick ? 128 : 1920;
            Buffer<float> in = bench::unsharp_input(W, H);
            apps::Unsharp tiled, bf, automatic;
            tiled.schedule_tiled(256, 32, 16);
            bf.schedule_breadth_first(16);
            for (auto *a : {&tiled, &bf, &automatic}) a->input.set(in);
            Buffer<> o1(Float(32), {W, H, 3}), o2(Float(32), {W, H, 3}), o6(Float(32), {W, H, 3});
            Buffer<float> o3(W, H, 3);
            std::vector<Row> rows = {halo_row("halo: tiled 256x32", tiled.output, o1),
                                     halo_row("halo: breadth-first", bf.output, o2), halo_auto_row(automatic.output, o6)};
            rows.push_back(plain_row([&] { apps::Unsharp::plain(in, o3); }, o3));
            report("unsharp " + std::to_string(W) + "x" + std::to_string(H) + "x3 float", rows, rounds, 24.0 * W * H, "GB/s");
        }
        if (want("local_laplacian")) {
            const int W = quick ? 128 : 1536, H = quick ? 96 : 1024;
            Buffer<float> in(W, H, 3);
            in.for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13 + p[2] * 50) % 256) / 255.0f; });
            apps::LocalLaplacian tiled(8, 4, 1.0f, 1.0f), bf(8, 4, 1.0f, 1.0f), ref(8, 4, 1.0f, 1.0f),
                automatic(8, 4, 1.0f, 1.0f), strips(8, 4, 1.0f, 1.0f);
            tiled.schedule_tiled(64, 32, 8);
            bf.schedule_breadth_first(8);
            strips.schedule_fused_strips(64, 8);
            for (auto *a : {&tiled, &bf, &automatic, &strips}) a->input.set(in);
            Buffer<> o1(Float(32), {W, H, 3}), o2(Float(32), {W, H, 3}), o6(Float(32), {W, H, 3}),
                o7(Float(32), {W, H, 3});
            Buffer<float> o3(W, H, 3);
            std::vector<Row> rows = {halo_row("halo: collapse at 64x32 tiles", tiled.output, o1),
                                     halo_row("halo: collapse per strip of 64 rows", strips.output, o7),
                                     halo_row("halo: breadth-first", bf.output, o2), halo_auto_row(automatic.output, o6)};
            rows.push_back(plain_row([&] { ref.plain(in, o3); }, o3));
            report("local_laplacian " + std::to_string(W) + "x" + std::to_string(H) + "x3 float, 8 levels, 4 pyramid levels",
                   rows, std::max(1, rounds / 2), 24.0 * W * H, "GB/s");
        }
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
    return 0;
}
