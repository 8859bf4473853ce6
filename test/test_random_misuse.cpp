// A randomized test of user mistakes: a small pipeline gets a random sequence of schedule
// directives, valid or not (unknown loop names, factors of 0 or -1, widths of 3, compute_at a
// Func that is not a consumer, a bound smaller than what is needed, a fold too small, update
// stages that do not exist, RVars given to pure stages...), then is realized over a random
// region. Whatever the directives were, the only acceptable outcomes are the reference
// evaluator's answer, a CompileError, or a RuntimeError, each with a message. An InternalError,
// any other exception, a crash or a wrong answer fails the case. A directive that throws must
// leave the schedule as it was: the sequence goes on after it.
#include <functional>
#include <random>
#include <string>

#include "TestUtil.h"
#include "fuzz/FuzzHarness.h"
#include "lower/ReferenceEvaluator.h"

using namespace halo;
using halo_fuzz::Outcome;

namespace {

struct MisuseCase {
    std::mt19937 rng;
    std::ostringstream log;
    Var x{"x"}, y{"y"};
    RDom r{0, 3, "r"};
    Param<int> p{"p"};
    Buffer<int> in;
    Func a{"a"}, b{"b"}, c{"c"}, out{"out"};
    std::vector<Func> funcs;

    explicit MisuseCase(unsigned seed) : rng(seed), in(std::vector<int>{20, 16}, "in") {
        in.set_min(-2, -1);
        halo_test::fill_random(in, -50, 50, seed);
        p.set(int(seed % 3));
        a(x, y) = in(clamp(x, -2, 17), clamp(y, -1, 14)) * 3;
        b(x, y) = a(x - 1, y) + a(x + 1, y + 1) * p;
        c(x, y) = b(x, y);
        c(x, y) += b(x + r, y) * (r + 1);
        out(x, y) = c(x, y) - b(x, y / 2);
        funcs = {a, b, c, out};
    }

    int rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }
    template <typename T>
    const T &pick(const std::vector<T> &v) { return v[size_t(rand(int(v.size())))]; }

    // A loop name: mostly ones that exist somewhere, sometimes the RVar, sometimes nonsense.
    VarOrRVar loop() {
        switch (rand(10)) {
        case 0: return r.x;
        case 1: return Var("nope");
        default: return Var(pick<std::string>({"x", "y", "xo", "xi", "yo", "yi", "t", "x.xo", "fused"}));
        }
    }
    Var pure_var() { return rand(8) ? (rand(2) ? x : y) : Var("nope"); }
    Expr factor() { return pick<int>({-1, 0, 1, 2, 3, 4, 8, 64}); }
    TailStrategy tail() { return halo_fuzz::kTails[rand(4)]; }

