// The schedule half of the random pipeline generator: where each stage is computed and
// stored (and its region aligned), how its loops are split, fused, tiled, vectorized, unrolled
// and parallelized, and which region of the output is requested.
#include <algorithm>
#include <climits>

#include "FuzzHarness.h"
#include "RandomPipeline.h"
#include "lower/Environment.h"

#include <stdexcept>

using namespace halo;

namespace halo_fuzz {

std::vector<std::string> RandomPipeline::schedule_loops(int s, int update, bool is_output) {
    Func f = stages_[s].f;
    bool has_x = update == 0 || stages_[s].update_has_x[update - 1];
    const auto &no_y = stages_[s].updates_without_y;
    bool has_y = update == 0 || std::find(no_y.begin(), no_y.end(), update - 1) == no_y.end();
    std::string stage_name = f.name() + (update ? ".update(" + std::to_string(update - 1) + ")" : "");
    Var x = x_, y = y_;
    TailStrategy tail = kTails[rand(4)];
    // An update may not shift inwards (the shared points would be updated twice): the
    // directive must be rejected; the stage then guards. RoundUp of whole dimensions stays.
    bool probe_shift_inwards = update && tail == TailStrategy::ShiftInwards;
    if (probe_shift_inwards) tail = TailStrategy::GuardWithIf;
    // The output may not be written past its end: RoundUp, and ShiftInwards on an output
    // narrower than the factor, are run-time errors (tested in test_errors).
    if (is_output) tail = TailStrategy::GuardWithIf;
    std::vector<std::string> loops{"x", "y"};
    std::ostringstream &log = log_;
    // A specialized stage gets no parallel loops: which loops lie between a producer's store
    // and compute levels would differ per branch, beyond what this generator tracks.
    bool no_parallel = false;
    auto parallel = [&](auto &&stage, const Var &v, const char *indent) {
        if (no_parallel) return;
        stage.parallel(v);
        log << indent << ".parallel(" << v.name() << ")\n";
        if (update == 0) parallel_loops_[s].insert(v.name());
        else parallel_in_update_[s] = true;
    };
    // Whether the schedule being applied runs: 1 yes, 0 no (a specialization whose condition
    // is false, or the general schedule when it is true), -1 not known yet (a condition on the
    // output's width, chosen later). A run-time error is expected only from code that runs.
    int runs = 1;
    auto apply = [&](auto &&stage) {
        if (probe_shift_inwards && has_x) {
            bool rejected = false;
            try {
                stage.split(x, Var("xo"), Var("xi"), 2, TailStrategy::ShiftInwards);
            } catch (const CompileError &e) {
                rejected = std::string(e.what()).find("applying the update to them twice") != std::string::npos;
            }
            if (!rejected) throw std::logic_error(stage_name + ": a ShiftInwards split of an update was accepted");
            log << "  " << stage_name << ".split(x, xo, xi, 2, ShiftInwards): rejected, as it must be\n";
        }
        const PipelineStage &st = stages_[s];
        // (Scatters that atomic() then lets run in parallel are tried more often.)
        if (update == 1 && st.has_update_rvar && st.updates() == 1 && rand(st.update_atomic_ok ? 2 : 4) == 0) {
            // vectorize or parallel over the RVar: allowed only where each iteration touches
            // points of its own (Halide's rule); a scan's must be refused, at the directive.
            bool par = coin() && !no_parallel;
            std::string what = std::string(par ? ".parallel(" : ".vectorize(") + st.update_rvar.name() + (par ? ")" : ", 4)");
            std::string refused;
            try {
                if (par) stage.parallel(st.update_rvar);
                else stage.vectorize(st.update_rvar, 4);
            } catch (const CompileError &e) {
                refused = e.what();
            }
            if (st.update_rvar_race_free && !refused.empty()) {
                throw std::logic_error(stage_name + what + " of a race-free update was refused: " + refused);
            }
            if (!st.update_rvar_race_free && refused.empty()) {
                throw std::logic_error(stage_name + what + " of an update whose iterations read each other was accepted");
            }
            log << "  " << stage_name << what << (refused.empty() ? "\n" : ": refused, as it must be\n");
            if (!refused.empty() && st.update_atomic_ok) {
                // With atomic(), the same directive must be accepted and compute the same values.
                stage.atomic();
                if (par) stage.parallel(st.update_rvar);
                else stage.vectorize(st.update_rvar, 4);
                log << "  " << stage_name << ".atomic()" << what << "\n";
            }
        }
        int choice = rand(10);
        if (!has_x && choice != 5 && choice != 6) choice = 9;
        if (!has_y && choice != 0 && choice != 2 && choice != 4 && choice != 7) choice = 9;
        bool vectorize_y_too = has_y && coin();
        if (choice == 0) {
            int w = 2 + rand(4);
            stage.split(x, Var("xo"), Var("xi"), w, tail);
            log << "  " << stage_name << ".split(x, xo, xi, " << w << ", " << tail_name(tail) << ")\n";
            loops = {"xi", "xo", "y"};
            if (coin()) {
                stage.vectorize(Var("xi"));
                log << "    .vectorize(xi)\n";
            } else if (has_y && coin()) {
                // The split's inner loop fused with y inside xo: xi = xiy % w under the
                // split's guard (not linear in xiy, whatever it looks like at 0, 1 and 2).
                stage.reorder(Var("xi"), y, Var("xo")).fuse(Var("xi"), y, Var("xiy"));
                log << "    .reorder(xi, y, xo).fuse(xi, y, xiy)\n";
                loops = {"xiy", "xo"};
            }
        } else if (choice == 1) {
            int w = 2 + rand(5), h = 2 + rand(3);
            stage.tile(x, y, Var("xo"), Var("yo"), Var("xi"), Var("yi"), w, h, tail);
            log << "  " << stage_name << ".tile(x, y, xo, yo, xi, yi, " << w << ", " << h << ", " << tail_name(tail) << ")\n";
            loops = {"xi", "yi", "xo", "yo"};
            if (coin()) {
                // Vectors of the tile's rows, GuardWithIf inside the tile's own tail strategy:
                // nested guards, partitioned loop by loop (a guard once got lost between them).
                int v = 2 << rand(2);
                stage.vectorize(Var("xi"), v, TailStrategy::GuardWithIf);
                log << "    .vectorize(xi, " << v << ", GuardWithIf)\n";
                loops = {"xi_vi", "xi", "yi", "xo", "yo"};
            }
            if (coin()) {
                parallel(stage, Var("yo"), "    ");
            } else if (coin()) {
                // The tiles in one parallel loop: with ShiftInwards, the shifted last tiles of a
                // row and of a column share points with tiles other threads run (stored once,
                // under a mask where xi is vectorized).
                stage.fuse(Var("xo"), Var("yo"), Var("t"));
                log << "    .fuse(xo, yo, t)\n";
                loops.resize(loops.size() - 2);
                loops.push_back("t");
                parallel(stage, Var("t"), "    ");
            }
        } else if (choice == 2) {
            int w = 4 << rand(2);
            stage.vectorize(x, w, tail);
            log << "  " << stage_name << ".vectorize(x, " << w << ", " << tail_name(tail) << ")\n";
            loops = {"x_vi", "x", "y"};
            if (vectorize_y_too) {
                // Vectors inside vectors: the outer one stays a serial loop.
                stage.vectorize(y, 2, tail);
                log << "    .vectorize(y, 2, " << tail_name(tail) << ")\n";
                loops = {"x_vi", "x", "y_vi", "y"};
            }
        } else if (choice == 3) {
            stage.reorder(y, x);
            log << "  " << stage_name << ".reorder(y, x)\n";
            loops = {"y", "x"};
            if (coin()) {
                parallel(stage, x, "    ");
            }
        } else if (choice == 4) {
            stage.unroll(x, 2, tail);
            log << "  " << stage_name << ".unroll(x, 2, " << tail_name(tail) << ")\n";
            loops = {"x_ui", "x", "y"};
        } else if (choice == 5) {
            log << "  " << stage_name;
            parallel(stage, y, "");
            if (no_parallel) log << " (no .parallel(y): specialized)\n";
        } else if (choice == 6) {
            // A name split twice: y becomes the outer loop of each split.
            int a = 2 + rand(3), b = 2 + rand(3);
            stage.split(y, y, Var("yi"), a, tail).split(y, y, Var("yii"), b, tail);
            log << "  " << stage_name << ".split(y, y, yi, " << a << ").split(y, y, yii, " << b << "), " << tail_name(tail) << "\n";
            loops = {"x", "yi", "yii", "y"};
        } else if (choice == 7) {
            // A split factor known only at run time (sometimes an invalid one).
            Param<int> factor("factor_" + f.name() + std::to_string(update) + "_" + std::to_string(params_.size()));
            int value = rand(12) == 0 && runs >= 0 ? 0 : 1 + rand(6);
            factor.set(value);
            params_.push_back(factor);
            stage.split(x, Var("xo"), Var("xi"), factor, tail);
            log << "  " << stage_name << ".split(x, xo, xi, factor = " << value << ", " << tail_name(tail) << ")\n";
            if (value > 0 && coin()) {
                // A range on the factor (Param::set_range): usually one that holds; sometimes one
                // that excludes it, and then the call fails before anything runs.
                bool excluded = runs == 1 && rand(6) == 0;
                int lo = excluded ? value + 1 : 1;
                factor.set_range(lo, lo + 6);
                log << "    factor.set_range(" << lo << ", " << lo + 6 << ")\n";
                if (excluded) expect_runtime_error("smaller than its smallest value");
            }
            loops = {"xi", "xo", "y"};
            if (value > 0 && coin()) {
                // The outer loop split again: with ShiftInwards (a pure stage's Auto) it starts
                // below 0 when shorter than the factor, and x with it (the promised range of x
                // once ignored that, and buffers were sized too small).
                int k = 2 + rand(3);
                TailStrategy outer_tail = is_output ? TailStrategy::GuardWithIf : TailStrategy::Auto;
                stage.split(Var("xo"), Var("xoo"), Var("xoi"), k, outer_tail);
                log << "    .split(xo, xoo, xoi, " << k << ", " << tail_name(outer_tail) << ")\n";
                loops = {"xi", "xoi", "xoo", "y"};
            }
            if (value == 0 && runs == 1) expect_runtime_error("by a factor that is 0");
        } else if (choice == 8) {
            stage.fuse(x, y, Var("xy"));
            log << "  " << stage_name << ".fuse(x, y, xy)\n";
            loops = {"xy"};
            if (coin()) {
                // Vectors of the fused loop, often longer than a small region (ShiftInwards then
                // starts before it: y below its min), with any tail.
                int v = 2 << rand(3);
                stage.vectorize(Var("xy"), v, tail);
                log << "    .vectorize(xy, " << v << ", " << tail_name(tail) << ")\n";
                loops = {"xy_vi", "xy"};
            }
            if (coin()) {
                parallel(stage, Var("xy"), "    ");
            }
        }
        // Sometimes a loop a split or fuse made is renamed (Halide's rename): later directives,
        // the producers' compute_at and the parallel loops' bookkeeping use the new name.
        if (rand(6) == 0) {
            std::vector<size_t> renamable;
            for (size_t i = 0; i < loops.size(); i++) {
                const std::string &l = loops[i];
                if (l != "x" && l != "y" && l != "xi" && l.find("_vi") == std::string::npos) renamable.push_back(i);
            }
            if (!renamable.empty()) {
                std::string &l = loops[renamable[size_t(rand(int(renamable.size())))]];
                std::string renamed = l + "r";
                stage.rename(Var(l), Var(renamed));
                log << "    .rename(" << l << ", " << renamed << ")\n";
                if (update == 0 && parallel_loops_[s].erase(l)) parallel_loops_[s].insert(renamed);
                l = renamed;
            }
        }
    };
    // Sometimes no loop partitioning, and a prefetch of a stage it reads at one of its loops (not
    // a vectorized one), `offset` iterations of that loop or of one outside it ahead: hints,
    // which leave the values as they are.
    auto random_prefetch = [&](auto &&stage) {
        if (rand(8) == 0) {
            // (Also a hint: the guarded tails stay in the loops.)
            stage.never_partition_all();
            log << "    .never_partition_all()\n";
        }
        const std::vector<int> &inputs = stages_[s].inputs;
        if (inputs.empty() || rand(5) != 0) return;
        std::vector<int> usable;  // indices into loops (innermost first)
        for (size_t i = 0; i < loops.size(); i++) {
            const std::string &l = loops[i];
            bool vector = l == "xi" || l.find("_vi") != std::string::npos;
            bool missing = (!has_x && l == "x") || (!has_y && l == "y");
            if (!vector && !missing) usable.push_back(int(i));
        }
        if (usable.empty()) return;
        int a = rand(int(usable.size())), b = a + rand(int(usable.size()) - a);
        const std::string &at = loops[size_t(usable[size_t(a)])], &from = loops[size_t(usable[size_t(b)])];
        const Func &target = stages_[size_t(inputs[size_t(rand(int(inputs.size())))])].f;
        int offset = rand(6) - 2;
        const PrefetchBoundStrategy strategies[] = {PrefetchBoundStrategy::Clamp, PrefetchBoundStrategy::GuardWithIf,
                                                    PrefetchBoundStrategy::NonFaulting};
        const char *names[] = {"Clamp", "GuardWithIf", "NonFaulting"};
        int k = rand(3);
        stage.prefetch(target, Var(at), Var(from), offset, strategies[k]);
        log << "    .prefetch(" << target.name() << ", " << at << ", " << from << ", " << offset << ", " << names[k]
            << ")\n";
    };
    // Sometimes a specialization with a schedule of its own (on a bool Param, or for the
    // output on its width), then the general schedule or specialize_fail. Producers may be
    // computed only at loops both branches have.
    auto specialize_and_apply = [&](auto &&stage) {
        // (A stage selecting on Params is specialized more often: one time in two.)
        bool selects_on_params = update == 0 && stages_[s].param_condition.defined();
        if (rand(6) != 0 && !(selects_on_params && side_rand(2) == 0)) {
            apply(stage);
            random_prefetch(stage);
            return;
        }
        no_parallel = true;
        Expr condition;
        bool holds = false;
        const PipelineStage &st = stages_[s];
        if (selects_on_params && side_rand(3) != 0) {
            // The condition the definition selects on, or one implying it.
            bool implying = st.implying_condition.defined() && side_rand(2) == 0;
            condition = implying ? st.implying_condition : st.param_condition;
            holds = implying ? st.implying_condition_holds : st.param_condition_holds;
            log << "  " << stage_name << ".specialize(" << condition << ", which " << (holds ? "holds" : "fails")
                << "):\n";
            runs = holds;
        } else if (is_output && coin()) {
            int k = 2 + rand(14);
            condition = f.output_buffer().width() >= k;
            log << "  " << stage_name << ".specialize(output width >= " << k << "):\n";
            runs = -1;
        } else {
            Param<bool> p("fast_stage" + std::to_string(s) + "_" + std::to_string(update));
            holds = coin();
            p.set(holds);
            bool_params_.push_back(p);
            condition = p;
            log << "  " << stage_name << ".specialize(" << p.name() << " = " << holds << "):\n";
            runs = holds;
        }
        if (update == 0) specialized_[s] = true;
        else specialized_update_[s] = true;
        halo::Stage special = stage.specialize(condition);
        apply(special);
        std::vector<std::string> special_loops = loops;
        loops = {"x", "y"};
        if (runs >= 0 && rand(4) == 0) {
            stage.specialize_fail("no fast path");
            log << "  " << stage_name << ".specialize_fail(\"no fast path\")\n";
            if (!holds) expect_runtime_error("specialize_fail(\"no fast path\")");
            loops = special_loops;
            return;
        }
        log << "  " << stage_name << " otherwise:\n";
        runs = runs < 0 ? -1 : !holds;
        apply(stage);
        std::vector<std::string> both;
        for (auto &l : loops) {
            if (std::find(special_loops.begin(), special_loops.end(), l) != special_loops.end()) both.push_back(l);
        }
        loops = both;
    };
    if (update) {
        halo::Stage s = f.update(update - 1);
        specialize_and_apply(s);
    } else {
        specialize_and_apply(f);
    }
    // An update without a pure x (or y) has no such loop (its RVar loops are not listed).
    loops.erase(std::remove_if(loops.begin(), loops.end(),
                               [&](const std::string &l) { return (!has_x && l == "x") || (!has_y && l == "y"); }),
                loops.end());
    return loops;
}

namespace {
bool calls_directly(const Func &consumer, const Func &f) {
    auto calls = called_funcs(*consumer.function());
    return std::find(calls.begin(), calls.end(), f.function()) != calls.end();
}
}  // namespace

// Where stage s is computed and stored: inline, at root, or inside its only consumer's loops
// (with a store level at or outside the compute level).
void RandomPipeline::place(int s, std::vector<std::vector<std::string>> &loops_of) {
    if (!reachable_[s]) return;
    Func f = stages_[s].f;
    auto cons = consumers_of(s);
    // Sometimes the consumer reads a wrapper (Func::in) with a placement of its own; then
    // the wrapper is f's only consumer, and f is inlined or computed at the root. Only a
    // consumer that calls f itself (not through an inline reduction's Func) can be given one.
    bool wrapped = cons.size() == 1 && rand(6) == 0 && calls_directly(stages_[cons[0]].f, f);
    if (wrapped) {
        const PipelineStage &consumer = stages_[cons[0]];
        Func w = f.in(consumer.f);
        const auto &ls = loops_of[cons[0]];
        if (consumer.updates() == 0 && !ls.empty() && coin()) {
            const std::string &at = ls[size_t(rand(int(ls.size())))];
            w.compute_at(consumer.f, Var(at));
            log_ << "  " << f.name() << ".in(" << consumer.f.name() << ").compute_at(" << consumer.f.name() << ", " << at << ")\n";
        } else {
            w.compute_root();
            log_ << "  " << f.name() << ".in(" << consumer.f.name() << ").compute_root()\n";
        }
    }
    int choice = rand(3);
    if (choice == 1 && (stages_[s].read_transposed || wrapped)) choice = 2;
    if (choice == 0 && stages_[s].updates() == 0) {
        log_ << "  " << f.name() << " inline\n";
        return;
    }
    // A Func with updates left unscheduled is computed at its consumer's innermost loop (at
    // the innermost loop around them if several stages read it), with the loops of its own
    // schedule, of any kind.
    if (choice == 0 && !wrapped && coin()) {
        log_ << "  " << f.name() << " unscheduled (at its consumer's innermost loop)\n";
        return;
    }
    const PipelineStage &consumer = stages_[cons[0]];
    // Only into a consumer without updates: with updates, which stage's loop a compute_at
    // names is a separate matter (test_schedule_semantics).
    if (choice == 1 && cons.size() == 1 && consumer.updates() == 0 && !loops_of[cons[0]].empty()) {
        auto &ls = loops_of[cons[0]];
        int at = rand(int(ls.size()));
        f.compute_at(consumer.f, Var(ls[at]));
        log_ << "  " << f.name() << ".compute_at(" << consumer.f.name() << ", " << ls[at] << ")\n";
        // The consumer's loops from the compute level out to the store level (exclusive):
        // a parallel one among them makes every thread write one buffer, which Halide and
        // Halo refuse. Such a store level is kept once in four times, expecting the error.
        auto parallel_between = [&](int store_level) {
            for (int l = at; l < store_level && l < int(ls.size()); l++) {
                if (parallel_loops_[cons[0]].count(ls[l])) return true;
            }
            return store_level > int(ls.size()) - 1 && inside_parallel_[cons[0]];
        };
        int store = rand(4), level = at;
        // The branches of a specialized consumer may order its loops differently: a store
        // level strictly outside the compute level is only sure to enclose it at the root.
        if (specialized_[cons[0]] && store == 1) store = 2;
        if (store == 0) level = int(ls.size());
        if (store == 1) level = at + rand(int(ls.size()) - at);
        if (parallel_between(level) && rand(4) != 0) store = 2, level = at;
        if (store == 0) {
            f.store_root();
            log_ << "    .store_root()\n";
        } else if (store == 1) {
            f.store_at(consumer.f, Var(ls[level]));
            log_ << "    .store_at(" << consumer.f.name() << ", " << ls[level] << ")\n";
        }
        if (parallel_between(level)) expect_compile_error("is stored outside the parallel loop");
        inside_parallel_[s] = parallel_between(int(ls.size()));
    } else if (!(choice == 1 && cons.size() == 1 && place_in_every_stage(s, cons[0], loops_of[cons[0]]))) {
        f.compute_root();
        log_ << "  " << f.name() << ".compute_root()\n";
    }
    if (rand(3) == 0) {
        f.reorder_storage(y_, x_);
        log_ << "    .reorder_storage(y, x)\n";
    }
    if (rand(4) == 0) {
        f.align_storage(8);
        log_ << "    .align_storage(8)\n";
    }
    if (rand(6) == 0) {
        const MemoryType types[] = {MemoryType::Heap, MemoryType::Stack, MemoryType::Register};
        const char *names[] = {"Heap", "Stack", "Register"};
        int m = rand(3);
        f.store_in(types[m]);
        log_ << "    .store_in(MemoryType::" << names[m] << ")\n";
    }
    if (!extreme_regions_ && rand(6) == 0) {
        random_alignment(f, coin() ? x_ : y_, [&](int n) { return rand(n); }, log_, "    ");
    }
    if (rand(8) == 0) {
        // A bound from too small for most regions (the error is then expected) to larger than
        // any: the allocation's extent differs from the region's, the values must not.
        const int bounds[] = {1, 8, 32, 1000, 1000, 1000};
        int b = bounds[rand(6)];
        const Var &v = coin() ? x_ : y_;
        f.bound_storage(v, b);
        log_ << "    .bound_storage(" << v.name() << ", " << b << ")\n";
        expect_.tolerated_runtime_errors.push_back("(bound_storage), but");
    }
    loops_of[s] = schedule_loops(s, 0, false);
    schedule_updates(s, false);
}

void RandomPipeline::schedule_updates(int s, bool is_output) {
    update_loops_[s].clear();
    for (int u = 1; u <= stages_[s].updates(); u++) update_loops_[s].push_back(schedule_loops(s, u, is_output));
    place_where_helper(s);
}

// compute_at a consumer with updates, at a loop every stage of it has: the producer is
// computed in each stage that uses it (one realization each), stored there or at the root
// (then the stages share one buffer, and each slides through it). Only where no stage of the
// consumer has a parallel loop and it is not inside one (which stage's parallel loops lie
// between the store and compute levels is not tracked), and not into a specialized consumer
// (its branches may name and order loops differently), nor one whose update was rfactored
// (the intermediate reads the producer, outside the consumer), nor one with a where_helper
// computed in its update (which stages "use" the producer counts only direct reads, so the
// helper would read it outside the stages it is computed in: refused). False if no such place.
bool RandomPipeline::place_in_every_stage(int s, int c, const std::vector<std::string> &pure_loops) {
    const PipelineStage &consumer = stages_[c];
    if (consumer.updates() == 0 || consumer.rfactored || specialized_[c] || inside_parallel_[c] || parallel_in_update_[c] ||
        where_helper_placed_[c] ||
        !parallel_loops_[c].empty()) {
        return false;
    }
    std::vector<std::string> common;
    for (const std::string &l : pure_loops) {
        bool everywhere = true;
        for (const auto &ul : update_loops_[c]) everywhere &= std::find(ul.begin(), ul.end(), l) != ul.end();
        if (everywhere) common.push_back(l);
    }
    if (common.empty()) return false;
    Func f = stages_[s].f;
    const std::string &at = common[size_t(rand(int(common.size())))];
    f.compute_at(consumer.f, Var(at));
    log_ << "  " << f.name() << ".compute_at(" << consumer.f.name() << ", " << at << ")  (every stage that uses it)\n";
    if (coin()) {
        f.store_root();
        log_ << "    .store_root()\n";
    }
    inside_parallel_[s] = false;
    return true;
}

// A where() reduction's own Func (where_helper): computed at the RVar's loop and stored there,
// further out or at the root, it slides along the RVar through iterations that run only where
// the predicate holds (a condition of the enclosing loops: skipping the producer there once
// broke sliding windows, which count on every earlier iteration). Else inline. Not in a
// specialized or rfactored update; under parallel loops only stored where it is computed.
void RandomPipeline::place_where_helper(int s) {
    const PipelineStage &st = stages_[s];
    if (!st.where_helper.defined() || st.rfactored || specialized_update_[s] || update_loops_[s].empty() ||
        where_rand(8) == 0) {
        return;
    }
    // Under a parallel loop, stored where computed (which loops lie between is not tracked).
    const bool parallel = inside_parallel_[s] || parallel_in_update_[s];
    Func w = st.where_helper;
    w.compute_at(st.f, st.where_rvar);
    log_ << "  " << w.name() << ".compute_at(" << st.f.name() << ", " << st.where_rvar.name() << ")\n";
    // The update's pure loops all enclose its RVar loop (splits and reorders keep it innermost).
    const std::vector<std::string> &outer = update_loops_[s][0];
    int store = parallel ? 0 : where_rand(3);
    if (store == 1) {
        w.store_root();
        log_ << "    .store_root()\n";
    } else if (store == 2 && !outer.empty()) {
        const std::string &at = outer[size_t(where_rand(int(outer.size())))];
        w.store_at(st.f, Var(at));
        log_ << "    .store_at(" << st.f.name() << ", " << at << ")\n";
    }
    if (where_rand(2) == 0) {
        w.vectorize(x_, 4);
        log_ << "    .vectorize(x, 4)\n";
    }
    where_helper_placed_[s] = true;
}

void RandomPipeline::expect_runtime_error(const std::string &message_part) {
    if (expect_.kind == Expectation::CompileError) return;  // compiling fails first
    expect_.kind = Expectation::RuntimeError;
    expect_.message_parts.push_back(message_part);
}

void RandomPipeline::expect_compile_error(const std::string &message_part) {
    if (expect_.kind != Expectation::CompileError) expect_.message_parts.clear();
    expect_.kind = Expectation::CompileError;
    expect_.message_parts.push_back(message_part);
}

void RandomPipeline::choose_output_region() {
    out_w = 1 + rand(23), out_h = 1 + rand(13);
    out_x = rand(9) - 4, out_y = rand(9) - 4;
    if (rand(25) == 0 && extreme_regions_) {
        // Coordinates at the ends of int32: reads at 2x or x + 1 overflow there (undefined
        // behaviour the reference evaluator detects), pointwise stages must still be right.
        int where = rand(3);
        out_x = where == 0 ? INT_MAX - out_w + 1 : where == 1 ? INT_MIN : (1 << 30) - rand(3);
        out_h = 1;
        extreme_region_ = true;
    }
    Func out = output();
    if (rand(8) == 0) {
        bool too_small = out_w > 1 && coin();
        int extent = too_small ? out_w - 1 : out_w;
        out.bound(x_, out_x, extent);
        log_ << "  " << out.name() << ".bound(x, " << out_x << ", " << extent << ")\n";
        if (too_small) expect_runtime_error("is bounded to x in");
    }
    log_ << "output region: " << out_w << "x" << out_h << " at (" << out_x << ", " << out_y << ")\n";
}

void RandomPipeline::schedule() {
    // Consumers first, so that a producer can be placed in its consumer's loops.
    int out = int(stages_.size()) - 1;
    reachable_.assign(stages_.size(), false);
    parallel_loops_.assign(stages_.size(), {});
    inside_parallel_.assign(stages_.size(), false);
    parallel_in_update_.assign(stages_.size(), false);
    update_loops_.assign(stages_.size(), {});
    specialized_.assign(stages_.size(), false);
    specialized_update_.assign(stages_.size(), false);
    where_helper_placed_.assign(stages_.size(), false);
    reachable_[out] = true;
    for (int s = out; s >= 0; s--) {
        if (!reachable_[s]) continue;
        for (int in : stages_[s].inputs) reachable_[in] = true;
    }
    std::vector<std::vector<std::string>> loops_of(stages_.size());
    log_ << "schedule:\n";
    loops_of[out] = schedule_loops(out, 0, true);
    schedule_updates(out, true);
    for (int s = out - 1; s >= 0; s--) place(s, loops_of);
    choose_output_region();
}

void RandomPipeline::schedule_automatically() {
    log_ << "schedule: auto_schedule\n";
    choose_output_region();
    halo::AutoScheduleResult r = halo::auto_schedule(output(), {out_w, out_h});
    log_ << r.source << r.summary;
}

}  // namespace halo_fuzz
