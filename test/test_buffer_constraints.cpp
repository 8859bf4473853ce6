// Constraints on the buffers a pipeline reads and writes, as in Halide:
// ImageParam::dim(d).set_min/set_extent/set_stride/set_bounds and
// Func::output_buffer().dim(d)... (Output::dim(d) in generators). Checked at every call with a
// message naming the buffer, the field and the directive; the compiler knows the value after
// the check; changing a constraint recompiles.
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;
using halo_test::runtime_error_of;

namespace {
int compiles(const Func &f) { return f.function()->pipeline ? f.function()->pipeline->compile_count() : 0; }
}  // namespace

TEST_CASE("an input constrained to min 0 and a row stride: right results, and the compiler knows them") {
    ImageParam in(Int(32), 2, "in");
    in.dim(0).set_min(0);
    in.dim(1).set_stride(64);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) * 2 + in(x + 1, y);
    Buffer<int> b = halo_test::random_image<int>({64, 10}, 4, -100, 100);
    in.set(b);
    Buffer<int> out = f.realize({63, 10});
    halo_test::check_all(out, [&](const std::vector<int> &c) { return double(b(c[0], c[1]) * 2 + b(c[0] + 1, c[1])); });
    std::string stmt = f.lowered_stmt();
    // Only the checks read the constrained fields; every address uses the known values.
    size_t body = stmt.find("produce f");
    REQUIRE(body != std::string::npos);
    CHECK(stmt.find("in.stride.1", body) == std::string::npos);
    CHECK(stmt.find("in.min.0", body) == std::string::npos);
}

TEST_CASE("a buffer that breaks an input constraint is a run-time error naming it") {
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_min(0);
    in.dim(1).set_stride(32);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y) + 1.0f;
    Buffer<float> shifted(32, 8);
    shifted.set_min(-3, 0);
    in.set(shifted);
    std::string msg = runtime_error_of([&] { f.realize({10, 8}); });
    CHECK(contains(msg, "buffer 'in' has min -3 in dimension 0, but the pipeline requires 0 there (in.dim(0).set_min(0))"));
    Buffer<float> wide(40, 8);
    in.set(wide);
    msg = runtime_error_of([&] { f.realize({10, 8}); });
    CHECK(contains(msg, "buffer 'in' has stride 40 in dimension 1, but the pipeline requires 32 there (in.dim(1).set_stride(32))"));
    in.set(Buffer<float>(32, 8));
    CHECK(Buffer<>(f.realize({10, 8})).dim(0).extent() == 10);
}

TEST_CASE("one input's extent constrained to another's") {
    ImageParam a(Int(16), 1, "a"), b(Int(16), 1, "b");
    b.dim(0).set_bounds(a.dim(0).min(), a.dim(0).extent());
    Var x("x");
    Func f("sum");
    f(x) = a(x) + b(x);
    Buffer<int16_t> ba(20), bb(20), bc(19);
    a.set(ba);
    b.set(bb);
    f.realize({20});
    b.set(bc);
    std::string msg = runtime_error_of([&] { f.realize({19}); });
    CHECK(contains(msg, "buffer 'b' has extent 19 in dimension 0, but the pipeline requires 20 there (b.dim(0).set_extent(a.extent.0))"));
}

TEST_CASE("output_buffer() constraints: checked at the call, and setting one recompiles") {
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = x + y * 100;
    Buffer<int> any = g.realize({17, 3});
    CHECK(any(16, 2) == 216);
    int before = compiles(g);
    g.output_buffer().dim(0).set_bounds(0, 16);
    Buffer<int> ok = g.realize({16, 3});
    CHECK(compiles(g) == before + 1);
    CHECK(ok(15, 2) == 215);
    std::string msg = runtime_error_of([&] { g.realize({17, 3}); });
    CHECK(contains(msg, "buffer 'g' has extent 17 in dimension 0, but the pipeline requires 16 there (g.output_buffer().dim(0).set_extent(16))"));
    g.output_buffer().dim(0).set_extent(Expr());  // removed again
    CHECK(Buffer<int>(g.realize({17, 3}))(16, 0) == 16);
}

