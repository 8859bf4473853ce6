// Halide 14's arithmetic and type semantics (implicit coercion, Euclidean division, shifts,
// casts, saturating_cast, abs/absd, lerp, rounding, float classes), Func definitions (4-D,
// Tuples of mixed types, RDoms over ImageParams and Buffers, inline reductions with where,
// boundary conditions over non-zero mins), pipelines over non-dense and offset buffers, and a
// Generator with Input/Output/GeneratorParam of several kinds. Every result is compared with
// plain C++ computing Halide's documented semantics, scalar and vectorized, at odd sizes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::mismatches;
using halo_compat::same_value;
using halo_compat::show;

namespace {

constexpr int N = 37;  // no vector width divides it



// f(x) = body(x) over [0, n) under four schedules (none; vectorize 8; vectorize 16; computed in
// a root producer vectorized 16 with GuardWithIf and read by a vectorized consumer): the type
// must be T and every element must equal want(x).
template <typename T>
void check_schedules(const std::string &what, const std::function<Expr(const Var &)> &body,
                     const std::function<T(int)> &want, int n = N, double tol = 0) {
    for (int sched = 0; sched < 4; sched++) {
        Var x("x");
        Func f("checked_f" + std::to_string(sched)), out = f;
        f(x) = body(x);
        INFO(what << ", schedule " << sched);
        REQUIRE_MESSAGE(f.output_type() == type_of<T>(),
                        "type " << f.output_type().to_string() << ", expected " << type_of<T>().to_string());
        if (sched == 1) f.vectorize(x, 8);
        if (sched == 2) f.vectorize(x, 16);
        if (sched == 3) {
            Func g("consumer_of_f");
            g(x) = f(x);
            f.compute_root().vectorize(x, 16, TailStrategy::GuardWithIf);
            g.vectorize(x, 4);
            out = g;
        }
        Buffer<T> r = out.realize({n});
        CHECK(mismatches<T>(r, [&](const std::vector<int> &c) { return want(c[0]); }, tol) == 0);
    }
}

// A 1-D input of n elements, element i = gen(i).
template <typename T>
Buffer<T> input_of(int n, const std::function<T(int)> &gen, const std::string &name) {
    Buffer<T> b(std::vector<int>{n}, name);
    for (int i = 0; i < n; i++) b(i) = gen(i);
    return b;
}

// Halide's integer division and modulo: Euclidean (the remainder is never negative), x / 0 = 0
// and x % 0 = 0.
int64_t euclid_div(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b, r = a % b;
    if (r < 0) q += b > 0 ? -1 : 1;
    return q;
}
int64_t euclid_mod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t r = a % b;
    if (r < 0) r += b > 0 ? b : -b;
    return r;
}

// Round to nearest, ties to even (Halide's round).
double round_even(double v) { return std::nearbyint(v); }

bool throws_compile_error(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &) {
        return true;
    }
    return false;
}

}  // namespace

// ---------------------------------------------------------------- implicit type coercion

TEST_CASE("uint8 with int literals stays uint8 and wraps: x + 200, 1 - x, x * 3") {
    Buffer<uint8_t> a = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7 + 3); }, "a");
    check_schedules<uint8_t>("a + 200", [&](const Var &x) { return a(x) + 200; },
                             [&](int i) { return uint8_t(a(i) + 200); });
    check_schedules<uint8_t>("1 - a", [&](const Var &x) { return 1 - a(x); },
                             [&](int i) { return uint8_t(1 - a(i)); });
    check_schedules<uint8_t>("a * 3", [&](const Var &x) { return a(x) * 3; },
                             [&](int i) { return uint8_t(a(i) * 3); });
    // A literal the Expr's type cannot represent is an error in Halide 14 (check_representable).
    CHECK(throws_compile_error([&] { Var x; Expr e = a(x) + 256; }));
    CHECK(throws_compile_error([&] { Var x; Expr e = a(x) - (-1); }));
}

TEST_CASE("int16 * uint8 is int16 and wraps in 16 bits") {
    Buffer<int16_t> a = input_of<int16_t>(N, [](int i) { return int16_t(-300 + i * 97); }, "a");
    Buffer<uint8_t> b = input_of<uint8_t>(N, [](int i) { return uint8_t(255 - i * 5); }, "b");
    check_schedules<int16_t>("a * b", [&](const Var &x) { return a(x) * b(x); },
                             [&](int i) { return int16_t(int(a(i)) * int(b(i))); });
    check_schedules<int16_t>("b - a", [&](const Var &x) { return b(x) - a(x); },
                             [&](int i) { return int16_t(int(b(i)) - int(a(i))); });
}

TEST_CASE("uint16 meeting int8 becomes int16: 40000 wraps negative before the add") {
    Buffer<uint16_t> a = input_of<uint16_t>(N, [](int i) { return uint16_t(40000 + i * 611); }, "a");
    Buffer<int8_t> b = input_of<int8_t>(N, [](int i) { return int8_t(i * 9 - 128); }, "b");
    check_schedules<int16_t>("a + b", [&](const Var &x) { return a(x) + b(x); },
                             [&](int i) { return int16_t(int16_t(a(i)) + b(i)); });
    // comparisons use the same coerced type
    check_schedules<bool>("a < b", [&](const Var &x) { return a(x) < b(x); },
                          [&](int i) { return int16_t(a(i)) < int16_t(b(i)); });
}

TEST_CASE("int8 meeting uint8 becomes int8: uint8 200 compares as -56") {
    Buffer<int8_t> a = input_of<int8_t>(N, [](int i) { return int8_t(i - 20); }, "a");
    Buffer<uint8_t> b = input_of<uint8_t>(N, [](int i) { return uint8_t(150 + i * 3); }, "b");
    check_schedules<bool>("a < b", [&](const Var &x) { return a(x) < b(x); },
                          [&](int i) { return a(i) < int8_t(b(i)); });
    check_schedules<int8_t>("a + b", [&](const Var &x) { return a(x) + b(x); },
                            [&](int i) { return int8_t(a(i) + int8_t(b(i))); });
    check_schedules<int8_t>("max(a, b)", [&](const Var &x) { return max(a(x), b(x)); },
                            [&](int i) { return std::max(a(i), int8_t(b(i))); });
}

TEST_CASE("uint32 meeting int32 becomes int32, two uint32 compare unsigned") {
    Buffer<uint32_t> a = input_of<uint32_t>(N, [](int i) { return uint32_t(0x7ffffff0u + uint32_t(i) * 0x01000001u); }, "a");
    Buffer<int32_t> b = input_of<int32_t>(N, [](int i) { return int32_t(i * 1000 - 5000); }, "b");
    check_schedules<bool>("a < b", [&](const Var &x) { return a(x) < b(x); },
                          [&](int i) { return int32_t(a(i)) < b(i); });
    Buffer<uint32_t> c = input_of<uint32_t>(N, [](int i) { return uint32_t(i * 0x0a000000u); }, "c");
    check_schedules<uint32_t>("max(a, c) unsigned", [&](const Var &x) { return max(a(x), c(x)); },
                              [&](int i) { return std::max(a(i), c(i)); });
    check_schedules<uint32_t>("min(a, c) unsigned", [&](const Var &x) { return min(a(x), c(x)); },
                              [&](int i) { return std::min(a(i), c(i)); });
    check_schedules<bool>("a > c unsigned", [&](const Var &x) { return a(x) > c(x); },
                          [&](int i) { return a(i) > c(i); });
}

TEST_CASE("float meeting int: int * float, int * 0.5f and int / 2.0f are float32") {
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return i * 13 - 200; }, "a");
    Buffer<float> f = input_of<float>(N, [](int i) { return 0.25f * float(i) - 3.0f; }, "f");
    check_schedules<float>("a * f", [&](const Var &x) { return a(x) * f(x); },
                           [&](int i) { return float(a(i)) * f(i); });
    check_schedules<float>("a * 0.5f", [&](const Var &x) { return a(x) * 0.5f; },
                           [&](int i) { return float(a(i)) * 0.5f; });
    check_schedules<float>("a / 2.0f", [&](const Var &x) { return a(x) / 2.0f; },
                           [&](int i) { return float(a(i)) / 2.0f; });
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(250 - i); }, "u");
    check_schedules<float>("u + f", [&](const Var &x) { return u(x) + f(x); },
                           [&](int i) { return float(u(i)) + f(i); });
    Buffer<double> d = input_of<double>(N, [](int i) { return 1.0 / (i + 1); }, "d");
    check_schedules<double>("f + d widens to double", [&](const Var &x) { return f(x) + d(x); },
                            [&](int i) { return double(f(i)) + d(i); });
}

TEST_CASE("bool in arithmetic: (x > 3) + y is int32, bool * uint8 is uint8") {
    Buffer<int32_t> y = input_of<int32_t>(N, [](int i) { return i * 3 - 50; }, "y");
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 11); }, "u");
    check_schedules<int32_t>("(x > 3) + y", [&](const Var &x) { return (x > 3) + y(x); },
                             [&](int i) { return int(i > 3) + y(i); });
    check_schedules<uint8_t>("(x % 2 == 0) * u", [&](const Var &x) { return (x % 2 == 0) * u(x); },
                             [&](int i) { return uint8_t(i % 2 == 0 ? u(i) : 0); });
    check_schedules<int32_t>("cast<int>(a && b) * 7",
                             [&](const Var &x) { return cast<int>(x > 5 && y(x) < 10) * 7; },
                             [&](int i) { return (i > 5 && y(i) < 10) ? 7 : 0; });
}

