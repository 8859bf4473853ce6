// Local Laplacian filter (Paris, Hasinoff and Kautz), the classic Halide app form: a deep
// pipeline of Gaussian and Laplacian pyramids with down- and upsampling and data-dependent
// lookups. For each of `levels` intensity levels k, the gray image is remapped around k/(levels-1)
// (detail boosted by alpha, contrast scaled by beta) and decomposed into a Laplacian pyramid;
// each output Laplacian coefficient interpolates between the two levels nearest the input's
// own intensity at that scale; collapsing the pyramid gives the new gray, and the colour ratios
// are kept. Input and output are RGB float (x, y, c) of the same size; the input's edges repeat.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

struct LocalLaplacian {
    int levels, pyramid_levels;
    float alpha, beta;
    halo::ImageParam input;
    halo::Var x{"x"}, y{"y"}, c{"c"}, k{"k"};
    halo::Func remap{"remap"}, clamped{"clamped"}, gray{"gray"}, output{"local_laplacian"};
    // Per pyramid level: Gaussian of the remapped images (x, y, k), their Laplacian, the input
    // gray's Gaussian pyramid, the output Laplacian and the collapsed output Gaussian.
    std::vector<halo::Func> g_pyramid, l_pyramid, in_g_pyramid, out_l_pyramid, out_g_pyramid;

    explicit LocalLaplacian(int levels_ = 8, int pyramid_levels_ = 4, float alpha_ = 1.0f, float beta_ = 1.0f,
                            halo::ImageParam in = halo::ImageParam(halo::Float(32), 3, "input"))
        : levels(levels_), pyramid_levels(pyramid_levels_), alpha(alpha_), beta(beta_), input(in) {
        using namespace halo;
        const int J = pyramid_levels;
        for (int j = 0; j < J; j++) {
            std::string s = std::to_string(j);
            g_pyramid.emplace_back("g_pyramid_" + s);
            l_pyramid.emplace_back("l_pyramid_" + s);
            in_g_pyramid.emplace_back("in_g_pyramid_" + s);
            out_l_pyramid.emplace_back("out_l_pyramid_" + s);
            out_g_pyramid.emplace_back("out_g_pyramid_" + s);
        }
        Expr fx = cast<float>(x) / 256.0f;
        remap(x) = alpha * fx * exp(-fx * fx / 2.0f);
        clamped = BoundaryConditions::repeat_edge(input);
        gray(x, y) = 0.299f * clamped(x, y, 0) + 0.587f * clamped(x, y, 1) + 0.114f * clamped(x, y, 2);

        // The remapped images, then their Gaussian and Laplacian pyramids.
        Expr level = cast<float>(k) * (1.0f / (levels - 1));
        Expr idx = clamp(cast<int>(gray(x, y) * float(levels - 1) * 256.0f), 0, (levels - 1) * 256);
        g_pyramid[0](x, y, k) = beta * (gray(x, y) - level) + level + remap(idx - 256 * k);
        for (int j = 1; j < J; j++) g_pyramid[j](x, y, k) = downsample(g_pyramid[j - 1], {k})(x, y, k);
        l_pyramid[J - 1](x, y, k) = g_pyramid[J - 1](x, y, k);
        for (int j = J - 2; j >= 0; j--)
            l_pyramid[j](x, y, k) = g_pyramid[j](x, y, k) - upsample(g_pyramid[j + 1], {k})(x, y, k);

        // The input's Gaussian pyramid, and the output Laplacian pyramid interpolated from it.
        in_g_pyramid[0](x, y) = gray(x, y);
        for (int j = 1; j < J; j++) in_g_pyramid[j](x, y) = downsample(in_g_pyramid[j - 1], {})(x, y);
        for (int j = 0; j < J; j++) {
            Expr lv = in_g_pyramid[j](x, y) * float(levels - 1);
            Expr li = clamp(cast<int>(lv), 0, levels - 2);
            Expr lf = lv - cast<float>(li);
            out_l_pyramid[j](x, y) = (1.0f - lf) * l_pyramid[j](x, y, li) + lf * l_pyramid[j](x, y, li + 1);
        }

        // Collapse the output pyramid and restore colour.
        out_g_pyramid[J - 1](x, y) = out_l_pyramid[J - 1](x, y);
        for (int j = J - 2; j >= 0; j--)
            out_g_pyramid[j](x, y) = upsample(out_g_pyramid[j + 1], {})(x, y) + out_l_pyramid[j](x, y);
        Expr color = out_g_pyramid[0](x, y) * (clamped(x, y, c) + 0.01f) / (gray(x, y) + 0.01f);
        output(x, y, c) = clamp(color, 0.0f, 1.0f);
    }

