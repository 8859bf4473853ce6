// The seeds' CNN block (conv -> relu -> conv -> relu -> 2x2 max pool, 32 channels), breadth-first
// against fused overlapped tiles, in the same run. Usage: cnn_bench [out_w out_h channels rounds]
#include <cstdio>
#include <cstdlib>

#include "BenchUtil.h"
#include "cnn_block.h"

int main(int argc, char **argv) {
    using namespace halo;
    int W = argc > 1 ? std::atoi(argv[1]) : 256, H = argc > 2 ? std::atoi(argv[2]) : 256;
    int C = argc > 3 ? std::atoi(argv[3]) : 32, rounds = argc > 4 ? std::atoi(argv[4]) : 7;
    Buffer<float> in(2 * W + 4, 2 * H + 4, C);
    in.for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13 + p[2] * 29) % 101) / 101.0f - 0.3f; });
    apps::CnnBlock bf(C), fused(C), blocked(C, apps::CnnBlock::Layout::ChannelsInnermost),
        bf_blocked(C, apps::CnnBlock::Layout::ChannelsInnermost);
    bf.schedule_breadth_first();
    bf_blocked.schedule_breadth_first_blocked();
    fused.schedule_fused();
    blocked.schedule_fused_blocked();
    // The same input with channels innermost.
    Buffer<float> in_c(C, 2 * W + 4, 2 * H + 4);
    in_c.for_each_value([&](const std::vector<int> &p) { return in(p[1], p[2], p[0]); });
    bf.input.set(in);
    fused.input.set(in);
    blocked.input.set(in_c);
    bf_blocked.input.set(in_c);
    double bf_compile = bench::time_ms([&] { bf.pool.compile_jit(); });
    double fused_compile = bench::time_ms([&] { fused.pool.compile_jit(); });
    double blocked_compile = bench::time_ms([&] { blocked.pool.compile_jit(); });
    bf_blocked.pool.compile_jit();
    Buffer<float> out_bf(W, H, C), out_fused(W, H, C), out_blocked(C, W, H), out_bf_blocked(C, W, H);
    std::vector<bench::Case> cases = {
        {"breadth-first (every stage at root)", [&] { bf.pool.realize(out_bf); }, {}},
        {"fused (convs at 32x32 pool tiles)", [&] { fused.pool.realize(out_fused); }, {}},
        {"breadth-first, channels innermost, blocked", [&] { bf_blocked.pool.realize(out_bf_blocked); }, {}},
        {"fused, channels innermost, 8px x 32ch blocks", [&] { blocked.pool.realize(out_blocked); }, {}},
    };
    bench::run_interleaved(cases, rounds);
    double worst = 0;
    out_bf.for_each_element([&](const std::vector<int> &c) {
        worst = std::max(worst, bench::value_difference(out_bf(c), out_fused(c)));
        worst = std::max(worst, bench::value_difference(out_bf(c), out_blocked(c[2], c[0], c[1])));
        worst = std::max(worst, bench::value_difference(out_bf(c), out_bf_blocked(c[2], c[0], c[1])));
    });
    double flops = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;  // both convs, dominant term
    std::printf("cnn block %dx%dx%d (input %dx%dx%d), %d rounds\n", W, H, C, 2 * W + 4, 2 * H + 4, C, rounds);
    std::printf("JIT compile: breadth-first %.0f ms, fused %.0f ms, blocked %.0f ms\n", bf_compile, fused_compile,
                blocked_compile);
    std::printf("%-48s %10s %10s %10s\n", "schedule", "median ms", "min ms", "GFLOP/s");
    for (auto &c : cases) std::printf("%-48s %10.2f %10.2f %10.1f\n", c.name.c_str(), c.median(), c.min(), flops / c.median() / 1e6);
    std::printf("planar: breadth-first / fused %.2fx; channels innermost: breadth-first / fused %.2fx; "
                "max |difference| = %.2e\n",
                cases[0].median() / cases[1].median(), cases[2].median() / cases[3].median(), worst);
    for (auto *net : {&bf, &fused, &bf_blocked, &blocked}) {
        RedundancyReport r = redundancy_report(net->pool, net->image_shape(W, H));
        std::printf("%s: conv1 recompute factor %.3f, conv1 buffer %lld bytes x %lld allocations\n",
                    net == &bf ? "breadth-first" : net == &fused ? "fused" : net == &bf_blocked ? "breadth-first blocked" : "fused blocked",
                    r.find("conv1")->factor,
                    (long long)r.find("conv1")->buffer_bytes, (long long)r.find("conv1")->allocations);
    }
    return 0;
}
