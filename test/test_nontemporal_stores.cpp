// Streaming (nontemporal) stores of large outputs (lower/NontemporalStores.h). The tests set
// HALO_NONTEMPORAL_MIN_BYTES=0 so that small outputs stream too; every schedule is checked
// against the reference evaluator with sizes the vectors do not divide, non-zero mins, and
// output buffers whose rows are not aligned (where the ordinary loop must run).
#include "TestUtil.h"

using namespace halo;
using halo_test::contains;

namespace {

// HALO_NONTEMPORAL_MIN_BYTES for one scope (lowering reads it).
struct StreamingThreshold : halo_test::ScopedEnv {
    explicit StreamingThreshold(const char *value) : ScopedEnv("HALO_NONTEMPORAL_MIN_BYTES", value) {}
};

struct Blur {
    ImageParam in{UInt(16), 2, "in"};
    Var x{"x"}, y{"y"};
    Func bx{"bx"}, by{"by"};
    Blur() {
        Expr cx = clamp(x, in.dim(0).min(), in.dim(0).max()), cy = clamp(y, in.dim(1).min(), in.dim(1).max());
        Func c("c");
        c(x, y) = in(cx, cy);
        bx(x, y) = (c(x - 1, y) + c(x, y) + c(x + 1, y)) / 3;
        by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
    }
};

}  // namespace

TEST_CASE("streaming stores: sliding, tiled and parallel blurs compute exactly the reference") {
    StreamingThreshold all("0");
    Buffer<uint16_t> input = halo_test::random_image<uint16_t>({77, 41}, 5, 0, 60000);
    input.set_min(-3, 2);
    for (int schedule = 0; schedule < 5; schedule++) {
        CAPTURE(schedule);
        Blur b;
        b.in.set(input);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        if (schedule == 0) {
            b.by.split(b.y, yo, yi, 8).parallel(yo).vectorize(b.x, 16);
            b.bx.store_at(b.by, yo).compute_at(b.by, yi).vectorize(b.x, 16);
        } else if (schedule == 1) {
            b.by.tile(b.x, b.y, xo, yo, xi, yi, 32, 8).vectorize(xi, 16).parallel(yo);
            b.bx.compute_at(b.by, xo).vectorize(b.x, 16);
        } else if (schedule == 2) {
            b.by.vectorize(b.x, 32, TailStrategy::GuardWithIf);
        } else if (schedule == 3) {
            b.by.vectorize(b.x, 8).parallel(b.y);  // 16-byte vectors
        } else {
            // Two vectors per iteration, each checked for alignment.
            b.by.split(b.x, xo, xi, 32).vectorize(xi, 16).unroll(xi);
        }
        std::string stmt = b.by.lowered_stmt();
        INFO(stmt);
        CHECK(contains(stmt, "nontemporal by["));
        CHECK(contains(stmt, "is_aligned(by["));
        CHECK(contains(stmt, "store_fence()"));
        // Rows at an aligned address (a fresh buffer) and rows one element off (a crop): the
        // streaming loop runs in the first, the ordinary one in the second.
        for (int offset : {0, 1}) {
            CAPTURE(offset);
            Buffer<uint16_t> whole(std::vector<int>{70 + offset, 33});
            Buffer<uint16_t> out = whole.cropped(0, offset, 70);
            out.set_min(-5 + offset, 3);
            halo_test::check_against_reference(b.by, out);
        }
    }
}

TEST_CASE("streaming stores: only whole vectors of an output the pipeline does not read") {
    StreamingThreshold all("0");
    Var x("x"), y("y");
    {
        // Scalar stores, and an output its update reads back: ordinary stores.
        Func f("f"), g("g");
        f(x, y) = x + y;
        f(x, y) += 1;
        f.vectorize(x, 8).update().vectorize(x, 8);
        CHECK(!contains(f.lowered_stmt(), "nontemporal"));
        g(x, y) = x * y;
        CHECK(!contains(g.lowered_stmt(), "nontemporal"));
        halo_test::check_against_reference(f, halo_test::int_buffer_at(19, 4, -7, 1));
        // An update that overwrites without reading: its stores would not be ordered after
        // the pure stage's streaming ones.
        Func h("h");
        RDom r(0, 10, "r");
        h(x, y) = x + y;
        h(r, y) = r * 3 - y;
        h.vectorize(x, 8);
        CHECK(!contains(h.lowered_stmt(), "nontemporal"));
        halo_test::check_against_reference(h, halo_test::int_buffer_at(19, 4, -7, 1));
    }
    {
        // A Tuple output: each value's buffer streams, and both are checked for alignment.
        Func t("t");
        t(x, y) = {x * 2 + y, cast<float>(x - y) * 0.5f};
        t.vectorize(x, 8);
        std::string stmt = t.lowered_stmt();
        INFO(stmt);
        CHECK(contains(stmt, "nontemporal t.0["));
        CHECK(contains(stmt, "nontemporal t.1["));
        Realization r = t.realize({29, 3});
        Buffer<int> a(r[0]);
        Buffer<float> b(r[1]);
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 29; i++) {
                CHECK(a(i, j) == i * 2 + j);
                CHECK(b(i, j) == float(i - j) * 0.5f);
            }
        }
    }
    {
        // Off: no streaming version at all.
        StreamingThreshold off("off");
        Func h("h");
        h(x, y) = x + y;
        h.vectorize(x, 16);
        CHECK(!contains(h.lowered_stmt(), "nontemporal"));
    }
}

TEST_CASE("streaming stores: below the default threshold the ordinary loop runs, with the same values") {
    // (No threshold set: 16 MiB. The streaming loop is compiled but not taken here.)
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = cast<uint8_t>(x * 3 + y);
    f.vectorize(x, 32).parallel(y);
    std::string stmt = f.lowered_stmt();
    CHECK(contains(stmt, ">= (int64)16777216"));
    Buffer<uint8_t> out(std::vector<int>{100, 7});
    halo_test::check_against_reference(f, out);
}

TEST_CASE("HALO_NONTEMPORAL_MIN_BYTES that is not a number is refused with a message") {
    StreamingThreshold bad("lots");
    Var x("x");
    Func f("f");
    f(x) = x;
    f.vectorize(x, 8);
    std::string msg = halo_test::compile_error_of([&] { f.compile_jit(); });
    CHECK(contains(msg, "HALO_NONTEMPORAL_MIN_BYTES=lots: give a number of bytes (0 streams every output) or off"));
}