TEST_CASE("changing an input constraint after a realization recompiles") {
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x) + 1;
    Buffer<int> b(12);
    b.set_min(5);
    in.set(b);
    Buffer<int> out(8);
    out.set_min(6);
    f.realize(out);
    in.dim(0).set_min(0);
    std::string msg = runtime_error_of([&] { f.realize(out); });
    CHECK(contains(msg, "buffer 'in' has min 5 in dimension 0, but the pipeline requires 0 there"));
}

TEST_CASE("constraints a pipeline can never meet, or that name loop variables, are refused") {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(x, y);
    Func pair("pair");
    pair(x, y) = {in(x, y), in(x, y) * 2.0f};
    pair.output_buffer().dim(0).set_stride(2);
    std::string msg = compile_error_of([&] { pair.compile_jit(); });
    CHECK(contains(msg, "pair.output_buffer().dim(0).set_stride(2): the output has 2 values (a Tuple), and Halo "
                        "writes a Tuple output's buffers with stride 1 in dimension 0"));
    pair.output_buffer().dim(0).set_stride(Expr());
    msg = compile_error_of([&] { pair.compile_jit(); });
    CHECK(contains(msg, "pair.output_buffer().dim(0).set_stride(): the output has 2 values (a Tuple)"));
    msg = compile_error_of([&] { in.dim(1).set_min(x); });
    CHECK(contains(msg, "in.dim(1).set_min(x) uses 'x', a Var or RVar; a constraint may use only constants, Params and buffer fields"));
    msg = compile_error_of([&] { in.dim(1).set_extent(1.5f); });
    CHECK(contains(msg, "in.dim(1).set_extent(1.5f): the value is float32; it must be an integer"));
    msg = compile_error_of([&] { in.dim(2); });
    CHECK(contains(msg, "ImageParam 'in' has 2 dimensions; no dimension 2"));
}

namespace {
class Constrained : public Generator<Constrained> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};
    Var x{"x"}, y{"y"};
    void generate() {
        output(x, y) = input(x, y) / 2;
        input.dim(0).set_min(0);
        output.dim(0).set_min(0);
        output.dim(1).set_min(0);
    }
};
}  // namespace

TEST_CASE("a generator's Input and Output take dim(d) constraints as in Halide") {
    Constrained g;
    Func f = g.build();
    Buffer<uint8_t> in = halo_test::random_image<uint8_t>({20, 6}, 9, 0, 255);
    g.input.set(in);
    Buffer<uint8_t> out = f.realize({20, 6});
    CHECK(out(19, 5) == in(19, 5) / 2);
    Buffer<uint8_t> moved(20, 6);
    moved.set_min(0, 2);
    std::string msg = runtime_error_of([&] { f.realize(moved); });
    CHECK(contains(msg, "buffer 'output' has min 2 in dimension 1, but the pipeline requires 0 there (output.output_buffer().dim(1).set_min(0))"));
}

