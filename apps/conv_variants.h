// Two variants of the CNN block's layers, planar (x, y, c) layout:
//  * ConvAvgPool: one layer, conv 3x3 (C_in -> C_out) + bias + relu, then a 2x2 average pool
//    with stride 2 (float). Output W x H x C_out needs an input (2W + 2) x (2H + 2) x C_in.
//  * Int16ConvAdd: a 3x3 int16 convolution (wrapping int16 arithmetic, as in C with int16_t
//    casts) plus an int16 residual image. Output W x H needs an input (W + 2) x (H + 2) and a
//    residual W x H.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct ConvAvgPool {
    int in_channels, out_channels;
    halo::ImageParam input;
    halo::Buffer<float> w, b;  // w(kx, ky, ci, co), b(co)
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func conv{"conv"}, relu{"relu"}, pool{"avg_pool"};

    explicit ConvAvgPool(int cin = 16, int cout = 16, halo::ImageParam in = halo::ImageParam(halo::Float(32), 3, "input"))
        : in_channels(cin), out_channels(cout), input(in), w(3, 3, cin, cout), b(cout) {
        using namespace halo;
        w.for_each_value([&](const std::vector<int> &p) {
            return float(std::sin(0.3 + 0.9 * p[0] + 1.7 * p[1] + 0.31 * p[2] + 0.57 * p[3]) / (3.0 * cin));
        });
        b.for_each_value([](const std::vector<int> &p) { return float(0.01 * (p[0] % 5) - 0.02); });
        RDom r(0, 3, 0, 3, 0, cin, "r");
        conv(x, y, c) = b(c);
        conv(x, y, c) += w(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z);
        relu(x, y, c) = max(conv(x, y, c), 0.0f);
        pool(x, y, c) = ((relu(2 * x, 2 * y, c) + relu(2 * x + 1, 2 * y, c)) + (relu(2 * x, 2 * y + 1, c) + relu(2 * x + 1, 2 * y + 1, c))) * 0.25f;
    }

    void schedule_breadth_first(int vec = 16) {
        using namespace halo;
        conv.compute_root().vectorize(x, vec).parallel(y);
        conv.update().vectorize(x, vec, TailStrategy::GuardWithIf).parallel(y);
        pool.vectorize(x, vec).parallel(y);
    }

    // The convolution per tile of the pool output (no halo: the pool's windows do not overlap).
    void schedule_tiled(int tile_w = 32, int tile_h = 8, int vec = 16) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        pool.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).reorder(xi, yi, c, xo, yo).vectorize(xi, vec).parallel(yo);
        conv.compute_at(pool, xo).vectorize(x, vec);
        conv.update().vectorize(x, vec, TailStrategy::GuardWithIf);
    }

    // Plain C++ loops (one thread), dense buffers with mins 0.
    void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const {
        const int W = out.width(), H = out.height(), CW = 2 * W, CH = 2 * H;
        std::vector<float> r(size_t(CW) * CH);
        for (int co = 0; co < out_channels; co++) {
            for (int yy = 0; yy < CH; yy++)
                for (int xx = 0; xx < CW; xx++) {
                    float acc = b.data()[co];
                    for (int ci = 0; ci < in_channels; ci++)
                        for (int ky = 0; ky < 3; ky++)
                            for (int kx = 0; kx < 3; kx++)
                                acc += w.data()[((size_t(co) * in_channels + ci) * 3 + ky) * 3 + kx] *
                                       in.data()[(size_t(ci) * in.height() + yy + ky) * in.width() + xx + kx];
                    r[size_t(yy) * CW + xx] = std::max(acc, 0.0f);
                }
            for (int yy = 0; yy < H; yy++)
                for (int xx = 0; xx < W; xx++) {
                    auto at = [&](int px, int py) { return r[size_t(py) * CW + px]; };
                    out.data()[(size_t(co) * H + yy) * W + xx] =
                        ((at(2 * xx, 2 * yy) + at(2 * xx + 1, 2 * yy)) + (at(2 * xx, 2 * yy + 1) + at(2 * xx + 1, 2 * yy + 1))) * 0.25f;
                }
        }
    }
};

struct Int16ConvAdd {
    halo::ImageParam input, residual;
    halo::Buffer<int16_t> k;  // k(kx, ky)
    halo::Var x{"x"}, y{"y"};
    halo::Func conv{"conv16"}, output{"conv_add"};

    Int16ConvAdd() : input(halo::Int(16), 2, "input"), residual(halo::Int(16), 2, "residual"), k(3, 3) {
        using namespace halo;
        k.for_each_value([](const std::vector<int> &p) { return int16_t((p[0] * 3 + p[1] * 5) % 7 - 3); });
        RDom r(0, 3, 0, 3, "r");
        conv(x, y) = cast<int16_t>(0);
        conv(x, y) += k(r.x, r.y) * input(x + r.x, y + r.y);
        output(x, y) = conv(x, y) + residual(x, y);
    }

    void schedule_breadth_first(int vec = 32) {
        using namespace halo;
        conv.compute_root().vectorize(x, vec).parallel(y);
        conv.update().vectorize(x, vec, TailStrategy::GuardWithIf).parallel(y);
        output.vectorize(x, vec).parallel(y);
    }

    void schedule_tiled(int tile_w = 256, int tile_h = 16, int vec = 32) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).vectorize(xi, vec).parallel(yo);
        conv.compute_at(output, xo).vectorize(x, vec);
        conv.update().vectorize(x, vec, TailStrategy::GuardWithIf);
    }

    // Plain C++ loops (one thread), dense buffers with mins 0; int16 wrap-around as Halo's.
    void plain(const halo::Buffer<int16_t> &in, const halo::Buffer<int16_t> &res, halo::Buffer<int16_t> &out) const {
        const int W = out.width(), H = out.height(), IW = in.width();
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) {
                int16_t acc = 0;
                for (int ky = 0; ky < 3; ky++)
                    for (int kx = 0; kx < 3; kx++)
                        acc = int16_t(acc + int16_t(k.data()[ky * 3 + kx] * in.data()[size_t(yy + ky) * IW + xx + kx]));
                out.data()[size_t(yy) * W + xx] = int16_t(acc + res.data()[size_t(yy) * res.width() + xx]);
            }
    }
};

}  // namespace apps
