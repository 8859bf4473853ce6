// A fourteenth batch of ports of programs from Halide's test/correctness directory (one TEST_CASE
// per program, or per part of one, each naming the Halide test it follows): atomic_tuples, the
// CPU half of atomics, print and infer_arguments.
// The behaviour is rewritten, not copied: every result is compared point by point against
// plain C++ loops written here.
// Changed or not ported:
// - atomic_tuples counts the Atomic nodes (and their mutexes) through a custom lowering pass;
//   Halo has no Atomic node (one value updates with a compare-and-swap, a Tuple's values under
//   a lock of the point), so the ports check the values, and the lowered code's locks.
// - atomics' GPU backends, float16 (Halo has no float16 type) and its async and extern-call
//   cases are left out; each realization runs 10 times instead of 100 (a race shows up as a
//   wrong count far sooner, and the ThreadSanitizer build runs test_atomic's equivalents).
// - print captures the lines with halo_set_print_handler (Halo has no Func::set_custom_print),
//   checks 10,000 random floats and doubles instead of 100,000, and leaves out the line longer
//   than 8K, which Halide cuts to 8191 characters and Halo prints whole.
// - infer_arguments: Halo's Argument has no argument_estimates, so their checks are left out.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"
#include "runtime/HaloRuntime.h"

namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;

// ---------------------------------------------------------------------------------------------
// atomic_tuples

namespace {

// g(x, y) = the sum of f's values, realized over 128x128; checked against want(x, y).
template <typename Want>
void check_sum_of_values(Func g, Want want) {
    Buffer<int> out = g.realize({128, 128});
    int bad = 0;
    for (int y = 0; y < 128; y++)
        for (int x = 0; x < 128; x++) bad += out(x, y) != want(x, y);
    CHECK(bad == 0);
}

}  // namespace

TEST_CASE("atomic_tuples: values summed independently") {
    Func f, g;
    Var x, y;
    f(x, y) = {x, y};
    f(x, y) = {f(x, y)[0] + x, f(x, y)[1] + y};
    f.compute_root().update().parallel(y).atomic();
    g(x, y) = f(x, y)[0] + f(x, y)[1];
    check_sum_of_values(g, [](int x, int y) { return 2 * x + 2 * y; });
}

TEST_CASE("atomic_tuples: values that read each other") {
    Func f, g;
    Var x, y;
    f(x, y) = {x, y};
    f(x, y) = {f(x, y)[1] + x, f(x, y)[0] + y};
    f.compute_root().update().parallel(y).atomic();
    g(x, y) = f(x, y)[0] + f(x, y)[1];
    check_sum_of_values(g, [](int x, int y) { return 2 * x + 2 * y; });
    CHECK(contains(g.lowered_stmt(), "atomic_lock("));
}

TEST_CASE("atomic_tuples: two coupled values and an independent third") {
    Func f, g;
    Var x, y;
    f(x, y) = {x, y, 0};
    f(x, y) = {f(x, y)[1] + x, f(x, y)[0] + y, f(x, y)[2] + 1};
    f.compute_root().update().parallel(y).atomic();
    g(x, y) = f(x, y)[0] + f(x, y)[1] + f(x, y)[2];
    check_sum_of_values(g, [](int x, int y) { return 2 * x + 2 * y + 1; });
}

TEST_CASE("atomic_tuples: two coupled pairs") {
    Func f, g;
    Var x, y;
    f(x, y) = {x, y, x, y};
    f(x, y) = {f(x, y)[1] + x, f(x, y)[0] + y, f(x, y)[3] + x, f(x, y)[2] + y};
    f.compute_root().update().parallel(y).atomic();
    g(x, y) = f(x, y)[0] + f(x, y)[1] + f(x, y)[2] + f(x, y)[3];
    check_sum_of_values(g, [](int x, int y) { return 4 * x + 4 * y; });
}

TEST_CASE("atomic_tuples: even rows, then odd rows from the even ones, each over a parallel RVar") {
    Func f, g;
    Var x, y;
    f(x, y) = {x, y};
    RDom r(0, 65);
    f(x, r * 2) = {f(x, r * 2 + 1)[1] + x, f(x, r * 2 - 1)[0] + r * 2};
    f(x, r * 2 + 1) = {f(x, r * 2)[1] + x, f(x, r * 2 + 2)[0] + r * 2 + 1};
    f.compute_root();
    f.update(0).parallel(r).atomic();
    f.update(1).parallel(r).atomic();
    g(x, y) = f(x, y)[0] + f(x, y)[1];
    // (Halide's test prints mismatches here without failing; Halo's values are exact.)
    check_sum_of_values(g, [](int x, int y) { return 2 * x + 2 * y + 1 + (y % 2 ? x + y : 0); });
}

// ---------------------------------------------------------------------------------------------
// atomics (CPU)

