// The scheduling directives of Func and Stage. They only record what the user asked for,
// after checking what can be checked locally; lowering applies them.
#include <atomic>
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "FreeNames.h"
#include "Func.h"
#include "IRPrinter.h"
#include "IRVisitor.h"
#include "ParallelRVar.h"
#include "lower/IREquality.h"
#include "lower/Substitute.h"
#include "lower/UnrollLoops.h"
#include "lower/Simplify.h"

namespace halo {

namespace {

std::string loop_names(const StageSchedule &s) {
    std::string r;
    for (auto it = s.dims.rbegin(); it != s.dims.rend(); ++it) r += (r.empty() ? "" : ", ") + it->var;
    return r;
}
}  // namespace

Definition &Stage::def() const {
    Definition *d = &f_->stage(index_);
    for (int i : path_) d = d->specializations[size_t(i)].definition.get();
    return *d;
}

std::string Stage::describe() const {
    std::string r = describe_stage(f_->name, index_);
    const Definition *d = &f_->stage(index_);
    for (int i : path_) {
        const Specialization &sp = d->specializations[size_t(i)];
        std::ostringstream cond;
        cond << sp.condition;
        r += " specialize(" + cond.str() + ")";
        d = sp.definition.get();
    }
    return r;
}

Stage Stage::specialize(const Expr &condition) {
    user_assert(condition.defined()) << describe() << ": specialize() of an undefined condition";
    user_assert(condition.type().is_bool())
        << describe() << ": specialize(" << condition << "): the condition has type " << condition.type()
        << "; it must be a boolean (compare it, e.g. p != 0)";
    std::string loop_var = first_loop_variable(condition);
    user_assert(loop_var.empty())
        << describe() << ": specialize(" << condition << ") uses '" << loop_var << "', a Var or RVar. "
        << "A specialization is chosen once per realization, before any loop runs, so its condition "
        << "may only use Params, buffer fields (such as input.width()) and constants";
    struct FuncReads : IRVisitor {
        std::string found;
        void visit(const Call *op) override {
            if ((op->call_type == Call::Halo || op->call_type == Call::Image) && found.empty()) found = op->name;
            IRVisitor::visit(op);
        }
    } reads;
    condition.accept(&reads);
    user_assert(reads.found.empty())
        << describe() << ": specialize(" << condition << ") reads '" << reads.found << "'. A specialization "
        << "is chosen before anything is computed, so its condition may only use Params, buffer fields "
        << "and constants";
    Definition &d = def();
    for (size_t i = 0; i < d.specializations.size(); i++) {
        if (equal(d.specializations[i].condition, condition)) {
            std::vector<int> path = path_;
            path.push_back(int(i));
            return Stage(f_, index_, path);
        }
    }
    user_assert(!d.fails_unspecialized)
        << describe() << ": specialize(" << condition << ") after specialize_fail(\"" << d.fail_message
        << "\"); specialize_fail must come after all the specializations of a stage";
    f_->changed();
    // The specialization starts from this stage's current schedule, without its own
    // specializations (Halide's rule).
    auto copy = std::make_unique<Definition>();
    copy->args = d.args;
    copy->values = d.values;
    copy->store_condition = d.store_condition;
    copy->rdom = d.rdom;
    copy->schedule = d.schedule;
    d.specializations.emplace_back(condition, std::move(copy));
    std::vector<int> path = path_;
    path.push_back(int(d.specializations.size()) - 1);
    return Stage(f_, index_, path);
}

void Stage::specialize_fail(const std::string &message) {
    Definition &d = def();
    user_assert(!d.fails_unspecialized)
        << describe() << ": specialize_fail(\"" << message << "\") given twice (the first: \""
        << d.fail_message << "\")";
    f_->changed();
    d.fails_unspecialized = true;
    d.fail_message = message;
}

Dim &Stage::find_dim(const std::string &var, const char *directive) const {
    auto &dims = def().schedule.dims;
    for (auto &d : dims) {
        if (d.var == var) return d;
    }
    bool was_split = false;
    for (auto &s : def().schedule.splits) was_split |= s.old_var == var;
    user_error << describe() << ": " << directive << "(" << var << "): there is no loop '" << var
               << "'" << (was_split ? " any more (it was already split or fused away)" : "")
               << ". Its loops, outermost first, are: " << loop_names(def().schedule);
    return dims[0];
}

std::string Stage::fresh_loop_name(const std::string &base) const {
    auto used = [&](const std::string &n) {
        for (auto &d : def().schedule.dims) {
            if (d.var == n) return true;
        }
        for (auto &s : def().schedule.splits) {
            if (s.old_var == n || s.outer == n || s.inner == n) return true;
        }
        return false;
    };
    if (!used(base)) return base;
    for (int i = 2;; i++) {
        std::string n = base + std::to_string(i);
        if (!used(n)) return n;
    }
}

// Tails that evaluate a point twice change what an update computes (f(x) += 1 applied twice):
// ShiftInwards in any update, RoundUp of a reduction's loop (past the RDom) or of a loop an
// earlier split made (its extra iterations are points the next outer iteration covers too).
// RoundUp of a whole pure dimension is fine: the realization grows to hold the extra points.
namespace {
// Whether the order of an update's RVar loops cannot change its result: it is an associative
// and commutative reduction, or no two points of its RDom touch one point of the Func with one
// of them writing it (f(r.x, r.y) = f(r.x, r.y) * 2 + 1), so its iterations are independent.
// Why an update's RVars keep their order, for messages.
std::string rvar_order_reason(const std::string &f) {
    return "it is not an associative and commutative reduction, such as " + f + "(...) = " + f +
           "(...) op e with op one of +, *, min, max, && and || (an argmin or argmax is not commutative: "
           "which of equal values wins depends on the order), nor does every iteration apply one map to the point "
           "it updates (" + f + "(b) = " + f + "(b) * 3 + 1), and different points of its RDom may touch one "
           "point of " + f;
}

bool rvar_order_is_free(const FunctionContents &f, const Definition &def) {
    if (update_is_associative_and_commutative(f, def)) return true;
    if (!def.rdom) return false;
    for (auto &rv : def.rdom->vars) {
        if (!rvar_loop_is_race_free(f, def, rv.name)) return false;
    }
    return true;
}
}  // namespace

std::set<std::string> Stage::loops_inside_earlier_splits() const {
    std::set<std::string> inner_loops;
    for (const Split &s : def().schedule.splits) {
        if (s.kind == Split::SplitVar) {
            if (inner_loops.count(s.old_var)) inner_loops.insert(s.outer);
            inner_loops.insert(s.inner);
        } else if (s.kind == Split::RenameVar) {
            if (inner_loops.count(s.old_var)) inner_loops.insert(s.outer);
        } else if (s.kind == Split::FuseVars && (inner_loops.count(s.inner) || inner_loops.count(s.outer))) {
            inner_loops.insert(s.old_var);
        }
    }
    return inner_loops;
}

std::set<std::string> loops_from_shifted_outer_loops(const std::vector<Split> &splits, bool pure_definition) {
    std::set<std::string> from;
    for (const Split &s : splits) {
        bool shifts = s.tail == TailStrategy::ShiftInwards || (s.tail == TailStrategy::Auto && pure_definition);
        if (s.kind == Split::SplitVar && shifts) {
            from.insert(s.outer);
        } else if (s.kind == Split::SplitVar && from.count(s.old_var)) {
            from.insert(s.inner);
            from.insert(s.outer);
        } else if (s.kind == Split::RenameVar && from.count(s.old_var)) {
            from.insert(s.outer);
        }
    }
    return from;
}

void Stage::check_update_tail(const std::string &var, TailStrategy tail, bool is_rvar) const {
    if (index_ == 0 || (tail != TailStrategy::ShiftInwards && tail != TailStrategy::RoundUp)) return;
    const std::string what = describe() + ": split(" + var + ") with TailStrategy::";
    user_assert(tail != TailStrategy::ShiftInwards)
        << what << "ShiftInwards would compute the points the shifted last tile shares with the one before it "
        << "twice, applying the update to them twice. Use TailStrategy::GuardWithIf (the default for updates)";
    user_assert(!is_rvar) << what << "RoundUp would run the reduction past the end of its RDom. Use "
                          << "TailStrategy::GuardWithIf (the default for updates)";
    user_assert(!loops_inside_earlier_splits().count(var))
        << what << "RoundUp: " << var << " is the inner loop of an earlier split, and its rounded-up iterations "
        << "would apply the update again to points that the next iteration of the loop outside it covers. "
        << "Use TailStrategy::GuardWithIf";
}

Stage &Stage::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                    Expr factor, TailStrategy tail) {
    return split_as("split", old, outer, inner, std::move(factor), tail);
}

