// Func::clone_in as Halide users write it: a copy of a Func's definitions and schedule that the
// named consumers read instead of it (the cases of Halide's func_clone test, with the values
// checked and the loop nest read for which Funcs are produced).
#include <string>

#include "CompatUtil.h"
#include "dsl/Halo.h"
namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::thrown_message;

namespace {

// Every element of a 2-D int buffer equals want(x, y).
template <typename F>
int mismatches(const Buffer<int> &b, F want) {
    int bad = 0;
    for (int y = b.dim(1).min(); y <= b.dim(1).max(); y++)
        for (int x = b.dim(0).min(); x <= b.dim(0).max(); x++) bad += b(x, y) != want(x, y);
    return bad;
}

}  // namespace

TEST_CASE("clone_in asked again, or for the same consumers in another order, is the same clone") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y);
    Func clone = f.clone_in(g);
    CHECK(clone.name() == "f_clone_in_g");
    for (int i = 0; i < 3; i++) CHECK(f.clone_in(g).function() == clone.function());
    // in() for a consumer that has a clone returns the clone (one per consumer, as in Halide).
    CHECK(f.in(g).function() == clone.function());

    Func d("d"), e("e"), h("h"), k("k");
    d(x, y) = x + y;
    e(x, y) = d(x, y);
    h(x, y) = d(x, y);
    k(x, y) = d(x, y);
    Func one = d.clone_in({e, h, k});
    Func two = d.clone_in({k, h, e});
    CHECK(one.name() == "d_clone_in_e_h_k");
    CHECK(one.function() == two.function());
}

TEST_CASE("a consumer reads the clone and the original drops out") {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x) = x;
    g(x, y) = f(x);
    Func clone = f.clone_in(g).compute_root();
    f.compute_root();
    std::string nest = g.loop_nest();
    CHECK(contains(nest, "produce f_clone_in_g"));
    CHECK(!contains(nest, "produce f:"));
    Buffer<int> out = g.realize({50, 40});
    CHECK(mismatches(out, [](int x, int) { return x; }) == 0);
}

TEST_CASE("consumers sharing a clone, another reading the original") {
    Var x("x"), y("y");
    Func f("f"), g1("g1"), g2("g2"), g3("g3");
    f(x) = x;
    g1(x, y) = f(x);
    g2(x, y) = f(x) + 1;
    g3(x, y) = f(x) + 2;
    f.compute_root();
    Func shared = f.clone_in({g1, g2}).compute_root();
    Pipeline p({g1, g2, g3});
    std::string nest = p.loop_nest();
    CHECK(contains(nest, "produce f_clone_in_g1_g2"));
    CHECK(contains(nest, "produce f:"));
    Realization r = p.realize({30, 20});
    for (int i = 0; i < 3; i++) {
        Buffer<int> out = r[i];
        CHECK(mismatches(out, [i](int x, int) { return x + i; }) == 0);
    }
}

TEST_CASE("an update defined after clone_in reads the clone too, under every specialization") {
    Var x("x"), y("y"), xi("xi");
    Func f("f"), g("g");
    f(x, y) = x + y;
    g(x, y) = f(x, y);
    Func clone = f.clone_in(g);
    RDom r(0, 100, 0, 100);
    r.where(r.x < r.y);
    g(r.x, r.y) += 2 * f(r.x, r.y);
    Param<bool> param;
    RVar rxo("rxo"), rxi("rxi");
    g.specialize(param).vectorize(x, 8).unroll(x, 2).split(x, x, xi, 4).parallel(x);
    g.update(0).split(r.x, rxo, rxi, 2).unroll(rxi);
    f.compute_root();
    clone.compute_root().vectorize(x, 8).unroll(x, 2).split(x, x, xi, 4).parallel(x);
    auto want = [](int x, int y) { return (x <= 99 && y <= 99 && x < y) ? 3 * (x + y) : x + y; };
    for (bool value : {false, true}) {
        param.set(value);
        Buffer<int> out = g.realize({130, 110});
        CHECK(mismatches(out, want) == 0);
        CHECK(!contains(g.loop_nest(), "produce f:"));
    }
}

TEST_CASE("clones of Funcs whose producers have clones, several outputs") {
    Var x("x"), y("y");
    Func a("a"), b("b"), c("c"), d("d"), e("e"), f("f");
    a(x, y) = x + y;
    b(x, y) = a(x, y) + 1;
    e(x, y) = a(x, y) + 2;
    c(x, y) = b(x, y) + 2;
    d(x, y) = c(x, y) + 3;
    f(x, y) = c(x, y) + 4;
    a.clone_in(b).compute_root();
    c.clone_in(f).compute_root();
    for (Func *s : {&a, &b, &c, &d, &e, &f}) s->compute_root();
    Pipeline p({d, e, f});
    std::string nest = p.loop_nest();
    CHECK(contains(nest, "produce a_clone_in_b"));
    CHECK(contains(nest, "produce c_clone_in_f"));
    CHECK(contains(nest, "produce a:"));  // e still reads a
    Buffer<int> od(25, 25), oe(25, 25), of(25, 25);
    od.set_min({-7, 3});
    oe.set_min({-7, 3});
    of.set_min({-7, 3});
    p.realize({od, oe, of});
    CHECK(mismatches(od, [](int x, int y) { return x + y + 6; }) == 0);
    CHECK(mismatches(oe, [](int x, int y) { return x + y + 2; }) == 0);
    CHECK(mismatches(of, [](int x, int y) { return x + y + 7; }) == 0);
}

