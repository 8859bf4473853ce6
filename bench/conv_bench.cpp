// The seeds' conv + bias + relu: JIT compile time, and Halo against plain C++ loops in the
// same run (medians of interleaved rounds). Usage: conv_bench [width height [rounds]]
#include <cstdio>
#include <cstdlib>

#include "BenchUtil.h"
#include "conv_relu.h"

int main(int argc, char **argv) {
    using namespace halo;
    int W = argc > 2 ? std::atoi(argv[1]) : 1024, H = argc > 2 ? std::atoi(argv[2]) : 768;
    int rounds = argc > 3 ? std::atoi(argv[3]) : 15;
    Buffer<float> in(W + 2, H + 2, 3);
    in.for_each_value([](const std::vector<int> &c) { return float((c[0] * 7 + c[1] * 13 + c[2] * 29) % 101) / 101.0f; });
    apps::ConvRelu net;
    net.schedule();
    net.input.set(in);
    double compile_ms = bench::time_ms([&] { net.relu.compile_jit(); });
    Buffer<float> out(W, H, apps::ConvRelu::out_channels), expected(W, H, apps::ConvRelu::out_channels);
    std::vector<bench::Case> cases = {
        {"halo (conv at root, vectorized x8, parallel over channels)", [&] { net.relu.realize(out); }, {}},
        {"plain C++ loops (g++ -O2, one thread)", [&] { net.plain(in, expected); }, {}},
    };
    bench::run_interleaved(cases, rounds);
    double worst = 0;
    out.for_each_element([&](const std::vector<int> &c) { worst = std::max(worst, bench::value_difference(out(c), expected(c))); });
    double flops = 2.0 * W * H * apps::ConvRelu::out_channels * 27;
    std::printf("conv 3x3 3->10 + bias + relu, output %dx%dx10, %d rounds\n", W, H, rounds);
    std::printf("JIT compile time: %.1f ms\n", compile_ms);
    std::printf("%-60s %10s %10s %10s\n", "case", "median ms", "min ms", "GFLOP/s");
    for (auto &c : cases) std::printf("%-60s %10.2f %10.2f %10.1f\n", c.name.c_str(), c.median(), c.min(), flops / c.median() / 1e6);
    std::printf("plain / halo (median): %.1fx; max |difference| = %.2e\n", cases[1].median() / cases[0].median(), worst);
    return worst <= 1e-3 ? 0 : 1;
}
