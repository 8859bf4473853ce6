// Stage::atomic() (Halide's): the stores of an update become atomic read-modify-writes, so that
// loops over its RVars may run in parallel (and in unrolled vector lanes) where iterations
// update the same points. Each schedule is checked against the reference evaluator (exactly for
// integers), the lowered code shows the atomic stores, and each refusal says what to do.
// (Labelled "concurrency": the ThreadSanitizer build runs these, and would report a race.)
#include <random>

#include "TestUtil.h"

using namespace halo;
using halo_test::compile_error_of;
using halo_test::contains;

namespace {

// A histogram of the input's values (mod buckets) over its rows, on both mins shifted.
struct Histogram {
    Buffer<int> in;
    RDom r;
    Var x{"x"};
    Func hist{"hist"};
    Histogram(int w, int h, int buckets, unsigned seed)
        : in(halo_test::random_image<int>({w, h}, seed, -1000, 1000)), r(-3, w, 2, h, "r") {
        in.set_min(-3, 2);
        hist(x) = 0;
        hist(clamp((in(r.x, r.y) % buckets + buckets) % buckets, 0, buckets - 1)) += 1;
    }
};

// One of the schedules of an atomic update's two RVar loops that run iterations at once.
void random_rvar_schedule(Stage u, const RDom &r, std::mt19937 &rng) {
    RVar o("o"), i("i");
    switch (rng() % 4) {
    case 0: u.parallel(r.y); break;
    case 1: u.parallel(r.x); break;
    case 2: u.split(r.x, o, i, 4).vectorize(i).parallel(r.y); break;
    default: u.fuse(r.x, r.y, o).parallel(o); break;
    }
}

}  // namespace

TEST_CASE("a histogram over parallel rows with atomic() counts every pixel once") {
    Histogram h(301, 97, 16, 3);
    h.hist.update().atomic().parallel(h.r.y);
    Buffer<int> out(16);
    halo_test::check_against_reference(h.hist, out);
    int64_t total = 0;
    for (int b = 0; b < 16; b++) total += out(b);
    CHECK(total == 301 * 97);
    CHECK(contains(h.hist.lowered_stmt(), "atomic hist["));
}

TEST_CASE("atomic() with a vectorized RVar runs the lanes as unrolled scalar updates") {
    Histogram h(64, 33, 5, 11);
    RVar rxo("rxo"), rxi("rxi");
    h.hist.update().atomic().split(h.r.x, rxo, rxi, 8).vectorize(rxi).parallel(h.r.y);
    Buffer<int> out(5);
    out.set_min(0);
    halo_test::check_against_reference(h.hist, out);
    std::string nest = h.hist.loop_nest();
    CHECK(contains(nest, "unrolled hist.s1.rxi"));
}

TEST_CASE("atomic min, max, product, logical or and float sums over parallel loops") {
    Buffer<int> in = halo_test::random_image<int>({50, 40}, 5, -100, 100);
    Var x("x");
    RDom r(0, 50, 0, 40, "r");
    {
        Func lo("lo");
        lo(x) = 1000;
        lo(in(r.x, r.y) & 7) = min(lo(in(r.x, r.y) & 7), in(r.x, r.y) * 3);
        lo.update().atomic().parallel(r.y);
        Buffer<int> out(8);
        halo_test::check_against_reference(lo, out);
    }
    {
        Func hi("hi");
        hi(x) = cast<int16_t>(-1000);
        hi(in(r.x, r.y) & 3) = max(hi(in(r.x, r.y) & 3), cast<int16_t>(in(r.x, r.y) + 7));
        hi.update().atomic().parallel(r.y);
        Buffer<int16_t> out(4);
        halo_test::check_against_reference(hi, out);
    }
    {
        Func prod("prod");
        prod(x) = cast<uint64_t>(1);
        RDom small(0, 12, 0, 6, "small");
        prod(in(small.x, small.y) & 1) *= cast<uint64_t>((in(small.x, small.y) & 3) + 1);
        prod.update().atomic().parallel(small.y);
        Buffer<uint64_t> out(2);
        halo_test::check_against_reference(prod, out);
    }
    {
        Func any("any");
        any(x) = false;
        any(x) = any(x) || in(r.x, r.y) == x * 10;
        any.update().atomic().parallel(r.y);
        Buffer<bool> out(12);
        out.set_min(-1);
        halo_test::check_against_reference(any, out);
    }
    {
        Func sum("fsum");
        sum(x) = 0.0f;
        sum(in(r.x, r.y) & 1) += cast<float>(in(r.x, r.y)) * 0.25f;
        sum.update().atomic().parallel(r.y);
        Buffer<float> out(2);
        // The order of a parallel float sum changes its rounding only.
        halo_test::check_against_reference(sum, out, 1e-3);
    }
}

