// Func: a pipeline stage defined over an infinite integer domain, and its schedule.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "Argument.h"
#include "Buffer.h"
#include "Dimension.h"
#include "Error.h"
#include "Function.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "ParamMap.h"
#include "Tuple.h"
#include "Var.h"
#include "codegen/Target.h"

namespace halo {

class Func;

// compile_to_lowered_stmt's formats (Halide's): the loop nest as text, or as an HTML page.
enum StmtOutputFormat { Text, HTML };

// A loop variable name in a schedule: a pure Var or an RVar.
struct VarOrRVar {
    VarOrRVar(const std::string &n, bool r) : var(n), rvar(n), is_rvar(r) {}
    VarOrRVar(const Var &v) : var(v), rvar(v.name()), is_rvar(false) {}
    VarOrRVar(const RVar &r) : var(r.name()), rvar(r), is_rvar(true) {}
    VarOrRVar(const RDom &r) : VarOrRVar(r[0]) {}
    const std::string &name() const { return is_rvar ? rvar.name() : var.name(); }
    // As Halide's: both members carry the name; the one that counts is the one is_rvar says.
    Var var;
    RVar rvar;
    bool is_rvar;
};

// One definition of a Func (pure or update), to schedule its loops.
class Stage {
public:
    Stage(std::shared_ptr<FunctionContents> f, int index, std::vector<int> specialization_path = {})
        : f_(std::move(f)), index_(index), path_(std::move(specialization_path)) {}