TEST_CASE("a clone of a clone") {
    Var x("x"), y("y");
    Func a("a"), b("b"), c("c"), d("d"), e("e"), f("f");
    a(x, y) = x + y;
    b(x, y) = a(x, y) + 1;
    c(x, y) = b(x, y) + 2;
    d(x, y) = b(x, y) + 3;
    e(x, y) = a(x, y) + b(x, y);
    f(x, y) = a(x, y) + b(x, y) + 1;
    Func b_clone = b.clone_in({d, f}).compute_root();
    Func a_clone = a.clone_in({b, e}).compute_root();
    Func a_clone_clone = a_clone.clone_in(e).compute_root();
    CHECK(a_clone_clone.name() == "a_clone_in_b_e_clone_in_e");
    for (Func *s : {&a, &b, &c, &d, &e, &f}) s->compute_root();
    Pipeline p({c, d, e, f});
    std::string nest = p.loop_nest();
    for (const char *n : {"produce b_clone_in_d_f", "produce a_clone_in_b_e:", "produce a_clone_in_b_e_clone_in_e",
                          "produce a:", "produce b:"}) {
        CHECK_MESSAGE(contains(nest, n), n);
    }
    Realization r = p.realize({25, 25});
    Buffer<int> oc = r[0], od = r[1], oe = r[2], of = r[3];
    CHECK(mismatches(oc, [](int x, int y) { return x + y + 3; }) == 0);
    CHECK(mismatches(od, [](int x, int y) { return x + y + 4; }) == 0);
    CHECK(mismatches(oe, [](int x, int y) { return 2 * x + 2 * y + 1; }) == 0);
    CHECK(mismatches(of, [](int x, int y) { return 2 * x + 2 * y + 2; }) == 0);
}

TEST_CASE("a clone's update reads the clone, so each copy of a reduction is scheduled apart") {
    RDom r(0, 8);
    Var x("x");
    Func sum("sum"), f("f"), g("g");
    sum(x) += r * x;
    f(x) = sum(x);
    g(x) = sum(x) * 2;
    // Legal only if the clone's update reads the clone: otherwise it would read sum's buffer
    // inside f's loop from g's.
    sum.clone_in(g).compute_at(g, x);
    sum.compute_at(f, x);
    Pipeline p({f, g});
    Buffer<int> of(128), og(128);
    of.set_min({-40});
    og.set_min({-40});
    p.realize({of, og});
    int bad = 0;
    for (int i = -40; i < 88; i++) bad += of(i) != 28 * i || og(i) != 56 * i;
    CHECK(bad == 0);
}

TEST_CASE("a clone keeps the schedule of its original as it was when cloned") {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("f"), g("g"), h("h"), out("out");
    f(x, y) = x * 3 - y;
    g(x, y) = f(x - 1, y) + f(x + 1, y);
    h(x, y) = f(x, y - 1) * 2;
    out(x, y) = g(x, y) + h(x, y);
    f.compute_root().vectorize(x, 4);
    Func fc = f.clone_in(h);  // computed at the root and vectorized, as f is now
    f.compute_at(out, y);     // only the original moves
    out.split(x, xo, xi, 7);
    std::string nest = out.loop_nest();
    CHECK(contains(nest, "produce f_clone_in_h"));
    Buffer<int> o(33, 21);
    o.set_min({-5, -9});
    out.realize(o);
    CHECK(mismatches(o, [](int x, int y) {
              return (x - 1) * 3 - y + (x + 1) * 3 - y + (x * 3 - (y - 1)) * 2;
          }) == 0);
}

TEST_CASE("clone_in mistakes are errors that say what to do") {
    Var x("x");
    Func undefined("undefined"), f("f"), g("g"), h("h"), k("k");
    CHECK(contains(thrown_message([&] { undefined.clone_in(g); }),
                   "Func 'undefined': clone_in() before it has a definition; define it first"));
    f(x) = x;
    g(x) = f(x) + 1;
    h(x) = g(x) + f(x);
    CHECK(contains(thrown_message([&] { f.clone_in(f); }), "clone_in(f) wraps a Func for its own use; name a consumer"));
    CHECK(contains(thrown_message([&] { f.clone_in(std::vector<Func>{}); }), "clone_in() of an empty list of consumers"));
    // A clone for a Func that does not read f.
    k(x) = x;
    Func out("out");
    out(x) = k(x) + h(x);
    f.clone_in(k);
    std::string msg = thrown_message([&] { out.realize({4}); });
    CHECK(contains(msg, "Func 'f': clone_in(k) wraps it for 'k', but 'k' does not call 'f', so the clone 'f_clone_in_k'"));
    // Two consumers that read different clones cannot share one.
    Func a("a"), b("b"), c("c");
    a(x) = x;
    b(x) = a(x);
    c(x) = a(x);
    a.clone_in(b);
    a.clone_in(c);
    CHECK(contains(thrown_message([&] { a.clone_in({b, c}); }),
                   "Func 'a': clone_in() of a list naming 'b' and 'c', which already read different wrappers of it"));
}