TEST_CASE("uint8 and int16 arithmetic wraps: 200 + 100, 20 * 20, 30000 + 10000") {
    Buffer<uint8_t> a = input_of<uint8_t>(N, [](int i) { return uint8_t(180 + i); }, "a");
    Buffer<uint8_t> b = input_of<uint8_t>(N, [](int i) { return uint8_t(90 + i * 2); }, "b");
    check_schedules<uint8_t>("a + b", [&](const Var &x) { return a(x) + b(x); },
                             [&](int i) { return uint8_t(a(i) + b(i)); });
    check_schedules<uint8_t>("a * b", [&](const Var &x) { return a(x) * b(x); },
                             [&](int i) { return uint8_t(a(i) * b(i)); });
    check_schedules<uint8_t>("b - a", [&](const Var &x) { return b(x) - a(x); },
                             [&](int i) { return uint8_t(b(i) - a(i)); });
    Buffer<int16_t> c = input_of<int16_t>(N, [](int i) { return int16_t(29000 + i * 100); }, "c");
    check_schedules<int16_t>("c + 10000", [&](const Var &x) { return c(x) + 10000; },
                             [&](int i) { return int16_t(c(i) + 10000); });
    check_schedules<int16_t>("-c * 3", [&](const Var &x) { return -c(x) * 3; },
                             [&](int i) { return int16_t(-c(i) * 3); });
}

// ---------------------------------------------------------------- division and modulo

TEST_CASE("int32 division and modulo are Euclidean, with 0 for a zero divisor (divisor varies per lane)") {
    // every pair of a in [-9, 9] and b in [-4, 4], a along x
    for (int b = -4; b <= 4; b++) {
        Buffer<int32_t> den = input_of<int32_t>(N, [&](int i) { return (i % 3 == 0) ? 0 : b; }, "den");
        INFO("b = " << b);
        check_schedules<int32_t>("a / den", [&](const Var &x) { return (x - 18) / den(x); },
                                 [&](int i) { return int32_t(euclid_div(i - 18, den(i))); });
        check_schedules<int32_t>("a % den", [&](const Var &x) { return (x - 18) % den(x); },
                                 [&](int i) { return int32_t(euclid_mod(i - 18, den(i))); });
    }
}

TEST_CASE("division and modulo by constants: negative, zero and powers of two, on negative numerators") {
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return (i - 18) * 37; }, "a");
    for (int b : {-8, -7, -3, -2, -1, 0, 1, 2, 3, 4, 7, 16}) {
        INFO("b = " << b);
        check_schedules<int32_t>("a / b", [&](const Var &x) { return a(x) / b; },
                                 [&](int i) { return int32_t(euclid_div(a(i), b)); });
        check_schedules<int32_t>("a % b", [&](const Var &x) { return a(x) % b; },
                                 [&](int i) { return int32_t(euclid_mod(a(i), b)); });
    }
}

TEST_CASE("int8 and int16 division and modulo with negative operands, uint8 by zero") {
    Buffer<int8_t> a = input_of<int8_t>(N, [](int i) { return int8_t(i * 7 - 127); }, "a");
    Buffer<int8_t> b = input_of<int8_t>(N, [](int i) { return int8_t((i % 9) - 4); }, "b");
    check_schedules<int8_t>("int8 a / b", [&](const Var &x) { return a(x) / b(x); },
                            [&](int i) { return int8_t(euclid_div(a(i), b(i))); });
    check_schedules<int8_t>("int8 a % b", [&](const Var &x) { return a(x) % b(x); },
                            [&](int i) { return int8_t(euclid_mod(a(i), b(i))); });
    Buffer<int16_t> c = input_of<int16_t>(N, [](int i) { return int16_t(i * 1733 - 32000); }, "c");
    Buffer<int16_t> d = input_of<int16_t>(N, [](int i) { return int16_t((i % 11) * 301 - 1500); }, "d");
    check_schedules<int16_t>("int16 c / d", [&](const Var &x) { return c(x) / d(x); },
                             [&](int i) { return int16_t(euclid_div(c(i), d(i))); });
    check_schedules<int16_t>("int16 c % d", [&](const Var &x) { return c(x) % d(x); },
                             [&](int i) { return int16_t(euclid_mod(c(i), d(i))); });
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "u");
    Buffer<uint8_t> v = input_of<uint8_t>(N, [](int i) { return uint8_t(i % 5); }, "v");
    check_schedules<uint8_t>("uint8 u / v", [&](const Var &x) { return u(x) / v(x); },
                             [&](int i) { return uint8_t(v(i) ? u(i) / v(i) : 0); });
    check_schedules<uint8_t>("uint8 u % v", [&](const Var &x) { return u(x) % v(x); },
                             [&](int i) { return uint8_t(v(i) ? u(i) % v(i) : 0); });
}

TEST_CASE("float division and modulo are not Euclidean integer ops: a / b is IEEE") {
    Buffer<float> a = input_of<float>(N, [](int i) { return float(i - 18) * 0.75f; }, "a");
    Buffer<float> b = input_of<float>(N, [](int i) { return float((i % 5) - 2) * 1.5f; }, "b");
    check_schedules<float>("a / b", [&](const Var &x) { return a(x) / b(x); },
                           [&](int i) { return a(i) / b(i); });
}

// ---------------------------------------------------------------- shifts and bitwise ops

TEST_CASE("signed right shift is arithmetic, left shift of int8 into the sign bit wraps") {
    Buffer<int16_t> a = input_of<int16_t>(N, [](int i) { return int16_t(i * 1777 - 32000); }, "a");
    Buffer<int16_t> s = input_of<int16_t>(N, [](int i) { return int16_t(i % 16); }, "s");
    check_schedules<int16_t>("a >> s", [&](const Var &x) { return a(x) >> s(x); },
                             [&](int i) { return int16_t(a(i) >> s(i)); });
    check_schedules<int16_t>("a >> 3", [&](const Var &x) { return a(x) >> 3; },
                             [&](int i) { return int16_t(a(i) >> 3); });
    Buffer<int8_t> b = input_of<int8_t>(N, [](int i) { return int8_t(i - 18); }, "b");
    check_schedules<int8_t>("b << 5", [&](const Var &x) { return b(x) << 5; },
                            [&](int i) { return int8_t(uint8_t(b(i)) << 5); });
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7 + 1); }, "u");
    check_schedules<uint8_t>("u >> (x % 8)", [&](const Var &x) { return u(x) >> cast<uint8_t>(x % 8); },
                             [&](int i) { return uint8_t(u(i) >> (i % 8)); });
}

TEST_CASE("a shift by a negative signed amount shifts the other way") {
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return (i - 18) * 1000003; }, "a");
    Buffer<int32_t> s = input_of<int32_t>(N, [](int i) { return (i % 13) - 6; }, "s");
    check_schedules<int32_t>("a << s", [&](const Var &x) { return a(x) << s(x); },
                             [&](int i) {
                                 int k = s(i);
                                 return k >= 0 ? int32_t(uint32_t(a(i)) << k) : int32_t(a(i) >> -k);
                             });
    check_schedules<int32_t>("a >> s", [&](const Var &x) { return a(x) >> s(x); },
                             [&](int i) {
                                 int k = s(i);
                                 return k >= 0 ? int32_t(a(i) >> k) : int32_t(uint32_t(a(i)) << -k);
                             });
    Buffer<uint16_t> u = input_of<uint16_t>(N, [](int i) { return uint16_t(i * 1811 + 5); }, "u");
    Buffer<int16_t> t = input_of<int16_t>(N, [](int i) { return int16_t((i % 9) - 4); }, "t");
    check_schedules<uint16_t>("uint16 u << int16 t", [&](const Var &x) { return u(x) << t(x); },
                              [&](int i) {
                                  int k = t(i);
                                  return k >= 0 ? uint16_t(u(i) << k) : uint16_t(u(i) >> -k);
                              });
}

TEST_CASE("bitwise ops on signed types: &, |, ^, ~ of negative int16 and int8 & literal") {
    Buffer<int16_t> a = input_of<int16_t>(N, [](int i) { return int16_t(i * 1777 - 32000); }, "a");
    Buffer<int16_t> b = input_of<int16_t>(N, [](int i) { return int16_t(-i * 913 + 7); }, "b");
    check_schedules<int16_t>("a & b", [&](const Var &x) { return a(x) & b(x); },
                             [&](int i) { return int16_t(a(i) & b(i)); });
    check_schedules<int16_t>("a | b", [&](const Var &x) { return a(x) | b(x); },
                             [&](int i) { return int16_t(a(i) | b(i)); });
    check_schedules<int16_t>("a ^ b", [&](const Var &x) { return a(x) ^ b(x); },
                             [&](int i) { return int16_t(a(i) ^ b(i)); });
    check_schedules<int16_t>("~a", [&](const Var &x) { return ~a(x); }, [&](int i) { return int16_t(~a(i)); });
    Buffer<int8_t> c = input_of<int8_t>(N, [](int i) { return int8_t(i * 7 - 128); }, "c");
    check_schedules<int8_t>("c & 0x0f", [&](const Var &x) { return c(x) & 0x0f; },
                            [&](int i) { return int8_t(c(i) & 0x0f); });
    check_schedules<int8_t>("c | -16", [&](const Var &x) { return c(x) | -16; },
                            [&](int i) { return int8_t(c(i) | -16); });
    // the narrower operand widens (sign-extending int8 into int16)
    check_schedules<int16_t>("c ^ a", [&](const Var &x) { return c(x) ^ a(x); },
                             [&](int i) { return int16_t(int16_t(c(i)) ^ a(i)); });
}

// ---------------------------------------------------------------- casts