Stage &Stage::split_as(const char *directive, const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                       Expr factor, TailStrategy tail) {
    f_->changed();
    Dim &d = find_dim(old.name(), directive);
    user_assert(factor.defined() && !factor.type().is_float())
        << describe() << ": " << directive << "(" << old.name() << ") needs an integer factor";
    if (tail == TailStrategy::PredicateLoads || tail == TailStrategy::PredicateStores) {
        user_assert(!d.is_rvar) << describe() << ": " << directive << "(" << old.name() << ") of an RVar with TailStrategy::"
                                << (tail == TailStrategy::PredicateLoads ? "PredicateLoads" : "PredicateStores")
                                << ", which would change the meaning of the reduction (as in Halide); use "
                                << "GuardWithIf or Predicate";
    }
    // As in Halide: a PredicateLoads or PredicateStores split must stay the innermost split of its
    // loop, and PredicateLoads cannot split a loop that an earlier split made inner.
    for (const Split &s : def().schedule.splits) {
        bool predicated = s.requested_tail == TailStrategy::PredicateLoads || s.requested_tail == TailStrategy::PredicateStores;
        user_assert(!(predicated && s.kind == Split::SplitVar && s.inner == old.name()))
            << describe() << ": " << directive << "(" << old.name() << ") splits the inner loop of split(" << s.old_var << ", "
            << s.outer << ", " << s.inner << ") with TailStrategy::"
            << (s.requested_tail == TailStrategy::PredicateLoads ? "PredicateLoads" : "PredicateStores")
            << ", which must stay the innermost split (as in Halide): use GuardWithIf for split(" << s.old_var
            << ", ...) and the predicated tail only on the last split";
    }
    user_assert(tail != TailStrategy::PredicateLoads || !loops_inside_earlier_splits().count(old.name()))
        << describe() << ": " << directive << "(" << old.name() << ") with TailStrategy::PredicateLoads: " << old.name()
        << " stems from the inner loop of an earlier split, which PredicateLoads may not split (as in Halide). "
        << "Use PredicateStores or GuardWithIf";
    const TailStrategy requested_tail = tail;
    if (tail == TailStrategy::Predicate || tail == TailStrategy::PredicateLoads || tail == TailStrategy::PredicateStores) {
        tail = TailStrategy::GuardWithIf;  // the same values (see TailStrategy)
    }
    if (auto c = as_const_int(factor)) {
        user_assert(*c > 0) << describe() << ": " << directive << "(" << old.name() << ") by " << *c
                            << ": the factor must be a positive integer";
    }
    // A factor known only at run time may use scalar Params and buffer fields (an input's or
    // the output's size), nothing that varies in the loops.
    struct FactorUses : IRVisitor {
        std::string bad;
        void visit(const Call *op) override {
            if ((op->call_type == Call::Halo || op->call_type == Call::Image) && bad.empty()) {
                bad = "a read of '" + op->name + "'";
            }
            IRVisitor::visit(op);
        }
    } uses;
    factor.accept(&uses);
    if (std::string v = first_loop_variable(factor); !v.empty() && uses.bad.empty()) uses.bad = "the loop variable '" + v + "'";
    user_assert(uses.bad.empty())
        << describe() << ": " << directive << "(" << old.name() << ") by " << factor << ", which uses " << uses.bad
        << ". A split factor must be a constant or an expression of scalar Params (or input sizes)";
    factor = cast(Int(32), factor);
    auto &dims = def().schedule.dims;
    // A new name may be the split loop's own (split(x, x, xi)), never another existing loop's.
    for (auto &o : dims) {
        if (&o == &d) continue;
        for (const std::string *n : {&outer.name(), &inner.name()}) {
            user_assert(o.var != *n || *n == old.name())
                << describe() << ": " << directive << "(" << old.name() << ", " << outer.name() << ", " << inner.name()
                << ") reuses the name of the existing loop '" << o.var << "'; pick new names";
        }
    }
    user_assert(outer.name() != inner.name()) << describe() << ": " << directive << "(" << old.name()
                                          << ") needs different names for the outer and inner loops";
    bool is_rvar = d.is_rvar;
    // Halide's Auto in a pure definition: ShiftInwards, except for a loop that stems from the
    // outer loop of a ShiftInwards split (f.vectorize(x, 8).unroll(x, 4)): that split's
    // shift already keeps every point inside, so the new one rounds up (shifting again would
    // only ask more of the output and inputs at small sizes).
    if (tail == TailStrategy::Auto && index_ == 0 && !is_rvar &&
        loops_from_shifted_outer_loops(def().schedule.splits, true).count(old.name())) {
        tail = TailStrategy::RoundUp;
    }
    check_update_tail(old.name(), tail, is_rvar);
    Split s;
    s.kind = Split::SplitVar;
    s.old_var = old.name();
    s.outer = outer.name();
    s.inner = inner.name();
    s.factor = factor;
    s.tail = tail;
    s.requested_tail = requested_tail;
    s.directive = directive;
    def().schedule.splits.push_back(s);
    size_t pos = &d - dims.data();
    ForType ft = d.for_type;
    Partition policy = d.partition;  // (both loops keep it, as in Halide)
    dims[pos] = Dim{inner.name(), ft, is_rvar, policy};
    dims.insert(dims.begin() + pos + 1, Dim{outer.name(), ForType::Serial, is_rvar, policy});
    return *this;
}

