// The apps as generators, for ahead-of-time compilation (registered in generators.cpp).
#pragma once

#include <memory>

#include "conv_relu.h"
#include "dsl/Halo.h"

namespace apps {

// The seeds' conv + bias + relu (3 -> 10 channels), weights compiled in as constant data.
class ConvReluGenerator : public halo::Generator<ConvReluGenerator> {
public:
    halo::GeneratorParam<int> vector_width{"vector_width", 8};
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
    halo::GeneratorParam<int> vector_width{"vector_width", 16};
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

}  // namespace apps