    // One random directive on a random Func (or one of its stages); logs it first.
    void directive() {
        int fi = rand(4);
        Func f = funcs[size_t(fi)];
        int stage = fi == 2 ? rand(3) - 1 : rand(5) == 0 ? 0 : -1;  // -1: the Func itself
        std::string F = f.name() + (stage < 0 ? "" : ".update(" + std::to_string(stage) + ")");
        auto with_stage = [&](const std::function<void(Stage)> &fn) {
            if (stage < 0) {
                fn(Stage(f.function(), 0));
            } else {
                fn(f.update(stage));  // update(1) of c and update(0) of others do not exist
            }
        };
        switch (rand(22)) {
        case 0: {
            VarOrRVar v = loop(), o = loop(), i = loop();
            Expr k = factor();
            TailStrategy t = tail();
            log << F << ".split(" << v.name() << ", " << o.name() << ", " << i.name() << ", " << k << ", "
                << halo_fuzz::tail_name(t) << ")\n";
            with_stage([&](Stage s) { s.split(v, o, i, k, t); });
            break;
        }
        case 1: {
            VarOrRVar u = loop(), v = loop();
            Expr k1 = factor(), k2 = factor();
            log << F << ".tile(" << u.name() << ", " << v.name() << ", xo, yo, xi, yi, " << k1 << ", " << k2 << ")\n";
            with_stage([&](Stage s) { s.tile(u, v, Var("xo"), Var("yo"), Var("xi"), Var("yi"), k1, k2); });
            break;
        }
        case 2: {
            VarOrRVar u = loop(), v = loop();
            log << F << ".fuse(" << u.name() << ", " << v.name() << ", fused)\n";
            with_stage([&](Stage s) { s.fuse(u, v, Var("fused")); });
            break;
        }
        case 3: {
            std::vector<VarOrRVar> vs = {loop(), loop()};
            if (rand(2)) vs.push_back(loop());
            log << F << ".reorder(";
            for (auto &v : vs) log << v.name() << " ";
            log << ")\n";
            with_stage([&](Stage s) { s.reorder(vs); });
            break;
        }
        case 4: {
            VarOrRVar v = loop();
            int w = pick<int>({0, 1, 3, 4, 8, 16, 100});
            log << F << ".vectorize(" << v.name() << ", " << w << ")\n";
            with_stage([&](Stage s) { s.vectorize(v, w); });
            break;
        }
        case 5: {
            VarOrRVar v = loop();
            int k = pick<int>({-2, 0, 1, 2, 3, 5});
            log << F << ".unroll(" << v.name() << ", " << k << ")\n";
            with_stage([&](Stage s) { s.unroll(v, k); });
            break;
        }
        case 6: {
            VarOrRVar v = loop();
            log << F << ".parallel(" << v.name() << ")\n";
            with_stage([&](Stage s) { s.parallel(v); });
            break;
        }
        case 7:
        case 8: {
            Func g = funcs[size_t(rand(4))];
            VarOrRVar v = loop();
            log << f.name() << ".compute_at(" << g.name() << ", " << v.name() << ")\n";
            f.compute_at(g, v);
            break;
        }
        case 9: {
            Func g = funcs[size_t(rand(4))];
            VarOrRVar v = loop();
            log << f.name() << ".store_at(" << g.name() << ", " << v.name() << ")\n";
            f.store_at(g, v);
            break;
        }
        case 10:
            log << f.name() << ".compute_root()\n";
            f.compute_root();
            break;
        case 11:
            log << f.name() << ".compute_inline()\n";
            f.compute_inline();
            break;
        case 12: {
            Var v = pure_var();
            int mn = pick<int>({-10, -3, 0, 2}), ex = pick<int>({-1, 0, 4, 40});
            log << f.name() << ".bound(" << v.name() << ", " << mn << ", " << ex << ")\n";
            f.bound(v, mn, ex);
            break;
        }
        case 13: {
            Var v = pure_var();
            int m = pick<int>({-1, 0, 2, 3}), rem = rand(5) - 1;
            log << f.name() << ".align_bounds(" << v.name() << ", " << m << ", " << rem << ")\n";
            f.align_bounds(v, m, rem);
            break;
        }
        case 14: {
            Var v = pure_var();
            int k = pick<int>({-1, 0, 1, 2, 4, 64});
            log << f.name() << ".fold_storage(" << v.name() << ", " << k << ")\n";
            f.fold_storage(v, k);
            break;
        }
        case 15: {
            Var u = pure_var(), v = pure_var();
            log << f.name() << ".reorder_storage(" << u.name() << ", " << v.name() << ")\n";
            f.reorder_storage(u, v);
            break;
        }
        case 16: {
            int w = pick<int>({2, 4, 8});
            VarOrRVar v = loop();
            log << F << ".specialize(p == 1).vectorize(" << v.name() << ", " << w << ")\n";
            with_stage([&](Stage s) { s.specialize(p == 1).vectorize(v, w); });
            break;
        }
        case 17: {
            const MemoryType types[] = {MemoryType::Heap, MemoryType::Stack, MemoryType::Register};
            int m = rand(3);
            log << f.name() << ".store_in(" << m << ")\n";
            f.store_in(types[m]);
            break;
        }
        case 18: {
            Func g = funcs[size_t(rand(4))];
            log << f.name() << ".in(" << g.name() << ").compute_root()\n";
            f.in(g).compute_root();
            break;
        }
        case 20: {
            // Merges with a bound or alignment on the same Var (aligned first, then the extent).
            Var v = pure_var();
            if (rand(2)) {
                int m = pick<int>({2, 3, 4}), rem = rand(4);
                log << f.name() << ".align_bounds(" << v.name() << ", " << m << ", " << rem << ")\n";
                f.align_bounds(v, m, rem);
            }
            int ex = pick<int>({-1, 0, 1, 3, 8, 40});
            log << f.name() << ".bound_extent(" << v.name() << ", " << ex << ")\n";
            f.bound_extent(v, ex);
            break;
        }
        case 21: {
            Var v = pure_var();
            int m = pick<int>({-1, 2, 3, 8});
            log << f.name() << ".align_extent(" << v.name() << ", " << m << ")\n";
            f.align_extent(v, m);
            break;
        }
        default: {
            // Of the whole RDom (refused: nothing would be left to reduce), or of the outer
            // loop of a split of it.
            RVar whole = r.x;
            if (rand(2)) {
                RVar ro("rxo"), ri("rxi");
                log << "c.update(0).split(r.x, rxo, rxi, 2)\n";
                c.update(0).split(r.x, ro, ri, 2);
                whole = ro;
            }
            log << "c.update(0).rfactor(" << whole.name() << ", u)\n";
            Func intm = c.update(0).rfactor(whole, Var("u"));
            if (rand(2)) intm.compute_root();
            break;
        }
        }
    }

