// random_float / random_uint / random_int (Halide's): each call a random variable that depends
// only on the point, the Func, the definition, the call and the seed, so every schedule and the
// reference evaluator agree.
#include <set>

#include "TestUtil.h"

using namespace halo;
using halo_test::compare;

TEST_CASE("random_float is uniform below 1 and the same under any schedule and in the reference") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    // (As in Halide, each random_float() call is a new variable: the pipelines share one call.)
    Expr rnd = random_float();
    auto make = [&](int schedule) {
        Func noise("noise"), out("out");
        noise(x, y) = rnd;
        out(x, y) = noise(x, y) + noise(x + 1, y) * 0;
        if (schedule == 1) {
            out.split(x, xo, xi, 8).vectorize(xi).parallel(y);
            noise.compute_at(out, xo).vectorize(x, 8);
        } else if (schedule == 2) {
            noise.compute_root().vectorize(x, 16);
        }
        return out;
    };
    Buffer<float> a = make(0).realize({101, 37});
    Buffer<float> b = make(1).realize({101, 37});
    Buffer<float> c = make(2).realize({101, 37});
    Buffer<> ref(Float(32), {101, 37});
    reference_realize(make(0), ref);
    CHECK(compare(a, b).empty());
    CHECK(compare(a, c).empty());
    CHECK(compare(a, ref).empty());
    double sum = 0;
    std::set<float> distinct;
    int below_tenth = 0;
    for (int j = 0; j < 37; j++) {
        for (int i = 0; i < 101; i++) {
            float v = a(i, j);
            REQUIRE(v >= 0.0f);
            REQUIRE(v < 1.0f);
            sum += v;
            distinct.insert(v);
            below_tenth += v < 0.1f;
        }
    }
    double n = 101.0 * 37.0;
    CHECK(std::abs(sum / n - 0.5) < 0.02);
    CHECK(distinct.size() > size_t(n * 0.99));
    CHECK(std::abs(below_tenth / n - 0.1) < 0.02);
}

TEST_CASE("two random calls are independent, one used twice is one variable, and Tuples share it") {
    Var x("x");
    Func twice("twice"), two("two"), tup("tup");
    Expr r = random_float();
    twice(x) = r - r;
    two(x) = random_float() - random_float();
    Expr u = random_uint();
    tup(x) = Tuple(u, u + 1);
    Buffer<float> a = twice.realize({50});
    Buffer<float> b = two.realize({50});
    int nonzero = 0;
    for (int k = 0; k < 50; k++) {
        CHECK(a(k) == 0.0f);
        nonzero += b(k) != 0.0f;
    }
    CHECK(nonzero > 45);
    Realization t = tup.realize({20});
    Buffer<uint32_t> t0 = t[0], t1 = t[1];
    for (int k = 0; k < 20; k++) CHECK(t1(k) == t0(k) + 1);
}

TEST_CASE("random numbers depend on the seed, the definition and the RVars of an update") {
    Var x("x");
    Param<int> seed("seed");
    Func f("f"), g("g");
    f(x) = random_int(seed);
    RDom r(0, 4, "r");
    g(x) = 0;
    g(x) += random_int() % 2 + 2;  // 2 or 3
    seed.set(1);
    Buffer<int> s1 = f.realize({64});
    seed.set(2);
    Buffer<int> s2 = f.realize({64});
    int same = 0;
    for (int k = 0; k < 64; k++) same += s1(k) == s2(k);
    CHECK(same < 3);
    Func h("h");
    h(x) = cast<uint32_t>(0);
    h(x) += random_uint() % 1000 + cast<uint32_t>(r * 0);  // one value per (x, r)
    h.update().vectorize(x, 8);
    Buffer<uint32_t> ho = h.realize({32});
    Buffer<> href(UInt(32), {32});
    reference_realize(h, href);
    CHECK(compare(ho, href).empty());
    Buffer<int> go = g.realize({16});
    for (int k = 0; k < 16; k++) {
        CHECK(go(k) >= 2);
        CHECK(go(k) <= 3);
    }
}

TEST_CASE("random numbers in an RDom's where() depend on the RDom's point") {
    Var x("x");
    RDom r(0, 200, "r");
    Expr keep = random_float() < 0.5f;
    r.where(keep);
    Func f("f");
    f(x) = 0;
    f(r) = 1;
    Buffer<int> a = f.realize({200});
    Buffer<> ref(Int(32), {200});
    reference_realize(f, ref);
    CHECK(compare(a, ref).empty());
    int ones = 0;
    for (int k = 0; k < 200; k++) ones += a(k);
    CHECK(ones > 70);
    CHECK(ones < 130);
}

TEST_CASE("random numbers outside a definition are an error that says where they may be") {
    Var x("x");
    Func f("f");
    f(x) = x;
    f.bound(x, 0, cast<int>(random_uint() % 4) + 10);
    std::string msg = halo_test::compile_error_of([&] { f.realize({10}); });
    CHECK(halo_test::contains(msg, "is used outside a Func's definition and an RDom's where()"));
}