TEST_CASE("casts: float -> int truncates toward zero, narrowing wraps, widening sign- or zero-extends") {
    Buffer<float> f = input_of<float>(N, [](int i) { return (float(i) - 18.0f) * 0.7f; }, "f");
    check_schedules<int32_t>("cast<int>(f)", [&](const Var &x) { return cast<int>(f(x)); },
                             [&](int i) { return int32_t(f(i)); });
    check_schedules<int16_t>("cast<int16>(f * 1000)", [&](const Var &x) { return cast<int16_t>(f(x) * 1000.0f); },
                             [&](int i) { return int16_t(f(i) * 1000.0f); });
    Buffer<float> g = input_of<float>(N, [](int i) { return float(i) * 6.9f; }, "g");
    check_schedules<uint8_t>("cast<uint8>(g) in range", [&](const Var &x) { return cast<uint8_t>(g(x)); },
                             [&](int i) { return uint8_t(g(i)); });
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return i * 100003 - 1800000; }, "a");
    check_schedules<uint8_t>("cast<uint8>(int32) wraps", [&](const Var &x) { return cast<uint8_t>(a(x)); },
                             [&](int i) { return uint8_t(a(i)); });
    check_schedules<int8_t>("cast<int8>(int32) wraps", [&](const Var &x) { return cast<int8_t>(a(x)); },
                            [&](int i) { return int8_t(a(i)); });
    Buffer<int8_t> b = input_of<int8_t>(N, [](int i) { return int8_t(i * 7 - 128); }, "b");
    check_schedules<uint16_t>("cast<uint16>(int8) sign-extends", [&](const Var &x) { return cast<uint16_t>(b(x)); },
                              [&](int i) { return uint16_t(int16_t(b(i))); });
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "u");
    check_schedules<int8_t>("cast<int8>(uint8) reinterprets", [&](const Var &x) { return cast<int8_t>(u(x)); },
                            [&](int i) { return int8_t(u(i)); });
    check_schedules<int32_t>("cast<int>(uint8) zero-extends", [&](const Var &x) { return cast<int32_t>(u(x)); },
                             [&](int i) { return int32_t(u(i)); });
    check_schedules<double>("cast<double>(int32)", [&](const Var &x) { return cast<double>(a(x)); },
                            [&](int i) { return double(a(i)); });
    check_schedules<float>("cast<float>(uint32 large)",
                           [&](const Var &x) { return cast<float>(cast<uint32_t>(a(x)) * cast<uint32_t>(977)); },
                           [&](int i) { return float(uint32_t(a(i)) * 977u); });
}

TEST_CASE("saturating_cast clamps integers and floats to the target range") {
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return (i - 18) * 23; }, "a");
    check_schedules<uint8_t>("u8_sat(int32)", [&](const Var &x) { return saturating_cast<uint8_t>(a(x) * 2); },
                             [&](int i) { return uint8_t(std::min(255, std::max(0, a(i) * 2))); });
    check_schedules<int8_t>("i8_sat(int32)", [&](const Var &x) { return saturating_cast<int8_t>(a(x)); },
                            [&](int i) { return int8_t(std::min(127, std::max(-128, a(i)))); });
    Buffer<uint32_t> u = input_of<uint32_t>(N, [](int i) { return uint32_t(i) * 0x0c000000u; }, "u");
    check_schedules<int32_t>("i32_sat(uint32)", [&](const Var &x) { return saturating_cast<int32_t>(u(x)); },
                             [&](int i) { return int32_t(std::min<uint32_t>(u(i), 0x7fffffffu)); });
    Buffer<int16_t> s = input_of<int16_t>(N, [](int i) { return int16_t(i * 1777 - 32000); }, "s");
    check_schedules<uint16_t>("u16_sat(int16)", [&](const Var &x) { return saturating_cast<uint16_t>(s(x)); },
                              [&](int i) { return uint16_t(std::max<int>(0, s(i))); });
    check_schedules<uint8_t>("u8_sat(int16)", [&](const Var &x) { return saturating_cast<uint8_t>(s(x) / 100); },
                             [&](int i) { return uint8_t(std::min<int64_t>(255, std::max<int64_t>(0, euclid_div(s(i), 100)))); });
    Buffer<float> f = input_of<float>(N, [](int i) { return (float(i) - 10.0f) * 9.7f; }, "f");
    check_schedules<uint8_t>("u8_sat(float) truncates inside the range",
                             [&](const Var &x) { return saturating_cast<uint8_t>(f(x)); },
                             [&](int i) { return uint8_t(std::min(255.0f, std::max(0.0f, f(i)))); });
    check_schedules<int16_t>("i16_sat(float * 1000)",
                             [&](const Var &x) { return saturating_cast<int16_t>(f(x) * 1000.0f); },
                             [&](int i) { return int16_t(std::min(32767.0f, std::max(-32768.0f, f(i) * 1000.0f))); });
}

// ---------------------------------------------------------------- abs, absd, min, max, clamp, select

TEST_CASE("abs of signed integers is unsigned of the same width (abs(int8 -128) = 128)") {
    Buffer<int8_t> a = input_of<int8_t>(N, [](int i) { return int8_t(i * 7 - 128); }, "a");
    check_schedules<uint8_t>("abs(int8)", [&](const Var &x) { return abs(a(x)); },
                             [&](int i) { return uint8_t(std::abs(int(a(i)))); });
    Buffer<int32_t> b = input_of<int32_t>(N, [](int i) { return i == 0 ? INT32_MIN : (i - 18) * 99991; }, "b");
    check_schedules<uint32_t>("abs(int32)", [&](const Var &x) { return abs(b(x)); },
                              [&](int i) { return uint32_t(std::abs(int64_t(b(i)))); });
    Buffer<float> f = input_of<float>(N, [](int i) { return (float(i) - 18.5f) * 0.3f; }, "f");
    check_schedules<float>("abs(float)", [&](const Var &x) { return abs(f(x)); },
                           [&](int i) { return std::fabs(f(i)); });
}

TEST_CASE("absd has the unsigned type and does not overflow") {
    Buffer<int16_t> a = input_of<int16_t>(N, [](int i) { return int16_t(i * 1777 - 32000); }, "a");
    Buffer<int16_t> b = input_of<int16_t>(N, [](int i) { return int16_t(30000 - i * 1500); }, "b");
    check_schedules<uint16_t>("absd(int16, int16)", [&](const Var &x) { return absd(a(x), b(x)); },
                              [&](int i) { return uint16_t(std::abs(int(a(i)) - int(b(i)))); });
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "u");
    Buffer<uint8_t> v = input_of<uint8_t>(N, [](int i) { return uint8_t(250 - i * 3); }, "v");
    check_schedules<uint8_t>("absd(uint8, uint8)", [&](const Var &x) { return absd(u(x), v(x)); },
                             [&](int i) { return uint8_t(std::abs(int(u(i)) - int(v(i)))); });
    Buffer<float> f = input_of<float>(N, [](int i) { return float(i) * 0.5f - 4.0f; }, "f");
    check_schedules<float>("absd(float, float)", [&](const Var &x) { return absd(f(x), 2.25f * f(x) - 1.0f); },
                           [&](int i) { return std::fabs(f(i) - (2.25f * f(i) - 1.0f)); });
}

TEST_CASE("min and max of mixed types follow match_types, clamp keeps x's type") {
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "u");
    Buffer<int16_t> s = input_of<int16_t>(N, [](int i) { return int16_t(i * 20 - 300); }, "s");
    check_schedules<int16_t>("min(u, s)", [&](const Var &x) { return min(u(x), s(x)); },
                             [&](int i) { return std::min<int16_t>(u(i), s(i)); });
    check_schedules<int16_t>("max(u, s)", [&](const Var &x) { return max(u(x), s(x)); },
                             [&](int i) { return std::max<int16_t>(u(i), s(i)); });
    Buffer<float> f = input_of<float>(N, [](int i) { return float(i) * 6.3f - 30.0f; }, "f");
    check_schedules<float>("max(f, u)", [&](const Var &x) { return max(f(x), u(x)); },
                           [&](int i) { return std::max(f(i), float(u(i))); });
    check_schedules<int16_t>("clamp(s, -100, 250)", [&](const Var &x) { return clamp(s(x), -100, 250); },
                             [&](int i) { return int16_t(std::min(250, std::max(-100, int(s(i))))); });
    check_schedules<uint8_t>("clamp(u, 10, 200)", [&](const Var &x) { return clamp(u(x), 10, 200); },
                             [&](int i) { return uint8_t(std::min(200, std::max(10, int(u(i))))); });
    check_schedules<float>("clamp(f, -1.5f, 100.25f)", [&](const Var &x) { return clamp(f(x), -1.5f, 100.25f); },
                           [&](int i) { return std::min(100.25f, std::max(-1.5f, f(i))); });
    check_schedules<uint8_t>("min(u, 100, 50 + x % 100)",
                             [&](const Var &x) { return min(u(x), 100, cast<uint8_t>(50 + x % 100)); },
                             [&](int i) { return uint8_t(std::min({int(u(i)), 100, 50 + i % 100})); });
}

TEST_CASE("select: an integer-constant arm takes the other arm's type") {
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "u");
    Buffer<float> f = input_of<float>(N, [](int i) { return float(i) * 0.5f; }, "f");
    check_schedules<uint8_t>("select(c, u, 0)", [&](const Var &x) { return select(x % 3 == 0, u(x), 0); },
                             [&](int i) { return uint8_t(i % 3 == 0 ? u(i) : 0); });
    check_schedules<float>("select(c, 1, f)", [&](const Var &x) { return select(x > 10, 1, f(x)); },
                           [&](int i) { return i > 10 ? 1.0f : f(i); });
    // Halide casts an Expr that is an integer constant too (as_const_int), not only C++ ints
    check_schedules<uint8_t>("select(c, Expr(250), u)", [&](const Var &x) { return select(x < 5, Expr(250), u(x)); },
                             [&](int i) { return uint8_t(i < 5 ? 250 : u(i)); });
    check_schedules<int32_t>("select chain", [&](const Var &x) { return select(x < 10, -1, x < 20, x * 2, 99); },
                             [&](int i) { return i < 10 ? -1 : i < 20 ? i * 2 : 99; });
}

// ---------------------------------------------------------------- lerp

TEST_CASE("lerp of uint8 with a uint8 weight rounds to nearest, uint16 with a uint16 weight") {
    Buffer<uint8_t> a = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "a");
    Buffer<uint8_t> b = input_of<uint8_t>(N, [](int i) { return uint8_t(255 - i * 5); }, "b");
    Buffer<uint8_t> w = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 41 + 3); }, "w");
    check_schedules<uint8_t>("lerp(u8, u8, u8)", [&](const Var &x) { return lerp(a(x), b(x), w(x)); },
                             [&](int i) {
                                 double v = (double(a(i)) * (255 - w(i)) + double(b(i)) * w(i)) / 255.0;
                                 return uint8_t(std::floor(v + 0.5));
                             });
    Buffer<uint16_t> c = input_of<uint16_t>(N, [](int i) { return uint16_t(i * 1777); }, "c");
    Buffer<uint16_t> d = input_of<uint16_t>(N, [](int i) { return uint16_t(65535 - i * 913); }, "d");
    Buffer<uint16_t> v = input_of<uint16_t>(N, [](int i) { return uint16_t(i * 17711 + 5); }, "v");
    check_schedules<uint16_t>("lerp(u16, u16, u16)", [&](const Var &x) { return lerp(c(x), d(x), v(x)); },
                              [&](int i) {
                                  double r = (double(c(i)) * (65535 - v(i)) + double(d(i)) * v(i)) / 65535.0;
                                  return uint16_t(std::floor(r + 0.5));
                              });
}