Stage &Stage::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    f_->changed();
    Dim &di = find_dim(inner.name(), "fuse");
    Dim &dout = find_dim(outer.name(), "fuse");
    auto &dims = def().schedule.dims;
    size_t pi = &di - dims.data(), po = &dout - dims.data();
    user_assert(pi != po) << describe() << ": fuse(" << inner.name() << ", " << outer.name() << ", " << fused.name()
                          << ") fuses a loop with itself; name two different loops, the inner one first";
    // As in Halide the loops need not be adjacent, nor in this order: the fused loop takes the
    // inner loop's place, the outer one moving next to it. Moving an RVar past another changes
    // the order of a reduction's iterations, allowed where reorder would allow it.
    std::vector<std::string> rv_before, rv_after;
    for (size_t i = 0; i < dims.size(); i++) {
        if (dims[i].is_rvar) rv_before.push_back(dims[i].var);
        if (i != po && dims[i].is_rvar) rv_after.push_back(dims[i].var);
        if (i == pi && dout.is_rvar) rv_after.push_back(dout.var);
    }
    user_assert(rv_before == rv_after || rvar_order_is_free(*f_, def()))
        << describe() << ": fuse(" << inner.name() << ", " << outer.name() << ", " << fused.name()
        << ") would change the order of its RVars (the fused loop runs " << outer.name() << " just outside "
        << inner.name() << "), which can change the result of the reduction (" << rvar_order_reason(f_->name)
        << "). Fuse loops in the order they run, or reorder the pure Vars around the RVars first";
    // As in Halide the fused loop keeps the inner loop's kind (vectorize(x).fuse(x, y, xy) is a
    // vectorized xy), checked again as a directive on the fused loop (over an RVar it must be
    // race free). The outer loop's kind cannot carry over: refuse rather than drop it.
    ForType kind = di.for_type;
    const char *outer_kind = directive_name(dout.for_type);
    user_assert(dout.for_type == ForType::Serial || dout.for_type == kind)
        << describe() << ": fuse(" << inner.name() << ", " << outer.name() << ", " << fused.name() << "): the outer loop "
        << outer.name() << " is marked " << outer_kind << ", which the fused loop cannot keep; "
        << "fuse first, then apply " << outer_kind << "(" << fused.name() << ")";
    Split s;
    s.kind = Split::FuseVars;
    s.old_var = fused.name();
    s.inner = inner.name();
    s.outer = outer.name();
    def().schedule.splits.push_back(s);
    bool is_rvar = di.is_rvar || dout.is_rvar;
    dims[pi] = Dim{fused.name(), ForType::Serial, is_rvar};
    dims.erase(dims.begin() + po);
    if (kind != ForType::Serial) set_for_type(fused, kind, directive_name(kind));
    return *this;
}

