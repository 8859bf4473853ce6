// The apps (blur, harris, unsharp, local Laplacian) under every schedule, at small sizes that
// the tiles do not divide, against their plain C++ references.
#include "TestUtil.h"
#include "../apps/blur.h"
#include "../apps/cnn_block.h"
#include "../apps/conv_variants.h"
#include "../apps/dw_pw.h"
#include "../apps/harris.h"
#include "../apps/local_laplacian.h"
#include "../apps/unsharp.h"

using namespace halo;

namespace {

enum class Sched { None, BreadthFirst, Tiled };
const Sched all_schedules[] = {Sched::None, Sched::BreadthFirst, Sched::Tiled};

template <typename App>
void apply(App &app, Sched s, int tw, int th, int vec) {
    if (s == Sched::BreadthFirst) app.schedule_breadth_first(vec);
    if (s == Sched::Tiled) app.schedule_tiled(tw, th, vec);
}

}  // namespace

TEST_CASE("blur: every schedule equals the plain C++ loops exactly, including uint16 wrap-around") {
    const int W = 77, H = 45;
    Buffer<uint16_t> in = halo_test::random_image<uint16_t>({W + 2, H + 2}, 3, 0, 65535);
    Buffer<uint16_t> expected(W, H);
    apps::Blur::plain(in, expected);
    for (Sched s : all_schedules) {
        apps::Blur app;
        apply(app, s, 32, 16, 16);
        app.input.set(in);
        Buffer<uint16_t> out(W, H);
        app.blur_y.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::compare(out, expected) == "");
    }
}

TEST_CASE("blur: a tiled realization at a non-zero origin matches the reference evaluator") {
    apps::Blur app;
    app.schedule_tiled(16, 8, 8);
    Buffer<uint16_t> in = halo_test::random_image<uint16_t>({40, 30}, 5, 0, 65535);
    in.set_min({-9, -4});
    app.input.set(in);
    Buffer<> out(UInt(16), {37, 21});
    out.set_min({-8, -3});
    halo_test::check_against_reference(app.blur_y, out);
}

TEST_CASE("blur and harris: Halide's sliding-window schedules match, at strips the height does not divide") {
    {
        const int W = 77, H = 45;
        Buffer<uint16_t> in = halo_test::random_image<uint16_t>({W + 2, H + 2}, 3, 0, 65535);
        Buffer<uint16_t> expected(W, H), out(W, H);
        apps::Blur::plain(in, expected);
        apps::Blur app;
        app.schedule_sliding(8, 16);
        app.input.set(in);
        app.blur_y.realize(out);
        CHECK(halo_test::compare(out, expected) == "");
        CHECK(halo_test::contains(app.blur_y.lowered_stmt(), "// blur_x: storage folded modulo 4 in dimension y"));
    }
    {
        const int W = 70, H = 37;
        Buffer<float> in = halo_test::random_image<float>({W + 4, H + 4}, 11, 0, 1);
        Buffer<float> expected(W, H), out(W, H);
        apps::Harris::plain(in, expected);
        apps::Harris app;
        app.schedule_sliding(8, 16);
        app.input.set(in);
        app.output.realize(out);
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
        CHECK(halo_test::contains(app.output.lowered_stmt(), "// Ix: sliding window over"));
    }
}

TEST_CASE("harris: every schedule matches the plain C++ loops") {
    const int W = 70, H = 37;
    Buffer<float> in = halo_test::random_image<float>({W + 4, H + 4}, 11, 0, 1);
    Buffer<float> expected(W, H);
    apps::Harris::plain(in, expected);
    for (Sched s : all_schedules) {
        apps::Harris app;
        apply(app, s, 32, 16, 16);
        app.input.set(in);
        Buffer<float> out(W, H);
        app.output.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
    }
}

TEST_CASE("unsharp: every schedule matches the plain C++ loops") {
    const int W = 51, H = 35;
    Buffer<float> in = halo_test::random_image<float>({W + 4, H + 4, 3}, 13, 0, 1);
    Buffer<float> expected(W, H, 3);
    apps::Unsharp::plain(in, expected);
    for (Sched s : all_schedules) {
        apps::Unsharp app;
        apply(app, s, 16, 8, 8);
        app.input.set(in);
        Buffer<float> out(W, H, 3);
        app.output.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
    }
}

TEST_CASE("local Laplacian: every schedule matches the plain C++ pyramids") {
    const int W = 45, H = 38;
    Buffer<float> in = halo_test::random_image<float>({W, H, 3}, 17, 0, 1);
    // Not unscheduled: inlining every pyramid level into the output recomputes exponentially.
    for (Sched s : {Sched::BreadthFirst, Sched::Tiled}) {
        apps::LocalLaplacian app(6, 3, 1.5f, 0.8f);
        apply(app, s, 16, 8, 8);
        app.input.set(in);
        Buffer<float> out(W, H, 3), expected(W, H, 3);
        app.plain(in, expected);
        app.output.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::max_difference(out, expected) < 1e-4);
    }
    // The collapse per strip of rows, at strip heights that do not divide the output
    for (int strip : {8, 16}) {
        apps::LocalLaplacian app(6, 3, 1.5f, 0.8f);
        app.schedule_fused_strips(strip, 8);
        app.input.set(in);
        Buffer<float> out(W, H, 3), expected(W, H, 3);
        app.plain(in, expected);
        app.output.realize(out);
        INFO("strips of " << strip);
        CHECK(halo_test::max_difference(out, expected) < 1e-4);
    }
}

