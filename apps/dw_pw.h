// A depthwise-separable block, channels innermost (c, x, y): a depthwise 3x3 convolution (each
// channel with its own filter) + bias + relu, then a pointwise 1x1 convolution (C -> C) + bias
// + relu, valid region. Output W x H x C needs an input (W + 2) x (H + 2) x C. Few operations per
// byte: breadth-first is memory-bound, which is where fusing at tiles pays.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct DepthwisePointwise {
    int channels;
    halo::ImageParam input;
    halo::Buffer<float> w_dw, b_dw, w_pw, b_pw;  // w_dw(c, kx, ky), w_pw(co, ci)
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func dw{"depthwise"}, relu1{"relu1"}, pw{"pointwise"}, output{"dw_pw"};

    explicit DepthwisePointwise(int channels_ = 32, halo::ImageParam in = halo::ImageParam(halo::Float(32), 3, "input"))
        : channels(channels_), input(in), w_dw(channels_, 3, 3), b_dw(channels_), w_pw(channels_, channels_), b_pw(channels_) {
        using namespace halo;
        w_dw.for_each_value([](const std::vector<int> &p) { return float(std::cos(0.3 * p[0] + 0.8 * p[1] + 1.1 * p[2]) / 4.0); });
        w_pw.for_each_value([&](const std::vector<int> &p) { return float(std::sin(0.37 * p[0] + 0.61 * p[1]) / channels); });
        b_dw.for_each_value([](const std::vector<int> &p) { return float(0.01 * (p[0] % 4)); });
        b_pw.for_each_value([](const std::vector<int> &p) { return float(0.02 * (p[0] % 3) - 0.01); });
        Expr acc = b_dw(c);
        for (int ky = 0; ky < 3; ky++)
            for (int kx = 0; kx < 3; kx++) acc = acc + w_dw(c, kx, ky) * input(c, x + kx, y + ky);
        dw(c, x, y) = acc;
        relu1(c, x, y) = max(dw(c, x, y), 0.0f);
        RDom r(0, channels, "r");
        pw(c, x, y) = b_pw(c);
        pw(c, x, y) += w_pw(c, r) * relu1(r, x, y);
        output(c, x, y) = max(pw(c, x, y), 0.0f);
    }

    // Both convolutions at the root (the depthwise result stored whole), channels vectorized.
    void schedule_breadth_first(int vec = 16, int block_x = 8) {
        output.bound(c, 0, channels).vectorize(c, vec).parallel(y);
        relu1.compute_root().bound(c, 0, channels).vectorize(c, vec).parallel(y);
        pw.compute_root().vectorize(c, vec).parallel(y);
        block(vec, block_x);
        pw.update().parallel(y);
    }

    // The depthwise stage computed per tile of the output (one pixel of halo recomputed).
    void schedule_tiled(int tile_w = 32, int tile_h = 8, int vec = 16, int block_x = 8) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.bound(c, 0, channels).split(x, xo, xi, tile_w).split(y, yo, yi, tile_h).reorder(c, xi, yi, xo, yo);
        output.vectorize(c, vec).parallel(yo);
        relu1.compute_at(output, xo).vectorize(c, vec);
        pw.compute_at(output, xo).vectorize(c, vec);
        block(vec, block_x);
    }

    // Plain C++ loops (one thread), dense buffers with mins 0: in (C, W + 2, H + 2), out (C, W, H).
    void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const {
        const int C = channels, W = out.dim(1).extent(), H = out.dim(2).extent(), IW = W + 2;
        std::vector<float> mid(static_cast<size_t>(C));
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) {
                for (int ch = 0; ch < C; ch++) {
                    float acc = b_dw.data()[ch];
                    for (int ky = 0; ky < 3; ky++)
                        for (int kx = 0; kx < 3; kx++)
                            acc = acc + w_dw.data()[(ky * 3 + kx) * C + ch] * in.data()[(size_t(yy + ky) * IW + xx + kx) * C + ch];
                    mid[ch] = std::max(acc, 0.0f);
                }
                for (int co = 0; co < C; co++) {
                    float acc = b_pw.data()[co];
                    for (int ci = 0; ci < C; ci++) acc += w_pw.data()[size_t(ci) * C + co] * mid[ci];
                    out.data()[(size_t(yy) * W + xx) * C + co] = std::max(acc, 0.0f);
                }
            }
    }

private:
    // The pointwise update as a register block: channels in the vector lanes, block_x pixels.
    void block(int vec, int block_x) {
        using namespace halo;
        Var co("co"), ci("ci"), bxo("bxo"), bxi("bxi");
        RVar r(pw.function()->updates[0].rdom->vars[0].name);
        pw.update()
            .split(c, co, ci, vec, TailStrategy::RoundUp)
            .split(x, bxo, bxi, block_x, TailStrategy::GuardWithIf)
            .reorder({ci, co, bxi, r, bxo, y})
            .vectorize(ci)
            .unroll(co)
            .unroll(bxi);
    }
};

}  // namespace apps
