// The automatic schedule (auto_schedule): on every app, at sizes the tiles do not divide, the
// schedule it chooses computes what the plain C++ loops compute; what it chose is said as C++.
#include <cmath>

#include "TestUtil.h"

#include <array>
#include "../apps/blur.h"
#include "../apps/cnn_block.h"
#include "../apps/dw_pw.h"
#include "../apps/harris.h"
#include "../apps/local_laplacian.h"
#include "../apps/unsharp.h"

using namespace halo;

// Tiles' rows are the parallel loop: where the tile height does not divide the estimated rows
// they are GuardWithIf, so no two threads write the same row (ShiftInwards made the last two
// row tiles of a 7-row output in 4-row tiles both write row 3), and an output shorter than a
// tile is served.
TEST_CASE("auto_schedule: tile rows that the estimate does not divide are guarded, not shifted") {
    for (int rows : {7, 3}) {
        Var x("x"), y("y");
        Func in("in"), p("p"), out("out");
        in(x, y) = x * 3 + y * 5;
        p(x, y) = in(x, y) * in(x + 1, y + 1) + in(x + 2, y) * in(x, y + 2);  // fused, not inlined
        out(x, y) = p(x, y) + p(x + 1, y) + p(x, y + 1);
        AutoScheduleResult r = auto_schedule(out, {40, rows});
        INFO(r.source << r.summary);
        if (rows % r.tile_h != 0) CHECK(r.source.find(", TailStrategy::GuardWithIf)") != std::string::npos);
        else CHECK(r.source.find("split(y, yo, yi, " + std::to_string(r.tile_h) + ")") != std::string::npos);
        halo_test::check_against_reference(out, Buffer<int>(40, rows));
    }
}

TEST_CASE("auto_schedule: blur slides blur_x over strips of rows and equals the plain loops") {
    // Strips recompute nothing but each strip's first rows; tiles would recompute their halos.
    // (The schedule for the large estimate has strips of 128 rows: it needs outputs that tall.)
    for (auto [W, H, EW, EH] : {std::array<int, 4>{301, 77, 301, 77}, std::array<int, 4>{301, 133, 6400, 4800}}) {
        apps::Blur app;
        AutoScheduleResult r = auto_schedule(app.blur_y, {EW, EH});
        INFO(r.source << r.summary);
        // 77 rows: the tiles' rows (the parallel loop) are GuardWithIf where the tile height
        // does not divide the estimate, so their last row of tiles no longer recomputes rows
        // and they recompute less than strips there: either may be chosen.
        if (EH % 32 == 0) {
            CHECK(r.source.find("blur_x.store_at(blur_y, yo).compute_at(blur_y, yi)") != std::string::npos);
            CHECK(r.summary.find("stored per strip, computed per row (sliding): blur_x") != std::string::npos);
        }
        CHECK(r.tile_h <= H);
        RedundancyReport report = redundancy_report(app.blur_y, {EW, EH});
        REQUIRE(report.find("blur_x") != nullptr);
        // slides: only each strip's 2 extra rows (and, small, the last strip and vector overlap)
        CHECK(report.find("blur_x")->factor < (EW == 6400 ? 1.07 : 1.25));
        Buffer<uint16_t> in = halo_test::random_image<uint16_t>({W + 2, H + 2}, 3, 0, 65535), out(W, H), expected(W, H);
        apps::Blur::plain(in, expected);
        app.input.set(in);
        app.blur_y.realize(out);
        CHECK(halo_test::compare(out, expected) == "");
    }
}

TEST_CASE("auto_schedule: tiles where strips would not slide (a producer read at rows that do not move with y)") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    ImageParam in(Float(32), 2, "in");
    f(x, y) = (in(x, y) + in(x + 1, y) + in(x, y + 1)) / 3.0f;
    // Every row of g reads rows y and 40 - y of f: the region does not move monotonically.
    g(x, y) = f(x, y) + f(x + 2, 40 - y) + f(x + 1, y);
    AutoScheduleResult r = auto_schedule(g, {64, 40});
    INFO(r.source << r.summary);
    CHECK(r.source.find("store_at") == std::string::npos);
    in.set(halo_test::random_image<float>({67, 83}, 6, 0, 1));
    Buffer<float> out(64, 40);
    halo_test::check_against_reference(g, out);
}