    // Every stage at the root (the lookup table too), vectorized, rows in parallel.
    void schedule_breadth_first(int vec = 8) {
        schedule_stages_at_root(vec, true);
        output.vectorize(x, vec).parallel(y);
    }

    // The collapse of the two finest output levels computed per tile of the output (with their
    // halos), the remapped images at the finest level inlined into their consumers (they are
    // `levels` times the image in size but cheap: a lookup per point), coarser levels at the root.
    void schedule_tiled(int tile_w = 64, int tile_h = 32, int vec = 8) {
        using namespace halo;
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        schedule_stages_at_root(vec, false);
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).reorder(xi, yi, c, xo, yo).vectorize(xi, vec).parallel(yo);
        for (int j = 0; j < std::min(2, pyramid_levels - 1); j++) out_g_pyramid[j].compute_at(output, xo).vectorize(x, vec);
    }

    // Every pyramid level of the collapse (the output Gaussians) computed per strip of output
    // rows, with its halo; the remapped images' Gaussian pyramids and the input's at the root;
    // the Laplacians inlined, so that each output pixel computes the two levels it interpolates
    // rather than all `levels` (Halide's app schedule, with strips instead of sliding windows:
    // the upsampling's parity keeps the collapse's row regions from provably only growing).
    void schedule_fused_strips(int strip_h = 64, int vec = 8) {
        using namespace halo;
        Var yo("yo");
        remap.compute_root();
        gray.compute_root().vectorize(x, vec).parallel(y);
        output.reorder(c, x, y).split(y, yo, y, strip_h).parallel(yo).vectorize(x, vec);
        for (int j = 0; j < pyramid_levels; j++) {
            if (j > 0) in_g_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
            g_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
            out_g_pyramid[j].compute_at(output, yo).vectorize(x, vec);
        }
    }

    // Output W x H from an input W x H (both x, y, c with mins 0) by plain C++ loops, each
    // pyramid level stored over exactly the region the next stages read (one thread).
    void plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const;

private:
    void schedule_stages_at_root(int vec, bool finest_level) {
        using namespace halo;
        remap.compute_root();
        gray.compute_root().vectorize(x, vec).parallel(y);
        for (int j = 0; j < pyramid_levels; j++) {
            in_g_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
            if (j > 0 || finest_level) g_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
            if (j >= 2 || finest_level) out_g_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
            if (j > 0) l_pyramid[j].compute_root().vectorize(x, vec).parallel(y);
        }
    }

    // 2x downsampling with the [1 3 3 1] / 8 kernel in x then y; `extra` are trailing dimensions.
    static halo::Func downsample(const halo::Func &f, const std::vector<halo::Var> &extra) {
        using namespace halo;
        Var x("x"), y("y");
        Func dx("downx_" + f.name()), dy("downy_" + f.name());
        auto at = [&](Expr a, Expr b) { return with(a, b, extra); };
        dx(at(x, y)) = (f(at(2 * x - 1, y)) + 3.0f * (f(at(2 * x, y)) + f(at(2 * x + 1, y))) + f(at(2 * x + 2, y))) / 8.0f;
        dy(at(x, y)) = (dx(at(x, 2 * y - 1)) + 3.0f * (dx(at(x, 2 * y)) + dx(at(x, 2 * y + 1))) + dx(at(x, 2 * y + 2))) / 8.0f;
        return dy;
    }
    // 2x upsampling by linear interpolation (weights 1/4, 3/4) in x then y.
    static halo::Func upsample(const halo::Func &f, const std::vector<halo::Var> &extra) {
        using namespace halo;
        Var x("x"), y("y");
        Func ux("upx_" + f.name()), uy("upy_" + f.name());
        auto at = [&](Expr a, Expr b) { return with(a, b, extra); };
        ux(at(x, y)) = 0.25f * f(at((x / 2) - 1 + 2 * (x % 2), y)) + 0.75f * f(at(x / 2, y));
        uy(at(x, y)) = 0.25f * ux(at(x, (y / 2) - 1 + 2 * (y % 2))) + 0.75f * ux(at(x, y / 2));
        return uy;
    }
    static std::vector<halo::Expr> with(halo::Expr a, halo::Expr b, const std::vector<halo::Var> &extra) {
        std::vector<halo::Expr> v = {a, b};
        for (const halo::Var &e : extra) v.push_back(e);
        return v;
    }
};

