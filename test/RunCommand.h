// Runs a shell command for the tests that build or call programs (the AOT tools, a C++ program
// linked against a compiled library): its exit status as pclose gives it, and its output with
// stderr merged.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <utility>

namespace halo_test {

inline std::pair<int, std::string> run_command(const std::string &cmd) {
    std::string out;
    FILE *p = popen((cmd + " 2>&1").c_str(), "r");
    REQUIRE(p);
    std::array<char, 512> buf;
    while (fgets(buf.data(), int(buf.size()), p)) out += buf.data();
    return {pclose(p), out};
}

}  // namespace halo_test
