// Func::bound_storage as Halide users write it (Halide's bound_storage and error/bad_storage
// tests, with more: folds, Param extents, non-zero mins, Tuples, reorder_storage, a fuzz of
// bounds against the region): the buffer is allocated with the given extent whatever bounds
// inference asks, the values are the algorithm's, and a region larger than the bound is a
// run-time error that names the Func, the dimension and the extent to give.
#include <random>
#include <string>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {

// The first "allocate <name>[...]" line of a lowered statement ("" if none).
std::string allocation_of(const std::string &stmt, const std::string &name) {
    size_t at = stmt.find("allocate " + name + "[");
    if (at == std::string::npos) return "";
    return stmt.substr(at, stmt.find('\n', at) - at);
}

}  // namespace

TEST_CASE("bound_storage with a constant allocates that extent, and the values are the algorithm's") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = 2 * f(x, y);
    f.compute_at(g, y);
    f.bound_storage(x, 16);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(allocation_of(stmt, "f"), "allocate f[int32 * (int64)16 * "));
    Buffer<int> im = g.realize({10, 10});
    CHECK(mismatches<int>(im, [](const std::vector<int> &c) { return 2 * (c[0] + c[1]); }) == 0);
}

TEST_CASE("bound_storage of several Funcs and dimensions") {
    Func f("f"), h("h"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    h(x, y) = x - 2 * y;
    g(x, y) = 2 * f(x, y) + 3 * h(x, y);
    f.compute_at(g, y);
    h.compute_root();
    f.bound_storage(x, 16);
    h.bound_storage(x, 10);
    h.bound_storage(y, 10);
    std::string stmt = g.lowered_stmt();
    CHECK(contains(allocation_of(stmt, "f"), "allocate f[int32 * (int64)16 * "));
    CHECK(contains(allocation_of(stmt, "h"), "allocate h[int32 * (int64)10 * (int64)10]"));
    Buffer<int> im = g.realize({10, 10});
    CHECK(mismatches<int>(im, [](const std::vector<int> &c) { return 2 * (c[0] + c[1]) + 3 * (c[0] - 2 * c[1]); }) == 0);
}

TEST_CASE("bound_storage by an input's width, and by a Param, checked at every realization") {
    ImageParam input(Int(32), 2);
    Param<int> p("p");
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = input(x, y) + x + y;
    g(x, y) = 2 * f(x, y);
    f.compute_at(g, y);
    f.bound_storage(x, input.width());
    f.bound_storage(y, p);
    Buffer<int> in(10, 10);
    in.fill(10);
    input.set(in);
    p.set(1);
    Buffer<int> im = g.realize({10, 10});
    CHECK(mismatches<int>(im, [](const std::vector<int> &c) { return 2 * (c[0] + c[1] + 10); }) == 0);
    // A bound that depends on the input is evaluated for each realization's input.
    Func h("h"), k("k");
    h(x, y) = input(x, y) * 3;
    k(x, y) = h(x, y) + 1;
    h.compute_at(k, y).bound_storage(x, input.width() / 2);
    Buffer<int> half = k.realize({5, 4});
    CHECK(mismatches<int>(half, [](const std::vector<int> &) { return 31; }) == 0);
    std::string msg = thrown_message([&] { k.realize({6, 4}); });
    CHECK(contains(msg, "Func 'h' has storage for 5 in x (bound_storage), but 6 of it are computed at once"));
    Buffer<int> wide(12, 10);
    wide.fill(2);
    input.set(wide);
    Buffer<int> six = k.realize({6, 4});
    CHECK(mismatches<int>(six, [](const std::vector<int> &) { return 7; }) == 0);
    input.set(in);
    p.set(0);
    msg = thrown_message([&] { g.realize({10, 10}); });
    CHECK(contains(msg, "Func 'f' has storage for 0 in y (bound_storage), but 1 of it are computed at once"));
}

TEST_CASE("a bound smaller than the region is a run-time error (Halide's error/bad_bound_storage)") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = f(x, y) * 2;
    f.compute_at(g, y);
    f.bound_storage(x, 9);
    std::string msg = thrown_message([&] { g.realize({10, 10}); });
    CHECK(contains(msg, "Func 'f' has storage for 9 in x (bound_storage), but 10 of it are computed at once: "
                        "bound its storage by at least 10"));
    // Exactly the region is enough.
    Buffer<int> ok = g.realize({9, 3});
    CHECK(mismatches<int>(ok, [](const std::vector<int> &c) { return 2 * (c[0] + c[1]); }) == 0);
}