TEST_CASE("an input's dimension 0 may have another stride once dim(0).set_stride says so") {
    // Halide's idiom for interleaved images: x steps over 3 channels, c over neighbours.
    const int W = 37, H = 5;
    std::vector<uint8_t> mem(size_t(W * H * 3));
    for (size_t i = 0; i < mem.size(); i++) mem[i] = uint8_t(i * 7 + 3);
    const halo_dimension_t shape[] = {{0, W, 3, 0}, {0, H, 3 * W, 0}, {0, 3, 1, 0}};
    Buffer<uint8_t> interleaved(mem.data(), 3, shape, "rgb");
    ImageParam in(UInt(8), 3, "in");
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = cast<int>(in(x, y, c)) * 2 + in(x, y, (c + 1) % 3);
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    in.set(interleaved);
    // Without the directive, the stride is refused at run time, naming the way out.
    std::string msg = runtime_error_of([&] { f.realize({W, H, 3}); });
    INFO(msg);
    CHECK(contains(msg, "buffer 'in' has stride 3 in dimension 0"));
    CHECK(contains(msg, "set_stride"));
    for (int variant = 0; variant < 2; variant++) {
        if (variant == 0) in.dim(0).set_stride(3).dim(2).set_stride(1);  // known: wide loads, shuffles
        else in.dim(0).set_stride(Expr()).dim(2).set_stride(Expr());  // any stride: gathers
        Buffer<int> out = f.realize({W, H, 3});
        int bad = 0;
        out.for_each_element([&](const std::vector<int> &p) {
            auto at = [&](int xx, int yy, int cc) { return int(mem[size_t(xx * 3 + yy * 3 * W + cc)]); };
            bad += out(p) != at(p[0], p[1], p[2]) * 2 + at(p[0], p[1], (p[2] + 1) % 3);
        });
        CHECK(bad == 0);
    }
    // A stride other than the one required is the run-time constraint error.
    in.dim(0).set_stride(4);
    msg = runtime_error_of([&] { f.realize({W, H, 3}); });
    CHECK(contains(msg, "buffer 'in' has stride 3 in dimension 0, but the pipeline requires 4 there (in.dim(0).set_stride(4))"));
}

TEST_CASE("a transposed view of an input, read with dim(0).set_stride(Expr())") {
    const int W = 6, H = 9;
    std::vector<float> mem(size_t(W * H));  // stored column by column: x steps by H
    for (int xx = 0; xx < W; xx++)
        for (int yy = 0; yy < H; yy++) mem[size_t(xx * H + yy)] = float(yy * 100 + xx);
    const halo_dimension_t shape[] = {{0, W, H, 0}, {0, H, 1, 0}};
    Buffer<float> view(mem.data(), 2, shape, "view");
    ImageParam in(Float(32), 2, "in");
    in.dim(0).set_stride(Expr());
    in.set(view);
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = in(x, y) + in(x, y) * 0.5f;
    g.vectorize(x, 4, TailStrategy::GuardWithIf);
    Buffer<float> out = g.realize({W, H});
    int bad = 0;
    out.for_each_element([&](const std::vector<int> &p) { bad += out(p) != float(p[1] * 100 + p[0]) * 1.5f; });
    CHECK(bad == 0);
}

// As in Halide's interleave_rgb: an output whose dimension 0 is not dense, once
// output_buffer().dim(0).set_stride says so (a constant stride, or Expr() for any); its vector
// stores become scatters. Without the directive such a buffer is a run-time error.
TEST_CASE("an output's dimension 0 may have another stride once output_buffer().dim(0).set_stride says so") {
    const int W = 37, H = 5;
    Var x("x"), y("y"), c("c");
    for (int variant = 0; variant < 3; variant++) {
        CAPTURE(variant);
        Func f("f");
        f(x, y, c) = x * 100 + y * 10 + c;
        f.vectorize(x, 8, TailStrategy::GuardWithIf);
        std::vector<int> mem(size_t(W * H * 4), -1);  // 4 slots per pixel: the fourth is untouched
        const halo_dimension_t shape[] = {{2, W, 4, 0}, {-1, H, 4 * W, 0}, {0, 3, 1, 0}};
        Buffer<int> out(mem.data(), 3, shape, "rgbx");
        if (variant == 0) {
            std::string msg = runtime_error_of([&] { f.realize(out); });
            CHECK(contains(msg, "buffer 'f' has stride 4 in dimension 0"));
            CHECK(contains(msg, "output_buffer().dim(0)"));
            continue;
        }
        if (variant == 1) f.output_buffer().dim(0).set_stride(4);
        else f.output_buffer().dim(0).set_stride(Expr());
        // stride() of dimension 0 is then the buffer's (a constant where one was given).
        CHECK(contains(to_string(f.output_buffer().dim(0).stride()), variant == 1 ? "4" : "f.stride.0"));
        f.realize(out);
        int bad = 0;
        for (int yy = 0; yy < H; yy++)
            for (int xx = 0; xx < W; xx++)
                for (int cc = 0; cc < 4; cc++) {
                    int want = cc < 3 ? (xx + 2) * 100 + (yy - 1) * 10 + cc : -1;
                    bad += mem[size_t((yy * W + xx) * 4 + cc)] != want;
                }
        CHECK(bad == 0);
        if (variant == 1) {
            // A buffer with another stride breaks the constraint, named.
            std::vector<int> mem3(size_t(W * H * 3));
            const halo_dimension_t shape3[] = {{0, W, 3, 0}, {0, H, 3 * W, 0}, {0, 3, 1, 0}};
            Buffer<int> out3(mem3.data(), 3, shape3, "rgb");
            std::string msg = runtime_error_of([&] { f.realize(out3); });
            CHECK(contains(msg, "buffer 'f' has stride 3 in dimension 0, but the pipeline requires 4 there"));
        }
    }
}

