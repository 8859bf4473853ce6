// Software prefetch in sliding windows (lower/PrefetchSlidingInputs.h): a Func sliding down
// rows prefetches, in its innermost loops, the row of each big buffer it reads that its next
// iteration needs. A prefetch never changes a result: every schedule is still checked against
// the reference evaluator, at non-zero mins, where the prefetch of the last row reaches past
// the input.
#include <cstdlib>

#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

namespace {

std::vector<std::string> prefetches(const std::string &stmt) {
    std::vector<std::string> found;
    for (size_t p = stmt.find("prefetch("); p != std::string::npos; p = stmt.find("prefetch(", p + 1)) {
        found.push_back(stmt.substr(p, stmt.find('\n', p) - p));
    }
    return found;
}

// A 3x3-box blur in uint16 whose horizontal pass slides down strips of 8 rows.
struct SlidingBlur {
    Var x{"x"}, y{"y"}, yi{"yi"};
    ImageParam input{UInt(16), 2, "input"};
    Func bx{"bx"}, by{"by"};
    SlidingBlur() {
        bx(x, y) = (input(x, y) + input(x + 1, y) + input(x + 2, y)) / 3;
        by(x, y) = (bx(x, y) + bx(x, y + 1) + bx(x, y + 2)) / 3;
        by.split(y, y, yi, 8, TailStrategy::GuardWithIf).parallel(y).vectorize(x, 8);
        bx.store_at(by, y).compute_at(by, yi).vectorize(x, 8);
    }
};

}  // namespace

TEST_CASE("a sliding blur prefetches the input row its next iteration reads, in each of its row loops") {
    SlidingBlur b;
    std::string stmt = b.by.lowered_stmt();
    REQUIRE(contains(stmt, "// bx: sliding window over by.s0.yi in dimension y"));
    std::vector<std::string> found = prefetches(stmt);
    // bx's row is a loop of whole vectors and one for the last vector: one prefetch in each,
    // of the same columns one row down (bx.s0.y + 1).
    REQUIRE(found.size() == 2);
    for (const std::string &p : found) {
        CHECK(contains(p, "prefetch(input["));
        CHECK(contains(p, "((int64(bx.s0.y) - int64(input.min.1)) + (int64)1) * int64(input.stride.1)"));
    }
    // On x86 the prefetches go to the second-level cache (prefetcht1): the row is read a whole
    // row of work later, and prefetched into L1 it pushed out the rows in use.
    std::string assembly = b.by.assembly();
    CHECK(contains(assembly, "prefetcht1"));
    CHECK_FALSE(contains(assembly, "prefetcht0"));
    // The input ends at the last row the output needs: the last rows' prefetches reach past it.
    Buffer<uint16_t> in = halo_test::random_image<uint16_t>({75, 52}, 7, 0, 60000);
    in.set_min(-6, -11);
    b.input.set(in);
    Buffer<uint16_t> out(73, 50);
    out.set_min(-6, -11);
    halo_test::check_against_reference(b.by, out);
}

TEST_CASE("a 3-row stencil sliding down prefetches only the row that is new to its next iteration") {
    Var x("x"), y("y");
    ImageParam input(Float(32), 2, "input");
    Func f("f"), g("g");
    f(x, y) = input(x - 1, y - 1) + input(x + 1, y) * 2.0f - input(x, y + 1);
    g(x, y) = f(x, y - 1) + f(x, y + 1);
    f.store_root().compute_at(g, y).vectorize(x, 16);
    g.vectorize(x, 16);
    std::string stmt = g.lowered_stmt();
    REQUIRE(contains(stmt, "// f: sliding window over g.s0.y in dimension y"));
    // Rows y - 1 and y are read again next iteration; y + 1 + 1 is new.
    std::vector<std::string> found = prefetches(stmt);
    REQUIRE(found.size() == 2);
    for (const std::string &p : found) CHECK(contains(p, "((int64(f.s0.y) - int64(input.min.1)) + (int64)2) * int64(input.stride.1)"));
    Buffer<float> in = halo_test::random_image<float>({70, 41}, 8, -1, 1);
    in.set_min(-5, 3);
    input.set(in);
    Buffer<float> out(53, 37);
    out.set_min(-3, 5);
    halo_test::check_against_reference(g, out);
}

