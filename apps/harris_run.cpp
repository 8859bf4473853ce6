// Driver: Harris corner response of a photograph's luma, ahead-of-time compiled with the tiled
// and breadth-first schedules, checked against plain C++ loops. The output picture shows the
// corner response (bright = corner) on a log scale.
// Usage: harris_run input.png output.png [repetitions]
#include "DriverUtil.h"
#include "harris.h"
#include "harris_breadth_first.h"
#include "harris_tiled.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    return apps::driver_main(argc, argv, [](const char *input_path, const char *output_path, int reps) {
        halo::Buffer<float> in = apps::load_gray(input_path);
        const int W = in.width() - 4, H = in.height() - 4;
        halo::Buffer<float> tiled(W, H), bf(W, H), expected(W, H);
        double t_tiled = apps::median_ms([&] { return harris_tiled(halo::aot::BufferRef(in), halo::aot::BufferRef(tiled)); }, reps);
        double t_bf = apps::median_ms([&] { return harris_breadth_first(halo::aot::BufferRef(in), halo::aot::BufferRef(bf)); }, reps);
        apps::Harris::plain(in, expected);
        double peak = 1e-12;
        expected.for_each_element([&](const std::vector<int> &c) { peak = std::max(peak, double(std::fabs(expected(c)))); });
        halo::Buffer<uint8_t> picture(W, H);
        picture.for_each_value([&](const std::vector<int> &c) {
            double v = std::max(0.0, double(tiled(c))) / peak;
            return uint8_t(std::lround(255.0 * std::log1p(1000.0 * v) / std::log1p(1000.0)));
        });
        halo::save_png(picture, output_path);
        // Floats: the tolerance is relative to the largest response.
        double worst = std::max(apps::max_abs_difference(tiled, expected), apps::max_abs_difference(bf, expected)) / peak;
        std::printf("harris: %s (%dx%d) -> %dx%d float\n", input_path, in.width(), in.height(), W, H);
        return apps::report("harris", {{"halo tiled 256x32 (AOT)", t_tiled}, {"halo breadth-first (AOT)", t_bf}}, worst, 1e-5,
                            output_path);
    });
}
