#include "ScheduleFunctions.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <sstream>

#include "Prefetch.h"
#include "Simplify.h"
#include "SpecializationFacts.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

Expr promise_clamped(const Expr &value, const Expr &lo, const Expr &hi) {
    return Call::make(value.type(), Call::promise_clamped, {value, lo, hi}, Call::Intrinsic);
}

struct LoopBounds {
    Expr min, extent;
};

TailStrategy effective_tail(TailStrategy t, bool is_update, bool is_rvar) {
    if (t != TailStrategy::Auto) return t;
    return (is_update || is_rvar) ? TailStrategy::GuardWithIf : TailStrategy::ShiftInwards;
}

}  // namespace

namespace {

// The symbols of a stage's loop variables. A schedule may reuse a name (split(y, y, yi, 2)
// makes a new loop 'y' from the old 'y'), so every definition of a name (the initial Var or
// RVar, or a loop made by a split or fuse) gets a symbol of its own. The last definition of a
// name keeps the plain name, which is what the stage's loops (and compute_at) are called;
// earlier ones get a numbered suffix.
class LoopSymbols {
public:
    LoopSymbols(const Definition &def, const std::vector<std::string> &initial) {
        for (auto &n : initial) total_[n]++;
        for (const Split &s : def.schedule.splits) {
            if (s.kind == Split::SplitVar) {
                total_[s.outer]++;
                total_[s.inner]++;
            } else if (s.kind == Split::FuseVars) {
                total_[s.old_var]++;
            } else {
                total_[s.outer]++;  // a rename's new name
            }
        }
    }
    // A new definition of name; it becomes the current one.
    std::string define(const std::string &name) {
        int k = ++seen_[name];
        std::string sym = k == total_[name] ? name : name + "$" + std::to_string(k);
        current_[name] = sym;
        return sym;
    }
    // The symbol the name stands for now.
    const std::string &current(const std::string &name) const {
        auto it = current_.find(name);
        internal_assert(it != current_.end()) << "schedule names a loop '" << name << "' that does not exist";
        return it->second;
    }

private:
    std::map<std::string, int> total_, seen_;
    std::map<std::string, std::string> current_;
};

}  // namespace

