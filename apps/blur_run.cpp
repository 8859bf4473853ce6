// Driver: 3x3 box blur on a photograph's luma as uint16, ahead-of-time compiled with the tiled
// and breadth-first schedules, checked exactly against plain C++ loops.
// Usage: blur_run input.png output.png [repetitions]
#include "DriverUtil.h"
#include "blur.h"
#include "blur_breadth_first.h"
#include "blur_tiled.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    return apps::driver_main(argc, argv, [](const char *input_path, const char *output_path, int reps) {
        halo::Buffer<float> gray = apps::load_gray(input_path);
        halo::Buffer<uint16_t> in(gray.width(), gray.height());
        in.for_each_value([&](const std::vector<int> &p) { return uint16_t(std::lround(gray(p) * 65535.0f)); });
        const int W = in.width() - 2, H = in.height() - 2;
        halo::Buffer<uint16_t> tiled(W, H), bf(W, H), expected(W, H);
        double t_tiled = apps::median_ms([&] { return blur_tiled(halo::aot::BufferRef(in), halo::aot::BufferRef(tiled)); }, reps);
        double t_bf = apps::median_ms([&] { return blur_breadth_first(halo::aot::BufferRef(in), halo::aot::BufferRef(bf)); }, reps);
        apps::Blur::plain(in, expected);
        halo::save_png(tiled, output_path);
        double worst = std::max(apps::max_abs_difference(tiled, expected), apps::max_abs_difference(bf, expected));
        std::printf("blur: %s (%dx%d) -> %dx%d uint16\n", input_path, in.width(), in.height(), W, H);
        return apps::report("blur", {{"halo tiled 256x32 (AOT)", t_tiled}, {"halo breadth-first (AOT)", t_bf}}, worst, 0, output_path);
    });
}
