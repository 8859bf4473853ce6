// Harris corner response on a float gray image, valid region (no boundary condition):
//   Ix, Iy: 3x3 Sobel derivatives; Ixx = Ix^2, Iyy = Iy^2, Ixy = Ix Iy;
//   Sxx, Syy, Sxy: 3x3 box sums of the products;
//   output = det - 0.04 trace^2 with det = Sxx Syy - Sxy^2 and trace = Sxx + Syy.
// Output W x H needs an input (W + 4) x (H + 4).
#pragma once

#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct Harris {
    halo::ImageParam input;
    halo::Var x{"x"}, y{"y"};
    halo::Func Ix{"Ix"}, Iy{"Iy"}, Ixx{"Ixx"}, Iyy{"Iyy"}, Ixy{"Ixy"}, Sxx{"Sxx"}, Syy{"Syy"}, Sxy{"Sxy"};
    halo::Func output{"harris"};

    explicit Harris(halo::ImageParam in = halo::ImageParam(halo::Float(32), 2, "input")) : input(in) {
        using namespace halo;
        ImageParam &I = input;
        Ix(x, y) = (I(x + 2, y) - I(x, y)) + 2.0f * (I(x + 2, y + 1) - I(x, y + 1)) + (I(x + 2, y + 2) - I(x, y + 2));
        Iy(x, y) = (I(x, y + 2) - I(x, y)) + 2.0f * (I(x + 1, y + 2) - I(x + 1, y)) + (I(x + 2, y + 2) - I(x + 2, y));
        Ixx(x, y) = Ix(x, y) * Ix(x, y);
        Iyy(x, y) = Iy(x, y) * Iy(x, y);
        Ixy(x, y) = Ix(x, y) * Iy(x, y);
        auto box = [&](Func f) {
            Expr s = f(x, y);
            for (int j = 0; j < 3; j++)
                for (int i = 0; i < 3; i++)
                    if (i || j) s = s + f(x + i, y + j);
            return s;
        };
        Sxx(x, y) = box(Ixx);
        Syy(x, y) = box(Iyy);
        Sxy(x, y) = box(Ixy);
        Expr det = Sxx(x, y) * Syy(x, y) - Sxy(x, y) * Sxy(x, y);
        Expr trace = Sxx(x, y) + Syy(x, y);
        output(x, y) = det - 0.04f * trace * trace;
    }

    std::vector<halo::Func *> stages() { return {&Ix, &Iy, &Ixx, &Iyy, &Ixy, &Sxx, &Syy, &Sxy}; }

    // Every stage at the root, vectorized, rows in parallel.
    void schedule_breadth_first(int vec = 16) {
        halo::Var xo("xo"), xi("xi");
        for (halo::Func *f : stages()) f->compute_root().split(x, xo, xi, vec).vectorize(xi).parallel(y);
        output.split(x, xo, xi, vec).vectorize(xi).parallel(y);
    }

    // The derivatives computed per tile of the output (their 2-pixel halo recomputed), the
    // products and box sums inlined into the output.
    void schedule_tiled(int tile_w = 256, int tile_h = 32, int vec = 16) {
        halo::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).vectorize(xi, vec).parallel(yo);
        Ix.compute_at(output, xo).vectorize(x, vec);
        Iy.compute_at(output, xo).vectorize(x, vec);
    }

    // Strips of rows in parallel; the derivatives slide down the rows of each strip (each row
    // computed once, buffers folded to a few rows), the rest inlined (Halide's apps/harris).
    void schedule_sliding(int strip_h = 32, int vec = 16) {
        halo::Var yi("yi");
        output.split(y, y, yi, strip_h).parallel(y).vectorize(x, vec);
        Ix.store_at(output, y).compute_at(output, yi).vectorize(x, vec);
        Iy.store_at(output, y).compute_at(output, yi).vectorize(x, vec);
    }

    // The schedule Halide 14's Mullapudi2016 autoscheduler chooses for this pipeline at
    // 2560x1920 (the peer prints it with HALIDE_PEER_PRINT_SCHEDULE=1): tiles of 256x128 in
    // parallel rows of tiles, the derivatives per tile, the rest inlined. app_bench runs it on
    // both compilers (the same schedule, so a gap is the code generator's).
    void schedule_like_mullapudi2016() {
        halo::Var xo("x_o"), yo("y_o"), xi("x_i"), yi("y_i"), xio("x_i_vo"), xii("x_i_vi"), xvo("x_vo"), xvi("x_vi");
        output.split(x, xo, xi, 256).split(y, yo, yi, 128).reorder(xi, yi, xo, yo);
        output.split(xi, xio, xii, 16).vectorize(xii).parallel(yo);
        for (halo::Func *f : {&Ix, &Iy}) f->compute_at(output, xo).split(x, xvo, xvi, 16).vectorize(xvi);
    }

    // Plain C++ loops over dense buffers with mins 0 (one thread, full-size intermediates).
    static void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) {
        const int W = out.width(), H = out.height(), IW = in.width();
        const int DW = W + 2, DH = H + 2;  // derivatives are needed with a 2-pixel margin
        std::vector<float> ix(size_t(DW) * DH), iy(ix.size());
        auto I = [&](int xx, int yy) { return in.data()[size_t(yy) * IW + xx]; };
        for (int yy = 0; yy < DH; yy++)
            for (int xx = 0; xx < DW; xx++) {
                ix[size_t(yy) * DW + xx] = (I(xx + 2, yy) - I(xx, yy)) + 2.0f * (I(xx + 2, yy + 1) - I(xx, yy + 1)) +
                                           (I(xx + 2, yy + 2) - I(xx, yy + 2));
                iy[size_t(yy) * DW + xx] = (I(xx, yy + 2) - I(xx, yy)) + 2.0f * (I(xx + 1, yy + 2) - I(xx + 1, yy)) +
                                           (I(xx + 2, yy + 2) - I(xx + 2, yy));
            }
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++) {
                float sxx = 0, syy = 0, sxy = 0;
                bool first = true;
                for (int j = 0; j < 3; j++)
                    for (int i = 0; i < 3; i++) {
                        float a = ix[size_t(yy + j) * DW + xx + i], b = iy[size_t(yy + j) * DW + xx + i];
                        sxx = first ? a * a : sxx + a * a;
                        syy = first ? b * b : syy + b * b;
                        sxy = first ? a * b : sxy + a * b;
                        first = false;
                    }
                float det = sxx * syy - sxy * sxy, trace = sxx + syy;
                out.data()[size_t(yy) * W + xx] = det - 0.04f * trace * trace;
            }
    }
};

}  // namespace apps