    Stage &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, Expr factor,
                 TailStrategy tail = TailStrategy::Auto);
    Stage &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    // Halide's rename: the loop old_name is called new_name from now on (its kind, place and
    // values unchanged); later directives, compute_at and the lowered loop nest use the new name.
    Stage &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    Stage &reorder(const std::vector<VarOrRVar> &vars);  // innermost first
    template <typename... Vs>
    Stage &reorder(const VarOrRVar &v0, const VarOrRVar &v1, Vs &&...rest) {
        return reorder(std::vector<VarOrRVar>{v0, v1, VarOrRVar(rest)...});
    }
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
                const VarOrRVar &xi, const VarOrRVar &yi, Expr xfactor, Expr yfactor,
                TailStrategy tail = TailStrategy::Auto);
    // As in Halide: the outer loops keep the names x and y.
    Stage &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
                Expr xfactor, Expr yfactor, TailStrategy tail = TailStrategy::Auto);
    // N dimensions: each of vars split by its factor into outers[i] and inners[i] (or keeping
    // its name for the outer loop), then the inner loops inside all the outer ones.
    Stage &tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &outers,
                const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
                TailStrategy tail = TailStrategy::Auto);
    Stage &tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &inners,
                const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);
    Stage &vectorize(const VarOrRVar &v);
    Stage &vectorize(const VarOrRVar &v, int width, TailStrategy tail = TailStrategy::Auto);
    Stage &unroll(const VarOrRVar &v);
    Stage &unroll(const VarOrRVar &v, int factor, TailStrategy tail = TailStrategy::Auto);
    Stage &parallel(const VarOrRVar &v);
    Stage &parallel(const VarOrRVar &v, Expr task_size, TailStrategy tail = TailStrategy::Auto);
    Stage &serial(const VarOrRVar &v);
    // Lets the parallel() and vectorize() directives that follow apply to RVars whose
    // iterations Halo cannot prove independent (Halide's allow_race_conditions): the user
    // answers for the result, which where iterations do touch one point depends on timing.
    Stage &allow_race_conditions();
    // Halide's atomic(): the stage's stores become atomic read-modify-writes, so that its RVar
    // loops may then be parallel() (a histogram over a parallel loop of the image's rows). The
    // update must be an associative and commutative reduction (f(...) = f(...) op e, op one of
    // +, *, min, max, && and ||), whose result then does not depend on the order; with
    // override_associativity_test the user answers for that instead. A vectorized loop of the
    // stage runs as unrolled scalar updates (lanes may update one point). Tuple-valued Funcs
    // are refused: their values would not be updated as one.
    Stage &atomic(bool override_associativity_test = false);
    // Halide's prefetch: at the top of each iteration of loop `at`, prefetch the part of f (or
    // of an input image) that the loop's body reads when loop `from` (at or outside `at`) is
    // `offset` iterations further on. A hint: what the pipeline computes does not change. A
    // Func it reads must be stored outside `at` (else there is nothing to prefetch into yet).
    Stage &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename Image>
    Stage &prefetch(const Image &image, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        return prefetch_buffer(image.name(), {}, at, from, std::move(offset), strategy);
    }
    // Halide's loop partitioning policies: whether loop `var` is split into a steady state
    // without its GuardWithIf guards and clamps and the iterations that need them (Auto: where
    // there are any), never, or always (an error if there is nothing to partition). Loops
    // split from it keep its policy. A hint: the values do not change.
    Stage &partition(const VarOrRVar &var, Partition policy);
    Stage &never_partition(const std::vector<VarOrRVar> &vars);
    Stage &always_partition(const std::vector<VarOrRVar> &vars);
    template <typename... Vs>
    Stage &never_partition(const VarOrRVar &v, Vs &&...rest) {
        return never_partition(std::vector<VarOrRVar>{v, VarOrRVar(rest)...});
    }
    template <typename... Vs>
    Stage &always_partition(const VarOrRVar &v, Vs &&...rest) {
        return always_partition(std::vector<VarOrRVar>{v, VarOrRVar(rest)...});
    }
    Stage &never_partition_all();
    Stage &always_partition_all();
    // The one-loop form (Halide's older one): at and from are both `var`.
    Stage &prefetch(const Func &f, const VarOrRVar &var, int offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename Image>
    Stage &prefetch(const Image &image, const VarOrRVar &var, int offset = 1,
                    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        return prefetch_buffer(image.name(), {}, var, var, Expr(offset), strategy);
    }

    // A version of this stage's schedule for when `condition` holds at run time (Halide's
    // specialize): the returned Stage starts as a copy of this one's schedule and is scheduled
    // on its own. The condition may use Params, buffer fields and constants, not Vars or Funcs.
    // Conditions are tried in the order given; specializing on a condition again returns the
    // existing specialization.
    Stage specialize(const Expr &condition);
    // After the specializations: if none of their conditions holds, the pipeline fails with
    // this message (an error code at run time) instead of running the general schedule.
    void specialize_fail(const std::string &message);

    // Halide's rfactor: splits an associative reduction (f(...) = f(...) op e, with op one of
    // +, *, min, max) in two. The returned Func, f_intm(f's Vars..., v...), reduces over the
    // RVar loops not named here, with each named RVar loop r replaced by its Var v; this
    // update then reduces f_intm over the named loops only. The named loops may be RVars of
    // the RDom or loops made by splitting them (split(r.x, rxo, rxi, 16); rfactor(rxo, u)),
    // so that f_intm can be scheduled, e.g. parallel over u. This update's schedule is reset.
    Func rfactor(const std::vector<std::pair<RVar, Var>> &preserved);
    Func rfactor(const RVar &r, const Var &v);

    const std::string &func_name() const { return f_->name; }
    int index() const { return index_; }

private:
    Stage &prefetch_buffer(const std::string &buffer, const std::shared_ptr<FunctionContents> &func,
                           const VarOrRVar &at, const VarOrRVar &from, Expr offset, PrefetchBoundStrategy strategy);
    Definition &def() const;
    Dim &find_dim(const std::string &var, const char *directive) const;
    // base, or base2, base3, ... : the first name no loop or split of this stage uses.
    std::string fresh_loop_name(const std::string &base) const;
    void check_update_tail(const std::string &var, TailStrategy tail, bool is_rvar) const;
    // The loops made inside an earlier split of this stage, directly or by splitting or fusing
    // such a loop again.
    std::set<std::string> loops_inside_earlier_splits() const;
    std::string describe() const;
    void set_for_type(const VarOrRVar &v, ForType t, const char *directive);
    // split, for the directive named (tile, vectorize, unroll and parallel split too): its
    // messages, and the run-time check of its factor, name the directive the user wrote.
    Stage &split_as(const char *directive, const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner,
                    Expr factor, TailStrategy tail);
    std::shared_ptr<FunctionContents> f_;
    int index_;
    std::vector<int> path_;  // the specialization: indices into specializations, outermost first
};

