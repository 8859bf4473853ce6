// Helpers shared by the tests: comparing buffers against the reference evaluator.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
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

// |a - b|, never NaN: infinite where exactly one is NaN, 0 where both are (or a == b), so that
// std::max over it cannot hide a NaN (std::max(worst, NaN) is worst).
inline double value_difference(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
    return a == b ? 0 : std::fabs(a - b);
}

// Largest |a - b| over a's elements, relative to max(1, max |b|).
template <typename T>
double max_difference(const halo::Buffer<T> &a, const halo::Buffer<T> &b) {
    double worst = 0, scale = 1;
    b.for_each_element([&](const std::vector<int> &c) { scale = std::max(scale, std::fabs(double(b(c)))); });
    a.for_each_element([&](const std::vector<int> &c) { worst = std::max(worst, value_difference(a(c), b(c))); });
    return worst / scale;
}

// The reference evaluator's f over the region of `like` (same type, extents and mins).
inline halo::Buffer<> reference_over(const halo::Func &f, const halo::Buffer<> &like) {
    std::vector<int> sizes, mins;
    for (int d = 0; d < like.dimensions(); d++) {
        sizes.push_back(like.dim(d).extent());
        mins.push_back(like.dim(d).min());
    }
    halo::Buffer<> expected(like.type(), sizes);
    expected.set_min(mins);
    halo::reference_realize(f, expected);
    return expected;
}

// Realizes f over dst's region both compiled and with the reference evaluator; checks equal.
inline void check_against_reference(halo::Func f, halo::Buffer<> dst, double tol = 0) {
    halo::Buffer<> expected = reference_over(f, dst);
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

// A buffer of the given sizes filled with random values in [lo, hi].
template <typename T>
halo::Buffer<T> random_image(std::vector<int> sizes, unsigned seed, double lo = -100, double hi = 100) {
    halo::Buffer<T> b(sizes);
    fill_random(b, lo, hi, seed);
    return b;
}

// Checks every element of out against expect(coords), within a relative tolerance.
template <typename T>
void check_all(const halo::Buffer<T> &out, const std::function<double(const std::vector<int> &)> &expect,
               double tol = 0) {
    int bad = 0;
    std::string first;
    out.for_each_element([&](const std::vector<int> &c) {
        double got = out.get_as_double(c), e = expect(c);
        if (!(std::fabs(got - e) <= tol * std::max(1.0, std::fabs(e)))) {
            if (!bad++) {
                first = "at (";
                for (size_t i = 0; i < c.size(); i++) first += (i ? ", " : "") + std::to_string(c[i]);
                first += "): got " + std::to_string(got) + ", expected " + std::to_string(e);
            }
        }
    });
    CHECK_MESSAGE(bad == 0, bad << " mismatches; first " << first);
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

// Runs fn and returns the RuntimeError message (or "" if nothing was thrown).
template <typename F>
std::string runtime_error_of(F fn) {
    try {
        fn();
    } catch (const halo::RuntimeError &e) {
        return e.what();
    }
    return "";
}

inline bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// The redundancy report's row of one Func (a failed check if it has none).
inline const halo::RedundancyRow &row_of(const halo::RedundancyReport &r, const std::string &func) {
    for (auto &row : r.rows) {
        if (row.func == func) return row;
    }
    FAIL("no row for " << func);
    return r.rows.front();
}

// A w x h int buffer whose first point is (xmin, ymin): outputs at non-zero mins.
inline halo::Buffer<int> int_buffer_at(int w, int h, int xmin, int ymin) {
    halo::Buffer<int> b(w, h);
    b.set_min(xmin, ymin);
    return b;
}

// Sets an environment variable for one scope (lowering reads a few: HALO_NONTEMPORAL_MIN_BYTES),
// then restores what was there. A null value leaves it as it is.
class ScopedEnv {
public:
    ScopedEnv(const char *name, const char *value) : name_(name) {
        if (!value) return;
        const char *old = std::getenv(name);
        had_ = old != nullptr;
        if (had_) old_ = old;
        set_ = true;
        setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (!set_) return;
        if (had_) setenv(name_.c_str(), old_.c_str(), 1);
        else unsetenv(name_.c_str());
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    std::string name_, old_;
    bool had_ = false, set_ = false;
};

// A positive integer from the environment (for randomized tests' case counts and seeds), or
// fallback if unset; anything else fails the test rather than silently running 0 cases.
inline int env_int(const char *name, int fallback) {
    const char *v = std::getenv(name);
    if (!v || !*v) return fallback;
    char *end = nullptr;
    long n = std::strtol(v, &end, 10);
    std::string text = std::string(name) + "='" + v + "' is not a positive integer";
    REQUIRE_MESSAGE((*end == '\0' && n > 0 && n <= INT32_MAX), text);
    return int(n);
}

}  // namespace halo_test
