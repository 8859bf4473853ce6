// Driver: unsharp mask on an RGB photograph, ahead-of-time compiled with the tiled and
// breadth-first schedules, checked against plain C++ loops.
// Usage: unsharp_run input.png output.png [repetitions]
#include "DriverUtil.h"
#include "runtime/HaloBuffer.h"
#include "unsharp.h"
#include "unsharp_breadth_first.h"
#include "unsharp_tiled.h"

int main(int argc, char **argv) {
    return apps::driver_main(argc, argv, [](const char *input_path, const char *output_path, int reps) {
        halo::Buffer<float> in = apps::load_rgb(input_path);
        const int W = in.width() - 4, H = in.height() - 4;
        halo::Buffer<float> tiled(W, H, 3), bf(W, H, 3), expected(W, H, 3);
        double t_tiled = apps::median_ms([&] { return unsharp_tiled(halo::aot::BufferRef(in), halo::aot::BufferRef(tiled)); }, reps);
        double t_bf = apps::median_ms([&] { return unsharp_breadth_first(halo::aot::BufferRef(in), halo::aot::BufferRef(bf)); }, reps);
        apps::Unsharp::plain(in, expected);
        halo::save_png(halo::from_float(tiled), output_path);
        double worst = std::max(apps::max_abs_difference(tiled, expected), apps::max_abs_difference(bf, expected));
        std::printf("unsharp: %s (%dx%d) -> %dx%dx3 float\n", input_path, in.width(), in.height(), W, H);
        return apps::report("unsharp", {{"halo tiled 256x32 (AOT)", t_tiled}, {"halo breadth-first (AOT)", t_bf}}, worst, 1e-5,
                            output_path);
    });
}
