// LoopLevel objects, as in Halide: f.compute_at(LoopLevel(g, x)) is f.compute_at(g, x),
// LoopLevel::root() and ::inlined() are compute_root() and compute_inline(), a stage index names
// one stage of the consumer (checked: it must exist and cover every use), and a generator takes
// a GeneratorParam<LoopLevel> ("root", "inlined", "func.var"). A LoopLevel is a handle: set()
// on any copy moves every Func scheduled with it, until the pipeline is compiled and after.
#include "TestUtil.h"

using namespace halo;

namespace {

struct Chain {
    Var x{"x"}, y{"y"};
    Func p{"p"}, q{"q"}, c{"c"};
    explicit Chain(const Buffer<int> &in) {
        p(x, y) = in(x, y) * 3 + in(x + 1, y - 1);
        q(x, y) = p(x - 1, y) + p(x + 1, y + 1);
        c(x, y) = q(x, y) * 2 - q(x, y - 1);
    }
};

Buffer<int> input() {
    Buffer<int> in = halo_test::int_buffer_at(60, 60, -20, -20);
    halo_test::fill_random(in, -99, 99, 11);
    return in;
}

}  // namespace

TEST_CASE("compute_at and store_at with a LoopLevel lower exactly as with (Func, Var)") {
    Buffer<int> in = input();
    for (int variant = 0; variant < 4; variant++) {
        Chain a(in), b(in);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        for (Chain *ch : {&a, &b}) ch->c.tile(ch->x, ch->y, xo, yo, xi, yi, 8, 4);
        switch (variant) {
        case 0:
            a.q.compute_at(a.c, xo);
            b.q.compute_at(LoopLevel(b.c, xo));
            break;
        case 1:
            a.q.compute_at(a.c, xo);
            a.p.compute_at(a.q, a.y);
            b.q.compute_at(LoopLevel(b.c, xo));
            b.p.compute_at(LoopLevel(b.q, b.y));
            break;
        case 2:
            a.q.store_at(a.c, yo).compute_at(a.c, xo);
            b.q.store_at(LoopLevel(b.c, yo)).compute_at(LoopLevel(b.c, xo));
            break;
        default:
            a.p.compute_root();
            a.q.compute_inline();
            b.p.compute_at(LoopLevel::root());
            b.q.compute_at(LoopLevel::inlined());
            break;
        }
        INFO("variant " << variant << "\n" << b.c.lowered_stmt());
        CHECK(a.c.lowered_stmt() == b.c.lowered_stmt());
        Buffer<int> dst = halo_test::int_buffer_at(21, 11, -7, -5);  // tiles do not divide
        halo_test::check_against_reference(b.c, dst);
    }
}

TEST_CASE("store_at(LoopLevel::inlined()) stores the Func where it is computed, store_at(root()) at the root") {
    Buffer<int> in = input();
    Chain a(in), b(in), c(in);
    a.q.store_root().compute_at(a.c, a.y);
    b.q.store_at(LoopLevel::root()).compute_at(LoopLevel(b.c, b.y));
    CHECK(a.c.lowered_stmt() == b.c.lowered_stmt());
    c.q.store_root().compute_at(c.c, c.y);
    c.q.store_at(LoopLevel::inlined());
    Chain d(in);
    d.q.compute_at(d.c, d.y);
    CHECK(c.c.lowered_stmt() == d.c.lowered_stmt());
    halo_test::check_against_reference(c.c, halo_test::int_buffer_at(9, 7, -3, 4));
}

TEST_CASE("a LoopLevel with a stage index computes the producer in that stage of the consumer") {
    Buffer<int> in = input();
    Var x("x"), y("y");
    Func p("p"), c("c");
    p(x, y) = in(x, y) + in(x - 1, y + 2);
    c(x, y) = x - y;
    c(x, y) += p(x, y) * 5;  // stage 1 (update 0) is the only one that calls p
    p.compute_at(LoopLevel(c, x, 1));
    INFO(c.lowered_stmt());
    halo_test::check_against_reference(c, halo_test::int_buffer_at(10, 6, -4, -3));
    CHECK(LoopLevel(c, x, 1).stage_index() == 1);
    CHECK(LoopLevel(c, x).stage_index() == -1);
}

