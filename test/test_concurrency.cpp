// Realizing from several threads at once: the same compiled pipeline or different ones, with
// run-time errors reported to the call that had them, and one compile per pipeline.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "Halo.h"
#include "TestUtil.h"
#include "runtime/HaloBuffer.h"

using namespace halo;

namespace {

const int kThreads = 4;

template <typename F>
void on_threads(F body) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) threads.emplace_back(body, t);
    for (auto &t : threads) t.join();
}

}  // namespace

TEST_CASE("threads realizing the same pipeline at once compile it once and each get the right result") {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x * 7 + y;
    f(x, y) = g(x, y) + g(x + 1, y);
    g.compute_root();
    std::atomic<int> wrong{0}, errors{0};
    on_threads([&](int t) {
        for (int i = 0; i < 10; i++) {
            Buffer<int> out(32 + t, 8);
            out.set_min(t - 2, -t);
            try {
                f.realize(out);
            } catch (const std::exception &) {
                errors++;
                continue;
            }
            for (int yy = -t; yy < 8 - t; yy++) {
                for (int xx = t - 2; xx < 30 + 2 * t; xx++) {
                    if (out(xx, yy) != (xx * 7 + yy) + ((xx + 1) * 7 + yy)) wrong++;
                }
            }
        }
    });
    CHECK(errors == 0);
    CHECK(wrong == 0);
    CHECK(f.function()->pipeline->compile_count() == 1);
}

TEST_CASE("llvm_ir() and assembly() from several threads while others realize: one text each, right results") {
    // The IR and assembly are made again on the first request (codegen/JIT.cpp), not under the
    // pipeline's lock: the threads that realize meanwhile must not wait for them or see them.
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = x * 5 - y * 3;
    f.vectorize(x, 8);
    f.compile_jit();
    std::vector<std::string> irs(kThreads), assemblies(kThreads);
    std::atomic<int> wrong{0};
    on_threads([&](int t) {
        if (t % 2 == 0) {
            irs[t] = f.llvm_ir();
            assemblies[t] = f.assembly();
        } else {
            assemblies[t] = f.assembly();
            irs[t] = f.llvm_ir();
        }
        for (int i = 0; i < 5; i++) {
            Buffer<int> out(19, 4);
            f.realize(out);
            for (int yy = 0; yy < 4; yy++)
                for (int xx = 0; xx < 19; xx++) wrong += out(xx, yy) != xx * 5 - yy * 3;
        }
    });
    CHECK(wrong == 0);
    for (int t = 0; t < kThreads; t++) {
        CHECK(irs[t] == irs[0]);
        CHECK(assemblies[t] == assemblies[0]);
    }
    CHECK(halo_test::contains(irs[0], "define"));
    CHECK(!assemblies[0].empty());
    CHECK(f.function()->pipeline->compile_count() == 1);
}

TEST_CASE("a run-time error reaches only the call that had it, while other calls run") {
    // Two pipelines realized from every thread at once: one always succeeds, one always fails
    // its bound check. Every failure must carry its own message, and no success may see one.
    Var x("x");
    Func good("good"), bad("bad");
    good(x) = x * x;
    bad(x) = x + 1;
    bad.bound(x, 0, 8);
    std::atomic<int> wrong{0}, bad_messages{0}, unexpected{0};
    on_threads([&](int t) {
        for (int i = 0; i < 20; i++) {
            if ((i + t) % 2 == 0) {
                Buffer<int> out(64);
                try {
                    good.realize(out);
                } catch (const std::exception &) {
                    unexpected++;
                    continue;
                }
                for (int k = 0; k < 64; k++) wrong += out(k) != k * k;
            } else {
                std::string msg = halo_test::runtime_error_of([&] { bad.realize({16}); });
                bool right = msg.find("output 'bad' is bounded to x in [0, 7]") != std::string::npos;
                if (!right) bad_messages++;
            }
        }
    });
    CHECK(unexpected == 0);
    CHECK(wrong == 0);
    CHECK(bad_messages == 0);
}

