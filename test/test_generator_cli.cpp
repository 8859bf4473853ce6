// Bad command lines for the generator driver (the apps' generator executable): each one exits
// nonzero within a time limit, with the expected error on stderr, and writes nothing.
#include "TestUtil.h"
#include "RunCommand.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

// Generous for a loaded machine; the checks come before any compiling, so a run that fails
// takes well under a second. A run that hangs (as pyramid_levels=40 once did) is killed.
constexpr int time_limit_seconds = 60;

struct Result {
    int exit_code = -1;  // 124: killed by timeout
    std::string output;
    double seconds = 0;
};

std::string quoted(const std::string &s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs the driver with the arguments (each passed as one word) under timeout.
Result run_driver(const std::vector<std::string> &args) {
    std::string cmd = "timeout " + std::to_string(time_limit_seconds) + " " + quoted(HALO_APP_GENERATORS);
    for (auto &a : args) cmd += " " + quoted(a);
    cmd += " 2>&1";
    Result r;
    auto start = std::chrono::steady_clock::now();
    FILE *p = popen(cmd.c_str(), "r");
    REQUIRE(p);
    std::array<char, 512> buf;
    while (fgets(buf.data(), int(buf.size()), p)) r.output += buf.data();
    int status = pclose(p);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// A fresh, empty output directory.
std::string fresh_dir(const std::string &name) {
    std::string d = "/tmp/halo_test_generator_cli_" + std::to_string(::getpid()) + "_" + name;
    std::string cmd = "rm -rf " + quoted(d);
    REQUIRE(std::system(cmd.c_str()) == 0);
    REQUIRE(::mkdir(d.c_str(), 0700) == 0);
    return d;
}

int files_in(const std::string &dir) {
    DIR *d = ::opendir(dir.c_str());
    if (!d) return -1;
    int n = 0;
    while (dirent *e = ::readdir(d)) {
        std::string name = e->d_name;
        if (name != "." && name != "..") n++;
    }
    ::closedir(d);
    return n;
}

struct BadCommand {
    std::vector<std::string> args;  // after -o DIR
    std::string expected;           // part of the error message
};

// Runs each command line; checks the exit code, the time, the message and that nothing was
// written.
void check_all_fail(const std::string &name, const std::vector<BadCommand> &table) {
    std::string dir = fresh_dir(name);
    for (auto &c : table) {
        std::vector<std::string> args = {"-o", dir};
        args.insert(args.end(), c.args.begin(), c.args.end());
        std::string shown;
        for (auto &a : c.args) shown += " " + quoted(a);
        INFO("command:" << shown);
        Result r = run_driver(args);
        INFO("output: " << r.output);
        CHECK(r.exit_code != 0);
        CHECK(r.exit_code != 124);  // not killed by the time limit
        CHECK(r.seconds < time_limit_seconds);
        CHECK(r.output.rfind("error: ", 0) == 0);
        CHECK(r.output.find(c.expected) != std::string::npos);
        CHECK(files_in(dir) == 0);
    }
    std::string cmd = "rm -rf " + quoted(dir);
    CHECK(std::system(cmd.c_str()) == 0);
}

}  // namespace

TEST_CASE("absurd or malformed GeneratorParam values are refused with the accepted range") {
    check_all_fail("params", {
        {{"-g", "conv_relu", "vector_width=99999999999999999999"},
         "GeneratorParam 'vector_width' is an integer in [1, 64]; '99999999999999999999' is out of range"},
        {{"-g", "conv_relu", "vector_width=-1"}, "GeneratorParam 'vector_width' is an integer in [1, 64]; '-1' is out of range"},
        {{"-g", "conv_relu", "vector_width=8x"}, "GeneratorParam 'vector_width' is an integer in [1, 64]; '8x' is not an integer"},
        {{"-g", "conv_relu", "vector_width="}, "GeneratorParam 'vector_width' is an integer in [1, 64]; '' is not an integer"},
        {{"-g", "brighten", "vector_width=65"}, "GeneratorParam 'vector_width' is an integer in [1, 64]; '65' is out of range"},
        {{"-g", "local_laplacian", "pyramid_levels=40"},
         "GeneratorParam 'pyramid_levels' is an integer in [1, 16]; '40' is out of range"},
        {{"-g", "local_laplacian", "pyramid_levels=0"},
         "GeneratorParam 'pyramid_levels' is an integer in [1, 16]; '0' is out of range"},
        {{"-g", "local_laplacian", "levels=1"}, "GeneratorParam 'levels' is an integer in [2, 64]; '1' is out of range"},
        {{"-g", "local_laplacian", "alpha=nan"}, "'nan' is not a number"},
        {{"-g", "local_laplacian", "beta=1e39"}, "'1e39' is out of range"},
        {{"-g", "cnn_block", "channels=100000"}, "GeneratorParam 'channels' is an integer in [1, 256]; '100000' is out of range"},
        {{"-g", "cnn_block", "tile_w=0"}, "GeneratorParam 'tile_w' is an integer in [1, 1024]; '0' is out of range"},
        {{"-g", "blur", "tile_h=5000"}, "GeneratorParam 'tile_h' is an integer in [1, 1024]; '5000' is out of range"},
        {{"-g", "harris", "vector_width=0"}, "GeneratorParam 'vector_width' is an integer in [1, 64]; '0' is out of range"},
    });
}

TEST_CASE("report sizes are parsed strictly and bounded") {
    check_all_fail("sizes", {
        {{"-g", "conv_relu", "-e", "report", "-r", "2000000000x2000000000"},
         "-r '2000000000x2000000000': extent 2000000000 is out of range; each extent must be in [1, 1073741824]"},
        {{"-g", "conv_relu", "-e", "report", "-r", "65536x65536x1"},
         "-r '65536x65536x1': the output would have more than 2147483647 points"},
        {{"-g", "conv_relu", "-e", "report", "-r", "99999999999999999999x1x1"},
         "extent 99999999999999999999 is out of range"},
        {{"-g", "conv_relu", "-e", "report", "-r", "0x48x10"}, "-r '0x48x10': extent 0 is out of range"},
        {{"-g", "conv_relu", "-e", "report", "-r", "64x-48x10"}, "-r '64x-48x10': '-48' is not a positive whole number"},
        {{"-g", "conv_relu", "-e", "report", "-r", "64xx10"}, "-r '64xx10': '' is not a positive whole number"},
        {{"-g", "conv_relu", "-e", "report", "-r", "64x48x"}, "-r '64x48x': '' is not a positive whole number"},
        {{"-g", "conv_relu", "-e", "report", "-r", ""}, "-r '': '' is not a positive whole number"},
        {{"-g", "conv_relu", "-e", "report", "-r", "64x48"},
         "-r '64x48' gives 2 extents, but the output 'output' of generator 'conv_relu' has 3 dimensions"},
        {{"-g", "conv_relu", "-e", "report"}, "-e report needs the output size: -r WxH[x...]"},
        {{"-g", "conv_relu", "-r", "64x48x10"}, "-r sets the size of the redundancy report, which is not asked for"},
        {{"-g", "blur", "-e", "schedule"}, "-e schedule writes the schedule auto_schedule chooses; add auto_schedule=true"},
        {{"-g", "brighten", "-e", "h", "auto_schedule=true"},
         "Generator output 'output' has no estimates, which auto_schedule=true needs"},
    });
}

TEST_CASE("function names that C cannot declare or that clash are refused") {
    const std::string not_identifier = "cannot be used: it is not a C identifier";
    check_all_fail("names", {
        {{"-g", "conv_relu", "-f", "my-func"}, "Function name 'my-func' " + not_identifier},
        {{"-g", "conv_relu", "-f", "9lives"}, "Function name '9lives' " + not_identifier},
        {{"-g", "conv_relu", "-f", "a b"}, "Function name 'a b' " + not_identifier},
        {{"-g", "conv_relu", "-f", "x.y"}, "Function name 'x.y' " + not_identifier},
        {{"-g", "conv_relu", "-f", "int"}, "Function name 'int' cannot be used: it is a C or C++ keyword"},
        {{"-g", "conv_relu", "-f", "class"}, "Function name 'class' cannot be used: it is a C or C++ keyword"},
        {{"-g", "conv_relu", "-f", "main"}, "Function name 'main' cannot be used: it would clash with the program's main()"},
        {{"-g", "conv_relu", "-f", "halo_malloc"},
         "Function name 'halo_malloc' cannot be used: names starting with 'halo_' are reserved for the Halo runtime"},
        {{"-g", "conv_relu", "-f", "halo_conv"}, "names starting with 'halo_' are reserved for the Halo runtime"},
        {{"-g", "conv_relu", "-f", "__conv"}, "reserved for the C implementation"},
        {{"-g", "conv_relu", "-f", "_Conv"}, "reserved for the C implementation"},
        {{"-g", "conv_relu", "-f", ""}, "-f needs a function name; it was given ''"},
    });
}

TEST_CASE("an output list that asks for nothing, or for something unknown, is refused") {
    check_all_fail("emit", {
        {{"-g", "conv_relu", "-e", ""}, "-e '' names no output kind"},
        {{"-g", "conv_relu", "-e", ","}, "-e ',' has an empty output kind"},
        {{"-g", "conv_relu", "-e", "h,,o"}, "-e 'h,,o' has an empty output kind"},
        {{"-g", "conv_relu", "-e", "pdf"}, "Unknown output kind 'pdf' in -e"},
    });
}

TEST_CASE("a missing output directory, a repeated option and a missing value are refused") {
    std::string dir = fresh_dir("plain_file");
    std::string file = dir + "/not_a_dir";
    FILE *f = std::fopen(file.c_str(), "w");
    REQUIRE(f);
    std::fclose(f);
    struct Case {
        std::vector<std::string> args;
        std::string expected;
    } cases[] = {
        {{"-g", "conv_relu", "-o", dir + "/missing"}, "Output directory '" + dir + "/missing' (-o) does not exist"},
        {{"-g", "conv_relu", "-o", file}, "Output directory '" + file + "' (-o) is not a directory"},
        {{"-g", "conv_relu", "-g", "blur", "-o", dir}, "Option -g is given twice ('conv_relu' and 'blur')"},
        {{"-g", "conv_relu", "-o", dir, "-f"}, "Option -f needs a value"},
    };
    for (auto &c : cases) {
        INFO("expected: " << c.expected);
        Result r = run_driver(c.args);
        INFO("output: " << r.output);
        CHECK(r.exit_code != 0);
        CHECK(r.exit_code != 124);
        CHECK(r.output.find("error: " + c.expected) != std::string::npos);
    }
    CHECK(files_in(dir) == 1);  // only the plain file
    std::string cmd = "rm -rf " + quoted(dir);
    CHECK(std::system(cmd.c_str()) == 0);
}

TEST_CASE("a good command line still compiles, with a parameter at the edge of its range") {
    std::string dir = fresh_dir("good");
    Result r = run_driver({"-g", "brighten", "-o", dir, "-f", "bright_edge", "-e", "h", "vector_width=64"});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(files_in(dir) == 1);
    std::string cmd = "rm -rf " + quoted(dir);
    CHECK(std::system(cmd.c_str()) == 0);
}

TEST_CASE("auto_schedule=true schedules the outputs automatically, and -e schedule writes what it chose") {
    std::string dir = fresh_dir("auto");
    Result r = run_driver({"-g", "blur", "-o", dir, "-e", "h,schedule", "auto_schedule=true"});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    std::ifstream in(dir + "/blur.schedule.h");
    std::stringstream text;
    text << in.rdbuf();
    CHECK(text.str().find("// The schedule auto_schedule chose for generator 'blur'") == 0);
    CHECK(text.str().find(".store_at(output, yo).compute_at(output, yi)") != std::string::npos);  // blur slides
    std::string cmd = "rm -rf " + quoted(dir);
    CHECK(std::system(cmd.c_str()) == 0);
}

// The sweep mode's exit status is what a script or halo_add_sweep can check: 0 when every
// variant that ran agrees, 3 when an output differs, 4 when none ran; and halo-sweep refuses
// a program that exits without running a sweep.
TEST_CASE("the sweep's exit status says whether the variants agree and ran") {
    std::string dir = fresh_dir("sweep_status");
    auto sweep = [&](std::vector<std::string> params) {
        std::vector<std::string> args = {"--sweep", "-g", "local_laplacian", "-r", "40x24x3", "--rounds", "1",
                                         "--no-progress", "--csv", dir + "/s.csv", "--png", dir + "/s.png",
                                         "schedule=breadth_first", "pyramid_levels=2"};
        args.insert(args.end(), params.begin(), params.end());
        return run_driver(args);
    };
    Result same = sweep({"levels=4", "vector_width=4,8"});
    INFO(same.output);
    CHECK(same.exit_code == 0);
    Result differ = sweep({"levels=4", "alpha=1,2"});
    INFO(differ.output);
    CHECK(differ.exit_code == 3);
    CHECK(halo_test::contains(differ.output, "error: 1 variant(s) computed outputs that differ from the first variant's"));
    Result none = sweep({"levels=1"});  // below the range: every variant is skipped
    INFO(none.output);
    CHECK(none.exit_code == 4);
    CHECK(halo_test::contains(none.output, "error: no variant ran"));
    Result twice = sweep({"levels=4", "-r", "32x32x3"});
    CHECK(twice.exit_code == 1);
    CHECK(halo_test::contains(twice.output, "error: Option -r is given twice; give it once"));
    std::string cmd = "timeout 60 " + quoted(HALO_SWEEP_EXE) + " /bin/true -g x 2>&1";
    auto [rc, out] = halo_test::run_command(cmd);
    CHECK(rc != 0);
    CHECK(halo_test::contains(out, "error: '/bin/true' exited without running a sweep: is it a generator executable"));
    cmd = "rm -rf " + quoted(dir);
    CHECK(std::system(cmd.c_str()) == 0);
}

// --help lists every value type of a Tuple-valued output (it showed the first one alone).
TEST_CASE("--help lists the generators with every type of their inputs and outputs") {
    Result r = run_driver({"--help"});
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(halo_test::contains(r.output, "output   range                {uint8, uint8} buffer, 2-D"));
    CHECK(halo_test::contains(r.output, "input    gain                 float32"));
    CHECK(halo_test::contains(r.output, "param    tile_w               int in [1, 1024] (default 256)"));
}
