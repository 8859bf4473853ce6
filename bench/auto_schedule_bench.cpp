// auto_schedule against the hand schedules of the apps (tiled, and the best: sliding windows for
// blur and harris, register-blocked convolutions), in one run (median of 7 interleaved rounds),
// with the time each automatic schedule took to choose (stderr).
#include "dsl/Halo.h"
#include "BenchUtil.h"
#include "AppInputs.h"
#include "blur.h"
#include "harris.h"
#include "unsharp.h"
#include "cnn_block.h"
#include "dw_pw.h"
#include "local_laplacian.h"
#include <iostream>
using namespace halo;
int main() {
    std::vector<bench::Case> cases;
    std::vector<std::shared_ptr<void>> keep;
    auto add = [&](std::string name, Func f, Buffer<> out, std::shared_ptr<void> k) {
        keep.push_back(k);
        f.compile_jit();
        cases.push_back({name, [f, out]() mutable { f.realize(out); }, {}});
    };
    {   Buffer<uint16_t> in = bench::blur_input(6400, 4800);
        auto h = std::make_shared<apps::Blur>(); h->schedule_tiled(256, 32, 16); h->input.set(in);
        add("blur hand 256x32", h->blur_y, Buffer<uint16_t>(6400, 4800), h);
        auto sl = std::make_shared<apps::Blur>(); sl->schedule_sliding(32, 16); sl->input.set(in);
        add("blur hand sliding", sl->blur_y, Buffer<uint16_t>(6400, 4800), sl);
        auto a = std::make_shared<apps::Blur>(); auto r = auto_schedule(a->blur_y, {6400, 4800}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("blur auto", a->blur_y, Buffer<uint16_t>(6400, 4800), a); }
    {   Buffer<float> in = bench::harris_input(2560, 1920);
        auto h = std::make_shared<apps::Harris>(); h->schedule_tiled(256, 32, 16); h->input.set(in);
        add("harris hand 256x32", h->output, Buffer<float>(2560, 1920), h);
        auto sl = std::make_shared<apps::Harris>(); sl->schedule_sliding(32, 16); sl->input.set(in);
        add("harris hand sliding", sl->output, Buffer<float>(2560, 1920), sl);
        auto a = std::make_shared<apps::Harris>(); auto r = auto_schedule(a->output, {2560, 1920}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("harris auto", a->output, Buffer<float>(2560, 1920), a); }
    {   Buffer<float> in = bench::unsharp_input(2560, 1920);
        auto h = std::make_shared<apps::Unsharp>(); h->schedule_tiled(256, 32, 16); h->input.set(in);
        add("unsharp hand 256x32", h->output, Buffer<float>(2560, 1920, 3), h);
        auto a = std::make_shared<apps::Unsharp>(); auto r = auto_schedule(a->output, {2560, 1920, 3}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("unsharp auto", a->output, Buffer<float>(2560, 1920, 3), a); }
    {   const int C = 32, W = 256;
        Buffer<float> in = bench::channels_innermost_input(C, 2 * W + 4, 2 * W + 4);
        auto h = std::make_shared<apps::CnnBlock>(C, apps::CnnBlock::Layout::ChannelsInnermost); h->schedule_fused_blocked(64, 32, 16); h->input.set(in);
        add("cnn_block hand 64x32", h->pool, Buffer<float>(C, W, W), h);
        auto a = std::make_shared<apps::CnnBlock>(C, apps::CnnBlock::Layout::ChannelsInnermost); auto r = auto_schedule(a->pool, {C, W, W}); a->input.set(in);
        std::cerr << r.source << r.summary << r.seconds * 1000 << " ms\n";
        add("cnn_block auto", a->pool, Buffer<float>(C, W, W), a); }
    {   const int C = 8, W = 1024;  // cnn_block8: the sweep's best hand tile is 64x16
        Buffer<float> in = bench::channels_innermost_input(C, 2 * W + 4, 2 * W + 4);
        auto h = std::make_shared<apps::CnnBlock>(C, apps::CnnBlock::Layout::ChannelsInnermost); h->schedule_fused_blocked(64, 16, 8); h->input.set(in);
        add("cnn_block8 hand 64x16", h->pool, Buffer<float>(C, W, W), h);
        auto a = std::make_shared<apps::CnnBlock>(C, apps::CnnBlock::Layout::ChannelsInnermost); auto r = auto_schedule(a->pool, {C, W, W}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("cnn_block8 auto", a->pool, Buffer<float>(C, W, W), a); }
    {   const int C = 32, W = 1024;
        Buffer<float> in = bench::channels_innermost_input(C, W + 2, W + 2);
        // The best hand tiles on this machine (8x2: 14.2 ms against 17.8 for 32x8, 2026-11-30).
        auto h = std::make_shared<apps::DepthwisePointwise>(C); h->schedule_tiled(8, 2, 16); h->input.set(in);
        add("dw_pw hand 8x2", h->output, Buffer<float>(C, W, W), h);
        auto a = std::make_shared<apps::DepthwisePointwise>(C); auto r = auto_schedule(a->output, {C, W, W}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("dw_pw auto", a->output, Buffer<float>(C, W, W), a); }
    {   Buffer<float> in(1536, 1024, 3); in.for_each_value([](const std::vector<int>&p){ return float((p[0]*7+p[1]*13+p[2]*5)%256)/255.f; });
        auto h = std::make_shared<apps::LocalLaplacian>(); h->schedule_tiled(64, 32, 8); h->input.set(in);
        add("local_laplacian hand 64x32", h->output, Buffer<float>(1536, 1024, 3), h);
        auto b = std::make_shared<apps::LocalLaplacian>(); b->schedule_breadth_first(8); b->input.set(in);
        add("local_laplacian breadth-first", b->output, Buffer<float>(1536, 1024, 3), b);
        auto a = std::make_shared<apps::LocalLaplacian>(); auto r = auto_schedule(a->output, {1536, 1024, 3}); a->input.set(in);
        std::cerr << r.summary << r.seconds * 1000 << " ms\n";
        add("local_laplacian auto", a->output, Buffer<float>(1536, 1024, 3), a); }
    bench::run_interleaved(cases, 7);
    for (auto &c : cases) printf("%-32s %8.2f ms median %8.2f min\n", c.name.c_str(), c.median(), c.min());
}