Stage &Stage::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) {
    f_->changed();
    Dim &d = find_dim(old_name.name(), "rename");
    if (new_name.name() == old_name.name()) return *this;
    for (const Dim &o : def().schedule.dims) {
        user_assert(o.var != new_name.name()) << describe() << ": rename(" << old_name.name() << ", " << new_name.name()
                                            << ") gives the loop the name of the existing loop '" << o.var
                                            << "'; pick a new name";
    }
    // (The loop stays a Var's or an RVar's loop whatever the new name is, as with split.)
    Split s;
    s.kind = Split::RenameVar;
    s.old_var = old_name.name();
    s.outer = new_name.name();
    s.directive = "rename";
    def().schedule.splits.push_back(s);
    d.var = new_name.name();
    return *this;
}

Stage &Stage::reorder(const std::vector<VarOrRVar> &vars) {
    f_->changed();
    auto &dims = def().schedule.dims;
    std::vector<size_t> positions;
    for (auto &v : vars) {
        Dim &d = find_dim(v.name(), "reorder");
        size_t p = &d - dims.data();
        user_assert(std::find(positions.begin(), positions.end(), p) == positions.end())
            << describe() << ": reorder names loop '" << v.name() << "' twice";
        positions.push_back(p);
    }
    std::vector<Dim> chosen;
    for (size_t p : positions) chosen.push_back(dims[p]);
    std::vector<size_t> sorted = positions;
    std::sort(sorted.begin(), sorted.end());
    // RVars keep their relative order, unless the update is associative and commutative (as
    // in Halide): reordering them could change the result of a reduction whose iterations
    // depend on each other. (The order of all the RVar loops, named or not: a named RVar may
    // move past one the directive does not name.)
    std::vector<Dim> reordered = dims;
    for (size_t i = 0; i < sorted.size(); i++) reordered[sorted[i]] = chosen[i];
    std::vector<std::string> rv_before, rv_after;
    for (auto &d : dims)
        if (d.is_rvar) rv_before.push_back(d.var);
    for (auto &d : reordered)
        if (d.is_rvar) rv_after.push_back(d.var);
    user_assert(rv_before == rv_after || rvar_order_is_free(*f_, def()))
        << describe() << ": reorder would change the order of its RVars ("
        << (rv_before.empty() ? "" : rv_before[0]) << " ...), which can change the result of the "
        << "reduction (" << rvar_order_reason(f_->name) << "). Keep RVars in their order (innermost first "
        << "as in the RDom); reorder pure Vars around them instead";
    dims = reordered;
    return *this;
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                   const VarOrRVar &xi, const VarOrRVar &yi, Expr xfactor, Expr yfactor,
                   TailStrategy tail) {
    split_as("tile", x, xo, xi, xfactor, tail);
    split_as("tile", y, yo, yi, yfactor, tail);
    return reorder({xi, yi, xo, yo});
}

Stage &Stage::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                   Expr xfactor, Expr yfactor, TailStrategy tail) {
    return tile(x, y, x, y, xi, yi, xfactor, yfactor, tail);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &outers,
                   const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors, TailStrategy tail) {
    user_assert(!vars.empty() && outers.size() == vars.size() && inners.size() == vars.size() &&
                factors.size() == vars.size())
        << describe() << ": tile(vars, outers, inners, factors) needs one outer, one inner and one factor per "
        << "Var; got " << vars.size() << " Vars, " << outers.size() << " outers, " << inners.size()
        << " inners and " << factors.size() << " factors";
    for (size_t i = 0; i < vars.size(); i++) split_as("tile", vars[i], outers[i], inners[i], factors[i], tail);
    std::vector<VarOrRVar> order(inners);  // innermost first: the inner loops, then the outer ones
    order.insert(order.end(), outers.begin(), outers.end());
    return reorder(order);
}

Stage &Stage::tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &inners,
                   const std::vector<Expr> &factors, TailStrategy tail) {
    return tile(vars, vars, inners, factors, tail);
}

void Stage::set_for_type(const VarOrRVar &v, ForType t, const char *directive) {
    f_->changed();
    Dim &d = find_dim(v.name(), directive);
    user_assert(!d.is_rvar || t == ForType::Serial || t == ForType::Unrolled || def().schedule.allow_race_conditions ||
                def().schedule.atomic || rvar_loop_is_race_free(*f_, def(), v.name()))
        << describe() << ": " << directive << "(" << v.name() << ") over an RVar: the iterations of "
        << "a reduction may touch the same points of " << f_->name << ", so they cannot run in "
        << directive << ". It is allowed where no iteration writes a point another one writes or reads: "
        << "the RVar (or an affine function of it, such as 2 * r + 1) an argument of the left side, and "
        << f_->name << " read only at that argument or at points no iteration writes "
        << "(as " << f_->name << "(r) = " << f_->name << "(r) * 2, or " << f_->name << "(2 * r + 1) = "
        << f_->name << "(2 * r)). Otherwise apply " << directive
        << " to a pure Var of the update, rfactor the reduction, or call atomic() on the stage first (its "
        << "stores then become atomic updates; or, if the races are intended, allow_race_conditions())";
    d.for_type = t;
}

Stage &Stage::allow_race_conditions() {
    f_->changed();
    def().schedule.allow_race_conditions = true;
    return *this;
}

