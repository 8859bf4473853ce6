// The apps' schedules compile to the vector code they ask for. Two silent fallbacks once made
// scheduled apps 4-8x slower while every result stayed right: a vectorized loop run lane by
// lane (conv_avgpool, int16_conv_add) and dense loads turned into gathers (harris). Results
// tests cannot see either, so this looks at the lowered loop nest and the LLVM IR.
#include <regex>
#include <sstream>

#include "TestUtil.h"
#include "../apps/blur.h"
#include "../apps/cnn_block.h"
#include "../apps/conv_variants.h"
#include "../apps/dw_pw.h"
#include "../apps/harris.h"
#include "../apps/unsharp.h"

using namespace halo;

namespace {

// Vectorized loops that the vectorizer left as serial loops over their lanes: a loop named as
// the schedule's lane loops (x_vi of vectorize(x, n); xi of split(x, xo, xi, n).vectorize(xi))
// whose body is not a GuardWithIf tail's guard.
// In the final loop nest a loop over lanes that did vectorize no longer exists.
std::vector<std::string> scalarized_vector_loops(const std::string &stmt, const std::vector<std::string> &lane_loops) {
    std::vector<std::string> found;
    std::istringstream lines(stmt);
    std::string line, previous_loop;
    const std::regex for_line(R"(^\s*for \(([^,]+),)");
    while (std::getline(lines, line)) {
        if (!previous_loop.empty() && line.find("if (likely(") == std::string::npos) found.push_back(previous_loop);
        previous_loop.clear();
        std::smatch m;
        if (std::regex_search(line, m, for_line)) {
            std::string name = m[1];
            for (auto &suffix : lane_loops) {
                if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
                    previous_loop = name;
                }
            }
        }
    }
    return found;
}

void check_vector_code(Func &out, const std::vector<std::string> &lane_loops, const char *what) {
    INFO(std::string(what));
    std::string stmt = out.lowered_stmt();
    auto scalar = scalarized_vector_loops(stmt, lane_loops);
    CHECK_MESSAGE(scalar.empty(), "vectorized loop left serial: " << (scalar.empty() ? "" : scalar[0]));
    std::string ir = out.llvm_ir();
    CHECK_MESSAGE(ir.find("masked.gather") == std::string::npos, "the LLVM IR gathers");
    bool has_vectors = ir.find("x float>") != std::string::npos || ir.find("x i16>") != std::string::npos;
    CHECK_MESSAGE(has_vectors, "no float or int16 vectors in the LLVM IR");
}

}  // namespace

TEST_CASE("the scalarized-loop check finds a serial loop over lanes and skips guarded tails") {
    std::string stmt = "for (f.s1.x_vi, 0, 16) {\n  for (f.s1.r.x, 0, 3) {\n"
                       "for (f.s1.x_vi, 0, 16) {\n  if (likely((f.s1.x_vi <= 3))) {\n";
    auto found = scalarized_vector_loops(stmt, {"_vi"});
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "f.s1.x_vi");
}

TEST_CASE("blur, harris and unsharp schedules vectorize every loop they vectorize, without gathers") {
    {
        apps::Blur a;
        a.schedule_tiled(64, 32, 16);
        check_vector_code(a.blur_y, {"_vi"}, "blur tiled");
    }
    {
        apps::Blur a;
        a.schedule_breadth_first(16);
        check_vector_code(a.blur_y, {".xi", "_vi"}, "blur breadth-first");
    }
    {
        apps::Harris a;
        a.schedule_tiled(64, 32, 16);
        check_vector_code(a.output, {"_vi"}, "harris tiled");
    }
    {
        apps::Harris a;
        a.schedule_breadth_first(16);
        check_vector_code(a.output, {".xi", "_vi"}, "harris breadth-first");
    }
    {
        apps::Unsharp a;
        a.schedule_tiled(64, 32, 16);
        check_vector_code(a.output, {"_vi"}, "unsharp tiled");
    }
}

TEST_CASE("convolution schedules vectorize their updates, without gathers") {
    {
        apps::ConvAvgPool a(5, 6);
        a.schedule_tiled(32, 8, 16);
        check_vector_code(a.pool, {"_vi"}, "conv_avgpool tiled");
    }
    {
        apps::ConvAvgPool a(5, 6);
        a.schedule_breadth_first(16);
        check_vector_code(a.pool, {".xi", "_vi"}, "conv_avgpool breadth-first");
    }
    {
        apps::Int16ConvAdd a;
        a.schedule_tiled(64, 16, 32);
        check_vector_code(a.output, {"_vi"}, "int16_conv_add tiled");
    }
    {
        apps::DepthwisePointwise a(16);
        a.schedule_tiled(8, 4, 8);
        check_vector_code(a.output, {"_vi"}, "dw_pw tiled");
    }
    {
        apps::CnnBlock a(16, apps::CnnBlock::Layout::ChannelsInnermost);
        a.schedule_fused_blocked(4, 3, 8);
        check_vector_code(a.pool, {"_vi"}, "cnn_block fused blocked");
    }
}
