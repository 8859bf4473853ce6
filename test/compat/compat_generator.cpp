// A Halide-style Generator: GeneratorParams used as numbers and as Exprs in the algorithm and the
// schedule, Input/Output buffers with dimension constraints, math from Halide's library.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using namespace Halide::ConciseCasts;

namespace {

class Brighten : public Halide::Generator<Brighten> {
public:
    GeneratorParam<int> tile_size{"tile_size", 16};
    GeneratorParam<float> gamma{"gamma", 0.5f};
    GeneratorParam<bool> parallelize{"parallelize", true};
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};

    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};

    void generate() {
        Expr v = f32(input(x, y)) / 255.0f;
        Expr corrected = pow(v, gamma);
        output(x, y) = u8_sat(lerp(0.0f, 255.0f, corrected) + 0.5f);
        input.dim(0).set_min(0);
        output.dim(0).set_min(0);
    }
    void schedule() {
        output.tile(x, y, xo, yo, xi, yi, tile_size, tile_size).vectorize(xi, tile_size / 2);
        if (parallelize) output.parallel(yo);
    }
};

}  // namespace

TEST_CASE("a generator with GeneratorParams in the algorithm and schedule") {
    Brighten gen;
    gen.set_param("tile_size", "8");
    Func f = gen.build();
    Buffer<uint8_t> in(37, 21);
    for (int y = 0; y < 21; y++)
        for (int x = 0; x < 37; x++) in(x, y) = uint8_t((x * 11 + y * 3) % 256);
    gen.input.set(in);
    Buffer<uint8_t> out = f.realize({37, 21});
    int bad = 0;
    for (int y = 0; y < 21; y++)
        for (int x = 0; x < 37; x++) {
            float c = std::pow(float(in(x, y)) / 255.0f, 0.5f);
            float e = std::min(255.0f, std::max(0.0f, 0.0f * (1.0f - c) + 255.0f * c + 0.5f));
            bad += std::abs(int(out(x, y)) - int(uint8_t(e))) > 1;  // pow in float32 vs the C library
        }
    CHECK(bad == 0);
}

TEST_CASE("an input that breaks the generator's constraint is refused at the call") {
    Brighten gen;
    Func f = gen.build();
    Buffer<uint8_t> in(16, 16);
    in.set_min(-1, 0);
    gen.input.set(in);
    bool threw = false;
    try {
        f.realize({15, 16});
    } catch (const RuntimeError &e) {
        threw = std::string(e.what()).find("input.dim(0).set_min(0)") != std::string::npos;
    }
    CHECK(threw);
}
