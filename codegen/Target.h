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
    enum Feature { SSE41, AVX, AVX2, FMA, F16C, AVX512, AVX512_Skylake, EnableLLVMLoopOpt };

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
    // Whether parse() takes the name.
    static bool is_target_name(const std::string &name);
    static Target host() { return parse("host"); }
    static std::vector<std::string> names();
    // Whether code for this target runs on this machine.
    bool supported_by_host() const;
    // Whether code for this target may use the feature ("host": this machine's CPU).
    bool has_feature(Feature f) const;
    // Elements of type t (its bits: 8, 16, 32 or 64) in one native vector register: 512-bit
    // with AVX512, 256-bit with AVX, else 128-bit.
    int natural_vector_size(int type_bits) const;
    template <typename T>
    int natural_vector_size() const { return natural_vector_size(int(sizeof(T) * 8)); }
    // This target with EnableLLVMLoopOpt set (CPU features come with the target's name, so
    // asking for one of those is an error).
    Target with_feature(Feature f) const;
    // The name parse() takes back, with the features set ("host-enable_llvm_loop_opt").
    std::string to_string() const;
};

// This machine's target ("host").
Target get_host_target();
// The target JIT compilation uses: HALO_JIT_TARGET (or Halide's HL_JIT_TARGET) from the
// environment, one of Target::names(); else "host". An unknown name is an error listing them.
Target get_jit_target_from_environment();
// The target of ahead-of-time compilation: HALO_TARGET (or HL_TARGET), else "host".
Target get_target_from_environment();

}  // namespace halo
