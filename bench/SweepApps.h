// The apps the tile-size sweep knows: for each, a fused schedule parameterized by tile size,
// the breadth-first schedule, the plain C++ loops, the work done (for GB/s or GFLOP/s) and the
// Func whose recompute factor the sweep reports.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

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

// An app built from App's constructor and `schedule`, its input shared by all variants.
template <typename App, typename Make, typename Schedule>
SweepVariant variant(Make make, Schedule schedule, const halo::Buffer<> &input, std::function<halo::Func(App &)> out,
                     halo::Type t, std::vector<int> sizes) {
    auto app = std::shared_ptr<App>(make());
    schedule(*app);
    app->input.set(input);
    return {out(*app), halo::Buffer<>(t, sizes), app};
}

}  // namespace detail

inline std::unique_ptr<SweepApp> make_sweep_app(const std::string &name, bool quick) {
    using namespace halo;
    auto app = std::make_unique<SweepApp>();
    if (name == "cnn_block" || name == "cnn_block8") {
        const int C = name == "cnn_block" ? 32 : 8, vec = C >= 16 ? 16 : 8;
        const int W = quick ? 24 : (C == 32 ? 256 : 1024), H = W;
        auto in = std::make_shared<Buffer<float>>(C, 2 * W + 4, 2 * H + 4);
        in->for_each_value([](const std::vector<int> &p) { return float((p[1] * 7 + p[2] * 13 + p[0] * 29) % 101) / 101.0f - 0.3f; });
        using L = apps::CnnBlock::Layout;
        auto make = [C] { return new apps::CnnBlock(C, L::ChannelsInnermost); };
        auto out = [](apps::CnnBlock &n) { return n.pool; };
        std::vector<int> sizes = {C, W, H};
        app->description = "cnn_block " + std::to_string(W) + "x" + std::to_string(H) + "x" + std::to_string(C) +
                           " float, channels innermost";
        app->unit = "GFLOP/s";
        app->key_func = "conv1";
        app->work = 2.0 * 2 * (2.0 * W + 2) * (2.0 * H + 2) * C * C * 9;
        app->output_sizes = sizes;
        app->default_vector = vec;
        app->default_widths = {4, 8, 16, 32, 64};
        app->default_heights = {4, 8, 16, 32};
        app->fused = [=](int tw, int th, int v) {
            return detail::variant<apps::CnnBlock>(make, [=](apps::CnnBlock &n) { n.schedule_fused_blocked(tw, th, v); }, *in, out,
                                                   Float(32), sizes);
        };
        app->breadth_first = [=] {
            return detail::variant<apps::CnnBlock>(make, [=](apps::CnnBlock &n) { n.schedule_breadth_first_blocked(vec); }, *in,
                                                   out, Float(32), sizes);
        };
        auto ref = std::shared_ptr<apps::CnnBlock>(make());
        auto plain_out = std::make_shared<Buffer<float>>(C, W, H);
        app->plain = [=] { ref->plain(*in, *plain_out); };
    } else if (name == "dw_pw") {
        const int C = 32, W = quick ? 40 : 1024, H = W;
        auto in = std::make_shared<Buffer<float>>(C, W + 2, H + 2);
        in->for_each_value([](const std::vector<int> &p) { return float((p[1] * 7 + p[2] * 13 + p[0] * 29) % 101) / 101.0f - 0.3f; });
        auto make = [C] { return new apps::DepthwisePointwise(C); };
        auto out = [](apps::DepthwisePointwise &n) { return n.output; };
        std::vector<int> sizes = {C, W, H};
        app->description = "depthwise 3x3 -> pointwise 1x1, " + std::to_string(W) + "x" + std::to_string(H) + "x32 float";
        app->unit = "GFLOP/s";
        app->key_func = "relu1";
        app->work = 2.0 * W * H * C * (C + 9);
        app->output_sizes = sizes;
        app->default_widths = {8, 16, 32, 64, 128};
        app->default_heights = {2, 4, 8, 16};
        app->fused = [=](int tw, int th, int v) {
            return detail::variant<apps::DepthwisePointwise>(make, [=](apps::DepthwisePointwise &n) { n.schedule_tiled(tw, th, v); },
                                                             *in, out, Float(32), sizes);
        };
        app->breadth_first = [=] {
            return detail::variant<apps::DepthwisePointwise>(make, [](apps::DepthwisePointwise &n) { n.schedule_breadth_first(); },
                                                             *in, out, Float(32), sizes);
        };
        auto ref = std::shared_ptr<apps::DepthwisePointwise>(make());
        auto plain_out = std::make_shared<Buffer<float>>(C, W, H);
        app->plain = [=] { ref->plain(*in, *plain_out); };
    } else if (name == "blur") {
        const int W = quick ? 600 : 6400, H = quick ? 200 : 4800;
        auto in = std::make_shared<Buffer<uint16_t>>(W + 8, H + 2);
        for (int y = 0; y < H + 2; y++)
            for (int x = 0; x < W + 8; x++) (*in)(x, y) = uint16_t((x * 31 + y * 17) & 0xffff);
        auto make = [] { return new apps::Blur(); };
        auto out = [](apps::Blur &b) { return b.blur_y; };
        std::vector<int> sizes = {W, H};
        app->description = "blur " + std::to_string(W) + "x" + std::to_string(H) + " uint16";
        app->unit = "GB/s";
        app->key_func = "blur_x";
        app->work = 4.0 * W * H;
        app->output_sizes = sizes;
        app->default_widths = {128, 256, 512, 1024, W};
        app->default_heights = {2, 4, 8, 16, 32};
        app->fused = [=](int tw, int th, int v) {
            return detail::variant<apps::Blur>(make, [=](apps::Blur &b) { b.schedule_tiled(tw, th, v); }, *in, out, UInt(16), sizes);
        };
        app->breadth_first = [=] {
            return detail::variant<apps::Blur>(make, [](apps::Blur &b) { b.schedule_breadth_first(); }, *in, out, UInt(16), sizes);
        };
        auto plain_out = std::make_shared<Buffer<uint16_t>>(W, H);
        app->plain = [=] { apps::Blur::plain(*in, *plain_out); };
    } else if (name == "harris" || name == "unsharp") {
        const bool harris = name == "harris";
        const int W = quick ? 300 : 2560, H = quick ? 100 : 1920;
        auto in = std::make_shared<Buffer<float>>(harris ? std::vector<int>{W + 4, H + 4} : std::vector<int>{W + 4, H + 4, 3});
        in->for_each_value([](const std::vector<int> &p) { return float((p[0] * 7 + p[1] * 13) % 256) / 255.0f; });
        std::vector<int> sizes = harris ? std::vector<int>{W, H} : std::vector<int>{W, H, 3};
        app->description = name + " " + std::to_string(W) + "x" + std::to_string(H) + " float";
        app->unit = "GB/s";
        app->key_func = harris ? "Ix" : "blur_x";
        app->work = harris ? 8.0 * W * H : 24.0 * W * H;
        app->output_sizes = sizes;
        app->default_widths = {64, 128, 256, 512, W};
        app->default_heights = {4, 8, 16, 32, 64};
        auto plain_out = std::make_shared<Buffer<float>>(sizes);
        if (harris) {
            auto make = [] { return new apps::Harris(); };
            auto out = [](apps::Harris &a) { return a.output; };
            app->fused = [=](int tw, int th, int v) {
                return detail::variant<apps::Harris>(make, [=](apps::Harris &a) { a.schedule_tiled(tw, th, v); }, *in, out, Float(32), sizes);
            };
            app->breadth_first = [=] {
                return detail::variant<apps::Harris>(make, [](apps::Harris &a) { a.schedule_breadth_first(); }, *in, out, Float(32), sizes);
            };
            app->plain = [=] { apps::Harris::plain(*in, *plain_out); };
        } else {
            auto make = [] { return new apps::Unsharp(); };
            auto out = [](apps::Unsharp &a) { return a.output; };
            app->fused = [=](int tw, int th, int v) {
                return detail::variant<apps::Unsharp>(make, [=](apps::Unsharp &a) { a.schedule_tiled(tw, th, v); }, *in, out, Float(32), sizes);
            };
            app->breadth_first = [=] {
                return detail::variant<apps::Unsharp>(make, [](apps::Unsharp &a) { a.schedule_breadth_first(); }, *in, out, Float(32), sizes);
            };
            app->plain = [=] { apps::Unsharp::plain(*in, *plain_out); };
        }
    } else {
        return nullptr;
    }
    return app;
}

}  // namespace bench
