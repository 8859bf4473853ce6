// Helpers shared by the tests: comparing buffers against the reference evaluator.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "dsl/Halo.h"

namespace halo_test {

// Compares two buffers over a's region; returns "" if equal (within tol), else a description
// of the first mismatch.
inline std::string compare(const halo::Buffer<> &a, const halo::Buffer<> &b, double tol = 0) {
    std::string err;
    if (a.dimensions() != b.dimensions()) return "different dimensions";
    a.for_each_element([&](const std::vector<int> &c) {
        if (!err.empty()) return;
        double x = a.get_as_double(c), y = b.get_as_double(c);
        bool same = (std::isnan(x) && std::isnan(y)) || x == y ||
                    std::fabs(x - y) <= tol * std::max(1.0, std::fabs(y));
        if (!same) {
            std::ostringstream s;
            s << "mismatch at (";
            for (size_t i = 0; i < c.size(); i++) s << (i ? ", " : "") << c[i];
            s << "): " << x << " vs " << y;
            err = s.str();
        }
    });
    return err;
}

// Realizes f over dst's region both compiled and with the reference evaluator; checks equal.
inline void check_against_reference(halo::Func f, halo::Buffer<> dst, double tol = 0) {
    halo::Buffer<> expected(dst.type(), [&] {
        std::vector<int> s;
        for (int d = 0; d < dst.dimensions(); d++) s.push_back(dst.dim(d).extent());
        return s;
    }());
    std::vector<int> mins;
    for (int d = 0; d < dst.dimensions(); d++) mins.push_back(dst.dim(d).min());
    expected.set_min(mins);
    halo::reference_realize(f, expected);
    f.realize(dst);
    std::string err = compare(dst, expected, tol);
    INFO("Func " << f.name());
    CHECK_MESSAGE(err.empty(), err);
}

// Random contents in [lo, hi] (integers for integer buffers).
inline void fill_random(halo::Buffer<> b, double lo, double hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(lo, hi);
    bool integer = !b.type().is_float();
    b.for_each_element([&](const std::vector<int> &c) {
        double v = dist(rng);
        b.set_value(c, integer ? std::floor(v) : v);
    });
}

// Runs fn and returns the CompileError message (or "" if nothing was thrown).
template <typename F>
std::string compile_error_of(F fn) {
    try {
        fn();
    } catch (const halo::CompileError &e) {
        return e.what();
    }
    return "";
}

}  // namespace halo_test
