// The apps as generators, for ahead-of-time compilation (registered in generators.cpp).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "blur.h"
#include "cnn_block.h"
#include "conv_relu.h"
#include "dsl/Halo.h"
#include "dw_pw.h"
#include "harris.h"
#include "local_laplacian.h"
#include "unsharp.h"

namespace apps {

// The ranges the apps' GeneratorParams accept: wide enough for any sensible schedule, narrow
// enough that a typo cannot ask for a pipeline that takes hours to compile or run.
constexpr int max_vector_width = 64;  // 64 lanes of uint8 fill an AVX-512 register
constexpr int max_tile_size = 1024;

// The seeds' conv + bias + relu (3 -> 10 channels), weights compiled in as constant data.
class ConvReluGenerator : public halo::Generator<ConvReluGenerator> {
public:
    halo::GeneratorParam<int> vector_width{"vector_width", 8, 1, max_vector_width};
    halo::GeneratorParam<bool> parallel{"parallel", true};
    halo::Input<halo::Buffer<float>> input{"input", 3};
    halo::Output<halo::Buffer<float>> output{"output", 3};

    void generate() {
        net = std::make_unique<ConvRelu>(input);
        output(x, y, c) = net->relu(x, y, c);
    }
    void schedule() {
        halo::Var xo("xo"), xi("xi");
        net->conv.compute_root().split(x, xo, xi, int(vector_width)).vectorize(xi);
        output.split(x, xo, xi, int(vector_width)).vectorize(xi);
        if (parallel) {
            net->conv.parallel(c);
            output.parallel(c);
        }
    }

private:
    halo::Var x{"x"}, y{"y"}, c{"c"};
    std::unique_ptr<ConvRelu> net;
};

// Brightness and contrast on an 8-bit image: a scalar input and saturating arithmetic.
class BrightenGenerator : public halo::Generator<BrightenGenerator> {
public:
    halo::GeneratorParam<int> vector_width{"vector_width", 16, 1, max_vector_width};
    halo::Input<halo::Buffer<uint8_t>> input{"input", 2};
    halo::Input<float> gain{"gain"};
    halo::Input<int> offset{"offset"};
    halo::Output<halo::Buffer<uint8_t>> output{"output", 2};

    void generate() {
        using namespace halo;
        output(x, y) = saturating_cast<uint8_t>(input(x, y) * gain + offset);
    }
    void schedule() {
        halo::Var xo("xo"), xi("xi");
        output.split(x, xo, xi, int(vector_width), halo::TailStrategy::GuardWithIf).vectorize(xi).parallel(y);
    }

private:
    halo::Var x{"x"}, y{"y"};
};

// Two outputs from one pass over the input (a generator with several Outputs, one of them
// Tuple-valued): a 3x3 box blur, and per pixel the {min, max} of its 3x3 neighbourhood.
class BlurRangeGenerator : public halo::Generator<BlurRangeGenerator> {
public:
    halo::Input<halo::Buffer<uint8_t>> input{"input", 2};
    halo::Output<halo::Buffer<uint16_t>> blurred{"blurred", 2};
    halo::Output<halo::Func> range{"range", {halo::UInt(8), halo::UInt(8)}, 2};

    void generate() {
        using namespace halo;
        Expr lo = input(x - 1, y - 1), hi = lo, total = cast<uint16_t>(0);
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                Expr v = input(x + dx, y + dy);
                lo = min(lo, v);
                hi = max(hi, v);
                total = total + cast<uint16_t>(v);
            }
        }
        blurred(x, y) = total;
        range(x, y) = {lo, hi};
    }
    void schedule() {
        blurred.vectorize(x, 16).parallel(y);
        range.vectorize(x, 32).parallel(y);
    }

private:
    halo::Var x{"x"}, y{"y"};
};