TEST_CASE("a LoopLevel's stage index that does not cover every use is refused, naming the stages") {
    Buffer<int> in = input();
    Var x("x"), y("y");
    {
        Func p("p"), c("c");
        p(x, y) = in(x, y) * 2;
        c(x, y) = x + y;
        c(x, y) += p(x, y);
        p.compute_at(LoopLevel(c, x, 0));  // the pure definition does not call p
        std::string err = halo_test::compile_error_of([&] { c.realize({4, 4}); });
        INFO(err);
        CHECK(halo_test::contains(err, "Func 'p' is scheduled compute_at(LoopLevel(c, x, 0))"));
        CHECK(halo_test::contains(err, "that stage does not call 'p' and c's update 0 calls it"));
    }
    {
        Func p("p"), c("c");
        p(x, y) = in(x, y) * 2;
        c(x, y) = p(x, y);
        c(x, y) += p(x + 1, y);
        p.compute_at(LoopLevel(c, y, 1));  // the pure definition calls p too
        std::string err = halo_test::compile_error_of([&] { c.realize({4, 4}); });
        INFO(err);
        CHECK(halo_test::contains(err, "c's pure definition also calls it, outside that stage's loops"));
        CHECK(halo_test::contains(err, "Use compute_at(c, y) without a stage index"));
    }
    {
        Func p("p"), c("c");
        p(x, y) = in(x, y) * 2;
        c(x, y) = p(x, y);
        p.compute_at(LoopLevel(c, x, 3));
        std::string err = halo_test::compile_error_of([&] { c.realize({4, 4}); });
        INFO(err);
        CHECK(halo_test::contains(err, "but 'c' has 1 stage(s): 0 is its pure definition, k its update k - 1"));
    }
    {
        Func c("c");
        c(x, y) = x;
        std::string err = halo_test::compile_error_of([&] { LoopLevel(c, x, -2); });
        INFO(err);
        CHECK(halo_test::contains(err, "LoopLevel(c, x, -2): the stage index is 0 for the pure definition"));
    }
}

namespace {

class Leveled : public Generator<Leveled> {
public:
    GeneratorParam<LoopLevel> intermediate_level{"intermediate_level", LoopLevel::root()};
    Input<Buffer<int>> input{"input", 2};
    Output<Buffer<int>> output{"output", 2};
    void generate() {
        intermediate(x, y) = input(x, y) * 2 + 1;
        output(x, y) = intermediate(x, y) + intermediate(x + 1, y);
    }
    void schedule() { intermediate.compute_at(intermediate_level); }
    Var x{"x"}, y{"y"};
    Func intermediate{"intermediate"};
};

int count(const std::string &s, const std::string &part) {
    int n = 0;
    for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1)) n++;
    return n;
}

}  // namespace

TEST_CASE("GeneratorParam<LoopLevel> takes root, inlined and func.var, and refuses other text") {
    Buffer<int> in(12, 5);
    halo_test::fill_random(in, -50, 50, 5);
    for (const char *text : {"root", "inlined", "inline", "output.y", "output.x"}) {
        Leveled g;
        g.set_param("intermediate_level", text);
        Func out = g.build();
        g.input.set(in);
        INFO(text << "\n" << out.lowered_stmt());
        CHECK(count(out.lowered_stmt(), "produce intermediate") == (std::string(text).rfind("inline", 0) == 0 ? 0 : 1));
        Buffer<int> dst(11, 5);
        out.realize(dst);
        bool all_match = true;
        for (int y = 0; y < 5; y++)
            for (int x = 0; x < 11; x++) all_match &= dst(x, y) == in(x, y) * 2 + 1 + in(x + 1, y) * 2 + 1;
        CHECK(all_match);
    }
    Leveled g;
    CHECK(g.intermediate_level.value_string() == "root");
    CHECK(g.intermediate_level.type_name() == "LoopLevel (root, inlined or func.var)");
    g.set_param("intermediate_level", "output.y");
    CHECK(g.intermediate_level.value_string() == "output.y");
    g.set_param("intermediate_level", "inline");
    CHECK(g.intermediate_level.value_string() == "inlined");
    for (const char *bad : {"", "output", ".y", "output.", "output y"}) {
        std::string err = halo_test::compile_error_of([&] { g.set_param("intermediate_level", bad); });
        INFO("'" << bad << "': " << err);
        CHECK(halo_test::contains(err, std::string("GeneratorParam 'intermediate_level' is a LoopLevel; '") + bad +
                                           "' is not root, inlined or func.var"));
    }
}

