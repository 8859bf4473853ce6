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
    apps::CnnBlock bf(C), fused(C);
    bf.schedule_breadth_first();
    fused.schedule_fused();
    bf.input.set(in);
    fused.input.set(in);
    double bf_compile = bench::time_ms([&] { bf.pool.compile_jit(); });
    double fused_compile = bench::time_ms([&] { fused.pool.compile_jit(); });
    Buffer<float> out_bf(W, H, C), out_fused(W, H, C);
    std::vector<bench::Case> cases = {
        {"breadth-first (every stage at root)", [&] { bf.pool.realize(out_bf); }, {}},
        {"fused (convs at 32x32 pool tiles)", [&] { fused.pool.realize(out_fused); }, {}},
    };
    bench::run_interleaved(cases, rounds);
    double worst = 0;
    out_bf.for_each_element([&](const std::vector<int> &c) { worst = std::max(worst, double(std::fabs(out_bf(c) - out_fused(c)))); });
    double flops = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;  // both convs, dominant term
    std::printf("cnn block %dx%dx%d (input %dx%dx%d), %d rounds\n", W, H, C, 2 * W + 4, 2 * H + 4, C, rounds);
    std::printf("JIT compile: breadth-first %.0f ms, fused %.0f ms\n", bf_compile, fused_compile);
    std::printf("%-40s %10s %10s %10s\n", "schedule", "median ms", "min ms", "GFLOP/s");
    for (auto &c : cases) std::printf("%-40s %10.2f %10.2f %10.1f\n", c.name.c_str(), c.median(), c.min(), flops / c.median() / 1e6);
    std::printf("breadth-first / fused: %.2fx; max |difference| = %.2e\n", cases[0].median() / cases[1].median(), worst);
    return 0;
}