TEST_CASE("lerp of floats is zero * (1 - w) + one * w") {
    Buffer<float> a = input_of<float>(N, [](int i) { return float(i) * 0.3f - 2.0f; }, "a");
    Buffer<float> b = input_of<float>(N, [](int i) { return 10.0f - float(i) * 0.7f; }, "b");
    Buffer<float> w = input_of<float>(N, [](int i) { return float(i) / float(N - 1); }, "w");
    check_schedules<float>("lerp(f, f, f)", [&](const Var &x) { return lerp(a(x), b(x), w(x)); },
                           [&](int i) { return a(i) * (1.0f - w(i)) + b(i) * w(i); }, N, 1e-6);
    // the endpoints are exact
    check_schedules<float>("lerp(a, b, 0)", [&](const Var &x) { return lerp(a(x), b(x), 0.0f); },
                           [&](int i) { return a(i); });
    check_schedules<float>("lerp(a, b, 1)", [&](const Var &x) { return lerp(a(x), b(x), 1.0f); },
                           [&](int i) { return b(i); });
}

// ---------------------------------------------------------------- float math

TEST_CASE("round is half-to-even, floor, ceil, trunc of halves and negatives (float32 and float64)") {
    Buffer<float> f = input_of<float>(N, [](int i) { return (float(i) - 18.0f) * 0.5f; }, "f");
    check_schedules<float>("round(f)", [&](const Var &x) { return round(f(x)); },
                           [&](int i) { return float(round_even(f(i))); });
    check_schedules<float>("floor(f)", [&](const Var &x) { return floor(f(x)); },
                           [&](int i) { return std::floor(f(i)); });
    check_schedules<float>("ceil(f)", [&](const Var &x) { return ceil(f(x)); },
                           [&](int i) { return std::ceil(f(i)); });
    check_schedules<float>("trunc(f)", [&](const Var &x) { return trunc(f(x)); },
                           [&](int i) { return std::trunc(f(i)); });
    Buffer<double> d = input_of<double>(N, [](int i) { return (double(i) - 18.0) * 1.5 + 0.5; }, "d");
    check_schedules<double>("round(d)", [&](const Var &x) { return round(d(x)); },
                            [&](int i) { return round_even(d(i)); });
    check_schedules<double>("floor(d)", [&](const Var &x) { return floor(d(x)); },
                            [&](int i) { return std::floor(d(i)); });
    // rounding then converting: the common u8(round(v)) idiom
    check_schedules<int32_t>("cast<int>(round(f))", [&](const Var &x) { return cast<int>(round(f(x))); },
                             [&](int i) { return int32_t(round_even(f(i))); });
}

TEST_CASE("sqrt, exp, log, pow of integer arguments are float32") {
    Buffer<int32_t> a = input_of<int32_t>(N, [](int i) { return i * 3 + 1; }, "a");
    check_schedules<float>("sqrt(int)", [&](const Var &x) { return sqrt(a(x)); },
                           [&](int i) { return std::sqrt(float(a(i))); });
    check_schedules<float>("exp(int / 10.0f)", [&](const Var &x) { return exp(a(x) / 10.0f); },
                           [&](int i) { return std::exp(float(a(i)) / 10.0f); }, N, 2e-6);
    check_schedules<float>("log(int)", [&](const Var &x) { return log(a(x)); },
                           [&](int i) { return std::log(float(a(i))); }, N, 2e-6);
    check_schedules<float>("pow(int, 0.5f)", [&](const Var &x) { return pow(a(x), 0.5f); },
                           [&](int i) { return std::pow(float(a(i)), 0.5f); }, N, 2e-6);
    check_schedules<float>("pow(2, x % 20) is exact", [&](const Var &x) { return pow(2, x % 20); },
                           [&](int i) { return std::ldexp(1.0f, i % 20); });
    check_schedules<double>("sqrt(double)", [&](const Var &x) { return sqrt(cast<double>(a(x))); },
                            [&](int i) { return std::sqrt(double(a(i))); });
}

TEST_CASE("fast_exp, fast_log, fast_pow, fast_inverse, fast_inverse_sqrt within Halide's tolerance") {
    Buffer<float> f = input_of<float>(N, [](int i) { return 0.1f + float(i) * 0.37f; }, "f");
    // Halide documents these as approximations; what a program may rely on is a small relative error.
    check_schedules<float>("fast_exp", [&](const Var &x) { return fast_exp(f(x) - 5.0f); },
                           [&](int i) { return std::exp(f(i) - 5.0f); }, N, 1e-3);
    check_schedules<float>("fast_log", [&](const Var &x) { return fast_log(f(x)); },
                           [&](int i) { return std::log(f(i)); }, N, 1e-3);
    check_schedules<float>("fast_pow", [&](const Var &x) { return fast_pow(f(x), 1.7f); },
                           [&](int i) { return std::pow(f(i), 1.7f); }, N, 1e-3);
    check_schedules<float>("fast_inverse", [&](const Var &x) { return fast_inverse(f(x)); },
                           [&](int i) { return 1.0f / f(i); }, N, 1e-3);
    check_schedules<float>("fast_inverse_sqrt", [&](const Var &x) { return fast_inverse_sqrt(f(x)); },
                           [&](int i) { return 1.0f / std::sqrt(f(i)); }, N, 1e-3);
}

TEST_CASE("is_nan, is_inf, is_finite see NaN and infinities from an input and from arithmetic") {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    Buffer<float> f = input_of<float>(N, [&](int i) {
        switch (i % 5) {
            case 0: return nan;
            case 1: return inf;
            case 2: return -inf;
            case 3: return 0.0f;
            default: return float(i);
        }
    }, "f");
    auto cls = [&](float v) { return std::isnan(v) ? 1 : std::isinf(v) ? 2 : 3; };
    check_schedules<int32_t>("classes",
                             [&](const Var &x) { return select(is_nan(f(x)), 1, is_inf(f(x)), 2, is_finite(f(x)), 3, 0); },
                             [&](int i) { return cls(f(i)); });
    // inf - inf and 0 * inf are NaN; 1 / 0 is inf
    check_schedules<int32_t>("classes of f * 0", [&](const Var &x) { return select(is_nan(f(x) * 0.0f), 1, 0); },
                             [&](int i) { return std::isnan(f(i) * 0.0f) ? 1 : 0; });
    check_schedules<bool>("is_inf(1 / f)", [&](const Var &x) { return is_inf(1.0f / f(x)); },
                          [&](int i) { return std::isinf(1.0f / f(i)); });
}

// ---------------------------------------------------------------- names

// A Func named like an input Buffer (or ImageParam) once read its own output buffer and wrote
// over the input; now the pipeline is refused, naming both. The input stays untouched.
TEST_CASE("a Func with the same name as its input Buffer or ImageParam computes from the input") {
    Buffer<float> in(std::vector<int>{8}, "same_name");
    for (int i = 0; i < 8; i++) in(i) = float(i) * 10.0f;
    Var x("x");
    {
        Func g("same_name");
        g(x) = cast<uint8_t>(in(x)) + 1;
        bool refused = false;
        Buffer<uint8_t> out;
        try {
            out = g.realize({8});
        } catch (const CompileError &e) {
            refused = std::string(e.what()).find("same_name") != std::string::npos;
        }
        CHECK(refused);
        CHECK(mismatches<float>(in, [](const std::vector<int> &c) { return float(c[0]) * 10.0f; }) == 0);
    }
    {
        ImageParam ip(Float(32), 1, "same_name2");
        ip.set(in);
        Func h("same_name2");
        h(x) = ip(x) * 2.0f;
        bool refused = false;
        Buffer<float> out;
        try {
            out = h.realize({8});
        } catch (const CompileError &e) {
            refused = std::string(e.what()).find("same_name2") != std::string::npos;
        }
        CHECK(refused);
        CHECK(mismatches<float>(in, [](const std::vector<int> &c) { return float(c[0]) * 10.0f; }) == 0);
    }
}

// Two different Funcs given the same name in one pipeline.
// Was a DISAGREEMENT (fixed): Halo refused it. Halide 14 accepts it: its Func(name) numbers every
// repeat of a name in the process (a.name() "stage", b.name() "stage$1"), and this pipeline
// gives 0, 11, 22, 33, 44. Halo gives the same values; it numbers apart only its lowering's
// copies (lower/DistinctNames.h: the first made keeps the name), so the user's Funcs keep their
// names (b.name() is "stage") and a second instance of an app keeps its names. (Renaming the
// user's Funcs, tried in stop 35, left stale names in the calls of Funcs outside the pipeline.)
TEST_CASE("two Funcs constructed with the same name in one pipeline") {
    Var x("x");
    Func a("stage"), b("stage"), out("out");
    a(x) = x;
    b(x) = x * 10;
    out(x) = a(x) + b(x);
    Buffer<int> r = out.realize({5});
    for (int i = 0; i < 5; i++) CHECK(r(i) == 11 * i);
    CHECK(a.name() == "stage");
    CHECK(b.name() == "stage");
}

// The same boundary condition applied twice to one input: two Funcs (the second named
// <input>_repeat_edge$1), as in Halide 14 (once refused as a name clash).
TEST_CASE("repeat_edge applied twice to one ImageParam with different bounds") {
    Buffer<int> in(std::vector<int>{4}, "rep_in");
    for (int i = 0; i < 4; i++) in(i) = i + 1;
    ImageParam ip(Int(32), 1, "rep_ip");
    ip.set(in);
    Var x("x");
    Func e1 = BoundaryConditions::repeat_edge(ip);
    Func e2 = BoundaryConditions::repeat_edge(ip, {{0, 2}});
    Func out("rep_out");
    out(x) = e1(x - 2) * 100 + e2(x);
    Buffer<int> r = out.realize({6});
    CHECK(mismatches<int>(r, [](const std::vector<int> &c) {
              int i = c[0];
              return (std::min(3, std::max(0, i - 2)) + 1) * 100 + std::min(1, i) + 1;
          }) == 0);
}

