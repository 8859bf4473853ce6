// A fifteenth batch of ports of programs from Halide's test/correctness directory (one TEST_CASE
// per program, or per part of one, each naming the Halide test it follows): async,
// async_deadlock and ring_buffer, whose schedules slide and fold storage (forwards and
// backwards, over one and two dimensions, through in() wrappers and under tiles that round up).
// The behaviour is rewritten, not copied: every result is compared point by point against
// plain C++ written here.
// Changed or not ported:
// - Halo has no async(): each port drops it, which leaves the schedule's placement, sliding and
//   folding (what decides the values) as Halide's. The semaphores async() adds are not ported.
// - async's "expensive" C function loops 16 times instead of 1024: the loop only slows the
//   producer down so that Halide's async tasks overlap.
// - async_deadlock's copy_to_host() (a GPU directive) is dropped, as are its 25 repetitions (a
//   thread-pool race Halo's runtime does not have), and its thread count.
// - aligned_split_blend_small_extent is adapted: Halo has no aligned_split and no *AndBlend
//   tail strategies, so the update is split plainly with each tail strategy an update takes,
//   vectorized or not, and realized over the same regions (every min in [-9, 9], every extent
//   in [1, 19]), with and without a Param shifting what the split's loops see.
// - ring_buffer's hoist_storage(consumer, yo) is written store_at(consumer, yo) (the producer
//   then slides along xo, where Halide only hoists the allocation) and hoist_storage_root()
//   store_root(); ring_buffer(n) is dropped (it only multiplies the buffer for async()).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "CompatUtil.h"
#include "dsl/Halo.h"

namespace Halide = halo;

using namespace Halide;
using halo_compat::mismatches;

extern "C" int ports15_expensive(int x) {
    float f = 3.0f;
    for (int i = 0; i < 16; i++) f = std::sqrt(std::sin(std::cos(f)));
    return f < 0 ? 3 : x;
}
HalideExtern_1(int, ports15_expensive, int);

namespace {

int check_2d(const Buffer<int> &out, const std::function<int(int, int)> &want) {
    return mismatches<int>(out, [&](const std::vector<int> &c) { return want(c[0], c[1]); });
}

}  // namespace

TEST_CASE("async: a compute_root producer (async dropped)") {
    Func producer, consumer;
    Var x, y;
    producer(x, y) = x + y;
    consumer(x, y) = ports15_expensive(producer(x - 1, y - 1) + producer(x + 1, y + 1));
    consumer.compute_root();
    producer.compute_root();
    Buffer<int> out = consumer.realize({16, 16});
    CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y); }) == 0);
}

TEST_CASE("async: sliding and folding over one variable, forwards and flipped (fold_storage(x, 8, false))") {
    for (bool flipped : {false, true}) {
        CAPTURE(flipped);
        Func producer, consumer;
        Var x;
        producer(x) = ports15_expensive(x);
        if (flipped) consumer(x) = ports15_expensive(producer(-x) + producer(-x + 1));
        else consumer(x) = ports15_expensive(producer(x) + producer(x - 1));
        consumer.compute_root();
        producer.store_root().fold_storage(x, 8, !flipped).compute_at(consumer, x);
        Buffer<int> out = consumer.realize({16});
        CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return flipped ? -2 * c[0] + 1 : 2 * c[0] - 1; }) == 0);
    }
}

TEST_CASE("async: sliding over y or over x and y, folding over y") {
    for (bool at_x : {false, true}) {
        CAPTURE(at_x);
        Func producer, consumer;
        Var x, y;
        producer(x, y) = x + y;
        consumer(x, y) = ports15_expensive(producer(x - 1, y - 1) + producer(x + 1, y + 1));
        consumer.compute_root();
        producer.store_root().fold_storage(y, 8).compute_at(consumer, at_x ? x : y);
        Buffer<int> out = consumer.realize({16, 16});
        CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y); }) == 0);
    }
}

TEST_CASE("async: sliding over x, folding over both x and y") {
    Func producer, consumer;
    Var x, y;
    producer(x, y) = x + y;
    consumer(x, y) = ports15_expensive(producer(x - 1, y) + producer(x + 1, y));
    consumer.compute_root();
    producer.store_root().fold_storage(x, 8).fold_storage(y, 2).compute_at(consumer, x);
    Buffer<int> out = consumer.realize({16, 16});
    CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y); }) == 0);
}