// A Buffer used directly (no ImageParam, so no constraints to set) is read in whatever layout it
// has, as in Halide: an interleaved one strides in x. Its layout changing between dense and
// strided in dimension 0 recompiles (here in place, with Buffer::transpose).
TEST_CASE("a fixed Buffer with channels innermost is read as it lies") {
    Buffer<int> cxy(std::vector<int>{3, 12, 5});
    cxy.set_min({0, -2, 1});
    Buffer<int> img = cxy.transposed(0, 1).transposed(1, 2);  // (x, y, c), x strided by 3
    img.for_each_element([&](int x, int y, int c) { img(x, y, c) = x * 100 + y * 10 + c; });
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = img(x, y, c) * 2 + img(x + 1, y, 2 - c);
    f.vectorize(x, 8);
    auto check = [&](const Buffer<int> &out) {
        int bad = 0;
        out.for_each_element([&](int xx, int yy, int cc) { bad += out(xx, yy, cc) != img(xx, yy, cc) * 2 + img(xx + 1, yy, 2 - cc); });
        return bad;
    };
    Buffer<int> out(std::vector<int>{11, 5, 3});
    out.set_min({-2, 1, 0});
    f.realize(out);
    CHECK(check(out) == 0);
    CHECK(compiles(f) == 1);
}

TEST_CASE("a fixed Buffer transposed in place after compiling: the pipeline compiles again for its new layout") {
    Buffer<int> img(std::vector<int>{9, 9, 2});
    img.for_each_element([&](int x, int y, int c) { img(x, y, c) = x * 100 + y * 10 + c; });
    Var x("x"), y("y"), c("c");
    Func f("f");
    f(x, y, c) = img(x, y, c) + img(x + 1, y, 1 - c) * 3;
    f.vectorize(x, 4);
    Buffer<int> out(std::vector<int>{8, 9, 2});
    auto check = [&] {
        int bad = 0;
        out.for_each_element([&](int xx, int yy, int cc) { bad += out(xx, yy, cc) != img(xx, yy, cc) + img(xx + 1, yy, 1 - cc) * 3; });
        return bad;
    };
    f.realize(out);
    CHECK(check() == 0);
    CHECK(compiles(f) == 1);
    img.transpose(0, 1);  // every handle now sees x strided by 9
    f.realize(out);
    CHECK(check() == 0);
    CHECK(compiles(f) == 2);
    img.transpose(0, 1);  // dense again
    f.realize(out);
    CHECK(check() == 0);
    CHECK(compiles(f) == 3);
    f.realize(out);
    CHECK(compiles(f) == 3);
}