TEST_CASE("threads compiling and realizing different pipelines at once") {
    std::atomic<int> wrong{0};
    on_threads([&](int t) {
        for (int i = 0; i < 3; i++) {
            Var x("x"), y("y"), xo("xo"), xi("xi");
            Func a("a"), b("b");
            a(x, y) = x + y * (t + 1) + i;
            b(x, y) = a(x, y) * 2 + a(x, y + 1);
            a.compute_at(b, y);
            b.split(x, xo, xi, 4 + t).vectorize(xi);
            Buffer<int> out = b.realize({19, 5});
            for (int yy = 0; yy < 5; yy++) {
                for (int xx = 0; xx < 19; xx++) {
                    int v = (xx + yy * (t + 1) + i) * 2 + (xx + (yy + 1) * (t + 1) + i);
                    wrong += out(xx, yy) != v;
                }
            }
        }
    });
    CHECK(wrong == 0);
}

TEST_CASE("threads realizing one pipeline with their own inputs, while another thread sets the parameters") {
    // Each realizing thread gives its own input buffer and scalar in a ParamMap; one thread
    // meanwhile keeps setting the parameters themselves, which a mapped call must not see.
    ImageParam in(Int(32), 2, "in");
    Param<int> k("k");
    Var x("x"), y("y");
    Func blur("blur"), out("out");
    blur(x, y) = in(x, y) + in(x + 1, y) + k;
    out(x, y) = blur(x, y) * 2 - blur(x, y + 1);
    blur.compute_at(out, y);
    Buffer<int> shared_input(40, 12);
    for (int yy = 0; yy < 12; yy++) {
        for (int xx = 0; xx < 40; xx++) shared_input(xx, yy) = xx * 3 - yy;
    }
    in.set(shared_input);
    k.set(0);
    out.compile_jit();
    std::atomic<bool> done{false};
    std::thread setter([&] {
        for (int i = 0; !done; i++) {
            k.set(i);
            in.set(shared_input);
        }
    });
    std::atomic<int> wrong{0}, errors{0};
    on_threads([&](int t) {
        Buffer<int> mine(40, 12);
        for (int yy = 0; yy < 12; yy++) {
            for (int xx = 0; xx < 40; xx++) mine(xx, yy) = xx * (t + 1) + yy * 5;
        }
        auto input = [&](int xx, int yy) { return xx * (t + 1) + yy * 5; };
        for (int i = 0; i < 20; i++) {
            int kk = t * 100 + i;
            Buffer<int> result(39, 11);
            try {
                out.realize(result, {{in, mine}, {k, kk}});
            } catch (const std::exception &) {
                errors++;
                continue;
            }
            for (int yy = 0; yy < 11; yy++) {
                for (int xx = 0; xx < 39; xx++) {
                    int b0 = input(xx, yy) + input(xx + 1, yy) + kk;
                    int b1 = input(xx, yy + 1) + input(xx + 1, yy + 1) + kk;
                    wrong += result(xx, yy) != b0 * 2 - b1;
                }
            }
        }
    });
    done = true;
    setter.join();
    CHECK(errors == 0);
    CHECK(wrong == 0);
    CHECK(out.function()->pipeline->compile_count() == 1);
}

// ---------------------------------------------------------------- the runtime's thread pool

namespace {

struct Counts {
    int32_t min;
    std::vector<std::atomic<int>> hits;
    Counts(int32_t min, int32_t extent) : min(min), hits(size_t(extent)) {}
};

int32_t count_hit(void *closure, int32_t i) {
    auto *c = static_cast<Counts *>(closure);
    c->hits[size_t(int64_t(i) - c->min)]++;
    return 0;
}

}  // namespace