namespace {

// A split or fuse of build_definition, kept to find the true ranges of the variables it
// defines. For a split, `var` is the old variable, [lo, hi] its range when outer and inner stay
// in their loops' ranges, and value its let (let_index: the let in `lets`; promised: whether
// the let's value is already wrapped in a promise of [lo, hi]). For a fuse, `var` is the fused variable, `loop` the inner
// variable's range, [lo, hi] the outer variable's loop range, and value the outer variable's let.
// For a rename, `var` is the old name's variable and `outer` the new one's (the old is the new).
struct SplitRecord {
    enum Kind { SplitVar, FuseVars, RenameVar } kind;
    std::string var, outer, inner;
    LoopBounds loop;
    Expr factor;
    TailStrategy tail;
    Expr lo, hi;
    size_t let_index;
    Expr value;
    bool promised = true;
};

// An inclusive range of a loop variable's values.
struct ValueRange {
    Expr lo, hi;
};

// The value of an expression that simplifies to an integer constant.
std::optional<int64_t> constant_value(const Expr &e) {
    Expr simplified = simplify(e);
    const int64_t *v = as_const_int(simplified);
    return v ? std::optional<int64_t>(*v) : std::nullopt;
}

// A ShiftInwards split by a constant F whose outer loop is itself split ShiftInwards (by S
// points of the old variable in all, S = F times the outer split's own S): in every iteration
// the old variable takes values in [min(min0, max0 - S + 1), max0], where [min0, max0] is its
// loop's range (a loop shorter than S is shifted back to end at max0). The general formula
// below bounds it by min(outer.lo * F + min0, ...) with outer.lo = min(0, ceil(extent / F) - S / F),
// and over an outer loop (extent = max0 - min0 + 1 for a Func computed per tile of a consumer)
// interval arithmetic loses the correlation between extent and min0: a 128-point region,
// split by 32 and unrolled by 4, seemed to reach 352 points before its min (Halide's
// bounds_inference_outer_split). The range in terms of min0 and max0 alone stays tight.
// Records S for r's variable in shifted_by when r is such a split (or a plain ShiftInwards
// split by a constant, S = F) and returns the range when the outer loop was nested.
std::optional<ValueRange> nested_shift_range(const SplitRecord &r, const std::map<std::string, ValueRange> &moved,
                                             std::map<std::string, int64_t> &shifted_by) {
    if (r.kind != SplitRecord::SplitVar || r.tail != TailStrategy::ShiftInwards) return std::nullopt;
    std::optional<int64_t> F = constant_value(r.factor);
    if (!F || *F < 1) return std::nullopt;
    auto inner = moved.find(r.inner);
    if (inner != moved.end()) {
        // The inner loop may only be moved onto exactly its own range [0, F - 1].
        std::optional<int64_t> lo = constant_value(inner->second.lo);
        std::optional<int64_t> hi = constant_value(inner->second.hi);
        if (!lo || !hi || *lo != 0 || *hi != *F - 1) return std::nullopt;
    }
    auto outer_shift = shifted_by.find(r.outer);
    bool outer_nested = outer_shift != shifted_by.end();
    if (!outer_nested && moved.count(r.outer)) return std::nullopt;
    int64_t S = *F * (outer_nested ? outer_shift->second : 1);
    if (S > (int64_t(1) << 30)) return std::nullopt;
    shifted_by[r.var] = S;
    if (!outer_nested) return std::nullopt;
    Expr min0 = r.loop.min, max0 = r.loop.min + r.loop.extent - 1;
    return ValueRange{simplify(min(min0, max0 - int32_t(S) + 1)), simplify(max0)};
}

// The promises of build_definition's lets assume that the variables a split or fuse defines
// stay in their loops' ranges. A later split can move them out: a ShiftInwards split of a loop
// shorter than its factor starts before the loop (fuse(x, y, t).vectorize(t, 8) over fewer than
// 8 points makes t negative, so y = t / w + y.min falls below y.min), RoundUp ends after it.
// A promise narrower than the values would make bounds inference size the buffer too small.
// Walking the splits from the last one back, this finds each variable's true range and
// widens the promises where it differs; the common schedules' lets stay as they are.
void widen_promises(const std::vector<SplitRecord> &records, const std::map<std::string, LoopBounds> &bounds,
                    std::vector<std::pair<std::string, Expr>> &lets) {
    std::map<std::string, ValueRange> moved;  // variables whose values leave their loop's range
    std::map<std::string, int64_t> shifted_by;  // see nested_shift_range
    auto range_of = [&](const std::string &sym) {
        auto it = moved.find(sym);
        if (it != moved.end()) return it->second;
        const LoopBounds &b = bounds.at(sym);
        return ValueRange{b.min, b.min + b.extent - 1};
    };
    for (auto r = records.rbegin(); r != records.rend(); ++r) {
        bool children_moved = moved.count(r->outer) || moved.count(r->inner);
        if (r->kind == SplitRecord::RenameVar) {
            if (children_moved) moved[r->var] = moved.at(r->outer);
            continue;
        }
        if (r->kind == SplitRecord::FuseVars) {
            if (!moved.count(r->var)) continue;
            // The fused value t in [t.lo, t.hi] instead of [0, T - 1] (T = w * outer.extent):
            // inner = t % w + inner.min stays in range; outer = t / w + outer.min. Without
            // dividing by the symbolic w (which bounds inference cannot follow), for w >= 1:
            // t / w >= min(t.lo, 0), and t / w <= (T - 1) / w + max(t.hi - (T - 1), 0).
            ValueRange t = range_of(r->var);
            Expr last = bounds.at(r->var).extent - 1;
            ValueRange outer{simplify(r->lo + min(t.lo, 0)), simplify(r->hi + max(t.hi - last, 0))};
            moved[r->outer] = outer;
            lets[r->let_index].second = promise_clamped(r->value, outer.lo, outer.hi);
            continue;
        }
        ValueRange old;
        if (std::optional<ValueRange> nested = nested_shift_range(*r, moved, shifted_by)) {
            old = *nested;
            lets[r->let_index].second = simplify(promise_clamped(r->value, old.lo, old.hi));
        } else if (!children_moved) {
            old = {r->lo, r->hi};
        } else {
            ValueRange o = range_of(r->outer), i = range_of(r->inner);
            const Expr &F = r->factor, &min0 = r->loop.min;
            Expr old_max = min0 + r->loop.extent - 1;
            if (r->tail == TailStrategy::ShiftInwards) {
                old = {min(o.lo * F + min0, old_max - F + 1) + i.lo, min(o.hi * F + min0, old_max - F + 1) + i.hi};
            } else {
                // GuardWithIf runs the body only up to the old loop's end.
                Expr hi = o.hi * F + i.hi + min0;
                old = {o.lo * F + i.lo + min0, r->tail == TailStrategy::GuardWithIf ? old_max : hi};
            }
            old = {simplify(old.lo), simplify(old.hi)};
            if (r->promised) lets[r->let_index].second = simplify(promise_clamped(r->value, old.lo, old.hi));
        }
        // Values outside the old loop's range: a ShiftInwards or RoundUp split, or moved children.
        if (children_moved || r->tail != TailStrategy::GuardWithIf) moved[r->var] = old;
    }
}

// The last iteration of a ShiftInwards split shares points with the one before it (it is
// shifted back to end at the loop's end). Where the split's outer loop, or a loop made from
// it by further splits or fuses, runs in parallel, those two iterations may run on two
// threads at once, and both storing the shared points would be a data race, even of equal
// values. The iteration shifted back then computes them (its loops keep their constant
// extents) but leaves their stores to the iteration whose own part they are: it stores the
// point outer * F + inner' only where inner' >= outer * F - (extent - F), which holds for every
// point of every other iteration. Returns that condition for each such split.
std::vector<Expr> shared_point_store_guards(const std::vector<SplitRecord> &records, const std::set<std::string> &parallel,
                                            const std::string &prefix) {
    // The symbols from which a parallel loop is made: walking back from the last split,
    // a split's old variable reaches one if its outer or inner variable does, and a fuse's
    // variables if the fused one does.
    std::set<std::string> reaches = parallel;
    for (auto r = records.rbegin(); r != records.rend(); ++r) {
        if (r->kind == SplitRecord::SplitVar) {
            if (reaches.count(r->outer) || reaches.count(r->inner)) reaches.insert(r->var);
        } else if (r->kind == SplitRecord::RenameVar) {
            if (reaches.count(r->outer)) reaches.insert(r->var);
        } else if (reaches.count(r->var)) {
            reaches.insert(r->outer);
            reaches.insert(r->inner);
        }
    }
    std::vector<Expr> guards;
    for (const SplitRecord &r : records) {
        if (r.kind != SplitRecord::SplitVar || r.tail != TailStrategy::ShiftInwards || !reaches.count(r.outer)) continue;
        Expr outer = var(prefix + r.outer), inner = var(prefix + r.inner);
        Expr own_part = outer * r.factor - inner <= r.loop.extent - r.factor;
        guards.push_back(store_guard(own_part));
    }
    return guards;
}

// Stage::prefetch names two loops of the stage, `from` at or outside `at`, which is not
// vectorized (a prefetch loops over the lines of a region; it cannot run per lane).
void check_prefetch_loops(const FunctionContents &f, int stage, const Definition &def) {
    const auto &dims = def.schedule.dims;
    auto index_of = [&](const std::string &v) {
        for (size_t i = 0; i < dims.size(); i++) {
            if (dims[i].var == v) return int(i);
        }
        return -1;
    };
    for (const PrefetchDirective &p : def.schedule.prefetches) {
        std::string directive = describe_stage(f.name, stage) + ": prefetch(" + p.buffer + ", " + p.at + ", " + p.from + ", ...)";
        std::string loops;
        for (auto it = dims.rbegin(); it != dims.rend(); ++it) {
            if (it->var != kOutermost && it->var != kInnermost) loops += (loops.empty() ? "" : ", ") + it->var;
        }
        for (const std::string *v : {&p.at, &p.from}) {
            user_assert(index_of(*v) >= 0) << directive << " names '" << *v << "', which is not a loop of it (its loops, "
                                           << "outermost first: " << loops << ")";
        }
        user_assert(index_of(p.from) >= index_of(p.at))
            << directive << ": the loop the offset applies to ('" << p.from << "') is inside the loop the prefetch "
            << "goes in ('" << p.at << "'); it must be that loop or one outside it (its loops, outermost first: " << loops
            << ")";
        user_assert(dims[size_t(index_of(p.at))].for_type != ForType::Vectorized)
            << directive << ": loop '" << p.at << "' is vectorized; put the prefetch in a loop outside it";
    }
}

// The loop nest of one definition of stage `stage` of f (the stage's own, or a
// specialization's), by its schedule alone.
Stmt build_definition(const FunctionContents &f, int stage, const Definition &def) {
    const std::string prefix = stage_prefix(f.name, stage);
    bool is_update = stage > 0;

    std::vector<std::string> initial = f.args;
    if (def.rdom) {
        for (auto &rv : def.rdom->vars) initial.push_back(rv.name);
    }
    LoopSymbols symbols(def, initial);

    // Rename pure Vars and RVars to this stage's loop variables.
    std::map<std::string, Expr> rename;
    std::map<std::string, LoopBounds> bounds;  // by symbol
    std::set<std::string> rvars;               // symbols
    for (auto &a : f.args) {
        std::string sym = symbols.define(a);
        rename[a] = var(prefix + sym);
        Expr mn = var(prefix + a + ".min"), mx = var(prefix + a + ".max");
        bounds[sym] = {mn, mx - mn + 1};
    }
    if (def.rdom) {
        for (auto &rv : def.rdom->vars) {
            std::string sym = symbols.define(rv.name);
            rename[rv.name] = var(prefix + sym);
            bounds[sym] = {rv.min, rv.extent};
            rvars.insert(sym);
        }
    }
    std::vector<Expr> args;
    for (auto &a : def.args) args.push_back(substitute(rename, a));
    std::vector<Expr> values;
    for (auto &v : def.values) values.push_back(substitute(rename, v));
    Stmt body = Provide::make(f.name, values, args, def.schedule.atomic);
    if (stage == 0 && def.store_condition.defined()) {
        // An output's pure definition of undef() (or with undef() arms): the buffer keeps its
        // contents where nothing is stored (lowering clears the condition of intermediates).
        body = IfThenElse::make(substitute(rename, def.store_condition), body);
    }
    if (def.rdom && !def.rdom->predicates.empty()) {
        // RDom::where: the update runs only at the points where every predicate holds.
        Expr all;
        for (auto &p : def.rdom->predicates) all = all.defined() ? (all && p) : p;
        // Without likely(): an else-less if (likely(a <= b)) is how GuardWithIf's guards are
        // recognized (a producer computed in the loop goes inside them; loop partitioning
        // drops them past a limit), and a predicate that skips any iteration, not only a
        // tail, is no such guard (a sliding producer would miss the rows of the skipped
        // iterations). The simplifier may leave one conjunct alone, so every likely goes.
        struct DropLikely : IRMutator {
            using IRMutator::visit;
            Expr visit(const Call *op) override {
                if (op->is_intrinsic(Call::likely)) return mutate(op->args[0]);
                return IRMutator::visit(op);
            }
        };
        body = IfThenElse::make(DropLikely().mutate(substitute(rename, all)), body);
    }

    // Splits define the old variable from the new loops; apply their lets innermost.
    std::vector<std::pair<std::string, Expr>> lets;  // in definition order
    // GuardWithIf conditions, each with the loop symbols it compares.
    struct Guard {
        Expr condition;
        std::vector<std::string> vars;
    };
    std::vector<Guard> guards;
    std::vector<SplitRecord> records;  // per split and fuse, for the true ranges below
    for (const Split &s : def.schedule.splits) {
        if (s.kind == Split::SplitVar) {
            std::string old_sym = symbols.current(s.old_var);
            LoopBounds old = bounds.at(old_sym);
            std::string outer_sym = symbols.define(s.outer), inner_sym = symbols.define(s.inner);
            Expr F = s.factor;
            // ceil(extent / F), written so that it cannot overflow near the top of int32
            // (it is 0 for an empty loop: -1 / F is -1 with a positive F).
            bounds[outer_sym] = {0, (old.extent - 1) / F + 1};
            bounds[inner_sym] = {0, F};
            bool is_rvar = rvars.count(old_sym) > 0;
            if (is_rvar) {
                rvars.insert(outer_sym);
                rvars.insert(inner_sym);
            }
            Expr outer = var(prefix + outer_sym), inner = var(prefix + inner_sym);
            Expr value, lo = old.min, hi;  // the old variable's range over the new loops
            Expr old_max = old.min + old.extent - 1;
            TailStrategy tail = effective_tail(s.tail, is_update, is_rvar);
            switch (tail) {
            case TailStrategy::ShiftInwards:
                // The last tile shifts inwards so it ends exactly at the old loop's end (and
                // starts before the old loop's start if the loop is shorter than the factor).
                value = min(outer * F + old.min, old_max - F + 1) + inner;
                lo = min(old.min, old_max - F + 1);
                hi = old_max;
                break;
            case TailStrategy::GuardWithIf:
                // The guard compares offsets, outer * F + inner <= extent - 1, rearranged so
                // that nothing can overflow near the ends of the 32-bit range (the old
                // variable itself may wrap in the skipped iterations, where it is unused).
                value = outer * F + inner + old.min;
                guards.push_back({inner <= (old.extent - 1) - outer * F, {inner_sym, outer_sym}});
                hi = old_max;
                break;
            default:  // RoundUp: the realization grows to a multiple of the factor
                value = outer * F + inner + old.min;
                hi = old.min + bounds[outer_sym].extent * F - 1;
                break;
            }
            // The range is known by construction; promise it to bounds inference, which could
            // not find it through outer * F for a factor known only at run time (a Param), nor
            // through the guard of GuardWithIf (the value is only used where the guard holds).
            // (If a later split moves outer or inner outside their loops' ranges, the promised
            // range is widened below.)
            bool promised = !is_const(simplify(F)) || tail == TailStrategy::GuardWithIf;
            records.push_back({SplitRecord::SplitVar, old_sym, outer_sym, inner_sym, old, F, tail, lo, hi,
                               lets.size(), value, promised});
            // GuardWithIf's lower end moves down with outer where outer is below 0: a loop that
            // starts early to warm up sliding windows (lower/SlidingWarmup.cpp) runs there, and
            // the regions its consumers read must move down with it, as Halide's do. (From 0
            // on it is the old loop's min, as the value's own lower end is.)
            Expr promised_lo = lo;
            if (tail == TailStrategy::GuardWithIf && is_const(simplify(F))) promised_lo = lo + min(outer, 0) * F;
            lets.push_back({prefix + old_sym, simplify(promised ? promise_clamped(value, promised_lo, hi) : value)});
        } else if (s.kind == Split::FuseVars) {
            std::string inner_sym = symbols.current(s.inner), outer_sym = symbols.current(s.outer);
            LoopBounds in = bounds.at(inner_sym), out = bounds.at(outer_sym);
            std::string fused_sym = symbols.define(s.old_var);
            // (An empty loop fuses into an empty loop: two negative extents, an empty RDom's,
            // must not make a positive product.)
            bounds[fused_sym] = {0, max(in.extent, 0) * max(out.extent, 0)};
            Expr fused = var(prefix + fused_sym);
            // Division by a symbolic extent defeats interval arithmetic: promise the ranges.
            // (Euclidean % keeps the inner one in range whatever the fused value; the outer
            // one's promise is widened below if a later split moves the fused value outside
            // its loop, as a ShiftInwards split shorter than its factor does.)
            lets.push_back({prefix + inner_sym, promise_clamped(fused % in.extent + in.min, in.min,
                                                                in.min + in.extent - 1)});
            Expr outer_value = fused / in.extent + out.min;
            records.push_back({SplitRecord::FuseVars, fused_sym, outer_sym, inner_sym, in, Expr(), TailStrategy::Auto,
                               out.min, out.min + out.extent - 1, lets.size(), outer_value});
            lets.push_back({prefix + outer_sym, promise_clamped(outer_value, out.min, out.min + out.extent - 1)});
            if (rvars.count(inner_sym) || rvars.count(outer_sym)) rvars.insert(fused_sym);
        } else {
            // A rename: the old variable is the new loop's.
            std::string old_sym = symbols.current(s.old_var);
            LoopBounds old = bounds.at(old_sym);
            std::string new_sym = symbols.define(s.outer);
            bounds[new_sym] = old;
            if (rvars.count(old_sym)) rvars.insert(new_sym);
            Expr renamed = var(prefix + new_sym);
            records.push_back({SplitRecord::RenameVar, old_sym, new_sym, "", old, Expr(), TailStrategy::Auto, old.min,
                               old.min + old.extent - 1, lets.size(), renamed});
            lets.push_back({prefix + old_sym, renamed});
        }
    }
    widen_promises(records, bounds, lets);
    std::set<std::string> parallel_loops;
    for (const Dim &d : def.schedule.dims) {
        if (d.for_type == ForType::Parallel && d.var != kOutermost && d.var != kInnermost) {
            parallel_loops.insert(symbols.current(d.var));
        }
    }
    for (const Expr &shared : shared_point_store_guards(records, parallel_loops, prefix)) {
        body = IfThenElse::make(shared, body);
    }
    // A guard goes just inside the innermost loop of the two it compares, so that it also
    // skips the producers computed in that loop (which would otherwise be computed for points
    // past the end, outside the region their storage was sized for). A guard on a variable
    // that is itself defined by a later split's let stays innermost, inside the lets.
    std::set<std::string> loop_syms;
    for (const Dim &d : def.schedule.dims) {
        if (d.var != kOutermost && d.var != kInnermost) loop_syms.insert(symbols.current(d.var));
    }
    std::vector<bool> placed(guards.size(), false);
    auto guard_body = [&](const std::vector<size_t> &which, Stmt b) {
        if (which.empty()) return b;
        Expr cond = guards[which[0]].condition;
        for (size_t i = 1; i < which.size(); i++) cond = cond && guards[which[i]].condition;
        for (size_t i : which) placed[i] = true;
        return IfThenElse::make(likely(cond), b);
    };
    std::vector<size_t> innermost;
    for (size_t i = 0; i < guards.size(); i++) {
        const auto &vs = guards[i].vars;
        if (std::any_of(vs.begin(), vs.end(), [&](const std::string &v) { return !loop_syms.count(v); })) {
            innermost.push_back(i);
        }
    }
    body = guard_body(innermost, body);
    // A later split defines a variable that an earlier split's let uses (splitting xi after
    // splitting x into xo, xi), so later lets go outside earlier ones.
    for (auto &[name, value] : lets) body = LetStmt::make(name, value, body);
    check_prefetch_loops(f, stage, def);
    // Innermost loop first in dims; every loop is the last definition of its name.
    for (const Dim &d : def.schedule.dims) {
        if (d.var == kOutermost || d.var == kInnermost) {  // one iteration: a place, not a loop
            body = For::make(prefix + d.var, 0, 1, ForType::Serial, body);
            continue;
        }
        const std::string &sym = symbols.current(d.var);
        internal_assert(sym == d.var) << "loop " << d.var << " of " << f.name << " was redefined";
        auto b = bounds.find(sym);
        internal_assert(b != bounds.end()) << "no bounds for loop " << d.var;
        std::vector<size_t> here;
        for (size_t i = 0; i < guards.size(); i++) {
            const auto &vs = guards[i].vars;
            if (!placed[i] && std::find(vs.begin(), vs.end(), sym) != vs.end()) here.push_back(i);
        }
        body = guard_body(here, body);
        for (const PrefetchDirective &p : def.schedule.prefetches) {
            if (p.at == d.var && !p.buffer.empty()) {
                body = Block::make(prefetch_placeholder(p, prefix + p.from, prefix + d.var), body);
            }
        }
        // An atomic stage's vector lanes may update one point: they run one after another.
        ForType for_type = def.schedule.atomic && d.for_type == ForType::Vectorized ? ForType::Unrolled : d.for_type;
        body = For::make(prefix + d.var, b->second.min, b->second.extent, for_type, body);
    }
    return body;
}

// A definition with its specializations: if (c0) { ... } else if (c1) { ... } else { general }.
Stmt build_specialized(const FunctionContents &f, int stage, const Definition &def, KnownInBranch known) {
    std::vector<KnownInBranch> branch_known;
    for (const Specialization &sp : def.specializations) {
        KnownInBranch k = known;
        learn_from_condition(sp.condition, true, k);
        branch_known.push_back(k);
        learn_from_condition(sp.condition, false, known);  // the later branches know it failed
    }
    // specialize_fail is checked once, before the pipeline runs (add_parameter_checks), so
    // here the last specialization needs no test: one of them holds.
    size_t tested = def.specializations.size();
    Stmt general;
    if (!def.fails_unspecialized) {
        general = build_definition(f, stage, with_known(def, known));
    } else if (tested > 0) {
        tested--;
        general = build_specialized(f, stage, *def.specializations[tested].definition, branch_known[tested]);
    } else {
        general = Evaluate::make(0);  // never runs: the check at the top fails first
    }
    for (size_t i = tested; i-- > 0;) {
        const Specialization &sp = def.specializations[i];
        Stmt then_case = build_specialized(f, stage, *sp.definition, branch_known[i]);
        general = IfThenElse::make(sp.condition, then_case, general);
    }
    return general;
}

}  // namespace

