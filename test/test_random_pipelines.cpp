// Randomized differential testing: random small pipelines (pointwise, stencils, down- and
// upsampling, reductions, several consumers) under random legal schedules (placements,
// splits with every tail strategy, tiles, vectorize, unroll, parallel) against the reference
// evaluator (storage layouts too). HALO_FUZZ_CASES sets the number of cases (500 by default) and HALO_FUZZ_SEED the
// first seed; a failure prints the pipeline and schedule.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>

#include "TestUtil.h"

using namespace halo;

namespace {

struct PipelineStage {
    Func f;
    std::vector<int> inputs;  // earlier stages it reads
    bool has_update = false;
};

struct RandomPipeline {
    std::mt19937 rng;
    std::ostringstream log;
    Var x{"x"}, y{"y"};
    Buffer<int> input{std::vector<int>{24, 20}, "input"};
    std::vector<PipelineStage> stages;

    explicit RandomPipeline(unsigned seed) : rng(seed) {
        input.set_min(-3, -2);
        halo_test::fill_random(input, -50, 50, seed);
    }
    int rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    bool coin() { return rand(2) == 0; }

    Expr read(int s, Expr xx, Expr yy) { return stages[s].f(xx, yy); }

    void build(int n) {
        Func clamped("in_clamped");
        clamped(x, y) = input(clamp(Expr(x), -3, 20), clamp(Expr(y), -2, 17));
        stages.push_back({clamped, {}, false});
        log << "in_clamped(x, y) = input(clamp(x), clamp(y))\n";
        for (int i = 1; i <= n; i++) {
            int a = rand(i), b = rand(i);
            Func f("s" + std::to_string(i));
            PipelineStage st{f, {a, b}, false};
            std::string A = stages[a].f.name(), B = stages[b].f.name();
            switch (rand(8)) {
            case 0:
                f(x, y) = read(a, x, y) * 3 + read(b, x, y);
                log << f.name() << "(x, y) = " << A << "(x, y) * 3 + " << B << "(x, y)\n";
                break;
            case 1:
                f(x, y) = read(a, x - 1, y) + read(a, x + 1, y + 1) - read(b, x, y - 1);
                log << f.name() << "(x, y) = " << A << "(x-1, y) + " << A << "(x+1, y+1) - " << B << "(x, y-1)\n";
                break;
            case 2:
                f(x, y) = read(a, 2 * x, y) + read(a, 2 * x + 1, y) / 2;
                log << f.name() << "(x, y) = " << A << "(2x, y) + " << A << "(2x+1, y) / 2\n";
                break;
            case 3:
                f(x, y) = read(a, x / 2, y) + read(b, x, (y + 1) / 2) % 7;
                log << f.name() << "(x, y) = " << A << "(x/2, y) + " << B << "(x, (y+1)/2) % 7\n";
                break;
            case 4: {
                RDom r(-1, 3, "r" + std::to_string(i));
                f(x, y) = read(b, x, y);
                f(x, y) += read(a, x + r.x, y) * (r.x + 2);
                st.has_update = true;
                log << f.name() << "(x, y) = " << B << "(x, y); " << f.name() << "(x, y) += " << A << "(x + r, y) * (r + 2), r in [-1, 1]\n";
                break;
            }
            case 5: {
                RDom r(0, 2, -1, 2, "r" + std::to_string(i));
                f(x, y) = sum(read(a, x + r.x, y + r.y)) - read(b, x, y);
                log << f.name() << "(x, y) = sum(" << A << "(x + r.x, y + r.y)) - " << B << "(x, y)\n";
                break;
            }
            case 6:
                f(x, y) = select(read(a, x, y) > read(b, x, y), read(a, x, y), read(b, x + 1, y) - 1);
                log << f.name() << "(x, y) = select(" << A << " > " << B << ", " << A << ", " << B << "(x+1, y) - 1)\n";
                break;
            default:
                f(x, y) = max(read(a, y, x), read(b, x, y)) + min(read(a, x, y), 5);
                log << f.name() << "(x, y) = max(" << A << "(y, x), " << B << "(x, y)) + min(" << A << ", 5)\n";
                break;
            }
            stages.push_back(st);
        }
    }

    std::vector<int> consumers_of(int s) {
        std::vector<int> c;
        for (size_t j = 0; j < stages.size(); j++) {
            for (int in : stages[j].inputs) {
                if (in == s && std::find(c.begin(), c.end(), int(j)) == c.end()) c.push_back(int(j));
            }
        }
        return c;
    }