TEST_CASE("auto_schedule: harris and unsharp equal the plain loops") {
    {
        const int W = 133, H = 61;
        apps::Harris app;
        AutoScheduleResult r = auto_schedule(app.output, {W, H});
        INFO(r.source << r.summary);
        Buffer<float> in = halo_test::random_image<float>({W + 4, H + 4}, 7, 0, 1), out(W, H), expected(W, H);
        apps::Harris::plain(in, expected);
        app.input.set(in);
        app.output.realize(out);
        CHECK(halo_test::max_difference(out, expected) < 1e-4);
    }
    {
        const int W = 97, H = 43;
        apps::Unsharp app;
        AutoScheduleResult r = auto_schedule(app.output, {W, H, 3});
        INFO(r.source << r.summary);
        Buffer<float> in = halo_test::random_image<float>({W + 4, H + 4, 3}, 9, 0, 1), out(W, H, 3), expected(W, H, 3);
        apps::Unsharp::plain(in, expected);
        app.input.set(in);
        app.output.realize(out);
        CHECK(halo_test::max_difference(out, expected) < 1e-4);
    }
}

// A memory-bound pipeline streams its input: a Func loading shifted vectors from an input row
// gets 32-byte vectors (64-byte ones took 1.1-1.6x the time from memory on the AVX-512
// machine), where the target's vectors are wider; one with more arithmetic keeps the whole
// register. (On an AVX2 host 32 bytes is the whole register: every check expects it.)
TEST_CASE("auto_schedule: shifted loads from an input row get 32-byte vectors in a memory-bound pipeline only") {
    const Target t = get_host_target();
    auto half_if_wider = [&](int bits) {
        int n = t.natural_vector_size(bits);
        return n * bits > 256 ? n / 2 : n;
    };
    // Whether the source's line that schedules `func` vectorizes it by `lanes`.
    auto vectorized = [](const std::string &source, const std::string &func, int lanes) {
        size_t at = source.find("\n" + func + ".");
        if (at == std::string::npos) return false;
        std::string line = source.substr(at + 1, source.find('\n', at + 1) - at - 1);
        return halo_test::contains(line, ".vectorize(x, " + std::to_string(lanes) + ")");
    };
    {
        // blur: 12 operations per point; blur_x reads in(x), in(x + 1), in(x + 2) of one row.
        apps::Blur app;
        AutoScheduleResult r = auto_schedule(app.blur_y, {6400, 4800});
        INFO(r.source);
        CHECK(vectorized(r.source, "blur_x", half_if_wider(16)));
        CHECK(r.vector_width == t.natural_vector_size(16));  // blur_y reads no input
    }
    {
        // unsharp: 23 operations per point, its blur_x keeps the whole register.
        apps::Unsharp app;
        AutoScheduleResult r = auto_schedule(app.output, {2560, 1920, 3});
        INFO(r.source);
        CHECK(vectorized(r.source, "blur_x", t.natural_vector_size(32)));
    }
    {
        // One stage, shifted reads of uint8 (32 lanes where the register has 64), at a size
        // the vectors do not divide, with non-zero mins, against the reference evaluator.
        ImageParam in(UInt(8), 2, "in");
        Func f("f");
        Var x("x"), y("y");
        f(x, y) = in(x, y) / 2 + in(x + 3, y) / 2;
        AutoScheduleResult r = auto_schedule(f, {1000, 300});
        INFO(r.source);
        CHECK(r.vector_width == half_if_wider(8));
        Buffer<uint8_t> input = halo_test::random_image<uint8_t>({1000 + 3 + 5, 301}, 17, 0, 255);
        input.set_min({-5, -1});
        in.set(input);
        Buffer<uint8_t> out(997, 299);
        out.set_min({-5, -1});
        halo_test::check_against_reference(f, out);
    }
    {
        // Reads of one point per row: no shifted loads, the whole register.
        ImageParam in(UInt(8), 2, "in");
        Func f("f");
        Var x("x"), y("y");
        f(x, y) = in(x, y) / 2 + in(x, y + 1) / 2;
        AutoScheduleResult r = auto_schedule(f, {1000, 300});
        INFO(r.source);
        CHECK(r.vector_width == t.natural_vector_size(8));
    }
    {
        // Through a boundary condition: bx reads the inlined repeat_edge wrapper of the input
        // at three points of a row, each a shifted load of the input. At sizes the vectors do
        // not divide, non-zero input mins and an output at negative coordinates.
        ImageParam in(UInt(16), 2, "in");
        Func clamped = BoundaryConditions::repeat_edge(in);
        Func bx("bx"), by("by");
        Var x("x"), y("y");
        bx(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3;
        by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
        AutoScheduleResult r = auto_schedule(by, {1000, 300});
        INFO(r.source << r.summary);
        CHECK(vectorized(r.source, "bx", half_if_wider(16)));
        CHECK(r.vector_width == t.natural_vector_size(16));  // by reads no input
        Buffer<uint16_t> input = halo_test::random_image<uint16_t>({203, 77}, 19, 0, 65535);
        input.set_min({3, -2});
        in.set(input);
        Buffer<uint16_t> out(601, 45);  // at least a tile wide (512)
        out.set_min({-7, -5});
        halo_test::check_against_reference(by, out);
    }
    {
        // Shifted reads of a small Buffer (a table that stays in the cache): the whole register.
        ImageParam in(UInt(8), 2, "in");
        Buffer<uint8_t> table = halo_test::random_image<uint8_t>({1024}, 5, 0, 255);
        Func f("f");
        Var x("x"), y("y");
        f(x, y) = table(x) / 2 + table(x + 1) / 2 + in(x, y);
        AutoScheduleResult r = auto_schedule(f, {1000, 300});
        INFO(r.source);
        CHECK(r.vector_width == t.natural_vector_size(8));
    }
    {
        // The max and min of a 3x3 window: 16 selections and an add per point, not memory-bound
        // (counted without its selections it would look like 1 operation).
        ImageParam in(UInt(8), 2, "in");
        Func f("f");
        Var x("x"), y("y");
        Expr hi = in(x, y), lo = in(x, y);
        for (int j = 0; j < 3; j++)
            for (int i = 0; i < 3; i++)
                if (i || j) hi = max(hi, in(x + i, y + j)), lo = min(lo, in(x + i, y + j));
        f(x, y) = hi - lo;
        AutoScheduleResult r = auto_schedule(f, {1000, 300});
        INFO(r.source);
        CHECK(r.vector_width == t.natural_vector_size(8));
    }
}

namespace {

// The channels-innermost CNN block of C channels, W x H, scheduled by auto_schedule for
// `estimates`, against the plain loops; returns what auto_schedule chose.
AutoScheduleResult check_cnn_block(int C, int W, int H, const std::vector<int> &estimates, int seed,
                                   double *conv1_factor = nullptr) {
    apps::CnnBlock net(C, apps::CnnBlock::Layout::ChannelsInnermost);
    AutoScheduleResult r = auto_schedule(net.pool, estimates);
    if (conv1_factor) {
        RedundancyReport report = redundancy_report(net.pool, estimates);
        REQUIRE(report.find("conv1") != nullptr);
        *conv1_factor = report.find("conv1")->factor;
    }
    INFO("channels " << C << "\n" << r.source << r.summary);
    Buffer<float> in = halo_test::random_image<float>({C, 2 * W + 4, 2 * H + 4}, seed, -1, 1), out(C, W, H),
                  expected(C, W, H);
    apps::CnnBlock(C, apps::CnnBlock::Layout::ChannelsInnermost).plain(in, expected);
    net.input.set(in);
    net.pool.realize(out);
    CHECK(halo_test::max_difference(out, expected) < 1e-5);
    return r;
}

}  // namespace

TEST_CASE("auto_schedule: the CNN block, channels innermost, is vectorized over channels and tiled over x, y") {
    AutoScheduleResult r = check_cnn_block(16, 27, 19, {16, 27, 19}, 19);
    INFO(r.source << r.summary);
    CHECK(r.summary.find("over x, y, vectorized over c") != std::string::npos);
}

TEST_CASE("auto_schedule: convolutions get register blocks, channel counts the vectors do not divide are right") {
    // 32 channels: two vectors of 16 unrolled times 8 pixels; 24: one vector of 16 and a
    // guarded tail; 8: vectors of 8 (never wider than the channels) times 8 pixels (not 16:
    // their addresses would not fit in the general registers). (This
    // case's name once held a ';', at which CTest cut it: it ran nothing until the names were
    // fixed, and its claim that 8 channels send conv1 to the root had become untrue.)
    for (int C : {32, 24, 8}) {
        double conv1_factor = 0;
        AutoScheduleResult r = check_cnn_block(C, 21, 9, {C, 21, 9}, 5 + C, &conv1_factor);
        INFO("channels " << C << "\n" << r.source << r.summary);
        CHECK(r.source.find("pool.split(c, co, c, " + std::to_string(C) + ")") != std::string::npos);
        CHECK(r.source.find("conv2.update(0).split(c, co, cv, ") != std::string::npos);
        CHECK(r.source.find(".vectorize(cv).") != std::string::npos);
        CHECK(r.source.find(".unroll(xi)") != std::string::npos);
        if (C == 32) CHECK(r.source.find(".split(cv, cu, cv, 16)") != std::string::npos);
        size_t conv2_update = r.source.find("conv2.update(0)");
        REQUIRE(conv2_update != std::string::npos);
        std::string conv2_line = r.source.substr(conv2_update, r.source.find('\n', conv2_update) - conv2_update);
        CHECK(conv2_line.find(".split(x, xo, xi, 8, TailStrategy::GuardWithIf)") != std::string::npos);
        // Fused only where the report says its tiles recompute it at most max_recompute times
        // (8 channels, 9 rows: 4-row tiles whose last is guarded).
        if (r.source.find("conv1.compute_root()") == std::string::npos)
            CHECK(conv1_factor <= AutoScheduleOptions().max_recompute);
    }
}

// The loops a split makes (its 2nd and 3rd arguments, other than the Var it splits) that the
// source uses before declaring them as Var name("name"): the source is C++ to paste, and did not compile when the register
// blocks' loops (xo, xv, xu, yo, yi) went undeclared.
std::vector<std::string> undeclared_split_loops(const std::string &source) {
    std::vector<std::string> missing;
    for (size_t at = source.find(".split("); at != std::string::npos; at = source.find(".split(", at + 1)) {
        size_t open = at + 7, close = source.find(')', open);
        std::vector<std::string> args;
        std::string arg;
        for (size_t i = open; i < close; i++) {
            if (source[i] == ',') args.push_back(arg), arg.clear();
            else if (source[i] != ' ') arg += source[i];
        }
        args.push_back(arg);
        for (size_t k = 1; k < 3 && k < args.size(); k++) {
            if (args[k] == args[0]) continue;  // the split Var's own name, the user's Var
            if (source.rfind(args[k] + "(\"" + args[k] + "\")", at) == std::string::npos) missing.push_back(args[k]);
        }
    }
    return missing;
}

TEST_CASE("auto_schedule: the source declares every loop its splits make") {
    for (auto layout : {apps::CnnBlock::Layout::ChannelsInnermost, apps::CnnBlock::Layout::Planar}) {
        apps::CnnBlock net(16, layout);
        std::vector<int> estimates = net.image_shape(21, 9);
        AutoScheduleResult r = auto_schedule(net.pool, estimates);
        INFO(r.source);
        CHECK(r.source.find(".update(0).split(") != std::string::npos);  // register blocks were made
        CHECK(undeclared_split_loops(r.source).empty());
    }
}

TEST_CASE("auto_schedule: an output with more channels than estimated is computed in several channel tiles") {
    AutoScheduleResult r = check_cnn_block(16, 13, 11, {8, 13, 11}, 3);
    INFO(r.source);
    CHECK(r.source.find("pool.split(c, co, c, 8)") != std::string::npos);
}

TEST_CASE("auto_schedule: the planar CNN block (x innermost) gets register blocks over x and y") {
    const int C = 4, W = 19, H = 11;
    apps::CnnBlock net(C, apps::CnnBlock::Layout::Planar);
    AutoScheduleResult r = auto_schedule(net.pool, {W, H, C});
    INFO(r.source << r.summary);
    CHECK(r.source.find("conv2.update(0).split(x, xo, xv, ") != std::string::npos);
    CHECK(r.source.find(".unroll(yi)") != std::string::npos);
    Buffer<float> in = halo_test::random_image<float>({2 * W + 4, 2 * H + 4, C}, 8, -1, 1);
    net.input.set(in);
    halo_test::check_against_reference(net.pool, Buffer<float>(W, H, C), 1e-5);
}

TEST_CASE("auto_schedule: depthwise -> pointwise equals the plain loops") {
    const int C = 16, W = 29, H = 11;
    apps::DepthwisePointwise app(C);
    AutoScheduleResult r = auto_schedule(app.output, {C, W, H});
    INFO(r.source << r.summary);
    Buffer<float> in = halo_test::random_image<float>({C, W + 2, H + 2}, 23, -1, 1), out(C, W, H), expected(C, W, H);
    apps::DepthwisePointwise(C).plain(in, expected);
    app.input.set(in);
    app.output.realize(out);
    CHECK(halo_test::max_difference(out, expected) < 1e-5);
}

TEST_CASE("auto_schedule: the local Laplacian's pyramids go to the root and the result is right") {
    const int W = 45, H = 38;
    apps::LocalLaplacian app(6, 3, 1.5f, 0.8f);
    AutoScheduleResult r = auto_schedule(app.output, {W, H, 3});
    INFO(r.source << r.summary);
    CHECK(r.summary.find("computed at the root: ") != std::string::npos);
    Buffer<float> in = halo_test::random_image<float>({W, H, 3}, 17, 0, 1), out(W, H, 3), expected(W, H, 3);
    app.plain(in, expected);
    app.input.set(in);
    app.output.realize(out);
    CHECK(halo_test::max_difference(out, expected) < 1e-4);
}

// The line of the summary that lists what is inlined, with a comma after every name.
static std::string inlined_line(const std::string &summary) {
    size_t at = summary.find("  inlined: ");
    if (at == std::string::npos) return "";
    size_t end = summary.find('\n', at);
    return summary.substr(at, end == std::string::npos ? std::string::npos : end - at) + ",";
}

// At the root, a Func read at data-dependent levels is computed for every level; each output
// point reads two of them: inlined, with the stack it subtracts (only it reads that), it costs a
// quarter of the points. A lookup table read the same way keeps its root (it is smaller than
// its readers).
TEST_CASE("auto_schedule: a Func read at data-dependent indices is inlined where that computes fewer points, a lookup table is not") {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y"), k("k"), i("i");
    Func lut("lut"), stack("stack"), lap("lap"), out("out");
    lut(i) = cast<float>(i) * 0.5f - 3.0f;
    stack(x, y, k) = in(x, y) * cast<float>(k) + lut(clamp(cast<int>(in(x, y) * 255.0f), 0, 255));
    lap(x, y, k) = stack(x, y, k) - 0.5f * stack(x + 1, y, k);
    Expr level = in(x, y) * 7.0f;
    Expr li = clamp(cast<int>(level), 0, 6);
    Expr lf = level - cast<float>(li);
    out(x, y) = (1.0f - lf) * lap(x, y, li) + lf * lap(x, y, li + 1);
    AutoScheduleResult r = auto_schedule(out, {61, 37});
    INFO(r.source << r.summary);
    std::string inlined = inlined_line(r.summary);
    CHECK(inlined.find(" lap,") != std::string::npos);
    CHECK(inlined.find(" stack,") != std::string::npos);
    CHECK(r.source.find("lut.compute_root()") != std::string::npos);
    in.set(halo_test::random_image<float>({64, 49}, 23, -0.2f, 1.2f));
    Buffer<float> result(61, 37);  // tiles and vectors do not divide it
    halo_test::check_against_reference(out, result, 1e-5);  // FMA contraction
}

// A Func read by every channel of an RGB output at the same (x, y): inlined, or fused with the
// channel loop outside the tiles, it would be computed three times.
TEST_CASE("auto_schedule: the channel loop is inside the output's tiles, a Func every channel reads is computed once") {
    ImageParam in(Float(32), 3, "in");
    Var x("x"), y("y"), c("c");
    Func gray("gray"), blurred("blurred"), out("out");
    gray(x, y) = (in(x, y, 0) + in(x, y, 1) + in(x, y, 2)) / 3.0f;
    blurred(x, y) = gray(x, y) + gray(x + 1, y) + gray(x, y + 1) + gray(x + 1, y + 1) + gray(x + 2, y + 2);
    out(x, y, c) = in(x, y, c) * blurred(x, y);
    AutoScheduleResult r = auto_schedule(out, {200, 96, 3});
    INFO(r.source << r.summary);
    CHECK(inlined_line(r.summary).find(" blurred,") == std::string::npos);
    CHECK((r.source.find("reorder(xi, yi, c, xo, yo)") != std::string::npos ||
           r.source.find("reorder(x, c, yi, yo)") != std::string::npos));
    RedundancyReport report = redundancy_report(out, {200, 96, 3});
    REQUIRE(report.find("blurred") != nullptr);
    CHECK(report.find("blurred")->factor < 1.3);
    in.set(halo_test::random_image<float>({205, 101, 3}, 29, 0, 1));
    Buffer<float> result(197, 93, 3);
    halo_test::check_against_reference(out, result);
}

// A reduction evaluates an inlined Func at every step: a relu (no arithmetic) is inlined into
// the convolution that reads it, as the hand schedules do (at the tile it cost a buffer, a
// store and a load: cnn_block 1.07-1.09x the time); a Func with arithmetic is not.
TEST_CASE("auto_schedule: a relu read by a reduction is inlined into it, a Func with arithmetic is not") {
    AutoScheduleResult r = check_cnn_block(16, 13, 9, {16, 13, 9}, 23);
    CHECK(inlined_line(r.summary).find(" relu1,") != std::string::npos);
    CHECK(r.source.find("relu1.compute_at") == std::string::npos);

    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func scaled("scaled"), conv("conv");
    scaled(x, y) = in(x, y) * 0.5f + 1.0f;
    RDom k(0, 3, 0, 3, "k");
    conv(x, y) = 0.0f;
    conv(x, y) += scaled(x + k.x, y + k.y) * (k.x + k.y + 1.0f);
    Func out("out");
    out(x, y) = max(conv(x, y), 0.0f);
    AutoScheduleResult s = auto_schedule(out, {29, 21});
    INFO(s.source << s.summary);
    CHECK(inlined_line(s.summary).find(" scaled,") == std::string::npos);
    in.set(halo_test::random_image<float>({31, 23}, 6, -1, 1));
    Buffer<float> result(29, 21);
    halo_test::check_against_reference(out, result, 1e-5);
}

TEST_CASE("auto_schedule: a reduction and a lookup table, against the reference evaluator") {
    ImageParam in(UInt(8), 2, "in");
    Var x("x"), y("y"), i("i");
    Func lut("lut"), hist("hist"), cdf("cdf"), eq("eq");
    lut(i) = cast<float>(i) * 0.5f;
    RDom r(0, 31, 0, 17, "r");
    hist(i) = 0;
    hist(clamp(cast<int>(in(r.x, r.y)), 0, 255)) += 1;
    cdf(i) = hist(i) + lut(i);
    eq(x, y) = cdf(clamp(cast<int>(in(x, y)), 0, 255)) + lut(clamp(cast<int>(in(x + 1, y)), 0, 255));
    AutoScheduleResult s = auto_schedule(eq, {30, 17});
    INFO(s.source << s.summary);
    CHECK(s.source.find("hist.compute_root()") != std::string::npos);
    in.set(halo_test::random_image<uint8_t>({31, 17}, 5, 0, 255));
    Buffer<float> out(30, 17);
    halo_test::check_against_reference(eq, out);
}

TEST_CASE("auto_schedule: an output of no dimensions computes its producers at the root") {
    ImageParam in(Float(32), 1, "in");
    Var x("x");
    Func sq("sq"), total("total");
    sq(x) = in(x) * in(x) + in(x + 1);
    RDom r(0, 20, "r");
    total() = 0.0f;
    total() += sq(r) + sq(r + 1);
    AutoScheduleResult s = auto_schedule(total, std::vector<int>{});
    INFO(s.source << s.summary);
    CHECK(s.summary.find("output total: no dimensions, no loops") != std::string::npos);
    CHECK(s.source.find("sq.compute_root()") != std::string::npos);
    in.set(halo_test::random_image<float>({22}, 3, -1, 1));
    Buffer<float> out = total.realize(std::vector<int>{});
    Buffer<float> expected = reference_realize(total, std::vector<int>{});
    CHECK(out() == doctest::Approx(expected()).epsilon(1e-5));
}

TEST_CASE("auto_schedule: an output with update definitions computes its producers at the root") {
    // The tiles are loops of the output's pure definition only, and a producer scheduled at them
    // is looked for in the stage that reads it, else the last (differential test, seeds 32, 762).
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y");
    Func clamped = BoundaryConditions::repeat_edge(in);
    Func a("a"), b("b"), out("out");
    a(x, y) = clamped(x - 1, y) + clamped(x + 1, y);
    b(x, y) = clamped(x, y - 1) * 3 + clamped(x, y + 1);
    out(x, y) = a(x, y) + a(x, y + 1);
    RDom r(0, 3, "r");
    out(x, y) += b(x + r, y) + b(x, y + r);
    AutoScheduleResult s = auto_schedule(out, {64, 30});
    INFO(s.source << s.summary);
    CHECK(s.source.find("a.compute_root()") != std::string::npos);
    CHECK(s.source.find("b.compute_root()") != std::string::npos);
    CHECK(s.summary.find("computed in each tile: (none)") != std::string::npos);
    in.set(halo_test::random_image<int>({40, 25}, 7, -100, 100));  // smaller: the edges repeat
    Buffer<int> result(64, 30);
    halo_test::check_against_reference(out, result);
}

TEST_CASE("auto_schedule: wrong estimates and options are errors naming the Func") {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x + y;
    CHECK_THROWS_WITH(auto_schedule(f, {8}), doctest::Contains("Func 'f' has 2 dimensions but was given 1 estimates"));
    CHECK_THROWS_WITH(auto_schedule(f, {8, 0}), doctest::Contains("estimates of Func 'f' must be positive"));
    // Options that every comparison would silently pass over (NaN) or that mean nothing.
    AutoScheduleOptions nan_recompute, nan_bytes, no_bytes;
    nan_recompute.max_recompute = std::nan("");
    nan_bytes.tile_bytes = std::nan("");
    no_bytes.tile_bytes = 0;
    CHECK_THROWS_WITH(auto_schedule(f, {8, 8}, nan_recompute),
                      doctest::Contains("max_recompute for Func 'f' is nan; it must be a finite factor"));
    CHECK_THROWS_WITH(auto_schedule(f, {8, 8}, nan_bytes), doctest::Contains("tile_bytes for Func 'f' is nan; it must be a finite positive size"));
    CHECK_THROWS_WITH(auto_schedule(f, {8, 8}, no_bytes), doctest::Contains("tile_bytes for Func 'f' is 0"));
}

TEST_CASE("set_estimates gives auto_schedule its sizes, a generator with auto_schedule=true uses them") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    ImageParam in(Float(32), 2, "in");
    f(x, y) = (in(x, y) + in(x + 1, y) + in(x, y + 1)) / 3.0f;  // too costly to inline 3 times
    g(x, y) = f(x, y) + f(x + 2, y + 2) + f(x + 1, y);
    CHECK_THROWS_WITH(auto_schedule(g), doctest::Contains("Func 'g' has no estimates of its size; call g.set_estimates"));
    CHECK_THROWS_WITH(g.set_estimates({{0, 64}}), doctest::Contains("Func 'g' has 2 dimensions but set_estimates was given 1"));
    CHECK_THROWS_WITH(g.set_estimates({{0, 64}, {0, x}}), doctest::Contains("the estimated extent of y must be a constant"));
    CHECK_THROWS_WITH(g.set_estimate(y, 0, 0), doctest::Contains("the estimated extent of y must be positive"));
    g.set_estimates({{0, 64}, {0, 40}});
    AutoScheduleResult r = auto_schedule(g);
    INFO(r.source << r.summary);
    CHECK(r.source.find("f.store_at(g, yo).compute_at(g, yi)") != std::string::npos);
    in.set(halo_test::random_image<float>({67, 43}, 5, 0, 1));
    Buffer<float> out(64, 40);
    halo_test::check_against_reference(g, out);
}