TEST_CASE("an atomic update of a Func computed per row of a parallel consumer") {
    Buffer<int> in = halo_test::random_image<int>({40, 30}, 9, 0, 255);
    Var x("x"), y("y");
    RDom r(0, 40, "r");
    Func row_hist("row_hist"), out("out");
    row_hist(x, y) = 0;
    row_hist(clamp(in(r, y) / 64, 0, 3), y) += 1;
    out(x, y) = row_hist(x, y) * 10 + row_hist(3 - x, y);
    out.parallel(y);
    row_hist.compute_at(out, y);
    row_hist.update().atomic().parallel(r);
    Buffer<int> result(4, 30);
    halo_test::check_against_reference(out, result);
}

TEST_CASE("randomized: atomic scatters of random types under random RVar schedules match the reference") {
    for (unsigned seed = 1; seed <= 24; seed++) {
        CAPTURE(seed);
        std::mt19937 rng(seed);
        const int w = 5 + int(rng() % 60), h = 1 + int(rng() % 30), buckets = 1 + int(rng() % 9);
        Buffer<int> in = halo_test::random_image<int>({w, h}, seed, -500, 500);
        in.set_min(int(rng() % 7) - 3, int(rng() % 7) - 3);
        RDom r(in.dim(0).min(), w, in.dim(1).min(), h, "r");
        Var x("x");
        Func f("scatter");
        const Type types[] = {Int(8), UInt(16), Int(32), UInt(32), Int(64)};
        Type t = types[rng() % 5];
        Expr bucket = clamp((in(r.x, r.y) % buckets + buckets) % buckets, 0, buckets - 1);
        Expr e = cast(t, in(r.x, r.y) & 15);
        f(x) = cast(t, x);
        switch (rng() % 3) {
        case 0: f(bucket) = f(bucket) + e; break;
        case 1: f(bucket) = min(f(bucket), e); break;
        default: f(bucket) = max(f(bucket), e); break;
        }
        random_rvar_schedule(f.update().atomic(), r, rng);
        Buffer<> out(t, {buckets});
        halo_test::check_against_reference(f, out);
    }
}

TEST_CASE("randomized: atomic Tuple scatters of random types under random RVar schedules match the reference") {
    // Two values per bucket, each a commutative reduction of its own (so the reference's serial
    // order gives the same result), or the two swapped and both incremented (one map).
    for (unsigned seed = 1; seed <= 16; seed++) {
        CAPTURE(seed);
        std::mt19937 rng(seed + 1000);
        const int w = 5 + int(rng() % 50), h = 1 + int(rng() % 25), buckets = 1 + int(rng() % 7);
        Buffer<int> in = halo_test::random_image<int>({w, h}, seed, -500, 500);
        in.set_min(int(rng() % 7) - 3, int(rng() % 7) - 3);
        RDom r(in.dim(0).min(), w, in.dim(1).min(), h, "r");
        Var x("x");
        Func f("tuple_scatter");
        const Type types[] = {Int(16), UInt(32), Int(32), Int(64), Float(64)};
        Type t0 = types[rng() % 5], t1 = types[rng() % 5];
        Expr bucket = clamp((in(r.x, r.y) % buckets + buckets) % buckets, 0, buckets - 1);
        Expr e = in(r.x, r.y) & 15;
        f(x) = Tuple(cast(t0, x), cast(t1, x * 2));
        FuncRef p = f(bucket);
        switch (rng() % 3) {
        case 0: f(bucket) = Tuple(p[0] + cast(t0, e), max(p[1], cast(t1, e))); break;
        case 1: f(bucket) = Tuple(min(p[0], cast(t0, e)), p[1] + cast(t1, 1)); break;
        default:
            t1 = t0;
            f = Func("tuple_swap");
            f(x) = Tuple(cast(t0, x), cast(t0, x * 2));
            f(bucket) = Tuple(f(bucket)[1] + cast(t0, 1), f(bucket)[0] + cast(t0, 1));
            break;
        }
        random_rvar_schedule(f.update().atomic(), r, rng);
        Realization out = f.realize({buckets});
        Realization want = reference_realize(f, {buckets});
        for (int v = 0; v < 2; v++) {
            CAPTURE(v);
            CHECK(halo_test::compare(out[v], want[v], 0).empty());
        }
    }
}

