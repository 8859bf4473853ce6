// unroll_clamped_loops: a short innermost loop whose copies lose their clamps is unrolled (the
// vectors of a ShiftInwards split of a tile-sized region, each copy at a constant offset, the
// last one shifted); loops whose clamps stay, or whose extent is not constant, stay loops. Every
// schedule is checked against the reference, at sizes the tiles do not divide, with non-zero mins.
#include "TestUtil.h"

#include <string>

using namespace halo;

namespace {

// A stencil consumer of a producer computed per tile of `tile` columns: the producer's region
// is tile + 2 wide, which vectors of 16 do not divide (ShiftInwards shifts the last one).
struct TiledStencil {
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"};
    Func in{"in"}, prod{"prod"}, out{"out"};
    explicit TiledStencil(int tile) {
        in(x, y) = cast<float>((x * 7 + y * 13) % 17) - 8.0f;
        prod(x, y) = in(x, y) * 2.0f + in(x, y + 1);
        out(x, y) = prod(x, y) + prod(x + 1, y) * 3.0f + prod(x + 2, y);
        out.split(x, xo, xi, tile).vectorize(xi, 16);
        prod.compute_at(out, xo).vectorize(x, 16);
    }
};

bool has_loop_over(const std::string &stmt, const std::string &loop) {
    return stmt.find("for (" + loop + ",") != std::string::npos;
}

}  // namespace

TEST_CASE("the vectors of a tile-sized ShiftInwards region are unrolled into copies at constant offsets") {
    TiledStencil t(64);  // 66 columns of prod: 5 vectors, the last shifted by 14
    std::string stmt = t.out.lowered_stmt();
    INFO(stmt);
    CHECK_FALSE(has_loop_over(stmt, "prod.s0.x"));
    CHECK(stmt.find("min(") != std::string::npos);  // the tile loop keeps its own shift
    for (auto [w, h, mx, my] : {std::tuple{256, 9, 0, 0}, {200, 7, -37, 5}, {100, 3, 11, -4}}) {
        Buffer<float> dst(w, h);
        dst.set_min(mx, my);
        INFO(w << "x" << h << " at (" << mx << ", " << my << ")");
        halo_test::check_against_reference(t.out, dst);
    }
}

TEST_CASE("loops whose extent is not constant, or too long, stay loops") {
    // prod at the root: its vector loop runs over the whole (run-time) width
    Var x("x"), y("y");
    Func in("in"), prod("prod"), out("out");
    in(x, y) = cast<float>(x + y);
    prod(x, y) = in(x, y) * 2.0f;
    out(x, y) = prod(x, y) + prod(x + 2, y);
    prod.compute_root().vectorize(x, 16);
    out.vectorize(x, 16);
    std::string stmt = out.lowered_stmt();
    INFO(stmt);
    CHECK(has_loop_over(stmt, "prod.s0.x"));
    // 1026 columns per tile: 65 vectors, more than are unrolled
    TiledStencil wide(1024);
    stmt = wide.out.lowered_stmt();
    INFO(stmt);
    CHECK(has_loop_over(stmt, "prod.s0.x"));
    Buffer<float> dst(2100, 3);
    halo_test::check_against_reference(wide.out, dst);
}