namespace {

template <typename T>
void parallel_hist() {
    const int img_size = 10000, hist_size = 7;
    Func im, hist;
    Var x;
    RDom r(0, img_size);
    im(x) = (x * x) % hist_size;
    hist(x) = cast<T>(0);
    hist(im(r)) += cast<T>(1);
    hist.compute_root();
    hist.update().atomic().parallel(r);
    std::vector<T> want(hist_size, T(0));
    for (int i = 0; i < img_size; i++) want[size_t((i * i) % hist_size)] += T(1);
    for (int iter = 0; iter < 10; iter++) {
        Buffer<T> out = hist.realize({hist_size});
        for (int i = 0; i < hist_size; i++) CHECK(out(i) == want[size_t(i)]);
    }
}

template <typename T>
void parallel_cas_update() {
    const int img_size = 1000, hist_size = 13;
    Func im, hist;
    Var x;
    RDom r(0, img_size);
    im(x) = (x * x) % hist_size;
    hist(x) = cast<T>(0);
    // Not f op e: no single read-modify-write instruction, but every iteration applies one map.
    hist(im(r)) = max(hist(im(r)) + cast<T>(1), cast<T>(100));
    hist.compute_root();
    hist.update().atomic().parallel(r);
    std::vector<T> want(hist_size, T(0));
    for (int i = 0; i < img_size; i++) {
        T v = T(want[size_t((i * i) % hist_size)] + T(1));
        want[size_t((i * i) % hist_size)] = v > T(100) ? v : T(100);
    }
    for (int iter = 0; iter < 10; iter++) {
        Buffer<T> out = hist.realize({hist_size});
        for (int i = 0; i < hist_size; i++) CHECK(out(i) == want[size_t(i)]);
    }
}

template <typename T>
void parallel_hist_tuple() {
    const int img_size = 10000, hist_size = 7;
    Func im, hist;
    Var x;
    RDom r(0, img_size);
    im(x) = (x * x) % hist_size;
    hist(x) = Tuple(cast<T>(0), cast<T>(0));
    hist(im(r)) += Tuple(cast<T>(1), cast<T>(im(r)));
    hist.compute_root();
    hist.update().atomic().parallel(r);
    std::vector<T> count(hist_size, T(0)), sum(hist_size, T(0));
    for (int i = 0; i < img_size; i++) {
        int b = (i * i) % hist_size;
        count[size_t(b)] += T(1);
        sum[size_t(b)] += T(b);
    }
    for (int iter = 0; iter < 10; iter++) {
        Realization out = hist.realize({hist_size});
        Buffer<T> c(out[0]), s(out[1]);
        for (int i = 0; i < hist_size; i++) {
            CHECK(c(i) == count[size_t(i)]);
            CHECK(s(i) == sum[size_t(i)]);
        }
    }
}

template <typename T>
void all_cases() {
    parallel_hist<T>();
    parallel_cas_update<T>();
}

}  // namespace

TEST_CASE("atomics: parallel histograms and a compare-and-swap update, every integer and float type") {
    // (8- and 16-bit histograms wrap: the plain C++ wraps the same way.)
    all_cases<uint8_t>();
    all_cases<int8_t>();
    all_cases<uint16_t>();
    all_cases<int16_t>();
    all_cases<uint32_t>();
    all_cases<int32_t>();
    all_cases<float>();
    all_cases<uint64_t>();
    all_cases<int64_t>();
    all_cases<double>();
}

TEST_CASE("atomics: a Tuple histogram (count and sum of bins)") {
    parallel_hist_tuple<int32_t>();
    parallel_hist_tuple<uint16_t>();
    parallel_hist_tuple<double>();
}

TEST_CASE("atomics: a histogram computed per row of a parallel consumer, its RVar loop parallel too") {
    const int img_size = 1000, hist_size = 13;
    Func im, hist, final_;
    Var x, y;
    RDom r(0, img_size);
    im(x) = (x * x) % hist_size;
    hist(x) = 0;
    hist(im(r)) += 1;
    final_(x, y) = hist(x) + y;
    hist.compute_at(final_, y);
    hist.update().atomic().parallel(r);
    final_.parallel(y);
    std::vector<int> want(hist_size, 0);
    for (int i = 0; i < img_size; i++) want[size_t((i * i) % hist_size)] += 1;
    Buffer<int> out = final_.realize({hist_size, 10});
    int bad = 0;
    for (int yy = 0; yy < 10; yy++)
        for (int i = 0; i < hist_size; i++) bad += out(i, yy) != want[size_t(i)] + yy;
    CHECK(bad == 0);
}