TEST_CASE("async: two producers at the root, and two inside a parallel loop (with and without sliding)") {
    for (int variant = 0; variant < 3; variant++) {
        CAPTURE(variant);
        Func producer_1, producer_2, consumer;
        Var x, y;
        if (variant == 2) {
            producer_1(x, y) = ports15_expensive(x);
            producer_2(x, y) = ports15_expensive(y);
            consumer(x, y) = ports15_expensive(producer_1(x - 1, y) + producer_1(x + 1, y) + producer_2(x - 2, y) +
                                               producer_2(x + 2, y));
        } else {
            producer_1(x, y) = x;
            producer_2(x, y) = y;
            consumer(x, y) = producer_1(x - 1, y) + producer_1(x + 1, y) + producer_2(x - 2, y) + producer_2(x + 2, y);
        }
        if (variant == 0) {
            producer_1.compute_root();
            producer_2.compute_root();
        } else if (variant == 1) {
            producer_1.compute_at(consumer, y);
            producer_2.compute_at(consumer, y);
            consumer.parallel(y);
        } else {
            producer_1.compute_at(consumer, x).store_at(consumer, y);
            producer_2.compute_at(consumer, x).store_at(consumer, y);
            consumer.parallel(y);
        }
        Buffer<int> out = consumer.realize({16, 16});
        CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y); }) == 0);
    }
}

TEST_CASE("async: nested producers, and two producer-consumer pairs over x in one over y") {
    {
        Func f0, f1, f2;
        Var x, y;
        f0(x, y) = x + y;
        f1(x, y) = f0(x - 1, y - 1) + f0(x + 1, y + 1);
        f2(x, y) = f1(x - 1, y - 1) + f1(x + 1, y + 1);
        f2.compute_root();
        f1.compute_at(f2, y);
        f0.compute_at(f1, x);
        Buffer<int> out = f2.realize({16, 16});
        CHECK(check_2d(out, [](int x, int y) { return 4 * (x + y); }) == 0);
    }
    {
        Func producer_1, consumer_1, producer_2, consumer_2;
        Var x, y;
        producer_1(x, y) = x + y;
        consumer_1(x, y) = producer_1(x - 1, y) + producer_1(x + 1, y);
        producer_2(x, y) = consumer_1(x, y - 1) + consumer_1(x, y + 1);
        consumer_2(x, y) = producer_2(x - 1, y) + producer_2(x + 1, y);
        consumer_2.compute_root();
        producer_2.store_at(consumer_2, y).compute_at(consumer_2, x);
        consumer_1.store_root().compute_at(consumer_2, y);
        producer_1.store_at(consumer_2, y).compute_at(consumer_1, x);
        Buffer<int> out = consumer_2.realize({16, 16});
        CHECK(check_2d(out, [](int x, int y) { return 8 * (x + y); }) == 0);
    }
}

TEST_CASE("async: sliding and folding over y with a footprint that stops growing, forwards and flipped") {
    for (bool flipped : {false, true}) {
        CAPTURE(flipped);
        Func producer, consumer;
        Var x, y;
        producer(x, y) = x + y;
        Expr lo = min(y - 1, 15), hi = min(y + 1, 17);
        if (flipped) consumer(x, y) = ports15_expensive(producer(x - 1, -lo) + producer(x + 1, -hi));
        else consumer(x, y) = ports15_expensive(producer(x - 1, lo) + producer(x + 1, hi));
        consumer.compute_root();
        producer.store_root().fold_storage(y, 8, !flipped).compute_at(consumer, y);
        Buffer<int> out = consumer.realize({128, 128});
        CHECK(check_2d(out, [&](int x, int y) {
                  int a = std::min(y - 1, 15), b = std::min(y + 1, 17);
                  return flipped ? (x - 1 - a) + (x + 1 - b) : (x - 1 + a) + (x + 1 + b);
              }) == 0);
    }
}

TEST_CASE("async: downsampling by 2x and by 1.5x in y with sliding and folding over y") {
    {
        Func producer, consumer;
        Var x, y;
        producer(x, y) = x + y;
        consumer(x, y) = producer(x, 2 * y - 1) + producer(x, 2 * y) + producer(x, 2 * y + 1) + producer(x, 2 * y + 2);
        consumer.compute_root();
        producer.store_root().fold_storage(y, 8).compute_at(consumer, y);
        Buffer<int> out = consumer.realize({16, 64});
        CHECK(check_2d(out, [](int x, int y) { return 4 * x + 8 * y + 2; }) == 0);
    }
    {
        Func producer, consumer;
        Var x, y;
        producer(x, y) = x + y;
        consumer(x, y) = select(y % 2 == 0,
                                1 * producer(x, 3 * (y / 2) - 1) + 5 * producer(x, 3 * (y / 2)) + 3 * producer(x, 3 * (y / 2) + 1),
                                3 * producer(x, 3 * (y / 2) + 1) + 5 * producer(x, 3 * (y / 2) + 2) + 1 * producer(x, 3 * (y / 2) + 3));
        consumer.compute_root().align_bounds(y, 2).unroll(y, 2);
        producer.store_root().fold_storage(y, 8).compute_at(consumer, y);
        Buffer<int> out = consumer.realize({256, 256});
        CHECK(check_2d(out, [](int x, int y) {
                  return 9 * x + ((3 * y - 1) >> 1) + 2 * ((3 * y) >> 1) + 3 * ((3 * y + 1) >> 1) + 2 * ((3 * y + 2) >> 1) +
                         ((3 * y + 3) >> 1);
              }) == 0);
    }
}