TEST_CASE("a GeneratorParam<LoopLevel> naming a loop that does not exist is refused when the pipeline is lowered") {
    Leveled g;
    g.set_param("intermediate_level", "output.z");
    Func out = g.build();
    std::string err = halo_test::compile_error_of([&] { out.lowered_stmt(); });
    INFO(err);
    CHECK(halo_test::contains(err, "Func 'intermediate' is scheduled compute_at(output, z)"));
    CHECK(halo_test::contains(err, "has no loop 'z'"));
}

// Halide's correctness/deferred_loop_level: levels given to compute_at and store_at while still
// undefined, set() afterwards. Each case must lower exactly as the same placement given directly.
TEST_CASE("LoopLevels set() after compute_at and store_at place the Func as if given directly") {
    Buffer<int> in = input();
    for (int variant = 0; variant < 6; variant++) {
        Chain a(in), b(in);
        Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
        for (Chain *ch : {&a, &b}) ch->c.tile(ch->x, ch->y, xo, yo, xi, yi, 8, 4);
        LoopLevel compute_at, store_at;  // undefined until set()
        b.q.compute_at(compute_at).store_at(store_at);
        switch (variant) {
        case 0:  // both at a consumer loop
            compute_at.set(LoopLevel(b.c, xo));
            store_at.set(LoopLevel(b.c, xo));
            a.q.compute_at(a.c, xo);
            break;
        case 1:  // both inlined
            compute_at.set(LoopLevel::inlined());
            store_at.set(LoopLevel::inlined());
            break;
        case 2:  // both at the root
            compute_at.set(LoopLevel::root());
            store_at.set(LoopLevel::root());
            a.q.compute_root();
            break;
        case 3:  // stored at the root, computed per row of tiles
            compute_at.set(LoopLevel(b.c, yo));
            store_at.set(LoopLevel::root());
            a.q.store_root().compute_at(a.c, yo);
            break;
        case 4:  // store_at inlined(): stored where computed
            compute_at.set(LoopLevel(b.c, yo));
            store_at.set(LoopLevel::inlined());
            a.q.compute_at(a.c, yo);
            break;
        default:  // set twice, the second through a copy: the last set() counts
            compute_at.set(LoopLevel::root());
            store_at.set(LoopLevel::inlined());
            LoopLevel copy = compute_at;
            copy.set(LoopLevel(b.c, xo));
            a.q.compute_at(a.c, xo);
            break;
        }
        INFO("variant " << variant << "\n" << b.c.lowered_stmt());
        CHECK(a.c.lowered_stmt() == b.c.lowered_stmt());
        halo_test::check_against_reference(b.c, halo_test::int_buffer_at(21, 11, -7, -5));  // tiles do not divide
    }
}

TEST_CASE("copies of a LoopLevel share what set() gives them, and a new LoopLevel is a new handle") {
    Func g("g");
    Var x("x");
    g(x) = x;
    LoopLevel a;
    CHECK(!a.defined());
    CHECK(a.to_string() == "undefined");
    LoopLevel b = a;
    b.set(LoopLevel(g, x));
    CHECK(a.defined());
    CHECK(a.to_string() == "g.x");
    CHECK(a == LoopLevel(g, x));
    a = LoopLevel::root();  // a is now another handle: b keeps its level
    CHECK(a.is_root());
    CHECK(b.to_string() == "g.x");
    LoopLevel c = LoopLevel::inlined();
    c.set(b);  // the value b has now, not b's handle
    b.set(LoopLevel::root());
    CHECK(c.is_inlined() == false);
    CHECK(c.to_string() == "g.x");
    CHECK(b.is_root());
    CHECK(&c.lock() == &c);
}

