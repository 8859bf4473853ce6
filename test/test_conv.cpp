// The seeds' example: a valid 3x3 convolution, 3 input channels -> 10 output channels,
// plus bias and ReLU, against a plain C++ loop.
#include "TestUtil.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace halo;

namespace {

constexpr int W = 64, H = 48, CI = 3, CO = 10;

struct ConvData {
    Buffer<float> in{W + 2, H + 2, CI};
    Buffer<float> w{3, 3, CI, CO};
    Buffer<float> b{CO};
    ConvData() {
        halo_test::fill_random(in, -1, 1, 1);
        halo_test::fill_random(w, -0.5, 0.5, 2);
        halo_test::fill_random(b, -0.2, 0.2, 3);
    }
    // relu(b(co) + sum w(kx, ky, ci, co) * in(x + kx, y + ky, ci))
    double expected(int x, int y, int co) const {
        double acc = b(co);
        for (int ci = 0; ci < CI; ci++)
            for (int ky = 0; ky < 3; ky++)
                for (int kx = 0; kx < 3; kx++) acc += double(w(kx, ky, ci, co)) * double(in(x + kx, y + ky, ci));
        return std::max(acc, 0.0);
    }
};

void check_conv(const ConvData &d, const Buffer<float> &out, int x0 = 0, int y0 = 0) {
    int bad = 0, positive = 0;
    std::string first;
    for (int co = 0; co < CO; co++)
        for (int y = y0; y < y0 + out.dim(1).extent(); y++)
            for (int x = x0; x < x0 + out.dim(0).extent(); x++) {
                double e = d.expected(x, y, co), g = out(x, y, co);
                if (e > 0) positive++;
                if (!(std::fabs(g - e) <= 1e-4 * std::max(1.0, std::fabs(e)))) {  // (a NaN fails)
                    if (!bad++) first = "at (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(co) +
                                        "): got " + std::to_string(g) + ", expected " + std::to_string(e);
                }
            }
    CHECK_MESSAGE(bad == 0, bad << " mismatches; first " << first);
    CHECK(positive > 0);  // the ReLU did not zero everything
    CHECK(positive < out.dim(0).extent() * out.dim(1).extent() * CO);  // nor nothing
}

}  // namespace

TEST_CASE("conv2d 3x3, 3 -> 10 channels, bias and relu") {
    ConvData d;
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, 3);
    Func conv("conv"), relu("relu");
    conv(x, y, co) = d.b(co) + sum(d.w(r.x, r.y, r.z, co) * d.in(x + r.x, y + r.y, r.z));
    relu(x, y, co) = max(conv(x, y, co), 0.0f);
    conv.compute_root();
    Buffer<float> out = relu.realize({W, H, CO});
    REQUIRE(out.dimensions() == 3);
    CHECK(out.dim(0).extent() == W);
    CHECK(out.dim(1).extent() == H);
    CHECK(out.dim(2).extent() == CO);
    check_conv(d, out);
}

TEST_CASE("conv2d with ImageParams and an update definition instead of sum") {
    ConvData d;
    ImageParam in(Float(32), 3, "in"), w(Float(32), 4, "w"), b(Float(32), 1, "b");
    in.set(d.in);
    w.set(d.w);
    b.set(d.b);
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, CI);
    Func conv("conv"), relu("relu");
    conv(x, y, co) = b(co);
    conv(x, y, co) += w(r.x, r.y, r.z, co) * in(x + r.x, y + r.y, r.z);
    relu(x, y, co) = max(conv(x, y, co), 0.0f);
    conv.compute_root();
    Buffer<float> out = relu.realize({W, H, CO});
    check_conv(d, out);
}

TEST_CASE("conv2d scheduled: vectorized, parallel, conv computed per output row") {
    ConvData d;
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, 3);
    Func conv("conv"), relu("relu");
    conv(x, y, co) = d.b(co);
    conv(x, y, co) += d.w(r.x, r.y, r.z, co) * d.in(x + r.x, y + r.y, r.z);
    relu(x, y, co) = max(conv(x, y, co), 0.0f);
    relu.reorder(x, y, co).vectorize(x, 8).parallel(co);
    conv.compute_at(relu, y).vectorize(x, 8);
    conv.update(0).vectorize(x, 8);
    Buffer<float> out = relu.realize({W, H, CO});
    check_conv(d, out);
}

TEST_CASE("conv2d over a sub-region with non-zero output mins") {
    ConvData d;
    Var x("x"), y("y"), co("co");
    RDom r(0, 3, 0, 3, 0, 3);
    Func conv("conv"), relu("relu");
    conv(x, y, co) = d.b(co) + sum(d.w(r.x, r.y, r.z, co) * d.in(x + r.x, y + r.y, r.z));
    relu(x, y, co) = max(conv(x, y, co), 0.0f);
    conv.compute_root();
    Buffer<float> out(37, 21, CO);
    out.set_min(13, 9, 0);
    relu.realize(out);
    check_conv(d, out, 13, 9);
}