// f(x, y) on either side of an assignment.
class FuncRef;

// Value i of a Tuple-valued Func at a point, to read (it converts to an Expr) or to update alone
// (Halide's f(x)[1] = e, f(x)[0] += e: the other values stay as they are).
class FuncTupleElementRef {
public:
    FuncTupleElementRef(const FuncRef &ref, int index);
    Stage operator=(const Expr &e);
    Stage operator+=(const Expr &e);
    Stage operator-=(const Expr &e);
    Stage operator*=(const Expr &e);
    Stage operator/=(const Expr &e);
    operator Expr() const;

private:
    std::shared_ptr<FunctionContents> f_;
    std::vector<Expr> args_;
    int index_;
};

class FuncRef {
public:
    // placeholder: where the placeholder _ was in args, for a Func not yet defined (its pure
    // definition puts the implicit Vars its right side uses there), else -1.
    FuncRef(std::shared_ptr<FunctionContents> f, std::vector<Expr> args, int placeholder = -1)
        : f_(std::move(f)), args_(std::move(args)), placeholder_(placeholder) {}
    // Defines the Func: the pure definition the first time, an update after that.
    Stage operator=(const Expr &e);
    // A Tuple-valued Func: f(x) = {a, b} (every definition has the same number of values).
    Stage operator=(const Tuple &t);
    Stage operator=(const FuncRef &e);
    Stage operator+=(const Expr &e);
    Stage operator-=(const Expr &e);
    Stage operator*=(const Expr &e);
    Stage operator/=(const Expr &e);
    // A Tuple-valued Func: f(x) += {a, b} updates each value with its element (Halide's).
    Stage operator+=(const Tuple &t);
    Stage operator-=(const Tuple &t);
    Stage operator*=(const Tuple &t);
    Stage operator/=(const Tuple &t);
    // f(x) += g(x): every value of a Tuple-valued g, else g's one value.
    Stage operator+=(const FuncRef &e);
    Stage operator-=(const FuncRef &e);
    Stage operator*=(const FuncRef &e);
    Stage operator/=(const FuncRef &e);
    operator Expr() const;
    // Value i of a Tuple-valued Func at this point: f(x)[1], to read or to update alone.
    FuncTupleElementRef operator[](int i) const;
    // How many values the Func has (1 unless it is Tuple-valued).
    size_t size() const;
    const std::shared_ptr<FunctionContents> &function() const { return f_; }
    const std::vector<Expr> &arguments() const { return args_; }

private:
    Stage define(std::vector<Expr> values);
    void define_identity_if_undefined(const std::vector<Expr> &identity, const std::vector<Expr> &update);
    Stage update_each(const Tuple &t, bool identity_is_one, const char *op, Expr (*combine)(Expr, Expr));
    void expand_left_placeholder(const std::vector<std::string> &free_vars);
    std::shared_ptr<FunctionContents> f_;
    std::vector<Expr> args_;
    int placeholder_ = -1;
};

class PipelineContents;

class Func {
public:
    Func();
    explicit Func(const std::string &name);
    // A Func whose pure definition must have values of these types and, unless dimensions is
    // -1 (Halide's AnyDims), that many dimensions (Halide's typed Funcs): an error otherwise.
    // Before it is defined, output_types(), outputs(), dimensions() and output_buffer() already
    // answer from them.
    Func(const Type &required_type, int required_dimensions, const std::string &name);
    Func(const std::vector<Type> &required_types, int required_dimensions, const std::string &name);
    // A Func holding one Expr, defined over the Vars that appear in it.
    explicit Func(const Expr &e);
    // A Func whose values are the buffer's (Halide's Func(Buffer)): f(_) = im(_).
    template <typename T>
    explicit Func(const Buffer<T> &im) : Func() {
        (*this)(_) = im(_);
    }
    explicit Func(std::shared_ptr<FunctionContents> f);

