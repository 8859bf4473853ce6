// Halide's Func::compile_to_* forms (as in Halide's tutorial lesson 10): the files each names,
// and a static library that a separate program, compiled here with the system compiler, links
// with only the runtime library and calls.
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "RunCommand.h"
#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

using halo_test::run_command;

std::string tmp_dir() {
    std::string dir = std::string(HALO_TEST_TMP) + "/compile_to_file";
    std::string cmd = "mkdir -p '" + dir + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return dir;
}

std::string read_file(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Compiles dir/main.cpp against the static library prefix.a and the runtime, runs it, and
// checks that it exits with 0 and prints "ok".
void link_and_run(const std::string &dir, const std::string &main, const std::string &prefix) {
    std::string cmd = "c++ -std=c++17 -I'" + dir + "' -I'" + HALO_SOURCE_DIR + "' -I'" + HALO_SOURCE_DIR + "/runtime' '" + dir +
                      "/" + main + ".cpp' '" + prefix + ".a' '" + HALO_RUNTIME_LIB + "' -lpthread " + HALO_PROGRAM_LINK_FLAGS +
                      " -o '" + dir + "/" + main + "'";
    auto [rc, out] = run_command(cmd);
    REQUIRE_MESSAGE(rc == 0, out);
    auto [run_rc, run_out] = run_command("'" + dir + "/" + main + "'");
    CHECK_MESSAGE(run_rc == 0, run_out);
    CHECK(contains(run_out, "ok"));
}

// Halide's lesson 10 pipeline: brighten a uint8 image by a Param.
struct Brighter {
    ImageParam input{UInt(8), 2, "input"};
    Param<uint8_t> offset{"offset"};
    Var x{"x"}, y{"y"};
    Func brighter{"brighter"};
    Brighter() {
        brighter(x, y) = input(x, y) + offset;
        brighter.vectorize(x, 16).parallel(y);
    }
};

}  // namespace

TEST_CASE("compile_to_static_library writes prefix.a and prefix.h that a C++ program links and calls") {
    Brighter b;
    std::string dir = tmp_dir(), prefix = dir + "/lesson_10_halo";
    std::remove((prefix + ".a").c_str());
    b.brighter.compile_to_static_library(prefix, {b.input, b.offset}, "brighter");
    std::string header = read_file(prefix + ".h");
    CHECK(contains(header, "int32_t brighter(halo_buffer_t *input /* uint8, 2-D */, uint8_t offset, halo_buffer_t *"));
    std::ofstream(dir + "/lesson_10_main.cpp") << R"(
#include <cstdio>
#include "lesson_10_halo.h"
#include "runtime/HaloBuffer.h"
int main() {
    uint8_t in[37 * 11], out[37 * 11];
    for (int i = 0; i < 37 * 11; i++) in[i] = uint8_t(i * 7);
    halo::aot::BufferRef ib(in, {37, 11}), ob(out, {37, 11});
    if (brighter(ib, 5, ob) != 0) return 2;
    for (int i = 0; i < 37 * 11; i++) {
        if (out[i] != uint8_t(in[i] + 5)) { std::printf("wrong at %d\n", i); return 1; }
    }
    std::printf("ok\n");
    return 0;
}
)";
    link_and_run(dir, "lesson_10_main", prefix);
}