TEST_CASE("cnn_block (channels innermost): fused, breadth-first and sliding blocked schedules match the plain C++ loops") {
    const int C = 16, W = 13, H = 10;
    Buffer<float> in = halo_test::random_image<float>({C, 2 * W + 4, 2 * H + 4}, 19, -1, 1);
    Buffer<float> expected(C, W, H);
    apps::CnnBlock(C, apps::CnnBlock::Layout::ChannelsInnermost).plain(in, expected);
    for (int mode = 0; mode < 4; mode++) {
        apps::CnnBlock net(C, apps::CnnBlock::Layout::ChannelsInnermost);
        if (mode == 0) net.schedule_fused_blocked(4, 3, 8);
        if (mode == 1) net.schedule_breadth_first_blocked(8);
        if (mode == 2) net.schedule_sliding_blocked(4, 8);  // strips of 4 rows; 10 is not a multiple
        if (mode == 3) net.schedule_sliding_blocked(3, 8);   // odd strips
        if (mode >= 2) {
            std::string stmt = net.pool.lowered_stmt();
            INFO(stmt);
            CHECK(halo_test::contains(stmt, "conv1: sliding window over"));
            CHECK(halo_test::contains(stmt, "conv2: sliding window over"));
            CHECK(halo_test::contains(stmt, "conv1: storage folded modulo 4"));
        }
        net.input.set(in);
        Buffer<float> out(C, W, H);
        net.pool.realize(out);
        INFO("mode " << mode);
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
    }
}

TEST_CASE("depthwise -> pointwise: every schedule matches the plain C++ loops") {
    const int C = 16, W = 29, H = 11;
    Buffer<float> in = halo_test::random_image<float>({C, W + 2, H + 2}, 23, -1, 1);
    Buffer<float> expected(C, W, H);
    apps::DepthwisePointwise(C).plain(in, expected);
    for (Sched s : all_schedules) {
        apps::DepthwisePointwise app(C);
        apply(app, s, 8, 4, 8);
        app.input.set(in);
        Buffer<float> out(C, W, H);
        app.output.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
    }
}

TEST_CASE("conv + bias + relu -> 2x2 average pool: every schedule matches the plain C++ loops") {
    const int W = 21, H = 9;
    Buffer<float> in = halo_test::random_image<float>({2 * W + 2, 2 * H + 2, 5}, 29, -1, 1);
    Buffer<float> expected(W, H, 6);
    apps::ConvAvgPool(5, 6).plain(in, expected);
    for (Sched s : all_schedules) {
        apps::ConvAvgPool app(5, 6);
        apply(app, s, 8, 4, 8);
        app.input.set(in);
        Buffer<float> out(W, H, 6);
        app.pool.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::max_difference(out, expected) < 1e-5);
    }
}

TEST_CASE("int16 conv + add: every schedule equals the plain C++ loops, wrap-around included") {
    const int W = 75, H = 19;
    Buffer<int16_t> in = halo_test::random_image<int16_t>({W + 2, H + 2}, 31, -30000, 30000);
    Buffer<int16_t> res = halo_test::random_image<int16_t>({W, H}, 37, -30000, 30000);
    Buffer<int16_t> expected(W, H);
    apps::Int16ConvAdd().plain(in, res, expected);
    for (Sched s : all_schedules) {
        apps::Int16ConvAdd app;
        apply(app, s, 32, 8, 16);
        app.input.set(in);
        app.residual.set(res);
        Buffer<int16_t> out(W, H);
        app.output.realize(out);
        INFO("schedule " << int(s));
        CHECK(halo_test::compare(out, expected) == "");
    }
}

TEST_CASE("bounds of a deep pyramid name the consumers' bounds instead of expanding them") {
    // Before the bounds lets were lifted, a 3-level pyramid lowered to 12 million characters of
    // IR (each level's bounds repeated its consumers' expanded bounds); now it grows linearly.
    // (167,000 characters at 3 levels since the vector loops' clamps are partitioned: each
    // innermost loop with a ShiftInwards clamp has a steady state and a tail.)
    std::vector<size_t> sizes;
    for (int levels : {3, 5}) {
        apps::LocalLaplacian app(8, levels);
        app.schedule_breadth_first();
        sizes.push_back(app.output.lowered_stmt().size());
    }
    INFO("IR sizes " << sizes[0] << ", " << sizes[1]);
    CHECK(sizes[0] < 200000);
    CHECK(sizes[1] < 2 * sizes[0]);
}