Stmt build_stage(const FunctionContents &f, int stage) { return build_specialized(f, stage, f.stage(stage), {}); }

namespace {

Stmt build_produce(const FunctionContents &f) {
    std::vector<Stmt> stages;
    for (int s = 0; s < f.stages(); s++) stages.push_back(build_stage(f, s));
    return ProducerConsumer::make(f.name, true, Block::make(stages));
}

}  // namespace

bool stmt_calls(const Stmt &s, const std::string &name) {
    struct Finder : IRVisitor {
        const std::string &name;
        bool found = false;
        explicit Finder(const std::string &n) : name(n) {}
        void visit(const Call *op) override {
            found |= op->call_type == Call::Halo && op->name == name;
            IRVisitor::visit(op);
        }
    } f(name);
    s.accept(&f);
    return f.found;
}

namespace {

// Wraps the body of the loop at `level` (or everything, at the root) for Func f.
class InjectRealization : public IRMutator {
public:
    InjectRealization(const FunctionContents &f, bool is_store, bool is_compute)
        : f_(f), is_store_(is_store), is_compute_(is_compute) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    bool found = false;
    std::vector<std::string> loop_names;  // a realization goes in each of these loops
    // If given: computed only in those loops whose body calls one of these (f, or an inlined
    // Func that reads f). A specialization rfactored reads its intermediate, the other
    // branches of the stage, with the same loops, do not.
    std::set<std::string> used_through;

