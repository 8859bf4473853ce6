// Targets as Halide programs ask about them: the host's, the JIT's from the environment,
// features and natural vector sizes.
#include <cstdlib>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {
// Sets an environment variable for the scope of one test.
struct ScopedEnv {
    std::string name;
    ScopedEnv(const char *n, const char *value) : name(n) { setenv(n, value, 1); }
    ~ScopedEnv() { unsetenv(name.c_str()); }
};
}  // namespace

TEST_CASE("named targets have the features of their x86-64 level") {
    Target sse = Target::parse("x86-64-sse41"), avx2 = Target::parse("x86-64-avx2"),
           avx512 = Target::parse("x86-64-avx512");
    CHECK(sse.has_feature(Target::SSE41));
    CHECK(!sse.has_feature(Target::AVX));
    CHECK(avx2.has_feature(Target::AVX2));
    CHECK(avx2.has_feature(Target::FMA));
    CHECK(!avx2.has_feature(Target::AVX512));
    CHECK(avx512.has_feature(Target::AVX512_Skylake));
    CHECK(sse.natural_vector_size<float>() == 4);
    CHECK(avx2.natural_vector_size<float>() == 8);
    CHECK(avx2.natural_vector_size<uint8_t>() == 32);
    CHECK(avx512.natural_vector_size<float>() == 16);
    CHECK(avx512.natural_vector_size<double>() == 8);
}

TEST_CASE("the host target has what this CPU has") {
    Target host = get_host_target();
    CHECK(host.name == "host");
    CHECK(host.has_feature(Target::SSE41));  // every x86-64 machine this runs on
    // A named level the host supports implies its features on the host.
    for (const std::string &n : Target::names()) {
        Target t = Target::parse(n);
        if (n == "host" || !t.supported_by_host()) continue;
        for (auto f : {Target::SSE41, Target::AVX2, Target::FMA, Target::AVX512}) {
            INFO(n << " feature " << int(f));
            if (t.has_feature(f)) CHECK(host.has_feature(f));
        }
    }
    int v = host.natural_vector_size<float>();
    CHECK((v == 4 || v == 8 || v == 16));
}

TEST_CASE("HALO_JIT_TARGET (or HL_JIT_TARGET) chooses the JIT's target") {
    CHECK(get_jit_target_from_environment().name == "host");
    {
        ScopedEnv env("HL_JIT_TARGET", "x86-64-sse41");
        CHECK(get_jit_target_from_environment().name == "x86-64-sse41");
        ScopedEnv halo_env("HALO_JIT_TARGET", "x86-64-avx2");
        CHECK(get_jit_target_from_environment().name == "x86-64-avx2");  // Halo's variable first
    }
    {
        ScopedEnv env("HALO_TARGET", "x86-64-avx512");
        CHECK(get_target_from_environment().name == "x86-64-avx512");
    }
    ScopedEnv bad("HALO_JIT_TARGET", "arm-64-linux");
    std::string msg = compile_error_of([] { get_jit_target_from_environment(); });
    CHECK(contains(msg, "HALO_JIT_TARGET=arm-64-linux names no target; known targets are: host, x86-64-sse41"));
}

TEST_CASE("Halide's target strings for x86-64 name the Halo target with the same vectors") {
    // HL_JIT_TARGET as Halide users set it: the OS, jit and the x86 features are understood.
    CHECK(Target::parse("x86-64-linux-avx-avx2-avx512-avx512_cannonlake-avx512_skylake-f16c-fma-sse41-jit").name ==
          "x86-64-avx512");
    CHECK(Target::parse("x86-64-linux-avx-avx2-f16c-fma-sse41").name == "x86-64-avx2");
    CHECK(Target::parse("x86-64-linux-sse41-jit").name == "x86-64-sse41");
    CHECK(Target::parse("x86-64-linux-avx512-avx2-fma").name == "x86-64-avx2");  // AVX-512 F alone: not Skylake's
    CHECK(Target::parse("host-jit").name == "host");
    Target loop_opt = Target::parse("x86-64-linux-avx2-fma-enable_llvm_loop_opt");
    CHECK(loop_opt.name == "x86-64-avx2");
    CHECK(loop_opt.has_feature(Target::EnableLLVMLoopOpt));
    {
        ScopedEnv env("HL_JIT_TARGET", "x86-64-linux-avx-avx2-fma-sse41-jit");
        CHECK(get_jit_target_from_environment().name == "x86-64-avx2");
    }
    CHECK(contains(compile_error_of([] { Target::parse("x86-64-linux-cuda"); }),
                   "does not know Halide's feature 'cuda'; drop it, or use one of Halo's targets"));
    CHECK(contains(compile_error_of([] { Target::parse("x86-64-linux-jit"); }), "Halo needs at least SSE4.1"));
    CHECK(contains(compile_error_of([] { Target::parse("arm-64-linux"); }), "Unknown target 'arm-64-linux'"));
}

