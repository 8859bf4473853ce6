// Ahead-of-time compilation: the generated libraries compute exactly what the JIT computes
// for the same pipeline, schedule and target; bad calls return errors with clear messages;
// the generator driver rejects bad command lines; nothing of LLVM is needed at run time.
#include <array>
#include <cstdio>
#include <memory>

#include "../apps/app_generators.h"
#include "RunCommand.h"
#include "TestUtil.h"
#include "brighten_host.h"
#include "brighten_x86_64_avx2.h"
#include "brighten_x86_64_avx512.h"
#include "brighten_x86_64_sse41.h"
#include "blur_range.h"
#include "cnn_block_blocked.h"
#include "cnn_block_sliding_blocked.h"
#include "cnn_block_breadth_first.h"
#include "cnn_block_fused.h"
#include "conv_relu_host.h"
#include "conv_relu_x86_64_avx2.h"
#include "conv_relu_x86_64_avx512.h"
#include "conv_relu_x86_64_sse41.h"
#include "runtime/HaloBuffer.h"

using namespace halo;

namespace {

using halo_test::run_command;

std::string last_error;
void capture(void *, const char *msg) { last_error = msg; }

struct Variant {
    const char *target;
    int32_t (*conv)(halo_buffer_t *, halo_buffer_t *);
    int32_t (*brighten)(halo_buffer_t *, float, int32_t, halo_buffer_t *);
};
const Variant variants[] = {
    {"host", conv_relu_host, brighten_host},
    {"x86-64-sse41", conv_relu_x86_64_sse41, brighten_x86_64_sse41},
    {"x86-64-avx2", conv_relu_x86_64_avx2, brighten_x86_64_avx2},
    {"x86-64-avx512", conv_relu_x86_64_avx512, brighten_x86_64_avx512},
};

}  // namespace

TEST_CASE("AOT conv_relu equals the JIT bit for bit on every target this machine runs") {
    Buffer<float> in(std::vector<int>{53, 38, 3}, "in");
    halo_test::fill_random(in, -1, 1, 11);
    for (const Variant &v : variants) {
        Target t = Target::parse(v.target);
        if (!t.supported_by_host()) continue;
        INFO("target " << v.target);
        apps::ConvReluGenerator g;
        Func f = g.build();
        g.input.set(in);
        f.compile_jit(t);
        Buffer<float> jit = f.realize({51, 36, 10});
        Buffer<float> aot(std::vector<int>{51, 36, 10});
        aot::BufferRef ai(in), ao(aot);
        REQUIRE(v.conv(ai, ao) == 0);
        CHECK(halo_test::compare(aot, jit).empty());
    }
}

TEST_CASE("AOT brighten with scalar inputs equals the JIT bit for bit, with non-zero mins") {
    Buffer<uint8_t> in(std::vector<int>{77, 20}, "in");
    in.set_min(-5, 3);
    halo_test::fill_random(in, 0, 255, 12);
    for (const Variant &v : variants) {
        Target t = Target::parse(v.target);
        if (!t.supported_by_host()) continue;
        INFO("target " << v.target);
        apps::BrightenGenerator g;
        g.set_param("vector_width", "32");
        Func f = g.build();
        g.input.set(in);
        g.gain.set(1.7f);
        g.offset.set(-20);
        f.compile_jit(t);
        Buffer<uint8_t> jit(std::vector<int>{70, 18});
        jit.set_min(-3, 4);
        f.realize(jit);
        Buffer<uint8_t> aot(std::vector<int>{70, 18});
        aot.set_min(-3, 4);
        aot::BufferRef ai(in), ao(aot);
        REQUIRE(v.brighten(ai, 1.7f, -20, ao) == 0);
        CHECK(halo_test::compare(aot, jit).empty());
    }
}

