// Pipelines do not run in place: every call checks that no output shares memory with an input
// or another output, and refuses one that does with halo_error_code_buffers_overlap and a
// message naming both buffers. Buffers cut from one allocation whose elements never meet
// (side-by-side crops, interleaved channels or rows) are accepted and computed right. The
// check itself (halo_check_buffers_disjoint) is compared with a brute-force byte count on
// random layouts: it must never call overlapping buffers disjoint.
#include <array>
#include <random>
#include <set>

#include "TestUtil.h"

using namespace halo;

namespace {

bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// Realizes f into out, returning the error code (0 if none) and the message.
template <typename T>
int realize_code(Func f, Buffer<T> out, std::string &msg) {
    try {
        f.realize(out);
    } catch (const halo::RuntimeError &e) {
        msg = e.what();
        return e.code;
    }
    return 0;
}

}  // namespace

TEST_CASE("an output realized into its own input is refused, naming both, and nothing is written") {
    Buffer<int32_t> b(67, 5);
    b.for_each_element([&](int x, int y) { b(x, y) = x + 100 * y; });
    ImageParam in(Int(32), 2, "photo");
    in.set(b);
    Var x("x"), y("y");
    Func f("brighter");
    f(x, y) = in(x, y) * 2 + 1;
    f.vectorize(x, 8).unroll(x, 2);  // the ShiftInwards tail that read overwritten input
    std::string msg;
    CHECK(realize_code(f, b, msg) == halo_error_code_buffers_overlap);
    CHECK_MESSAGE(has(msg, "output 'brighter' shares memory with input 'photo'"), msg);
    CHECK_MESSAGE(has(msg, "pipelines do not run in place"), msg);
    CHECK_MESSAGE(has(msg, "give 'brighter' a buffer of its own"), msg);
    int changed = 0;
    b.for_each_element([&](int x, int y) { changed += b(x, y) != x + 100 * y; });
    CHECK(changed == 0);
}

TEST_CASE("an output overlapping part of its input, one row down, is refused") {
    Buffer<float> all(32, 20);
    all.fill(1.0f);
    ImageParam in(Float(32), 2, "top");
    in.set(all.cropped(1, 0, 12));
    Var x("x"), y("y");
    Func f("bottom");
    f(x, y) = in(x, y - 1) + in(x, y);
    std::string msg;
    Buffer<float> out = all.cropped(1, 1, 10);  // rows 1..10 read rows 0..10 of the input
    CHECK(realize_code(f, out, msg) == halo_error_code_buffers_overlap);
    CHECK_MESSAGE(has(msg, "output 'bottom' shares memory with input 'top'"), msg);
}

TEST_CASE("side-by-side crops of one buffer are accepted and computed right") {
    Buffer<int32_t> all(40, 9);
    all.for_each_element([&](int x, int y) { all(x, y) = 3 * x - y; });
    ImageParam in(Int(32), 2, "left");
    in.set(all.cropped(0, 0, 20));
    Var x("x"), y("y");
    Func f("right");
    f(x, y) = in(x - 20, y) * 2;
    f.vectorize(x, 8);
    std::string msg;
    CHECK_MESSAGE(realize_code(f, all.cropped(0, 20, 20), msg) == 0, msg);
    for (int y = 0; y < 9; y++) {
        for (int x = 0; x < 20; x++) {
            REQUIRE(all(x, y) == 3 * x - y);
            REQUIRE(all(x + 20, y) == 2 * (3 * x - y));
        }
    }
}

TEST_CASE("interleaved channels of one image are accepted: one channel computed from another") {
    const int w = 37, h = 6;
    std::vector<uint8_t> rgb(3 * w * h, 0);
    for (int i = 0; i < w * h; i++) rgb[3 * i] = uint8_t(i % 97);
    halo_dimension_t shape[] = {{0, w, 3, 0}, {0, h, 3 * w, 0}};
    Buffer<uint8_t> red(rgb.data(), 2, shape), green(rgb.data() + 1, 2, shape);
    ImageParam in(UInt(8), 2, "red");
    in.dim(0).set_stride(Expr());
    in.set(red);
    Var x("x"), y("y");
    Func f("green");
    f(x, y) = in(x, y) + 1;
    f.output_buffer().dim(0).set_stride(Expr());
    f.vectorize(x, 16);
    std::string msg;
    CHECK_MESSAGE(realize_code(f, green, msg) == 0, msg);
    for (int i = 0; i < w * h; i++) {
        REQUIRE(rgb[3 * i] == uint8_t(i % 97));
        REQUIRE(rgb[3 * i + 1] == uint8_t(i % 97 + 1));
        REQUIRE(rgb[3 * i + 2] == 0);
    }
}

