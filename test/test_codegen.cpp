// What the generated code looks like: vector instructions for vectorized loops, a call into
// the runtime's parallel loop, buffers reused across realizations.
#include <sstream>

#include "TestUtil.h"
#include "../apps/cnn_block.h"

using namespace halo;

TEST_CASE("a vectorized stencil compiles to packed vector instructions") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    ImageParam in(Float(32), 2, "in");
    Func f("f");
    f(x, y) = (in(x, y) + in(x + 1, y) * 2.0f + in(x + 2, y)) * 0.25f;
    f.split(x, xo, xi, 8).vectorize(xi);
    Buffer<float> b(40, 10);
    in.set(b);
    f.compile_jit();
    std::string ir = f.llvm_ir();
    CHECK(ir.find("<8 x float>") != std::string::npos);
    std::string asm_text = f.assembly();
    // Packed single-precision arithmetic (AVX "v...ps" or SSE "...ps" forms).
    bool packed = false;
    for (const char *op : {"vaddps", "vmulps", "vfmadd", "addps", "mulps"}) {
        packed |= asm_text.find(op) != std::string::npos;
    }
    CHECK(packed);
}

TEST_CASE("a 2x downsample loads densely and shuffles instead of gathering") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    ImageParam in(Float(32), 2, "in");
    Func f("f");
    f(x, y) = max(in(2 * x, y), in(2 * x + 1, y));
    f.split(x, xo, xi, 8).vectorize(xi);
    Buffer<float> b(40, 10);
    in.set(b);
    std::string ir = f.llvm_ir();
    CHECK(ir.find("shufflevector") != std::string::npos);
    CHECK(ir.find("masked.gather") == std::string::npos);
}

TEST_CASE("parallel loops call the runtime with a closure") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    f.parallel(y);
    std::string ir = f.llvm_ir();
    CHECK(ir.find("halo_parallel_for") != std::string::npos);
    Buffer<int> out = f.realize({7, 9});
    for (int j = 0; j < 9; j++)
        for (int i = 0; i < 7; i++) CHECK(out(i, j) == i + j);
}

TEST_CASE("a large intermediate is reused across realizations, not reallocated") {
    Var x("x"), y("y");
    Func big("big"), out("out");
    big(x, y) = x * y;
    out(x, y) = big(x, y) + big(x + 1, y);
    big.compute_root();
    Buffer<int> o(512, 512);
    out.realize(o);
    Pipeline &p = *out.function()->pipeline;
    int64_t held = p.arena_bytes();
    CHECK(held >= 513 * 512 * 4);
    for (int i = 0; i < 5; i++) out.realize(o);
    CHECK(p.arena_bytes() == held);
    CHECK(o(3, 4) == 3 * 4 + 4 * 4);
}

TEST_CASE("register blocking: the reduction loop of a blocked convolution keeps its accumulators in registers") {
    apps::CnnBlock net(32, apps::CnnBlock::Layout::ChannelsInnermost);
    net.schedule_fused_blocked();
    std::string ir = net.pool.llvm_ir();
    // Per basic block: vector multiplies and stores. The blocks doing the reduction's
    // arithmetic must not store (no accumulator round trip through memory).
    std::istringstream lines(ir);
    std::string line;
    int muls = 0, stores = 0, reduction_blocks = 0, blocks_with_stores = 0;
    auto end_block = [&] {
        if (muls >= 16) {
            reduction_blocks++;
            if (stores) blocks_with_stores++;
        }
        muls = stores = 0;
    };
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] != ' ' && line.back() == ':') end_block();
        if (!line.empty() && line[0] != ' ' && line.find(':') != std::string::npos && line.find("; preds") != std::string::npos) end_block();
        if (line.find("fmul contract <16 x float>") != std::string::npos) muls++;
        if (line.find(" store ") != std::string::npos) stores++;
    }
    end_block();
    CHECK(reduction_blocks >= 2);
    CHECK(blocks_with_stores == 0);
}