TEST_CASE("AOT of a generator with two Outputs, one Tuple-valued: one buffer per value, equal to the JIT") {
    Buffer<uint8_t> in(std::vector<int>{45, 31}, "in");
    in.set_min(-3, 2);
    halo_test::fill_random(in, 0, 255, 14);
    apps::BlurRangeGenerator g;
    std::vector<Func> outs = g.build_outputs();
    REQUIRE(outs.size() == 2);
    g.input.set(in);
    Pipeline jit_pipeline(outs);
    Buffer<uint16_t> blurred(40, 27), aot_blurred(40, 27);
    Buffer<uint8_t> lo(40, 27), hi(40, 27), aot_lo(40, 27), aot_hi(40, 27);
    for (auto *b : {&blurred, &aot_blurred}) b->set_min(-1, 4);
    for (auto *b : {&lo, &hi, &aot_lo, &aot_hi}) b->set_min(-1, 4);
    jit_pipeline.realize(Realization(blurred, lo, hi));
    aot::BufferRef ai(in), ab(aot_blurred), al(aot_lo), ah(aot_hi);
    // The header names the Tuple's buffers range_0 and range_1, after the blurred output.
    REQUIRE(blur_range(ai, ab, al, ah) == 0);
    CHECK(halo_test::compare(aot_blurred, blurred).empty());
    CHECK(halo_test::compare(aot_lo, lo).empty());
    CHECK(halo_test::compare(aot_hi, hi).empty());
    // And both against plain C++.
    int bad = 0;
    for (int y = 4; y < 31; y++) {
        for (int x = -1; x < 39; x++) {
            int total = 0, mn = 255, mx = 0;
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int v = in(x + dx, y + dy);
                    total += v;
                    mn = std::min(mn, v);
                    mx = std::max(mx, v);
                }
            }
            bad += aot_blurred(x, y) != total || aot_lo(x, y) != mn || aot_hi(x, y) != mx;
        }
    }
    CHECK(bad == 0);
    // A Tuple's buffers of different shapes are an error, named.
    Buffer<uint8_t> short_hi(39, 27);
    short_hi.set_min(-1, 4);
    aot::BufferRef sh(short_hi);
    last_error.clear();
    halo_error_handler_t previous = halo_set_error_handler(capture);
    CHECK(blur_range(ai, ab, al, sh) == halo_error_code_access_out_of_bounds);
    halo_set_error_handler(previous);
    CHECK(halo_test::contains(last_error, "the output buffers of Tuple-valued Func 'range' must cover the same region"));
}

TEST_CASE("AOT cnn_block equals the JIT bit for bit under each schedule") {
    struct Lib {
        const char *schedule;
        int32_t (*fn)(halo_buffer_t *, halo_buffer_t *);
        bool channels_first;
    } libs[] = {{"breadth_first", cnn_block_breadth_first, false},
                {"fused", cnn_block_fused, false},
                {"blocked", cnn_block_blocked, true},
                {"sliding_blocked", cnn_block_sliding_blocked, true}};
    // Larger than the fused schedule's 32x32 tiles (ShiftInwards needs that of the output).
    const int C = 32, W = 37, H = 33;
    for (auto &lib : libs) {
        INFO("schedule " << std::string(lib.schedule));
        std::vector<int> in_shape = lib.channels_first ? std::vector<int>{C, 2 * W + 4, 2 * H + 4}
                                                       : std::vector<int>{2 * W + 4, 2 * H + 4, C};
        std::vector<int> out_shape = lib.channels_first ? std::vector<int>{C, W, H} : std::vector<int>{W, H, C};
        Buffer<float> in(in_shape);
        halo_test::fill_random(in, -1, 1, 13);
        apps::CnnBlockGenerator g;
        g.set_param("schedule", lib.schedule);
        if (std::string(lib.schedule) == "fused") {
            g.set_param("tile_w", "32");
            g.set_param("tile_h", "32");
        }
        if (std::string(lib.schedule) == "sliding_blocked") g.set_param("tile_h", "16");  // 33 rows: 3 strips
        Func f = g.build();
        g.input.set(in);
        Buffer<float> jit = f.realize(out_shape);
        Buffer<float> aot(out_shape);
        aot::BufferRef ai(in), ao(aot);
        REQUIRE(lib.fn(ai, ao) == 0);
        CHECK(halo_test::compare(aot, jit).empty());
    }
}

