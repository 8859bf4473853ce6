// Driver: local Laplacian filter (detail enhancement) on an RGB photograph, ahead-of-time
// compiled with the tiled and breadth-first schedules (8 levels, 4 pyramid levels, alpha 1,
// beta 1), checked against plain C++ pyramids.
// Usage: local_laplacian_run input.png output.png [repetitions]
#include <cstdlib>

#include "DriverUtil.h"
#include "local_laplacian.h"
#include "local_laplacian_breadth_first.h"
#include "local_laplacian_tiled.h"
#include "runtime/HaloBuffer.h"

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s input.png output.png [repetitions]\n", argv[0]);
        return 2;
    }
    int reps = argc > 3 ? std::atoi(argv[3]) : 10;
    try {
        halo::Buffer<float> in = apps::load_rgb(argv[1]);
        const int W = in.width(), H = in.height();
        halo::Buffer<float> tiled(W, H, 3), bf(W, H, 3), expected(W, H, 3);
        double t_tiled = apps::median_ms(
            [&] { return local_laplacian_tiled(halo::aot::BufferRef(in), halo::aot::BufferRef(tiled)); }, reps);
        double t_bf = apps::median_ms(
            [&] { return local_laplacian_breadth_first(halo::aot::BufferRef(in), halo::aot::BufferRef(bf)); }, reps);
        apps::LocalLaplacian(8, 4, 1.0f, 1.0f).plain(in, expected);
        halo::save_png(halo::from_float(tiled), argv[2]);
        double worst = std::max(apps::max_abs_difference(tiled, expected), apps::max_abs_difference(bf, expected));
        std::printf("local_laplacian: %s (%dx%d), 8 levels, 4 pyramid levels\n", argv[1], W, H);
        return apps::report("local_laplacian", {{"halo tiled 64x32 (AOT)", t_tiled}, {"halo breadth-first (AOT)", t_bf}},
                            worst, 1e-4, argv[2]);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}