    const std::string &name() const { return f_->name; }
    bool defined() const { return f_->has_pure_definition; }
    int dimensions() const { return f_->dimensions(); }
    Type output_type() const;
    // The type of each value (several for a Tuple-valued Func).
    std::vector<Type> output_types() const;
    // How many values it has (1 unless Tuple-valued).
    int outputs() const;
    std::vector<Var> args() const;
    // The loops of the pure definition after its splits, fuses and renames, innermost first (as
    // Halide's split_vars): the places a producer can be computed at inside it.
    std::vector<Var> split_vars() const;
    int num_update_definitions() const { return int(f_->updates.size()); }
    bool has_update_definition() const { return !f_->updates.empty(); }
    // The left side of update definition i (its coordinates, as in Halide), and its RVars.
    std::vector<Expr> update_args(int i = 0) const;
    std::vector<RVar> rvars(int i = 0) const;
    // The right side of the pure definition, and of update definition i (as in Halide).
    Expr value() const;
    Expr update_value(int i = 0) const;
    // Every value of the pure definition (of a Tuple-valued Func) and of update i.
    Tuple values() const;
    Tuple update_values(int i = 0) const;
    // The buffer this Func writes as a pipeline's output: its dimensions' fields, and
    // constraints on them checked at every call (output_buffer().dim(0).set_min(0)).
    OutputBuffer output_buffer() const { return OutputBuffer(f_); }

    FuncRef operator()(std::vector<Expr> args) const;
    template <typename... Args>
    FuncRef operator()(Args &&...args) const { return (*this)(std::vector<Expr>{Expr(args)...}); }

    // ---- wrappers (Halide's Func::in): an identity Func that consumer reads instead of this
    // one, to schedule separately (e.g. f.in(g).compute_at(g, x) copies the part of f that g
    // needs into a small buffer). Asking again returns the same wrapper.
    Func in(const Func &consumer);
    // One wrapper shared by these consumers.
    Func in(const std::vector<Func> &consumers);
    // The global wrapper: every consumer reads it, except this Func's other wrappers.
    Func in();
    // ---- clones (Halide's Func::clone_in): a copy of this Func's definitions and schedule as
    // they are now, which consumer reads instead of this one, to compute and schedule apart
    // (e.g. one consumer recomputes its own copy at its tiles while others share a buffer).
    // Asking again returns the same clone; it shares the lookup of in() (a consumer reads one of
    // them per Func: in(g) after clone_in(g) returns the clone, as in Halide).
    Func clone_in(const Func &consumer);
    // One clone shared by these consumers (named after them in sorted order).
    Func clone_in(const std::vector<Func> &consumers);