TEST_CASE("async: a Func computed at the outermost loop of a compute_root producer") {
    Func producer, producer_friend, consumer;
    Var x, y;
    producer_friend(x, y) = x + y;
    producer(x, y) = x + y + producer_friend(x, y);
    consumer(x, y) = producer(x, y);
    producer.compute_root();
    consumer.compute_root();
    producer_friend.compute_at(producer, Var::outermost());
    Buffer<int> out = consumer.realize({256, 256});
    CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y); }) == 0);
}

TEST_CASE("async_deadlock: storage folded by 2 in y through in() and in().in() wrappers") {
    Var x, y;
    for (int variant = 0; variant < 5; variant++) {
        CAPTURE(variant);
        Func A, B;
        A(x, y) = x + y;
        B(x, y) = A(x, y);
        switch (variant) {
        case 0: A.store_root().compute_at(B, y).fold_storage(y, 2); break;
        case 1:
            A.store_root().compute_at(B, y).fold_storage(y, 2);
            A.in().store_root().compute_at(B, y).fold_storage(y, 2);
            break;
        case 2:
            A.store_root().compute_at(A.in(), Var::outermost()).fold_storage(y, 2);
            A.in().store_root().compute_at(B, y).fold_storage(y, 2);
            break;
        case 3:
            A.store_root().compute_at(B, y).fold_storage(y, 2);
            A.in().store_root().compute_at(B, y).fold_storage(y, 2);
            A.in().in().store_root().compute_at(B, y).fold_storage(y, 2);
            break;
        default:
            A.store_root().compute_at(A.in(), Var::outermost()).fold_storage(y, 2);
            A.in().store_root().compute_at(A.in().in(), Var::outermost()).fold_storage(y, 2);
            A.in().in().store_root().compute_at(B, y).fold_storage(y, 2);
            break;
        }
        Buffer<int> out = B.realize({256, 256});
        CHECK(check_2d(out, [](int x, int y) { return x + y; }) == 0);
    }
}

namespace {

// ring_buffer's pipelines share one shape: a consumer tiled 16x16 with RoundUp, producers
// computed per tile and stored per row of tiles (or at the root).
struct RingBufferCase {
    Var x, y, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func consumer{"consumer"};
    void tile() { consumer.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::RoundUp); }
    void per_tile(Func &f, bool stored_at_root = false) {
        f.compute_at(consumer, xo);
        if (stored_at_root) f.store_root();
        else f.store_at(consumer, yo);
    }
};

}  // namespace

TEST_CASE("ring_buffer: a producer per tile stored per row of tiles or at the root (hoist_storage as store_at)") {
    for (bool at_root : {false, true}) {
        CAPTURE(at_root);
        RingBufferCase c;
        Func producer("producer");
        producer(c.x, c.y) = c.x + c.y;
        c.consumer(c.x, c.y) = producer(c.x - 1, c.y - 1) + producer(c.x, c.y) + producer(c.x + 1, c.y + 1);
        c.tile();
        c.per_tile(producer, at_root);
        Buffer<int> out = c.consumer.realize({128, 128});
        CHECK(check_2d(out, [](int x, int y) { return 3 * (x + y); }) == 0);
    }
}

TEST_CASE("ring_buffer: a producer read through three intermediates, with and without a direct use") {
    for (bool direct : {false, true}) {
        CAPTURE(direct);
        RingBufferCase c;
        Func producer("producer"), interm1("interm1"), interm2("interm2"), interm3("interm3");
        Var x = c.x, y = c.y;
        producer(x, y) = x + y;
        interm1(x, y) = producer(x - 1, y - 1);
        interm2(x, y) = producer(x, y);
        interm3(x, y) = producer(x + 1, y + 1);
        Expr sum = interm1(x, y) + interm2(x, y) + interm3(x, y);
        c.consumer(x, y) = direct ? sum + producer(x, y + 2) : sum;
        c.tile();
        c.per_tile(producer);
        for (Func *f : {&interm1, &interm2, &interm3}) f->compute_at(c.consumer, c.xo);
        Buffer<int> out = c.consumer.realize({128, 128});
        CHECK(check_2d(out, [&](int x, int y) { return 3 * (x + y) + (direct ? x + y + 2 : 0); }) == 0);
    }
}

