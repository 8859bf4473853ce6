// How a Func is computed: where (LoopLevel) and with which loop structure (StageSchedule).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "IR.h"

namespace halo {

enum class TailStrategy {
    Auto,          // ShiftInwards for pure definitions, GuardWithIf for updates
    ShiftInwards,  // the last tile moves inwards to overlap the previous one (recomputes)
    GuardWithIf,   // the last tile skips points past the end
    RoundUp,       // the last tile runs past the end (the realization is grown to fit)
    // Halide's predicated tails: the last tile's loads and stores (or only its loads, or only
    // its stores) are guarded. Halo computes them as GuardWithIf, the same values; Halide
    // constrains the output (PredicateLoads) or input (PredicateStores) sizes, Halo does not.
    Predicate,
    PredicateLoads,
    PredicateStores,
};

struct Split {
    enum Kind { SplitVar, FuseVars, RenameVar };
    Kind kind = SplitVar;
    std::string old_var, outer, inner;  // FuseVars: inner and outer fuse into old_var
    Expr factor;
    TailStrategy tail = TailStrategy::Auto;
    // The tail strategy the directive named, where it differs from tail (the Predicate*
    // strategies are computed as GuardWithIf): what later directives are checked against.
    TailStrategy requested_tail = TailStrategy::Auto;
    // The directive that made the split (split, tile, vectorize, unroll, parallel), for messages.
    std::string directive = "split";
};

// The loops that stem from the outer loop of a ShiftInwards split (Auto in a pure definition),
// as Halide 14 counts them: splitting one again with Auto rounds up (the shift already keeps
// every point inside the loop's range), and such a RoundUp split asks nothing more of the output.
std::set<std::string> loops_from_shifted_outer_loops(const std::vector<Split> &splits, bool pure_definition);

// The directive that gives a loop this kind (vectorize for Vectorized, ...), for messages.
inline const char *directive_name(ForType t) {
    static const char *const names[] = {"serial", "parallel", "vectorize", "unroll"};
    return names[int(t)];
}

// One loop of a stage, innermost first in StageSchedule::dims.
// Halide's loop partitioning policy of a loop (Stage::partition): Auto partitions where it finds
// a GuardWithIf tail or a clamp to peel off, Never does not, Always does and makes it an error to
// find nothing to partition.
enum class Partition { Auto, Never, Always };

struct Dim {
    std::string var;
    ForType for_type = ForType::Serial;
    bool is_rvar = false;
    Partition partition = Partition::Auto;
};

// Halide's PrefetchBoundStrategy: what a prefetch does with the part of its region outside
// the buffer. Clamp prefetches the region clamped to the buffer; GuardWithIf prefetches only a
// region wholly inside it; NonFaulting prefetches the region as it is (a prefetch never faults).
enum class PrefetchBoundStrategy { Clamp, GuardWithIf, NonFaulting };

// Stage::prefetch: at the top of each iteration of loop `at`, prefetch the part of `buffer`
// (a Func's or an input's) that the loop's body reads when loop `from` is `offset` iterations
// further on.
struct PrefetchDirective {
    std::string buffer;  // the Func's or input's name (lowering: the Func's name in the pipeline)
    std::weak_ptr<FunctionContents> func;  // a Func's (weak: a Func may prefetch itself)
    std::string at, from;
    Expr offset;
    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf;
};

struct StageSchedule {
    std::vector<Split> splits;
    std::vector<Dim> dims;
    // Stage::allow_race_conditions: parallel() and vectorize() of RVars need no proof.
    bool allow_race_conditions = false;
    // Stage::atomic: every store of the stage is an atomic read-modify-write, so parallel() and
    // vectorize() of RVars need no proof (its vectorized loops run as unrolled scalar updates).
    bool atomic = false;
    std::vector<PrefetchDirective> prefetches;
};

class Func;
struct VarOrRVar;

// A loop at which a Func is stored or computed, as Halide's LoopLevel: inlined(), root(), or
// LoopLevel(consumer, var[, stage_index]) for the loop `var` of the consumer's stage
// (f.compute_at(LoopLevel(g, x)) is f.compute_at(g, x)).
//
// As in Halide, a LoopLevel is a handle: copies share one cell, and set() writes a level into
// it, so every Func scheduled with any copy follows. A default-constructed LoopLevel is
// undefined until set() (a Func compiled at an undefined level is an error); a Generator can
// thus hand its LoopLevels to code that schedules with them before their value is known.
// The fields are the level as constructed; once set() is called on any copy, the cell's level
// is the one that counts (current()). Lowering reads every Func's levels from their cells
// when it copies the Funcs (lock_loop_levels), and works on unshared levels after that.
struct LoopLevel {
    enum Kind { Undefined, Inlined, Root, At };
    Kind kind = Undefined;
    std::string func_name;  // the consumer, for At
    std::string var_name;   // the consumer's loop variable, for At
    bool var_is_rvar = false;
    int stage = -1;    // the consumer's stage; -1 means its last stage that uses the producer
    // The consumer itself, when the level was made from the Func (not from a name, as a
    // Generator's LoopLevel parameter is): it tells apart two Funcs made with one name, which
    // lowering numbers apart in its copies (lower/DistinctNames.h). For identity only.
    std::weak_ptr<FunctionContents> consumer;