namespace local_laplacian_detail {

// An inclusive integer interval, and the intervals one resampling step reads.
struct Span {
    int lo, hi;
    int size() const { return hi - lo + 1; }
};
inline int floor_div2(int v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }
inline Span hull(Span a, Span b) { return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)}; }
inline Span upsample_reads(Span s) { return {floor_div2(s.lo) - 1, floor_div2(s.hi) + 1}; }
inline Span downsample_reads(Span s) { return {2 * s.lo - 1, 2 * s.hi + 2}; }

// A float image over a rectangle with any origin, with `planes` planes.
struct Plane {
    Span xs{0, -1}, ys{0, -1};
    int planes = 1;
    std::vector<float> v;
    Plane() = default;
    Plane(Span x_, Span y_, int n = 1) : xs(x_), ys(y_), planes(n), v(size_t(x_.size()) * y_.size() * n) {}
    float &operator()(int x, int y, int p = 0) {
        return v[(size_t(p) * ys.size() + (y - ys.lo)) * xs.size() + (x - xs.lo)];
    }
    float operator()(int x, int y, int p = 0) const { return const_cast<Plane &>(*this)(x, y, p); }
};

inline Plane downsample(const Plane &f, Span xs, Span ys) {
    Plane dx(xs, downsample_reads(ys), f.planes), dy(xs, ys, f.planes);
    for (int p = 0; p < f.planes; p++) {
        for (int y = dx.ys.lo; y <= dx.ys.hi; y++)
            for (int x = xs.lo; x <= xs.hi; x++)
                dx(x, y, p) = (f(2 * x - 1, y, p) + 3.0f * (f(2 * x, y, p) + f(2 * x + 1, y, p)) + f(2 * x + 2, y, p)) / 8.0f;
        for (int y = ys.lo; y <= ys.hi; y++)
            for (int x = xs.lo; x <= xs.hi; x++)
                dy(x, y, p) = (dx(x, 2 * y - 1, p) + 3.0f * (dx(x, 2 * y, p) + dx(x, 2 * y + 1, p)) + dx(x, 2 * y + 2, p)) / 8.0f;
    }
    return dy;
}

// Upsampled f at (x, y) of plane p: the same arithmetic as LocalLaplacian::upsample.
inline float upsampled(const Plane &f, int x, int y, int p) {
    auto ux = [&](int yy) {
        return 0.25f * f(floor_div2(x) - 1 + 2 * (x & 1), yy, p) + 0.75f * f(floor_div2(x), yy, p);
    };
    return 0.25f * ux(floor_div2(y) - 1 + 2 * (y & 1)) + 0.75f * ux(floor_div2(y));
}

}  // namespace local_laplacian_detail