Stage &Stage::atomic(bool override_associativity_test) {
    // (A Tuple's values are updated under a lock of the point, one value with a compare-and-swap.
    // The order of an update's iterations cannot matter where it has no RDom, each point
    // updated once, or where no two of its RDom's points touch one point of the Func.)
    user_assert(index_ == 0 || override_associativity_test || !def().rdom || rvar_order_is_free(*f_, def()))
        << describe() << ": atomic() needs an associative and commutative update, whose result does not depend "
        << "on the order of its iterations: " << f_->name << "(...) = " << f_->name << "(...) op e, with op one "
        << "of +, *, min, max, && and ||, and e not reading " << f_->name
        << (def().values.size() > 1 ? " (for a Tuple: each value so, reading only its own value of " + f_->name + ")"
                                    : std::string())
        << ", or one whose every iteration applies one map to the point it updates (" << f_->name << "(b) = "
        << f_->name << "(b) * 3 + 1) (this one is " << describe_values(def().values) << "). If the order does not matter for another reason, call "
        << "atomic(true) to say so";
    f_->changed();
    def().schedule.atomic = true;
    return *this;
}

Stage &Stage::vectorize(const VarOrRVar &v) {
    set_for_type(v, ForType::Vectorized, "vectorize");
    return *this;
}
Stage &Stage::vectorize(const VarOrRVar &v, int width, TailStrategy tail) {
    user_assert(width > 0 && width <= 1024)
        << describe() << ": vectorize(" << v.name() << ", " << width << "): the vector width must be "
        << "a positive integer, at most 1024";
    find_dim(v.name(), "vectorize");
    // As in Halide, the outer loop keeps the name (compute_at(f, x) after vectorize(x, 8)
    // names it); the inner, vectorized one gets a new name: x_vi (x_vi2, ... if taken).
    std::string inner = fresh_loop_name(v.name() + "_vi");
    split_as("vectorize", v, v, VarOrRVar(Var(inner)), width, tail);
    if (v.is_rvar) find_dim(inner, "vectorize").is_rvar = true;
    return vectorize(VarOrRVar(Var(inner)));
}
Stage &Stage::unroll(const VarOrRVar &v) {
    set_for_type(v, ForType::Unrolled, "unroll");
    return *this;
}
Stage &Stage::unroll(const VarOrRVar &v, int factor, TailStrategy tail) {
    user_assert(factor > 0 && factor <= max_unroll_copies)
        << describe() << ": unroll(" << v.name() << ", " << factor << "): the factor must be a "
        << "positive integer, at most " << max_unroll_copies << " (each unrolled copy is code; use vectorize or a smaller factor)";
    // The outer loop keeps the name, as for vectorize.
    std::string inner = fresh_loop_name(v.name() + "_ui");
    split_as("unroll", v, v, VarOrRVar(Var(inner)), factor, tail);
    if (v.is_rvar) find_dim(inner, "unroll").is_rvar = true;
    return unroll(VarOrRVar(Var(inner)));
}
Stage &Stage::parallel(const VarOrRVar &v) {
    set_for_type(v, ForType::Parallel, "parallel");
    return *this;
}
Stage &Stage::parallel(const VarOrRVar &v, Expr task_size, TailStrategy tail) {
    // As in Halide: the outer, parallel loop keeps the name; each task runs the inner one.
    std::string inner = fresh_loop_name(v.name() + "_pi");
    split_as("parallel", v, v, VarOrRVar(Var(inner)), task_size, tail);
    if (v.is_rvar) find_dim(inner, "parallel").is_rvar = true;
    return parallel(v);
}
Stage &Stage::serial(const VarOrRVar &v) {
    set_for_type(v, ForType::Serial, "serial");
    return *this;
}

// ---------------------------------------------------------------- Func forwards to stage 0

#define HALO_FORWARD(...)                             \
    user_assert(defined()) << "Func '" << name()      \
        << "' is scheduled before it has a definition; define it first"; \
    Stage(f_, 0).__VA_ARGS__;                         \
    return *this;

Func &Func::split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, Expr factor,
                  TailStrategy tail) { HALO_FORWARD(split(old, outer, inner, factor, tail)) }
Func &Func::fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused) {
    HALO_FORWARD(fuse(inner, outer, fused))
}
Func &Func::rename(const VarOrRVar &old_name, const VarOrRVar &new_name) { HALO_FORWARD(rename(old_name, new_name)) }
Func &Func::reorder(const std::vector<VarOrRVar> &vars) { HALO_FORWARD(reorder(vars)) }
Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                 const VarOrRVar &xi, const VarOrRVar &yi, Expr xfactor, Expr yfactor,
                 TailStrategy tail) { HALO_FORWARD(tile(x, y, xo, yo, xi, yi, xfactor, yfactor, tail)) }
Func &Func::tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi, Expr xfactor,
                 Expr yfactor, TailStrategy tail) { HALO_FORWARD(tile(x, y, xi, yi, xfactor, yfactor, tail)) }
Func &Func::tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &outers,
                 const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors, TailStrategy tail) {
    HALO_FORWARD(tile(vars, outers, inners, factors, tail))
}
Func &Func::tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &inners,
                 const std::vector<Expr> &factors, TailStrategy tail) {
    HALO_FORWARD(tile(vars, inners, factors, tail))
}
Func &Func::vectorize(const VarOrRVar &v) { HALO_FORWARD(vectorize(v)) }
Func &Func::vectorize(const VarOrRVar &v, int width, TailStrategy tail) {
    HALO_FORWARD(vectorize(v, width, tail))
}
Func &Func::unroll(const VarOrRVar &v) { HALO_FORWARD(unroll(v)) }
Func &Func::unroll(const VarOrRVar &v, int factor, TailStrategy tail) { HALO_FORWARD(unroll(v, factor, tail)) }
Func &Func::parallel(const VarOrRVar &v) { HALO_FORWARD(parallel(v)) }
Func &Func::parallel(const VarOrRVar &v, Expr task_size, TailStrategy tail) {
    HALO_FORWARD(parallel(v, task_size, tail))
}
Func &Func::serial(const VarOrRVar &v) { HALO_FORWARD(serial(v)) }
Func &Func::atomic(bool override_associativity_test) { HALO_FORWARD(atomic(override_associativity_test)) }
#undef HALO_FORWARD

