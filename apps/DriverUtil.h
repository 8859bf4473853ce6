// Shared by the app drivers: loading photographs, timing ahead-of-time compiled calls,
// comparing against the plain C++ reference and reporting.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "dsl/Halo.h"

namespace apps {

// A photograph as float RGB in [0, 1] (gray images are repeated into three channels).
inline halo::Buffer<float> load_rgb(const std::string &path) {
    halo::Buffer<float> img = halo::to_float(halo::load_png_u8(path));
    if (img.dimensions() == 3 && img.channels() >= 3) return img;
    halo::Buffer<float> rgb(img.width(), img.height(), 3);
    rgb.for_each_value([&](const std::vector<int> &p) {
        return img.dimensions() == 2 ? img(p[0], p[1]) : img(p[0], p[1], 0);
    });
    return rgb;
}

// Luma in [0, 1].
inline halo::Buffer<float> load_gray(const std::string &path) {
    halo::Buffer<float> rgb = load_rgb(path);
    halo::Buffer<float> g(rgb.width(), rgb.height());
    g.for_each_value([&](const std::vector<int> &p) {
        return 0.299f * rgb(p[0], p[1], 0) + 0.587f * rgb(p[0], p[1], 1) + 0.114f * rgb(p[0], p[1], 2);
    });
    return g;
}

// Median milliseconds of `reps` calls of f (after one warm-up call); -1 if a call fails.
inline double median_ms(const std::function<int()> &f, int reps) {
    if (f() != 0) return -1;
    std::vector<double> ms;
    for (int i = 0; i < reps; i++) {
        auto t = std::chrono::steady_clock::now();
        if (f() != 0) return -1;
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

// |a - b|, never NaN: infinite where exactly one is NaN, 0 where both are (or a == b), so that
// std::max over it cannot hide a NaN (std::max(worst, NaN) is worst).
inline double value_difference(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : INFINITY;
    return a == b ? 0 : std::fabs(a - b);
}

// Largest |a - b| over all elements (infinite if one has a NaN where the other has none).
template <typename T>
double max_abs_difference(const halo::Buffer<T> &a, const halo::Buffer<T> &b) {
    double worst = 0;
    a.for_each_element([&](const std::vector<int> &c) { worst = std::max(worst, value_difference(a(c), b(c))); });
    return worst;
}

// Prints the timings and the check; returns the process exit code (1 on a mismatch or a failed call).
inline int report(const std::string &app, const std::vector<std::pair<std::string, double>> &timings, double worst,
                  double tolerance, const std::string &wrote) {
    bool failed = false;
    for (auto &[name, ms] : timings) {
        if (ms < 0) {
            std::printf("%s: %s failed (see the error above)\n", app.c_str(), name.c_str());
            failed = true;
        } else {
            std::printf("%s: %-34s %9.2f ms (median)\n", app.c_str(), name.c_str(), ms);
        }
    }
    bool match = worst <= tolerance;
    std::printf("%s: max |halo - plain C++| = %.3g (tolerance %.3g): %s; wrote %s\n", app.c_str(), worst, tolerance,
                match ? "match" : "MISMATCH", wrote.c_str());
    return failed || !match ? 1 : 0;
}

// The drivers' main(): parses "input.png output.png [repetitions]", runs body(input, output,
// repetitions) and turns exceptions into a message and exit code 1.
inline int driver_main(int argc, char **argv,
                       const std::function<int(const char *input, const char *output, int reps)> &body) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s input.png output.png [repetitions]\n", argv[0]);
        return 2;
    }
    try {
        return body(argv[1], argv[2], argc > 3 ? std::atoi(argv[3]) : 10);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "error: %s\n", e.what());
        return 1;
    }
}

}  // namespace apps
