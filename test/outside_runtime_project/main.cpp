// Calls an ahead-of-time library through both entry points, with a context for the second.
#include <cstdio>
#include <vector>

#include "HaloBuffer.h"
#include "invert.h"

int main() {
    std::vector<uint8_t> in(37 * 5), out(37 * 5), out_ctx(37 * 5);
    for (size_t i = 0; i < in.size(); i++) in[i] = uint8_t(i * 7);
    halo::aot::BufferRef a(in.data(), {37, 5}), b(out.data(), {37, 5}), c(out_ctx.data(), {37, 5});
    halo::aot::Context ctx;
    int rc = invert(a, b);
    if (rc == 0) rc = invert_with_context(ctx, a, c);
    for (size_t i = 0; i < in.size(); i++) {
        if (out[i] != uint8_t(255 - in[i]) || out_ctx[i] != out[i]) rc = 1;
    }
    // A bad call reports to the context.
    std::vector<uint8_t> small(3);
    halo::aot::BufferRef s(small.data(), {3, 1});
    if (invert_with_context(ctx, s, c) == 0 || ctx.last_error().empty()) rc = 1;
    std::printf("runtime-only project: %s (error reported: %s)\n", rc == 0 ? "ok" : "FAILED", ctx.last_error().c_str());
    return rc;
}