    // Applies n directives; the ones refused at once are logged and skipped.
    void schedule(int n) {
        for (int i = 0; i < n; i++) {
            try {
                directive();
            } catch (const CompileError &e) {
                log << "  (refused: " << e.what() << ")\n";
            }
        }
    }
};

Outcome realize_and_compare(MisuseCase &m, int w, int h, int xmin, int ymin) {
    Buffer<int> got(w, h), want(w, h);
    got.set_min(xmin, ymin);
    want.set_min(xmin, ymin);
    try {
        Buffer<> want_any(want);
        reference_realize(m.out, want_any);
    } catch (const UndefinedBehaviorError &e) {
        return {Outcome::Undefined, e.what()};
    }
    try {
        m.out.realize(got);
    } catch (const CompileError &e) {
        std::string msg = e.what();
        if (msg.size() < 20) return {Outcome::Failure, "a CompileError without an explanation: " + msg};
        return {Outcome::Expected, "compile error: " + msg};
    } catch (const RuntimeError &e) {
        std::string msg = e.what();
        if (msg.size() < 20) return {Outcome::Failure, "a RuntimeError without an explanation: " + msg};
        return {Outcome::Expected, "run-time error: " + msg};
    } catch (const InternalError &e) {
        return {Outcome::Failure, std::string("internal error: ") + e.what()};
    } catch (const std::exception &e) {
        return {Outcome::Failure, std::string("unexpected exception: ") + e.what()};
    }
    std::string diff = halo_test::compare(Buffer<>(got), Buffer<>(want), 0);
    if (!diff.empty()) return {Outcome::Failure, "wrong answer: " + diff};
    return {Outcome::Match, ""};
}

Outcome run_case(unsigned seed, std::string &description) {
    MisuseCase m(seed);
    Outcome o{Outcome::Match, ""};
    try {
        m.schedule(2 + m.rand(7));
        int w = 1 + m.rand(14), h = 1 + m.rand(10), xmin = m.rand(11) - 5, ymin = m.rand(11) - 5;
        m.log << "realize " << w << "x" << h << " at (" << xmin << ", " << ymin << "), p = " << seed % 3 << "\n";
        o = realize_and_compare(m, w, h, xmin, ymin);
    } catch (const InternalError &e) {
        o = {Outcome::Failure, std::string("internal error: ") + e.what()};
    } catch (const std::exception &e) {
        o = {Outcome::Failure, std::string("unexpected exception: ") + e.what()};
    }
    description = m.log.str();
    return o;
}

}  // namespace

TEST_CASE("random schedule mistakes give a CompileError or RuntimeError with a message, or the right answer") {
    int cases = halo_test::env_int("HALO_MISUSE_CASES", 100);
    unsigned first = unsigned(halo_test::env_int("HALO_MISUSE_SEED", 1));
    halo_fuzz::FuzzCounts counts = halo_fuzz::run_fuzz_cases(first, cases, run_case);
    CHECK(counts[Outcome::Failure] == 0);
    // The test must exercise both sides: some schedules valid, some mistakes caught.
    CHECK(counts[Outcome::Match] > 0);
    CHECK(counts[Outcome::Expected] > 0);
}
