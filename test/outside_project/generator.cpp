#include "Halo.h"

class Invert : public halo::Generator<Invert> {
public:
    halo::GeneratorParam<int> vector_width{"vector_width", 8};
    halo::Input<halo::Buffer<uint8_t>> input{"input", 2};
    halo::Output<halo::Buffer<uint8_t>> output{"output", 2};
    halo::Var x{"x"}, y{"y"};
    void generate() { output(x, y) = halo::cast<uint8_t>(255 - input(x, y)); }
    void schedule() { output.vectorize(x, vector_width, halo::TailStrategy::GuardWithIf); }
};
HALO_REGISTER_GENERATOR(Invert, "invert")

// A tiled 3x3 box blur whose tile size is a parameter: swept by halo_add_sweep.
class TinyBlur : public halo::Generator<TinyBlur> {
public:
    halo::GeneratorParam<int> tile_w{"tile_w", 32, 1, 1024};
    halo::GeneratorParam<int> tile_h{"tile_h", 8, 1, 1024};
    halo::Input<halo::Buffer<float>> input{"input", 2};
    halo::Output<halo::Buffer<float>> output{"output", 2};
    void generate() {
        blur_x(x, y) = input(x - 1, y) + input(x, y) + input(x + 1, y);
        output(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 9.0f;
    }
    void schedule() {
        halo::Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        output.tile(x, y, xo, yo, xi, yi, tile_w, tile_h).vectorize(xi, 8).parallel(yo);
        blur_x.compute_at(output, xo).vectorize(x, 8);
    }

private:
    halo::Var x{"x"}, y{"y"};
    halo::Func blur_x{"blur_x"};
};
HALO_REGISTER_GENERATOR(TinyBlur, "tiny_blur")
