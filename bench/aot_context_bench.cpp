// An ahead-of-time compiled pipeline called with and without a context, in one run: the
// breadth-first CNN block (cnn_block, schedule=breadth_first_blocked: both convolutions
// realized at root, channels innermost), whose plain entry point mallocs and frees its intermediates on every call, while the
// _with_context entry point takes them from the context's arena after the first call. Also
// the JIT of the same generator, whose pipeline has an arena of its own.
//   aot_context_bench [out_w out_h rounds]
#include <cstdio>
#include <cstdlib>

#include "BenchUtil.h"
#include "Halo.h"
#include "app_generators.h"
#include "cnn_block_breadth_first_blocked.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    using namespace halo;
    int W = argc > 1 ? std::atoi(argv[1]) : 256, H = argc > 2 ? std::atoi(argv[2]) : 256;
    int rounds = argc > 3 ? std::atoi(argv[3]) : 15;
    const int C = 32;
    Buffer<float> in(C, 2 * W + 4, 2 * H + 4);
    in.for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13 + p[2] * 29) % 101) / 101.0f - 0.3f; });
    Buffer<float> out_plain(C, W, H), out_context(C, W, H), out_jit(C, W, H);
    aot::BufferRef input(in), plain(out_plain), with(out_context);
    aot::Context context;
    apps::CnnBlockGenerator generator;
    generator.set_param("schedule", "breadth_first_blocked");
    Func jit = generator.build();
    generator.input.set(in);
    jit.compile_jit();
    int failures = 0;
    std::vector<bench::Case> cases = {
        {"AOT, no context (malloc/free per call)", [&] { failures += cnn_block_breadth_first_blocked(input, plain) != 0; }, {}},
        {"AOT, with a context (arena)", [&] { failures += cnn_block_breadth_first_blocked_with_context(context, input, with) != 0; }, {}},
        {"JIT (the pipeline's arena)", [&] { jit.realize(out_jit); }, {}},
    };
    bench::run_interleaved(cases, rounds);
    if (failures) {
        std::fprintf(stderr, "aot_context_bench: %d calls failed: %s\n", failures, context.last_error().c_str());
        return 1;
    }
    double worst = 0;
    out_plain.for_each_element([&](const std::vector<int> &c) {
        worst = std::max(worst, bench::value_difference(out_plain(c), out_context(c)));
        worst = std::max(worst, bench::value_difference(out_plain(c), out_jit(c)));
    });
    std::printf("cnn_block breadth-first, channels innermost %dx%dx%d, %d rounds; context arena holds %.1f MiB\n", W, H, C, rounds,
                context.arena_bytes() / 1048576.0);
    std::printf("%-42s %10s %10s %8s\n", "call", "median ms", "min ms", "ratio");
    for (auto &c : cases) {
        std::printf("%-42s %10.2f %10.2f %8.2f\n", c.name.c_str(), c.median(), c.min(), c.median() / cases[0].median());
    }
    std::printf("max |difference| between the three = %.2e\n", worst);
    return worst == 0 ? 0 : 1;
}
