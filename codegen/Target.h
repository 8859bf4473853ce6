// Targets: the CPU a pipeline is compiled for. "host" is this machine; the named x86-64
// feature levels run on any machine that has them.
#pragma once

#include <string>
#include <vector>

namespace halo {

struct Target {
    std::string name = "host";
    std::string triple;    // LLVM target triple
    std::string cpu;       // LLVM CPU name
    std::string features;  // LLVM feature string, e.g. "+sse4.1,+ssse3"

    // "host", "x86-64-sse41", "x86-64-avx2" or "x86-64-avx512"; throws CompileError otherwise.
    static Target parse(const std::string &name);
    static Target host() { return parse("host"); }
    static std::vector<std::string> names();
    // Whether code for this target runs on this machine.
    bool supported_by_host() const;
};

}  // namespace halo
