#include "Target.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/TargetParser/Host.h>

#include "dsl/Error.h"

namespace halo {

std::vector<std::string> Target::names() { return {"host", "x86-64-sse41", "x86-64-avx2", "x86-64-avx512"}; }

Target Target::parse(const std::string &name) {
    Target t;
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
        std::string known;
        for (auto &n : names()) known += (known.empty() ? "" : ", ") + n;
        user_error << "Unknown target '" << name << "'; known targets are: " << known;
    }
    return t;
}

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
