// Redundant-compute fusion: chains of stages computed at tiles of their consumer, each tile
// recomputing its halo, against the reference evaluator.
#include "TestUtil.h"
#include "../apps/cnn_block.h"

using namespace halo;

TEST_CASE("conv -> relu -> conv -> relu -> 2x2 max pool, breadth-first and fused") {
    for (int mode = 0; mode < 3; mode++) {
        apps::CnnBlock net(4);
        Buffer<float> in(2 * 13 + 4, 2 * 11 + 4, 4);
        halo_test::fill_random(in, -1, 1, 7);
        net.input.set(in);
        if (mode == 1) net.schedule_breadth_first(8);
        if (mode == 2) net.schedule_fused(8, 4, 8);
        INFO("mode " << mode);
        halo_test::check_against_reference(net.pool, Buffer<>(Float(32), {13, 11, 4}), 1e-4);
    }
}

TEST_CASE("the fused CNN block prints its fused structure") {
    apps::CnnBlock net(4);
    net.schedule_fused(8, 8, 8);
    std::string s = net.pool.lowered_stmt();
    // conv1 is produced inside the pool's tile loop, before conv2 consumes it.
    size_t tile = s.find("for (pool.s0.xo");
    size_t p1 = s.find("produce conv1");
    size_t p2 = s.find("produce conv2");
    size_t pp = s.find("produce pool");
    REQUIRE(tile != std::string::npos);
    CHECK(pp < tile);
    CHECK(tile < p1);
    CHECK(p1 < p2);
}

TEST_CASE("conv + bias + relu -> 2x2 average pool, conv at the pool's tiles") {
    Var x("x"), y("y"), c("c"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<float> in(std::vector<int>{40, 34, 3}, "in"), w(std::vector<int>{3, 3, 3, 5}, "w"), b(std::vector<int>{5}, "b");
    halo_test::fill_random(in, -1, 1, 1);
    halo_test::fill_random(w, -1, 1, 2);
    halo_test::fill_random(b, -1, 1, 3);
    RDom r(0, 3, 0, 3, 0, 3, "r");
    Func conv("conv"), relu("relu"), pool("pool");
    conv(x, y, c) = b(c);
    conv(x, y, c) += w(r.x, r.y, r.z, c) * in(x + r.x, y + r.y, r.z);
    relu(x, y, c) = max(conv(x, y, c), 0.0f);
    pool(x, y, c) = (relu(2 * x, 2 * y, c) + relu(2 * x + 1, 2 * y, c) + relu(2 * x, 2 * y + 1, c) +
                     relu(2 * x + 1, 2 * y + 1, c)) * 0.25f;
    pool.tile(x, y, xo, yo, xi, yi, 4, 4, TailStrategy::GuardWithIf).parallel(yo);
    conv.compute_at(pool, xo).vectorize(x, 4);
    conv.update().vectorize(x, 4);
    halo_test::check_against_reference(pool, Buffer<>(Float(32), {17, 15, 5}), 1e-4);
}

TEST_CASE("separable blur chain fused at tiles, with sizes the tiles do not divide") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<uint16_t> in(std::vector<int>{70, 50}, "in");
    in.set_min(-5, -7);
    halo_test::fill_random(in, 0, 65535, 4);
    Func bx("blur_x"), by("blur_y"), bx2("blur_x2"), by2("blur_y2");
    bx(x, y) = cast<uint16_t>((cast<uint32_t>(in(x, y)) + in(x + 1, y) + in(x + 2, y)) / 3);
    by(x, y) = cast<uint16_t>((cast<uint32_t>(bx(x, y)) + bx(x, y + 1) + bx(x, y + 2)) / 3);
    bx2(x, y) = cast<uint16_t>((cast<uint32_t>(by(x, y)) + by(x + 1, y) + by(x + 2, y)) / 3);
    by2(x, y) = cast<uint16_t>((cast<uint32_t>(bx2(x, y)) + bx2(x, y + 1) + bx2(x, y + 2)) / 3);
    by2.tile(x, y, xo, yo, xi, yi, 16, 8).vectorize(xi, 8).parallel(yo);
    for (Func *f : {&bx, &by, &bx2}) f->compute_at(by2, xo).vectorize(x, 8);
    Buffer<> out(UInt(16), {61, 39});
    out.set_min(-5, -7);
    halo_test::check_against_reference(by2, out);
}

TEST_CASE("int16 convolution + add with the conv computed at the add's tiles") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<int16_t> in(std::vector<int>{50, 40}, "in"), k(std::vector<int>{3, 3}, "k"), bias(std::vector<int>{50, 40}, "bias");
    halo_test::fill_random(in, -100, 100, 5);
    halo_test::fill_random(k, -3, 3, 6);
    halo_test::fill_random(bias, -1000, 1000, 7);
    RDom r(0, 3, 0, 3, "r");
    Func conv("conv"), add("add");
    conv(x, y) = cast<int16_t>(0);
    conv(x, y) += k(r.x, r.y) * in(x + r.x, y + r.y);
    add(x, y) = conv(x, y) + bias(x, y);
    add.tile(x, y, xo, yo, xi, yi, 16, 8).vectorize(xi, 16);
    conv.compute_at(add, xo).vectorize(x, 16);
    conv.update().vectorize(x, 16);
    halo_test::check_against_reference(add, Buffer<>(Int(16), {45, 37}));
}

TEST_CASE("conv -> relu -> conv fused, the first conv recomputing its halo per tile") {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Buffer<float> in(std::vector<int>{36, 30}, "in");
    halo_test::fill_random(in, -1, 1, 8);
    Func c1("c1"), r1("r1"), c2("c2");
    c1(x, y) = in(x, y) - in(x + 1, y + 1) + 0.5f * in(x + 2, y);
    r1(x, y) = max(c1(x, y), 0.0f);
    c2(x, y) = r1(x, y) + r1(x + 1, y) + r1(x, y + 2) * 2.0f;
    c2.tile(x, y, xo, yo, xi, yi, 8, 8, TailStrategy::GuardWithIf);
    c1.compute_at(c2, xo);
    r1.compute_at(c2, xo);
    halo_test::check_against_reference(c2, Buffer<>(Float(32), {31, 25}), 1e-5);
}

TEST_CASE("channels-innermost CNN block with register-blocked convolutions, fused and breadth-first") {
    for (int fused = 0; fused < 2; fused++) {
        apps::CnnBlock net(16, apps::CnnBlock::Layout::ChannelsInnermost);
        Buffer<float> in(net.image_shape(2 * 13 + 4, 2 * 11 + 4));
        halo_test::fill_random(in, -1, 1, 9);
        net.input.set(in);
        if (fused) net.schedule_fused_blocked(4, 4, 16, 8);
        else net.schedule_breadth_first_blocked(16, 8);
        INFO("fused " << fused);
        halo_test::check_against_reference(net.pool, Buffer<>(Float(32), net.image_shape(13, 11)), 1e-4);
    }
}