TEST_CASE("a parallel loop runs every index exactly once, whatever its min and extent") {
    for (int32_t extent : {0, 1, 2, 3, 7, 1000}) {
        for (int32_t min : {0, -5, INT32_MAX - 999}) {
            if (extent == 0 && min != 0) continue;
            if (int64_t(min) + extent - 1 > INT32_MAX) continue;
            Counts c(min, extent);
            CHECK(halo_parallel_for(nullptr, count_hit, min, extent, &c) == 0);
            int wrong = 0;
            for (auto &h : c.hits) wrong += h != 1;
            INFO("min " << min << " extent " << extent);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("a failing iteration's code is returned and the iterations not yet started are skipped") {
    static std::atomic<int> ran{0};
    ran = 0;
    auto body = [](void *, int32_t i) -> int32_t {
        ran++;
        return i == 3 ? -42 : 0;
    };
    CHECK(halo_parallel_for(nullptr, body, 0, 100000, nullptr) == -42);
    CHECK(ran < 100000);
}

TEST_CASE("parallel loops nest, and run from several threads at once, on a pool of any size") {
    struct Nest {
        std::atomic<int64_t> sum{0};
    };
    auto inner = [](void *closure, int32_t j) -> int32_t {
        static_cast<Nest *>(closure)->sum += j;
        return 0;
    };
    static halo_task_t inner_task = +inner;
    auto outer = [](void *closure, int32_t) -> int32_t { return halo_parallel_for(nullptr, inner_task, 1, 100, closure); };
    int previous = halo_get_num_threads();
    for (int threads : {1, 2, 5}) {
        halo_set_num_threads(threads);
        CHECK(halo_get_num_threads() == threads);
        std::atomic<int> wrong{0};
        on_threads([&](int) {
            for (int rep = 0; rep < 20; rep++) {
                Nest n;
                if (halo_parallel_for(nullptr, +outer, 0, 8, &n) != 0) wrong++;
                if (n.sum != 8 * 5050) wrong++;
            }
        });
        INFO(threads << " threads");
        CHECK(wrong == 0);
    }
    CHECK(halo_set_num_threads(0) == 5);  // back to the default
    halo_set_num_threads(previous);
}

TEST_CASE("with one thread, a parallel loop runs on the caller alone") {
    int previous = halo_set_num_threads(1);
    struct Seen {
        std::thread::id caller = std::this_thread::get_id();
        std::atomic<int> elsewhere{0};
    } seen;
    auto body = [](void *closure, int32_t) -> int32_t {
        auto *s = static_cast<Seen *>(closure);
        if (std::this_thread::get_id() != s->caller) s->elsewhere++;
        return 0;
    };
    CHECK(halo_parallel_for(nullptr, +body, 0, 64, &seen) == 0);
    CHECK(seen.elsewhere == 0);
    halo_set_num_threads(previous);
}

namespace {

// Realizes f on a pool of 4 threads, 20 times, and counts the wrong points.
int wrong_points_in_parallel_runs(Func f, int w, int h, int64_t (*expected)(int, int)) {
    int previous = halo_set_num_threads(4);
    int wrong = 0;
    for (int rep = 0; rep < 20; rep++) {
        Buffer<int> out(w, h);
        out.set_min(-3, 5);
        f.realize(out);
        for (int yy = 5; yy < 5 + h; yy++) {
            for (int xx = -3; xx < w - 3; xx++) wrong += out(xx, yy) != expected(xx, yy);
        }
    }
    halo_set_num_threads(previous);
    return wrong;
}

// sum_of_shifts's algorithm: long enough per point that a second thread takes part.
Expr sum_of_shifts_at(const Var &x, const Var &y) {
    RDom r(0, 8);
    return sum((x + r) * 3 + y * (r + 1));
}

int64_t sum_of_shifts(int xx, int yy) {
    int64_t s = 0;
    for (int k = 0; k < 8; k++) s += (xx + k) * 3 + yy * (k + 1);
    return int32_t(s);
}

}  // namespace

// A ShiftInwards split's last iteration overlaps the one before it. When the split's outer
// loop runs in parallel, those two iterations must not both store the shared points (a data
// race, even of equal values, which ThreadSanitizer reports): only the iteration whose own
// part they are stores them.
TEST_CASE("parallel iterations of a ShiftInwards split do not store the points they share") {
    Var x("x"), y("y"), yo("yo"), yi("yi"), xo("xo"), xi("xi"), t("t");
    SUBCASE("strips of the output, 7 rows in 4-row strips") {
        Func f("f");
        f(x, y) = sum_of_shifts_at(x, y);
        f.split(y, yo, yi, 4, TailStrategy::ShiftInwards).parallel(yo);
        CHECK(wrong_points_in_parallel_runs(f, 4000, 7, sum_of_shifts) == 0);
    }
    SUBCASE("fused tiles of a producer computed at the root") {
        Func g("g"), f("f");
        g(x, y) = sum_of_shifts_at(x, y);
        f(x, y) = g(x, y);
        g.compute_root().tile(x, y, xo, yo, xi, yi, 64, 4).fuse(xo, yo, t).parallel(t);
        CHECK(wrong_points_in_parallel_runs(f, 1000, 15, sum_of_shifts) == 0);
    }
    SUBCASE("fused tiles of the output, vectorized: the shared lanes are not stored") {
        Func f("f");
        f(x, y) = sum_of_shifts_at(x, y);
        f.tile(x, y, xo, yo, xi, yi, 64, 4).fuse(xo, yo, t).parallel(t).vectorize(xi, 8);
        CHECK(f.lowered_stmt().find("store_guard(") != std::string::npos);
        CHECK(wrong_points_in_parallel_runs(f, 1000, 15, sum_of_shifts) == 0);
    }
    SUBCASE("a strip loop split again, its outer loop parallel") {
        Func g("g"), f("f");
        g(x, y) = sum_of_shifts_at(x, y);
        f(x, y) = g(x, y);
        Var yoo("yoo"), yoi("yoi");
        g.compute_root().split(y, yo, yi, 2).split(yo, yoo, yoi, 2, TailStrategy::GuardWithIf).parallel(yoo);
        CHECK(wrong_points_in_parallel_runs(f, 4000, 11, sum_of_shifts) == 0);
    }
}

TEST_CASE("a require() failing in every row of a parallel loop gives one whole message") {
    Var x("x"), y("y");
    Param<int> p("p");
    Func f("f");
    f(x, y) = require(p > 0, x + y, "p must be positive, got", p);
    f.parallel(y);
    p.set(0);
    for (int round = 0; round < 20; round++) {
        std::string msg = halo_test::runtime_error_of([&] { f.realize({64, 256}); });
        CHECK(msg == "Requirement Failed: (p > 0) p must be positive, got 0 (a require() in Func 'f')");
    }
    p.set(2);
    Buffer<int> out = f.realize({64, 256});
    CHECK(out(63, 255) == 63 + 255);
}

TEST_CASE("an aot::Context records errors that iterations of one call's parallel loop report at once") {
    // A call through a _with_context entry point reports to its context's handler from the pool
    // threads running a parallel loop, when several iterations fail together (a require() per
    // row): aot::Context's handler wrote its message unlocked, a race ThreadSanitizer reported
    // for every such call. This calls the handler as they do, through halo_error, at once.
    aot::Context context;
    on_threads([&](int t) {
        for (int i = 0; i < 200; i++) {
            std::string message = "row " + std::to_string(t * 1000 + i) + " failed its requirement";
            halo_error(context.get(), message.c_str());
        }
    });
    const std::string &last = context.last_error();
    INFO(last);
    CHECK(last.find("row ") == 0);
    CHECK(last.find(" failed its requirement") != std::string::npos);
}