// The seeds' CNN block (conv -> relu -> conv -> relu -> 2x2 max pool), weights compiled in.
// The schedule and its tile sizes are generator parameters, for tile-size sweeps.
class CnnBlockGenerator : public halo::Generator<CnnBlockGenerator> {
public:
    enum class Schedule { BreadthFirst, Fused, Blocked, BreadthFirstBlocked, SlidingBlocked };
    // The weights (9 x channels^2 per layer) are compiled in as constant data.
    halo::GeneratorParam<int> channels{"channels", 32, 1, 256};
    halo::GeneratorParam<Schedule> schedule_kind{
        "schedule", Schedule::Blocked,
        {{"breadth_first", Schedule::BreadthFirst}, {"fused", Schedule::Fused}, {"blocked", Schedule::Blocked},
         {"breadth_first_blocked", Schedule::BreadthFirstBlocked}, {"sliding_blocked", Schedule::SlidingBlocked}}};
    halo::GeneratorParam<int> tile_w{"tile_w", 8, 1, max_tile_size};
    halo::GeneratorParam<int> tile_h{"tile_h", 8, 1, max_tile_size};
    halo::GeneratorParam<int> vector_width{"vector_width", 16, 1, max_vector_width};
    // Images are (x, y, c) for breadth_first and fused, (c, x, y) for the blocked schedules.
    // sliding_blocked: strips of tile_h output rows (tile_w is not used).
    halo::Input<halo::Buffer<float>> input{"input", 3};
    halo::Output<halo::Buffer<float>> output{"output", 3};

    void generate() {
        net = std::make_unique<CnnBlock>(int(channels), is_blocked() ? CnnBlock::Layout::ChannelsInnermost : CnnBlock::Layout::Planar,
                                         input);
        output(net->at(net->c, net->x, net->y)) = net->pool(net->at(net->c, net->x, net->y));
    }
    void schedule() {
        if (auto_schedule) {  // the benchmarks' size
            if (is_blocked()) output.set_estimates({{0, int(channels)}, {0, 256}, {0, 256}});
            else output.set_estimates({{0, 256}, {0, 256}, {0, int(channels)}});
            return;
        }
        // The output stands in for the pool: the pool itself is inlined into it.
        halo::Func pool = net->pool;
        net->pool = output;
        switch (schedule_kind.value()) {
        case Schedule::BreadthFirst: net->schedule_breadth_first(vector_width); break;
        case Schedule::Fused: net->schedule_fused(tile_w, tile_h, vector_width); break;
        case Schedule::Blocked: net->schedule_fused_blocked(tile_w, tile_h, vector_width); break;
        case Schedule::BreadthFirstBlocked: net->schedule_breadth_first_blocked(vector_width); break;
        case Schedule::SlidingBlocked: net->schedule_sliding_blocked(tile_h, vector_width); break;
        }
        net->pool = pool;
    }

private:
    bool is_blocked() const { return schedule_kind.value() != Schedule::BreadthFirst && schedule_kind.value() != Schedule::Fused; }
    std::unique_ptr<CnnBlock> net;
};

// The schedules the image apps offer, as a generator parameter.
enum class AppSchedule { BreadthFirst, Tiled };
inline const std::map<std::string, AppSchedule> &app_schedule_names() {
    static const std::map<std::string, AppSchedule> names = {{"breadth_first", AppSchedule::BreadthFirst},
                                                             {"tiled", AppSchedule::Tiled}};
    return names;
}

// Schedules an app whose last Func `last` feeds the generator's output: the app's schedule is
// applied to the output in its place (`last` itself is then inlined into the output).
template <typename App>
void schedule_app_for_output(App &app, halo::Func &last, const halo::Func &output, AppSchedule kind, int tile_w,
                             int tile_h, int vector_width) {
    halo::Func saved = last;
    last = output;
    if (kind == AppSchedule::BreadthFirst) app.schedule_breadth_first(vector_width);
    else app.schedule_tiled(tile_w, tile_h, vector_width);
    last = saved;
}

// Parameters shared by the image app generators.
template <typename T>
class TiledAppGenerator : public halo::Generator<T> {
public:
    halo::GeneratorParam<AppSchedule> schedule_kind{"schedule", AppSchedule::Tiled, app_schedule_names()};
    halo::GeneratorParam<int> tile_w{"tile_w", 256, 1, max_tile_size};
    halo::GeneratorParam<int> tile_h{"tile_h", 32, 1, max_tile_size};
    halo::GeneratorParam<int> vector_width{"vector_width", 16, 1, max_vector_width};
};

