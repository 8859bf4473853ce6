// Demo: the seeds' conv + bias + relu on a photograph, checked against plain C++ loops.
// Usage: conv_demo input.png output.png
#include <chrono>
#include <cstdio>

#include "DriverUtil.h"
#include "conv_relu.h"

using namespace halo;

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s input.png output.png\n", argv[0]);
        return 2;
    }
    try {
        Buffer<float> photo = to_float(load_png_u8(argv[1]));
        if (photo.dimensions() != 3 || photo.channels() < 3) {
            std::fprintf(stderr, "%s: need an RGB image\n", argv[1]);
            return 2;
        }
        apps::ConvRelu net;
        net.schedule();
        net.input.set(photo);
        auto t0 = std::chrono::steady_clock::now();
        net.relu.compile_jit();
        double compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        int W = photo.width() - 2, H = photo.height() - 2;
        Buffer<float> out = net.relu.realize({W, H, apps::ConvRelu::out_channels});
        Buffer<float> expected(W, H, apps::ConvRelu::out_channels);
        net.plain(photo, expected);
        double worst = 0;
        out.for_each_element([&](const std::vector<int> &c) {
            worst = std::max(worst, apps::value_difference(out(c), expected(c)));
        });
        // Channels 0, 4 and 8 as an RGB picture, scaled to the brightest value.
        float peak = 1e-6f;
        out.for_each_element([&](const std::vector<int> &c) { peak = std::max(peak, out(c)); });
        Buffer<uint8_t> picture(W, H, 3);
        picture.for_each_value([&](const std::vector<int> &c) {
            return uint8_t(std::lround(255.0f * out(c[0], c[1], c[2] * 4) / peak));
        });
        save_png(picture, argv[2]);
        std::printf("conv 3x3 (3 -> 10 channels) + bias + relu on %s (%dx%d)\n", argv[1], photo.width(), photo.height());
        std::printf("JIT compile: %.1f ms; max |halo - plain C++| = %.2e; wrote %s\n", compile_ms, worst, argv[2]);
        return worst <= 1e-4 ? 0 : 1;
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
