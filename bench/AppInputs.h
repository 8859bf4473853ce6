// The benchmarks' synthetic inputs, one definition per app, shared by app_bench and the sweep.
// The Halide peer (bench/halide_peer/halide_peer.cpp, a separate program) builds the same
// inputs for blur, harris and cnn_block, so that the outputs' checksums can be compared.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "dsl/Halo.h"

namespace bench {

// (W + 8) x (H + 2) uint16 for a W x H blur (the 6408 x 4802 for 6400 x 4800).
inline halo::Buffer<uint16_t> blur_input(int W, int H) {
    halo::Buffer<uint16_t> in(W + 8, H + 2);
    for (int y = 0; y < H + 2; y++)
        for (int x = 0; x < W + 8; x++) in(x, y) = uint16_t((x * 31 + y * 17) & 0xffff);
    return in;
}

// (W + 4) x (H + 4) float gray for a W x H Harris response.
inline halo::Buffer<float> harris_input(int W, int H) {
    halo::Buffer<float> in(W + 4, H + 4);
    for (int y = 0; y < H + 4; y++)
        for (int x = 0; x < W + 4; x++) in(x, y) = float((x * 7 + y * 13) % 256) / 255.0f;
    return in;
}

// A channels-innermost (C, x, y) image of the given size, for the CNN blocks.
inline halo::Buffer<float> channels_innermost_input(int C, int width, int height) {
    halo::Buffer<float> in(C, width, height);
    in.for_each_value([](const std::vector<int> &p) { return float((p[1] * 7 + p[2] * 13 + p[0] * 29) % 101) / 101.0f - 0.3f; });
    return in;
}

// A smooth RGB image (W + 4) x (H + 4) x 3 for a W x H unsharp mask (a sawtooth would saturate it).
inline halo::Buffer<float> unsharp_input(int W, int H) {
    halo::Buffer<float> in(W + 4, H + 4, 3);
    in.for_each_value([](const std::vector<int> &p) {
        return float(0.5 + 0.3 * std::sin(0.05 * p[0] + p[2]) * std::cos(0.07 * p[1]) + 0.1 * ((p[0] * 7 + p[1] * 13) % 5) / 5.0);
    });
    return in;
}

}  // namespace bench