Stage Func::update(int i) {
    user_assert(i >= 0 && i < num_update_definitions())
        << "Func '" << name() << "' has " << num_update_definitions()
        << " update definitions; there is no update(" << i << ")";
    return Stage(f_, i + 1);
}

Stage Func::specialize(const Expr &condition) {
    user_assert(defined()) << "Func '" << name() << "' is specialized before it has a definition; define it first";
    return Stage(f_, 0).specialize(condition);
}

void Func::specialize_fail(const std::string &message) {
    user_assert(defined()) << "Func '" << name() << "' is specialized before it has a definition; define it first";
    Stage(f_, 0).specialize_fail(message);
}

Func &Func::bound(const Var &var, Expr min, Expr extent) {
    f_->changed();
    user_assert(std::find(f_->args.begin(), f_->args.end(), var.name()) != f_->args.end())
        << "Func '" << name() << "': bound(" << var.name() << ") names a Var that is not one of its "
        << "pure arguments";
    user_assert(min.defined() && extent.defined()) << "Func '" << name() << "': bound(" << var.name()
                                                   << ") with an undefined min or extent";
    for (const Expr *e : {&min, &extent}) {
        std::string loop_var = first_loop_variable(*e);
        user_assert(loop_var.empty())
            << "Func '" << name() << "': bound(" << var.name() << ", " << min << ", " << extent << ") uses '"
            << loop_var << "', a Var or RVar. The bounds of a Func are fixed before its loops run: use "
            << "constants, Params and input sizes (such as input.width())";
    }
    Bound &b = f_->schedule.bound_of(var.name());
    b.min = cast(Int(32), min);
    b.extent = cast(Int(32), extent);
    return *this;
}

// The checks bound_extent, align_bounds and align_extent share: var is a pure argument, and
// every value given is defined, an integer that fits in 32 bits, and free of loop variables.
void Func::check_bound_directive(const std::string &directive, const Var &var, const std::vector<Expr> &values) {
    f_->changed();
    user_assert(std::find(f_->args.begin(), f_->args.end(), var.name()) != f_->args.end())
        << "Func '" << name() << "': " << directive << "(" << var.name() << ", ...) names a Var that is not one of "
        << "its pure arguments";
    for (const Expr &e : values) {
        user_assert(e.defined()) << "Func '" << name() << "': " << directive << "(" << var.name()
                                 << ", ...) is given an undefined Expr";
        user_assert((e.type().is_int() && e.type().bits() <= 32) || (e.type().is_uint() && e.type().bits() < 32))
            << "Func '" << name() << "': " << directive << "(" << var.name() << ", " << e << ") needs an integer "
            << "that fits in int32; it is of type " << e.type();
        std::string loop_var = first_loop_variable(e);
        user_assert(loop_var.empty())
            << "Func '" << name() << "': " << directive << "(" << var.name() << ", ...) uses '" << loop_var
            << "', a Var or RVar. The bounds of a Func are fixed before its loops run: use constants, Params and "
            << "input sizes (such as input.width())";
    }
}

Func &Func::bound_extent(const Var &var, Expr extent) {
    check_bound_directive("bound_extent", var, {extent});
    f_->schedule.bound_of(var.name()).extent = cast(Int(32), extent);
    return *this;
}

// A modulus known at compile time must be positive here; one from a Param is checked at run
// time (ParameterChecks).
static void check_modulus(const Func &f, const char *directive, const Var &var, const Expr &modulus) {
    Expr m = simplify(cast(Int(32), modulus));
    auto i = m.as<IntImm>();
    user_assert(!i || i->value > 0) << "Func '" << f.name() << "': " << directive << "(" << var.name() << ", "
                                    << modulus << ") needs a positive modulus";
}

Func &Func::align_bounds(const Var &var, Expr modulus, Expr remainder) {
    check_bound_directive("align_bounds", var, {modulus, remainder});
    check_modulus(*this, "align_bounds", var, modulus);
    Expr m = cast(Int(32), modulus);
    Bound &b = f_->schedule.bound_of(var.name());
    b.modulus = m;
    b.remainder = cast(Int(32), remainder) % m;
    return *this;
}

Func &Func::align_extent(const Var &var, Expr modulus) {
    check_bound_directive("align_extent", var, {modulus});
    check_modulus(*this, "align_extent", var, modulus);
    // As in Halide, a remainder set by align_bounds stays.
    f_->schedule.bound_of(var.name()).modulus = cast(Int(32), modulus);
    return *this;
}

Func &Func::set_estimate(const Var &var, Expr min, Expr extent) {
    auto it = std::find(f_->args.begin(), f_->args.end(), var.name());
    user_assert(it != f_->args.end()) << "Func '" << name() << "': set_estimate(" << var.name()
                                      << ") names a Var that is not one of its pure arguments";
    auto constant = [&](const Expr &e, const char *what) {
        Expr v = simplify(cast(Int(32), e));
        auto i = v.as<IntImm>();
        user_assert(i) << "Func '" << name() << "': the estimated " << what << " of " << var.name() << " must be a "
                       << "constant; it is " << e;
        return int(i->value);
    };
    int lo = constant(min, "min"), n = constant(extent, "extent");
    user_assert(n >= 1) << "Func '" << name() << "': the estimated extent of " << var.name() << " must be positive; it is "
                        << n;
    f_->estimates.resize(f_->args.size(), {0, 0});
    f_->estimates[size_t(it - f_->args.begin())] = {lo, n};
    return *this;
}