    // Undefined until set(), as Halide's (LoopLevel::inlined() is the level that inlines).
    LoopLevel() : cell_(std::make_shared<Cell>()) {}
    // The loop `var` of `consumer`'s stage `stage_index` (0: the pure definition, k: update
    // k - 1; -1: the stages that use the producer, as compute_at(consumer, var) chooses).
    LoopLevel(const Func &consumer, const VarOrRVar &var, int stage_index = -1);
    static LoopLevel inlined() { return of_kind(Inlined); }
    static LoopLevel root() { return of_kind(Root); }
    // The level `name.var` given by names only (a Generator's LoopLevel parameter).
    static LoopLevel at(const std::string &name, const std::string &var, int stage_index = -1);

    // Makes this handle, and every copy of it, the level `other` is now.
    void set(const LoopLevel &other);
    // Halide's lock(): Halo reads a level when it compiles, and a later set() recompiles, so
    // there is nothing to freeze; kept so that Halide code calling it compiles.
    LoopLevel &lock() { return *this; }
    // The level that counts: the last one set() on any copy, else this one's fields.
    const LoopLevel &current() const { return cell_ && cell_->level ? *cell_->level : *this; }
    // current(), as a level of its own that no set() reaches (what lowering works on).
    LoopLevel unshared() const {
        LoopLevel l = current();
        l.cell_.reset();
        return l;
    }
    // When set() last wrote this handle's cell (0: never), for compiled pipelines to notice.
    uint64_t set_stamp() const { return cell_ ? cell_->stamp : 0; }

    // As Halide's: the consumer's name and its loop, for a level inside a Func's loops (asking
    // a root, inlined or undefined level is an error).
    std::string func() const;
    VarOrRVar var() const;
    bool defined() const { return current().kind != Undefined; }
    bool is_inline() const { return current().kind == Inlined; }
    bool is_inlined() const { return is_inline(); }
    bool is_root() const { return current().kind == Root; }
    int stage_index() const { return current().stage; }
    bool operator==(const LoopLevel &o) const {
        const LoopLevel &a = current(), &b = o.current();
        return a.kind == b.kind && a.func_name == b.func_name && a.var_name == b.var_name && a.stage == b.stage;
    }
    bool operator!=(const LoopLevel &o) const { return !(*this == o); }
    std::string to_string() const;

private:
    struct Cell {
        std::shared_ptr<const LoopLevel> level;  // set()'s level (unshared), or null
        uint64_t stamp = 0;
    };
    std::shared_ptr<Cell> cell_;
    static LoopLevel of_kind(Kind k) {
        LoopLevel l;
        l.kind = k;
        return l;
    }
};

// The explicit bounds of a pure dimension, as in Halide: Func::bound gives min and extent,
// bound_extent only the extent (the min is what the consumers need), align_bounds a modulus
// and remainder (the region is grown outwards so that its min is remainder modulo modulus and
// its extent a multiple of modulus), align_extent only a modulus (the extent is rounded up).
// Undefined fields are not constrained. The directives on one Var merge into one Bound (a later
// call replaces the fields it gives), applied in a fixed order whatever the order of the calls,
// as in Halide: the alignment first, then the min, then the extent.
struct Bound {
    std::string var;
    Expr min, extent;
    Expr modulus, remainder;
    // How the user wrote it, for messages: "f.align_bounds(x, ...) and f.bound_extent(x, ...)".
    std::string directives(const std::string &func) const {
        std::string out;
        auto add = [&](const char *d) { out += (out.empty() ? "" : " and ") + func + "." + d + "(" + var + ", ...)"; };
        if (modulus.defined()) add(remainder.defined() ? "align_bounds" : "align_extent");
        if (extent.defined()) add(min.defined() ? "bound" : "bound_extent");
        return out;
    }
};

// Storage folding (Func::fold_storage, or chosen by the sliding window pass): dimension `var`
// of the buffer is stored modulo `factor`.
struct StorageFold {
    std::string var;
    Expr factor;
    bool explicit_fold = true;  // fold_storage: checked at run time against what is live
};

struct FuncSchedule {
    LoopLevel compute_level = LoopLevel::inlined(), store_level = LoopLevel::inlined();
    bool store_level_set = false;  // store_at given explicitly
    // compute_inline(), or compute_at of a level that is inlined when the Func is compiled
    // (set when the levels are locked: the level may be set() after compute_at).
    bool explicitly_inlined = false;
    bool compute_level_given = false;  // compute_at, compute_root or compute_inline was called
    std::vector<Bound> bounds;  // at most one per Var
    // The Bound of var, added unconstrained if it has none yet.
    Bound &bound_of(const std::string &var) {
        for (Bound &b : bounds) {
            if (b.var == var) return b;
        }
        bounds.push_back(Bound{var, Expr(), Expr(), Expr(), Expr()});
        return bounds.back();
    }
    // Storage order of the pure dimensions, innermost first (empty: the argument order).
    std::vector<std::string> storage_order;
    // align_storage: pad the storage extent of a dimension (by its Var's name; "" for the
    // innermost storage dimension) up to a multiple of a positive constant.
    std::vector<std::pair<std::string, int64_t>> storage_alignment;
    MemoryType memory_type = MemoryType::Auto;  // store_in
    std::vector<StorageFold> folds;
    // bound_storage: a dimension's (by its Var's name) allocated extent, whatever the region
    // computed (checked at run time to hold it).
    std::vector<std::pair<std::string, Expr>> storage_bounds;
};

}  // namespace halo