inline void LocalLaplacian::plain(const halo::Buffer<float> &in, halo::Buffer<float> &out) const {
    using namespace local_laplacian_detail;
    const int J = pyramid_levels, L = levels, W = in.width(), H = in.height();
    // The region of every level that later stages read, from the output backwards.
    std::vector<Span> nx(J), ny(J), gx(J), gy(J), ix(J), iy(J);
    nx[0] = {0, W - 1};
    ny[0] = {0, H - 1};
    for (int j = 1; j < J; j++) nx[j] = upsample_reads(nx[j - 1]), ny[j] = upsample_reads(ny[j - 1]);
    gx[J - 1] = ix[J - 1] = nx[J - 1];
    gy[J - 1] = iy[J - 1] = ny[J - 1];
    for (int j = J - 2; j >= 0; j--) {
        gx[j] = ix[j] = hull(nx[j], downsample_reads(gx[j + 1]));
        gy[j] = iy[j] = hull(ny[j], downsample_reads(gy[j + 1]));
    }
    auto input = [&](int x, int y, int ch) {
        return in.data()[(size_t(ch) * H + std::clamp(y, 0, H - 1)) * W + std::clamp(x, 0, W - 1)];
    };
    auto remap = [&](int i) {
        float fx = float(i) / 256.0f;
        return alpha * fx * std::exp(-fx * fx / 2.0f);
    };
    Plane gray(hull(gx[0], nx[0]), hull(gy[0], ny[0]));
    for (int y = gray.ys.lo; y <= gray.ys.hi; y++)
        for (int x = gray.xs.lo; x <= gray.xs.hi; x++)
            gray(x, y) = 0.299f * input(x, y, 0) + 0.587f * input(x, y, 1) + 0.114f * input(x, y, 2);
    std::vector<Plane> g(J), in_g(J);
    g[0] = Plane(gx[0], gy[0], L);
    in_g[0] = Plane(ix[0], iy[0]);
    for (int kk = 0; kk < L; kk++) {
        float level = float(kk) * (1.0f / (L - 1));
        for (int y = gy[0].lo; y <= gy[0].hi; y++)
            for (int x = gx[0].lo; x <= gx[0].hi; x++) {
                int idx = std::clamp(int(gray(x, y) * float(L - 1) * 256.0f), 0, (L - 1) * 256);
                g[0](x, y, kk) = beta * (gray(x, y) - level) + level + remap(idx - 256 * kk);
                if (kk == 0) in_g[0](x, y) = gray(x, y);
            }
    }
    for (int j = 1; j < J; j++) {
        g[j] = local_laplacian_detail::downsample(g[j - 1], gx[j], gy[j]);
        in_g[j] = local_laplacian_detail::downsample(in_g[j - 1], ix[j], iy[j]);
    }
    // Output Laplacian coefficients, collapsed from the coarsest level down.
    Plane out_g;
    for (int j = J - 1; j >= 0; j--) {
        Plane level_out(nx[j], ny[j]);
        for (int y = ny[j].lo; y <= ny[j].hi; y++)
            for (int x = nx[j].lo; x <= nx[j].hi; x++) {
                auto lap = [&](int kk) { return j == J - 1 ? g[j](x, y, kk) : g[j](x, y, kk) - upsampled(g[j + 1], x, y, kk); };
                float lv = in_g[j](x, y) * float(L - 1);
                int li = std::clamp(int(lv), 0, L - 2);
                float lf = lv - float(li);
                float coeff = (1.0f - lf) * lap(li) + lf * lap(li + 1);
                level_out(x, y) = j == J - 1 ? coeff : upsampled(out_g, x, y, 0) + coeff;
            }
        out_g = std::move(level_out);
    }
    for (int ch = 0; ch < 3; ch++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                float color = out_g(x, y) * (input(x, y, ch) + 0.01f) / (gray(x, y) + 0.01f);
                out.data()[(size_t(ch) * H + y) * W + x] = std::clamp(color, 0.0f, 1.0f);
            }
}

}  // namespace apps
