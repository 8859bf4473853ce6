// Throughput of realizing from several threads at once: one thread realizing a
// single-threaded pipeline N times, against two threads realizing it N times each (the same
// compiled pipeline, and two different ones). Ideal: 2.0x on 2 cores; there is no process-wide
// lock around a run, so anything less is the machine (memory bandwidth, other load).
//   concurrency_bench [rounds]
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "BenchUtil.h"
#include "Halo.h"

using namespace halo;

namespace {

// A 3x3 box blur of a 1024x768 float image in two stages, vectorized, on one thread.
Func make_blur(const Buffer<float> &in, const char *name) {
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func clamped(std::string(name) + "_clamped"), bx(std::string(name) + "_bx"), by(name);
    clamped(x, y) = in(clamp(x, 0, in.width() - 1), clamp(y, 0, in.height() - 1));
    bx(x, y) = (clamped(x - 1, y) + clamped(x, y) + clamped(x + 1, y)) / 3.0f;
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3.0f;
    by.split(y, Var("yo"), Var("yi"), 32).vectorize(x, 16);
    bx.compute_at(by, Var("yo")).vectorize(x, 16);
    return by;
}

}  // namespace

int main(int argc, char **argv) {
    int rounds = argc > 1 ? std::atoi(argv[1]) : 9;
    const int W = 1024, H = 768, calls = 20;
    Buffer<float> in(W, H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) in(x, y) = float((x * 7 + y * 13) % 256);
    Func a = make_blur(in, "a"), b = make_blur(in, "b");
    a.compile_jit();
    b.compile_jit();
    auto realize_n = [](Func f) {
        Buffer<float> out(W, H);
        for (int i = 0; i < calls; i++) f.realize(out);
    };
    std::vector<bench::Case> cases = {
        {"1 thread, 20 calls", [&] { realize_n(a); }, {}, {}},
        {"2 threads, 20 calls each, same pipeline", [&] {
             std::thread t1(realize_n, a), t2(realize_n, a);
             t1.join();
             t2.join();
         }, {}, {}},
        {"2 threads, 20 calls each, two pipelines", [&] {
             std::thread t1(realize_n, a), t2(realize_n, b);
             t1.join();
             t2.join();
         }, {}, {}},
    };
    bench::run_interleaved(cases, rounds);
    double one = cases[0].median();
    std::printf("%-45s %10s %10s %12s\n", "case", "median ms", "min ms", "throughput");
    for (size_t i = 0; i < cases.size(); i++) {
        double work = i == 0 ? 1.0 : 2.0;  // calls done, relative to the first case
        std::printf("%-45s %10.2f %10.2f %11.2fx\n", cases[i].name.c_str(), cases[i].median(), cases[i].min(),
                    work * one / cases[i].median());
    }
    return 0;
}
