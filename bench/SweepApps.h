// The apps the tile-size sweep knows: for each, a fused schedule parameterized by tile size,
// the breadth-first schedule, the plain C++ loops, the work done (for GB/s or GFLOP/s) and the
// Func whose recompute factor the sweep reports.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "AppInputs.h"
#include "blur.h"
#include "cnn_block.h"
#include "dw_pw.h"
#include "harris.h"
#include "unsharp.h"

namespace bench {

// A compiled-to-be pipeline: its output Func and a buffer to realize into. `keep` holds the
// app object (its Funcs, ImageParams and weights) alive.
struct SweepVariant {
    halo::Func output_func;
    halo::Buffer<> output;
    std::shared_ptr<void> keep;
};

struct SweepApp {
    std::string description, unit, key_func;
    double work = 0;  // bytes or flops per run
    std::vector<int> output_sizes, default_widths, default_heights;
    int default_vector = 16;  // vector width of the fused schedule unless the sweep varies it
    std::function<SweepVariant(int tile_w, int tile_h, int vector_width)> fused;
    std::function<SweepVariant()> breadth_first;
    std::function<void()> plain;  // may be empty
};

namespace detail {

// Sets app's fused and breadth-first variant factories: each builds a fresh App with `make`,
// schedules it, binds the shared input and realizes `out(app)` into a new buffer of `type`.
template <typename App>
void set_variants(SweepApp &app, std::function<App *()> make, std::function<halo::Func(App &)> out, halo::Buffer<> input,
                  halo::Type type, std::function<void(App &, int, int, int)> fused,
                  std::function<void(App &)> breadth_first) {
    std::vector<int> sizes = app.output_sizes;
    auto variant = [=](const std::function<void(App &)> &schedule) {
        auto a = std::shared_ptr<App>(make());
        schedule(*a);
        a->input.set(input);
        return SweepVariant{out(*a), halo::Buffer<>(type, sizes), a};
    };
    app.fused = [=](int tw, int th, int v) { return variant([=](App &a) { fused(a, tw, th, v); }); };
    app.breadth_first = [=] { return variant(breadth_first); };
}

inline std::string size_name(int W, int H) { return std::to_string(W) + "x" + std::to_string(H); }

}  // namespace detail

inline std::unique_ptr<SweepApp> make_sweep_app(const std::string &name, bool quick) {
    using namespace halo;
    using detail::size_name;
    auto app = std::make_unique<SweepApp>();
    if (name == "cnn_block" || name == "cnn_block8") {
        const int C = name == "cnn_block" ? 32 : 8, vec = C >= 16 ? 16 : 8;
        const int W = quick ? 24 : (C == 32 ? 256 : 1024), H = W;
        Buffer<float> in = channels_innermost_input(C, 2 * W + 4, 2 * H + 4);
        auto make = [C] { return new apps::CnnBlock(C, apps::CnnBlock::Layout::ChannelsInnermost); };
        app->description = "cnn_block " + size_name(W, H) + "x" + std::to_string(C) + " float, channels innermost";
        app->unit = "GFLOP/s";
        app->key_func = "conv1";
        app->work = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;
        app->output_sizes = {C, W, H};
        app->default_vector = vec;
        app->default_widths = {4, 8, 16, 32, 64};
        app->default_heights = {4, 8, 16, 32};
        detail::set_variants<apps::CnnBlock>(
            *app, make, [](apps::CnnBlock &n) { return n.pool; }, in, Float(32),
            [](apps::CnnBlock &n, int tw, int th, int v) { n.schedule_fused_blocked(tw, th, v); },
            [vec](apps::CnnBlock &n) { n.schedule_breadth_first_blocked(vec); });
        auto ref = std::shared_ptr<apps::CnnBlock>(make());
        Buffer<float> plain_out(C, W, H);
        app->plain = [=]() mutable { ref->plain(in, plain_out); };
    } else if (name == "dw_pw") {
        const int C = 32, W = quick ? 40 : 1024, H = W;
        Buffer<float> in = channels_innermost_input(C, W + 2, H + 2);
        auto make = [C] { return new apps::DepthwisePointwise(C); };
        app->description = "depthwise 3x3 -> pointwise 1x1, " + size_name(W, H) + "x32 float";
        app->unit = "GFLOP/s";
        app->key_func = "relu1";
        app->work = 2.0 * W * H * C * (C + 9);
        app->output_sizes = {C, W, H};
        app->default_widths = {8, 16, 32, 64, 128};
        app->default_heights = {2, 4, 8, 16};
        detail::set_variants<apps::DepthwisePointwise>(
            *app, make, [](apps::DepthwisePointwise &n) { return n.output; }, in, Float(32),
            [](apps::DepthwisePointwise &n, int tw, int th, int v) { n.schedule_tiled(tw, th, v); },
            [](apps::DepthwisePointwise &n) { n.schedule_breadth_first(); });
        auto ref = std::shared_ptr<apps::DepthwisePointwise>(make());
        Buffer<float> plain_out(C, W, H);
        app->plain = [=]() mutable { ref->plain(in, plain_out); };
    } else if (name == "blur") {
        const int W = quick ? 600 : 6400, H = quick ? 200 : 4800;
        Buffer<uint16_t> in = blur_input(W, H);
        app->description = "blur " + size_name(W, H) + " uint16";
        app->unit = "GB/s";
        app->key_func = "blur_x";
        app->work = 4.0 * W * H;
        app->output_sizes = {W, H};
        app->default_widths = {128, 256, 512, 1024, W};
        app->default_heights = {2, 4, 8, 16, 32};
        detail::set_variants<apps::Blur>(
            *app, [] { return new apps::Blur(); }, [](apps::Blur &b) { return b.blur_y; }, in, UInt(16),
            [](apps::Blur &b, int tw, int th, int v) { b.schedule_tiled(tw, th, v); },
            [](apps::Blur &b) { b.schedule_breadth_first(); });
        Buffer<uint16_t> plain_out(W, H);
        app->plain = [=]() mutable { apps::Blur::plain(in, plain_out); };
    } else if (name == "harris") {
        const int W = quick ? 300 : 2560, H = quick ? 100 : 1920;
        Buffer<float> in = harris_input(W, H);
        app->description = "harris " + size_name(W, H) + " float";
        app->unit = "GB/s";
        app->key_func = "Ix";
        app->work = 8.0 * W * H;
        app->output_sizes = {W, H};
        app->default_widths = {64, 128, 256, 512, W};
        app->default_heights = {4, 8, 16, 32, 64};
        detail::set_variants<apps::Harris>(
            *app, [] { return new apps::Harris(); }, [](apps::Harris &a) { return a.output; }, in, Float(32),
            [](apps::Harris &a, int tw, int th, int v) { a.schedule_tiled(tw, th, v); },
            [](apps::Harris &a) { a.schedule_breadth_first(); });
        Buffer<float> plain_out(W, H);
        app->plain = [=]() mutable { apps::Harris::plain(in, plain_out); };
    } else if (name == "unsharp") {
        const int W = quick ? 300 : 2560, H = quick ? 100 : 1920;
        Buffer<float> in = unsharp_input(W, H);
        app->description = "unsharp " + size_name(W, H) + " float";
        app->unit = "GB/s";
        app->key_func = "blur_x";
        app->work = 24.0 * W * H;
        app->output_sizes = {W, H, 3};
        app->default_widths = {64, 128, 256, 512, W};
        app->default_heights = {4, 8, 16, 32, 64};
        detail::set_variants<apps::Unsharp>(
            *app, [] { return new apps::Unsharp(); }, [](apps::Unsharp &a) { return a.output; }, in, Float(32),
            [](apps::Unsharp &a, int tw, int th, int v) { a.schedule_tiled(tw, th, v); },
            [](apps::Unsharp &a) { a.schedule_breadth_first(); });
        Buffer<float> plain_out(W, H, 3);
        app->plain = [=]() mutable { apps::Unsharp::plain(in, plain_out); };
    } else {
        return nullptr;
    }
    return app;
}

}  // namespace bench
