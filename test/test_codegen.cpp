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
    PipelineContents &p = *out.function()->pipeline;
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

// A 3-tap reduction loop of constant extent is unrolled fully (as Halide 14's LLVM pipeline
// does), so the 8 pixels x 3 taps of a blocked convolution read only the 10 distinct input
// pixels they span: conv2's kernel inlines relu1, and each of the 10 needs one max. Kept as a
// loop, the 3 taps loaded and maxed 24 values per 48 FMAs, which made cnn_block 1.2x slower
// than Halide 14's same schedule. Each max is one vector max of a broadcast load
// (vmaxps mem{1to16}), not a scalar max plus a broadcast that compete with the FMAs.
TEST_CASE("register blocking: a blocked convolution's taps are unrolled and share their input loads") {
    if (!get_host_target().has_feature(Target::AVX512)) return;  // the block is 2 zmm vectors wide
    apps::CnnBlock net(32, apps::CnnBlock::Layout::ChannelsInnermost);
    net.schedule_fused_blocked();
    std::istringstream lines(net.pool.assembly());
    std::string line;
    int fmas = 0, maxes = 0, scalar_maxes = 0, widest = 0, maxes_in_widest = 0, scalar_maxes_in_widest = 0;
    auto end_block = [&] {
        if (fmas > widest || (fmas == widest && maxes + scalar_maxes > maxes_in_widest + scalar_maxes_in_widest)) {
            widest = fmas, maxes_in_widest = maxes, scalar_maxes_in_widest = scalar_maxes;
        }
        fmas = maxes = scalar_maxes = 0;
    };
    while (std::getline(lines, line)) {
        if (!line.empty() && line[0] == '.' && line.find(':') != std::string::npos) end_block();
        if (line.find("vfmadd") != std::string::npos && line.find("zmm") != std::string::npos) fmas++;
        if (line.find("vmaxps") != std::string::npos && line.find("{1to16}") != std::string::npos) maxes++;
        if (line.find("vmaxss") != std::string::npos) scalar_maxes++;
    }
    end_block();
    INFO("the widest block has " << widest << " FMAs, " << maxes_in_widest << " maxes of broadcast loads and "
                                 << scalar_maxes_in_widest << " scalar maxes");
    CHECK(widest >= 48);
    CHECK(maxes_in_widest >= 1);
    CHECK(maxes_in_widest <= 10);
    CHECK(scalar_maxes_in_widest == 0);
}

// A broadcast of the min or max of a scalar float load is made as the min or max of broadcast
// loads (free for 32- and 64-bit elements), with the values of the scalar operation; the other
// types and operations keep the scalar operation (checked here for their values only).
TEST_CASE("a broadcast of the min or max of a scalar float load is a vector operation with the same values") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Buffer<float> a(37, 5), b(5);
    Buffer<int32_t> ia(37), ib(5), ic(5);
    Buffer<uint8_t> ua(37), ub(5), uc(5);
    for (int j = 0; j < 5; j++) {
        b(j) = j == 2 ? -0.0f : float(j) * 0.75f - 1.5f;
        ib(j) = j * 1000003 - 2000000, ic(j) = 1 - j * 999999;
        ub(j) = uint8_t(j * 71), uc(j) = uint8_t(250 - j * 30);
    }
    for (int i = 0; i < 37; i++) {
        ia(i) = i * 7 - 100, ua(i) = uint8_t(i * 5);
        for (int j = 0; j < 5; j++) a(i, j) = float((i * 7 + j * 3) % 11) - 5.0f;
    }
    // Each scalar term stays a term of its own beside the vector one, so each is a broadcast of
    // one operation: max, min, *, - and +, of floats, int32 and uint8.
    Func floats("floats"), ints("ints"), bytes("bytes");
    floats(x, y) = a(x, y) * max(b(y), 0.0f);
    floats(x, y) += min(b(y), a(0, y));
    floats(x, y) += b(y) * b(4 - y);
    floats(x, y) *= b(y) - 1.0f;
    floats(x, y) *= b(y) + b(4 - y);
    ints(x, y) = ia(x) * max(ib(y), ic(y));
    ints(x, y) += min(ib(y), 7);
    bytes(x, y) = ua(x) + max(ub(y), uc(y));
    for (Func *f : {&floats, &ints, &bytes}) {
        f->split(x, xo, xi, 16, TailStrategy::GuardWithIf).vectorize(xi);
        for (int u = 0; u < f->num_update_definitions(); u++) {
            f->update(u).split(x, xo, xi, 16, TailStrategy::GuardWithIf).vectorize(xi);
        }
    }
    Buffer<float> fout(37, 5);
    Buffer<int32_t> iout(37, 5);
    Buffer<uint8_t> uout(37, 5);
    halo_test::check_against_reference(floats, fout);
    halo_test::check_against_reference(ints, iout);
    halo_test::check_against_reference(bytes, uout);
    std::string fir = floats.llvm_ir();
    // max and min of vectors (on x86 its instructions: codegen's x86_float_min_max)
    CHECK(fir.find(".max.ps") != std::string::npos);
    CHECK(fir.find(".min.ps") != std::string::npos);
}