TEST_CASE("interleaved rows of one image are accepted: odd rows computed from even rows") {
    const int w = 21, h = 5;
    std::vector<int16_t> mem(2 * w * h, -1);
    for (int i = 0; i < w * h; i++) mem[2 * w * (i / w) + i % w] = int16_t(i);
    halo_dimension_t shape[] = {{0, w, 1, 0}, {0, h, 2 * w, 0}};
    Buffer<int16_t> even(mem.data(), 2, shape), odd(mem.data() + w, 2, shape);
    ImageParam in(Int(16), 2, "even_rows");
    in.set(even);
    Var x("x"), y("y");
    Func f("odd_rows");
    f(x, y) = in(x, y) * 2;
    f.vectorize(x, 8);
    std::string msg;
    CHECK_MESSAGE(realize_code(f, odd, msg) == 0, msg);
    for (int i = 0; i < w * h; i++) {
        REQUIRE(mem[2 * w * (i / w) + i % w] == i);
        REQUIRE(mem[2 * w * (i / w) + w + i % w] == 2 * i);
    }
}

TEST_CASE("the buffers of a Tuple output sharing memory are refused, naming both values") {
    Buffer<int32_t> b(16, 4);
    b.fill(5);
    Var x("x"), y("y");
    Func f("pair");
    f(x, y) = Tuple(x + y, x - y);
    std::string msg;
    int code = 0;
    try {
        f.realize({b, b.cropped(0, 8, 8)});
    } catch (const halo::RuntimeError &e) {
        code = e.code;
        msg = e.what();
    }
    // The two buffers also cover different regions, but memory is checked first.
    CHECK(code == halo_error_code_buffers_overlap);
    b.for_each_element([&](int x, int y) { REQUIRE(b(x, y) == 5); });
    Buffer<int32_t> c(16, 4);
    c.fill(5);
    try {
        f.realize({c, c});
        code = 0;
    } catch (const halo::RuntimeError &e) {
        code = e.code;
        msg = e.what();
    }
    CHECK(code == halo_error_code_buffers_overlap);
    CHECK_MESSAGE(has(msg, "output 'pair.0' shares memory with output 'pair.1'"), msg);
    c.for_each_element([&](int x, int y) { REQUIRE(c(x, y) == 5); });
}

TEST_CASE("two inputs may share memory: only outputs are checked") {
    Buffer<float> b(24, 3);
    b.for_each_element([&](int x, int y) { b(x, y) = float(x * y); });
    ImageParam p(Float(32), 2, "p"), q(Float(32), 2, "q");
    p.set(b);
    q.set(b.cropped(0, 1, 23));
    Var x("x"), y("y");
    Func f("sum");
    f(x, y) = p(x, y) + q(x + 1, y);
    Buffer<float> out(23, 3);
    std::string msg;
    CHECK_MESSAGE(realize_code(f, out, msg) == 0, msg);
    out.for_each_element([&](int x, int y) { REQUIRE(out(x, y) == float(x * y + (x + 1) * y)); });
}

namespace {

// The bytes a buffer's elements occupy, relative to base.
std::set<int64_t> bytes_of(const halo_buffer_t &b, const uint8_t *base) {
    std::set<int64_t> bytes;
    const int eb = b.type_bits / 8;
    std::vector<int> at(size_t(b.dimensions), 0);
    for (int d = 0; d < b.dimensions; d++) {
        if (b.dim[d].extent == 0) return bytes;
    }
    while (true) {
        int64_t offset = b.host - base;
        for (int d = 0; d < b.dimensions; d++) offset += int64_t(at[d]) * b.dim[d].stride * eb;
        for (int t = 0; t < eb; t++) bytes.insert(offset + t);
        int d = 0;
        while (d < b.dimensions && ++at[d] == b.dim[d].extent) at[d++] = 0;
        if (d == b.dimensions) return bytes;
    }
}

}  // namespace