TEST_CASE("the _with_context entry point computes the same, keeps intermediates in its arena, and reports errors to it alone") {
    // cnn_block breadth-first realizes its convolutions at root: intermediates a context keeps.
    const int C = 32, W = 20, H = 12;
    Buffer<float> in(2 * W + 4, 2 * H + 4, C);
    halo_test::fill_random(in, -1, 1, 5);
    Buffer<float> plain(W, H, C), with(W, H, C), with_null(W, H, C);
    aot::BufferRef ai(in), po(plain), wo(with), no(with_null);
    REQUIRE(cnn_block_breadth_first(ai, po) == 0);
    aot::Context ctx;
    CHECK(ctx.arena_bytes() == 0);
    REQUIRE(cnn_block_breadth_first_with_context(ctx, ai, wo) == 0);
    int64_t held = ctx.arena_bytes();
    CHECK(held > int64_t(2) * W * H * C * 4);  // at least the two convolutions' outputs
    REQUIRE(cnn_block_breadth_first_with_context(ctx, ai, wo) == 0);
    CHECK(ctx.arena_bytes() == held);  // the second call reused them
    REQUIRE(cnn_block_breadth_first_with_context(nullptr, ai, no) == 0);
    CHECK(halo_test::compare(with, plain).empty());
    CHECK(halo_test::compare(with_null, plain).empty());
    CHECK(ctx.last_error().empty());

    // A call too large for its input: the context gets the message, the process-wide handler
    // nothing.
    last_error.clear();
    halo_error_handler_t previous = halo_set_error_handler(capture);
    Buffer<float> too_big(W + 5, H, C);
    aot::BufferRef tb(too_big);
    CHECK(cnn_block_breadth_first_with_context(ctx, ai, tb) == halo_error_code_access_out_of_bounds);
    halo_set_error_handler(previous);
    CHECK(halo_test::contains(ctx.last_error(), "input 'input' covers dimension 0 in [0, 43]"));
    CHECK(last_error.empty());

    // The arena's policy holds for AOT calls too: after HALO_ARENA_KEEP_CALLS calls at a small
    // size, the large size's buffers are gone; release_memory() frees the rest.
    Buffer<float> small_out(16, 2, C);  // the output is split by 16 with ShiftInwards
    aot::BufferRef so(small_out);
    for (int i = 0; i < HALO_ARENA_KEEP_CALLS + 1; i++) {
        INFO(ctx.last_error());
        REQUIRE(cnn_block_breadth_first_with_context(ctx, ai, so) == 0);
    }
    CHECK(ctx.arena_bytes() < held / 2);
    ctx.release_memory();
    CHECK(ctx.arena_bytes() == 0);
}

TEST_CASE("a context's own error handler receives the context and its user pointer") {
    struct Seen {
        int calls = 0;
        std::string message;
    } seen;
    aot::Context ctx;
    ctx.set_error_handler([](void *user_context, const char *msg) {
        auto *s = static_cast<Seen *>(static_cast<halo_context_t *>(user_context)->user);
        s->calls++;
        s->message = msg;
    }, &seen);
    std::vector<float> in(10 * 30 * 3), out(40 * 30 * 10);
    aot::BufferRef i(in.data(), {10, 30, 3}), o(out.data(), {40, 30, 10});
    CHECK(conv_relu_host_with_context(ctx, i, o) == halo_error_code_access_out_of_bounds);
    CHECK(seen.calls == 1);
    CHECK(halo_test::contains(seen.message, "needs [0, 41]"));
    CHECK(ctx.last_error().empty());
}