TEST_CASE("a sliding Func prefetches a Func computed at the root, not one computed per strip") {
    Var x("x"), y("y"), yi("yi");
    ImageParam input(Int(32), 2, "input");
    Func at_root("at_root"), per_strip("per_strip"), slides("slides"), out("out");
    at_root(x, y) = input(x, y) * 3;
    per_strip(x, y) = input(x, y) - 1;
    slides(x, y) = at_root(x, y) + per_strip(x, y + 1);
    out(x, y) = slides(x, y) + slides(x, y + 1);
    out.split(y, y, yi, 16, TailStrategy::GuardWithIf).parallel(y);
    at_root.compute_root();
    per_strip.compute_at(out, y);
    slides.store_at(out, y).compute_at(out, yi);
    std::string stmt = out.lowered_stmt();
    REQUIRE(contains(stmt, "// slides: sliding window over out.s0.yi in dimension y"));
    std::vector<std::string> found = prefetches(stmt);
    REQUIRE(found.size() == 1);
    CHECK(contains(found[0], "prefetch(at_root["));
    Buffer<int> in = halo_test::random_image<int>({40, 46}, 9, -1000, 1000);
    in.set_min(2, -7);
    input.set(in);
    Buffer<int> result(40, 44);
    result.set_min(2, -7);
    halo_test::check_against_reference(out, result);
}

TEST_CASE("no prefetch without a sliding window, nor with HALO_PREFETCH_SLIDING=0") {
    Var x("x"), y("y");
    ImageParam input(UInt(16), 2, "input");
    Func bx("bx"), by("by");
    bx(x, y) = input(x, y) + input(x + 1, y);
    by(x, y) = bx(x, y) + bx(x, y + 1);
    bx.compute_at(by, y);  // stored and computed per row: nothing slides
    CHECK(prefetches(by.lowered_stmt()).empty());

    SlidingBlur b;
    setenv("HALO_PREFETCH_SLIDING", "0", 1);
    std::string stmt = b.by.lowered_stmt();
    unsetenv("HALO_PREFETCH_SLIDING");
    CHECK(contains(stmt, "// bx: sliding window over by.s0.yi in dimension y"));
    CHECK(prefetches(stmt).empty());
}

TEST_CASE("a window sliding backwards prefetches the row below") {
    // g reads f at rows 20 - y and 21 - y: as y grows, f's new row is the one below.
    Var x("x"), y("y");
    ImageParam input(Int(32), 2, "input");
    Func f("f"), g("g");
    f(x, y) = input(x, y) * 3 + input(x, y + 1);
    g(x, y) = f(x, 20 - y) + f(x, 21 - y) * 2;
    f.store_root().compute_at(g, y).vectorize(x, 4);
    g.vectorize(x, 4);
    std::string stmt = g.lowered_stmt();
    REQUIRE(contains(stmt, "// f: sliding window over g.s0.y in dimension y, backwards"));
    // Row y of f reads input rows y and y + 1; the next iteration's f row y - 1 reads y - 1.
    std::vector<std::string> found = prefetches(stmt);
    REQUIRE(!found.empty());
    for (const std::string &p : found) CHECK(contains(p, "((int64(f.s0.y) - int64(input.min.1)) - (int64)1) * int64(input.stride.1)"));
    Buffer<int> in = halo_test::int_buffer_at(40, 60, -10, -20);
    halo_test::fill_random(in, -50, 50, 5);
    input.set(in);
    halo_test::check_against_reference(g, halo_test::int_buffer_at(9, 13, -3, -4));
}