    // Injects into the loops that use f; if none does, into all of them (the placement check
    // then says why none uses it).
    Stmt mutate_or_everywhere(const Stmt &s) {
        Stmt r = mutate(s);
        if (found || used_through.empty()) return r;
        used_through.clear();
        return mutate(s);
    }

    Stmt wrap(const Stmt &body) {
        Stmt s = body;
        if (is_compute_) {
            s = Block::make(build_produce(f_), ProducerConsumer::make(f_.name, false, s));
        }
        if (is_store_) s = Realize::make(f_.name, f_.types(), {}, s);
        return s;
    }

    Stmt visit(const For *op) override {
        if (std::find(loop_names.begin(), loop_names.end(), op->name) == loop_names.end()) {
            return IRMutator::visit(op);
        }
        if (is_compute_ && !used_through.empty() &&
            std::none_of(used_through.begin(), used_through.end(),
                         [&](const std::string &n) { return stmt_calls(op->body, n); })) {
            return IRMutator::visit(op);
        }
        found = true;
        return For::make(op->name, op->min, op->extent, op->for_type, wrap_inside_guard(op->body));
    }

    // A loop body that is a GuardWithIf guard (after the lets of splits): the realization goes
    // inside it, so nothing is computed for the iterations the guard skips. Inside every such
    // guard: one on a variable a split's let defines stays inside the lets, within the guard
    // of the loops (tile(..., GuardWithIf) after a fuse of the tiles), and bounds inference
    // sizes the producer for the points that guard lets through, not the ones it skips.
    Stmt wrap_inside_guard(const Stmt &body) {
        if (!ends_in_guard(body)) return wrap(body);
        if (const LetStmt *let = body.as<LetStmt>()) {
            return LetStmt::make(let->name, let->value, wrap_inside_guard(let->body));
        }
        const IfThenElse *guard = body.as<IfThenElse>();
        return IfThenElse::make(guard->condition, wrap_inside_guard(guard->then_case));
    }
    static bool ends_in_guard(const Stmt &body) {
        Stmt s = body;
        while (const LetStmt *let = s.as<LetStmt>()) s = let->body;
        const IfThenElse *guard = s.as<IfThenElse>();
        const Call *likely_call = guard ? guard->condition.as<Call>() : nullptr;
        return guard && !guard->else_case.defined() && likely_call && likely_call->name == Call::likely;
    }

private:
    const FunctionContents &f_;
    bool is_store_, is_compute_;
};

// Does a definition read Func name, directly or through inlined Funcs?
bool branch_uses(const Environment &env, const Definition &def, const std::string &name) {
    struct Finder : IRVisitor {
        const Environment &env;
        const std::string &name;
        std::set<std::string> seen;
        bool found = false;
        Finder(const Environment &e, const std::string &n) : env(e), name(n) {}
        void visit(const Call *op) override {
            IRVisitor::visit(op);
            if (op->call_type != Call::Halo || found) return;
            if (op->name == name) {
                found = true;
                return;
            }
            auto it = env.find(op->name);
            if (it == env.end() || !it->second->schedule.compute_level.is_inline() ||
                !it->second->updates.empty() || !seen.insert(op->name).second) {
                return;
            }
            for (auto &v : it->second->pure.values) v.accept(this);
        }
    } finder(env, name);
    for (auto &v : def.values) v.accept(&finder);
    for (auto &a : def.args) a.accept(&finder);
    if (def.rdom) {
        for (auto &p : def.rdom->predicates) p.accept(&finder);
    }
    return finder.found;
}

// Whether any branch of a stage (its own definition or a specialization's: a specialization
// rfactored reads an intermediate the others do not) uses `name`.
bool stage_uses(const Environment &env, const Definition &def, const std::string &name) {
    if (branch_uses(env, def, name)) return true;
    return std::any_of(def.specializations.begin(), def.specializations.end(),
                       [&](const Specialization &sp) { return stage_uses(env, *sp.definition, name); });
}

// A stage's loops, outermost first.
std::string loop_names_of(const Definition &d) {
    std::string r;
    for (auto it = d.schedule.dims.rbegin(); it != d.schedule.dims.rend(); ++it) {
        r += (r.empty() ? "" : ", ") + it->var;
    }
    return r;
}

std::string stage_description(int s) {
    return s == 0 ? "pure definition" : "update " + std::to_string(s - 1);
}

// Whether a branch of a stage of g (its definition d, without its specializations) reads
// `name` through any chain of Funcs: an rfactored specialization reads its producers through
// the intermediate computed inside the branch, so they must be computed there too.
bool branch_reaches(const Environment &env, const FunctionContents &g, const Definition &d, const std::string &name) {
    std::vector<std::string> todo = definition_calls(g, d);
    std::set<std::string> seen;
    while (!todo.empty()) {
        std::string n = todo.back();
        todo.pop_back();
        if (n == name) return true;
        auto it = env.find(n);
        if (it == env.end() || !seen.insert(n).second) continue;
        for (auto &c : direct_calls(*it->second)) todo.push_back(c);
    }
    return false;
}

// ... of any branch: d or its specializations, at any depth.
bool any_branch_reaches(const Environment &env, const FunctionContents &g, const Definition &d, const std::string &name) {
    if (branch_reaches(env, g, d, name)) return true;
    return std::any_of(d.specializations.begin(), d.specializations.end(), [&](const Specialization &sp) {
        return any_branch_reaches(env, g, *sp.definition, name);
    });
}

// The first specialization of def (described by its condition) that reaches `used` but whose
// loops do not include var, or "" if all of them have it. A specialize_fail branch has no
// loops and needs none.
std::string specialization_without_loop(const Environment &env, const FunctionContents &g, const Definition &def,
                                        const std::string &var, const std::string &used) {
    for (const Specialization &sp : def.specializations) {
        const Definition &d = *sp.definition;
        bool has = std::any_of(d.schedule.dims.begin(), d.schedule.dims.end(),
                               [&](const Dim &x) { return x.var == var; });
        std::ostringstream cond;
        cond << "specialize(" << sp.condition << ")";
        if (!has && !d.fails_unspecialized && branch_reaches(env, g, d, used)) return cond.str();
        std::string nested = specialization_without_loop(env, g, d, var, used);
        if (!nested.empty()) return cond.str() + "." + nested;
    }
    return "";
}

// A LoopLevel naming a stage of the consumer g (LoopLevel(g, x, k)): the stage must exist,
// and f's realization there must cover every use of f by g, so no other stage of g may call f
// and, if any stage calls it, the named one must.
void check_named_stage(const Environment &env, const FunctionContents &f, const FunctionContents &g,
                       const LoopLevel &l, const char *directive) {
    std::string where = std::string(directive) + "(LoopLevel(" + g.name + ", " + l.var_name + ", " +
                        std::to_string(l.stage) + "))";
    user_assert(l.stage < g.stages())
        << "Func '" << f.name << "' is scheduled " << where << ", but '" << g.name << "' has " << g.stages()
        << " stage(s): 0 is its pure definition, k its update k - 1";
    std::vector<int> callers;
    for (int s = 0; s < g.stages(); s++) {
        if (stage_uses(env, g.stage(s), f.name)) callers.push_back(s);
    }
    bool named_calls = std::find(callers.begin(), callers.end(), l.stage) != callers.end();
    for (int s : callers) {
        user_assert(s == l.stage)
            << "Func '" << f.name << "' is scheduled " << where << ", but "
            << (named_calls ? "" : "that stage does not call '" + f.name + "' and ") << g.name << "'s "
            << stage_description(s) << (named_calls ? " also" : "") << " calls it, outside that stage's loops. "
            << "Use compute_at(" << g.name << ", "
            << l.var_name << ") without a stage index (f is then computed in every stage that calls it), or a "
            << "loop further out";
    }
}

// The For loop name of LoopLevel l: the consumer's last stage that has the loop and calls f.
std::string resolve_loop(const Environment &env, const FunctionContents &f, const LoopLevel &l,
                         const char *directive) {
    auto it = env.find(l.func_name);
    user_assert(it != env.end())
        << "Func '" << f.name << "' is scheduled " << directive << "(" << l.func_name << ", " << l.var_name
        << "), but '" << l.func_name << "' is not part of this pipeline";
    const FunctionContents &g = *it->second;
    // The stage to look in: the one named, else the last stage that uses f (looking through
    // inlined Funcs), else the last stage.
    int stage = l.stage;
    for (int s = g.stages() - 1; s >= 0 && stage < 0; s--) {
        if (stage_uses(env, g.stage(s), f.name)) stage = s;
    }
    if (stage < 0) stage = g.stages() - 1;
    const Definition &def = g.stage(stage);
    bool in_own_loops = std::any_of(def.schedule.dims.begin(), def.schedule.dims.end(),
                                    [&](const Dim &d) { return d.var == l.var_name; });
    // With specialize_fail the stage's own schedule never runs: only its specializations'
    // loops count. Nor do its loops when only specializations use f (rfactored ones).
    bool own_schedule_runs = !(def.fails_unspecialized && !def.specializations.empty());
    bool only_specializations_use = !branch_reaches(env, g, def, f.name) && any_branch_reaches(env, g, def, f.name);
    if (in_own_loops || !own_schedule_runs || only_specializations_use) {
        std::string missing = specialization_without_loop(env, g, def, l.var_name, f.name);
        user_assert(missing.empty())
            << "Func '" << f.name << "' is scheduled " << directive << "(" << g.name << ", " << l.var_name
            << "), but the specialization " << missing << " of " << g.name << "'s " << stage_description(stage)
            << " has no loop '" << l.var_name << "', so '" << f.name << "' would not be computed when it runs. "
            << "Use a loop that every specialization keeps (split with the outer loop keeping the name, "
            << "as split(x, x, xi, 8) does), or compute '" << f.name << "' further out";
        return stage_prefix(g.name, stage) + l.var_name;
    }
    std::string elsewhere, why;
    bool elsewhere_uses_f = false;  // (the stage looked in is then the last that uses f)
    for (int s = 0; s < g.stages(); s++) {
        for (auto &d : g.stage(s).schedule.dims) {
            if (s == stage || d.var != l.var_name || !elsewhere.empty()) continue;
            elsewhere = stage_description(s);
            elsewhere_uses_f = stage_uses(env, g.stage(s), f.name);
            why = elsewhere_uses_f ? " only: give the " + stage_description(stage) + " that loop too (schedule it "
                                         "with the same split), or compute '" + f.name + "' further out"
                                   : ", which does not use '" + f.name + "'";
        }
    }
    user_error << "Func '" << f.name << "' is scheduled " << directive << "(" << g.name << ", " << l.var_name
               << "), but the stage of '" << g.name << "' that uses '" << f.name << "' (its "
               << stage_description(stage) << (elsewhere_uses_f ? ", the last stage that uses it" : "")
               << ") has no loop '" << l.var_name << "'. That stage's loops, "
               << "outermost first, are: " << loop_names_of(g.stage(stage))
               << ". Pick one of those (after splits, use the new names)"
               << (elsewhere.empty() ? "" : "; '" + l.var_name + "' is a loop of " + g.name + "'s " + elsewhere + why);
    return "";
}

// The For loop names of LoopLevel l. compute_at(g, x) without a stage, when several stages
// of g use f and each has a loop x, means all of them (as in Halide): f gets a realization in
// each stage's loop x (Halide's tutorial 9: a producer used by both the pure step and the
// update of its consumer is computed inside both). Otherwise the one loop of resolve_loop.
// Whether every branch of a stage that can run has the loop `var`: its own schedule (unless
// specialize_fail makes it never run) and each specialization's.
bool every_branch_has_loop(const Definition &d, const std::string &var) {
    bool has = d.fails_unspecialized ||
               std::any_of(d.schedule.dims.begin(), d.schedule.dims.end(), [&](const Dim &x) { return x.var == var; });
    for (const Specialization &sp : d.specializations) has = has && every_branch_has_loop(*sp.definition, var);
    return has;
}

std::vector<std::string> resolve_loops(const Environment &env, const FunctionContents &f, const LoopLevel &l,
                                       const char *directive) {
    auto it = env.find(l.func_name);
    if (l.stage >= 0 && it != env.end()) check_named_stage(env, f, *it->second, l, directive);
    if (l.stage < 0 && it != env.end()) {
        const FunctionContents &g = *it->second;
        std::vector<int> using_stages;
        bool all_have_loop = true;
        for (int s = 0; s < g.stages(); s++) {
            if (!stage_uses(env, g.stage(s), f.name)) continue;
            using_stages.push_back(s);
            all_have_loop &= every_branch_has_loop(g.stage(s), l.var_name);
        }
        if (using_stages.size() > 1 && all_have_loop) {
            std::vector<std::string> loops;
            for (int s : using_stages) {
                LoopLevel at_stage = l;
                at_stage.stage = s;
                loops.push_back(resolve_loop(env, f, at_stage, directive));
            }
            return loops;
        }
    }
    return {resolve_loop(env, f, l, directive)};
}

// A reduction computed just outside its consumer's vectorized loops is vectorized the same
// way: over the same pure variables, innermost, so each vector of results stays in registers
// while the reduction runs.
void vectorize_like_consumer(FunctionContents &f, const Definition &consumer, const std::string &level_var) {
    for (const Dim &d : consumer.schedule.dims) {
        if (d.var == level_var) break;
        if (d.for_type != ForType::Vectorized) continue;
        std::string origin = d.var;
        for (auto it = consumer.schedule.splits.rbegin(); it != consumer.schedule.splits.rend(); ++it) {
            if (it->kind == Split::SplitVar && (it->inner == origin || it->outer == origin)) origin = it->old_var;
            if (it->kind == Split::RenameVar && it->outer == origin) origin = it->old_var;
        }
        if (std::find(f.args.begin(), f.args.end(), origin) == f.args.end()) continue;
        for (int k = 0; k < f.stages(); k++) {
            auto &dims = f.stage(k).schedule.dims;
            auto pos = std::find_if(dims.begin(), dims.end(), [&](const Dim &x) { return x.var == origin; });
            if (pos == dims.end()) continue;
            Dim moved = *pos;
            moved.for_type = ForType::Vectorized;
            dims.erase(pos);
            dims.insert(dims.begin(), moved);
        }
    }
}

}  // namespace

