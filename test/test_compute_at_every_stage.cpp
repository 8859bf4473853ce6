// compute_at(consumer, x) without naming a stage, when several stages of the consumer use
// the producer and each has a loop x, computes the producer inside each of those loops: one
// realization per stage (Halide's tutorial 9, "case 3"). With store_at outside, the stages
// share one buffer. A LoopLevel naming a stage (LoopLevel(consumer, x, 1)) keeps meaning that stage.
#include "TestUtil.h"

using namespace halo;

namespace {

int count_produces(const std::string &stmt, const std::string &name) {
    int n = 0;
    for (size_t at = stmt.find("produce " + name + " "); at != std::string::npos;
         at = stmt.find("produce " + name + " ", at + 1)) {
        n++;
    }
    return n;
}

}  // namespace

TEST_CASE("a producer used by the pure step and the update is computed inside both (Halide's tutorial 9)") {
    Var x("x");
    Func producer("producer"), consumer("consumer");
    producer(x) = x * 17;
    consumer(x) = 170 - producer(x);
    consumer(x) += producer(x) / 2;
    producer.compute_at(consumer, x);
    Buffer<int> out = consumer.realize({10});
    for (int i = 0; i < 10; i++) {
        INFO("x = " << i);
        CHECK(out(i) == 170 - i * 17 + i * 17 / 2);
    }
    CHECK(count_produces(consumer.lowered_stmt(), "producer") == 2);
}

TEST_CASE("compute_at every using stage, in 2-D, over sizes tiles do not divide and negative mins") {
    Buffer<int> in = halo_test::int_buffer_at(80, 80, -20, -20);
    halo_test::fill_random(in, -50, 50, 7);
    for (int variant = 0; variant < 6; variant++) {
        Var x("x"), y("y"), xo("xo"), xi("xi"), yo("yo"), yi("yi");
        Func p("p"), c("c");
        RDom r(0, 3);
        p(x, y) = in(x, y) * 2 + in(x + 1, y - 1);
        c(x, y) = p(x, y) - p(x - 1, y + 1);
        c(x, y) += p(x + r, y) * (r + 1);
        switch (variant) {
        case 0: p.compute_at(c, x); break;
        case 1: p.compute_at(c, y); break;
        case 2: p.store_at(c, y).compute_at(c, x); break;
        case 3: p.store_root().compute_at(c, y); break;  // one buffer, sliding in both stages
        case 4:
            c.split(y, yo, yi, 4, TailStrategy::GuardWithIf);
            c.update().split(y, yo, yi, 4, TailStrategy::GuardWithIf);
            p.compute_at(c, yo);
            break;
        default:
            c.vectorize(x, 4, TailStrategy::GuardWithIf);
            c.update().vectorize(x, 4, TailStrategy::GuardWithIf);
            p.compute_at(c, y);
            break;
        }
        INFO("variant " << variant << "\n" << c.lowered_stmt());
        Buffer<int> dst = halo_test::int_buffer_at(13, 9, -7, -5);
        halo_test::check_against_reference(c, dst);
        CHECK(count_produces(c.lowered_stmt(), "p") == 2);
    }
}

TEST_CASE("a stage named in compute_at keeps meaning that stage, and a stage that does not use the producer gets none") {
    Var x("x"), y("y");
    Buffer<int> in = halo_test::int_buffer_at(40, 40, -10, -10);
    halo_test::fill_random(in, -9, 9, 3);
    {
        // Used by the update only: computed there only.
        Func p("p"), c("c");
        p(x, y) = in(x, y) + 1;
        c(x, y) = x + y;
        c(x, y) += p(x, y);
        p.compute_at(c, x);
        Buffer<int> dst = halo_test::int_buffer_at(7, 5, -3, 2);
        halo_test::check_against_reference(c, dst);
        CHECK(count_produces(c.lowered_stmt(), "p") == 1);
    }
    {
        // Used by three stages, two of which have the loop y only in name: all three.
        Func p("p"), c("c");
        RDom r(0, 2);
        p(x, y) = in(x, y) * 3;
        c(x, y) = p(x, y);
        c(x, y) += p(x + 1, y);
        c(x, y) += p(x + r, y + r);
        p.compute_at(c, y);
        Buffer<int> dst = halo_test::int_buffer_at(9, 6, -4, -2);
        halo_test::check_against_reference(c, dst);
        CHECK(count_produces(c.lowered_stmt(), "p") == 3);
    }
}

TEST_CASE("a producer the stages use at a loop only one of them has is still refused, with the loops named") {
    Var x("x"), y("y");
    Func p("p"), c("c");
    RDom r(0, 4);
    p(x, y) = x + y;
    c(x, y) = p(x, y);
    c(r, 0) += p(r, r);  // this update has no loop x
    p.compute_at(c, x);
    std::string err = halo_test::compile_error_of([&] { c.realize({4, 4}); });
    INFO(err);
    CHECK(halo_test::contains(err, "'p'"));
    CHECK(halo_test::contains(err, "compute_at(c, x)"));
}
