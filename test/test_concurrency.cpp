// Realizing from several threads at once: the same compiled pipeline or different ones, with
// run-time errors reported to the call that had them, and one compile per pipeline.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "Halo.h"
#include "TestUtil.h"

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
