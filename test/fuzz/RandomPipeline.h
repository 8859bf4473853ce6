// A generator of random pipelines and random schedules for differential testing against the
// reference evaluator. The algorithm (RandomPipeline::build) mixes stencils, resampling,
// reductions, scans and recurrences, self-reading updates, scatters, narrow and mixed-sign
// integer arithmetic and edge-case arithmetic (INT_MIN / -1, shifts past the bit width,
// out-of-range float casts, unsigned wrapping, signed overflow). The schedule
// (RandomPipeline::schedule) places producers inline, at root or inside their consumer's
// loops with store levels, and splits (repeated names, Param factors, every tail strategy),
// fuses, tiles, vectorizes (nested too), unrolls, parallelizes and bounds them.
//
// A schedule the generator makes invalid on purpose (a bound smaller than the output, a Param
// factor of 0, a store level outside a parallel loop the Func is computed in) records the
// error it expects; everything else is a valid Halide program, whose
// only acceptable outcome is the reference's answer (test_random_pipelines.cpp says how cases
// with undefined behaviour and outputs at the ends of int32 are judged).
#pragma once

#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "dsl/Halo.h"

namespace halo_fuzz {

// The Funcs f's definitions call directly (itself excluded), by identity.
std::vector<std::shared_ptr<halo::FunctionContents>> called_funcs(const halo::FunctionContents &f);

struct PipelineStage {
    halo::Func f;
    std::vector<int> inputs;  // earlier stages it reads
    // Per update definition: whether x is one of its pure Vars (else an RVar writes it).
    std::vector<bool> update_has_x;
    int updates() const { return int(update_has_x.size()); }
    bool output_safe_updates = true;  // its updates write only inside [x, y] it is asked for
    // Updates that do not loop over y (a diagonal f(x, x) = ...): only x may be scheduled.
    std::vector<int> updates_without_y;
    // A consumer reads it transposed (A(y, x)): computed inside that consumer's loops, each
    // point would need a box spanning both coordinates (seed 547: 10^10 points, 90 s), so it
    // is computed at the root instead.
    bool read_transposed = false;
    // Tuple-valued (two int32 values): consumers read value 0 - value 1.
    bool is_tuple = false;
    // Its update was rfactored: the intermediate Func, not the update, reads the inputs.
    bool rfactored = false;
    // Its one update loops over an RVar in x (has_update_rvar): whether the iterations touch
    // points of their own (then vectorize or parallel over it are allowed, else refused).
    bool has_update_rvar = false, update_rvar_race_free = false;
    // Its one update is an associative scatter (f(clamp(...), y) += 1): atomic() lets its RVar
    // loop run in parallel or in (unrolled) vector lanes.
    bool update_atomic_ok = false;
    halo::RVar update_rvar;
    // A pure stage whose values its definition clamps to [-3, 4]: later stages may read at
    // positions offset by its values without clamping them (bounded by its value bounds).
    bool small_values = false;
    // A pure stage whose definition selects on a condition of Params (param_select): the
    // schedule may specialize it on that condition, or on one that implies it (then each
    // branch reads only one arm: bounds inference must see that, and nothing more).
    halo::Expr param_condition, implying_condition;
    bool param_condition_holds = false, implying_condition_holds = false;
    // A reduction over an RDom::where() whose predicate reads y, sometimes through a Func of
    // its own (where_helper, read only by the update): the schedule may compute that Func at
    // the RVar's loop and store it further out, a sliding window whose iterations run only
    // where the predicate holds.
    halo::RVar where_rvar;
    halo::Func where_helper;
};

// What the run of a generated case is expected to do.
struct Expectation {
    enum Kind { Match, RuntimeError, CompileError } kind = Match;
    std::vector<std::string> message_parts;  // for the errors: the message has one of these
    // Run-time errors the schedule may cause but need not (a bound_storage smaller than a
    // region it cannot foresee): one containing one of these is expected, none is a match.
    std::vector<std::string> tolerated_runtime_errors;
};

class RandomPipeline {
public:
    // extreme_regions: sometimes request the output near the ends of int32.
    RandomPipeline(unsigned seed, bool extreme_regions);

