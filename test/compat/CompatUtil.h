// What the compat tests share: comparing a buffer with the values plain C++ computes, and a
// deterministic hash for their inputs.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "dsl/Halo.h"

namespace halo_compat {

// A deterministic pseudo-random sequence (the tests must not depend on rand()).
inline uint32_t hash32(uint32_t a) {
    a ^= a >> 16;
    a *= 0x7feb352dU;
    a ^= a >> 15;
    a *= 0x846ca68bU;
    a ^= a >> 16;
    return a;
}

// Whether s contains part (error messages are checked by their parts).
inline bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// The message of what fn throws, or "" if it does not throw.
template <typename F>
std::string thrown_message(F fn) {
    try {
        fn();
    } catch (const std::exception &e) {
        return e.what();
    }
    return "";
}

template <typename T>
bool same_value(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) return a == b || (std::isnan(a) && std::isnan(b));
    else return a == b;
}

template <typename T>
std::string show(T v) {
    std::ostringstream s;
    if constexpr (std::is_floating_point_v<T>) s.precision(17);
    s << +v;
    return s.str();
}

// Compares every element of out with want(coords) (floats within a relative tolerance, if one
// is given; NaN equals NaN); reports the first mismatch and returns how many there are.
template <typename T>
int mismatches(const halo::Buffer<T> &out, const std::function<T(const std::vector<int> &)> &want, double tol = 0) {
    int bad = 0;
    std::string first;
    out.for_each_element([&](const std::vector<int> &c) {
        T got = out(c), w = want(c);
        bool ok = same_value(got, w);
        if (!ok && tol > 0) ok = std::fabs(double(got) - double(w)) <= tol * std::max(1.0, std::fabs(double(w)));
        if (!ok) {
            if (bad == 0) {
                std::ostringstream s;
                s << "first mismatch at (";
                for (size_t i = 0; i < c.size(); i++) s << (i ? ", " : "") << c[i];
                s << "): got " << show(got) << ", expected " << show(w);
                first = s.str();
            }
            bad++;
        }
    });
    if (bad) MESSAGE(first << " (" << bad << " mismatches)");
    return bad;
}

// Whether a lowered statement (Func::lowered_stmt()) has an "if" inside a loop: walks the lines
// by indentation, an "if" line indented deeper than an open loop's line being inside it.
inline bool has_if_inside_loop(const std::string &stmt) {
    std::vector<size_t> open_fors;
    size_t start = 0;
    while (start < stmt.size()) {
        size_t end = stmt.find('\n', start);
        if (end == std::string::npos) end = stmt.size();
        std::string line = stmt.substr(start, end - start);
        start = end + 1;
        size_t indent = line.find_first_not_of(' ');
        if (indent == std::string::npos) continue;
        while (!open_fors.empty() && indent <= open_fors.back()) open_fors.pop_back();
        for (const char *loop : {"for (", "parallel (", "vectorized (", "unrolled ("}) {
            if (line.compare(indent, std::strlen(loop), loop) == 0) open_fors.push_back(indent);
        }
        if (line.compare(indent, 3, "if ") == 0 && !open_fors.empty()) return true;
    }
    return false;
}

}  // namespace halo_compat