Func &Func::set_estimates(const std::vector<std::pair<Expr, Expr>> &region) {
    user_assert(int(region.size()) == dimensions())
        << "Func '" << name() << "' has " << dimensions() << " dimensions but set_estimates was given " << region.size();
    for (size_t d = 0; d < region.size(); d++) set_estimate(Var(f_->args[d]), region[d].first, region[d].second);
    return *this;
}

Func &Func::reorder_storage(const std::vector<Var> &dims) {
    f_->changed();
    std::vector<std::string> order;
    for (auto &v : dims) {
        user_assert(std::find(f_->args.begin(), f_->args.end(), v.name()) != f_->args.end())
            << "Func '" << name() << "': reorder_storage names '" << v.name()
            << "', which is not one of its pure arguments";
        user_assert(std::find(order.begin(), order.end(), v.name()) == order.end())
            << "Func '" << name() << "': reorder_storage names '" << v.name() << "' twice";
        order.push_back(v.name());
    }
    // Unnamed dimensions keep their relative order, outside the named ones.
    for (auto &a : f_->args) {
        if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
    }
    f_->schedule.storage_order = order;
    return *this;
}

Func &Func::store_in(MemoryType memory_type) {
    f_->changed();
    f_->schedule.memory_type = memory_type;
    return *this;
}

namespace {

// A storage directive (fold_storage, bound_storage) names one of the Func's dimensions.
void check_storage_dimension(const FunctionContents &f, const Var &dim, const char *directive) {
    std::string dims;
    for (auto &a : f.args) dims += (dims.empty() ? "" : ", ") + a;
    user_assert(std::find(f.args.begin(), f.args.end(), dim.name()) != f.args.end())
        << "Func '" << f.name << "': " << directive << "(" << dim.name() << ", ...) names no dimension of it (" << dims
        << ")";
}

}  // namespace

Func &Func::fold_storage(const Var &dim, Expr extent, bool /*fold_forward*/) {
    f_->changed();
    check_storage_dimension(*f_, dim, "fold_storage");
    const int64_t *k = as_const_int(extent);
    user_assert(k && *k > 0) << "Func '" << name() << "': fold_storage(" << dim.name() << ", " << extent
                             << ") needs a positive constant extent";
    for (auto &f : f_->schedule.folds) {
        user_assert(f.var != dim.name()) << "Func '" << name() << "': fold_storage(" << dim.name()
                                         << ") given twice";
    }
    f_->schedule.folds.push_back({dim.name(), cast(Int(32), extent), true});
    return *this;
}

Func &Func::bound_storage(const Var &dim, Expr extent) {
    f_->changed();
    check_storage_dimension(*f_, dim, "bound_storage");
    user_assert(extent.defined()) << "Func '" << name() << "': bound_storage(" << dim.name()
                                  << ", ...) of an undefined extent";
    user_assert(extent.type().is_int() || extent.type().is_uint())
        << "Func '" << name() << "': bound_storage(" << dim.name() << ", " << extent
        << ") needs an integer extent, not one of type " << extent.type();
    internal::FreeNames names;
    extent.accept(&names);
    user_assert(names.vars.empty() && names.rvars.empty() && names.func_calls.empty())
        << "Func '" << name() << "': bound_storage(" << dim.name() << ", " << extent << ") depends on "
        << (!names.vars.empty()    ? "Var '" + names.vars.front() + "'"
            : !names.rvars.empty() ? "RVar '" + names.rvars.front()->name + "'"
                                   : "Func '" + names.func_calls.front()->name + "'")
        << "; the extent may depend only on constants, Params and input buffers' sizes";
    const int64_t *k = as_const_int(extent);
    user_assert(!k || *k > 0) << "Func '" << name() << "': bound_storage(" << dim.name() << ", " << extent
                              << ") needs a positive extent";
    for (auto &[var, e] : f_->schedule.storage_bounds) {
        user_assert(var != dim.name()) << "Func '" << name() << "': bound_storage(" << dim.name() << ") given twice";
    }
    f_->schedule.storage_bounds.push_back({dim.name(), cast(Int(32), extent)});
    return *this;
}

Func &Func::align_storage(int elements) {
    f_->changed();
    user_assert(elements > 0) << "Func '" << name() << "': align_storage(" << elements
                              << ") needs a positive number of elements";
    f_->schedule.storage_alignment.push_back({"", elements});
    return *this;
}

Func &Func::align_storage(const Var &dim, Expr alignment) {
    f_->changed();
    user_assert(std::find(f_->args.begin(), f_->args.end(), dim.name()) != f_->args.end())
        << "Func '" << name() << "': align_storage(" << dim.name() << ", ...) names '" << dim.name()
        << "', which is not one of its pure arguments";
    Expr a = alignment.defined() ? simplify(alignment) : alignment;
    const int64_t *k = a.defined() ? as_const_int(a) : nullptr;
    user_assert(k && *k > 0) << "Func '" << name() << "': align_storage(" << dim.name() << ", " << alignment
                             << ") needs a positive constant alignment";
    f_->schedule.storage_alignment.push_back({dim.name(), *k});
    return *this;
}

Func &Func::compute_root() {
    f_->changed();
    f_->schedule.compute_level = LoopLevel::root();
    f_->schedule.compute_level_given = true;
    if (!f_->schedule.store_level_set) f_->schedule.store_level = LoopLevel::root();
    return *this;
}

Func &Func::compute_inline() {
    f_->changed();
    f_->schedule.compute_level = LoopLevel::inlined();
    f_->schedule.compute_level_given = true;
    f_->schedule.store_level = LoopLevel::inlined();
    f_->schedule.store_level_set = false;
    return *this;
}

