#include <cstdio>
#include <vector>

#include "HaloBuffer.h"
#include "invert.h"

int main() {
    std::vector<uint8_t> in(37 * 5), out(37 * 5);
    for (size_t i = 0; i < in.size(); i++) in[i] = uint8_t(i);
    halo::aot::BufferRef a(in.data(), {37, 5}), b(out.data(), {37, 5});
    int rc = invert(a, b);
    for (size_t i = 0; i < in.size(); i++) {
        if (out[i] != uint8_t(255 - in[i])) rc = 1;
    }
    std::printf("outside project: %s\n", rc == 0 ? "ok" : "FAILED");
    return rc;
}