    // n stages after the clamped input; the last is the output.
    void build(int n);
    // A schedule for every stage, and the output's size and position.
    void schedule();
    // The output's size and position, and auto_schedule's schedule for that size.
    void schedule_automatically();

    halo::Func output() const { return stages_.back().f; }
    std::string description() const { return log_.str(); }
    const Expectation &expectation() const { return expect_; }
    int rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    // A second stream for the choices added after the first, so that the pipelines and
    // schedules of the seeds it leaves alone stay what they were.
    int side_rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(side_rng_); }
    // A third, for the Funcs read inside a reduction's RVar loop and their placements.
    int where_rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(where_rng_); }
    // A fourth, for the names of the stages (some share the name of an earlier stage).
    int name_rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(name_rng_); }
    bool coin() { return rand(2) == 0; }

    int out_w = 1, out_h = 1, out_x = 0, out_y = 0;
    // The output was placed near the ends of int32.
    bool extreme_region() const { return extreme_region_; }

private:
    std::mt19937 rng_, side_rng_, where_rng_, name_rng_;
    bool extreme_regions_;
    bool extreme_region_ = false;  // this case's output is near the ends of int32
    std::ostringstream log_;
    halo::Var x_{"x"}, y_{"y"};
    halo::Buffer<int> input_;
    // One case in six reads the input through an ImageParam bound to a column-major copy
    // (x steps by the height), with dim(0).set_stride(Expr()): strided addresses, gathers.
    bool strided_input_ = false;
    // One in six reads a column-major Buffer directly (no ImageParam): strided too.
    bool transposed_fixed_input_ = false;
    std::vector<int> column_major_;
    halo::ImageParam input_param_{halo::Int(32), 2, "input"};
    std::vector<PipelineStage> stages_;
    std::vector<bool> reachable_;  // stages the output depends on
    std::vector<std::set<std::string>> parallel_loops_;  // of each stage's pure definition
    std::vector<bool> inside_parallel_;  // a stage computed inside some parallel loop
    std::vector<bool> parallel_in_update_;  // a stage with a parallel loop in an update
    // The loops of each stage's updates, innermost first (update u at index u - 1).
    std::vector<std::vector<std::vector<std::string>>> update_loops_;
    std::vector<bool> specialized_;      // a stage whose pure definition has specializations
    std::vector<bool> specialized_update_;  // an update of the stage is specialized
    std::vector<bool> where_helper_placed_;  // its where_helper is computed inside its update
    std::vector<halo::Param<int>> params_;  // kept alive for the compiled pipeline
    std::vector<halo::Param<bool>> bool_params_;
    Expectation expect_;

    halo::Expr read(int s, halo::Expr xx, halo::Expr yy) {
        if (stages_[s].is_tuple) return stages_[s].f(xx, yy)[0] - stages_[s].f(xx, yy)[1];
        return stages_[s].f(xx, yy);
    }
    void add_pointwise_or_stencil(PipelineStage &st, int a, int b);
    void add_update_stage(PipelineStage &st, int a, int b);
    void add_typed_arithmetic(PipelineStage &st, int a, int b);
    void add_tuple_stage(PipelineStage &st, int a, int b);
    void add_param_select(PipelineStage &st, int a, int b);
    bool maybe_rfactor(halo::Func f, const halo::RDom &k);
    halo::Expr edge_arithmetic(halo::Expr A, halo::Expr B, std::string &text);
    halo::Expr narrow_arithmetic(halo::Expr A, halo::Expr B, std::string &text);

    std::vector<int> consumers_of(int s) const;
    // Schedules the loops of one stage; returns its loop names, innermost first.
    std::vector<std::string> schedule_loops(int s, int update, bool is_output);
    void place(int s, std::vector<std::vector<std::string>> &loops_of);
    bool place_in_every_stage(int s, int consumer, const std::vector<std::string> &pure_loops);
    void place_where_helper(int s);
    void schedule_updates(int s, bool is_output);
    void expect_runtime_error(const std::string &message_part);
    void expect_compile_error(const std::string &message_part);
    void choose_output_region();
};

}  // namespace halo_fuzz
