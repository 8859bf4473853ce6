// Driver: the seeds' CNN block (conv 3x3 -> relu -> conv 3x3 -> relu -> 2x2 max pool, 32
// channels) on a photograph. The RGB pixels become 32 channels through a fixed 1x1 "lift"
// convolution; the block runs ahead-of-time compiled with the fused schedule (8x8 and 64x32
// tiles of the pool output) and breadth-first, and is checked against plain C++ loops. The
// picture shows the three most varied of the 32 output channels as red, green and blue.
// Usage: cnn_block_run input.png output.png [repetitions]
#include "DriverUtil.h"
#include "cnn_block.h"
#include "cnn_block_blocked.h"
#include "cnn_block_blocked_64x32.h"
#include "cnn_block_breadth_first_blocked.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    return apps::driver_main(argc, argv, [](const char *input_path, const char *output_path, int reps) {
        const int C = 32;
        halo::Buffer<float> rgb = apps::load_rgb(input_path);
        const int W = (rgb.width() - 4) / 2, H = (rgb.height() - 4) / 2;
        if (W < 1 || H < 1) throw std::runtime_error(std::string(input_path) + " is too small (need at least 6x6 pixels)");
        // The 1x1 lift: channel c mixes R, G and B with fixed weights.
        halo::Buffer<float> in(C, 2 * W + 4, 2 * H + 4);
        in.for_each_value([&](const std::vector<int> &p) {
            int c = p[0];
            float v = 0;
            for (int k = 0; k < 3; k++) v += float(std::sin(1.3 * c + 2.1 * k + 0.4)) * rgb(p[1], p[2], k);
            return v;
        });
        halo::Buffer<float> fused8(C, W, H), fused64(C, W, H), bf(C, W, H), expected(C, W, H);
        using halo::aot::BufferRef;
        double t8 = apps::median_ms([&] { return cnn_block_blocked(BufferRef(in), BufferRef(fused8)); }, reps);
        double t64 = apps::median_ms([&] { return cnn_block_blocked_64x32(BufferRef(in), BufferRef(fused64)); }, reps);
        double tbf = apps::median_ms([&] { return cnn_block_breadth_first_blocked(BufferRef(in), BufferRef(bf)); }, reps);
        apps::CnnBlock(C, apps::CnnBlock::Layout::ChannelsInnermost).plain(in, expected);
        // The three channels that vary most, as red, green and blue, each stretched to its range.
        std::vector<float> lo(C, 1e30f), hi(C, -1e30f);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                for (int c = 0; c < C; c++) lo[c] = std::min(lo[c], fused64(c, x, y)), hi[c] = std::max(hi[c], fused64(c, x, y));
        std::vector<int> order(C);
        for (int c = 0; c < C; c++) order[c] = c;
        std::sort(order.begin(), order.end(), [&](int a, int b) { return hi[a] - lo[a] > hi[b] - lo[b]; });
        halo::Buffer<uint8_t> picture(W, H, 3);
        picture.for_each_value([&](const std::vector<int> &p) {
            int c = order[p[2]];
            float range = std::max(hi[c] - lo[c], 1e-12f);
            return uint8_t(std::lround(255.0f * (fused64(c, p[0], p[1]) - lo[c]) / range));
        });
        halo::save_png(picture, output_path);
        double worst = std::max({apps::max_abs_difference(fused8, expected), apps::max_abs_difference(fused64, expected),
                                 apps::max_abs_difference(bf, expected)});
        double gflop = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9 / 1e9;
        std::printf("cnn_block: %s (%dx%d RGB, lifted to %d channels) -> %dx%dx%d float, %.2f GFLOP\n", input_path,
                    rgb.width(), rgb.height(), C, W, H, C, gflop);
        return apps::report("cnn_block",
                            {{"halo fused 8x8 tiles (AOT)", t8}, {"halo fused 64x32 tiles (AOT)", t64},
                             {"halo breadth-first (AOT)", tbf}},
                            worst, 1e-4, output_path);
    });
}
