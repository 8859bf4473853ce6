// Driver: local Laplacian filter (detail enhancement) on an RGB photograph, ahead-of-time
// compiled with the tiled and breadth-first schedules (8 levels, 4 pyramid levels, alpha 1,
// beta 1), checked against plain C++ pyramids.
// Usage: local_laplacian_run input.png output.png [repetitions]
#include "DriverUtil.h"
#include "local_laplacian.h"
#include "local_laplacian_breadth_first.h"
#include "local_laplacian_tiled.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    return apps::driver_main(argc, argv, [](const char *input_path, const char *output_path, int reps) {
        halo::Buffer<float> in = apps::load_rgb(input_path);
        const int W = in.width(), H = in.height();
        halo::Buffer<float> tiled(W, H, 3), bf(W, H, 3), expected(W, H, 3);
        double t_tiled = apps::median_ms(
            [&] { return local_laplacian_tiled(halo::aot::BufferRef(in), halo::aot::BufferRef(tiled)); }, reps);
        double t_bf = apps::median_ms(
            [&] { return local_laplacian_breadth_first(halo::aot::BufferRef(in), halo::aot::BufferRef(bf)); }, reps);
        apps::LocalLaplacian(8, 4, 1.0f, 1.0f).plain(in, expected);
        halo::save_png(halo::from_float(tiled), output_path);
        double worst = std::max(apps::max_abs_difference(tiled, expected), apps::max_abs_difference(bf, expected));
        std::printf("local_laplacian: %s (%dx%d), 8 levels, 4 pyramid levels\n", input_path, W, H);
        return apps::report("local_laplacian", {{"halo tiled 64x32 (AOT)", t_tiled}, {"halo breadth-first (AOT)", t_bf}},
                            worst, 1e-4, output_path);
    });
}
