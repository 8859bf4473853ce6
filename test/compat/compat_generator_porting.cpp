// Generators written as Halide 14's apps write them (iir_blur, camera_pipe, blur, conv_layer):
// HALIDE_REGISTER_GENERATOR with an identifier, get_target() and its features in schedule(),
// natural_vector_size, an Input buffer passed where a Func is expected, output = f, the
// estimates of inputs, Type's methods and the C math library from the umbrella header.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;

namespace {

// iir_blur's shape: a helper that takes a Func, given the Input buffer; the output assigned.
Func blur_cols(Func input, Expr height, Expr alpha) {
    Var x("x"), y("y");
    RDom ry(1, height - 1);
    Func blur("blur");
    blur(x, y) = input(x, y);
    blur(x, ry) = (1 - alpha) * blur(x, ry - 1) + alpha * input(x, ry);
    return blur;
}

class IirLike : public Halide::Generator<IirLike> {
public:
    GeneratorParam<Type> type{"type", Float(32)};
    Input<Buffer<float>> input{"input", 2};
    Input<float> alpha{"alpha"};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Expr height = input.height();
        Func blurred = blur_cols(input, height, alpha);
        Func halved("halved");
        halved(x, y) = blurred(x, y) * 0.5f + sqrtf(4.0f);  // sqrtf from <cmath>, as Halide.h has it
        output = halved;
    }
    void schedule() {
        Target t = get_target();
        const int vec = natural_vector_size<float>();
        if (t.has_gpu_feature()) {
            output.compute_root();  // (a GPU schedule in Halide; never taken here)
        } else if (t.arch == Target::X86 && t.bits == 64 && t.os == Target::Linux) {
            output.vectorize(x, vec, TailStrategy::GuardWithIf).parallel(y);
        }
        input.set_estimates({{0, 64}, {0, 32}});
    }
    Var x{"x"}, y{"y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(IirLike, iir_like)
HALIDE_REGISTER_GENERATOR(IirLike, iir_like_with_stub, IirLikeStub)

TEST_CASE("HALIDE_REGISTER_GENERATOR registers by identifier, the stub name ignored") {
    auto names = GeneratorRegistry::names();
    CHECK(std::count(names.begin(), names.end(), "iir_like") == 1);
    CHECK(std::count(names.begin(), names.end(), "iir_like_with_stub") == 1);
}

TEST_CASE("an Input buffer passed as a Func, output = f, and a schedule asking the target") {
    auto gen = GeneratorRegistry::create("iir_like");
    gen->set_target(Target("x86-64-avx2"));
    CHECK(gen->get_target().natural_vector_size(Float(32)) == 8);
    CHECK(gen->natural_vector_size<float>() == 8);
    CHECK(gen->natural_vector_size(UInt(16)) == 16);
    Func out = gen->build();
    CHECK(out.name() == "halved");
    CHECK(out.loop_nest().find("vectorized") != std::string::npos);  // the CPU branch ran
    auto &g = static_cast<IirLike &>(*gen);
    const int w = 19, h = 13;
    Buffer<float> in(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) in(x, y) = float((x * 7 + y * 3) % 11);
    g.input.set(in);
    g.alpha.set(0.25f);
    Buffer<float> o = out.realize({w, h});
    int bad = 0;
    for (int x = 0; x < w; x++) {
        float acc = in(x, 0);
        for (int y = 0; y < h; y++) {
            if (y > 0) acc = 0.75f * acc + 0.25f * in(x, y);
            bad += o(x, y) != acc * 0.5f + 2.0f;
        }
    }
    CHECK(bad == 0);
}

TEST_CASE("Func f = im names the image and gives its values, the same Func each time") {
    ImageParam im(Int(32), 1, "im");
    Func a = im, b = im;
    CHECK(a.name() == "im");
    CHECK(a.function() == b.function());
    Var x("x");
    Func out("out");
    out(x) = a(x) * 2 + b(x + 1);
    Buffer<int> buf(12);
    for (int i = 0; i < 12; i++) buf(i) = i * i;
    im.set(buf);
    Buffer<int> o = out.realize({11});
    int bad = 0;
    for (int i = 0; i < 11; i++) bad += o(i) != i * i * 2 + (i + 1) * (i + 1);
    CHECK(bad == 0);
}

TEST_CASE("output = f with the wrong type or dimensions is refused, naming both") {
    struct Gen : Halide::Generator<Gen> {
        Input<Buffer<float>> input{"input", 2};
        Output<Buffer<float>> output{"output", 2};
        int how = 0;
        void generate() {
            Var x, y;
            Func f("f");
            if (how == 0) f(x, y) = cast<int>(input(x, y));
            else if (how == 1) f(x) = input(x, 0);
            output = f;
        }
    };
    for (int how : {0, 1, 2}) {
        CAPTURE(how);
        Gen g;
        g.how = how;
        std::string msg;
        try {
            g.build();
        } catch (const CompileError &e) {
            msg = e.what();
        }
        if (how == 0) CHECK(msg.find("Output 'output' has type float32 but was set to Func 'f' of type int32") != std::string::npos);
        if (how == 1) CHECK(msg.find("Output 'output' has 2 dimensions but was set to Func 'f' with 1") != std::string::npos);
        if (how == 2) CHECK(msg.find("Output 'output' set to Func 'f', which has no definition yet") != std::string::npos);
    }
}

TEST_CASE("Target as Halide's schedules ask it: features, GPU, arch, bits, os, equality") {
    Target avx2("x86-64-avx2"), sse("x86-64-sse41");
    CHECK(avx2.has_feature(Target::AVX2));
    CHECK(!sse.has_feature(Target::AVX2));
    CHECK(!avx2.has_feature(Target::CUDA));
    CHECK(!avx2.has_feature(Target::HVX));
    CHECK(!avx2.has_gpu_feature());
    CHECK(avx2.features_any_of({Target::HVX, Target::AVX2}));
    CHECK(!avx2.features_all_of({Target::HVX, Target::AVX2}));
    CHECK(avx2.features_all_of({Target::FMA, Target::AVX2}));
    CHECK(avx2.arch == Target::X86);
    CHECK(avx2.bits == 64);
    CHECK(avx2.os == Target::Linux);
    CHECK(avx2 == Target("x86-64-avx2"));
    CHECK(avx2 != sse);
    CHECK(avx2.natural_vector_size(UInt(16)) == 16);
    CHECK(avx2.natural_vector_size(Bool()) == 32);
    std::string msg;
    try {
        avx2.with_feature(Target::NoAsserts);
    } catch (const CompileError &e) {
        msg = e.what();
    }
    CHECK(msg.find("only EnableLLVMLoopOpt can be added") != std::string::npos);
}

TEST_CASE("Type's bits, lanes and code are methods, as in Halide") {
    Type t = UInt(16, 8);
    CHECK(t.bits() == 16);
    CHECK(t.lanes() == 8);
    CHECK(t.code() == Type::UInt);
    CHECK(t.widen() == UInt(32, 8));
    CHECK(t.narrow() == UInt(8, 8));
    CHECK(t.is_int_or_uint());
    CHECK(!Float(32).is_int_or_uint());
    Expr e = cast<int16_t>(Expr(3));
    CHECK(e.type().bits() == 16);
}

TEST_CASE("ImageParam::set_estimates takes one (min, extent) per dimension") {
    ImageParam im(Float(32), 2, "im");
    im.set_estimates({{0, 64}, {0, 32}});
    std::string msg;
    try {
        im.set_estimates({{0, 64}});
    } catch (const CompileError &e) {
        msg = e.what();
    }
    CHECK(msg.find("ImageParam 'im' has 2 dimensions but set_estimates was given 1") != std::string::npos);
}

// blur's and conv_layer's generators promise aligned memory: input.set_host_alignment(64).
TEST_CASE("set_host_alignment: aligned buffers run, a misaligned one is refused naming it") {
    ImageParam im(Float(32), 1, "im");
    im.set_host_alignment(64);
    Var x("x");
    Func out("out");
    out(x) = im(x) * 2.0f;
    out.output_buffer().set_host_alignment(16);
    alignas(64) static float storage[80];
    for (int i = 0; i < 80; i++) storage[i] = float(i);
    auto run = [&](float *in_ptr, float *out_ptr) -> std::pair<int, std::string> {
        Buffer<float> in(in_ptr, 32), o(out_ptr, 8);
        im.set(in);
        try {
            out.realize(o);
        } catch (const RuntimeError &e) {
            return {e.code, e.what()};
        }
        return {0, ""};
    };
    alignas(64) static float result[24];
    auto ok = run(storage, result);
    CHECK(ok.first == 0);
    CHECK(result[7] == 14.0f);
    auto bad_in = run(storage + 4, result);  // 16 bytes past a 64-byte boundary
    CHECK(bad_in.first == halo_error_code_unaligned_host);
    CHECK(bad_in.second.find("buffer 'im' has host pointer") != std::string::npos);
    CHECK(bad_in.second.find("not a multiple of 64 bytes as its set_host_alignment(64) requires") != std::string::npos);
    auto bad_out = run(storage, result + 1);
    CHECK(bad_out.first == halo_error_code_unaligned_host);
    CHECK(bad_out.second.find("buffer 'out' has host pointer") != std::string::npos);
    CHECK(run(storage, result + 4).first == 0);  // 16 bytes: enough for the output
    std::string msg;
    try {
        im.set_host_alignment(0);
    } catch (const CompileError &e) {
        msg = e.what();
    }
    CHECK(msg.find("ImageParam 'im': set_host_alignment(0) needs a positive number of bytes") != std::string::npos);
}

TEST_CASE("set_host_alignment on a generator's Input and Output") {
    struct Gen : Halide::Generator<Gen> {
        Input<Buffer<uint8_t>> input{"input", 1};
        Output<Buffer<uint8_t>> output{"output", 1};
        void generate() {
            Var x;
            output(x) = input(x) + 1;
            input.set_host_alignment(32);
            output.set_host_alignment(32);
        }
    };
    Gen g;
    Func f = g.build();
    alignas(32) static uint8_t in_mem[96], out_mem[64];
    Buffer<uint8_t> good(in_mem, 40), shifted(in_mem + 3, 40), o(out_mem, 32);
    g.input.set(good);
    CHECK_NOTHROW(f.realize(o));
    CHECK(out_mem[5] == in_mem[5] + 1);
    g.input.set(shifted);
    std::string msg;
    try {
        f.realize(o);
    } catch (const RuntimeError &e) {
        msg = e.what();
    }
    CHECK(msg.find("buffer 'input' has host pointer") != std::string::npos);
}

namespace {

// Halide's Input<Func> (declared by type and dimensions, used as a Func) and a scalar
// Output<float> (a Func of no dimensions) beside a buffer output.
class SumAndScale : public Halide::Generator<SumAndScale> {
public:
    Input<Func> input{"input", Float(32), 2};
    Input<int> width{"width"}, height{"height"};
    Output<float> total{"total"};
    Output<Buffer<float>> scaled{"scaled", 2};

    void generate() {
        RDom r(0, width, 0, height);
        total() = 0.0f;
        total() += input(r.x, r.y);
        scaled(x, y) = input(x, y) * 2.0f;
    }
    Var x{"x"}, y{"y"};
};

}  // namespace

HALIDE_REGISTER_GENERATOR(SumAndScale, sum_and_scale)

TEST_CASE("an Input<Func> read as a Func, and a scalar Output<float>") {
    auto gen = GeneratorRegistry::create("sum_and_scale");
    std::vector<Func> outs = gen->build_outputs();
    auto &g = static_cast<SumAndScale &>(*gen);
    REQUIRE(outs.size() == 2);
    CHECK(outs[0].name() == "total");
    CHECK(g.total.dimensions() == 0);
    Buffer<float> in(5, 4);
    float want = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 5; x++) want += in(x, y) = float(x + 10 * y);
    g.input.set(in);
    g.width.set(5);
    g.height.set(4);
    Realization r = Pipeline(outs).realize({5, 4});
    Buffer<float> t = r[0], s = r[1];
    CHECK(t.dimensions() == 0);
    CHECK(t() == want);
    CHECK(s(4, 3) == 68.0f);
}