TEST_CASE("the overlap check never calls overlapping buffers disjoint, on random layouts") {
    std::mt19937 rng(20261130);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<uint8_t> arena(4096);
    halo_error_handler_t previous = halo_set_error_handler([](void *, const char *) {});
    int overlapping = 0, disjoint = 0, disjoint_accepted = 0;
    for (int trial = 0; trial < 20000; trial++) {
        halo_dimension_t dims[2][3];
        halo_buffer_t bufs[2];
        for (int i = 0; i < 2; i++) {
            bufs[i].type_code = halo_type_int;
            // Mostly equal element sizes (the case the stride test covers), sometimes not.
            bufs[i].type_bits = uint8_t(8 << (i == 1 && pick(0, 3) == 0 ? pick(0, 3) : 0));
            if (i == 1 && bufs[1].type_bits == 8) bufs[1].type_bits = bufs[0].type_bits;
            if (i == 0) bufs[0].type_bits = uint8_t(8 << pick(0, 3));
            bufs[i].dimensions = pick(1, 3);
            bufs[i].dim = dims[i];
            for (int d = 0; d < bufs[i].dimensions; d++) {
                dims[i][d].min = pick(-3, 3);
                dims[i][d].extent = pick(0, 6) == 0 ? pick(0, 1) : pick(1, 5);
                // Strides from small layouts, sometimes negative or zero.
                const int choices[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32};
                dims[i][d].stride = choices[pick(0, 9)] * (pick(0, 7) == 0 ? -1 : 1) * (pick(0, 19) == 0 ? 0 : 1);
                dims[i][d].flags = 0;
            }
            bufs[i].host = arena.data() + 2048 + pick(-40, 40);
        }
        const std::set<int64_t> a = bytes_of(bufs[0], arena.data()), b = bytes_of(bufs[1], arena.data());
        bool meet = false;
        for (int64_t v : a) meet = meet || b.count(v);
        const int32_t code = halo_check_buffers_disjoint(nullptr, &bufs[0], "a", &bufs[1], "b", 0);
        if (meet) {
            overlapping++;
            REQUIRE_MESSAGE(code == halo_error_code_buffers_overlap, "trial " << trial);
        } else {
            disjoint++;
            REQUIRE((code == 0 || code == halo_error_code_buffers_overlap));
            disjoint_accepted += code == 0;
        }
    }
    halo_set_error_handler(previous);
    MESSAGE("overlapping " << overlapping << ", disjoint " << disjoint << " of which accepted " << disjoint_accepted);
    CHECK(overlapping > 1000);
    CHECK(disjoint > 1000);
    // Most disjoint pairs here have disjoint byte spans, and must be accepted.
    CHECK(disjoint_accepted * 10 > disjoint * 8);
}

TEST_CASE("the check of all of a pipeline's buffers at once reports what the pairwise checks report") {
    // Random groups of 1-4 outputs and 0-4 inputs in one arena: halo_check_outputs_disjoint
    // (which tests only pairs whose spans intersect) must fail exactly when some (output,
    // other) pair fails halo_check_buffers_disjoint, with the first such pair's message.
    std::mt19937 rng(3011);
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    std::vector<uint8_t> arena(1 << 16);
    static std::string last_message;
    halo_error_handler_t previous = halo_set_error_handler([](void *, const char *m) { last_message = m; });
    int failing = 0, passing = 0;
    for (int trial = 0; trial < 4000; trial++) {
        const int outputs = pick(1, 4), n = outputs + pick(0, 4);
        std::vector<std::array<halo_dimension_t, 2>> dims(n);
        std::vector<halo_buffer_t> bufs(n);
        std::vector<std::string> names(n);
        std::vector<const halo_buffer_t *> ptrs(n);
        std::vector<const char *> name_ptrs(n);
        for (int i = 0; i < n; i++) {
            halo_buffer_t &b = bufs[i];
            b.type_code = halo_type_int;
            b.type_bits = uint8_t(8 << pick(0, 2));
            b.dimensions = pick(1, 2);
            b.dim = dims[i].data();
            for (int d = 0; d < b.dimensions; d++) {
                dims[i][d].min = 0;
                dims[i][d].extent = pick(1, 40);
                dims[i][d].stride = d == 0 ? pick(1, 2) : pick(40, 90);
                dims[i][d].flags = 0;
            }
            // Spread out, so that most groups are disjoint and some meet.
            b.host = arena.data() + pick(0, 14) * 4096 + pick(0, 3) * pick(0, 600);
            names[i] = (i < outputs ? "out" : "in") + std::to_string(i);
            ptrs[i] = &bufs[i];
            name_ptrs[i] = names[i].c_str();
        }
        std::string expected;
        for (int p = 0; p < outputs && expected.empty(); p++) {
            std::vector<int> others;
            for (int q = p + 1; q < outputs; q++) others.push_back(q);
            for (int q = outputs; q < n; q++) others.push_back(q);
            for (int q : others) {
                last_message.clear();
                if (halo_check_buffers_disjoint(nullptr, ptrs[p], name_ptrs[p], ptrs[q], name_ptrs[q], q < outputs)) {
                    expected = last_message;
                    break;
                }
            }
        }
        last_message.clear();
        const int32_t code = halo_check_outputs_disjoint(nullptr, ptrs.data(), name_ptrs.data(), outputs, n);
        INFO("trial " << trial);
        if (expected.empty()) {
            REQUIRE(code == 0);
            passing++;
        } else {
            REQUIRE(code == halo_error_code_buffers_overlap);
            REQUIRE(last_message == expected);
            failing++;
        }
    }
    halo_set_error_handler(previous);
    CHECK(failing > 400);
    CHECK(passing > 400);
}
