#include "Target.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include "dsl/Error.h"
#include "dsl/Type.h"

namespace halo {

std::vector<std::string> Target::names() { return {"host", "x86-64-sse41", "x86-64-avx2", "x86-64-avx512"}; }

namespace {
// "host, x86-64-sse41, ...", for messages.
std::string known_target_names() {
    std::string known;
    for (auto &n : Target::names()) known += (known.empty() ? "" : ", ") + n;
    return known;
}
}  // namespace

namespace {
const char *const kLoopOptSuffix = "-enable_llvm_loop_opt";

// "host-enable_llvm_loop_opt" -> "host" (and whether the suffix was there).
std::string strip_loop_opt(const std::string &name, bool *loop_opt) {
    const std::string suffix = kLoopOptSuffix;
    bool has = name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (loop_opt) *loop_opt = has;
    return has ? name.substr(0, name.size() - suffix.size()) : name;
}
}  // namespace

namespace {
// Halide's features that change nothing in the code Halo makes for a CPU target: the OS, the
// JIT, the run-time checks' options and the x86 features (which choose the level below).
const char *const kIgnoredHalideFeatures[] = {
    "linux", "osx", "windows", "noos", "jit", "no_asserts", "no_bounds_query", "large_buffers", "user_context",
    "no_runtime", "sse41", "avx", "avx2", "fma", "f16c", "avx512", "avx512_knl", "avx512_skylake",
    "avx512_cannonlake", "avx512_sapphirerapids", "avx512_zen4", "avxvnni", "avx512_vnni", "avx512_bf16",
    "enable_llvm_loop_opt"};

// A Halide target string (HL_JIT_TARGET often holds one, x86-64-linux-avx-avx2-fma-sse41-jit) as
// the Halo target with the same vectors: x86-64-avx512 where it names a Skylake-class AVX-512
// (F, BW, DQ and VL), else x86-64-avx2 where it names AVX2, else x86-64-sse41 where SSE4.1;
// "host-..." is host. Empty if it is not one; a feature Halo does not know (a GPU API, say) is
// an error naming it.
std::string halo_name_of_halide_target(const std::string &full_name, bool *loop_opt) {
    std::vector<std::string> tokens;
    for (size_t start = 0;;) {
        size_t dash = full_name.find('-', start);
        tokens.push_back(full_name.substr(start, dash == std::string::npos ? std::string::npos : dash - start));
        if (dash == std::string::npos) break;
        start = dash + 1;
    }
    size_t first_feature = 0;
    if (tokens[0] == "host") first_feature = 1;
    else if (tokens.size() >= 2 && tokens[0] == "x86" && tokens[1] == "64") first_feature = 2;
    else return "";
    std::set<std::string> features(tokens.begin() + std::ptrdiff_t(first_feature), tokens.end());
    for (const std::string &f : features) {
        bool known = false;
        for (const char *ignored : kIgnoredHalideFeatures) known = known || f == ignored;
        user_assert(known) << "Unknown target '" << full_name << "': Halo compiles for x86-64 CPUs only and does "
                           << "not know Halide's feature '" << f << "'; drop it, or use one of Halo's targets: "
                           << known_target_names() << " (each may end in " << kLoopOptSuffix << ")";
    }
    *loop_opt = features.count("enable_llvm_loop_opt") > 0;
    if (first_feature == 1) return "host";
    for (const char *skylake_class : {"avx512_skylake", "avx512_cannonlake", "avx512_sapphirerapids", "avx512_zen4"}) {
        if (features.count(skylake_class)) return "x86-64-avx512";
    }
    if (features.count("avx2")) return "x86-64-avx2";
    if (features.count("sse41")) return "x86-64-sse41";
    user_error << "Target '" << full_name << "': Halo needs at least SSE4.1 (add -sse41), or use one of its targets: "
               << known_target_names();
    return "";
}
}  // namespace

namespace {
// One of Target::names(), with or without the loop-optimization suffix.
bool is_halo_target_name(const std::string &name) {
    const std::vector<std::string> known = Target::names();
    return std::find(known.begin(), known.end(), strip_loop_opt(name, nullptr)) != known.end();
}
}  // namespace

bool Target::is_target_name(const std::string &name) {
    if (is_halo_target_name(name)) return true;
    bool loop_opt = false;
    return !halo_name_of_halide_target(name, &loop_opt).empty();
}

Target Target::parse(const std::string &given_name) {
    std::string full_name = given_name;
    if (!is_halo_target_name(given_name)) {
        bool halide_loop_opt = false;
        std::string halo_name = halo_name_of_halide_target(given_name, &halide_loop_opt);
        if (!halo_name.empty()) full_name = halo_name + (halide_loop_opt ? kLoopOptSuffix : "");
    }
    bool loop_opt = false;
    const std::string name = strip_loop_opt(full_name, &loop_opt);
    Target t;
    t.llvm_loop_opt = loop_opt;
    t.name = name;
    t.triple = llvm::sys::getProcessTriple();
    if (name == "host") {
        t.cpu = llvm::sys::getHostCPUName().str();
        for (auto &f : llvm::sys::getHostCPUFeatures()) {
            t.features += (t.features.empty() ? "" : ",") + std::string(f.second ? "+" : "-") + f.first().str();
        }
        return t;
    }
    if (name == "x86-64-sse41") {
        t.cpu = "x86-64";
        t.features = "+sse4.1,+ssse3,+sse3";
    } else if (name == "x86-64-avx2") {
        t.cpu = "x86-64-v3";
    } else if (name == "x86-64-avx512") {
        t.cpu = "x86-64-v4";
    } else {
        user_error << "Unknown target '" << full_name << "'; known targets are: " << known_target_names()
                   << " (each may end in " << kLoopOptSuffix << ")";
    }
    return t;
}

Target Target::with_feature(Feature f) const {
    user_assert(f == EnableLLVMLoopOpt) << "Target::with_feature: only EnableLLVMLoopOpt can be added: CPU features come "
                                        << "with the target's name (" << known_target_names()
                                        << "), and Halo has none of Halide's GPU, DSP, other-CPU or code-generation "
                                        << "features (feature number " << int(f) << ")";
    Target t = *this;
    t.llvm_loop_opt = true;
    return t;
}

std::string Target::to_string() const { return name + (llvm_loop_opt ? kLoopOptSuffix : ""); }

bool Target::has_feature(Feature f) const {
    if (f == EnableLLVMLoopOpt) return llvm_loop_opt;
    if (name == "host") {
        llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
        auto has = [&](const char *feature) { return host.lookup(feature); };
        switch (f) {
        case SSE41: return has("sse4.1");
        case AVX: return has("avx");
        case AVX2: return has("avx2");
        case FMA: return has("fma");
        case F16C: return has("f16c");
        case AVX512: return has("avx512f");
        case AVX512_Skylake: return has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl");
        default: break;
        }
        return false;
    }
    // The named levels: x86-64-v3 has AVX2, FMA and F16C; x86-64-v4 adds AVX-512 (F, BW, DQ, VL).
    int level = name == "x86-64-sse41" ? 1 : name == "x86-64-avx2" ? 3 : name == "x86-64-avx512" ? 4 : 0;
    switch (f) {
    case SSE41: return level >= 1;
    case AVX:
    case AVX2:
    case FMA:
    case F16C: return level >= 3;
    case AVX512:
    case AVX512_Skylake: return level >= 4;
    default: break;
    }
    return false;
}

bool Target::features_any_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (has_feature(f)) return true;
    }
    return false;
}