    // ---- schedule: where it is computed
    Func &compute_root();
    Func &compute_inline();
    Func &compute_at(const Func &consumer, const VarOrRVar &var);
    // At a LoopLevel: inlined() is compute_inline(), root() compute_root().
    Func &compute_at(const LoopLevel &level);
    Func &store_root();
    Func &store_at(const Func &consumer, const VarOrRVar &var);
    // At a LoopLevel: root() is store_root(); inlined() stores where it is computed.
    Func &store_at(const LoopLevel &level);
    // ---- schedule: the loops of the pure definition (see Stage)
    Func &split(const VarOrRVar &old, const VarOrRVar &outer, const VarOrRVar &inner, Expr factor,
                TailStrategy tail = TailStrategy::Auto);
    Func &fuse(const VarOrRVar &inner, const VarOrRVar &outer, const VarOrRVar &fused);
    Func &rename(const VarOrRVar &old_name, const VarOrRVar &new_name);
    Func &reorder(const std::vector<VarOrRVar> &vars);
    template <typename... Vs>
    Func &reorder(const VarOrRVar &v0, const VarOrRVar &v1, Vs &&...rest) {
        return reorder(std::vector<VarOrRVar>{v0, v1, VarOrRVar(rest)...});
    }
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xo, const VarOrRVar &yo,
               const VarOrRVar &xi, const VarOrRVar &yi, Expr xfactor, Expr yfactor,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &xi, const VarOrRVar &yi,
               Expr xfactor, Expr yfactor, TailStrategy tail = TailStrategy::Auto);
    Func &tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &outers,
               const std::vector<VarOrRVar> &inners, const std::vector<Expr> &factors,
               TailStrategy tail = TailStrategy::Auto);
    Func &tile(const std::vector<VarOrRVar> &vars, const std::vector<VarOrRVar> &inners,
               const std::vector<Expr> &factors, TailStrategy tail = TailStrategy::Auto);
    Func &vectorize(const VarOrRVar &v);
    Func &vectorize(const VarOrRVar &v, int width, TailStrategy tail = TailStrategy::Auto);
    Func &unroll(const VarOrRVar &v);
    Func &unroll(const VarOrRVar &v, int factor, TailStrategy tail = TailStrategy::Auto);
    Func &parallel(const VarOrRVar &v);
    Func &parallel(const VarOrRVar &v, Expr task_size, TailStrategy tail = TailStrategy::Auto);
    Func &serial(const VarOrRVar &v);
    // Stage::atomic of the pure definition (as Halide's Func::atomic).
    Func &atomic(bool override_associativity_test = false);
    // Stage::partition and its variants, of the pure definition.
    Func &partition(const VarOrRVar &var, Partition policy);
    Func &never_partition(const std::vector<VarOrRVar> &vars);
    Func &always_partition(const std::vector<VarOrRVar> &vars);
    template <typename... Vs>
    Func &never_partition(const VarOrRVar &v, Vs &&...rest) {
        return never_partition(std::vector<VarOrRVar>{v, VarOrRVar(rest)...});
    }
    template <typename... Vs>
    Func &always_partition(const VarOrRVar &v, Vs &&...rest) {
        return always_partition(std::vector<VarOrRVar>{v, VarOrRVar(rest)...});
    }
    Func &never_partition_all();
    Func &always_partition_all();
    // Stage::prefetch of the pure definition.
    Func &prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename Image>
    Func &prefetch(const Image &image, const VarOrRVar &at, const VarOrRVar &from, Expr offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        Stage(f_, 0).prefetch(image, at, from, std::move(offset), strategy);
        return *this;
    }
    Func &prefetch(const Func &f, const VarOrRVar &var, int offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf);
    template <typename Image>
    Func &prefetch(const Image &image, const VarOrRVar &var, int offset = 1,
                   PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf) {
        Stage(f_, 0).prefetch(image, var, offset, strategy);
        return *this;
    }
    // Promises that only [min, min+extent) of dimension var is ever needed (checked at run time).
    Func &bound(const Var &var, Expr min, Expr extent);
    // Fixes only the extent of dimension var: the min is what the consumers need, and they
    // may need no more than `extent` points (checked at run time).
    Func &bound_extent(const Var &var, Expr extent);
    // Grows the region computed of dimension var outwards so that its min is `remainder`
    // modulo `modulus` and its extent a multiple of `modulus` (Halide's align_bounds): an
    // unroll or vector of that width then needs no tail. On an output, the buffer must already
    // be so aligned (else a run-time error).
    Func &align_bounds(const Var &var, Expr modulus, Expr remainder = 0);
    // Rounds the extent computed of dimension var up to a multiple of `modulus`, keeping the min.
    Func &align_extent(const Var &var, Expr modulus);
    // The expected size of this Func as an output (Halide's set_estimates): one (min, extent)
    // of constants per dimension, e.g. {{0, 1920}, {0, 1080}}. auto_schedule(f) uses them; the
    // compiled code does not depend on them.
    Func &set_estimates(const std::vector<std::pair<Expr, Expr>> &region);
    Func &set_estimate(const Var &var, Expr min, Expr extent);
    Stage update(int i = 0);
    // The pure definition's schedule for when condition holds (see Stage::specialize).
    Stage specialize(const Expr &condition);
    void specialize_fail(const std::string &message);
    // ---- schedule: storage
    // Lays the Func's buffer out with these dimensions innermost first (e.g. reorder_storage(c,
    // x, y) puts channels innermost in memory for a channel-vectorized consumer).
    Func &reorder_storage(const std::vector<Var> &dims);
    template <typename... Vs>
    Func &reorder_storage(const Var &v0, const Var &v1, Vs &&...rest) {
        return reorder_storage(std::vector<Var>{v0, v1, Var(rest)...});
    }
    // Pads the storage extent of dimension `dim` up to a multiple of `alignment` (a positive
    // constant), as in Halide: the strides of the dimensions stored outside it are multiples of
    // it. align_storage(elements) pads the innermost storage dimension (rows).
    Func &align_storage(const Var &dim, Expr alignment);
    Func &align_storage(int elements);
    // Stores dimension `dim` modulo `extent` (Halide's fold_storage): for a Func computed in a
    // sliding window along dim, only the rows still needed are kept. A fold smaller than what
    // is needed at once (by one iteration of the window, or else by the whole realization) is
    // a run-time error. (Sliding windows fold by themselves, to the next power of two, when
    // what an iteration needs has a constant size.)
    // fold_forward is Halide's (the direction the window moves); Halo's fold is a modulus,
    // which holds in either direction, so it changes nothing.
    Func &fold_storage(const Var &dim, Expr extent, bool fold_forward = true);
    // Allocates dimension `dim` of its buffer with extent `extent` whatever the region bounds
    // inference gives it (Halide's bound_storage): a constant extent lets a per-tile buffer
    // live on the stack. `extent` is a constant or depends on Params and input buffers' sizes
    // only; a region larger than it is a run-time error. No effect on an output or an inlined
    // Func, which allocate nothing.
    Func &bound_storage(const Var &dim, Expr extent);
    // Where its buffer lives (see MemoryType in IR.h): Func::store_in(MemoryType::Stack) keeps a
    // per-tile buffer of known size on the stack however large, Heap always uses the heap.
    Func &store_in(MemoryType memory_type);

    // ---- running it
    // Computes the Func over [0, sizes) in each dimension. The ParamMap gives inputs for this
    // call only (see ParamMap.h); parameters it does not name use the values set on them.
    // One buffer per value (it converts to a Buffer when the Func has one value).
    Realization realize(const std::vector<int> &sizes = {}, const ParamMap &param_map = ParamMap::empty_map());
    // Computes the Func over the buffer's region (its mins may be anything).
    void realize(Buffer<> &dst, const ParamMap &param_map = ParamMap::empty_map());
    // A Tuple-valued Func into one buffer per value, all over the same region.
    void realize(Realization &dst, const ParamMap &param_map = ParamMap::empty_map());
    void realize(Realization &&dst, const ParamMap &param_map = ParamMap::empty_map()) { realize(dst, param_map); }
    template <typename T>
    void realize(Buffer<T> &dst, const ParamMap &param_map = ParamMap::empty_map()) {
        Buffer<> d(dst);
        realize(d, param_map);
    }
    // The same, compiled for `target` first (as Halide's realize(sizes, target, param_map)).
    Realization realize(const std::vector<int> &sizes, const struct Target &target,
                        const ParamMap &param_map = ParamMap::empty_map());
    void realize(Buffer<> &dst, const struct Target &target, const ParamMap &param_map = ParamMap::empty_map());
    template <typename T>
    void realize(Buffer<T> &dst, const struct Target &target, const ParamMap &param_map = ParamMap::empty_map()) {
        Buffer<> d(dst);
        realize(d, target, param_map);
    }
    // Compiles now, so that later realizations do not.
    // Binds every ImageParam this Func reads that has no buffer to a new zero-filled one
    // covering exactly what realizing over `sizes` reads (Halide's infer_input_bounds).
    void infer_input_bounds(const std::vector<int> &sizes);
    void compile_jit();
    // Frees the intermediate buffers the compiled pipeline keeps for reuse between
    // realizations. (Without it, a kept buffer is freed once 4 realizations in a row did not
    // reuse it.)
    void release_memory();
    // Compiles for a target other than the host's full feature set (e.g. to compare with
    // code compiled ahead of time for that target).
    void compile_jit(const struct Target &target);
    // The lowered loop nest, as text.
    std::string lowered_stmt();
    // Only the loops, with their kinds, and where each Func is produced (Halide's
    // print_loop_nest): printed to stdout, or returned.
    void print_loop_nest() const;
    std::string loop_nest() const;
    // The ImageParams and Params the pipeline of this Func reads, as Halide's infer_arguments:
    // the buffers first, then the scalars, each in the order of their names (the arguments for
    // compile_to_* when their order does not matter to the caller).
    std::vector<Argument> infer_arguments() const;
    // Ahead-of-time compilation, as Halide's Func::compile_to_*: a C-callable function taking
    // `args` (the ImageParams and Params the pipeline reads, in order) and then the output
    // buffer(s), as codegen/AOT.h describes; fn_name "" is the Func's name. The files need only
    // libhalo_runtime.a to link. <prefix>.a and <prefix>.h:
    void compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    // <prefix>.o and <prefix>.h:
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "", const Target &target = get_target_from_environment());
    // One file each:
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args,
                           const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args,
                           const std::string &fn_name = "", const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args,
                             const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args,
                            const Target &target = get_target_from_environment());
    // The lowered loop nest, as text or as an HTML page of that text.
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 StmtOutputFormat format = Text, const Target &target = get_target_from_environment());
    // The optimised LLVM IR of the compiled pipeline.
    std::string llvm_ir();
    // The compiled machine code as assembly text (to check what vectorize produced).
    std::string assembly();

    const std::shared_ptr<FunctionContents> &function() const { return f_; }