// Every use of a Func must come after it is computed, inside the loop it is computed at (its
// consume scope), whatever its store level; and a Func computed at a loop must be used there.
void check_placement(const Stmt &s, const Environment &env, const std::vector<std::string> &other_outputs) {
    struct Checker : IRVisitor {
        const Environment &env;
        const std::vector<std::string> &other_outputs;
        std::multiset<std::string> consuming;
        std::vector<std::string> producing;
        Checker(const Environment &e, const std::vector<std::string> &o) : env(e), other_outputs(o) {}
        void visit(const ProducerConsumer *op) override {
            if (op->is_producer) {
                producing.push_back(op->name);
                IRVisitor::visit(op);
                producing.pop_back();
                return;
            }
            const auto &f = *env.at(op->name);
            // (The pipeline's other outputs need no consumer.)
            user_assert(stmt_calls(op->body, op->name) || std::count(other_outputs.begin(), other_outputs.end(), op->name))
                << "Func '" << op->name << "' is scheduled compute_at("
                << f.schedule.compute_level.func_name << ", " << f.schedule.compute_level.var_name
                << "), but '" << f.schedule.compute_level.func_name << "' does not use '" << op->name
                << "' inside that loop. compute_at must name a Func that consumes it (directly or "
                << "through inlined Funcs), at a loop that encloses the uses";
            consuming.insert(op->name);
            IRVisitor::visit(op);
            consuming.erase(consuming.find(op->name));
        }
        void visit(const Call *op) override {
            IRVisitor::visit(op);
            if (op->call_type != Call::Halo) return;
            const auto &f = *env.at(op->name);
            bool placed = !f.schedule.compute_level.is_inline();
            std::string user = producing.empty() ? "?" : producing.back();
            const LoopLevel &l = f.schedule.compute_level;
            std::string where = l.kind == LoopLevel::At ? "compute_at(" + l.func_name + ", " + l.var_name + ")"
                                                        : l.to_string();
            user_assert(!placed || consuming.count(op->name) || user == op->name)
                << "Func '" << op->name << "' is scheduled " << where << ", but '" << user
                << "' uses it outside that loop. Compute '" << op->name << "' at a loop that "
                << "encloses all of its uses (for example at their common consumer's loop, or "
                << "compute_root())" << (f.schedule.store_level_set ? "; store_at/store_root only choose where its buffer lives, "
                                                "not where it is computed" : "");
        }
    } checker(env, other_outputs);
    s.accept(&checker);
}