TEST_CASE("atomics: a predicated histogram") {
    const int img_size = 1000, hist_size = 13;
    Func im, hist;
    Var x;
    RDom r(0, img_size);
    r.where(r % 2 == 0);
    im(x) = (x * x) % hist_size;
    hist(x) = 0;
    hist(im(r)) += 1;
    hist.compute_root();
    hist.update().atomic().parallel(r);
    std::vector<int> want(hist_size, 0);
    for (int i = 0; i < img_size; i += 2) want[size_t((i * i) % hist_size)] += 1;
    Buffer<int> out = hist.realize({hist_size});
    for (int i = 0; i < hist_size; i++) CHECK(out(i) == want[size_t(i)]);
}

TEST_CASE("atomics: a histogram whose RVar loop is split, vectorized and parallel") {
    const int img_size = 10000, hist_size = 7;
    Func im, hist;
    Var x;
    RDom r(0, img_size);
    im(x) = (x * x) % hist_size;
    hist(x) = 0;
    hist(im(r)) += 1;
    hist.compute_root();
    RVar ro, ri;
    hist.update().atomic().split(r, ro, ri, 8).parallel(ro).vectorize(ri);
    std::vector<int> want(hist_size, 0);
    for (int i = 0; i < img_size; i++) want[size_t((i * i) % hist_size)] += 1;
    Buffer<int> out = hist.realize({hist_size});
    for (int i = 0; i < hist_size; i++) CHECK(out(i) == want[size_t(i)]);
}

// ---------------------------------------------------------------------------------------------
// print

namespace {

std::mutex printed_mutex;
std::vector<std::string> printed;

void record_line(void *, const char *line) {
    std::lock_guard<std::mutex> lock(printed_mutex);
    printed.push_back(line);
}

// Records the lines printed while it lives.
struct PrintedLines {
    halo_print_handler_t previous;
    PrintedLines() : previous(halo_set_print_handler(&record_line)) { printed.clear(); }
    ~PrintedLines() { halo_set_print_handler(previous); }
};

std::string without_nan_sign(std::string s) { return s == "-nan\n" ? "nan\n" : s; }

}  // namespace

TEST_CASE("print: values and strings on one line") {
    Var x;
    Func f;
    f(x) = print(x * x, "the answer is", 42.0f, "unsigned", cast<uint32_t>(145));
    PrintedLines lines;
    Buffer<int32_t> result = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(result(i) == i * i);
    REQUIRE(printed.size() == 10);
    for (size_t i = 0; i < printed.size(); i++) {
        long square = 0;
        float forty_two = 0;
        unsigned long one_forty_five = 0;
        int scanned = std::sscanf(printed[i].c_str(), "%ld the answer is %f unsigned %lu", &square, &forty_two,
                                  &one_forty_five);
        CHECK(scanned == 3);
        CHECK(square == long(i * i));
        CHECK(forty_two == 42.0f);
        CHECK(one_forty_five == 145);
    }
}

TEST_CASE("print: print_when, and a string with a printf format in it printed as it is") {
    Var x;
    Func f;
    Param<int> param;
    param.set(127);
    f(x) = print_when(x == 3, x * x, "g", 42.0f, "%s", param);
    PrintedLines lines;
    Buffer<int32_t> result = f.realize({10});
    for (int i = 0; i < 10; i++) CHECK(result(i) == i * i);
    REQUIRE(printed.size() == 1);
    long nine = 0, p = 0;
    float forty_two = 0;
    CHECK(std::sscanf(printed[0].c_str(), "%ld g %f %%s %ld", &nine, &forty_two, &p) == 3);
    CHECK(nine == 9);
    CHECK(forty_two == 42.0f);
    CHECK(p == 127);
}

TEST_CASE("print: a float prints as %f does and a double as %e, special values included") {
    const int N = 10000;
    Var x;
    Func f, g;
    Expr e = reinterpret(Float(32), random_uint());
    e = select(x == 0, 0.0f, x == 1, -0.0f, x == 2, std::numeric_limits<float>::infinity(), x == 3,
               -std::numeric_limits<float>::infinity(), x == 4, std::numeric_limits<float>::quiet_NaN(), x == 5,
               -std::numeric_limits<float>::quiet_NaN(), e);
    e = select(x == 5, std::numeric_limits<float>::denorm_min(), x == 6, -std::numeric_limits<float>::denorm_min(),
               x == 7, std::numeric_limits<float>::min(), x == 8, -std::numeric_limits<float>::min(), x == 9,
               std::numeric_limits<float>::max(), x == 10, -std::numeric_limits<float>::max(), x == 11,
               1.0f - 1.0f / (1 << 22), e);
    f(x) = print(e);
    {
        PrintedLines lines;
        Buffer<float> imf = f.realize({N});
        REQUIRE(printed.size() == size_t(N));
        int bad = 0;
        char want[1024];
        for (int i = 0; i < N; i++) {
            std::snprintf(want, sizeof want, "%f\n", imf(i));
            if (without_nan_sign(printed[size_t(i)]) != without_nan_sign(want) && !bad++) {
                CHECK(printed[size_t(i)] == want);
            }
        }
        CHECK(bad == 0);
    }
    g(x) = print(reinterpret(Float(64), (cast<uint64_t>(random_uint()) << 32) | random_uint()));
    {
        PrintedLines lines;
        Buffer<double> img = g.realize({N});
        REQUIRE(printed.size() == size_t(N));
        int bad = 0;
        char want[1024];
        for (int i = 0; i < N; i++) {
            std::snprintf(want, sizeof want, "%e\n", img(i));
            if (without_nan_sign(printed[size_t(i)]) != without_nan_sign(want) && !bad++) {
                CHECK(printed[size_t(i)] == want);
            }
        }
        CHECK(bad == 0);
    }
}