TEST_CASE("a static library embeds the Buffers the algorithm uses, a 0-dimensional one too") {
    // The library carries the Buffers' contents: a scalar (0-D) Buffer's one element was left
    // out (zeros), where the JIT read it.
    Buffer<int32_t> scale(std::vector<int>{}, "scale");
    scale() = 7;
    Buffer<int32_t> table(std::vector<int>{5}, "table");
    table.set_min({-2});
    for (int i = -2; i < 3; i++) table(i) = 100 * i;
    Var x("x");
    Func f("f");
    f(x) = x * scale(std::vector<Expr>{}) + table(clamp(x, -2, 2));
    Buffer<int32_t> jit = f.realize({6});
    for (int i = 0; i < 6; i++) REQUIRE(jit(i) == i * 7 + 100 * std::min(i, 2));
    std::string dir = tmp_dir(), prefix = dir + "/embedded_halo";
    std::remove((prefix + ".a").c_str());
    f.compile_to_static_library(prefix, {}, "embedded");
    std::ofstream(dir + "/embedded_main.cpp") << R"(
#include <algorithm>
#include <cstdio>
#include "embedded_halo.h"
#include "runtime/HaloBuffer.h"
int main() {
    int32_t out[6];
    halo::aot::BufferRef ob(out, {6});
    if (embedded(ob) != 0) return 2;
    for (int i = 0; i < 6; i++) {
        if (out[i] != i * 7 + 100 * std::min(i, 2)) { std::printf("wrong at %d: %d\n", i, out[i]); return 1; }
    }
    std::printf("ok\n");
    return 0;
}
)";
    link_and_run(dir, "embedded_main", prefix);
}

TEST_CASE("compile_to_file, _object, _header, _assembly, _llvm_assembly, _bitcode and _lowered_stmt write their files") {
    Brighter b;
    std::string dir = tmp_dir();
    b.brighter.compile_to_file(dir + "/pair", {b.input, b.offset});  // the Func's name
    CHECK(contains(read_file(dir + "/pair.h"), "int32_t brighter("));
    CHECK(read_file(dir + "/pair.o").substr(0, 4) == "\x7f" "ELF");
    b.brighter.compile_to_object(dir + "/only.o", {b.input, b.offset}, "only_object");
    CHECK(contains(read_file(dir + "/only.o"), "only_object"));
    b.brighter.compile_to_header(dir + "/only.h", {b.input, b.offset}, "only_header");
    CHECK(contains(read_file(dir + "/only.h"), "int32_t only_header(halo_buffer_t *input /* uint8, 2-D */, uint8_t offset"));
    b.brighter.compile_to_assembly(dir + "/b.s", {b.input, b.offset}, "asm_brighter");
    CHECK(contains(read_file(dir + "/b.s"), "asm_brighter:"));
    b.brighter.compile_to_llvm_assembly(dir + "/b.ll", {b.input, b.offset});
    CHECK(contains(read_file(dir + "/b.ll"), "define"));
    CHECK(contains(read_file(dir + "/b.ll"), "@brighter("));
    b.brighter.compile_to_bitcode(dir + "/b.bc", {b.input, b.offset}, Target::host());
    CHECK(read_file(dir + "/b.bc").substr(0, 4) == "BC\xc0\xde");
    b.brighter.compile_to_lowered_stmt(dir + "/b.stmt", {b.input, b.offset});
    CHECK(contains(read_file(dir + "/b.stmt"), "brighter"));
    b.brighter.compile_to_lowered_stmt(dir + "/b.html", {b.input, b.offset}, HTML);
    std::string html = read_file(dir + "/b.html");
    CHECK(contains(html, "<pre>"));
    CHECK(!contains(html.substr(html.find("<pre>") + 5), "<<"));
}

TEST_CASE("compile_to_static_library without an argument the pipeline reads names it") {
    Brighter b;
    std::string dir = tmp_dir();
    std::string msg = compile_error_of([&] { b.brighter.compile_to_static_library(dir + "/missing", {b.input}); });
    CHECK(contains(msg, "The pipeline reads 'offset', which is not one of the function's arguments"));
}

TEST_CASE("compile_to_* with another parameter of the same name but a different type says so") {
    Brighter b;
    Param<int> impostor("offset");
    std::string dir = tmp_dir();
    std::string msg = compile_error_of([&] { b.brighter.compile_to_header(dir + "/impostor.h", {b.input, impostor}); });
    CHECK(contains(msg, "Argument 'offset' does not match what the pipeline reads under that name: a scalar (Param) "
                        "of type uint8, but the argument is a scalar of type int32"));
}