TEST_CASE("a Func compiled with HALO_JIT_TARGET set uses that target's vectors") {
    ScopedEnv env("HALO_JIT_TARGET", "x86-64-sse41");
    Var x("x");
    Func f("f");
    f(x) = cast<float>(x) * 2.5f;
    f.vectorize(x, 16);
    std::string s = f.assembly();
    CHECK(contains(s, "xmm"));
    CHECK(!contains(s, "ymm"));
    CHECK(!contains(s, "zmm"));
    Buffer<float> out = f.realize({40});
    CHECK(out(39) == 39 * 2.5f);
}

TEST_CASE("a schedule can ask the target for its vector width, as Halide schedules do") {
    Target t = get_jit_target_from_environment();
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    f.vectorize(x, t.natural_vector_size<int32_t>()).parallel(y);
    halo_test::check_against_reference(f, Buffer<int>(37, 5));
}

TEST_CASE("LLVM's loop vectorizer runs only with EnableLLVMLoopOpt, as in Halide") {
    auto scalar_loop = [](Func &f) {
        Var x("x");
        f(x) = cast<float>(x) * 2.5f + 1.0f;  // not vectorized by the schedule
    };
    Func plain("plain"), with_opt("with_opt");
    scalar_loop(plain);
    scalar_loop(with_opt);
    plain.compile_jit(get_host_target());
    Target t = get_host_target().with_feature(Target::EnableLLVMLoopOpt);
    CHECK(t.has_feature(Target::EnableLLVMLoopOpt));
    CHECK(!get_host_target().has_feature(Target::EnableLLVMLoopOpt));
    CHECK(t.to_string() == "host-enable_llvm_loop_opt");
    with_opt.compile_jit(t);
    CHECK(!contains(plain.llvm_ir(), "x float>"));
    CHECK(contains(with_opt.llvm_ir(), "x float>"));
    Buffer<float> a = plain.realize({100}), b = with_opt.realize({100});
    for (int i = 0; i < 100; i++) CHECK(a(i) == b(i));
}

TEST_CASE("target names may end in -enable_llvm_loop_opt") {
    Target t = Target::parse("x86-64-avx2-enable_llvm_loop_opt");
    CHECK(t.name == "x86-64-avx2");
    CHECK(t.has_feature(Target::EnableLLVMLoopOpt));
    CHECK(t.has_feature(Target::AVX2));
    CHECK(Target::parse(t.to_string()).to_string() == "x86-64-avx2-enable_llvm_loop_opt");
    ScopedEnv env("HALO_JIT_TARGET", "host-enable_llvm_loop_opt");
    CHECK(get_jit_target_from_environment().has_feature(Target::EnableLLVMLoopOpt));
    std::string msg = compile_error_of([] { Target::parse("x86-64-avx2-enable_magic"); });
    CHECK(contains(msg, "Unknown target 'x86-64-avx2-enable_magic'"));
    CHECK(contains(msg, "(each may end in -enable_llvm_loop_opt)"));
    msg = compile_error_of([] { get_host_target().with_feature(Target::AVX512); });
    CHECK(contains(msg, "only EnableLLVMLoopOpt can be added"));
}