// ---------------------------------------------------------------- Func definitions

TEST_CASE("a 4-D Func over a 4-D input, reordered and vectorized at odd extents, into a buffer with non-zero mins") {
    const int X = 5, Y = 3, Z = 4, W = 2;
    Buffer<int16_t> in(std::vector<int>{X + 2, Y, Z, W}, "in4");
    in.for_each_element([&](int x, int y, int z, int w) { in(x, y, z, w) = int16_t(x * 1000 - y * 100 + z * 10 - w); });
    Var x("x"), y("y"), z("z"), w("w");
    for (int sched = 0; sched < 3; sched++) {
        Func f("f4_" + std::to_string(sched));
        f(x, y, z, w) = in(x + 2, y, z, w) * 2 + x - y * 3 + z * 5 - w * 7;
        if (sched == 1) f.reorder(z, x, w, y).vectorize(z, 4);
        if (sched == 2) f.vectorize(x, 4).parallel(w).unroll(y, 2);
        INFO("schedule " << sched);
        // int16 * 2 + x meets the int32 Var: the Func is int32
        Buffer<int32_t> out(std::vector<int>{X, Y, Z, W}, "out4");
        out.set_min(-2, 0, 0, 0);
        f.realize(out);
        CHECK(mismatches<int32_t>(out, [&](const std::vector<int> &c) {
                  return int32_t(in(c[0] + 2, c[1], c[2], c[3]) * 2 + c[0] - c[1] * 3 + c[2] * 5 - c[3] * 7);
              }) == 0);
    }
    // a reduction over the last dimension of a 4-D Func
    Func f("f4r"), g("g3");
    f(x, y, z, w) = cast<int>(in(x, y, z, w));
    RDom r(0, W);
    g(x, y, z) = sum(f(x, y, z, r));
    f.compute_root();
    g.vectorize(x, 4);
    Buffer<int> out = g.realize({X, Y, Z});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
              int s = 0;
              for (int i = 0; i < W; i++) s += in(c[0], c[1], c[2], i);
              return s;
          }) == 0);
}

TEST_CASE("a Tuple of uint8, float and int16 realizes into buffers of those types") {
    Var x("x"), y("y");
    for (int sched = 0; sched < 2; sched++) {
        Func f("tup_" + std::to_string(sched));
        f(x, y) = Tuple(cast<uint8_t>(x * 37 + y), cast<float>(x) * 0.5f - y, cast<int16_t>(x - y * 1000));
        if (sched) f.vectorize(x, 8);
        INFO("schedule " << sched);
        REQUIRE(f.outputs() == 3);
        REQUIRE(f.output_types()[0] == UInt(8));
        REQUIRE(f.output_types()[1] == Float(32));
        REQUIRE(f.output_types()[2] == Int(16));
        Realization r = f.realize({19, 7});
        Buffer<uint8_t> a = r[0];
        Buffer<float> b = r[1];
        Buffer<int16_t> c = r[2];
        CHECK(mismatches<uint8_t>(a, [](const std::vector<int> &p) { return uint8_t(p[0] * 37 + p[1]); }) == 0);
        CHECK(mismatches<float>(b, [](const std::vector<int> &p) { return float(p[0]) * 0.5f - float(p[1]); }) == 0);
        CHECK(mismatches<int16_t>(c, [](const std::vector<int> &p) { return int16_t(p[0] - p[1] * 1000); }) == 0);
    }
}

TEST_CASE("an update of a mixed-type Tuple reads every old value before writing (a swap through casts)") {
    Var x("x");
    Func f("swap");
    f(x) = Tuple(cast<int16_t>(x), cast<float>(x) * 0.5f);
    f(x) = Tuple(cast<int16_t>(f(x)[1] * 4.0f), cast<float>(f(x)[0]) + 0.25f);
    f.vectorize(x, 8);
    f.update().vectorize(x, 4);
    Realization r = f.realize({N});
    Buffer<int16_t> a = r[0];
    Buffer<float> b = r[1];
    CHECK(mismatches<int16_t>(a, [](const std::vector<int> &c) { return int16_t(c[0] * 2); }) == 0);
    CHECK(mismatches<float>(b, [](const std::vector<int> &c) { return float(c[0]) + 0.25f; }) == 0);
}

TEST_CASE("a Tuple reduction keeps the index (int32) and the value (uint8) of the first minimum") {
    Buffer<uint8_t> in = input_of<uint8_t>(N, [](int i) { return uint8_t((i * 53 + 17) % 41 + 7); }, "tin");
    in(11) = 3;
    in(29) = 3;  // a tie: the first one wins with a strict <
    RDom r(0, N);
    Func f("first_min");
    f() = Tuple(0, cast<uint8_t>(255));
    f() = Tuple(select(in(r) < f()[1], r, f()[0]), min(in(r), f()[1]));
    Realization res = f.realize(std::vector<int>{});
    Buffer<int> idx = res[0];
    Buffer<uint8_t> val = res[1];
    CHECK(idx() == 11);
    CHECK(int(val()) == 3);
}

TEST_CASE("an RDom over an ImageParam's width and height, the same pipeline realized with inputs of different sizes") {
    ImageParam in(UInt(8), 2, "hist_in");
    RDom r(0, in.width(), 0, in.height());
    Var i("i");
    Func hist("hist");
    hist(i) = 0;
    hist(cast<int>(in(r.x, r.y)) / 32) += 1;
    Func total("hist_total");
    total(i) = hist(i) + cast<int>(in.width()) * 1000;
    hist.compute_root();
    for (auto [w, h] : std::vector<std::pair<int, int>>{{7, 5}, {13, 3}, {1, 1}, {31, 9}}) {
        Buffer<uint8_t> b(w, h);
        b.for_each_element([&](int x, int y) { b(x, y) = uint8_t((x * 71 + y * 13 + w) % 256); });
        in.set(b);
        INFO(w << "x" << h);
        Buffer<int> out = total.realize({8});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  int n = 0;
                  b.for_each_element([&](int x, int y) { n += b(x, y) / 32 == c[0]; });
                  return n + w * 1000;
              }) == 0);
    }
}

TEST_CASE("an RDom over an input's own min and extent when the input's mins are not zero") {
    ImageParam in(Int(32), 2, "offset_in");
    RDom r(in.dim(0).min(), in.dim(0).extent(), in.dim(1).min(), in.dim(1).extent());
    Func s("offset_sum");
    s() = 0;
    s() += in(r.x, r.y) * (r.x + 2 * r.y);
    Buffer<int> b(6, 4);
    b.set_min(-3, 7);
    b.for_each_element([&](int x, int y) { b(x, y) = x * 5 - y; });
    in.set(b);
    Buffer<int> out = s.realize(std::vector<int>{});
    int want = 0;
    b.for_each_element([&](int x, int y) { want += b(x, y) * (x + 2 * y); });
    CHECK(out() == want);
}

TEST_CASE("RDom(buffer) iterates the buffer's own region: a 3x3 kernel with mins (-1, -1)") {
    Buffer<float> k(3, 3);
    k.set_min(-1, -1);
    k.for_each_element([&](int x, int y) { k(x, y) = float(x + 2) * 0.5f + float(y) * 0.25f; });
    Buffer<float> in(std::vector<int>{21, 12}, "kin");
    in.for_each_element([&](int x, int y) { in(x, y) = float((x * 7 + y * 3) % 11); });
    RDom r(k);
    REQUIRE(r.dimensions() == 2);
    Var x("x"), y("y");
    Func conv("conv");
    conv(x, y) = sum(k(r.x, r.y) * in(x + r.x, y + r.y));
    conv.vectorize(x, 8);
    Buffer<float> out(19, 10);
    out.set_min(1, 1);
    conv.realize(out);
    CHECK(mismatches<float>(out, [&](const std::vector<int> &c) {
              float s = 0;
              for (int j = -1; j <= 1; j++)
                  for (int i = -1; i <= 1; i++) s += k(i, j) * in(c[0] + i, c[1] + j);
              return s;
          }, 1e-6) == 0);
}

TEST_CASE("inline sum, product, minimum and maximum over a 2-D RDom restricted with where") {
    Buffer<int> in(std::vector<int>{30, 6}, "red_in");
    in.for_each_element([&](int x, int y) { in(x, y) = (x * 13 + y * 7) % 17 - 8; });
    RDom r(0, 6, 0, 6);
    r.where(r.x < r.y);
    r.where((r.x + r.y) % 3 != 0);
    Var x("x");
    auto each = [&](int xx, const std::function<void(int)> &f) {
        for (int ry = 0; ry < 6; ry++)
            for (int rx = 0; rx < 6; rx++)
                if (rx < ry && (rx + ry) % 3 != 0) f(in(xx + rx, ry) + rx);
    };
    Func fs("fsum"), fp("fprod"), fmin("fmin"), fmax("fmax");
    fs(x) = sum(in(x + r.x, r.y) + r.x);
    fp(x) = product(cast<int64_t>(in(x + r.x, r.y) + r.x) % 5 + 1);
    fmin(x) = minimum(in(x + r.x, r.y) + r.x);
    fmax(x) = maximum(cast<float>(in(x + r.x, r.y) + r.x) * 0.5f);
    fs.vectorize(x, 8);
    fmin.vectorize(x, 4);
    Buffer<int> s = fs.realize({24});
    CHECK(mismatches<int>(s, [&](const std::vector<int> &c) { int t = 0; each(c[0], [&](int v) { t += v; }); return t; }) == 0);
    Buffer<int64_t> p = fp.realize({24});
    CHECK(mismatches<int64_t>(p, [&](const std::vector<int> &c) {
              int64_t t = 1;
              each(c[0], [&](int v) { t *= euclid_mod(v, 5) + 1; });
              return t;
          }) == 0);
    Buffer<int> mn = fmin.realize({24});
    CHECK(mismatches<int>(mn, [&](const std::vector<int> &c) { int t = INT32_MAX; each(c[0], [&](int v) { t = std::min(t, v); }); return t; }) == 0);
    Buffer<float> mx = fmax.realize({24});
    CHECK(mismatches<float>(mx, [&](const std::vector<int> &c) {
              float t = -INFINITY;
              each(c[0], [&](int v) { t = std::max(t, float(v) * 0.5f); });
              return t;
          }) == 0);
}