    // Loop structure for one stage; returns the names of its loops (outermost last).
    int out_w = 1, out_h = 1;  // output size, known before scheduling
    std::vector<std::string> schedule_loops(Func f, bool update, bool is_output = false) {
        std::vector<std::string> loops{"x", "y"};
        std::string n = f.name();
        auto apply = [&](auto &&stage) {
            int choice = rand(6);
            TailStrategy tails[] = {TailStrategy::Auto, TailStrategy::GuardWithIf, TailStrategy::ShiftInwards,
                                    TailStrategy::RoundUp};
            TailStrategy tail = tails[rand(update ? 2 : 4)];
            // The output may not be written past its end: RoundUp, and ShiftInwards on an output
            // narrower than the factor, are run-time errors (tested in test_errors).
            if (is_output && tail != TailStrategy::GuardWithIf) tail = TailStrategy::GuardWithIf;
            const char *tail_name[] = {"Auto", "ShiftInwards", "GuardWithIf", "RoundUp"};
            if (choice == 0) {
                int w = 2 + rand(4);
                stage.split(x, Var("xo"), Var("xi"), w, tail);
                log << "  " << n << (update ? ".update()" : "") << ".split(x, xo, xi, " << w << ", " << tail_name[int(tail)] << ")\n";
                loops = {"xi", "xo", "y"};
                if (coin()) {
                    stage.vectorize(Var("xi"));
                    log << "  .vectorize(xi)\n";
                }
            } else if (choice == 1) {
                int w = 2 + rand(5), h = 2 + rand(3);
                stage.tile(x, y, Var("xo"), Var("yo"), Var("xi"), Var("yi"), w, h, tail);
                log << "  " << n << (update ? ".update()" : "") << ".tile(x, y, xo, yo, xi, yi, " << w << ", " << h << ", " << tail_name[int(tail)] << ")\n";
                loops = {"xi", "yi", "xo", "yo"};
                if (coin()) {
                    stage.parallel(Var("yo"));
                    log << "  .parallel(yo)\n";
                }
            } else if (choice == 2) {
                int w = 4 << rand(2);
                stage.vectorize(x, w, tail);
                log << "  " << n << (update ? ".update()" : "") << ".vectorize(x, " << w << ", " << tail_name[int(tail)] << ")\n";
                loops = {"x_vi", "x_vo", "y"};
            } else if (choice == 3) {
                stage.reorder(y, x);
                log << "  " << n << (update ? ".update()" : "") << ".reorder(y, x)\n";
                loops = {"y", "x"};
                if (coin()) {
                    stage.parallel(x);
                    log << "  .parallel(x)\n";
                }
            } else if (choice == 4) {
                stage.unroll(x, 2, tail);
                log << "  " << n << (update ? ".update()" : "") << ".unroll(x, 2, " << tail_name[int(tail)] << ")\n";
                loops = {"x_ui", "x_uo", "y"};
            } else {
                stage.parallel(y);
                log << "  " << n << (update ? ".update()" : "") << ".parallel(y)\n";
            }
        };
        if (update) {
            halo::Stage s = f.update(0);
            apply(s);
        } else {
            apply(f);
        }
        return loops;
    }

    void schedule() {
        // Consumers first, so that a producer can be placed in its consumer's loops.
        std::map<int, std::vector<std::string>> loops_of;
        std::map<int, bool> placed;
        int out = int(stages.size()) - 1;
        log << "schedule:\n";
        loops_of[out] = schedule_loops(stages[out].f, false, true);
        placed[out] = true;
        if (stages[out].has_update) schedule_loops(stages[out].f, true, true);
        for (int s = out - 1; s >= 0; s--) {
            Func f = stages[s].f;
            auto cons = consumers_of(s);
            if (cons.empty()) continue;
            int choice = rand(3);
            if (choice == 0 && !stages[s].has_update) {
                log << "  " << f.name() << " inline\n";
                continue;
            }
            if (choice == 1 && cons.size() == 1 && placed.count(cons[0])) {
                auto &ls = loops_of[cons[0]];
                std::string v = ls[rand(int(ls.size()))];
                f.compute_at(stages[cons[0]].f, Var(v));
                log << "  " << f.name() << ".compute_at(" << stages[cons[0]].f.name() << ", " << v << ")\n";
            } else {
                f.compute_root();
                log << "  " << f.name() << ".compute_root()\n";
            }
            placed[s] = true;
            if (rand(3) == 0) {
                f.reorder_storage(y, x);
                log << "  " << f.name() << ".reorder_storage(y, x)\n";
            }
            if (rand(4) == 0) {
                f.align_storage(8);
                log << "  " << f.name() << ".align_storage(8)\n";
            }
            loops_of[s] = schedule_loops(f, false);
            if (stages[s].has_update) schedule_loops(f, true);
        }
    }
};

}  // namespace

TEST_CASE("random pipelines under random schedules match the reference evaluator") {
    int cases = std::getenv("HALO_FUZZ_CASES") ? std::atoi(std::getenv("HALO_FUZZ_CASES")) : 500;
    unsigned first = std::getenv("HALO_FUZZ_SEED") ? unsigned(std::atoi(std::getenv("HALO_FUZZ_SEED"))) : 1;
    int failures = 0, rejected = 0;
    for (unsigned seed = first; seed < first + unsigned(cases) && failures < 3; seed++) {
        RandomPipeline p(seed);
        p.build(2 + p.rand(4));
        p.schedule();
        int w = 1 + p.rand(23), h = 1 + p.rand(13);
        int mx = p.rand(9) - 4, my = p.rand(9) - 4;
        Buffer<int> out(w, h);
        out.set_min(mx, my);
        Buffer<int> expected(w, h);
        expected.set_min(mx, my);
        std::string error;
        try {
            Buffer<> e(expected);
            reference_realize(p.stages.back().f, e);
            Buffer<> o(out);
            p.stages.back().f.realize(o);
            error = halo_test::compare(out, expected);
        } catch (const CompileError &e) {
            // A schedule the generator could not know is illegal (e.g. a producer used by two
            // stages of its consumer, computed inside one of them): rejected up front, fine.
            rejected++;
            continue;
        } catch (const std::exception &e) {
            error = std::string("exception: ") + e.what();
        }
        if (!error.empty()) {
            failures++;
            FAIL_CHECK("seed " << seed << ", output " << w << "x" << h << " at (" << mx << ", " << my
                               << "): " << error << "\n" << p.log.str());
        }
    }
    MESSAGE(cases << " cases, " << rejected << " schedules rejected with a CompileError");
    CHECK(rejected < cases / 5);
    CHECK(failures == 0);
}
