// The redundancy report's figures against what the compiled pipeline does: each Func of a
// stencil chain counts its own evaluations through a C function (HalideExtern_2), and under
// random schedules (tiles that do not divide the output, producers computed per tile, per row,
// at the root, sliding over rows, vectorized and parallel) the report's "computed" must be the
// count exactly, and the values those of the reference evaluator.
#include <atomic>
#include <random>

#include "TestUtil.h"

using namespace halo;

namespace {
std::atomic<int64_t> evaluations[4];
}

extern "C" int count_evaluation(int func, int value) {
    evaluations[func]++;
    return value;
}
HalideExtern_2(int, count_evaluation, int, int);

namespace {

struct Chain {
    Var x{"x"}, y{"y"}, xo{"xo"}, yo{"yo"}, xi{"xi"}, yi{"yi"};
    Func a{"a"}, b{"b"}, c{"c"}, out{"out"};
    Chain() {
        a(x, y) = count_evaluation(0, x * 3 + y);
        b(x, y) = count_evaluation(1, a(x - 1, y) + a(x + 1, y) + a(x, y - 1));
        c(x, y) = count_evaluation(2, b(x, y - 1) + b(x, y + 1) + b(x + 1, y));
        out(x, y) = count_evaluation(3, c(x, y) + c(x - 1, y + 1));
    }
};

// A random schedule; its text, for the failure message.
std::string schedule(Chain &p, std::mt19937 &rng) {
    auto pick = [&](int n) { return int(rng() % uint32_t(n)); };
    std::ostringstream log;
    const int sizes[] = {3, 5, 8, 16};
    bool tiled = pick(3) != 0, parallel = false;
    if (tiled) {
        int tx = sizes[pick(4)], ty = sizes[pick(4)];
        p.out.tile(p.x, p.y, p.xo, p.yo, p.xi, p.yi, tx, ty);
        log << "out.tile(" << tx << ", " << ty << ")";
        if (pick(2)) {
            p.out.parallel(p.yo);
            log << ".parallel(yo)";
            parallel = true;
        }
        if (pick(3) == 0) {
            p.out.vectorize(p.xi);
            log << ".vectorize(xi)";
        }
    } else if (pick(2)) {
        p.out.parallel(p.y);
        log << "out.parallel(y)";
        parallel = true;
    }
    Var row = tiled ? p.yi : p.y;  // out's loop over single rows
    // How deep in out's loops each choice computes a Func: a producer is computed no deeper
    // than its consumer (which must enclose all of its uses).
    auto depth = [&](int choice) { return choice == 0 ? 0 : choice >= 3 ? 2 : tiled ? 3 : 1; };
    int consumer_depth = 3;
    for (Func *f : {&p.c, &p.b, &p.a}) {
        log << "; " << f->name();
        int choice;
        do choice = pick(tiled ? 5 : 3);
        // (Stored at the root and computed inside a parallel loop would be a race: an error.)
        while (depth(choice) > consumer_depth || (choice == 2 && parallel));
        consumer_depth = depth(choice);
        switch (choice) {
        case 0: f->compute_root(), log << ".compute_root()"; break;
        case 1: f->compute_at(p.out, row), log << ".compute_at(out, " << row.name() << ")"; break;
        // Sliding over out's rows (unless that loop is parallel, which disables it).
        case 2: f->store_root().compute_at(p.out, row), log << ".store_root().compute_at(out, " << row.name() << ")"; break;
        case 3: f->compute_at(p.out, p.xo), log << ".compute_at(out, xo)"; break;
        default: f->store_at(p.out, p.yo).compute_at(p.out, p.xo), log << ".store_at(out, yo).compute_at(out, xo)"; break;
        }
        if (pick(3) == 0) {
            f->vectorize(p.x, 4);
            log << ".vectorize(x, 4)";
        }
    }
    return log.str();
}

}  // namespace

TEST_CASE("the redundancy report's computed points equal the evaluations counted in the compiled pipeline") {
    const std::vector<int> size = {37, 23};
    int exact = 0;
    for (uint32_t seed = 1; seed <= 60; seed++) {
        std::mt19937 rng(seed);
        Chain p;
        std::string text = schedule(p, rng);
        CAPTURE(seed);
        CAPTURE(text);
        RedundancyReport report = redundancy_report(p.out, size, 1e9);
        for (auto &n : evaluations) n = 0;
        Buffer<int> got = p.out.realize(size);
        const char *names[] = {"a", "b", "c", "out"};
        bool all = true;
        for (int k = 0; k < 4; k++) {
            const RedundancyRow *row = report.find(names[k]);
            REQUIRE(row != nullptr);
            std::string func = names[k];
            CAPTURE(func);
            CHECK(row->computed == evaluations[k].load());
            all = all && row->computed == evaluations[k].load();
        }
        exact += all;
        Buffer<int> want = reference_realize(p.out, size)[0];
        int wrong = 0;
        for (int yy = 0; yy < size[1]; yy++) {
            for (int xx = 0; xx < size[0]; xx++) wrong += got(xx, yy) != want(xx, yy);
        }
        CHECK(wrong == 0);
    }
    CHECK(exact == 60);
}