TEST_CASE("ring_buffer: two producers of one consumer, stored at the same or at different levels") {
    for (bool different : {false, true}) {
        CAPTURE(different);
        RingBufferCase c;
        Func producer1("producer1"), producer2("producer2");
        Var x = c.x, y = c.y;
        producer1(x, y) = x + y;
        producer2(x, y) = x * y;
        c.consumer(x, y) = producer1(x - 1, y - 1) + producer2(x, y) + producer1(x + 1, y + 1);
        c.tile();
        c.per_tile(producer1, different);
        c.per_tile(producer2);
        Buffer<int> out = c.consumer.realize({128, 128});
        CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y) + x * y; }) == 0);
    }
}

TEST_CASE("ring_buffer: two and three producers read by two intermediates, one of them stored per row of tiles") {
    for (bool three : {false, true}) {
        CAPTURE(three);
        RingBufferCase c;
        Func producer1("producer1"), producer2("producer2"), producer3("producer3"), interm1("interm1"), interm2("interm2");
        Var x = c.x, y = c.y;
        producer1(x, y) = x + y;
        producer2(x, y) = x + y;
        producer3(x, y) = x * y;
        if (three) {
            interm1(x, y) = producer1(x - 1, y + 1) + producer2(x, y) + producer3(x - 1, y - 1);
            interm2(x, y) = producer1(x, y) + producer2(x + 1, y - 1) + producer3(x + 1, y + 1);
        } else {
            interm1(x, y) = producer1(x - 1, y + 1) + producer2(x, y);
            interm2(x, y) = producer1(x, y) + producer2(x + 1, y - 1);
        }
        c.consumer(x, y) = interm1(x, y) + interm2(x, y);
        c.tile();
        interm1.compute_at(c.consumer, c.xo);
        interm2.compute_at(c.consumer, c.xo);
        if (three) interm2.store_at(c.consumer, c.yo);
        c.per_tile(producer1);
        c.per_tile(producer2);
        if (three) c.per_tile(producer3);
        Buffer<int> out = c.consumer.realize({128, 128});
        CHECK(check_2d(out, [&](int x, int y) {
                  return 4 * (x + y) + (three ? (x - 1) * (y - 1) + (x + 1) * (y + 1) : 0);
              }) == 0);
    }
}

TEST_CASE("ring_buffer: a chain of two producers per tile") {
    RingBufferCase c;
    Func producer1("producer1"), producer2("producer2");
    Var x = c.x, y = c.y;
    producer1(x, y) = x + y;
    producer2(x, y) = producer1(x, y) + x * y;
    c.consumer(x, y) = producer2(x, y) * 2;
    c.tile();
    c.per_tile(producer1);
    c.per_tile(producer2);
    Buffer<int> out = c.consumer.realize({128, 128});
    CHECK(check_2d(out, [](int x, int y) { return 2 * (x + y + x * y); }) == 0);
}

TEST_CASE("aligned_split_blend_small_extent (adapted): an update split by 8, every small region, every tail") {
    const int k = 8;
    for (TailStrategy ts : {TailStrategy::GuardWithIf, TailStrategy::RoundUp, TailStrategy::Predicate,
                            TailStrategy::PredicateLoads, TailStrategy::PredicateStores}) {
        for (bool vec : {false, true}) {
            CAPTURE(int(ts));
            CAPTURE(vec);
            Var x{"x"}, xo{"xo"}, xi{"xi"};
            Func f{"f"}, g{"g"}, out{"out"};
            Param<int> shift{"shift"};
            // The update reads another Func at a Param's distance: the region it needs of g
            // moves with the Param while the split's grid does not.
            g(x) = x;
            f(x) = x;
            f(x) = f(x) * 2 + g(x + shift) % 3 + 1;
            f.compute_root();
            g.compute_root();
            Stage s = f.update().split(x, xo, xi, k, ts);
            if (vec) s.vectorize(xi);
            out(x) = f(x);  // an internal, paddable allocation for f
            int bad = 0;
            for (int sh = 0; sh < 3 && !bad; sh++) {
                shift.set(sh);
                for (int m = -k - 1; m <= k + 1 && !bad; m++) {
                    for (int n = 1; n <= 2 * k + 3 && !bad; n++) {
                        Buffer<int> im(n);
                        im.set_min({m});
                        out.realize(im);
                        for (int i = m; i < m + n; i++) {
                            int want = i * 2 + ((i + sh) % 3 + 3) % 3 + 1;  // Halide's % is Euclidean
                            if (im(i) != want) {
                                MESSAGE("out(" << i << ") = " << im(i) << " instead of " << want << " (shift " << sh
                                               << ", region [" << m << ", " << m + n - 1 << "])");
                                bad++;
                                break;
                            }
                        }
                    }
                }
            }
            CHECK(bad == 0);
        }
    }
}