TEST_CASE("print: a vectorized print, and a vectorized print_when") {
    Var x;
    Func f, g;
    f(x) = print(x * 3);
    f.vectorize(x, 32);
    {
        PrintedLines lines;
        Buffer<int> result = f.realize({128});
        REQUIRE(printed.size() == 128);
        for (size_t i = 0; i < printed.size(); i++) CHECK(printed[i] == std::to_string(i * 3) + "\n");
    }
    g(x) = print_when(x % 2 == 0, x * 3);
    g.vectorize(x, 32);
    {
        PrintedLines lines;
        Buffer<int> result = g.realize({128});
        REQUIRE(printed.size() == 64);
        for (size_t i = 0; i < printed.size(); i++) CHECK(printed[i] == std::to_string(i * 2 * 3) + "\n");
    }
}

// ---------------------------------------------------------------------------------------------
// infer_arguments

TEST_CASE("infer_arguments: buffers first, then scalars, each by name") {
    ImageParam input1(UInt(8), 3, "input1");
    ImageParam input2(UInt(8), 2, "input2");
    Param<int32_t> height("height");
    Param<int32_t> width("width");
    Param<uint8_t> thresh("thresh");
    Param<float> frac("frac", 22.5f, 11.25f, 1e30f);
    Param<uint64_t> z_unsigned("z_unsigned", 0xdeadbeef);  // (named so that it comes last)
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = frac * (input1(clamp(x, 0, height), clamp(y, 0, width), c) + min(thresh, input2(x, y))) +
                 (0 * z_unsigned);
    std::vector<Argument> args = f.infer_arguments();
    REQUIRE(args.size() == 7);
    const char *names[] = {"input1", "input2", "frac", "height", "thresh", "width", "z_unsigned"};
    for (size_t i = 0; i < 7; i++) {
        CAPTURE(i);
        CHECK(args[i].name == names[i]);
        CHECK(args[i].is_buffer() == (i < 2));
    }
    CHECK(args[0].dimensions == 3);
    CHECK(args[1].dimensions == 2);
    for (size_t i = 2; i < 7; i++) CHECK(args[i].dimensions == 0);
    CHECK(args[2].type == Float(32));
    CHECK(args[3].type == Int(32));
    CHECK(args[4].type == UInt(8));
    CHECK(args[5].type == Int(32));
    CHECK(args[6].type == UInt(64));

    Func f_a("f_a"), f_b("f_b"), f_tuple("f_tuple");
    f_a(x, y, c) = input1(x, y, c) * frac;
    f_b(x, y, c) = input1(x, y, c) + thresh;
    f_tuple(x, y, c) = Tuple(f_a(x, y, c), f_b(x, y, c));
    args = f_tuple.infer_arguments();
    REQUIRE(args.size() == 3);
    CHECK(args[0].name == "input1");
    CHECK(args[0].is_buffer());
    CHECK(args[0].dimensions == 3);
    CHECK(args[1].name == "frac");
    CHECK(args[1].type == Float(32));
    CHECK(args[2].name == "thresh");
    CHECK(args[2].type == UInt(8));
    CHECK(!args[2].is_buffer());
}

TEST_CASE("infer_arguments: an embedded Buffer is not an argument, and the list compiles the pipeline") {
    Buffer<int> table(4);
    for (int i = 0; i < 4; i++) table(i) = i * 10;
    ImageParam in(Int(32), 1, "in");
    Param<int> offset("offset");
    Var x("x");
    Func g("g");
    g(x) = in(x) + table(x % 4) + offset;
    std::vector<Argument> args = g.infer_arguments();
    REQUIRE(args.size() == 2);
    CHECK(args[0].name == "in");
    CHECK(args[1].name == "offset");
    const char *dir = std::getenv("TMPDIR");
    std::string prefix = std::string(dir && *dir ? dir : "/tmp") + "/compat14_infer_arguments";
    CHECK_NOTHROW(g.compile_to_static_library(prefix, args, "compat14_g"));
    CHECK(std::ifstream(prefix + ".a").good());
    CHECK(std::ifstream(prefix + ".h").good());
}