TEST_CASE("argmax and argmin over a 2-D RDom return the first extreme in iteration order (x fastest)") {
    Buffer<int> in(std::vector<int>{7, 5}, "arg_in");
    in.for_each_element([&](int x, int y) { in(x, y) = (x * 3 + y * 5) % 7; });  // many ties
    RDom r(0, 7, 0, 5);
    Tuple amax = argmax(in(r.x, r.y));
    Tuple amin = argmin(in(r.x, r.y) + r.x);
    REQUIRE(amax.size() == 3);
    Func f("argf");
    f() = Tuple(amax[0], amax[1], amin[0], amin[1]);
    Realization res = f.realize(std::vector<int>{});
    int bx = -1, by = -1, best = INT32_MIN, cx = -1, cy = -1, low = INT32_MAX;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 7; x++) {
            if (in(x, y) > best) best = in(x, y), bx = x, by = y;
            if (in(x, y) + x < low) low = in(x, y) + x, cx = x, cy = y;
        }
    CHECK(Buffer<int>(res[0])() == bx);
    CHECK(Buffer<int>(res[1])() == by);
    CHECK(Buffer<int>(res[2])() == cx);
    CHECK(Buffer<int>(res[3])() == cy);
    // with where: the maximum over the points below the diagonal
    RDom q(0, 7, 0, 5);
    q.where(q.x > q.y);
    Tuple qa = argmax(in(q.x, q.y) * 10 - q.y);
    Var x("x");
    Func g("argg");
    g(x) = qa[0] + 100 * qa[1] + x;
    Buffer<int> o = g.realize({3});
    int gx = -1, gy = -1, gb = INT32_MIN;
    for (int y = 0; y < 5; y++)
        for (int xx = 0; xx < 7; xx++)
            if (xx > y && in(xx, y) * 10 - y > gb) gb = in(xx, y) * 10 - y, gx = xx, gy = y;
    CHECK(mismatches<int>(o, [&](const std::vector<int> &c) { return gx + 100 * gy + c[0]; }) == 0);
}

TEST_CASE("sum has the type of its argument: a sum of uint8 wraps, a sum of its int32 cast does not") {
    Buffer<uint8_t> in = input_of<uint8_t>(64, [](int i) { return uint8_t(200 + i); }, "sum_in");
    RDom r(0, 16);
    Var x("x");
    Func s8("s8"), s32("s32");
    s8(x) = sum(in(x + r));
    s32(x) = sum(cast<int>(in(x + r)));
    REQUIRE(s8.output_type() == UInt(8));
    s8.vectorize(x, 16);
    Buffer<uint8_t> a = s8.realize({N});
    Buffer<int> b = s32.realize({N});
    CHECK(mismatches<uint8_t>(a, [&](const std::vector<int> &c) {
              unsigned t = 0;
              for (int i = 0; i < 16; i++) t += in(c[0] + i);
              return uint8_t(t);
          }) == 0);
    CHECK(mismatches<int>(b, [&](const std::vector<int> &c) {
              int t = 0;
              for (int i = 0; i < 16; i++) t += in(c[0] + i);
              return t;
          }) == 0);
}

TEST_CASE("lambda defines a Func over the given Vars, Func(Expr) of no Vars is 0-dimensional") {
    Var x("x"), y("y");
    Func f = lambda(x, y, x * y + 1);
    Buffer<int> a = f.realize({6, 5});
    CHECK(mismatches<int>(a, [](const std::vector<int> &c) { return c[0] * c[1] + 1; }) == 0);
    Func g = lambda(x, y, f(y, x) * 2);  // arguments swapped
    Buffer<int> b = g.realize({5, 6});
    CHECK(mismatches<int>(b, [](const std::vector<int> &c) { return (c[1] * c[0] + 1) * 2; }) == 0);
    Func h = lambda(cast<float>(3) * 1.5f);
    Buffer<float> c = h.realize(std::vector<int>{});
    CHECK(c() == 4.5f);
    CHECK(evaluate<int>(cast<int>(7.9f) + 1) == 8);
}

// ---------------------------------------------------------------- boundary conditions

namespace {
// Halide's definitions of the boundary conditions along one dimension of [mn, mn + ext).
int bc_coord(int kind, int v, int mn, int ext) {
    int c = v - mn;
    switch (kind) {
        case 0: return std::min(std::max(v, mn), mn + ext - 1);  // repeat_edge (and constant_exterior inside)
        case 1: return mn + int(euclid_mod(c, ext));              // repeat_image
        case 2: {                                                  // mirror_image
            int m = int(euclid_mod(c, 2 * ext));
            return mn + std::min(m, 2 * ext - 1 - m);
        }
        default: {  // mirror_interior
            int limit = ext - 1;
            int m = int(euclid_mod(c, 2 * limit));
            return mn + limit - std::abs(m - limit);
        }
    }
}
}  // namespace

TEST_CASE("every boundary condition of an ImageParam whose buffer has non-zero mins, read far outside it") {
    Buffer<int16_t> b(7, 4);
    b.set_min(-3, 5);
    b.for_each_element([&](int x, int y) { b(x, y) = int16_t(x * 10 + y * 1000); });
    ImageParam in(Int(16), 2, "bc_in");
    in.set(b);
    Var x("x"), y("y");
    const char *names[] = {"repeat_edge", "repeat_image", "mirror_image", "mirror_interior", "constant_exterior"};
    for (int kind = 0; kind < 5; kind++) {
        for (int vec = 0; vec < 2; vec++) {
            Func bc;
            switch (kind) {
                case 0: bc = BoundaryConditions::repeat_edge(in); break;
                case 1: bc = BoundaryConditions::repeat_image(in); break;
                case 2: bc = BoundaryConditions::mirror_image(in); break;
                case 3: bc = BoundaryConditions::mirror_interior(in); break;
                default: bc = BoundaryConditions::constant_exterior(in, -7); break;
            }
            Func out("bc_out");
            out(x, y) = bc(x, y) + 1;
            if (vec) out.vectorize(x, 8);
            Buffer<int16_t> o(21, 17);
            o.set_min(-12, -2);
            INFO(names[kind] << (vec ? " vectorized" : ""));
            out.realize(o);
            CHECK(mismatches<int16_t>(o, [&](const std::vector<int> &c) {
                      if (kind == 4) {
                          bool inside = c[0] >= -3 && c[0] < 4 && c[1] >= 5 && c[1] < 9;
                          return int16_t(inside ? b(c[0], c[1]) + 1 : -6);
                      }
                      return int16_t(b(bc_coord(kind, c[0], -3, 7), bc_coord(kind, c[1], 5, 4)) + 1);
                  }) == 0);
        }
    }
}

TEST_CASE("boundary conditions of a Func with explicit bounds, one dimension left unbounded") {
    Var x("x"), y("y");
    Func src("bc_src");
    src(x, y) = x * 100 + y;  // defined everywhere: the bounds alone decide what is kept
    Func e = BoundaryConditions::repeat_edge(src, {{2, 5}, {Expr(), Expr()}});
    Func m = BoundaryConditions::mirror_image(src, {{Expr(), Expr()}, {-1, 3}});
    Func c = BoundaryConditions::constant_exterior(src, 9999, {{0, 4}, {1, 2}});
    Func r = BoundaryConditions::repeat_image(src, {{-2, 3}, {0, 4}});
    Func out("bc_func_out");
    out(x, y) = Tuple(e(x, y), m(x, y), c(x, y), r(x, y));
    out.vectorize(x, 4);
    Realization res(Buffer<int>(std::vector<int>{15, 9}), Buffer<int>(std::vector<int>{15, 9}),
                    Buffer<int>(std::vector<int>{15, 9}), Buffer<int>(std::vector<int>{15, 9}));
    for (size_t i = 0; i < 4; i++) res[i].set_min({-5, -3});
    out.realize(res);
    auto v = [](int xx, int yy) { return xx * 100 + yy; };
    CHECK(mismatches<int>(Buffer<int>(res[0]), [&](const std::vector<int> &p) { return v(bc_coord(0, p[0], 2, 5), p[1]); }) == 0);
    CHECK(mismatches<int>(Buffer<int>(res[1]), [&](const std::vector<int> &p) { return v(p[0], bc_coord(2, p[1], -1, 3)); }) == 0);
    CHECK(mismatches<int>(Buffer<int>(res[2]), [&](const std::vector<int> &p) {
              bool inside = p[0] >= 0 && p[0] < 4 && p[1] >= 1 && p[1] < 3;
              return inside ? v(p[0], p[1]) : 9999;
          }) == 0);
    CHECK(mismatches<int>(Buffer<int>(res[3]), [&](const std::vector<int> &p) {
              return v(bc_coord(1, p[0], -2, 3), bc_coord(1, p[1], 0, 4));
          }) == 0);
}