namespace {

// Funcs without updates that are not the output and have no placement are inlined.
bool will_be_inlined(const FunctionContents &f, const std::string &output) {
    return f.schedule.compute_level.is_inline() && f.updates.empty() && f.name != output;
}

// Whether any Func called from `calls` (directly, or through Funcs that will be inlined)
// satisfies found.
bool any_call_through_inlined(const Environment &env, std::vector<std::string> calls, const std::string &output,
                              const std::function<bool(const FunctionContents &)> &found) {
    std::set<std::string> seen;
    while (!calls.empty()) {
        std::string c = calls.back();
        calls.pop_back();
        if (!seen.insert(c).second) continue;
        const FunctionContents &cf = *env.at(c);
        if (found(cf)) return true;
        if (will_be_inlined(cf, output)) {
            for (auto &n : direct_calls(cf)) calls.push_back(n);
        }
    }
    return false;
}

// Whether a Func that f calls is computed at a vectorized loop of stage s of g, or inside one.
bool producer_inside_vector_loops(const Environment &env, const FunctionContents &f, const FunctionContents &g,
                                  int s, const std::string &output) {
    std::set<std::string> inner_loops;
    for (auto &d : g.stage(s).schedule.dims) {
        inner_loops.insert(d.var);
        if (d.for_type == ForType::Vectorized) break;
    }
    return any_call_through_inlined(env, direct_calls(f), output, [&](const FunctionContents &c) {
        const LoopLevel &l = c.schedule.compute_level;
        return l.kind == LoopLevel::At && l.func_name == g.name && (l.stage == s || l.stage < 0) && inner_loops.count(l.var_name);
    });
}

}  // namespace

namespace {
// The loop of one iteration kInnermost, innermost in def and its specializations that use
// the Func placed there (outside their leading vector loops if outside_vectors).
void add_innermost_place(Definition &def, bool outside_vectors, const std::function<bool(const Definition &)> &uses) {
    auto &dims = def.schedule.dims;
    if (uses(def) && std::none_of(dims.begin(), dims.end(), [](const Dim &d) { return d.var == kInnermost; })) {
        auto pos = dims.begin();
        while (outside_vectors && pos != dims.end() && pos->for_type == ForType::Vectorized) ++pos;
        dims.insert(pos, Dim{kInnermost, ForType::Serial, false});
    }
    for (auto &sp : def.specializations) add_innermost_place(*sp.definition, outside_vectors, uses);
}

void add_outermost_loop(Definition &def) {
    auto &dims = def.schedule.dims;
    if (dims.empty() || dims.back().var != kOutermost) dims.push_back(Dim{kOutermost, ForType::Serial, false});
    for (auto &sp : def.specializations) add_outermost_loop(*sp.definition);
}
}  // namespace