// The reduction loops of an update sit inside its vectorized loop (RVars are innermost), and
// each has an overflow check of its bounds: those checks are the same for every lane, so the
// body is still vector code, not a serial loop over the lanes (which only LLVM's own loop
// vectorizer, off as in Halide, could rescue: 8x slower before).
TEST_CASE("an update vectorized outside its reduction loops becomes vector code") {
    Var x("x"), y("y");
    RDom r(0, 3, 0, 3, "r");
    ImageParam in(Int(16), 2, "in");
    Func conv("conv");
    conv(x, y) = cast<int16_t>(0);
    conv(x, y) += cast<int16_t>(in(x + r.x, y + r.y) * 3);
    conv.update().vectorize(x, 16);
    Buffer<int16_t> b = halo_test::random_image<int16_t>({70, 12}, 5, -100, 100);
    in.set(b);
    std::string stmt = conv.lowered_stmt();
    // The steady state stores whole vectors; only the GuardWithIf tail runs lane by lane.
    CHECK(stmt.find("conv[ramp(") != std::string::npos);
    CHECK(conv.llvm_ir().find("<16 x i16>") != std::string::npos);
    Buffer<int16_t> out = conv.realize({68, 10});
    halo_test::check_all(out, [&](const std::vector<int> &c) {
        int16_t acc = 0;
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++) acc = int16_t(acc + int16_t(b(c[0] + i, c[1] + j) * 3));
        return double(acc);
    });
}

// Inlining sq into out repeats in(x + 1) * in(x + 1); the common-subexpression pass binds
// "x + 1" to a let. Vectorized, that let is a Ramp and must stay visible as one: bound to a
// vector variable instead, every load indexed by it became a gather (24 per pixel in harris,
// 3x slower than Halide on the same schedule).
TEST_CASE("a common subexpression of the vectorized variable still loads densely") {
    Var x("x");
    ImageParam in(Float(32), 1, "in");
    Func sq("sq"), out("out");
    sq(x) = in(x) * in(x);
    out(x) = sq(x) + sq(x + 1) * 2.0f + sq(x + 2);
    out.vectorize(x, 16);
    Buffer<float> b = halo_test::random_image<float>({80}, 7);
    in.set(b);
    std::string stmt = out.lowered_stmt();
    CHECK(stmt.find(".cse.v") == std::string::npos);
    CHECK(out.llvm_ir().find("gather") == std::string::npos);
    Buffer<float> r = out.realize({78});
    halo_test::check_all(r, [&](const std::vector<int> &c) {
        auto s = [&](int i) { return b(i) * b(i); };
        return double(s(c[0]) + s(c[0] + 1) * 2.0f + s(c[0] + 2));
    }, 1e-6);  // multiply-adds may be fused
}

// A producer computed at the lane loop of a vectorized consumer and stored outside it: each
// lane computes its own overlapping region of s1, updates included. Vectorizing that loop
// would compute all lanes at once and apply s1's update twice to the points two lanes share
// (found by the randomized test, seed 1026246): the loop runs lane by lane instead.
TEST_CASE("a Func computed inside a vectorized loop is computed lane by lane") {
    Buffer<int> input = halo_test::random_image<int>({24, 20}, 21, -20, 20);
    input.set_min(-3, -2);
    Var x("x"), y("y"), xo("xo"), xi("xi"), xy("xy");
    Func clamped("clamped"), s1("s1"), s2("s2");
    clamped(x, y) = input(clamp(x, -3, 20), clamp(y, -2, 17));
    s1(x, y) = clamped(x, y);
    s1(x, y) = max(s1(x, y), s1(x, y) / 2 + clamped(x, y + 1));
    s2(x, y) = select(clamped(x, y) > s1(x, y), clamped(x, y), s1(x + 1, y) - 1);
    s2.vectorize(x, 4, TailStrategy::GuardWithIf);
    s1.compute_at(s2, Var("x_vi")).store_at(s2, x);
    s1.split(x, xo, xi, 5, TailStrategy::GuardWithIf);
    s1.update(0).fuse(x, y, xy);
    Buffer<int> out(23, 5);
    out.set_min(1, 1);
    halo_test::check_against_reference(s2, out);
}

TEST_CASE("unrolled conversions of wrapped unsigned values keep their width (no SLP narrowing)") {
    // float(uint32(int32(uint8 v) - 300)) is about 4.29e9 for every v. Unrolled by two, LLVM
    // 19's SLP vectorizer packed the two points into <2 x i16> lanes (its minimum-bitwidth
    // analysis) and gave 65243; Halo no longer runs it. Found by the typed differential test.
    Var x("x"), i("i");
    Buffer<uint16_t> data(20);
    for (int k = 0; k < 20; k++) data(k) = uint16_t(k * 4001 + 7);
    for (int unrolled = 0; unrolled < 2; unrolled++) {
        Func lut("lut"), f("f");
        lut(i) = cast(UInt(32), i - 300);
        f(x) = cast<float>(lut(cast<int32_t>(cast<uint8_t>(data(x)))));
        if (unrolled) f.unroll(x, 2, TailStrategy::GuardWithIf);
        Buffer<float> out(5);
        INFO((unrolled ? "unrolled" : "scalar"));
        halo_test::check_against_reference(f, out);
    }
}
