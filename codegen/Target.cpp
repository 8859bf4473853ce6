#include "Target.h"

#include <algorithm>
#include <cstdlib>

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include "dsl/Error.h"

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

Target Target::parse(const std::string &full_name) {
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
    user_assert(f == EnableLLVMLoopOpt) << "Target::with_feature: CPU features come with the target's name ("
                                        << known_target_names() << "); only EnableLLVMLoopOpt can be added";
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
        case EnableLLVMLoopOpt: break;
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
    case EnableLLVMLoopOpt: break;
    }
    return false;
}

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
            std::vector<std::string> names = Target::names();
            user_assert(std::find(names.begin(), names.end(), strip_loop_opt(v, nullptr)) != names.end())
                << var << "=" << v << " names no target; known targets are: " << known_target_names()
                << " (each may end in " << kLoopOptSuffix << ")";
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
