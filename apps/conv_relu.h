// The seeds' first example: a valid 3x3 convolution (3 -> 10 channels) + bias + relu, as a
// Halo pipeline and as plain C++ loops (the reference the demo and benchmark check against).
#pragma once

#include <cmath>

#include "dsl/Halo.h"

namespace apps {

struct ConvRelu {
    static constexpr int in_channels = 3, out_channels = 10, k = 3;
    halo::ImageParam input;
    halo::Buffer<float> weights{k, k, in_channels, out_channels};  // w(kx, ky, ci, co)
    halo::Buffer<float> bias{out_channels};
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func conv{"conv"}, relu{"relu"};

    explicit ConvRelu(halo::ImageParam in = halo::ImageParam(halo::Float(32), 3, "input")) : input(in) {
        using namespace halo;
        // Fixed, varied filters: edge detectors, blurs and colour mixes.
        weights.for_each_value([](const std::vector<int> &p) {
            int kx = p[0], ky = p[1], ci = p[2], co = p[3];
            return float(std::sin(0.7 * kx + 1.3 * ky + 0.5 * ci + 2.1 * co) * 0.35);
        });
        bias.for_each_value([](const std::vector<int> &p) { return float(0.05 * (p[0] % 3) - 0.05); });
        RDom r(0, k, 0, k, 0, in_channels, "r");
        conv(x, y, c) = bias(c) + sum(weights(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z));
        relu(x, y, c) = max(conv(x, y, c), 0.0f);
    }

    // Breadth-first: the convolution at the root, vectorized over x, rows in parallel.
    void schedule() {
        halo::Var xo("xo"), xi("xi");
        conv.compute_root().split(x, xo, xi, 8).vectorize(xi).parallel(c);
        relu.split(x, xo, xi, 8).vectorize(xi).parallel(c);
    }

    // The same computation as plain loops over dense buffers (mins 0): out(x, y, co).
    void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const {
        const int W = out.width(), H = out.height(), IW = in.width(), IH = in.height();
        const float *ip = in.data(), *wp = weights.data(), *bp = bias.data();
        float *op = out.data();
        for (int co = 0; co < out_channels; co++) {
            for (int yy = 0; yy < H; yy++) {
                for (int xx = 0; xx < W; xx++) {
                    float acc = 0;
                    for (int ci = 0; ci < in_channels; ci++)
                        for (int ky = 0; ky < k; ky++)
                            for (int kx = 0; kx < k; kx++)
                                acc += wp[((co * in_channels + ci) * k + ky) * k + kx] *
                                       ip[(size_t(ci) * IH + yy + ky) * IW + xx + kx];
                    op[(size_t(co) * H + yy) * W + xx] = std::max(bp[co] + acc, 0.0f);
                }
            }
        }
    }
};

}  // namespace apps
