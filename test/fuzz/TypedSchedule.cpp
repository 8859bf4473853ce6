// The schedule half of the typed pipeline generator (TypedPipeline.h): the loop order of x, y
// and c, splits, tiles, vectors (of x, y or c, up to 64 lanes), unrolling, bound(c),
// align_bounds and align_extent of x or y, fusing,
// parallel loops, update schedules, and where each producer is computed and stored.
#include <algorithm>

#include "FuzzHarness.h"
#include "TypedPipeline.h"

using namespace halo;

namespace halo_fuzz {

namespace {

// The loops of one stage, innermost first, as the directives change them.
struct LoopNest {
    std::vector<std::string> loops;

    int position(const std::string &v) const {
        auto it = std::find(loops.begin(), loops.end(), v);
        return it == loops.end() ? -1 : int(it - loops.begin());
    }
    void split(const std::string &v, const std::string &outer, const std::string &inner) {
        int p = position(v);
        loops[size_t(p)] = outer;
        loops.insert(loops.begin() + p, inner);
    }
    // Halide's reorder: the named loops take the places they hold, in the order given.
    void reorder(const std::vector<std::string> &order) {
        std::vector<int> places;
        for (auto &v : order) places.push_back(position(v));
        std::sort(places.begin(), places.end());
        for (size_t k = 0; k < order.size(); k++) loops[size_t(places[k])] = order[k];
    }
    // Halide's fuse: the fused loop takes the inner loop's place (the two need not be adjacent).
    void fuse(const std::string &inner, const std::string &outer, const std::string &fused) {
        loops[size_t(position(inner))] = fused;
        loops.erase(loops.begin() + position(outer));
    }
};

std::string join(const std::vector<std::string> &v) {
    std::string s;
    for (auto &e : v) s += (s.empty() ? "" : ", ") + e;
    return s;
}

}  // namespace

// Schedules the pure definition of stage s; returns its loops, innermost first.
std::vector<std::string> TypedPipeline::schedule_pure(int s, bool is_output) {
    TypedStage &st = stages_[size_t(s)];
    Func f = st.f;
    const std::string F = f.name();
    if (st.is_lut) {
        if (coin()) {
            int v = 4 << rand(3);
            f.vectorize(i_, v);
            log_ << "  " << F << ".vectorize(i, " << v << ")\n";
            return {"i_vi", "i"};
        }
        return {"i"};
    }
    // A boundary condition's Func names its own Vars.
    std::vector<Var> args = f.args();
    const Var X = args[0], Y = args[1], C = args[2];
    const std::string xn = X.name(), yn = Y.name(), cn = C.name();
    LoopNest n{{xn, yn, cn}};
    auto tail = [&] { return is_output ? TailStrategy::GuardWithIf : kTails[rand(4)]; };
    bool bounded_c = !is_output && rand(3) == 0;
    if (bounded_c) {
        bound_may_fail_ |= c_may_grow_;
        f.bound(C, 0, channels);
        log_ << "  " << F << ".bound(" << cn << ", 0, " << channels << ")\n";
    }
    if (!is_output && rand(6) == 0) {
        log_ << "  " << F;
        random_alignment(f, coin() ? X : Y, [&](int n) { return rand(n); }, log_, "");
    }
    if (coin()) {
        std::vector<std::string> order = n.loops;
        std::shuffle(order.begin(), order.end(), rng_);
        f.reorder(Var(order[0]), Var(order[1]), Var(order[2]));
        n.reorder(order);
        log_ << "  " << F << ".reorder(" << join(order) << ")\n";
    }
    const std::string inner = n.loops[0];
    switch (rand(6)) {
    case 0:
    case 1: {  // vectors of the innermost loop
        if (inner == cn && bounded_c && coin()) {
            f.vectorize(C);
            log_ << "  " << F << ".vectorize(" << cn << ")\n";
            break;
        }
        int w = 4 << rand(inner == xn ? 5 : 2);
        TailStrategy t = tail();
        f.vectorize(Var(inner), w, t);
        c_may_grow_ |= inner == cn && t != TailStrategy::GuardWithIf;
        n.split(inner, inner, inner + "_vi");
        log_ << "  " << F << ".vectorize(" << inner << ", " << w << ", " << tail_name(t) << ")\n";
        break;
    }
    case 2: {  // a tile of x and y, its rows in vectors
        int tw = 2 + rand(15), th = 1 + rand(6);
        TailStrategy t = tail();
        f.tile(X, Y, Var("xo"), Var("yo"), Var("xi"), Var("yi"), tw, th, t);
        n.split(xn, "xo", "xi");
        n.split(yn, "yo", "yi");
        n.reorder({"xi", "yi", "xo", "yo"});
        log_ << "  " << F << ".tile(" << xn << ", " << yn << ", xo, yo, xi, yi, " << tw << ", " << th << ", " << tail_name(t) << ")\n";
        if (n.loops[0] == "xi" && coin()) {
            int w = 4 << rand(3);
            f.vectorize(Var("xi"), w, TailStrategy::GuardWithIf);
            n.split("xi", "xi", "xi_vi");
            log_ << "    .vectorize(xi, " << w << ", GuardWithIf)\n";
        }
        break;
    }
    case 3: {  // rows in strips
        int k = 2 + rand(7);
        TailStrategy t = tail();
        f.split(Y, Var("yo"), Var("yi"), k, t);
        n.split(yn, "yo", "yi");
        log_ << "  " << F << ".split(" << yn << ", yo, yi, " << k << ", " << tail_name(t) << ")\n";
        if (n.loops[0] == xn && coin()) {
            int w = 8 << rand(3);
            f.vectorize(X, w, tail());
            n.split(xn, xn, xn + "_vi");
            log_ << "    .vectorize(" << xn << ", " << w << ")\n";
        }
        break;
    }
    case 4:  // c unrolled (all of it when bounded), or x by two
        if (bounded_c) {
            f.unroll(C);
            log_ << "  " << F << ".unroll(" << cn << ")\n";
        } else {
            TailStrategy t = tail();
            f.unroll(X, 2, t);
            n.split(xn, xn, xn + "_ui");
            log_ << "  " << F << ".unroll(" << xn << ", 2, " << tail_name(t) << ")\n";
        }
        break;
    default: {  // two of the three loops fused, adjacent or not, the one named inner either
        int i = rand(3), o = (i + 1 + rand(2)) % 3;
        std::string a = n.loops[size_t(i)], b = n.loops[size_t(o)];
        f.fuse(Var(a), Var(b), Var(a + b));
        n.fuse(a, b, a + b);
        log_ << "  " << F << ".fuse(" << a << ", " << b << ", " << a + b << ")\n";
        break;
    }
    }
    if (rand(3) == 0) {
        const std::string &outer = n.loops.back();
        f.parallel(Var(outer));
        has_parallel_[size_t(s)] = true;
        log_ << "  " << F << ".parallel(" << outer << ")\n";
    }
    return n.loops;
}

// Schedules the update of stage s (a channel mix or convolution over RVars with pure x, y and
// c; or a scan whose RVar replaces y); returns its pure loops, innermost first.
std::vector<std::string> TypedPipeline::schedule_update(int s, bool is_output) {
    TypedStage &st = stages_[size_t(s)];
    Stage u = st.f.update(0);
    const std::string U = st.f.name() + ".update(0)";
    LoopNest n;
    for (auto &r : st.rvars) n.loops.push_back(r.name());
    n.loops.push_back("x");
    if (!st.scan_in_y) n.loops.push_back("y");
    n.loops.push_back("c");
    if (!st.scan_in_y && rand(3) == 0) {
        // The pure x innermost, the RVars around it.
        std::vector<std::string> order{"x"};
        for (auto &r : st.rvars) order.push_back(r.name());
        std::vector<VarOrRVar> args{Var("x")};
        for (auto &r : st.rvars) args.push_back(r);
        u.reorder(args);
        n.reorder(order);
        log_ << "  " << U << ".reorder(" << join(order) << ")\n";
    }
    // GuardWithIf, or RoundUp where the region may grow (an update may not shift inwards).
    TailStrategy t = is_output || coin() ? TailStrategy::GuardWithIf : TailStrategy::RoundUp;
    switch (rand(4)) {
    case 0: {
        int w = 4 << rand(4);
        u.vectorize(x_, w, t);
        n.split("x", "x", "x_vi");
        log_ << "  " << U << ".vectorize(x, " << w << ", " << tail_name(t) << ")\n";
        break;
    }
    case 1:
        u.unroll(st.rvars[0]);
        log_ << "  " << U << ".unroll(" << st.rvars[0].name() << ")\n";
        break;
    case 2: {
        int k = 2 + rand(6);
        u.split(x_, Var("xo"), Var("xi"), k, t);
        n.split("x", "xo", "xi");
        log_ << "  " << U << ".split(x, xo, xi, " << k << ", " << tail_name(t) << ")\n";
        break;
    }
    default: break;
    }
    if (rand(3) == 0) {
        // A pure Var's loop in parallel: its iterations write points of their own.
        u.parallel(c_);
        has_parallel_[size_t(s)] = true;
        log_ << "  " << U << ".parallel(c)\n";
    }
    std::vector<std::string> pure;
    for (auto &l : n.loops) {
        bool is_rvar = false;
        for (auto &r : st.rvars) is_rvar |= r.name() == l;
        if (!is_rvar) pure.push_back(l);
    }
    return pure;
}

// Where stage s is computed and stored: inline, at the root, or at a loop of its one consumer
// that every stage of that consumer has, stored there, further out, or at the root.
void TypedPipeline::place(int s) {
    if (!reachable_[size_t(s)]) return;
    TypedStage &st = stages_[size_t(s)];
    Func f = st.f;
    const std::string F = f.name();
    auto cons = consumers_of(s);
    int choice = st.is_second_output ? 1 : rand(3);
    if (choice == 0 && !st.has_updates) {
        log_ << "  " << F << " inline\n";
        return;
    }
    bool at_consumer = choice == 2 && cons.size() == 1 && !common_loops_[size_t(cons[0])].empty() &&
                       !specialized_[size_t(cons[0])];
    if (at_consumer) {
        int c = cons[0];
        const auto &ls = common_loops_[size_t(c)];
        int at = rand(int(ls.size()));
        Func consumer = stages_[size_t(c)].f;
        f.compute_at(consumer, Var(ls[size_t(at)]));
        log_ << "  " << F << ".compute_at(" << consumer.name() << ", " << ls[size_t(at)] << ")\n";
        // A store level outside the compute level only where no parallel loop can lie between;
        // and inside a consumer with an update only at the root (its stages may order the
        // loops differently).
        if (!has_parallel_[size_t(c)] && rand(3) == 0) {
            if (!inside_parallel_[size_t(c)] && coin()) {
                f.store_root();
                log_ << "    .store_root()\n";
            } else if (at + 1 < int(ls.size()) && !stages_[size_t(c)].has_updates) {
                int level = at + 1 + rand(int(ls.size()) - at - 1);
                f.store_at(consumer, Var(ls[size_t(level)]));
                log_ << "    .store_at(" << consumer.name() << ", " << ls[size_t(level)] << ")\n";
            }
        }
        inside_parallel_[size_t(s)] = inside_parallel_[size_t(c)] || has_parallel_[size_t(c)];
        if (!st.is_lut && rand(5) == 0) {
            // An explicit fold of y (any place: it slides, or not): too small is a run-time error.
            int k = 2 + rand(7);
            f.fold_storage(f.args()[1], k);
            fold_may_fail_ = true;
            log_ << "    .fold_storage(" << f.args()[1].name() << ", " << k << ")\n";
        }
        if (rand(5) == 0) {
            const MemoryType types[] = {MemoryType::Heap, MemoryType::Stack, MemoryType::Register};
            const char *names[] = {"Heap", "Stack", "Register"};
            int m = rand(3);
            f.store_in(types[m]);
            log_ << "    .store_in(MemoryType::" << names[m] << ")\n";
        }
    } else {
        f.compute_root();
        log_ << "  " << F << ".compute_root()\n";
    }
    if (!st.is_lut && !st.is_boundary && rand(4) == 0) {
        f.reorder_storage(c_, x_, y_);
        log_ << "    .reorder_storage(c, x, y)\n";
    }
    schedule_stage(s, st.is_second_output);
}

// Sometimes a specialization on a bool Param (true or false at run time) with a schedule of its
// own: vectors of x, or strips of rows in parallel. The general schedule follows.
void TypedPipeline::maybe_specialize(int s) {
    TypedStage &st = stages_[size_t(s)];
    if (st.is_lut || rand(6) != 0) return;
    std::vector<Var> args = st.f.args();
    halo::Param<bool> p("fast_" + st.f.name());
    bool holds = coin();
    p.set(holds);
    params_.push_back(p);
    Stage special = st.f.specialize(p);
    if (coin()) {
        int w = 4 << rand(4);
        special.vectorize(args[0], w, TailStrategy::GuardWithIf);
        log_ << "  " << st.f.name() << ".specialize(" << p.name() << " = " << holds << ").vectorize(" << args[0].name()
             << ", " << w << ", GuardWithIf)\n";
    } else {
        int k = 2 + rand(5);
        special.split(args[1], Var("yo"), Var("yi"), k, TailStrategy::GuardWithIf).parallel(Var("yo"));
        log_ << "  " << st.f.name() << ".specialize(" << p.name() << " = " << holds << ").split(" << args[1].name()
             << ", yo, yi, " << k << ", GuardWithIf).parallel(yo)\n";
    }
    specialized_[size_t(s)] = true;
}

void TypedPipeline::schedule_stage(int s, bool is_output) {
    maybe_specialize(s);
    loops_[size_t(s)] = schedule_pure(s, is_output);
    common_loops_[size_t(s)] = loops_[size_t(s)];
    if (!stages_[size_t(s)].has_updates) return;
    std::vector<std::string> update = schedule_update(s, is_output);
    auto &common = common_loops_[size_t(s)];
    auto not_in_update = [&](const std::string &l) { return std::find(update.begin(), update.end(), l) == update.end(); };
    common.erase(std::remove_if(common.begin(), common.end(), not_in_update), common.end());
}

void TypedPipeline::schedule() {
    int n = int(stages_.size());
    reachable_.assign(size_t(n), false);
    loops_.assign(size_t(n), {});
    common_loops_.assign(size_t(n), {});
    has_parallel_.assign(size_t(n), false);
    inside_parallel_.assign(size_t(n), false);
    specialized_.assign(size_t(n), false);
    reachable_[size_t(main_)] = true;
    if (second_ >= 0) reachable_[size_t(second_)] = true;
    for (int s = n - 1; s >= 0; s--) {
        if (!reachable_[size_t(s)]) continue;
        for (int in : stages_[size_t(s)].inputs) reachable_[size_t(in)] = true;
    }
    log_ << "schedule:\n";
    // Consumers first, so that a producer can be placed in its consumer's loops. The outputs
    // are computed at the root.
    for (int s = n - 1; s >= 0; s--) {
        if (s == main_ || (s == second_ && s > main_)) {
            schedule_stage(s, true);
            continue;
        }
        place(s);
    }
    out_w = 1 + rand(40), out_h = 1 + rand(24);
    out_x = rand(13) - 6, out_y = rand(13) - 6;
    log_ << "output region: " << out_w << "x" << out_h << "x" << channels << " at (" << out_x << ", " << out_y << ", 0)\n";
}

}  // namespace halo_fuzz
