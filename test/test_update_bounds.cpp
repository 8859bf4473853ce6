// Update definitions that read their own Func: every stage must be computed wherever the
// later stages of the same Func read or write it, not only where the consumers need it.
#include "TestUtil.h"

using namespace halo;
using halo_test::check_against_reference;
using halo_test::compile_error_of;
using halo_test::runtime_error_of;

namespace {

bool has(const std::string &s, const std::string &part) { return halo_test::contains(s, part); }

// The schedules every test below runs: the producer at the root, inside the consumer's loop,
// and left to the default placement.
enum class Place { Root, AtConsumer, Default };
const Place all_places[] = {Place::Root, Place::AtConsumer, Place::Default};

void place(Func producer, Func consumer, Var x, Place p) {
    if (p == Place::Root) producer.compute_root();
    if (p == Place::AtConsumer) producer.compute_at(consumer, x);
}

}  // namespace

TEST_CASE("a scan read by a consumer that needs only its first values") {
    Buffer<int> in = halo_test::random_image<int>({64}, 1);
    for (Place p : all_places) {
        Var x("x");
        Func s("s"), out("out");
        RDom r(1, 63);
        s(x) = in(x);
        s(r) = s(r - 1) + in(r);
        out(x) = s(x);
        place(s, out, x, p);
        check_against_reference(out, Buffer<int>(10));
        Buffer<int> o = out.realize({10});
        int acc = 0;
        for (int i = 0; i < 10; i++) {
            acc += in(i);
            CHECK(o(i) == acc);
        }
    }
}

TEST_CASE("Fibonacci as an update over an RDom") {
    for (Place p : all_places) {
        Var x("x");
        Func f("f"), out("out");
        RDom r(2, 20);
        f(x) = 1;
        f(r) = f(r - 1) + f(r - 2);
        out(x) = f(x);
        place(f, out, x, p);
        Buffer<int> o = out.realize({10});
        int expect[10] = {1, 1, 2, 3, 5, 8, 13, 21, 34, 55};
        for (int i = 0; i < 10; i++) CHECK(o(i) == expect[i]);
        check_against_reference(out, Buffer<int>(12));
    }
}

TEST_CASE("an update reading ahead of where it writes (f(r) = f(r + 1) + 1)") {
    for (Place p : all_places) {
        Var x("x");
        Func f("f"), out("out");
        RDom r(0, 10);
        f(x) = x;
        f(r) = f(r + 1) + 1;
        out(x) = f(x);
        place(f, out, x, p);
        Buffer<int> o = out.realize({10});
        // Each f(r) reads f(r + 1) before the loop reaches it: r + 1 + 1.
        for (int i = 0; i < 10; i++) CHECK(o(i) == i + 2);
        check_against_reference(out, Buffer<int>(10));
    }
}

TEST_CASE("a histogram scatter followed by a shifting update") {
    Buffer<int> idx(std::vector<int>{5}, "idx");
    int values[5] = {0, 3, 6, 2, 5};
    for (int i = 0; i < 5; i++) idx(i) = values[i];
    for (Place p : all_places) {
        Var x("x");
        Func f("f"), g("g");
        RDom r(0, 5);
        f(x) = 0;
        f(clamp(idx(r), 0, 9)) += 1;
        f(r) = f(r + 1);
        g(x) = f(x);
        place(f, g, x, p);
        Buffer<int> o = g.realize({5});
        // Counts 1 at 0, 2, 3, 5, 6; then f(r) = f(r + 1) for r = 0..4 in order.
        int expect[5] = {0, 1, 1, 0, 1};
        for (int i = 0; i < 5; i++) CHECK(o(i) == expect[i]);
        check_against_reference(g, Buffer<int>(5));
    }
}

TEST_CASE("a scan in one dimension of a 2-D Func, with a non-zero output min") {
    Buffer<int> in = halo_test::random_image<int>({40, 6}, 2);
    Var x("x"), y("y");
    Func s("s"), out("out");
    RDom r(1, 39);
    s(x, y) = in(x, y);
    s(r, y) = s(r - 1, y) % 1000 * 2 + in(r, y) % 5;
    out(x, y) = s(x + 3, y);
    s.compute_at(out, y);
    Buffer<int> o(5, 4);
    o.set_min(2, 1);
    check_against_reference(out, o);
}

TEST_CASE("an output Func whose update reads outside its buffer is a clear error") {
    Var x("x");
    Func f("f");
    RDom r(0, 10);
    f(x) = x;
    f(r) = f(r + 1) + 1;
    Buffer<int> ten(10);
    std::string msg = runtime_error_of([&] { f.realize(ten); });
    INFO(msg);
    CHECK(has(msg, "output 'f'"));
    CHECK(has(msg, "in [0, 10]"));
    CHECK(has(msg, "covers [0, 9]"));
    CHECK(has(msg, "update"));
    // Realizing everything the update touches works.
    Buffer<int> o = f.realize({11});
    for (int i = 0; i < 10; i++) CHECK(o(i) == i + 2);
    CHECK(o(10) == 10);
    // And realize(sizes) computes that and returns the 10 points asked for (as Halide).
    Buffer<int> cropped = f.realize({10});
    CHECK(cropped.dim(0).extent() == 10);
    for (int i = 0; i < 10; i++) CHECK(cropped(i) == i + 2);
}

TEST_CASE("an update may not read its own Func at another value of a pure Var") {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x + y;
    std::string msg = compile_error_of([&] { f(x, y) = f(x - 1, y) + 1; });
    INFO(msg);
    CHECK(has(msg, "Func 'f'"));
    CHECK(has(msg, "pure Var 'x'"));
    CHECK(has(msg, "RDom"));
    // At the same x, and anywhere in a dimension the left side does not name by a pure Var, is fine.
    RDom r(1, 5);
    CHECK_NOTHROW(f(x, y) = f(x, y) * 2);
    CHECK_NOTHROW(f(x, r) = f(x, r - 1) + f(x, 0));
    check_against_reference(f, Buffer<int>(4, 8));
}

TEST_CASE("an update writing at r / k, k one value of any kind (a float Param's cast, a math call), is bounded") {
    // k does not vary in the loops, so r / k lies between the quotients of r's ends. Halo called
    // int32(p) of a float Param, and any math call, unbounded; and suggested a bound() that did
    // not help (where an update writes can only be clamped).
    Var x("x");
    Param<float> p("p");
    p.set(4.5f);
    RDom r(0, 10, "r");
    Func f("f");
    f(x) = 0;
    f(r / cast<int>(p)) += 1;
    Buffer<int> out = f.realize({10});
    const int want[10] = {4, 4, 2, 0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 10; i++) CHECK(out(i) == want[i]);
    Func g("g");
    g(x) = 0;
    g(r / cast<int>(sqrt(cast<float>(p * p + 1.0f)))) += r;
    halo_test::check_against_reference(g, Buffer<int>(10));
    Buffer<int> data = halo_test::random_image<int>({10}, 5, -100, 100);
    Func h("h");
    h(x) = 0;
    h(data(r)) += 1;
    std::string msg = halo_test::compile_error_of([&] { h.realize({10}); });
    CHECK(halo_test::contains(msg, "Func 'h': update 0 writes at a position the compiler cannot bound in dimension 0 (x)"));
    CHECK(halo_test::contains(msg, "Clamp the position (clamp(e, lo, hi))"));
}
