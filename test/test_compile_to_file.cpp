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