void add_outermost_loops(const Environment &env) {
    for (auto &[name, f] : env) {
        for (const LoopLevel *l : {&f->schedule.compute_level, &f->schedule.store_level}) {
            if (l->kind != LoopLevel::At || l->var_name != kOutermost) continue;
            auto g = env.find(l->func_name);
            if (g == env.end()) continue;  // resolve_loop reports it
            for (int k = 0; k < g->second->stages(); k++) add_outermost_loop(g->second->stage(k));
        }
    }
}

namespace {
// As in Halide: a pure Func computed inline has no loops of its own, so vectorizing, unrolling
// or parallelizing one of them is a mistake (Halide refuses it too; a split or a reorder only
// means nothing, and is left alone). A Func with updates left inline is computed at its
// consumer's innermost loop, in loops of its own of any kind (Halide 14 computes f.vectorize(x,
// 4) or f.update().unroll(r) there).
void check_loop_kinds_of_inlined(const FunctionContents &f) {
    // (A specialized inlined Func is refused where its specializations are lowered.)
    if (!f.stage(0).specializations.empty()) return;
    for (const Dim &dim : f.stage(0).schedule.dims) {
        if (dim.for_type == ForType::Serial) continue;
        user_error << "Func '" << f.name << "' is computed inline (it has no compute_at or compute_root), so its loop "
                   << dim.var << " cannot be marked " << directive_name(dim.for_type) << " (as in Halide): give it "
                   << "compute_at(consumer, var) or compute_root(), or remove the " << directive_name(dim.for_type)
                   << " directive";
    }
}
}  // namespace

namespace {

// One loop of the loop nest: loop `var` of stage `stage` of Func `func`.
struct LoopRef {
    std::string func;
    int stage;
    std::string var;
    ForType type;
    bool same_loop(const LoopRef &o) const { return func == o.func && stage == o.stage && var == o.var; }
};
using LoopPath = std::vector<LoopRef>;  // outermost first

// A stage's own loops, outermost first (down to `down_to` if given; none if it has no such loop).
std::optional<LoopPath> own_loops(const FunctionContents &g, int s, const std::string *down_to) {
    LoopPath own;
    const auto &dims = g.stage(s).schedule.dims;
    for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
        own.push_back({g.name, s, d->var, d->for_type});
        if (down_to && d->var == *down_to) return own;
    }
    if (down_to) return std::nullopt;
    return own;
}

// The loops around g's realization, or nothing where this does not know them: g is computed
// at a loop of a specialized stage, or in several stages of its consumer (compute_at without a
// stage), or at a placement not resolved yet.
std::optional<LoopPath> loops_around(const Environment &env, const FunctionContents &g, int depth = 0) {
    const LoopLevel &l = g.schedule.compute_level;
    if (l.is_root()) return LoopPath{};
    auto it = env.find(l.func_name);
    if (l.kind != LoopLevel::At || it == env.end() || depth > 100) return std::nullopt;
    const FunctionContents &h = *it->second;
    int stage = l.stage;
    if (stage < 0) {
        std::vector<int> using_stages;
        for (int s = 0; s < h.stages(); s++) {
            if (stage_uses(env, h.stage(s), g.name)) using_stages.push_back(s);
        }
        if (using_stages.size() != 1) return std::nullopt;
        stage = using_stages[0];
    }
    if (stage >= h.stages() || !h.stage(stage).specializations.empty()) return std::nullopt;
    auto outer = loops_around(env, h, depth + 1);
    auto own = own_loops(h, stage, &l.var_name);
    if (!outer || !own) return std::nullopt;
    outer->insert(outer->end(), own->begin(), own->end());
    return outer;
}

// Where Halide computes a Func with updates that has no placement and is used in more than
// one stage: as close to the innermost loop as possible, i.e. at the innermost loop that
// encloses every use (outside vectorized loops, which would need a vector of reductions).
// Nothing where that loop is not known here (the caller then computes it at the root).
std::optional<LoopLevel> innermost_loop_around_uses(const Environment &env, const FunctionContents &f,
                                                    const std::set<std::string> &callers, const std::string &output) {
    std::optional<LoopPath> common;
    auto is_f = [&](const FunctionContents &c) { return c.name == f.name; };
    for (const std::string &name : callers) {
        const FunctionContents &g = *env.at(name);
        for (int s = 0; s < g.stages(); s++) {
            if (!any_call_through_inlined(env, stage_calls(g, s), output, is_f)) continue;
            if (!g.stage(s).specializations.empty()) return std::nullopt;
            auto path = loops_around(env, g);
            if (!path) return std::nullopt;
            LoopPath own = *own_loops(g, s, nullptr);
            path->insert(path->end(), own.begin(), own.end());
            if (!common) {
                common = std::move(path);
                continue;
            }
            size_t n = 0;
            while (n < common->size() && n < path->size() && (*common)[n].same_loop((*path)[n])) n++;
            common->resize(n);
        }
    }
    if (!common) return std::nullopt;
    while (!common->empty() && common->back().type == ForType::Vectorized) common->pop_back();
    if (common->empty()) return LoopLevel::root();
    LoopLevel l;
    l.kind = LoopLevel::At;
    l.func_name = common->back().func;
    l.var_name = common->back().var;
    l.stage = common->back().stage;
    return l;
}

}  // namespace

void resolve_default_placements(const Environment &env, const std::vector<std::string> &order,
                                const std::string &output) {
    // Who calls whom, looking through inlined Funcs (each inlined Func once per caller: a
    // graph of inlined Funcs can have exponentially many paths).
    std::map<std::string, std::set<std::string>> callers;
    for (auto &name : order) {
        if (will_be_inlined(*env.at(name), output)) continue;
        any_call_through_inlined(env, direct_calls(*env.at(name)), output, [&](const FunctionContents &c) {
            if (!will_be_inlined(c, output)) callers[c.name].insert(name);
            return false;  // (visit them all)
        });
    }
    // Consumers first, so a chain of reductions each lands inside the next.
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        auto &f = *env.at(*it);
        if (*it != output && f.schedule.compute_level.is_inline() && f.updates.empty()) check_loop_kinds_of_inlined(f);
        if (*it == output || !f.schedule.compute_level.is_inline() || f.updates.empty()) continue;
        user_assert(!f.schedule.explicitly_inlined)
            << "Func '" << *it << "' has update definitions, so it cannot be computed inline "
            << "(compute_inline); use compute_at(consumer, var) or compute_root() instead";
        const auto &cs = callers[*it];
        if (cs.size() == 1) {
            FunctionContents &g = *env.at(*cs.begin());
            // The innermost loop of the one stage of g that calls f (directly or through
            // inlined Funcs); at root if several stages do, or the stage has no loops.
            std::vector<int> calling;
            auto is_f = [&](const FunctionContents &c) { return c.name == *it; };
            for (int s = 0; s < g.stages(); s++) {
                if (any_call_through_inlined(env, stage_calls(g, s), output, is_f)) calling.push_back(s);
            }
            if (calling.size() == 1 && !g.stage(calling[0]).schedule.dims.empty()) {
                int s = calling[0];
                const auto &dims = g.stage(s).schedule.dims;
                LoopLevel l;
                l.kind = LoopLevel::At;
                l.func_name = g.name;
                l.var_name = dims[0].var;
                l.stage = s;
                // Computing inside a vectorized loop would need a vector of reductions: it
                // goes just outside the vector loops, unless one of its producers is computed
                // inside them (then that loop already runs lane by lane).
                bool outside_vectors = dims[0].for_type == ForType::Vectorized &&
                                       !producer_inside_vector_loops(env, f, g, s, output);
                if (outside_vectors) {
                    auto scalar = std::find_if(dims.begin(), dims.end(),
                                               [](const Dim &d) { return d.for_type != ForType::Vectorized; });
                    if (scalar != dims.end()) {
                        l.var_name = scalar->var;
                    } else {
                        // Every loop of g is a vector loop: the reduction goes where g itself
                        // is computed, just before it (so it still sees the producers g sees
                        // there), or at the root where g is.
                        const LoopLevel &gl = g.schedule.compute_level;
                        l = gl.kind == LoopLevel::At ? gl : LoopLevel::root();
                    }
                }
                // A specialized consumer's branches have loops of their own: the place is a
                // loop of one iteration just inside each branch's innermost loop (outside its
                // vector loops), so the reduction stays inside every loop a producer may be
                // computed at. Only the branches that use f get one (after rfactor of a
                // specialization, only that branch reads the intermediate).
                if (!g.stage(s).specializations.empty()) {
                    auto uses = [&](const Definition &d) {
                        return any_call_through_inlined(env, definition_calls(g, d), output, is_f);
                    };
                    add_innermost_place(g.stage(s), outside_vectors, uses);
                    l = LoopLevel();
                    l.kind = LoopLevel::At;
                    l.func_name = g.name;
                    l.var_name = kInnermost;
                    l.stage = s;
                }
                f.schedule.compute_level = l;
                f.schedule.store_level = l;
                if (l.kind == LoopLevel::At) vectorize_like_consumer(f, g.stage(s), l.var_name);
            }
        }
        if (f.schedule.compute_level.is_inline()) {
            LoopLevel l = innermost_loop_around_uses(env, f, cs, output).value_or(LoopLevel::root());
            f.schedule.compute_level = l;
            f.schedule.store_level = l;
        }
    }
}