TEST_CASE("atomic() refuses updates whose order matters, saying what to do") {
    Var x("x");
    RDom r(0, 10, "r");
    Func scan("scan");
    scan(x) = x;
    scan(r + 1) = scan(r) * 2 + 1;
    std::string msg = compile_error_of([&] { scan.update().atomic(); });
    CHECK(contains(msg, "Func 'scan' update 0: atomic() needs an associative and commutative update, whose result "
                        "does not depend on the order of its iterations"));
    CHECK(contains(msg, "call atomic(true) to say so"));

    Func pair("pair");
    pair(x) = Tuple(0, 0);
    pair(r % 3) = Tuple(pair(r % 3)[1] + r, pair(r % 3)[0] * 2);
    msg = compile_error_of([&] { pair.update().atomic(); });
    CHECK(contains(msg, "Func 'pair' update 0: atomic() needs an associative and commutative update"));
    CHECK(contains(msg, "(for a Tuple: each value so, reading only its own value of pair), or one whose every iteration "
                        "applies one map to the point it updates (pair(b) = pair(b) * 3 + 1)"));
    CHECK(contains(msg, "(this one is {"));

    Func hist("unproven");
    hist(x) = 0;
    hist(r % 4) += 1;
    msg = compile_error_of([&] { hist.update().parallel(r); });
    CHECK(contains(msg, "or call atomic() on the stage first"));
}

TEST_CASE("atomic() of an update whose iterations all apply one map, and atomic(true) taking the user's word") {
    // f(b) = f(b) * 3 + 1 applied to each bucket: not associative, but its iterations commute
    // because every one of a bucket's applies the same map.
    Var x("x");
    RDom r(0, 64, "r");
    Func f("affine");
    f(x) = 0;
    f(r % 4) = f(r % 4) * 3 + 1;
    f.update().atomic().parallel(r);
    Buffer<int> out(4);
    halo_test::check_against_reference(f, out);
    // Reading another point of the Func, one the update never writes.
    Func g("reads_a_constant_point");
    g(x) = x * 10;
    g(r % 4) = g(r % 4) + g(4);
    std::string msg = compile_error_of([&] { g.update().atomic(); });
    CHECK(contains(msg, "call atomic(true) to say so"));
    g.update().atomic(true).parallel(r);
    Buffer<int> five(5);
    halo_test::check_against_reference(g, five);
}

TEST_CASE("an atomic update computed per lane of another Func's vectorized loop") {
    // The consumer's loop then runs serially (a loop holding a producer is not vectorized).
    Var x("x");
    RDom r(0, 8, "r");
    Func count("count"), out("out");
    count(x) = x;
    count(x) = count(x) + r;
    out(x) = count(x) * 2;
    out.vectorize(x, 4);
    count.compute_at(out, Var("x_vi"));
    count.update().atomic();
    Buffer<int> result(8);
    result.set_min(-2);
    halo_test::check_against_reference(out, result);
    CHECK(contains(out.lowered_stmt(), "atomic count["));
}