// Parameter names come from the user's Params, ImageParams and Funcs: the header must compile
// whatever they are (Halide's header renames them too), and the runtime library must export
// only halo_ names, so that a program's own gcd() or modulo() links beside it.
TEST_CASE("a header compiles whatever the arguments are named, and the runtime exports only halo_ names") {
    ImageParam in(Int(32), 1, "int");
    Param<int> ctx("context"), spaced("my input"), digit("2x"), reserved("__k");
    Func f("f.out");
    Var x("x");
    f(x) = in(x) * ctx + spaced - digit + reserved;
    std::string dir = tmp_dir(), prefix = dir + "/odd_names";
    f.compile_to_static_library(prefix, {in, ctx, spaced, digit, reserved, ctx}, "odd_names");
    std::string header = read_file(prefix + ".h");
    CHECK(contains(header, "int32_t odd_names(halo_buffer_t *int_ /* int32, 1-D */, int32_t context_, int32_t my_input, "
                           "int32_t p2x, int32_t p__k, int32_t context__2, halo_buffer_t *f_out /* output, int32, 1-D */);"));
    std::ofstream(dir + "/odd_names_main.cpp") << R"(
#include <cstdio>
#include "odd_names.h"
#include "runtime/HaloBuffer.h"
// The runtime's internal helpers had these names with C linkage: a second definition.
extern "C" int64_t gcd(int64_t a, int64_t b) { return b ? gcd(b, a % b) : a; }
extern "C" int modulo(int a, int b) { return a % b; }
extern "C" int address(int a) { return a; }
extern "C" int param_range_error(int a) { return a; }
int main() {
    int32_t in[5] = {1, 2, 3, 4, 5}, out[5];
    halo::aot::BufferRef ib(in, {5}), ob(out, {5});
    if (odd_names(ib, 3, 10, 4, 1, 3, ob) != 0) return 2;
    for (int i = 0; i < 5; i++) {
        if (out[i] != in[i] * 3 + 10 - 4 + 1) { std::printf("wrong at %d\n", i); return 1; }
    }
    std::printf("ok %d %d\n", int(gcd(12, 18)), modulo(7, 4) + address(0) + param_range_error(0));
    return 0;
}
)";
    link_and_run(dir, "odd_names_main", prefix);
}

// halo::aot::BufferRef describes bool memory as 1-bit elements with explicit dimensions too (it
// said 8-bit uint there, which the pipeline refused), and refuses extents whose strides would
// not fit 32 bits instead of wrapping them.
TEST_CASE("BufferRef of bool memory is a bool buffer either way, and refuses strides past 32 bits") {
    ImageParam flags(Bool(), 1, "flags");
    Func picked("picked");
    Var x("x");
    picked(x) = select(flags(x), 10, 20);
    std::string dir = tmp_dir(), prefix = dir + "/bool_ref";
    picked.compile_to_static_library(prefix, {flags}, "bool_ref");
    std::ofstream(dir + "/bool_ref_main.cpp") << R"(
#include <cstdio>
#include <stdexcept>
#include "bool_ref.h"
#include "runtime/HaloBuffer.h"
int main() {
    bool in[6] = {true, false, false, true, true, false};
    int32_t out[6];
    halo::aot::BufferRef by_extents(in, {6}), by_dims(in, std::vector<halo_dimension_t>{{0, 6, 1, 0}}), ob(out, {6});
    if (bool_ref(by_extents, ob) != 0 || bool_ref(by_dims, ob) != 0) return 2;
    for (int i = 0; i < 6; i++) {
        if (out[i] != (in[i] ? 10 : 20)) { std::printf("wrong at %d\n", i); return 1; }
    }
    try {
        halo::aot::BufferRef huge(in, {65536, 65536, 2});
        return 3;
    } catch (const std::length_error &e) {
        std::printf("%s\n", e.what());
    }
    std::printf("ok\n");
    return 0;
}
)";
    link_and_run(dir, "bool_ref_main", prefix);
}

