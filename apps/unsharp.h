// Unsharp mask on an RGB float image (x, y, c), valid region: a 5-tap Gaussian blur
// ([1 4 6 4 1] / 16) in x then in y, sharpened = (1 + amount) in - amount blur, clamped to [0, 1].
// Output W x H x 3 needs an input (W + 4) x (H + 4) x 3.
#pragma once

#include <algorithm>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct Unsharp {
    static constexpr float amount = 1.5f;
    static constexpr float taps[5] = {1 / 16.0f, 4 / 16.0f, 6 / 16.0f, 4 / 16.0f, 1 / 16.0f};
    halo::ImageParam input;
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func blur_x{"blur_x"}, blur_y{"blur_y"}, output{"unsharp"};

    explicit Unsharp(halo::ImageParam in = halo::ImageParam(halo::Float(32), 3, "input")) : input(in) {
        using namespace halo;
        Expr bx = taps[0] * input(x, y, c);
        for (int i = 1; i < 5; i++) bx = bx + taps[i] * input(x + i, y, c);
        blur_x(x, y, c) = bx;
        Expr by = taps[0] * blur_x(x, y, c);
        for (int i = 1; i < 5; i++) by = by + taps[i] * blur_x(x, y + i, c);
        blur_y(x, y, c) = by;
        Expr sharpened = (1 + amount) * input(x + 2, y + 2, c) - amount * blur_y(x, y, c);
        output(x, y, c) = clamp(sharpened, 0.0f, 1.0f);
    }

    // Both blurs at the root, vectorized, rows in parallel.
    void schedule_breadth_first(int vec = 16) {
        halo::Var xo("xo"), xi("xi");
        for (halo::Func *f : {&blur_x, &blur_y}) f->compute_root().split(x, xo, xi, vec).vectorize(xi).parallel(y);
        output.split(x, xo, xi, vec).vectorize(xi).parallel(y);
    }

    // blur_x per tile of the output (4 rows of halo recomputed), blur_y inlined; the colour
    // channels inside the tile so that one tile's rows stay in cache.
    void schedule_tiled(int tile_w = 256, int tile_h = 32, int vec = 16) {
        halo::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).reorder(xi, yi, c, xo, yo).vectorize(xi, vec).parallel(yo);
        blur_x.compute_at(output, xo).vectorize(x, vec);
    }

    // Plain C++ loops over dense buffers with mins 0 (one thread).
    static void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) {
        const int W = out.width(), H = out.height(), IW = in.width(), IH = in.height();
        std::vector<float> bx(size_t(W) * IH);
        for (int ch = 0; ch < 3; ch++) {
            const float *ip = in.data() + size_t(ch) * IW * IH;
            for (int yy = 0; yy < IH; yy++)
                for (int xx = 0; xx < W; xx++) {
                    const float *p = ip + size_t(yy) * IW + xx;
                    float s = taps[0] * p[0];
                    for (int i = 1; i < 5; i++) s = s + taps[i] * p[i];
                    bx[size_t(yy) * W + xx] = s;
                }
            float *op = out.data() + size_t(ch) * W * H;
            for (int yy = 0; yy < H; yy++)
                for (int xx = 0; xx < W; xx++) {
                    float s = taps[0] * bx[size_t(yy) * W + xx];
                    for (int i = 1; i < 5; i++) s = s + taps[i] * bx[size_t(yy + i) * W + xx];
                    float v = (1 + amount) * ip[size_t(yy + 2) * IW + xx + 2] - amount * s;
                    op[size_t(yy) * W + xx] = std::min(std::max(v, 0.0f), 1.0f);
                }
        }
    }
};

}  // namespace apps