bool Target::features_all_of(const std::vector<Feature> &fs) const {
    for (Feature f : fs) {
        if (!has_feature(f)) return false;
    }
    return true;
}

int Target::natural_vector_size(const Type &t) const { return natural_vector_size(t.is_bool() ? 8 : t.bits()); }

int Target::natural_vector_size(int type_bits) const {
    user_assert(type_bits == 8 || type_bits == 16 || type_bits == 32 || type_bits == 64)
        << "Target::natural_vector_size: no vectors of " << type_bits << "-bit elements";
    int register_bits = has_feature(AVX512) ? 512 : has_feature(AVX) ? 256 : 128;
    return register_bits / type_bits;
}

namespace {
Target target_from_environment(const char *halo_var, const char *halide_var) {
    for (const char *var : {halo_var, halide_var}) {
        const char *v = std::getenv(var);
        if (v && *v) {
            user_assert(Target::is_target_name(v))
                << var << "=" << v << " names no target; known targets are: " << known_target_names()
                << " (each may end in " << kLoopOptSuffix << "), or Halide's target strings for x86-64 "
                << "(x86-64-linux-avx-avx2-fma-sse41-jit)";
            return Target::parse(v);
        }
    }
    return Target::host();
}
}  // namespace

Target get_host_target() { return Target::host(); }
Target get_jit_target_from_environment() { return target_from_environment("HALO_JIT_TARGET", "HL_JIT_TARGET"); }
Target get_target_from_environment() { return target_from_environment("HALO_TARGET", "HL_TARGET"); }

bool Target::supported_by_host() const {
    if (name == "host") return true;
    llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
    auto has = [&](const char *f) { return host.lookup(f); };
    if (name == "x86-64-sse41") return has("sse4.1");
    if (name == "x86-64-avx2") return has("avx2") && has("fma") && has("bmi2");
    if (name == "x86-64-avx512") return has("avx512f") && has("avx512bw") && has("avx512dq") && has("avx512vl");
    return false;
}

}  // namespace halo
