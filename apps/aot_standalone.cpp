// Calls ahead-of-time compiled pipelines with nothing but the Halo runtime linked: no LLVM,
// no compiler at run time. Usage: aot_standalone (prints a checksum; exits nonzero on error).
#include <cstdio>
#include <vector>

#include "brighten_host.h"
#include "conv_relu_host.h"
#include "runtime/HaloBuffer.h"

int main() {
    const int W = 64, H = 48;
    std::vector<float> in(size_t(W + 2) * (H + 2) * 3), out(size_t(W) * H * 10);
    for (size_t i = 0; i < in.size(); i++) in[i] = float(i % 97) / 97.0f;
    halo::aot::BufferRef input(in.data(), {W + 2, H + 2, 3}), output(out.data(), {W, H, 10});
    int rc = conv_relu_host(input, output);
    double sum = 0;
    for (float v : out) sum += v;
    std::vector<uint8_t> img(size_t(W) * H, 100), bright(size_t(W) * H);
    halo::aot::BufferRef bi(img.data(), {W, H}), bo(bright.data(), {W, H});
    rc |= brighten_host(bi, 1.5f, 10, bo);
    std::printf("rc=%d checksum=%.4f bright=%d\n", rc, sum, int(bright[0]));
    return rc == 0 && bright[0] == 160 ? 0 : 1;
}