// For every producer of `name` in s (one per branch of a specialized consumer), the loops
// enclosing it, outermost first.
std::vector<std::vector<const For *>> loops_around_producers(const Stmt &s, const std::string &name) {
    struct Finder : IRVisitor {
        std::string name;
        std::vector<const For *> stack;
        std::vector<std::vector<const For *>> found;
        void visit(const For *op) override {
            stack.push_back(op);
            IRVisitor::visit(op);
            stack.pop_back();
        }
        void visit(const ProducerConsumer *op) override {
            if (op->is_producer && op->name == name) found.push_back(stack);
            IRVisitor::visit(op);
        }
    } finder;
    finder.name = name;
    s.accept(&finder);
    return finder.found;
}

// A Func stored outside a parallel loop but computed inside it would be written by every
// thread of that loop into one buffer: a race whenever their regions overlap. Halide refuses
// the schedule, and so do we. store_loop is empty for store_root (every loop is inside it).
void check_no_parallel_loop_between(const FunctionContents &f, const std::vector<const For *> &loops,
                                    const std::string &store_loop) {
    bool inside_store = store_loop.empty();
    for (const For *l : loops) {
        if (inside_store && l->for_type == ForType::Parallel) {
            user_error << "Func '" << f.name << "' is stored outside the parallel loop " << l->name
                       << " (" << f.schedule.store_level.to_string() << ") but computed inside it ("
                       << f.schedule.compute_level.to_string() << "), so the threads of that loop "
                       << "would write one buffer at once: a race. Store it inside the parallel loop "
                       << "(store_at that loop or an inner one), or make the loop serial";
        }
        if (l->name == store_loop) inside_store = true;
    }
}

void check_no_parallel_loop_between(const FunctionContents &f, const Stmt &s, const std::string &store_loop) {
    for (const auto &loops : loops_around_producers(s, f.name)) check_no_parallel_loop_between(f, loops, store_loop);
}


namespace {
// `name` and the Funcs that will be inlined and read it (directly or through each other),
// given what each Func that will be inlined calls.
std::set<std::string> names_reading(const std::map<std::string, std::vector<std::string>> &inlined_calls,
                                    const std::string &name) {
    std::set<std::string> found = {name};
    for (bool grew = true; grew;) {
        grew = false;
        for (auto &[g, calls] : inlined_calls) {
            if (found.count(g)) continue;
            if (std::any_of(calls.begin(), calls.end(), [&](const std::string &c) { return found.count(c) > 0; })) {
                grew = found.insert(g).second || grew;
            }
        }
    }
    return found;
}
}  // namespace

Stmt schedule_functions(const Environment &env, const std::vector<std::string> &order,
                        const std::string &output, const std::vector<std::string> &other_outputs) {
    const FunctionContents &out = *env.at(output);
    Stmt s = build_produce(out);
    std::map<std::string, std::vector<std::string>> inlined_calls;
    for (auto &[name, contents] : env) {
        if (will_be_inlined(*contents, output)) inlined_calls[name] = direct_calls(*contents);
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const FunctionContents &f = *env.at(*it);
        if (f.name == output) continue;
        const FuncSchedule &sched = f.schedule;
        if (sched.compute_level.is_inline()) {
            user_assert(sched.store_level.is_inline() || !sched.store_level_set)
                << "Func '" << f.name << "' has store_at/store_root but is computed inline; give it "
                << "a compute_at or compute_root as well";
            continue;
        }
        bool same = sched.store_level == sched.compute_level;
        if (sched.compute_level.is_root()) {
            user_assert(sched.store_level.is_root())
                << "Func '" << f.name << "' is computed at the root but stored at "
                << sched.store_level.to_string() << ", which is inside it; store_at must be at or "
                << "outside the compute_at level (use store_root())";
            // The pipeline's other outputs write the caller's buffers: no realization of their own.
            bool is_output = std::count(other_outputs.begin(), other_outputs.end(), f.name) > 0;
            InjectRealization inj(f, !is_output, true);
            s = inj.wrap(s);
            continue;
        }
        std::vector<std::string> compute_loops = resolve_loops(env, f, sched.compute_level, "compute_at");
        std::set<std::string> used_through = names_reading(inlined_calls, f.name);
        if (same) {
            InjectRealization inj(f, true, true);
            inj.loop_names = compute_loops;
            inj.used_through = used_through;
            s = inj.mutate_or_everywhere(s);
            user_assert(inj.found)
                << "Func '" << f.name << "' is scheduled compute_at(" << sched.compute_level.func_name << ", "
                << sched.compute_level.var_name << "), but that loop is not in the pipeline where '"
                << f.name << "' is used. Is '" << sched.compute_level.func_name << "' itself inlined into "
                << "another Func? Then compute it somewhere (compute_root or compute_at) first";
            continue;
        }
        // store_at outside compute_at: the Realize goes at the store loop, the produce inside.
        InjectRealization compute(f, false, true);
        compute.loop_names = compute_loops;
        compute.used_through = used_through;
        s = compute.mutate_or_everywhere(s);
        user_assert(compute.found) << "Func '" << f.name << "': compute_at loop " << compute_loops[0]
                                   << " is not in the pipeline";
        if (sched.store_level.is_root()) {
            s = Realize::make(f.name, f.types(), {}, s);
            check_no_parallel_loop_between(f, s, "");
            continue;
        }
        std::vector<std::string> store_loops = resolve_loops(env, f, sched.store_level, "store_at");
        InjectRealization store(f, true, false);
        store.loop_names = store_loops;
        Stmt stored = store.mutate(s);
        user_assert(store.found) << "Func '" << f.name << "': store_at loop " << store_loops[0]
                                 << " is not in the pipeline";
        // A store loop must enclose every compute loop.
        bool store_encloses = true;
        for (const auto &loops : loops_around_producers(stored, f.name)) {
            auto at = std::find_if(loops.begin(), loops.end(), [&](const For *l) {
                return std::find(store_loops.begin(), store_loops.end(), l->name) != store_loops.end();
            });
            store_encloses &= at != loops.end();
            if (at != loops.end()) check_no_parallel_loop_between(f, loops, (*at)->name);
        }
        user_assert(store_encloses)
            << "Func '" << f.name << "' is stored at " << sched.store_level.to_string()
            << " but computed at " << sched.compute_level.to_string()
            << ", which is outside it. store_at must name a loop at or outside the compute_at loop";
        s = stored;
    }
    return s;
}

}  // namespace halo