TEST_CASE("a LoopLevel set() after the Func was compiled recompiles it at the new level") {
    Buffer<int> in = input();
    Chain a(in), b(in);
    LoopLevel level = LoopLevel::root();
    b.p.compute_at(level);
    Buffer<int> dst = halo_test::int_buffer_at(13, 9, -4, 2);
    halo_test::check_against_reference(b.c, dst);
    a.p.compute_root();
    CHECK(a.c.lowered_stmt() == b.c.lowered_stmt());
    level.set(LoopLevel(b.c, b.y));
    Chain d(in);
    d.p.compute_at(d.c, d.y);
    CHECK(d.c.lowered_stmt() == b.c.lowered_stmt());
    halo_test::check_against_reference(b.c, dst);
}

TEST_CASE("a GeneratorParam<LoopLevel> set after build() moves the Func its schedule placed") {
    Buffer<int> in(12, 5);
    halo_test::fill_random(in, -50, 50, 7);
    Leveled g;
    Func out = g.build();
    g.input.set(in);
    CHECK(count(out.lowered_stmt(), "produce intermediate") == 1);
    g.intermediate_level.set(LoopLevel::inlined());
    CHECK(count(out.lowered_stmt(), "produce intermediate") == 0);
    Buffer<int> dst(11, 5);
    out.realize(dst);
    bool all_match = true;
    for (int y = 0; y < 5; y++)
        for (int x = 0; x < 11; x++) all_match &= dst(x, y) == in(x, y) * 2 + 1 + in(x + 1, y) * 2 + 1;
    CHECK(all_match);
}

TEST_CASE("a LoopLevel still undefined, or set() to a loop of the Func itself, is refused when compiled") {
    Buffer<int> in = input();
    {
        Chain ch(in);
        LoopLevel store;
        ch.q.compute_root().store_at(store);
        std::string err = halo_test::compile_error_of([&] { ch.c.lowered_stmt(); });
        INFO(err);
        CHECK(halo_test::contains(err, "Func 'q' is stored at a LoopLevel that is still undefined"));
        CHECK(halo_test::contains(err, "set()"));
        store.set(LoopLevel::root());
        halo_test::check_against_reference(ch.c, halo_test::int_buffer_at(5, 5, 0, 0));
    }
    {
        Chain ch(in);
        LoopLevel level;
        ch.q.compute_at(level);
        level.set(LoopLevel(ch.q, ch.x));
        std::string err = halo_test::compile_error_of([&] { ch.c.lowered_stmt(); });
        INFO(err);
        CHECK(halo_test::contains(err, "Func 'q': compute_at(q, x) places a Func inside its own loops"));
    }
}

TEST_CASE("func() and var() of a LoopLevel name its consumer and loop, as Halide's, and follow set()") {
    Func g("g");
    Var x("x");
    RDom r(0, 4, "r");
    g(x) = x;
    g(x) += r;
    LoopLevel at_x(g, x), at_r(g, r.x, 1);
    CHECK(at_x.func() == "g");
    CHECK(at_x.var().name() == "x");
    CHECK_FALSE(at_x.var().is_rvar);
    CHECK(at_r.var().name() == r.x.name());
    CHECK(at_r.var().is_rvar);
    CHECK(at_r.stage_index() == 1);
    LoopLevel later, copy = later;
    later.set(at_r);
    CHECK(copy.func() == "g");
    CHECK(copy.var().is_rvar);
    // A VarOrRVar made from a name, as Halide's VarOrRVar(name, is_rvar).
    VarOrRVar named("xo", false);
    CHECK(named.name() == "xo");
    CHECK(named.var.name() == "xo");
    std::string msg = halo_test::compile_error_of([] { (void)LoopLevel::root().func(); });
    CHECK(halo_test::contains(msg, "LoopLevel root: func() names the consumer of a level inside a Func's loops"));
    msg = halo_test::compile_error_of([] { (void)LoopLevel::inlined().var(); });
    CHECK(halo_test::contains(msg, "var() names the loop of a level inside a Func's loops; this level has none"));
    msg = halo_test::compile_error_of([] { (void)LoopLevel().var(); });
    CHECK(halo_test::contains(msg, "(test is_root() and is_inlined() first)"));
}