private:
    PipelineContents &pipeline();
    void check_bound_directive(const std::string &directive, const Var &var, const std::vector<Expr> &values);
    std::shared_ptr<FunctionContents> f_;
};

// A Func defined by e over the given Vars (Halide's lambda): lambda(x, y, x + y).
Func lambda(const Expr &e);
Func lambda(const Var &x, const Expr &e);
Func lambda(const Var &x, const Var &y, const Expr &e);
Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e);
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e);

// The value of an Expr that depends on no Var (Halide's evaluate): it is compiled and run as a
// Func of no dimensions. T must be the Expr's type.
template <typename T>
T evaluate(const Expr &e) {
    user_assert(e.defined()) << "evaluate of an undefined Expr";
    user_assert(e.type() == type_of<T>()) << "evaluate<" << type_of<T>() << ">(" << e << "): the Expr has type "
                                          << e.type() << "; cast it, or evaluate it as that type";
    Func f(unique_name('e'));
    f() = e;
    Buffer<T> out = f.realize(std::vector<int>{});
    return out();
}

// Halide's undef(): as a value of an update's Tuple, leaves that value as it is
// (f(x) = Tuple(f(x)[0] + 1, undef<int>())). Anywhere else it is an error.
Expr undef(Type t);
// Whether e contains undef() anywhere.
bool uses_undef(const Expr &e);
template <typename T>
Expr undef() {
    return undef(type_of<T>());
}

// The identities of max and min: the lowest and highest values of t (-inf and inf for floats).
Expr lowest(Type t);
Expr highest(Type t);

}  // namespace halo

#include "InlineReductions.h"