LoopLevel::LoopLevel(const Func &consumer, const VarOrRVar &v, int stage_index) : LoopLevel() {
    user_assert(stage_index >= -1)
        << "LoopLevel(" << consumer.name() << ", " << v.name() << ", " << stage_index
        << "): the stage index is 0 for the pure definition, k for update k - 1, or -1 for the stages "
        << "that use the producer";
    kind = At;
    func_name = consumer.name();
    var_name = v.name();
    var_is_rvar = v.is_rvar;
    stage = stage_index;
    this->consumer = consumer.function();
}

LoopLevel LoopLevel::at(const std::string &name, const std::string &v, int stage_index) {
    LoopLevel l;
    l.kind = At;
    l.func_name = name;
    l.var_name = v;
    l.stage = stage_index;
    return l;
}

namespace {

// The level a LoopLevel is now, which must be inside a Func's loops for `accessor` to answer.
const LoopLevel &level_inside_loops(const LoopLevel &level, const char *accessor) {
    const LoopLevel &l = level.current();
    user_assert(l.kind == LoopLevel::At) << "LoopLevel " << l.to_string() << ": " << accessor
                                         << " of a level inside a Func's loops; this level has none "
                                         << "(test is_root() and is_inlined() first)";
    return l;
}

}  // namespace

std::string LoopLevel::func() const { return level_inside_loops(*this, "func() names the consumer").func_name; }

VarOrRVar LoopLevel::var() const {
    const LoopLevel &l = level_inside_loops(*this, "var() names the loop");
    return VarOrRVar(l.var_name, l.var_is_rvar);
}

void LoopLevel::set(const LoopLevel &other) {
    static std::atomic<uint64_t> stamps{0};
    LoopLevel value = other.unshared();
    if (!cell_) cell_ = std::make_shared<Cell>();
    cell_->level = std::make_shared<const LoopLevel>(value);
    cell_->stamp = ++stamps;
}

namespace {

// "compute_at(g, x)" or "compute_at(LoopLevel::root())": how a level was given, for messages.
std::string placement_directive(const char *directive, const LoopLevel &l) {
    if (l.kind == LoopLevel::At) return std::string(directive) + "(" + l.func_name + ", " + l.var_name + ")";
    return std::string(directive) + "(LoopLevel::" + (l.kind == LoopLevel::Root ? "root" : "inlined") + "())";
}

bool level_is_at(const LoopLevel &l, const FunctionContents &f) {
    if (l.kind != LoopLevel::At) return false;
    // (By identity where the level knows its Func: another Func may share this one's name.)
    return l.consumer.expired() ? l.func_name == f.name : l.consumer.lock().get() == &f;
}

// A LoopLevel() never set() means nothing yet: compiling a Func placed at one is the user's
// mistake, named with the directive that took the level.
void refuse_undefined_level(const LoopLevel &l, const FunctionContents &f, const char *verb, const char *directive,
                            const char *what_inlined_means) {
    user_assert(l.kind != LoopLevel::Undefined)
        << "Func '" << f.name << "' is " << verb << " at a LoopLevel that is still undefined: a LoopLevel() given "
        << "to " << directive << " must be set() to a level before the pipeline is compiled (LoopLevel::inlined() "
        << what_inlined_means << ")";
}

}  // namespace

void lock_loop_levels(FunctionContents &f, const FunctionContents &original) {
    FuncSchedule &s = f.schedule;
    LoopLevel compute = s.compute_level.unshared();
    refuse_undefined_level(compute, f, "computed", "compute_at", "is the level that inlines");
    user_assert(!level_is_at(compute, original))
        << "Func '" << f.name << "': " << placement_directive("compute_at", compute)
        << " places a Func inside its own loops; pick a consumer";
    LoopLevel store = s.store_level_set ? s.store_level.unshared() : compute;
    refuse_undefined_level(store, f, "stored", "store_at", "stores the Func where it is computed");
    user_assert(!level_is_at(store, original))
        << "Func '" << f.name << "': " << placement_directive("store_at", store)
        << " places a Func's storage inside its own loops; pick a consumer";
    if (store.kind == LoopLevel::Inlined) {  // Halide's default: stored where it is computed
        store = compute;
        s.store_level_set = false;
    }
    s.explicitly_inlined = s.compute_level_given && compute.kind == LoopLevel::Inlined;
    s.compute_level = compute;
    s.store_level = store;
}

Func &Func::compute_at(const Func &consumer, const VarOrRVar &var) { return compute_at(LoopLevel(consumer, var)); }

Func &Func::compute_at(const LoopLevel &level) {
    f_->changed();
    // The handle itself is kept (a later set() of it moves this Func): what it means is read
    // when the pipeline is compiled (lock_loop_levels). A level known now is checked now.
    user_assert(!level_is_at(level.current(), *f_))
        << "Func '" << name() << "': " << placement_directive("compute_at", level.current())
        << " places a Func inside its own loops; pick a consumer";
    f_->schedule.compute_level = level;
    f_->schedule.compute_level_given = true;
    if (level.is_inlined()) {
        f_->schedule.store_level = level;  // as compute_inline(): stored where it is computed
        f_->schedule.store_level_set = false;
    } else if (!f_->schedule.store_level_set) {
        f_->schedule.store_level = level;
    }
    return *this;
}

Func &Func::store_root() { return store_at(LoopLevel::root()); }

Func &Func::store_at(const Func &consumer, const VarOrRVar &var) { return store_at(LoopLevel(consumer, var)); }

Func &Func::store_at(const LoopLevel &level) {
    f_->changed();
    // Kept as given: a level that is inlined when compiled stores the Func where it is computed.
    f_->schedule.store_level = level;
    f_->schedule.store_level_set = true;
    return *this;
}

}  // namespace halo