TEST_CASE("bound_storage with non-zero mins, reorder_storage, a Tuple and a stencil's halo") {
    Func f("f"), g("g");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    f(x, y) = Tuple(x * 3 + y, x - y);
    g(x, y) = f(x - 1, y)[0] + f(x + 1, y)[1] + f(x, y - 1)[0];
    g.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    f.compute_at(g, xo).reorder_storage(y, x);
    f.bound_storage(x, 10).bound_storage(y, 2);  // 8 + 2 columns, 2 rows
    std::string stmt = g.lowered_stmt();
    CHECK(contains(allocation_of(stmt, "f.0"), "allocate f.0[int32 * (int64)2 * (int64)10]"));
    Buffer<int> out(std::vector<int>{21, 7});
    out.set_min(std::vector<int>{-5, 13});
    g.realize(out);
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) {
              int x = c[0], y = c[1];
              return ((x - 1) * 3 + y) + ((x + 1) - y) + (x * 3 + y - 1);
          }) == 0);
}

TEST_CASE("bound_storage and fold_storage of one dimension: the folded rows must fit the bound") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x * y;
    g(x, y) = f(x, y - 1) + f(x, y + 1);
    f.store_root().compute_at(g, y).fold_storage(y, 4).bound_storage(y, 4);
    Buffer<int> out = g.realize({12, 9});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] * (c[1] - 1) + c[0] * (c[1] + 1); }) == 0);
    Func f2("f2"), g2("g2");
    f2(x, y) = x * y;
    g2(x, y) = f2(x, y - 1) + f2(x, y + 1);
    f2.store_root().compute_at(g2, y).fold_storage(y, 4).bound_storage(y, 2);
    std::string msg = thrown_message([&] { g2.realize({12, 9}); });
    CHECK(contains(msg, "Func 'f2' has storage for 2 in y (bound_storage), but 4 of it are computed at once"));
}

TEST_CASE("bound_storage on an output or an inlined Func allocates nothing and changes nothing") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = f(x, y) + 1;
    f.bound_storage(x, 1);
    g.bound_storage(x, 1);
    Buffer<int> out = g.realize({7, 5});
    CHECK(mismatches<int>(out, [](const std::vector<int> &c) { return c[0] + c[1] + 1; }) == 0);
}

TEST_CASE("bound_storage misuse names the Func, the directive and what to do") {
    Func f("f"), g("g");
    Var x("x"), y("y"), z("z");
    RDom r(0, 3);
    f(x, y) = x + y;
    g(x) = f(x, 0);
    CHECK(contains(thrown_message([&] { f.bound_storage(z, 4); }),
                   "Func 'f': bound_storage(z, ...) names no dimension of it (x, y)"));
    CHECK(contains(thrown_message([&] { f.bound_storage(x, 0); }), "Func 'f': bound_storage(x, 0) needs a positive extent"));
    CHECK(contains(thrown_message([&] { f.bound_storage(x, y + 2); }),
                   "depends on Var 'y'; the extent may depend only on constants, Params and input buffers' sizes"));
    CHECK(contains(thrown_message([&] { f.bound_storage(x, g(1)); }), "depends on Func 'g'"));
    CHECK(contains(thrown_message([&] { f.bound_storage(x, r.x); }), "depends on RVar"));
    CHECK(contains(thrown_message([&] { f.bound_storage(x, 2.5f); }), "needs an integer extent"));
    f.bound_storage(x, 4);
    CHECK(contains(thrown_message([&] { f.bound_storage(x, 8); }), "Func 'f': bound_storage(x) given twice"));
}

TEST_CASE("random bounds against random regions: the values, or the error when the region does not fit") {
    std::mt19937 rng(12345);
    Var x("x"), y("y"), xo("xo"), xi("xi");
    for (int iter = 0; iter < 12; iter++) {
        int reach = int(rng() % 3), split = 1 + int(rng() % 9), width = 1 + int(rng() % 23);
        int bound = 1 + int(rng() % 14), xmin = int(rng() % 11) - 5;
        Func f("f"), g("g");
        f(x, y) = x * 7 - y;
        g(x, y) = f(x - reach, y) + f(x + reach, y);
        g.split(x, xo, xi, split, TailStrategy::GuardWithIf);
        f.compute_at(g, xo).bound_storage(x, bound);
        Buffer<int> out(std::vector<int>{width, 3});
        out.set_min(std::vector<int>{xmin, -1});
        // One tile computes f over its columns plus the reach on both sides.
        int needed = std::min(split, width) + 2 * reach;
        std::string msg = thrown_message([&] { g.realize(out); });
        CAPTURE(iter);
        CAPTURE(msg);
        if (needed <= bound) {
            CHECK(msg.empty());
            CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                      return (c[0] - reach) * 7 - c[1] + (c[0] + reach) * 7 - c[1];
                  }) == 0);
        } else {
            CHECK(contains(msg, "Func 'f' has storage for " + std::to_string(bound) + " in x (bound_storage)"));
        }
    }
}