// 3x3 box blur on uint16: input (W + 2) x (H + 2), output W x H.
class BlurGenerator : public TiledAppGenerator<BlurGenerator> {
public:
    halo::Input<halo::Buffer<uint16_t>> input{"input", 2};
    halo::Output<halo::Buffer<uint16_t>> output{"output", 2};
    void generate() {
        app = std::make_unique<Blur>(input);
        output(app->x, app->y) = app->blur_y(app->x, app->y);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, 6400}, {0, 4800}});  // the benchmarks' size
        else schedule_app_for_output(*app, app->blur_y, output, schedule_kind, tile_w, tile_h, vector_width);
    }

private:
    std::unique_ptr<Blur> app;
};

// Harris corner response: float input (W + 4) x (H + 4), output W x H.
class HarrisGenerator : public TiledAppGenerator<HarrisGenerator> {
public:
    halo::Input<halo::Buffer<float>> input{"input", 2};
    halo::Output<halo::Buffer<float>> output{"output", 2};
    void generate() {
        app = std::make_unique<Harris>(input);
        output(app->x, app->y) = app->output(app->x, app->y);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, 2560}, {0, 1920}});  // the benchmarks' size
        else schedule_app_for_output(*app, app->output, output, schedule_kind, tile_w, tile_h, vector_width);
    }

private:
    std::unique_ptr<Harris> app;
};

// Unsharp mask: RGB float input (W + 4) x (H + 4) x 3, output W x H x 3.
class UnsharpGenerator : public TiledAppGenerator<UnsharpGenerator> {
public:
    halo::Input<halo::Buffer<float>> input{"input", 3};
    halo::Output<halo::Buffer<float>> output{"output", 3};
    void generate() {
        app = std::make_unique<Unsharp>(input);
        output(app->x, app->y, app->c) = app->output(app->x, app->y, app->c);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, 2560}, {0, 1920}, {0, 3}});  // the benchmarks' size
        else schedule_app_for_output(*app, app->output, output, schedule_kind, tile_w, tile_h, vector_width);
    }

private:
    std::unique_ptr<Unsharp> app;
};

// Depthwise 3x3 -> relu -> pointwise 1x1 -> relu on channels-innermost float images: input
// (C, W + 2, H + 2), output (C, W, H); weights compiled in.
class DwPwGenerator : public TiledAppGenerator<DwPwGenerator> {
public:
    halo::GeneratorParam<int> channels{"channels", 32, 1, 256};
    halo::Input<halo::Buffer<float>> input{"input", 3};
    halo::Output<halo::Buffer<float>> output{"output", 3};
    void generate() {
        app = std::make_unique<DepthwisePointwise>(int(channels), input);
        output(app->c, app->x, app->y) = app->output(app->c, app->x, app->y);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, int(channels)}, {0, 1024}, {0, 1024}});  // the benchmarks' size
        else schedule_app_for_output(*app, app->output, output, schedule_kind, tile_w, tile_h, vector_width);
    }

private:
    std::unique_ptr<DepthwisePointwise> app;
};

// Local Laplacian filter: RGB float in and out, the same size; alpha and beta set the detail
// and the contrast.
class LocalLaplacianGenerator : public TiledAppGenerator<LocalLaplacianGenerator> {
public:
    // Intensity levels: at least 2 (the remapping interpolates between neighbours); each one
    // is a full-size image in the finest pyramid level.
    halo::GeneratorParam<int> levels{"levels", 8, 2, 64};
    // Every level adds a dozen stages, and compile time grows faster than linearly (16 levels
    // compile in about half a minute); 16 levels halve a 65536-pixel image down to 2 pixels.
    halo::GeneratorParam<int> pyramid_levels{"pyramid_levels", 4, 1, 16};
    halo::GeneratorParam<float> alpha{"alpha", 1.0f};
    halo::GeneratorParam<float> beta{"beta", 1.0f};
    halo::Input<halo::Buffer<float>> input{"input", 3};
    halo::Output<halo::Buffer<float>> output{"output", 3};
    void generate() {
        app = std::make_unique<LocalLaplacian>(levels, pyramid_levels, alpha, beta, input);
        output(app->x, app->y, app->c) = app->output(app->x, app->y, app->c);
    }
    void schedule() {
        if (auto_schedule) output.set_estimates({{0, 1536}, {0, 1024}, {0, 3}});  // the benchmarks' size
        else schedule_app_for_output(*app, app->output, output, schedule_kind, tile_w, tile_h, vector_width);
    }

private:
    std::unique_ptr<LocalLaplacian> app;
};

}  // namespace apps
