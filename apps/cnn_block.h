// The seeds' CNN block: conv1 (3x3, C -> C) + bias, relu, conv2 (3x3, C -> C) + bias, relu,
// 2x2 max pool with stride 2, all valid convolutions over float32 images.
// Output W x H x C needs an input (2W + 4) x (2H + 4) x C.
//
// Two memory layouts: Planar stores images as (x, y, c) with x innermost and weights as
// (kx, ky, ci, co); ChannelsInnermost stores images as (c, x, y) and weights as (co, kx, ky, ci),
// so that a vector of output channels is contiguous everywhere.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct CnnBlock {
    enum class Layout { Planar, ChannelsInnermost };
    int channels;
    Layout layout;
    halo::ImageParam input;
    halo::Buffer<float> w1, b1, w2, b2;
    halo::Var x{"x"}, y{"y"}, c{"c"};
    halo::Func conv1{"conv1"}, relu1{"relu1"}, conv2{"conv2"}, relu2{"relu2"}, pool{"pool"};

    explicit CnnBlock(int channels_ = 32, Layout layout_ = Layout::Planar,
                      halo::ImageParam input_ = halo::ImageParam(halo::Float(32), 3, "input"))
        : channels(channels_), layout(layout_), input(input_),
          w1(weight_shape()), b1(channels_), w2(weight_shape()), b2(channels_) {
        using namespace halo;
        auto init = [&](Buffer<float> &w, double phase) {
            w.for_each_value([&](const std::vector<int> &p) {
                std::vector<int> k = weight_coords(p);  // kx, ky, ci, co
                double v = std::sin(phase + 0.9 * k[0] + 1.7 * k[1] + 0.31 * k[2] + 0.57 * k[3]);
                return float(v / (3.0 * channels));
            });
        };
        init(w1, 0.1);
        init(w2, 0.7);
        b1.for_each_value([](const std::vector<int> &p) { return float(0.01 * (p[0] % 5) - 0.02); });
        b2.for_each_value([](const std::vector<int> &p) { return float(0.015 * (p[0] % 3) - 0.01); });
        RDom r(0, 3, 0, 3, 0, channels, "r");
        conv1(at(c, x, y)) = b1(c);
        conv1(at(c, x, y)) += weight(w1, r.x, r.y, r.z, c) * input(at(r.z, x + r.x, y + r.y));
        relu1(at(c, x, y)) = max(conv1(at(c, x, y)), 0.0f);
        RDom s(0, 3, 0, 3, 0, channels, "s");
        conv2(at(c, x, y)) = b2(c);
        conv2(at(c, x, y)) += weight(w2, s.x, s.y, s.z, c) * relu1(at(s.z, x + s.x, y + s.y));
        relu2(at(c, x, y)) = max(conv2(at(c, x, y)), 0.0f);
        pool(at(c, x, y)) = max(max(relu2(at(c, 2 * x, 2 * y)), relu2(at(c, 2 * x + 1, 2 * y))),
                                max(relu2(at(c, 2 * x, 2 * y + 1)), relu2(at(c, 2 * x + 1, 2 * y + 1))));
    }

    // Coordinates in this layout's dimension order.
    std::vector<halo::Expr> at(halo::Expr ch, halo::Expr xx, halo::Expr yy) const {
        if (layout == Layout::Planar) return {xx, yy, ch};
        return {ch, xx, yy};
    }
    // Buffer sizes for an image of w x h x channels.
    std::vector<int> image_shape(int w, int h) const {
        if (layout == Layout::Planar) return {w, h, channels};
        return {channels, w, h};
    }
    std::vector<int> weight_shape() const {
        if (layout == Layout::Planar) return {3, 3, channels, channels};
        return {channels, 3, 3, channels};
    }
    // (kx, ky, ci, co) from a weight buffer coordinate.
    std::vector<int> weight_coords(const std::vector<int> &p) const {
        if (layout == Layout::Planar) return p;
        return {p[1], p[2], p[3], p[0]};
    }
    halo::Expr weight(const halo::Buffer<float> &w, halo::Expr kx, halo::Expr ky, halo::Expr ci, halo::Expr co) const {
        if (layout == Layout::Planar) return w(kx, ky, ci, co);
        return w(co, kx, ky, ci);
    }

    // Every stage at the root, vectorized over x and parallel over rows (Planar layout).
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
    // tile, each tile recomputing its halo (Planar layout).
    void schedule_fused(int tile_w = 32, int tile_h = 32, int vec = 16) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        pool.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).reorder(xi, yi, c, xo, yo);
        pool.vectorize(xi, vec).parallel(yo);
        for (Func *f : {&conv1, &relu1, &conv2, &relu2}) {
            f->compute_at(pool, xo).vectorize(x, vec);
        }
        conv1.update().vectorize(x, vec, TailStrategy::GuardWithIf);
        conv2.update().vectorize(x, vec, TailStrategy::GuardWithIf);
    }

    // ChannelsInnermost layout: the convolutions computed per tile of the pool output with a
    // register block of `block_x` pixels x all channels (channels in the vector lanes), the
    // reduction loops inside the block so the accumulators stay in registers.
    void schedule_fused_blocked(int tile_w = 8, int tile_h = 8, int vec = 16, int block_x = 8) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        pool.split(x, xo, xi, tile_w).split(y, yo, yi, tile_h).reorder(c, xi, yi, xo, yo);
        // The channel count is known: loops over channels get constant extents to unroll.
        pool.bound(c, 0, channels).vectorize(c, vec).parallel(yo);
        for (Func *f : {&conv1, &conv2}) {
            f->compute_at(pool, xo).vectorize(c, vec);
            block(*f, vec, block_x);
        }
    }

    // ChannelsInnermost layout: strips of strip_h pool rows in parallel; in each strip both
    // convolutions slide down the rows (each row computed once: no halo recomputed vertically,
    // and strips are image-wide) in storage folded to the rows still read, with the same
    // register-blocked kernels as schedule_fused_blocked.
    void schedule_sliding_blocked(int strip_h = 32, int vec = 16, int block_x = 8) {
        using namespace halo;
        Var yo("yo"), yi("yi");
        pool.split(y, yo, yi, strip_h).reorder(c, x, yi, yo);
        pool.bound(c, 0, channels).vectorize(c, vec).parallel(yo);
        for (Func *f : {&conv1, &conv2}) {
            f->store_at(pool, yo).compute_at(pool, yi).vectorize(c, vec);
            block(*f, vec, block_x);
        }
    }

    // ChannelsInnermost layout, every stage at the root with the same register-blocked
    // kernels as schedule_fused_blocked (what fusion is measured against).
    void schedule_breadth_first_blocked(int vec = 16, int block_x = 8) {
        using namespace halo;
        pool.bound(c, 0, channels).vectorize(c, vec).parallel(y);
        for (Func *f : {&conv1, &conv2}) {
            f->compute_root().vectorize(c, vec).parallel(y);
            block(*f, vec, block_x);
            f->update().parallel(y);
        }
    }

    // Plain C++ loops (one thread) for the ChannelsInnermost layout, dense buffers with mins 0:
    // in (C, 2W + 4, 2H + 4), out (C, W, H).
    void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const {
        const int C = channels, W = out.dim(1).extent(), H = out.dim(2).extent();
        auto conv_relu = [C](const std::vector<float> &src, int sw, const halo::Buffer<float> &w, const halo::Buffer<float> &b,
                             int ow, int oh) {
            std::vector<float> dst(size_t(C) * ow * oh);
            for (int yy = 0; yy < oh; yy++)
                for (int xx = 0; xx < ow; xx++)
                    for (int co = 0; co < C; co++) {
                        float acc = b.data()[co];
                        for (int ci = 0; ci < C; ci++)  // the order of Halo's RDom: r.x innermost
                            for (int ky = 0; ky < 3; ky++)
                                for (int kx = 0; kx < 3; kx++)
                                    acc += w.data()[((size_t(ci) * 3 + ky) * 3 + kx) * C + co] *
                                           src[(size_t(yy + ky) * sw + xx + kx) * C + ci];
                        dst[(size_t(yy) * ow + xx) * C + co] = std::max(acc, 0.0f);
                    }
            return dst;
        };
        std::vector<float> src(in.data(), in.data() + size_t(C) * (2 * W + 4) * (2 * H + 4));
        std::vector<float> r1 = conv_relu(src, 2 * W + 4, w1, b1, 2 * W + 2, 2 * H + 2);
        std::vector<float> r2 = conv_relu(r1, 2 * W + 2, w2, b2, 2 * W, 2 * H);
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                for (int co = 0; co < C; co++) {
                    auto at = [&](int px, int py) { return r2[(size_t(py) * 2 * W + px) * C + co]; };
                    out.data()[(size_t(yy) * W + xx) * C + co] =
                        std::max(std::max(at(2 * xx, 2 * yy), at(2 * xx + 1, 2 * yy)), std::max(at(2 * xx, 2 * yy + 1), at(2 * xx + 1, 2 * yy + 1)));
                }
    }

private:
    // The update of a convolution: channels vectorized and unrolled, pixels unrolled, the
    // reduction over (kx, ky, ci) inside.
    void block(halo::Func &f, int vec, int block_x) {
        using namespace halo;
        Var co("co"), ci("ci"), bxo("bxo"), bxi("bxi");
        Stage u = f.update();
        const auto &dom = f.function()->updates[0].rdom->vars;
        RVar rx(dom[0].name), ry(dom[1].name), rz(dom[2].name);
        // RoundUp over channels: the channel count is a multiple of the vector width.
        u.split(c, co, ci, vec, TailStrategy::RoundUp)
            .split(x, bxo, bxi, block_x, TailStrategy::GuardWithIf)
            .reorder({ci, co, bxi, rx, ry, rz, bxo, y})
            .vectorize(ci)
            .unroll(co)
            .unroll(bxi);
    }
};

}  // namespace apps