// Halide's Pipeline::compile_to_*: one function computing every output, each output's buffer
// after the arguments, in the order of the outputs.
TEST_CASE("Pipeline::compile_to_static_library of two outputs writes one function filling both") {
    ImageParam in(Int(16), 1, "in");
    Param<int16_t> k("k");
    Var x("x");
    Func sum("sum"), diff("diff");
    sum(x) = in(x) + in(x + 1) * k;
    diff(x) = cast<int32_t>(sum(x)) - in(x);
    sum.vectorize(x, 8);
    Pipeline p({sum, diff});
    std::string dir = tmp_dir(), prefix = dir + "/two_outputs";
    std::remove((prefix + ".a").c_str());
    p.compile_to_static_library(prefix, {in, k}, "two_outputs");
    std::string header = read_file(prefix + ".h");
    CHECK(contains(header, "int32_t two_outputs(halo_buffer_t *in /* int16, 1-D */, int16_t k, halo_buffer_t *"));
    std::ofstream(dir + "/two_outputs_main.cpp") << R"(
#include <cstdio>
#include "two_outputs.h"
#include "runtime/HaloBuffer.h"
int main() {
    int16_t in[20], s[19];
    int32_t d[19];
    for (int i = 0; i < 20; i++) in[i] = int16_t(i * 3 - 20);
    halo::aot::BufferRef ib(in, {20}), sb(s, {19}), db(d, {19});
    if (two_outputs(ib, 5, sb, db) != 0) return 2;
    for (int i = 0; i < 19; i++) {
        int16_t want = int16_t(in[i] + in[i + 1] * 5);
        if (s[i] != want || d[i] != int32_t(want) - in[i]) { std::printf("wrong at %d\n", i); return 1; }
    }
    std::printf("ok\n");
    return 0;
}
)";
    link_and_run(dir, "two_outputs_main", prefix);
    // The other forms, named by the function given.
    p.compile_to_header(dir + "/two.h", {in, k}, "two_header");
    CHECK(contains(read_file(dir + "/two.h"), "int32_t two_header(halo_buffer_t *in /* int16, 1-D */, int16_t k"));
    p.compile_to_assembly(dir + "/two.s", {in, k}, "two_asm");
    CHECK(contains(read_file(dir + "/two.s"), "two_asm:"));
    p.compile_to_lowered_stmt(dir + "/two.html", {in, k}, HTML);
    std::string html = read_file(dir + "/two.html");
    CHECK(contains(html, "<title>sum, diff</title>"));
    std::string msg = compile_error_of([&] { p.compile_to_file(dir + "/bad", {in, k}, ""); });
    CHECK(contains(msg, "Function name '' cannot be used"));
}

// A C function the test's pipeline calls (HalideExtern_2); the program that links the static
// library brings its own definition of it, which the library calls.
extern "C" int16_t aot_blend(int16_t a, int8_t weight) { return int16_t(a * weight); }
HalideExtern_2(int16_t, aot_blend, int16_t, int8_t);

TEST_CASE("a static library calls the user's C functions by name, from the program that links it") {
    ImageParam in(Int(16), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = aot_blend(in(x), cast<int8_t>(x % 5 - 2)) + 1;
    f.vectorize(x, 8);
    std::string dir = tmp_dir(), prefix = dir + "/extern_call";
    std::remove((prefix + ".a").c_str());
    f.compile_to_static_library(prefix, {in}, "extern_call");
    // The program's aot_blend differs from the test's: the library calls the one it is linked
    // with (and the narrow arguments arrive sign-extended as C passes them).
    std::ofstream(dir + "/extern_call_main.cpp") << R"(
#include <cstdio>
#include "extern_call.h"
#include "runtime/HaloBuffer.h"
extern "C" int16_t aot_blend(int16_t a, int8_t weight) { return int16_t(a * weight - 1000); }
int main() {
    int16_t in[21], out[21];
    for (int i = 0; i < 21; i++) in[i] = int16_t(i * 3 - 20);
    halo::aot::BufferRef ib(in, {21}), ob(out, {21});
    if (extern_call(ib, ob) != 0) return 2;
    for (int i = 0; i < 21; i++) {
        int16_t want = int16_t(int16_t(in[i] * (i % 5 - 2) - 1000) + 1);
        if (out[i] != want) { std::printf("wrong at %d: %d, not %d\n", i, out[i], want); return 1; }
    }
    std::printf("ok\n");
    return 0;
}
)";
    link_and_run(dir, "extern_call_main", prefix);
}