TEST_CASE("atomic() of a Tuple: each point's values are updated together, under the point's lock") {
    // A histogram that counts and sums at once, its RVar loops parallel and split, on shifted
    // mins; the lowered code takes the lock around the update.
    Buffer<int> in = halo_test::random_image<int>({53, 37}, 7, -1000, 1000);
    in.set_min(-3, 2);
    RDom r(-3, 53, 2, 37, "r");
    Var x("x");
    Func hist("count_and_sum");
    hist(x) = Tuple(0, 0.0f);
    Expr bucket = clamp((in(r.x, r.y) % 5 + 5) % 5, 0, 4);
    hist(bucket) = Tuple(hist(bucket)[0] + 1, hist(bucket)[1] + cast<float>(in(r.x, r.y) & 7));
    RVar o("o"), i("i");
    hist.update().atomic().split(r.x, o, i, 8).vectorize(i).parallel(r.y);
    CHECK(contains(hist.lowered_stmt(), "atomic_lock("));
    Realization out = hist.realize({5});
    Realization want = reference_realize(hist, {5});
    for (int b = 0; b < 5; b++) {
        CAPTURE(b);
        CHECK(Buffer<int>(out[0])(b) == Buffer<int>(want[0])(b));
        CHECK(Buffer<float>(out[1])(b) == Buffer<float>(want[1])(b));  // (sums of small integers: exact)
    }
}

TEST_CASE("atomic() of a Tuple whose values read each other: a point's update is never torn") {
    // Each iteration swaps the two values of a bucket and adds to both: only an update of both
    // values as one keeps their sum exact (and the swaps commute here: every iteration adds
    // 1 to both values, whatever the order).
    Var x("x");
    RDom r(0, 400, 0, 30, "r");
    Func f("swapped");
    f(x) = Tuple(x, 2 * x);
    f(r.x % 7) = Tuple(f(r.x % 7)[1] + 1, f(r.x % 7)[0] + 1);
    f.update().atomic().parallel(r.y);
    Realization out = f.realize({7});
    Buffer<int> a(out[0]), b(out[1]);
    for (int k = 0; k < 7; k++) {
        CAPTURE(k);
        int updates = 30 * (400 / 7 + (k < 400 % 7 ? 1 : 0));
        CHECK(a(k) + b(k) == 3 * k + 2 * updates);
        // An even number of swaps leaves each value on its side.
        if (updates % 2 == 0) CHECK(a(k) == k + updates);
    }
}

TEST_CASE("atomic() of a Tuple update with no RDom, or with RVar loops that touch distinct points") {
    // As Halide's atomic_tuples: no order check applies where no two iterations touch a point.
    Var x("x"), y("y");
    Func f("coupled");
    f(x, y) = Tuple(x, y);
    f(x, y) = Tuple(f(x, y)[1] + x, f(x, y)[0] + y);
    f.compute_root().update().parallel(y).atomic();
    Func g("sum_of_coupled");
    g(x, y) = f(x, y)[0] + f(x, y)[1];
    Buffer<int> out = g.realize({40, 30});
    for (int yy = 0; yy < 30; yy++)
        for (int xx = 0; xx < 40; xx++) CHECK(out(xx, yy) == 2 * xx + 2 * yy);

    Func h("even_rows");
    RDom r(0, 20, "r");
    h(x, y) = Tuple(x, y);
    h(x, r * 2) = Tuple(h(x, r * 2 + 1)[1] + x, h(x, r * 2 - 1)[0] + r * 2);
    h.compute_root().update().parallel(r).atomic();
    Func k("sum_of_even_rows");
    k(x, y) = h(x, y)[0] + h(x, y)[1];
    Buffer<int> rows = k.realize({16, 40});
    for (int yy = 0; yy < 40; yy++)
        for (int xx = 0; xx < 16; xx++) CHECK(rows(xx, yy) == (yy % 2 == 0 ? 2 * xx + 2 * yy + 1 : xx + yy));
}