TEST_CASE("bad calls return an error code and a message, and touch no memory") {
    halo_set_error_handler(capture);
    std::vector<float> out(40 * 30 * 10);
    std::vector<float> small(10 * 30 * 3);
    aot::BufferRef o(out.data(), {40, 30, 10});
    // Input too small: 10 wide, but a 40-wide output needs 42.
    last_error.clear();
    aot::BufferRef s(small.data(), {10, 30, 3});
    CHECK(conv_relu_host(s, o) == halo_error_code_access_out_of_bounds);
    CHECK(last_error.find("input 'input' covers dimension 0 in [0, 9]") != std::string::npos);
    CHECK(last_error.find("needs [0, 41]") != std::string::npos);
    // Null buffer.
    last_error.clear();
    CHECK(conv_relu_host(nullptr, o) == halo_error_code_null_buffer);
    CHECK(last_error.find("'input'") != std::string::npos);
    // Wrong element type.
    std::vector<int32_t> ints(42 * 32 * 3);
    aot::BufferRef wrong(ints.data(), {42, 32, 3});
    last_error.clear();
    CHECK(conv_relu_host(wrong, o) == halo_error_code_bad_type);
    CHECK(last_error.find("int32") != std::string::npos);
    CHECK(last_error.find("float32") != std::string::npos);
    // Wrong dimension count.
    std::vector<float> flat(42 * 32);
    aot::BufferRef two_d(flat.data(), {42, 32});
    last_error.clear();
    CHECK(conv_relu_host(two_d, o) == halo_error_code_bad_dimensions);
    CHECK(last_error.find("2 dimensions") != std::string::npos);
    halo_set_error_handler(nullptr);
}

namespace {

// A conv_relu call with broken arguments: its return code, the message it reported, and
// whether it left the output memory alone.
struct BadCall {
    std::vector<float> in = std::vector<float>(42 * 32 * 3, 0.5f);
    std::vector<float> out = std::vector<float>(40 * 30 * 10, -7.0f);
    aot::BufferRef input{in.data(), {42, 32, 3}};
    aot::BufferRef output{out.data(), {40, 30, 10}};