TEST_CASE("a 3x3 blur of a mirror_interior input realized over a region larger than the input") {
    Buffer<float> b(std::vector<int>{9, 6}, "mi_in");
    b.for_each_element([&](int x, int y) { b(x, y) = float((x * 7 + y * 3) % 10); });
    Func in = BoundaryConditions::mirror_interior(b);
    Var x("x"), y("y");
    Func bx("mi_bx"), by("mi_by");
    bx(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
    by(x, y) = bx(x, y - 1) + bx(x, y) + bx(x, y + 1);
    bx.compute_at(by, y).vectorize(x, 8);
    by.vectorize(x, 8);
    Buffer<float> o(23, 14);
    o.set_min(-7, -4);
    by.realize(o);
    auto at = [&](int xx, int yy) { return b(bc_coord(3, xx, 0, 9), bc_coord(3, yy, 0, 6)); };
    CHECK(mismatches<float>(o, [&](const std::vector<int> &c) {
              float s = 0;
              for (int j = -1; j <= 1; j++)
                  for (int i = -1; i <= 1; i++) s += at(c[0] + i, c[1] + j);
              return s;
          }) == 0);
}

// ---------------------------------------------------------------- pipelines and buffers

TEST_CASE("realizing into a crop of a larger buffer writes only the crop, at the crop's coordinates") {
    Buffer<int> big(std::vector<int>{20, 12}, "big");
    big.fill(-1);
    Buffer<int> view = big.cropped(0, 3, 11).cropped(1, 2, 7);
    REQUIRE(view.stride(1) == 20);
    Var x("x"), y("y");
    Func f("into_crop");
    f(x, y) = x * 100 + y;
    f.vectorize(x, 8);
    f.realize(view);
    CHECK(mismatches<int>(big, [](const std::vector<int> &c) {
              bool inside = c[0] >= 3 && c[0] < 14 && c[1] >= 2 && c[1] < 9;
              return inside ? c[0] * 100 + c[1] : -1;
          }) == 0);
}

TEST_CASE("an ImageParam bound to cropped and sliced views (row stride larger than the width)") {
    Buffer<uint16_t> vol(std::vector<int>{16, 10, 3}, "vol");
    vol.for_each_element([&](int x, int y, int c) { vol(x, y, c) = uint16_t(x + 100 * y + 10000 * c); });
    ImageParam in(UInt(16), 2, "view_in");
    Var x("x"), y("y");
    Func f("from_view");
    f(x, y) = in(x, y) + in(x + 1, y);
    f.vectorize(x, 4);
    // channel 1, columns [4, 13], rows [3, 8]
    Buffer<uint16_t> v = vol.sliced(2, 1).cropped(0, 4, 10).cropped(1, 3, 6);
    in.set(v);
    Buffer<uint16_t> out(9, 6);
    out.set_min(4, 3);
    f.realize(out);
    CHECK(mismatches<uint16_t>(out, [&](const std::vector<int> &c) {
              return uint16_t(vol(c[0], c[1], 1) + vol(c[0] + 1, c[1], 1));
          }) == 0);
}

// Halide 14's interleaved image: input.dim(0).set_stride(3), dim(2).set_stride(1).
TEST_CASE("an interleaved RGB input: dim(0).set_stride(3), dim(2).set_stride(1)") {
    const int W = 11, H = 5;
    std::vector<uint8_t> mem(size_t(W * H * 3));
    for (size_t i = 0; i < mem.size(); i++) mem[i] = uint8_t(i * 7);
    halo_dimension_t shape[3] = {{0, W, 3, 0}, {0, H, 3 * W, 0}, {0, 3, 1, 0}};
    Buffer<uint8_t> b(mem.data(), 3, shape);
    ImageParam in(UInt(8), 3, "rgb_in");
    in.dim(0).set_stride(3);
    in.dim(2).set_stride(1).set_bounds(0, 3);
    in.set(b);
    Var x("x"), y("y"), c("c");
    Func f("rgb_sum");
    f(x, y) = cast<int>(in(x, y, 0)) + in(x, y, 1) * 2 + in(x, y, 2) * 3;
    Buffer<int> out = f.realize({W, H});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
              const uint8_t *px = &mem[size_t((p[1] * W + p[0]) * 3)];
              // in(...) * 2 is uint8 arithmetic (it wraps) before it meets the int
              return int(px[0]) + uint8_t(px[1] * 2) + uint8_t(px[2] * 3);
          }) == 0);
}

// A transposed input with dim(0).set_stride(Expr()) (no constraint).
TEST_CASE("a transposed input with the stride-1 constraint removed") {
    const int W = 6, H = 9;
    std::vector<float> mem(size_t(W * H));
    for (size_t i = 0; i < mem.size(); i++) mem[i] = float(i) * 0.5f;
    halo_dimension_t shape[2] = {{0, W, H, 0}, {0, H, 1, 0}};  // x has stride H: column-major
    Buffer<float> b(mem.data(), 2, shape);
    ImageParam in(Float(32), 2, "transposed_in");
    in.dim(0).set_stride(Expr());
    in.set(b);
    Var x("x"), y("y");
    Func f("from_transposed");
    f(x, y) = in(x, y) * 2.0f;
    Buffer<float> out = f.realize({W, H});
    CHECK(mismatches<float>(out, [&](const std::vector<int> &p) { return mem[size_t(p[0] * H + p[1])] * 2.0f; }) == 0);
}

TEST_CASE("one compiled pipeline realized again and again with new Param values and inputs of new sizes") {
    ImageParam in(Int(32), 2, "re_in");
    Param<int> offset("re_offset");
    Param<float> scale("re_scale");
    Var x("x"), y("y");
    Func f("re_f");
    Func clamped = BoundaryConditions::repeat_edge(in);
    f(x, y) = cast<int>(cast<float>(clamped(x - 1, y) + clamped(x + 1, y) + offset) * scale);
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    f.compile_jit();
    int round = 0;
    for (auto [w, h] : std::vector<std::pair<int, int>>{{9, 3}, {17, 5}, {2, 2}, {33, 1}}) {
        Buffer<int> b(w, h);
        b.set_min(round, -round);
        b.for_each_element([&](int xx, int yy) { b(xx, yy) = xx * 3 - yy * 7 + round; });
        in.set(b);
        offset.set(round * 10 - 5);
        scale.set(0.5f + round);
        Buffer<int> out(w + 4, h);
        out.set_min(round - 2, -round);
        INFO("round " << round);
        f.realize(out);
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                  auto at = [&](int xx) { return b(std::min(std::max(xx, round), round + w - 1), c[1]); };
                  return int(float(at(c[0] - 1) + at(c[0] + 1) + (round * 10 - 5)) * (0.5f + round));
              }) == 0);
        round++;
    }
}

TEST_CASE("ParamMap values apply to one call only, the Param's own value stays for the next") {
    Param<int16_t> k("pm_k");
    k.set(3);
    Var x("x");
    Func f("pm_f");
    f(x) = cast<int16_t>(x) * k;
    Buffer<int16_t> a = f.realize({N}, {{k, int16_t(-1000)}});
    Buffer<int16_t> b = f.realize({N});
    CHECK(mismatches<int16_t>(a, [](const std::vector<int> &c) { return int16_t(c[0] * -1000); }) == 0);
    CHECK(mismatches<int16_t>(b, [](const std::vector<int> &c) { return int16_t(c[0] * 3); }) == 0);
}

TEST_CASE("a Pipeline with two outputs of different types (uint8 and float) sharing a producer") {
    Var x("x"), y("y");
    Func p("two_p"), f("two_u8"), g("two_f32");
    p(x, y) = x * 3 + y * 5;
    f(x, y) = cast<uint8_t>(p(x, y) * 7);
    g(x, y) = cast<float>(p(x, y)) / 4.0f;
    p.compute_root();
    f.vectorize(x, 16);
    Pipeline pipe({f, g});
    Buffer<uint8_t> a(std::vector<int>{N, 5});
    Buffer<float> b(std::vector<int>{N, 5});
    pipe.realize(Realization(Buffer<>(a), Buffer<>(b)));
    CHECK(mismatches<uint8_t>(a, [](const std::vector<int> &c) { return uint8_t((c[0] * 3 + c[1] * 5) * 7); }) == 0);
    CHECK(mismatches<float>(b, [](const std::vector<int> &c) { return float(c[0] * 3 + c[1] * 5) / 4.0f; }) == 0);
    // and with sizes: one buffer of each type
    Realization r = pipe.realize({17, 4});
    REQUIRE(r.size() == 2);
    CHECK(r[0].type() == UInt(8));
    CHECK(r[1].type() == Float(32));
    CHECK(mismatches<float>(Buffer<float>(r[1]), [](const std::vector<int> &c) { return float(c[0] * 3 + c[1] * 5) / 4.0f; }) == 0);
}

TEST_CASE("Buffer helpers as Halide defines them: fill, for_each_element, copy, cropped, translated") {
    Buffer<int> b(std::vector<int>{6, 4}, "helpers");
    b.fill(7);
    int count = 0;
    b.for_each_element([&](int x, int y) {
        count++;
        CHECK(b(x, y) == 7);
    });
    CHECK(count == 24);
    b.for_each_element([&](int x, int y) { b(x, y) = x + 10 * y; });
    // cropped: a view sharing memory, with the same coordinates
    Buffer<int> c = b.cropped(0, 2, 3);
    CHECK(c.min(0) == 2);
    CHECK(c.extent(0) == 3);
    CHECK(c(3, 1) == 13);
    c(3, 1) = -5;
    CHECK(b(3, 1) == -5);
    // copy: its own memory, the same mins
    Buffer<int> d = c.copy();
    CHECK(d.min(0) == 2);
    d(3, 1) = 99;
    CHECK(b(3, 1) == -5);
    // translated: the same element at coordinates moved by the delta
    Buffer<int> t = b.translated(0, 5);
    CHECK(t.min(0) == 5);
    CHECK(t(5 + 4, 2) == b(4, 2));
    // a pipeline reading a translated buffer sees the moved coordinates
    Var x("x"), y("y");
    Func f("read_translated");
    f(x, y) = t(x, y) * 2;
    Buffer<int> o(std::vector<int>{6, 4});
    o.set_min(5, 0);
    f.realize(o);
    CHECK(mismatches<int>(o, [&](const std::vector<int> &p) { return b(p[0] - 5, p[1]) * 2; }) == 0);
}

// ---------------------------------------------------------------- a Generator

namespace {

class ScaleChannels : public Halide::Generator<ScaleChannels> {
public:
    GeneratorParam<int> vec{"vec", 8};
    GeneratorParam<bool> use_round{"use_round", false};
    GeneratorParam<Type> work_type{"work_type", Float(32)};
    Input<Buffer<uint8_t>> input{"input", 3};
    Input<float> gain{"gain"};
    Output<Buffer<float>> output{"output", 3};

