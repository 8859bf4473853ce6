// 3x3 separable box blur on uint16 (the classic Halide example), valid region:
//   blur_x(x, y) = (in(x, y) + in(x + 1, y) + in(x + 2, y)) / 3
//   blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3
// all in uint16 arithmetic (sums wrap, as in C). Output W x H needs an input (W + 2) x (H + 2).
#pragma once

#include <cstdint>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct Blur {
    halo::ImageParam input;
    halo::Var x{"x"}, y{"y"};
    halo::Func blur_x{"blur_x"}, blur_y{"blur_y"};

    explicit Blur(halo::ImageParam in = halo::ImageParam(halo::UInt(16), 2, "input")) : input(in) {
        blur_x(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        blur_y(x, y) = (blur_x(x, y) + blur_x(x, y + 1) + blur_x(x, y + 2)) / 3;
    }

    // blur_x at the root: every stage vectorized, rows in parallel.
    void schedule_breadth_first(int vec = 16) {
        halo::Var xo("xo"), xi("xi");
        blur_x.compute_root().split(x, xo, xi, vec).vectorize(xi).parallel(y);
        blur_y.split(x, xo, xi, vec).vectorize(xi).parallel(y);
    }

    // blur_x computed per tile of blur_y, recomputing two rows of halo per tile.
    void schedule_tiled(int tile_w = 256, int tile_h = 32, int vec = 16) {
        halo::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        blur_y.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).vectorize(xi, vec).parallel(yo);
        blur_x.compute_at(blur_y, xo).vectorize(x, vec);
    }

    // Strips of rows in parallel; in each strip blur_x slides down the rows (each row computed
    // once) in a buffer folded to 4 rows (Halide's apps/blur schedule).
    void schedule_sliding(int strip_h = 32, int vec = 16) {
        halo::Var yi("yi");
        blur_y.split(y, y, yi, strip_h).parallel(y).vectorize(x, vec);
        blur_x.store_at(blur_y, y).compute_at(blur_y, yi).vectorize(x, vec);
    }

    // Plain C++ loops over dense buffers with mins 0 (one thread): the reference.
    static void plain(const halo::Buffer<uint16_t> &in, halo::Buffer<uint16_t> &out) {
        const int W = out.width(), H = out.height(), IW = in.width();
        std::vector<uint16_t> bx(size_t(W) * (H + 2));
        const uint16_t *ip = in.data();
        for (int yy = 0; yy < H + 2; yy++) {
            const uint16_t *row = ip + size_t(yy) * IW;
            uint16_t *b = bx.data() + size_t(yy) * W;
            for (int xx = 0; xx < W; xx++) b[xx] = uint16_t(uint16_t(row[xx] + row[xx + 1] + row[xx + 2]) / 3);
        }
        uint16_t *op = out.data();
        for (int yy = 0; yy < H; yy++) {
            const uint16_t *b0 = bx.data() + size_t(yy) * W, *b1 = b0 + W, *b2 = b1 + W;
            uint16_t *o = op + size_t(yy) * W;
            for (int xx = 0; xx < W; xx++) o[xx] = uint16_t(uint16_t(b0[xx] + b1[xx] + b2[xx]) / 3);
        }
    }
};

}  // namespace apps