    int32_t call(halo_buffer_t *i, halo_buffer_t *o) {
        last_error.clear();
        halo_error_handler_t previous = halo_set_error_handler(capture);
        int32_t rc = conv_relu_host(i, o);
        halo_set_error_handler(previous);
        return rc;
    }
    bool output_untouched() const {
        for (float v : out) {
            if (v != -7.0f) return false;
        }
        return true;
    }
};

bool reported(const std::string &part) { return last_error.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("AOT: the well-formed call of the bad-call tests succeeds") {
    BadCall c;
    CHECK(c.call(c.input, c.output) == 0);
    CHECK(last_error.empty());
    CHECK_FALSE(c.output_untouched());
}

TEST_CASE("AOT: a null output buffer is reported by name") {
    BadCall c;
    CHECK(c.call(c.input, nullptr) == halo_error_code_null_buffer);
    CHECK_MESSAGE(reported("buffer 'output' is null"), last_error);
}

TEST_CASE("AOT: an input with no host memory is reported by name") {
    BadCall c;
    c.input.get()->host = nullptr;
    CHECK(c.call(c.input, c.output) == halo_error_code_null_buffer);
    CHECK_MESSAGE(reported("buffer 'input' is null (or has no host memory)"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an input with a null dim array is reported, not dereferenced") {
    BadCall c;
    c.input.get()->dim = nullptr;
    CHECK(c.call(c.input, c.output) == halo_error_code_null_buffer);
    CHECK_MESSAGE(reported("buffer 'input' has 3 dimensions but its dim array is NULL"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an output with a null dim array is reported, not dereferenced") {
    BadCall c;
    c.output.get()->dim = nullptr;
    CHECK(c.call(c.input, c.output) == halo_error_code_null_buffer);
    CHECK_MESSAGE(reported("buffer 'output' has 3 dimensions but its dim array is NULL"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an input of the wrong element type is reported with both types") {
    BadCall c;
    c.input.get()->type_code = halo_type_int;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_type);
    CHECK_MESSAGE(reported("buffer 'input' has element type int32, but the pipeline expects float32"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an element type code that is no type is reported as invalid, not as another type") {
    BadCall c;
    c.input.get()->type_code = 7;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_type);
    CHECK_MESSAGE(reported("buffer 'input' has element type an invalid type (type_code 7, 32 bits), but the pipeline "
                           "expects float32"),
                  last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an output with the wrong number of dimensions is reported") {
    BadCall c;
    c.output.get()->dimensions = 2;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_dimensions);
    CHECK_MESSAGE(reported("buffer 'output' has 2 dimensions, but the pipeline expects 3"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: a negative extent in an input is a bad-extent error naming the dimension") {
    BadCall c;
    c.input.get()->dim[1].extent = -32;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_extent);
    CHECK_MESSAGE(reported("buffer 'input' has extent -32 in dimension 1: extents must be 0 or more"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: a negative extent in the output is a bad-extent error naming the dimension") {
    BadCall c;
    c.output.get()->dim[2].extent = -10;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_extent);
    CHECK_MESSAGE(reported("buffer 'output' has extent -10 in dimension 2: extents must be 0 or more"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: a last coordinate past 32 bits is a bad-extent error") {
    BadCall c;
    c.input.get()->dim[0].min = 2147483620;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_extent);
    CHECK_MESSAGE(reported("buffer 'input' has min 2147483620 and extent 42 in dimension 0: its last coordinate "
                           "2147483661 does not fit in 32 bits"),
                  last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an input whose dimension 0 is not dense is a bad-stride error") {
    BadCall c;
    c.input.get()->dim[0].stride = 3;
    CHECK(c.call(c.input, c.output) == halo_error_code_bad_stride);
    CHECK_MESSAGE(reported("buffer 'input' has stride 3 in dimension 0"), last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: an input too small for the output is reported with the regions") {
    BadCall c;
    c.input.get()->dim[1].extent = 20;  // a 30-row output needs 32 rows
    CHECK(c.call(c.input, c.output) == halo_error_code_access_out_of_bounds);
    CHECK_MESSAGE(reported("input 'input' covers dimension 1 in [0, 19], but producing output 'output' needs [0, 31] of it"),
                  last_error);
    CHECK(c.output_untouched());
}

TEST_CASE("AOT: broken buffers with scalar arguments are reported too") {
    std::vector<uint8_t> in(16 * 8, 10), out(16 * 8, 99);
    aot::BufferRef i(in.data(), {16, 8}), o(out.data(), {16, 8});
    halo_error_handler_t previous = halo_set_error_handler(capture);
    last_error.clear();
    i.get()->dim = nullptr;
    CHECK(brighten_host(i, 1.5f, 3, o) == halo_error_code_null_buffer);
    CHECK_MESSAGE(last_error.find("buffer 'input' has 2 dimensions but its dim array is NULL") != std::string::npos,
                  last_error);
    last_error.clear();
    aot::BufferRef i2(in.data(), {16, 8});
    o.get()->dim[0].extent = -1;
    CHECK(brighten_host(i2, 1.5f, 3, o) == halo_error_code_bad_extent);
    CHECK_MESSAGE(last_error.find("buffer 'output' has extent -1 in dimension 0") != std::string::npos, last_error);
    halo_set_error_handler(previous);
    for (uint8_t v : out) CHECK(v == 99);
}

TEST_CASE("AOT: an output sharing memory with its input is refused, and nothing is written") {
    // The call a review found computing wrong values with return code 0: brighten in place.
    std::vector<uint8_t> mem(67 * 5);
    for (size_t i = 0; i < mem.size(); i++) mem[i] = uint8_t(i % 50);
    const std::vector<uint8_t> before = mem;
    aot::BufferRef same_in(mem.data(), {67, 5}), same_out(mem.data(), {67, 5});
    halo_error_handler_t previous = halo_set_error_handler(capture);
    last_error.clear();
    CHECK(brighten_host(same_in, 1.5f, 3, same_out) == halo_error_code_buffers_overlap);
    CHECK_MESSAGE(reported("output 'output' shares memory with input 'input'"), last_error);
    CHECK(mem == before);
    // The output one row into the input overlaps it too.
    aot::BufferRef top(mem.data(), {67, 4}), shifted(mem.data() + 67, {67, 4});
    last_error.clear();
    CHECK(brighten_host(top, 1.5f, 3, shifted) == halo_error_code_buffers_overlap);
    CHECK_MESSAGE(reported("output 'output' shares memory with input 'input'"), last_error);
    CHECK(mem == before);
    // The next rows, disjoint from the input's, are fine.
    aot::BufferRef rows_0_1(mem.data(), {67, 2}), rows_2_3(mem.data() + 2 * 67, {67, 2});
    last_error.clear();
    CHECK(brighten_host(rows_0_1, 1.5f, 3, rows_2_3) == 0);
    CHECK(last_error.empty());
    halo_set_error_handler(previous);
}

TEST_CASE("the generator driver's errors") {
    std::string exe = HALO_APP_GENERATORS;
    auto [rc1, out1] = run_command(exe + " -g no_such -o /tmp");
    CHECK(rc1 != 0);
    CHECK(out1.find("Unknown generator 'no_such'") != std::string::npos);
    CHECK(out1.find("conv_relu") != std::string::npos);
    auto [rc2, out2] = run_command(exe + " -g conv_relu -o /tmp no_such_param=3");
    CHECK(rc2 != 0);
    CHECK(out2.find("Unknown generator parameter 'no_such_param'") != std::string::npos);
    CHECK(out2.find("vector_width") != std::string::npos);
    auto [rc3, out3] = run_command(exe + " -g conv_relu -o /tmp vector_width=wide");
    CHECK(rc3 != 0);
    CHECK(out3.find("'vector_width' is an integer") != std::string::npos);
    auto [rc4, out4] = run_command(exe + " -g conv_relu -o /tmp target=arm-neon");
    CHECK(rc4 != 0);
    CHECK(out4.find("Unknown target 'arm-neon'") != std::string::npos);
    auto [rc5, out5] = run_command(exe + " --help");
    CHECK(rc5 == 0);
    CHECK(out5.find("brighten") != std::string::npos);
    CHECK(out5.find("vector_width") != std::string::npos);
}

TEST_CASE("the driver emits the loop nest, LLVM IR, assembly and the redundancy report") {
    std::string exe = HALO_APP_GENERATORS;
    auto [rc, out] = run_command(exe + " -g conv_relu -o " + std::string(HALO_TEST_TMP) +
                                 " -f conv_all -e static_library,h,o,stmt,ll,s,report -r 64x48x10 target=x86-64-avx2");
    INFO(out);
    REQUIRE(rc == 0);
    for (const char *ext : {".h", ".o", ".stmt", ".ll", ".s", ".report.txt"}) {
        FILE *f = std::fopen((std::string(HALO_TEST_TMP) + "/conv_all" + ext).c_str(), "r");
        CHECK_MESSAGE(f != nullptr, ext);
        if (f) std::fclose(f);
    }
}

TEST_CASE("an AOT program runs with no LLVM library loaded") {
    auto [rc, out] = run_command(std::string("ldd ") + HALO_AOT_STANDALONE);
    REQUIRE(rc == 0);
    CHECK(out.find("LLVM") == std::string::npos);
    auto [rc2, out2] = run_command(HALO_AOT_STANDALONE);
    CHECK(rc2 == 0);
    CHECK(out2.find("rc=0") != std::string::npos);
    // The library itself defines only the pipeline and needs only the runtime and libc/libm.
    auto [rc3, syms] = run_command(std::string("nm -u ") + HALO_CONV_RELU_LIB);
    CHECK(rc3 == 0);
    CHECK(syms.find("llvm") == std::string::npos);
    CHECK(syms.find("halo_") != std::string::npos);
}
