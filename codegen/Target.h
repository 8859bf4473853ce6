// Targets: the CPU a pipeline is compiled for. "host" is this machine; the named x86-64
// feature levels run on any machine that has them.
#pragma once

#include <string>
#include <vector>

namespace halo {

struct Target {
    // CPU features a schedule may ask about (Halide's names), and EnableLLVMLoopOpt: LLVM's own
    // loop vectorizer, interleaver and partial unroller run too. Off by default, as in Halide 15
    // and later: Halo's schedule says what to vectorize and unroll, and those passes take about
    // half of LLVM's time (cnn_block compiles in 180 ms instead of 320) without making scheduled
    // code faster. Small loops of constant trip count are always unrolled fully (optimize_module).
    enum Feature {
        SSE41, AVX, AVX2, FMA, F16C, AVX512, AVX512_Skylake, EnableLLVMLoopOpt,
        // Halide's names for what Halo does not generate code for (GPUs, DSPs, other CPUs'
        // vectors, Halide's own code-generation switches): has_feature says false, so a ported
        // schedule takes its CPU branch; with_feature refuses them.
        AVX512_KNL, AVX512_Cannonlake, AVX512_SapphireRapids, NEON, ARMv7s, ARMDotProd, ARMFp16, SVE, SVE2,
        VSX, POWER_ARCH_2_07, WasmSimd128, HVX, HVX_64, HVX_128, HVX_v62, HVX_v65, HVX_v66, CUDA, OpenCL,
        Metal, D3D12Compute, OpenGLCompute, Vulkan, WebGPU, NoAsserts, NoBoundsQuery, Debug, Profile,
        TraceLoads, TraceStores, TraceRealizations, StrictFloat, LargeBuffers, NoRuntime, JIT, UserContext,
        CPlusPlusMangling,
    };
    // Halide's architecture and operating-system fields: Halo compiles for 64-bit x86 Linux.
    enum Arch { ArchUnknown, X86, ARM, POWERPC, Hexagon, WebAssembly, RISCV };
    enum OS { OSUnknown, Linux, Windows, OSX, Android, IOS, QuRT, NoOS, Fuchsia, WebAssemblyRuntime };
    Arch arch = X86;
    int bits = 64;
    OS os = Linux;

    std::string name = "host";
    std::string triple;    // LLVM target triple
    std::string cpu;       // LLVM CPU name
    std::string features;  // LLVM feature string, e.g. "+sse4.1,+ssse3"
    bool llvm_loop_opt = false;  // EnableLLVMLoopOpt

    // "host", "x86-64-sse41", "x86-64-avx2" or "x86-64-avx512", optionally followed by
    // "-enable_llvm_loop_opt" (Halide's spelling); or a Halide target string for x86-64
    // (x86-64-linux-avx-avx2-fma-jit), taken as the Halo target with the same vectors (here
    // x86-64-avx2); throws CompileError otherwise.
    static Target parse(const std::string &name);
    Target() = default;
    // Target(name) is parse(name), as Halide's Target("x86-64-linux-avx2").
    explicit Target(const std::string &name) : Target(parse(name)) {}
    explicit Target(const char *name) : Target(parse(name)) {}
    // Whether parse() takes the name.
    static bool is_target_name(const std::string &name);
    static Target host() { return parse("host"); }
    static std::vector<std::string> names();
    // Whether code for this target runs on this machine.
    bool supported_by_host() const;
    // Whether code for this target may use the feature ("host": this machine's CPU).
    bool has_feature(Feature f) const;
    // Whether it has any (all) of the features.
    bool features_any_of(const std::vector<Feature> &fs) const;
    bool features_all_of(const std::vector<Feature> &fs) const;
    // Halo generates no GPU code: false (Halide's schedules test it to pick their CPU branch).
    bool has_gpu_feature() const { return false; }
    // Elements of type t (its bits: 8, 16, 32 or 64) in one native vector register: 512-bit
    // with AVX512, 256-bit with AVX, else 128-bit.
    int natural_vector_size(int type_bits) const;
    // The same for a Type (Halide's natural_vector_size(UInt(16))); bool counts as 8 bits.
    int natural_vector_size(const struct Type &t) const;
    template <typename T>
    int natural_vector_size() const { return natural_vector_size(int(sizeof(T) * 8)); }
    // This target with EnableLLVMLoopOpt set (CPU features come with the target's name, so
    // asking for one of those is an error).
    Target with_feature(Feature f) const;
    // The name parse() takes back, with the features set ("host-enable_llvm_loop_opt").
    std::string to_string() const;
    bool operator==(const Target &o) const { return to_string() == o.to_string(); }
    bool operator!=(const Target &o) const { return !(*this == o); }
};

// This machine's target ("host").
Target get_host_target();
// The target JIT compilation uses: HALO_JIT_TARGET (or Halide's HL_JIT_TARGET) from the
// environment, one of Target::names(); else "host". An unknown name is an error listing them.
Target get_jit_target_from_environment();
// The target of ahead-of-time compilation: HALO_TARGET (or HL_TARGET), else "host".
Target get_target_from_environment();

}  // namespace halo
