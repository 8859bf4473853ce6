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