// Boundary conditions and inline reductions make Funcs the user holds no variable of that name
// for: the source declares a handle to each (Pipeline::get_func) and their own Vars, and names
// RVars by name, so that it compiles as pasted beside the algorithm.
TEST_CASE("auto_schedule: Funcs made by library functions get handles in the source") {
    ImageParam in(Float(32), 2, "in");
    Var x("x"), y("y");
    Func padded = BoundaryConditions::repeat_edge(in);
    Func blur("blur"), out("out");
    RDom r(-2, 5, "r");
    blur(x, y) = sum(padded(x + r, y)) / 5.0f;
    out(x, y) = blur(x, y - 1) + blur(x, y + 1) + maximum(padded(x, y + r));
    AutoScheduleResult res = auto_schedule(out, std::vector<int>{1024, 768});
    INFO(res.source);
    // Every Func the source schedules is the output, or one whose handle it declared first.
    std::istringstream lines(res.source);
    int library_funcs = 0;
    for (std::string line; std::getline(lines, line);) {
        size_t start = line.find_first_not_of(' ');
        size_t dot = line.find('.', start);
        if (start == std::string::npos || dot == std::string::npos || line.compare(start, 4, "Func") == 0 ||
            line.compare(start, 3, "Var") == 0 || line[start] == '{' || line[start] == '}') {
            continue;
        }
        std::string func = line.substr(start, dot - start);
        if (func == "out") continue;
        library_funcs++;
        std::string handle = "Func " + func + " = Pipeline(out).get_func(\"" + func + "\");";
        size_t declared = res.source.find(handle);
        CHECK_MESSAGE(declared < res.source.find(line), func);
    }
    CHECK(library_funcs >= 2);
    if (halo_test::contains(res.source, "bc0")) CHECK(halo_test::contains(res.source, "Var bc0(\"bc0\");"));
    if (halo_test::contains(res.source, "r.x")) CHECK(halo_test::contains(res.source, "RVar(\"r.x\")"));
    // get_func gives the very Func, and names the pipeline's Funcs when none has the name.
    CHECK(Pipeline(out).get_func(padded.name()).function() == padded.function());
    std::string msg = halo_test::compile_error_of([&] { Pipeline(out).get_func("nope"); });
    CHECK(halo_test::contains(msg, "Pipeline::get_func(\"nope\"): no Func of the pipeline has that name; its Funcs are "));
    CHECK(halo_test::contains(msg, padded.name()));
}
