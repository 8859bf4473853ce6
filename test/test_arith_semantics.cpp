// The corners of Halo's arithmetic, each checked compiled (scalar and vectorized), in the
// reference evaluator and in constant folding, against plain C++ values:
//   - float -> integer casts round toward zero and saturate; NaN converts to 0;
//   - shifts by at least the bit width shift everything out (sign fill for >> of a signed
//     value); a negative amount shifts the other way;
//   - int32 and int64 overflow is undefined: the reference evaluator raises an
//     UndefinedBehaviorError, constant folding a CompileError; narrower and unsigned types wrap;
//   - MIN / -1 wraps to MIN and MIN % -1 is 0, in every signed width.
#include "TestUtil.h"

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "lower/Simplify.h"

using namespace halo;

namespace {

constexpr int N = 37;  // not a multiple of the vector width

enum class Mode { Scalar, Vectorized, Reference };
const char *mode_name(Mode m) {
    return m == Mode::Scalar ? "compiled scalar" : m == Mode::Vectorized ? "compiled vectorized" : "reference evaluator";
}

// f(x) = def(x) over [0, n), compiled scalar, compiled vectorized (16 lanes) and by the
// reference evaluator; every element must equal expect(x).
template <typename R>
void check_modes(const std::string &what, const std::function<Expr(Var)> &def,
                 const std::function<R(int)> &expect, int n = N) {
    for (Mode m : {Mode::Scalar, Mode::Vectorized, Mode::Reference}) {
        Var x("x");
        Func f("f");
        f(x) = def(x);
        INFO(what << " (" << std::string(mode_name(m)) << ")");
        REQUIRE(f.output_type() == type_of<R>());
        Buffer<R> out(n);
        Buffer<> dyn = out;
        if (m == Mode::Vectorized) f.vectorize(x, 16);
        if (m == Mode::Reference) reference_realize(f, dyn);
        else f.realize(dyn);
        int bad = 0;
        std::string first;
        for (int i = 0; i < n; i++) {
            R got = out(i), want = expect(i);
            bool same = got == want;
            if constexpr (std::is_floating_point_v<R>) same |= std::isnan(got) && std::isnan(want);
            if (!same && !bad++) {
                first = "at " + std::to_string(i) + ": got " + std::to_string(out(i)) + ", expected " +
                        std::to_string(expect(i));
            }
        }
        CHECK_MESSAGE(bad == 0, bad << " mismatches; first " << first);
    }
}

// The value of a folded integer constant.
int64_t const_value(const Expr &e) {
    if (auto i = e.as<IntImm>()) return i->value;
    if (auto u = e.as<UIntImm>()) return int64_t(u->value);
    FAIL("not folded to an integer constant: " << e);
    return 0;
}

// Plain C++: a float converted to T by Halo's rule.
template <typename T>
T saturate(double v) {
    if (std::isnan(v)) return 0;
    double t = std::trunc(v);
    if (t <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (t >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return T(t);
}

template <typename F>
Buffer<F> float_inputs(const std::vector<double> &values) {
    Buffer<F> b(N);
    for (int i = 0; i < N; i++) b(i) = F(values[i % values.size()]);
    return b;
}

const double inf = std::numeric_limits<double>::infinity();
const double nan_value = std::numeric_limits<double>::quiet_NaN();

template <typename T, typename F>
void check_float_cast(const std::vector<double> &values) {
    Buffer<F> in = float_inputs<F>(values);
    std::string what = std::string("cast of ") + type_of<F>().to_string() + " to " + type_of<T>().to_string();
    check_modes<T>(what, [&](Var x) { return cast<T>(in(x)); }, [&](int i) { return saturate<T>(double(in(i))); });
}

}  // namespace

// ---------------------------------------------------------------- float -> integer casts

TEST_CASE("float to int32 casts saturate out-of-range values") {
    std::vector<double> v = {0, 1.9, -1.9, 100.5, -100.5, 2147483520.0, 2147483648.0, 3e9, -2147483648.0,
                             -2147483904.0, -3e9, 1e30, -1e30, inf, -inf, 16777216.0};
    check_float_cast<int32_t, float>(v);
    std::vector<double> d = {2147483647.0, 2147483647.5, 2147483648.0, -2147483648.0, -2147483648.9,
                             -2147483649.0, 1e300, -1e300, inf, -inf, 12345.678};
    check_float_cast<int32_t, double>(d);
}

TEST_CASE("float to uint8 casts saturate out-of-range values") {
    std::vector<double> v = {-1, -0.5, -0.0, 0, 0.9, 254.9, 255, 255.5, 256, 1000, -1000, inf, -inf};
    check_float_cast<uint8_t, float>(v);
    check_float_cast<uint8_t, double>(v);
}

TEST_CASE("float casts to the other integer types saturate out-of-range values") {
    std::vector<double> v = {-1, 1.5, -1.5, 127.9, 128, -128.9, -129, 255.5, 256, 32767.5, 32768, -32768.5,
                             -32769, 65535.5, 65536, 4294967295.0, 4294967296.0, 1e20, -1e20, inf, -inf};
    check_float_cast<int8_t, float>(v);
    check_float_cast<int16_t, float>(v);
    check_float_cast<uint16_t, float>(v);
    check_float_cast<uint32_t, float>(v);
    check_float_cast<uint32_t, double>(v);
    check_float_cast<int16_t, double>(v);
}

TEST_CASE("float to 64-bit integer casts saturate out-of-range values") {
    std::vector<double> v = {0, -1, 1.5, 9.2e18, 9223372036854775808.0, 1.8e19, 18446744073709551616.0, 1e30,
                             -9223372036854775808.0, -1e30, inf, -inf, -0.5};
    check_float_cast<int64_t, double>(v);
    check_float_cast<uint64_t, double>(v);
    check_float_cast<int64_t, float>(v);
    check_float_cast<uint64_t, float>(v);
}

TEST_CASE("NaN converts to 0 for every integer type") {
    std::vector<double> v = {nan_value, -nan_value, 1.0};
    check_float_cast<int8_t, float>(v);
    check_float_cast<uint8_t, float>(v);
    check_float_cast<int16_t, float>(v);
    check_float_cast<uint16_t, float>(v);
    check_float_cast<int32_t, float>(v);
    check_float_cast<uint32_t, float>(v);
    check_float_cast<int64_t, double>(v);
    check_float_cast<uint64_t, double>(v);
    check_float_cast<int32_t, double>(v);
}

TEST_CASE("constant folding of out-of-range float casts saturates") {
    // Cast nodes built directly, so that the simplifier (not the DSL) folds them.
    CHECK(const_value(simplify(Cast::make(UInt(8), Expr(300.0f)))) == 255);
    CHECK(const_value(simplify(Cast::make(UInt(8), Expr(-3.5f)))) == 0);
    CHECK(const_value(simplify(Cast::make(Int(32), Expr(3e9f)))) == INT32_MAX);
    CHECK(const_value(simplify(Cast::make(Int(32), Expr(-1e20)))) == INT32_MIN);
    CHECK(const_value(simplify(Cast::make(Int(16), Expr(float(NAN))))) == 0);
    CHECK(const_value(simplify(Cast::make(UInt(64), Expr(1e30)))) == int64_t(UINT64_MAX));
    CHECK(const_value(simplify(Cast::make(Int(8), Expr(-2.9f)))) == -2);
    // The DSL's cast of a constant folds by the same rule.
    CHECK(const_value(cast<uint8_t>(Expr(1000.0f))) == 255);
    CHECK(const_value(cast<int32_t>(Expr(double(INFINITY)))) == INT32_MAX);
    // And a pipeline of constants agrees, compiled and in the reference evaluator.
    check_modes<uint8_t>("constant cast", [](Var x) { return Cast::make(UInt(8), Expr(300.0f)) + cast<uint8_t>(x) * 0; },
                         [](int) { return uint8_t(255); });
    check_modes<int32_t>("constant cast", [](Var x) { return x + Cast::make(Int(32), Expr(-1e20)) * 0 + Cast::make(Int(32), Expr(float(NAN))); },
                         [](int i) { return i; });
}

TEST_CASE("a float clamped to the target's range converts without saturation code") {
    ImageParam in(Float(32), 1, "in");
    Buffer<float> b(64);
    in.set(b);
    Var x("x");
    Func clamped("clamped"), unclamped("unclamped");
    clamped(x) = cast<int32_t>(clamp(in(x), -1000.0f, 1000.0f));
    unclamped(x) = cast<int32_t>(in(x));
    clamped.vectorize(x, 16);
    unclamped.vectorize(x, 16);
    clamped.compile_jit();
    unclamped.compile_jit();
    // The NaN test is the mark of the saturating conversion.
    CHECK(unclamped.llvm_ir().find(" uno <16 x float>") != std::string::npos);
    CHECK(clamped.llvm_ir().find(" uno <16 x float>") == std::string::npos);
    CHECK(clamped.llvm_ir().find("fptosi <16 x float>") != std::string::npos);
}

TEST_CASE("an integer converted to a float that rounds past the integer range saturates back") {
    // int32 2^31 - 1 converts to the float32 2^31, which does not fit back in int32; likewise
    // uint32 2^32 - 1 and the float32 2^32.
    Buffer<int32_t> ints(16);
    Buffer<uint32_t> uints(16);
    for (int i = 0; i < 16; i++) ints(i) = INT32_MAX - i, uints(i) = UINT32_MAX - uint32_t(i);
    check_modes<int32_t>("int32(float32(int32))", [&](Var x) { return cast<int32_t>(cast<float>(ints(x))); },
                         [&](int i) { return saturate<int32_t>(double(float(ints(i)))); }, 16);
    check_modes<uint32_t>("uint32(float32(uint32))", [&](Var x) { return cast<uint32_t>(cast<float>(uints(x))); },
                          [&](int i) { return saturate<uint32_t>(double(float(uints(i)))); }, 16);
}

TEST_CASE("an integer clamp of a float cast is a float clamp: same values, no saturation code") {
    // clamp(cast<int>(f), lo, hi) == clamp(saturating cast of f, lo, hi); NaN gives clamp(0, lo, hi).
    Buffer<float> in = float_inputs<float>({nan_value, inf, -inf, 3e9, -3e9, 0.5, -0.5, 12.7, -12.7, 999.5, 1000.5,
                                             -7.5, 150.2, 250.9, 300, -1e-30});
    auto clamped = [&](double v, int64_t lo, int64_t hi) {
        int64_t s = saturate<int32_t>(v);
        return std::min(std::max(s, lo), hi);
    };
    check_modes<int32_t>("clamp(cast<int>, 0, 1000)", [&](Var x) { return clamp(cast<int32_t>(in(x)), 0, 1000); },
                         [&](int i) { return int32_t(clamped(in(i), 0, 1000)); });
    check_modes<int32_t>("clamp(cast<int>, -1000, -10)", [&](Var x) { return clamp(cast<int32_t>(in(x)), -1000, -10); },
                         [&](int i) { return int32_t(clamped(in(i), -1000, -10)); });
    check_modes<int32_t>("clamp(cast<int>, -5, 5)", [&](Var x) { return clamp(cast<int32_t>(in(x)), -5, 5); },
                         [&](int i) { return int32_t(clamped(in(i), -5, 5)); });
    check_modes<uint8_t>("clamp(cast<uint8>, 10, 200)", [&](Var x) { return clamp(cast<uint8_t>(in(x)), 10, 200); },
                         [&](int i) { return uint8_t(std::min(std::max(int(saturate<uint8_t>(in(i))), 10), 200)); });
    check_modes<int32_t>("min(max(cast<int>, 3), 100)", [&](Var x) { return min(max(cast<int32_t>(in(x)), 3), 100); },
                         [&](int i) { return int32_t(clamped(in(i), 3, 100)); });
    Var x("x");
    Func f("f");
    f(x) = clamp(cast<int32_t>(in(x)), 0, 1000);
    f.vectorize(x, 16);
    f.compile_jit();
    CHECK(f.llvm_ir().find(" uno <16 x float>") == std::string::npos);
    CHECK(f.llvm_ir().find("fptosi <16 x float>") != std::string::npos);
}

TEST_CASE("min and max of a NaN follow their operand order everywhere") {
    // min(a, b) is select(a < b, a, b) and max(a, b) is select(a < b, b, a): with a NaN
    // operand the result is b for min and a for max. The simplifier must not swap operands.
    Buffer<float> in = float_inputs<float>({nan_value, 1.0, -1.0, 200.0});
    auto ordered_min = [](float p, float q) { return p < q ? p : q; };
    auto ordered_max = [](float p, float q) { return p < q ? q : p; };
    check_modes<float>("min(c, x)", [&](Var x) { return min(132.75f, in(x)); }, [&](int i) { return ordered_min(132.75f, in(i)); });
    check_modes<float>("min(x, c)", [&](Var x) { return min(in(x), 132.75f); }, [&](int i) { return ordered_min(in(i), 132.75f); });
    check_modes<float>("max(c, x)", [&](Var x) { return max(-5.0f, in(x)); }, [&](int i) { return ordered_max(-5.0f, in(i)); });
    check_modes<float>("max(x, c)", [&](Var x) { return max(in(x), -5.0f); }, [&](int i) { return ordered_max(in(i), -5.0f); });
}

TEST_CASE("nested min and max of NaNs are not rewritten by rules that hold only without NaNs") {
    // Absorption (min(x, max(y, x)) -> x), repetition (min(min(x, y), x) -> min(x, y)) and
    // regrouping constants (min(min(x, c1), c2) -> min(x, min(c1, c2))) all change the result
    // when an operand is NaN, under min(a, b) = a < b ? a : b and max(a, b) = a < b ? b : a.
    const std::vector<double> values = {nan_value, 1.0, -1.0, nan_value, 200.0, nan_value};
    std::vector<double> firsts, seconds;  // every ordered pair of the values
    for (double p : values)
        for (double q : values) firsts.push_back(p), seconds.push_back(q);
    Buffer<float> a = float_inputs<float>(firsts), b = float_inputs<float>(seconds);
    const int n = int(firsts.size());
    auto mn = [](float p, float q) { return p < q ? p : q; };
    auto mx = [](float p, float q) { return p < q ? q : p; };
    auto A = [&](int i) { return a(i); };
    auto B = [&](int i) { return b(i); };
    check_modes<float>("min(x, max(y, x))", [&](Var x) { return min(a(x), max(b(x), a(x))); },
                       [&](int i) { return mn(A(i), mx(B(i), A(i))); }, n);
    check_modes<float>("max(x, min(y, x))", [&](Var x) { return max(a(x), min(b(x), a(x))); },
                       [&](int i) { return mx(A(i), mn(B(i), A(i))); }, n);
    check_modes<float>("max(min(x, y), x)", [&](Var x) { return max(min(a(x), b(x)), a(x)); },
                       [&](int i) { return mx(mn(A(i), B(i)), A(i)); }, n);
    check_modes<float>("min(max(x, y), x)", [&](Var x) { return min(max(a(x), b(x)), a(x)); },
                       [&](int i) { return mn(mx(A(i), B(i)), A(i)); }, n);
    check_modes<float>("max(x, max(y, x))", [&](Var x) { return max(a(x), max(b(x), a(x))); },
                       [&](int i) { return mx(A(i), mx(B(i), A(i))); }, n);
    check_modes<float>("min(x, min(x, y))", [&](Var x) { return min(a(x), min(a(x), b(x))); },
                       [&](int i) { return mn(A(i), mn(A(i), B(i))); }, n);
    check_modes<float>("min(min(x, y), x)", [&](Var x) { return min(min(a(x), b(x)), a(x)); },
                       [&](int i) { return mn(mn(A(i), B(i)), A(i)); }, n);
    check_modes<float>("max(max(x, y), y)", [&](Var x) { return max(max(a(x), b(x)), b(x)); },
                       [&](int i) { return mx(mx(A(i), B(i)), B(i)); }, n);
    // With an operand LLVM knows is not NaN (a constant, a converted integer), its InstCombine
    // folds min(min(c, x), c) to min(c, x), which is NaN for a NaN x instead of c: Halo's float
    // min and max are x86's instructions, which it leaves alone.
    check_modes<float>("min(min(c, x), c)", [&](Var x) { return min(min(-241.5f, a(x)), -241.5f); },
                       [&](int i) { return mn(mn(-241.5f, A(i)), -241.5f); }, n);
    check_modes<float>("max(max(c, x), c)", [&](Var x) { return max(max(7.25f, a(x)), 7.25f); },
                       [&](int i) { return mx(mx(7.25f, A(i)), 7.25f); }, n);
    check_modes<float>("min(min(float(x), y), float(x))",
                       [&](Var x) { return min(min(cast<float>(x), a(x)), cast<float>(x)); },
                       [&](int i) { return mn(mn(float(i), A(i)), float(i)); }, n);
    check_modes<float>("select(select(c < y, c, y) < c, select(c < y, c, y), c)",
                       [&](Var x) {
                           Expr inner = select(2.0f < a(x), 2.0f, a(x));
                           return select(inner < 2.0f, inner, 2.0f);
                       },
                       [&](int i) { return mn(mn(2.0f, A(i)), 2.0f); }, n);
    // Selects on <= and >= of the same shape: LLVM classifies them as a min or max too and
    // folds the outer one away. No x86 instruction has their NaN and signed-zero results, so
    // codegen hides the compare's operands from that match.
    auto le_sel = [](float p, float q) { return p <= q ? p : q; };
    auto ge_sel = [](float p, float q) { return p >= q ? p : q; };
    check_modes<float>("select(select(c <= y, c, y) <= c, select(c <= y, c, y), c)",
                       [&](Var x) {
                           Expr inner = select(2.0f <= a(x), 2.0f, a(x));
                           return select(inner <= 2.0f, inner, 2.0f);
                       },
                       [&](int i) { return le_sel(le_sel(2.0f, A(i)), 2.0f); }, n);
    check_modes<float>("select(select(c >= y, c, y) >= c, select(c >= y, c, y), c)",
                       [&](Var x) {
                           Expr inner = select(-1.0f >= a(x), -1.0f, a(x));
                           return select(inner >= -1.0f, inner, -1.0f);
                       },
                       [&](int i) { return ge_sel(ge_sel(-1.0f, A(i)), -1.0f); }, n);
    check_modes<float>("select(y <= select(y <= float(x), y, float(x)), ...) with swapped arms",
                       [&](Var x) {
                           Expr inner = select(a(x) <= cast<float>(x), a(x), cast<float>(x));
                           return select(inner <= a(x), a(x), inner);
                       },
                       [&](int i) {
                           float inner = A(i) <= float(i) ? A(i) : float(i);
                           return inner <= A(i) ? A(i) : inner;
                       }, n);
    check_modes<double>("select(select(c <= y, c, y) <= c, ...) in double",
                        [&](Var x) {
                            Expr y = cast<double>(a(x));
                            Expr inner = select(Expr(2.0) <= y, Expr(2.0), y);
                            return select(inner <= Expr(2.0), inner, Expr(2.0));
                        },
                        [&](int i) { return double(le_sel(le_sel(2.0f, A(i)), 2.0f)); }, n);
    check_modes<double>("min(min(c, x), c) in double", [&](Var x) { return min(min(Expr(-3.5), cast<double>(a(x))), Expr(-3.5)); },
                        [&](int i) { return double(mn(mn(-3.5f, A(i)), -3.5f)); }, n);
    const float nan_constant = std::numeric_limits<float>::quiet_NaN();
    check_modes<float>("min(min(x, NaN), 3)", [&](Var x) { return min(min(a(x), nan_constant), 3.0f); },
                       [&](int i) { return mn(mn(A(i), nan_constant), 3.0f); }, n);
    check_modes<float>("max(max(x, NaN), 3)", [&](Var x) { return max(max(a(x), nan_constant), 3.0f); },
                       [&](int i) { return mx(mx(A(i), nan_constant), 3.0f); }, n);
}

// ---------------------------------------------------------------- shifts

namespace {

// Plain C++: a << b and a >> b by Halo's rule (b of type S).
template <typename T, typename S>
T shift(T a, S b, bool left) {
    constexpr int bits = 8 * sizeof(T);
    using U = std::make_unsigned_t<T>;
    int64_t amount = int64_t(b);
    if (amount < 0) {
        left = !left;
        amount = -amount;
    }
    if (left) return amount >= bits ? T(0) : T(U(U(a) << amount));
    if (std::is_signed_v<T>) return amount >= bits ? T(a < 0 ? -1 : 0) : T(a >> amount);
    return amount >= bits ? T(0) : T(U(a) >> amount);
}

template <typename T>
Buffer<T> shift_values() {
    Buffer<T> b(N);
    for (int i = 0; i < N; i++) {
        int64_t v = int64_t(0x5A3C96E1F00DBEEFull >> (i % 23));
        b(i) = T(i % 3 == 0 ? -v : v);
    }
    b(0) = std::numeric_limits<T>::min();
    b(1) = std::numeric_limits<T>::max();
    b(2) = T(-1);
    return b;
}

// Amounts 0 .. N-1 (past every bit width), or with negative ones too for signed S.
template <typename S>
Buffer<S> shift_amounts(bool with_negative) {
    Buffer<S> b(N);
    for (int i = 0; i < N; i++) b(i) = S(with_negative && i % 2 ? -(i * 3 % 70) : i * 3 % 70);
    return b;
}

// The type of a << b, as Halide's match_bits makes it: a's signedness, the wider width.
template <typename T, typename S>
using ShiftResult = std::conditional_t<(sizeof(S) > sizeof(T)),
                                       std::conditional_t<std::is_signed_v<T>, std::make_signed_t<S>, std::make_unsigned_t<S>>, T>;

template <typename T, typename S = T>
void check_shift(bool left, bool with_negative) {
    using R = ShiftResult<T, S>;
    Buffer<T> a = shift_values<T>();
    Buffer<S> s = shift_amounts<S>(with_negative);
    std::string what = std::string(left ? "<<" : ">>") + " of " + type_of<T>().to_string() + " by " +
                       type_of<S>().to_string();
    check_modes<R>(what, [&](Var x) { return left ? a(x) << s(x) : a(x) >> s(x); },
                   [&](int i) { return shift<R, S>(R(a(i)), s(i), left); });
}

}  // namespace

TEST_CASE("shifting left by at least the bit width gives 0") {
    check_shift<uint8_t>(true, false);
    check_shift<int8_t>(true, false);
    check_shift<uint16_t>(true, false);
    check_shift<int16_t>(true, false);
    check_shift<uint32_t>(true, false);
    check_shift<int32_t>(true, false);
    check_shift<uint64_t>(true, false);
    check_shift<int64_t>(true, false);
}

TEST_CASE("an unsigned right shift by at least the bit width gives 0") {
    check_shift<uint8_t>(false, false);
    check_shift<uint16_t>(false, false);
    check_shift<uint32_t>(false, false);
    check_shift<uint64_t>(false, false);
}

TEST_CASE("a signed right shift by at least the bit width gives the sign fill") {
    check_shift<int8_t>(false, false);
    check_shift<int16_t>(false, false);
    check_shift<int32_t>(false, false);
    check_shift<int64_t>(false, false);
}

TEST_CASE("a negative shift amount shifts the other way") {
    check_shift<int8_t>(true, true);
    check_shift<int8_t>(false, true);
    check_shift<int32_t>(true, true);
    check_shift<int32_t>(false, true);
    check_shift<uint16_t, int16_t>(true, true);
    check_shift<uint16_t, int16_t>(false, true);
    check_shift<int64_t>(false, true);
}

TEST_CASE("a shift amount of another type keeps its value") {
    // Amounts wider than the shifted value (300 must not wrap to 44) and narrower ones.
    check_shift<uint8_t, int32_t>(true, true);
    check_shift<int8_t, int32_t>(false, true);
    check_shift<int32_t, int8_t>(true, true);
    check_shift<uint32_t, uint8_t>(false, false);
    check_shift<int64_t, uint16_t>(false, false);
}

TEST_CASE("constant shifts fold by the same rules") {
    auto folds_to = [](const Expr &e, int64_t v) {
        Expr s = simplify(e);
        INFO(e << " -> " << s);
        CHECK(const_value(s) == v);
    };
    folds_to(Expr(uint8_t(200)) << Expr(uint8_t(8)), 0);
    folds_to(Expr(uint8_t(200)) << Expr(uint8_t(1)), 144);
    folds_to(Expr(int16_t(-300)) >> Expr(int16_t(40)), -1);
    folds_to(Expr(int16_t(300)) >> Expr(int16_t(16)), 0);
    folds_to(Expr(uint32_t(0x80000000u)) >> Expr(uint32_t(32)), 0);
    folds_to(Expr(int32_t(5)) << Expr(int32_t(-1)), 2);
    folds_to(Expr(int32_t(-8)) >> Expr(int32_t(-2)), -32);
    folds_to(Expr(int64_t(1)) << Expr(int64_t(63)), INT64_MIN);
    folds_to(Expr(int64_t(1)) << Expr(int64_t(64)), 0);
    folds_to(Expr(uint8_t(1)) << Expr(int32_t(300)), 0);
    // A pipeline of constants, compiled and in the reference evaluator.
    check_modes<int16_t>("constant shifts", [](Var x) {
        return cast<int16_t>(x) * 0 + (Expr(int16_t(-300)) >> Expr(int16_t(40))) + (Expr(int16_t(3)) << Expr(int16_t(-1)));
    }, [](int) { return int16_t(0); });
}

TEST_CASE("a shift by a constant compiles to a single shift") {
    Buffer<uint32_t> a(64);
    for (int i = 0; i < 64; i++) a(i) = uint32_t(i) * 0x9E3779B9u;
    Var x("x");
    Func left("left"), right("right"), negative("negative"), out_of_range("out_of_range");
    left(x) = a(x) << 3;
    right(x) = cast<int32_t>(a(x)) >> 5;
    negative(x) = a(x) << -2;  // a >> 2
    out_of_range(x) = cast<int32_t>(a(x)) >> Expr(uint32_t(40));  // the sign fill: a >> 31
    for (Func *f : {&left, &right, &negative, &out_of_range}) {
        f->vectorize(x, 16);
        f->compile_jit();
        std::string ir = f->llvm_ir();
        INFO(f->name() << ":\n" << ir);
        // No comparison of the amount and no select between results.
        CHECK(ir.find("select <16 x i1>") == std::string::npos);
        CHECK(ir.find("icmp ult <16 x i32>") == std::string::npos);
    }
    CHECK(left.llvm_ir().find("shl <16 x i32>") != std::string::npos);
    CHECK(right.llvm_ir().find("ashr <16 x i32>") != std::string::npos);
    CHECK(negative.llvm_ir().find("lshr <16 x i32>") != std::string::npos);
    CHECK(out_of_range.llvm_ir().find("ashr <16 x i32>") != std::string::npos);
    check_modes<int32_t>("constant out-of-range shift", [&](Var xx) { return cast<int32_t>(a(xx)) >> Expr(uint32_t(40)); },
                         [&](int i) { return int32_t(a(i)) < 0 ? -1 : 0; });
}

// ---------------------------------------------------------------- overflow

namespace {
// The UndefinedBehaviorError the reference evaluator raises for f, or "".
std::string undefined_behavior_of(Func f, int n = N) {
    try {
        reference_realize(f, {n});
    } catch (const UndefinedBehaviorError &e) {
        const RuntimeError &base = e;  // a kind of RuntimeError
        (void)base;
        return e.what();
    }
    return "";
}
}  // namespace

TEST_CASE("int32 overflow is undefined behaviour in the reference evaluator") {
    Buffer<int32_t> a(4);
    a(0) = 5;
    a(1) = INT32_MAX;
    a(2) = INT32_MIN;
    a(3) = 65536;
    Var x("x");
    Func add("add"), sub("sub"), mul("mul"), neg("neg"), fine("fine");
    add(x) = a(x) + 1;
    sub(x) = a(x) - 1;
    mul(x) = a(x) * a(x);
    neg(x) = -a(x);
    fine(x) = a(x) / 2 + a(x) % 3;
    CHECK(undefined_behavior_of(add, 4) ==
          "signed integer overflow in Func 'add': int32 2147483647 + 1 = 2147483648 overflows; int32 and int64 "
          "overflow is undefined (as in Halide): widen the type or use an unsigned type for wrapping arithmetic");
    CHECK(undefined_behavior_of(sub, 4).find("signed integer overflow in Func 'sub': int32 -2147483648 - 1 = -2147483649 overflows") == 0);
    CHECK(undefined_behavior_of(mul, 4).find("int32 2147483647 * 2147483647 = 4611686014132420609 overflows") != std::string::npos);
    CHECK(undefined_behavior_of(neg, 4).find("int32 0 - -2147483648 = 2147483648 overflows") != std::string::npos);
    CHECK(undefined_behavior_of(fine, 4) == "");
    // Compiled code wraps (it may do anything; this is what it does today), without crashing.
    Buffer<int32_t> out = add.realize({4});
    CHECK(out(0) == 6);
}

TEST_CASE("an int32 overflow in the select arm not taken is undefined behaviour too") {
    // Halide's select evaluates both arms, and so does compiled code: an index that wraps in
    // the other arm (x - 1 at INT32_MIN, clamped to INT32_MAX) reads far outside the input.
    // The reference evaluator must call such a program undefined, not compute the taken arm.
    Buffer<int32_t> a(4);
    for (int i = 0; i < 4; i++) a(i) = 10 * i;
    Var x("x");
    Func f("f"), g("g");
    f(x) = select(x > 5, a(max(x - 1, 0)), 7);
    g(x) = f(x + INT32_MIN);
    CHECK(undefined_behavior_of(g, 4).find("signed integer overflow in Func 'f': int32 -2147483648 - 1") == 0);
    // The arm not taken is only checked for overflow: its reads give nothing and need no
    // point of their Funcs or inputs, and its require() is not checked.
    Func h("h");
    h(x) = select(x < 4, a(x), require(x < 0, a(x + 100), "never evaluated"));
    Buffer<int32_t> ref(4);
    Buffer<> dyn = ref;
    reference_realize(h, dyn);
    for (int i = 0; i < 4; i++) CHECK(ref(i) == 10 * i);
}

TEST_CASE("int64 overflow is undefined behaviour in the reference evaluator") {
    Buffer<int64_t> a(2);
    a(0) = 7;
    a(1) = INT64_MAX;
    Var x("x");
    Func add("add64"), mul("mul64");
    add(x) = a(x) + a(x);
    mul(x) = a(x) * 3;
    CHECK(undefined_behavior_of(add, 2).find("signed integer overflow in Func 'add64': int64 9223372036854775807 + "
                                             "9223372036854775807 = 18446744073709551614 overflows") == 0);
    CHECK(undefined_behavior_of(mul, 2).find("int64 9223372036854775807 * 3 = 27670116110564327421 overflows") != std::string::npos);
}

TEST_CASE("int8, int16 and unsigned arithmetic wraps") {
    Buffer<int8_t> a8(N);
    Buffer<int16_t> a16(N);
    Buffer<uint32_t> u32(N);
    Buffer<uint64_t> u64(N);
    for (int i = 0; i < N; i++) {
        a8(i) = int8_t(120 + i);
        a16(i) = int16_t(32760 + i * 7);
        u32(i) = 4294967290u + uint32_t(i);
        u64(i) = UINT64_MAX - uint64_t(i);
    }
    check_modes<int8_t>("int8", [&](Var x) { return a8(x) * 3 + 100; }, [&](int i) { return int8_t(uint8_t(a8(i) * 3 + 100)); });
    check_modes<int16_t>("int16", [&](Var x) { return a16(x) + a16(x) - (-a16(x)); },
                         [&](int i) { return int16_t(uint16_t(3 * int(a16(i)))); });
    check_modes<uint32_t>("uint32", [&](Var x) { return u32(x) * 5 + 10; }, [&](int i) { return uint32_t(u32(i) * 5u + 10u); });
    check_modes<uint64_t>("uint64", [&](Var x) { return u64(x) + u64(x); }, [&](int i) { return uint64_t(u64(i) * 2); });
    // Constant folding wraps too.
    CHECK(const_value(simplify(Add::make(Expr(int8_t(100)), Expr(int8_t(100))))) == -56);
    CHECK(const_value(simplify(Mul::make(Expr(int16_t(300)), Expr(int16_t(300))))) == int16_t(uint16_t(90000)));
    CHECK(const_value(simplify(Sub::make(Expr(uint32_t(0)), Expr(uint32_t(1))))) == int64_t(UINT32_MAX));
    check_modes<int8_t>("int8 constants", [](Var x) { return cast<int8_t>(x) * 0 + (Expr(int8_t(100)) + Expr(int8_t(100))); },
                        [](int) { return int8_t(-56); });
}

TEST_CASE("constant folding an int32 or int64 overflow is a compile error") {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x + (Expr(INT32_MAX) + 1);
    std::string msg = halo_test::compile_error_of([&] { f.realize({4}); });
    CHECK(msg ==
          "signed integer overflow in Func 'f': int32 2147483647 + 1 = 2147483648 overflows; int32 and int64 overflow "
          "is undefined (as in Halide): widen the type or use an unsigned type for wrapping arithmetic (found while "
          "constant-folding the definition)");
    g(x) = cast<int64_t>(x) * (Expr(INT64_MIN) * -1);
    msg = halo_test::compile_error_of([&] { g.realize({4}); });
    CHECK(msg.find("signed integer overflow in Func 'g': int64 -9223372036854775808 * -1 = 9223372036854775808 overflows") == 0);
    // The reference evaluator calls the same program undefined.
    CHECK(undefined_behavior_of(f, 4).find("signed integer overflow in Func 'f'") == 0);
}

TEST_CASE("a sum times a large constant simplifies at once and computes what it says") {
    // (x + 504663802) * 504696571 does not overflow where x + 504663802 is in [-4, 4]. Its
    // distributed form has the constant 504663802 * 504696571, far beyond int32, which the
    // simplifier once wrote as a hundred million int32 pieces (out of memory): it is now left
    // as it is, and compiled and reference results agree with the exact product.
    Var x("x");
    Func f("f");
    f(x) = (x + 504663802) * 504696571 + (x - 7) * 1999999999;
    Buffer<int> out(9), ref(9);
    out.set_min({-504663806});
    ref.set_min({-504663806});
    Func g("g");
    g(x) = (x + 504663802) * 504696571;
    g.vectorize(x, 4);
    g.realize(out);
    Buffer<> ref_untyped = ref;
    reference_realize(g, ref_untyped);
    for (int i = -504663806; i < -504663806 + 9; i++) {
        int64_t exact = int64_t(i + 504663802) * 504696571;
        CHECK(out(i) == exact);
        CHECK(ref(i) == exact);
    }
    // Where it overflows, it is undefined, and no CompileError either.
    CHECK(halo_test::compile_error_of([&] { f.compile_jit(); }) == "");
}

TEST_CASE("an overflowing constant in a select arm is left unfolded, not an error") {
    // The arm is not taken anywhere here: no compile error, and nothing is folded to a
    // wrapped value; the compiled code gives the other arm's values. (Halide's select evaluates
    // both arms, so the reference evaluator calls the program undefined.)
    for (bool vectorized : {false, true}) {
        Var x("x");
        Func f("f");
        f(x) = select(x < 0, Expr(INT32_MAX) + 1, x);
        if (vectorized) f.vectorize(x, 16);
        Buffer<int32_t> out = f.realize({N});
        int bad = 0;
        for (int i = 0; i < N; i++) bad += out(i) != i;
        CHECK_MESSAGE(bad == 0, (vectorized ? "vectorized: " : "scalar: ") << bad << " mismatches");
        CHECK(undefined_behavior_of(f, N).find("signed integer overflow in Func 'f': int32 2147483647 + 1") == 0);
    }
    // Outside any Func (bounds and other internal expressions) the simplifier never errors and
    // never folds an overflow.
    Expr e = simplify(Expr(INT32_MAX) + 1);
    CHECK(e.as<Add>() != nullptr);
    Expr m = simplify(Mul::make(Expr(INT64_MIN), Expr(int64_t(-1))));
    CHECK(m.as<Mul>() != nullptr);
    // A sum that cancels to an out-of-range constant is not folded either.
    Expr v = Variable::make(Int(32), "v");
    Expr c = simplify((v + INT32_MAX) - v + 1);
    CHECK(!is_const(c));
    // Folds that do not overflow still happen.
    CHECK(const_value(simplify(Expr(INT32_MAX) - 1 + 1)) == INT32_MAX);
    CHECK(const_value(simplify((v + INT32_MAX) - v - 1)) == INT32_MAX - 1);
}

// ---------------------------------------------------------------- MIN / -1

namespace {
template <typename T>
void check_min_div(bool constant_divisor) {
    Buffer<T> a(N), b(N);
    for (int i = 0; i < N; i++) {
        a(i) = i % 3 == 0 ? std::numeric_limits<T>::min() : T(i * 37 - 500);
        b(i) = i % 2 == 0 ? T(-1) : i % 5 == 0 ? T(0) : T(i % 7 - 3);
    }
    auto divisor = [&](Var x) { return constant_divisor ? Expr(T(-1)) : b(x); };
    auto div_expect = [&](int i) -> T {
        T d = constant_divisor ? T(-1) : b(i);
        if (d == 0) return 0;
        if (d == -1) return T(0 - std::make_unsigned_t<T>(a(i)));  // wraps for MIN
        int64_t q = int64_t(a(i)) / d, r = int64_t(a(i)) % d;
        if (r < 0) q += d > 0 ? -1 : 1;
        return T(q);
    };
    auto mod_expect = [&](int i) -> T {
        T d = constant_divisor ? T(-1) : b(i);
        if (d == 0 || d == -1) return 0;
        int64_t r = int64_t(a(i)) % d;
        if (r < 0) r += d > 0 ? d : -d;
        return T(r);
    };
    std::string t = type_of<T>().to_string() + (constant_divisor ? " by constant -1" : " by a run-time divisor");
    check_modes<T>("/ of " + t, [&](Var x) { return a(x) / divisor(x); }, div_expect);
    check_modes<T>("% of " + t, [&](Var x) { return a(x) % divisor(x); }, mod_expect);
}
}  // namespace

TEST_CASE("MIN / -1 wraps to MIN and MIN % -1 is 0 with a run-time divisor") {
    check_min_div<int8_t>(false);
    check_min_div<int16_t>(false);
    check_min_div<int32_t>(false);
    check_min_div<int64_t>(false);
}

TEST_CASE("MIN / -1 wraps to MIN and MIN % -1 is 0 with a constant divisor") {
    check_min_div<int8_t>(true);
    check_min_div<int16_t>(true);
    check_min_div<int32_t>(true);
    check_min_div<int64_t>(true);
}

TEST_CASE("constant folding of MIN / -1 and MIN % -1") {
    CHECK(const_value(simplify(Div::make(Expr(INT32_MIN), Expr(-1)))) == INT32_MIN);
    CHECK(const_value(simplify(Mod::make(Expr(INT32_MIN), Expr(-1)))) == 0);
    CHECK(const_value(simplify(Div::make(Expr(INT64_MIN), Expr(int64_t(-1))))) == INT64_MIN);
    CHECK(const_value(simplify(Mod::make(Expr(INT64_MIN), Expr(int64_t(-1))))) == 0);
    CHECK(const_value(simplify(Div::make(Expr(int8_t(-128)), Expr(int8_t(-1))))) == -128);
    CHECK(const_value(simplify(Mod::make(Expr(int16_t(-32768)), Expr(int16_t(-1))))) == 0);
    CHECK(const_value(simplify(Div::make(Expr(-7), Expr(-1)))) == 7);
    check_modes<int32_t>("constant MIN / -1", [](Var x) { return x * 0 + Div::make(Expr(INT32_MIN), Expr(-1)) + Mod::make(Expr(INT32_MIN), Expr(-1)); },
                         [](int) { return INT32_MIN; });
}

TEST_CASE("a divisor that is 0 in some lanes never faults") {
    // 65535 << s is 0 for s >= 16: LLVM knows the shift is non-zero where it is defined, and
    // must still not divide by the lanes where it is not (this once raised SIGFPE).
    Buffer<uint16_t> a(N);
    Buffer<uint16_t> s(N);  // an unsigned amount of a's width: no negative shifts, a uint16 result
    Buffer<int16_t> d(N);
    for (int i = 0; i < N; i++) {
        a(i) = uint16_t(i * 1777 + 11);
        s(i) = uint16_t(i % 3 == 0 ? 16 + i : i % 16);
        d(i) = int16_t(i % 4 == 0 ? 0 : i % 4 == 1 ? -1 : i - 20);
    }
    auto divisor = [&](int i) { return s(i) >= 16 ? uint16_t(0) : uint16_t(65535u << s(i)); };
    check_modes<uint16_t>("a / (65535 << s)", [&](Var x) { return a(x) / (Expr(uint16_t(65535)) << s(x)); },
                          [&](int i) { return divisor(i) ? uint16_t(a(i) / divisor(i)) : uint16_t(0); });
    check_modes<uint16_t>("a % (65535 << s)", [&](Var x) { return a(x) % (Expr(uint16_t(65535)) << s(x)); },
                          [&](int i) { return divisor(i) ? uint16_t(a(i) % divisor(i)) : uint16_t(0); });
    // The shape a fuzzer found: the quotient clamped, narrowed, and divided again.
    check_modes<int16_t>("int16(clamp(int64(a / (65535 << s)), 0, 32767)) % d", [&](Var x) {
        Expr q = cast<int64_t>(a(x) / (Expr(uint16_t(65535)) << s(x)));
        return cast<int16_t>(max(min(q, Expr(int64_t(32767))), Expr(int64_t(0)))) % d(x);
    }, [&](int i) {
        int q = divisor(i) ? a(i) / divisor(i) : 0;
        int v = d(i);
        if (v == 0 || v == -1) return int16_t(0);
        int r = q % v;
        if (r < 0) r += v > 0 ? v : -v;
        return int16_t(r);
    });
    // A divisor chosen by a select between 1 and a value that is 0 or -1 in other lanes.
    check_modes<int16_t>("a / select(d == 0, 1, d)", [&](Var x) { return cast<int16_t>(a(x)) / select(d(x) > 5, d(x), d(x) * 0); },
                         [&](int i) {
                             int16_t q = int16_t(a(i)), v = d(i) > 5 ? d(i) : int16_t(0);
                             if (v == 0) return int16_t(0);
                             int r = q % v, quo = q / v;
                             if (r < 0) quo += v > 0 ? -1 : 1;
                             return int16_t(quo);
                         });
}

TEST_CASE("division by a constant other than 0 and -1 is strength-reduced, with no guard") {
    Buffer<int32_t> a(65);
    Var x("x");
    Func by7("by7"), mod7("mod7"), by_minus_one("by_minus_one"), by_variable("by_variable");
    by7(x) = a(x) / 7;
    mod7(x) = a(x) % 7;
    by_minus_one(x) = a(x) / -1;
    by_variable(x) = a(x) / a(x + 1);
    for (Func *f : {&by7, &mod7, &by_minus_one, &by_variable}) {
        f->vectorize(x, 16);
        f->compile_jit();
    }
    // A guard on the divisor would leave a hardware division; a constant divides by multiplying.
    for (Func *f : {&by7, &mod7, &by_minus_one}) {
        std::string code = f->assembly();
        INFO(f->name() << ":\n" << code);
        CHECK(code.find("idiv") == std::string::npos);
    }
    CHECK(by_variable.assembly().find("idiv") != std::string::npos);
}

TEST_CASE("NaN and signed zero constants are not taken for other constants") {
    // Halide's cse_nan: select(x > 100, NaN, 1.0f) was folded to NaN, because IR equality
    // compared a NaN with < and found it equal to 1.0f. And constant min/max with a NaN must
    // give what the generated code gives (a < b ? a : b, a < b ? b : a).
    Var x("x");
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Func f("f");
    f(x) = select(x > 100, Expr(nan), Expr(1.0f));
    Buffer<float> fb = f.realize({4});
    for (int i = 0; i < 4; i++) CHECK(fb(i) == 1.0f);
    Func z("z");
    z(x) = select(x > 100, Expr(-0.0f), Expr(0.0f));
    Buffer<float> zb = z.realize({2});
    CHECK(!std::signbit(zb(0)));
    // Folded (constants) and computed (Params) alike.
    Param<float> p("p"), q("q");
    p.set(nan);
    q.set(1.0f);
    Expr folded_min = min(Expr(nan), Expr(1.0f)), folded_max = max(Expr(nan), Expr(1.0f));
    Expr folded_min2 = min(Expr(1.0f), Expr(nan)), folded_max2 = max(Expr(1.0f), Expr(nan));
    auto same = [](float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    CHECK(same(evaluate<float>(folded_min), evaluate<float>(min(p, q))));
    CHECK(same(evaluate<float>(folded_max), evaluate<float>(max(p, q))));
    CHECK(same(evaluate<float>(folded_min2), evaluate<float>(min(q, p))));
    CHECK(same(evaluate<float>(folded_max2), evaluate<float>(max(q, p))));
}

TEST_CASE("float % rounds each step: compiled code and the reference agree at large magnitudes") {
    // a - b * floor(a / b) in the type, with no fused multiply-add (which made 1e10f % 7.0f
    // 256 compiled against 0 in the reference evaluator: a review's differential test).
    Buffer<float> a(4), b(4);
    a(0) = 1e10f, b(0) = 7.0f;
    a(1) = -2147483648.0f, b(1) = 1.5f;
    a(2) = 7.5f, b(2) = 2.0f;
    a(3) = -7.5f, b(3) = 2.0f;
    Buffer<double> c(2), d(2);
    c(0) = -32768.0, d(0) = 19.378;
    c(1) = 2147483647.0, d(1) = 0.1;
    Var x("x");
    Func f("fmod32"), g("fmod64");
    f(x) = a(x) % b(x);
    g(x) = c(x) % d(x);
    f.vectorize(x, 4);
    halo_test::check_against_reference(f, Buffer<float>(4));
    halo_test::check_against_reference(g, Buffer<double>(2));
    Buffer<float> out = f.realize({4});
    CHECK(out(0) == 0.0f);  // the float quotient 1428571392, times 7 rounds to 1e10
    CHECK(out(2) == 1.5f);
    CHECK(out(3) == 0.5f);
    Buffer<double> out64 = g.realize({2});
    volatile double q = std::floor(-32768.0 / 19.378), p = 19.378 * q;  // (volatile: no contraction)
    CHECK(out64(0) == -32768.0 - p);
}