    Var x{"x"}, y{"y"}, c{"c"};

    void generate() {
        Expr v = cast(work_type, input(x, y, c)) * cast(work_type, gain) + cast(work_type, c);
        if (use_round) v = round(v);
        output(x, y, c) = cast<float>(v);
    }
    void schedule() { output.vectorize(x, vec).reorder(x, c, y); }
};

}  // namespace

TEST_CASE("a Generator with uint8 and float Inputs, int/bool/Type GeneratorParams and a 3-D float Output") {
    Buffer<uint8_t> in(std::vector<int>{17, 5, 3}, "gen_in");
    in.for_each_element([&](int x, int y, int c) { in(x, y, c) = uint8_t(x * 19 + y * 7 + c * 50); });
    struct Case {
        const char *vec, *use_round, *work_type;
        float gain;
    };
    for (Case k : {Case{"8", "false", "float32", 0.3f}, Case{"4", "true", "float32", 1.7f},
                   Case{"16", "false", "float64", 0.3f}, Case{"8", "true", "int32", 3.0f}}) {
        ScaleChannels gen;
        gen.set_param("vec", k.vec);
        gen.set_param("use_round", k.use_round);
        gen.set_param("work_type", k.work_type);
        Func f = gen.build();
        gen.input.set(in);
        gen.gain.set(k.gain);
        INFO(std::string(k.vec) << " " << std::string(k.use_round) << " " << std::string(k.work_type) << " gain " << k.gain);
        Buffer<float> out = f.realize({17, 5, 3});
        std::string wt = k.work_type;
        bool rnd = std::string(k.use_round) == "true";
        CHECK(mismatches<float>(out, [&](const std::vector<int> &p) {
                  int v = in(p[0], p[1], p[2]);
                  if (wt == "float32") {
                      float r = float(v) * k.gain + float(p[2]);
                      return rnd ? float(round_even(r)) : r;
                  }
                  if (wt == "float64") {
                      double r = double(v) * double(k.gain) + double(p[2]);
                      return float(rnd ? round_even(r) : r);
                  }
                  // int32: the gain is truncated by the cast, round of an integer is itself
                  return float(v * int(k.gain) + p[2]);
              }, 1e-6) == 0);  // Halide 14 lets LLVM contract a * b + c into an fma
    }
}

TEST_CASE("division and modulo of every int8 and uint8 value, and sampled int16/uint16 values, by constants -9..9") {
    Buffer<int8_t> s8 = input_of<int8_t>(256, [](int i) { return int8_t(i - 128); }, "all_s8");
    Buffer<uint8_t> u8 = input_of<uint8_t>(256, [](int i) { return uint8_t(i); }, "all_u8");
    Buffer<int16_t> s16 = input_of<int16_t>(256, [](int i) { return int16_t(i * 257 - 32768 + (i % 7)); }, "s16");
    Buffer<uint16_t> u16 = input_of<uint16_t>(256, [](int i) { return uint16_t(i * 257 + (i % 5)); }, "u16");
    for (int d = -9; d <= 9; d++) {
        INFO("divisor " << d);
        check_schedules<int8_t>("int8 / d", [&](const Var &x) { return s8(x) / d; },
                                [&](int i) { return int8_t(euclid_div(s8(i), d)); }, 256);
        check_schedules<int8_t>("int8 % d", [&](const Var &x) { return s8(x) % d; },
                                [&](int i) { return int8_t(euclid_mod(s8(i), d)); }, 256);
        check_schedules<int16_t>("int16 / d", [&](const Var &x) { return s16(x) / d; },
                                 [&](int i) { return int16_t(euclid_div(s16(i), d)); }, 256);
        check_schedules<int16_t>("int16 % d", [&](const Var &x) { return s16(x) % d; },
                                 [&](int i) { return int16_t(euclid_mod(s16(i), d)); }, 256);
        if (d < 0) continue;  // a negative literal is not representable in an unsigned type
        check_schedules<uint8_t>("uint8 / d", [&](const Var &x) { return u8(x) / d; },
                                 [&](int i) { return uint8_t(d ? u8(i) / d : 0); }, 256);
        check_schedules<uint8_t>("uint8 % d", [&](const Var &x) { return u8(x) % d; },
                                 [&](int i) { return uint8_t(d ? u8(i) % d : 0); }, 256);
        check_schedules<uint16_t>("uint16 / d", [&](const Var &x) { return u16(x) / d; },
                                  [&](int i) { return uint16_t(d ? u16(i) / d : 0); }, 256);
        check_schedules<uint16_t>("uint16 % d", [&](const Var &x) { return u16(x) % d; },
                                  [&](int i) { return uint16_t(d ? u16(i) % d : 0); }, 256);
    }
}

TEST_CASE("select with an integer-constant arm that does not fit the other arm's type") {
    // Halide 14 casts an integer-constant arm to the other arm's type (as_const_int), so 300 becomes
    // uint8 44.
    Buffer<uint8_t> u = input_of<uint8_t>(N, [](int i) { return uint8_t(i * 7); }, "sel_u");
    Var x("x");
    Func f("sel_wide");
    f(x) = select(x % 2 == 0, u(x), 300);
    REQUIRE(f.output_type() == UInt(8));
    Buffer<uint8_t> o = f.realize({N});
    CHECK(mismatches<uint8_t>(o, [&](const std::vector<int> &c) { return uint8_t(c[0] % 2 == 0 ? u(c[0]) : 44); }) == 0);
}

TEST_CASE("Type::max() and min(), tuple_select, and align_storage(dim, alignment) as in Halide 14") {
    // Halide 14 prints Float(32).max() as inff, UInt(8).max() as (uint8)255.
    CHECK(is_inf(Float(32).max()).defined());
    Func lim("lim");
    Var x("x"), y("y");
    lim(x) = Tuple(cast<float>(Float(32).max()), cast<float>(Float(64).min()), cast<int>(UInt(8).max()),
                   cast<int>(Int(16).min()));
    Realization lims = lim.realize({1});
    CHECK(Buffer<float>(lims[0])(0) == std::numeric_limits<float>::infinity());
    CHECK(Buffer<float>(lims[1])(0) == -std::numeric_limits<float>::infinity());
    CHECK(Buffer<int>(lims[2])(0) == 255);
    CHECK(Buffer<int>(lims[3])(0) == -32768);
    // tuple_select under one condition and under one per element.
    Func t("t");
    Tuple a = tuple_select(x > 2, Tuple(x, x + 1), Tuple(x * 2, x * 3));
    Tuple b = tuple_select(Tuple(x > 1, x > 4), Tuple(a[0], a[1]), Tuple(x - 10, x - 20));
    t(x) = b;
    t.vectorize(x, 4, TailStrategy::GuardWithIf);
    Realization tr = t.realize({N});
    Buffer<int> t0 = tr[0], t1 = tr[1];
    CHECK(mismatches<int>(t0, [](const std::vector<int> &c) { int v = c[0]; return v > 1 ? (v > 2 ? v : v * 2) : v - 10; }) == 0);
    CHECK(mismatches<int>(t1, [](const std::vector<int> &c) { int v = c[0]; return v > 4 ? (v > 2 ? v + 1 : v * 3) : v - 20; }) == 0);
    // align_storage(dim, alignment): the storage extent of any dimension padded up to a multiple.
    Func f("aligned"), g("reader");
    f(x, y) = x * 100 + y;
    g(x, y) = f(x, y) + f(x + 1, y + 1);
    f.compute_root().align_storage(x, 16).align_storage(y, 4);
    std::string stmt = g.lowered_stmt();
    CHECK(stmt.find("+ (int64)15) / (int64)16) * (int64)16)") != std::string::npos);
    CHECK(stmt.find("+ (int64)3) / (int64)4) * (int64)4)") != std::string::npos);
    Buffer<int> o = g.realize({N, 5});
    CHECK(mismatches<int>(o, [](const std::vector<int> &c) { return (c[0] * 100 + c[1]) * 2 + 101; }) == 0);
    std::string msg;
    try {
        f.align_storage(Var("z"), 8);
    } catch (const CompileError &e) {
        msg = e.what();
    }
    CHECK(msg.find("align_storage(z, ...) names 'z', which is not one of its pure arguments") != std::string::npos);
}

TEST_CASE("TailStrategy::Predicate, PredicateLoads and PredicateStores compute what GuardWithIf does") {
    // Halide 14's predicated tails guard the last vector's loads and stores. Halo computes them
    // as GuardWithIf (same values, no size constraints); on an RVar, PredicateLoads and
    // PredicateStores are refused as in Halide.
    Buffer<int> in = input_of<int>(N + 3, [](int i) { return i * 7 - 40; }, "pred_in");
    for (TailStrategy t : {TailStrategy::Predicate, TailStrategy::PredicateLoads, TailStrategy::PredicateStores}) {
        Var x("x"), y("y");
        Func p("pred_p"), f("pred_f");
        p(x, y) = in(x) + y;
        f(x, y) = p(x, y) * 2 + p(x + 3, y);
        p.compute_root().vectorize(x, 8, t);
        f.vectorize(x, 16, t);
        Buffer<int> o = f.realize({N, 3});
        CHECK(mismatches<int>(o, [&](const std::vector<int> &c) { return (in(c[0]) + c[1]) * 2 + in(c[0] + 3) + c[1]; }) == 0);
    }
    Func g("pred_g");
    Var x("x");
    RDom r(0, N, "r");
    g(x) = 0;
    g(x) += in(r) * x;
    std::string msg;
    try {
        g.update(0).vectorize(r.x, 4, TailStrategy::PredicateLoads);
    } catch (const CompileError &e) {
        msg = e.what();
    }
    CHECK(msg.find("vectorize(r.x) of an RVar with TailStrategy::PredicateLoads") != std::string::npos);
    g.update(0).split(r.x, RVar("ro"), RVar("ri"), 4, TailStrategy::Predicate);
    Buffer<int> go = g.realize({5});
    int total = 0;
    for (int i = 0; i < N; i++) total += in(i);
    CHECK(mismatches<int>(go, [&](const std::vector<int> &c) { return total * c[0]; }) == 0);
}
