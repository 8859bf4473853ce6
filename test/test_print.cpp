// print() and print_when() inside expressions (Halide's): the value of the first argument,
// and one line per evaluation with every argument, through the runtime's print handler.
#include <algorithm>
#include <mutex>

#include "TestUtil.h"
#include "runtime/HaloRuntime.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

std::mutex lines_mutex;
std::vector<std::string> lines;

void capture(void *, const char *line) {
    std::lock_guard<std::mutex> lock(lines_mutex);
    lines.push_back(line);
}

// Captures the lines printed while it lives.
struct Capture {
    halo_print_handler_t previous;
    Capture() : previous(halo_set_print_handler(&capture)) { lines.clear(); }
    ~Capture() { halo_set_print_handler(previous); }
};

}  // namespace

TEST_CASE("print returns its first argument and prints every argument on one line") {
    Var x("x");
    Func f("f");
    f(x) = print(x * 2, "<- twice", x) + 1;
    Capture c;
    Buffer<int> out(4);
    out.set_min(-1);
    f.realize(out);
    for (int i = -1; i < 3; i++) CHECK(out(i) == i * 2 + 1);
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "-2 <- twice -1\n");
    CHECK(lines[3] == "4 <- twice 2\n");
    halo_test::check_against_reference(f, out);
}

TEST_CASE("print formats each type: signed, unsigned, bool, 64-bit and floats") {
    Var x("x");
    Func f("f");
    Expr big = cast<int64_t>(x) - Expr(int64_t(1) << 40);
    f(x) = print(cast<float>(x) * 0.5f, cast<uint8_t>(250 + x), x > 0, big, cast<double>(x) / 4);
    Capture c;
    Buffer<float> out = f.realize({2});
    CHECK(out(1) == 0.5f);
    REQUIRE(lines.size() == 2);
    // (A double prints as %e does, as in Halide.)
    CHECK(lines[0] == "0.000000 250 0 -1099511627776 0.000000e+00\n");
    CHECK(lines[1] == "0.500000 251 1 -1099511627775 2.500000e-01\n");
}

TEST_CASE("print_when prints only where its condition holds") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = print_when(x == y, x + y, "on the diagonal at", x);
    Capture c;
    Buffer<int> out = f.realize({5, 3});
    CHECK(out(4, 2) == 6);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "0 on the diagonal at 0\n");
    CHECK(lines[2] == "4 on the diagonal at 2\n");
}

TEST_CASE("a vectorized Func with a print runs lane by lane, printing points in order") {
    Var x("x");
    Func g("g"), f("f");
    g(x) = print(x * x, "g at", x);
    f(x) = g(x) + g(x + 1);
    f.vectorize(x, 4);
    Capture c;
    Buffer<int> out = f.realize({8});
    for (int i = 0; i < 8; i++) CHECK(out(i) == i * i + (i + 1) * (i + 1));
    REQUIRE(lines.size() >= 8);
    CHECK(lines[0] == "0 g at 0\n");
    CHECK(lines[1] == "1 g at 1\n");
}

TEST_CASE("print's first argument must be a value") {
    Var x("x");
    std::string err = compile_error_of([&] { print(std::vector<Expr>{StringImm::make("x is"), x}); });
    CHECK(contains(err, "print(\"x is\", ...): the first argument is the value"));
    err = compile_error_of([&] { print_when(x + 1, x); });
    CHECK(contains(err, "print_when("));
    CHECK(contains(err, "must be a boolean"));
}

TEST_CASE("print in a parallel loop: every point prints one whole line") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = print(x + 10 * y, "at", x, y);
    f.parallel(y);
    Capture c;
    Buffer<int> out = f.realize({6, 8});
    CHECK(out(5, 7) == 75);
    REQUIRE(lines.size() == 48);
    std::sort(lines.begin(), lines.end());
    CHECK(std::adjacent_find(lines.begin(), lines.end()) == lines.end());
    CHECK(std::find(lines.begin(), lines.end(), "75 at 5 7\n") != lines.end());
}
