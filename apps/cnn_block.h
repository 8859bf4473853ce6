// The seeds' CNN block: conv1 (3x3, C -> C) + bias, relu, conv2 (3x3, C -> C) + bias, relu,
// 2x2 max pool with stride 2, all valid convolutions over float32 images (x, y, c).
// Output W x H x C needs an input (2W + 4) x (2H + 4) x C.
#pragma once

#include <cmath>

#include "dsl/Halo.h"

namespace apps {

struct CnnBlock {
    int channels;
    halo::ImageParam input;
    halo::Buffer<float> w1, b1, w2, b2;  // w(kx, ky, ci, co), b(co)
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func conv1{"conv1"}, relu1{"relu1"}, conv2{"conv2"}, relu2{"relu2"}, pool{"pool"};

    explicit CnnBlock(int channels_ = 32)
        : channels(channels_), input(halo::Float(32), 3, "input"), w1(3, 3, channels_, channels_),
          b1(channels_), w2(3, 3, channels_, channels_), b2(channels_) {
        using namespace halo;
        auto init = [&](Buffer<float> &w, double phase) {
            w.for_each_value([&](const std::vector<int> &p) {
                double v = std::sin(phase + 0.9 * p[0] + 1.7 * p[1] + 0.31 * p[2] + 0.57 * p[3]);
                return float(v / (3.0 * channels));
            });
        };
        init(w1, 0.1);
        init(w2, 0.7);
        b1.for_each_value([](const std::vector<int> &p) { return float(0.01 * (p[0] % 5) - 0.02); });
        b2.for_each_value([](const std::vector<int> &p) { return float(0.015 * (p[0] % 3) - 0.01); });
        RDom r(0, 3, 0, 3, 0, channels, "r");
        conv1(x, y, c) = b1(c);
        conv1(x, y, c) += w1(r.x, r.y, r.z, c) * input(x + r.x, y + r.y, r.z);
        relu1(x, y, c) = max(conv1(x, y, c), 0.0f);
        RDom s(0, 3, 0, 3, 0, channels, "s");
        conv2(x, y, c) = b2(c);
        conv2(x, y, c) += w2(s.x, s.y, s.z, c) * relu1(x + s.x, y + s.y, s.z);
        relu2(x, y, c) = max(conv2(x, y, c), 0.0f);
        pool(x, y, c) = max(max(relu2(2 * x, 2 * y, c), relu2(2 * x + 1, 2 * y, c)),
                            max(relu2(2 * x, 2 * y + 1, c), relu2(2 * x + 1, 2 * y + 1, c)));
    }

    // Every stage at the root, vectorized over x and parallel over rows.
    void schedule_breadth_first(int vec = 16) {
        using namespace halo;
        Var xo("xo"), xi("xi");
        for (Func *f : {&conv1, &relu1, &conv2, &relu2}) {
            f->compute_root().split(x, xo, xi, vec).vectorize(xi).parallel(y);
        }
        conv1.update().split(x, xo, xi, vec, TailStrategy::GuardWithIf).vectorize(xi).parallel(y);
        conv2.update().split(x, xo, xi, vec, TailStrategy::GuardWithIf).vectorize(xi).parallel(y);
        pool.split(x, xo, xi, vec).vectorize(xi).parallel(y);
    }

    // Both convolutions and relus computed per tile of the pool output, channels inside the
    // tile, each tile recomputing its halo.
    void schedule_fused(int tile_w = 32, int tile_h = 32, int vec = 16) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi"), t("t");
        pool.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).reorder(xi, yi, c, xo, yo);
        pool.vectorize(xi, vec).parallel(yo);
        for (Func *f : {&conv1, &relu1, &conv2, &relu2}) {
            f->compute_at(pool, xo).vectorize(x, vec);
        }
        conv1.update().vectorize(x, vec, TailStrategy::GuardWithIf);
        conv2.update().vectorize(x, vec, TailStrategy::GuardWithIf);
    }
};

}  // namespace apps
