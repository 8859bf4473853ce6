// A second generator of random pipelines for differential testing, covering what the first
// (RandomPipeline.h: int32 Funcs of (x, y)) does not: Funcs of every value type (uint8 to
// float64) over three dimensions (x, y, c), a uint8 input behind a boundary condition, channel
// reductions written as update definitions (a 1x1 and a 3x3xC convolution), pooling and
// upsampling, lookup tables (1-D Funcs read at a data-dependent uint8 index), scans along y,
// and pipelines with a second output of another type. Schedules reorder the three loops,
// vectorize x or c at widths up to 64 lanes, bound and unroll c, tile, fuse, parallelize and
// place every producer inline, at the root or at any loop of its consumers.
//
// Floats stay exact: every value is clamped to |v| <= 2^18, products have one factor of at
// most 16, and what rounds (division, sqrt) is floored at once; so fused multiply-adds, which
// Halo (like Halide) may form, give the same bits as the reference evaluator, and any
// difference is a bug. int32 arithmetic is kept inside its range the same way; the narrow and
// unsigned types wrap, as they are defined to.
#pragma once

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dsl/Halo.h"

namespace halo_fuzz {

struct TypedStage {
    halo::Func f;
    halo::Type type;
    std::vector<int> inputs;  // earlier stages it reads
    bool is_lut = false;      // a 1-D lookup table lut(i)
    bool is_boundary = false;  // a boundary condition's Func (named by the library)
    bool is_second_output = false;
    bool has_updates = false;
    // The RVars of its update (innermost first), and whether the update is a scan along y
    // (its RDom replaces y; else it keeps x, y and c as pure Vars).
    std::vector<halo::RVar> rvars;
    bool scan_in_y = false;
};

class TypedPipeline {
public:
    explicit TypedPipeline(unsigned seed);

    void build(int n);  // n stages after the input's boundary condition
    void schedule();

    halo::Func output() const { return stages_[size_t(main_)].f; }
    // A second output (another stage, or a conversion of one), or an undefined Func.
    halo::Func second_output() const { return second_ >= 0 ? stages_[size_t(second_)].f : halo::Func(); }
    // The second output is an intermediate stage itself: its consumers may read it beyond the
    // region asked for, which is an error (as in Halide) rather than a case to compare.
    bool second_is_intermediate() const { return second_ >= 0 && second_ < main_; }
    // Some producer is bound(c, 0, channels) while a consumer computes c beyond that (vectors
    // of c that shift inwards or round up): the bound's run-time error is then right too.
    bool bound_may_fail() const { return bound_may_fail_; }
    // Some stage got an explicit fold_storage that may be too small: its run-time error is right.
    bool fold_may_fail() const { return fold_may_fail_; }
    std::string description() const { return log_.str(); }
    int rand(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    bool coin() { return rand(2) == 0; }

    int channels = 3;
    int out_w = 1, out_h = 1, out_x = 0, out_y = 0;

private:
    std::mt19937 rng_;
    std::ostringstream log_;
    halo::Var x_{"x"}, y_{"y"}, c_{"c"}, i_{"i"};
    halo::Buffer<uint8_t> input_;
    bool interleaved_input_ = false;  // input_'s channels innermost in memory
    std::vector<TypedStage> stages_;
    int main_ = 0, second_ = -1;  // the outputs' stages
    int downsamples_ = 0;

    // Schedule state, per stage.
    std::vector<bool> reachable_;
    std::vector<std::vector<std::string>> loops_;  // pure loops, innermost first
    // Loops every stage of it has (pure and updates): where producers can be computed.
    std::vector<std::vector<std::string>> common_loops_;
    std::vector<bool> has_parallel_;     // some loop of some stage of it is parallel
    std::vector<bool> inside_parallel_;  // computed inside a parallel loop of a consumer
    bool c_may_grow_ = false;  // a stage scheduled so far computes c outside [0, channels)
    bool bound_may_fail_ = false;
    bool fold_may_fail_ = false;
    // Stages with a specialization: their branches may name and order loops differently, so
    // nothing is computed inside them.
    std::vector<bool> specialized_;
    std::vector<halo::Param<bool>> params_;  // the specializations' conditions, kept alive

    // Reads stage s at (x, y, c) as type w (clamped to |v| <= 2^18 for int32 and floats).
    halo::Expr read(int s, halo::Expr x, halo::Expr y, halo::Expr c, halo::Type w);
    // A factor of at most 15 in magnitude from stage s, as type w.
    halo::Expr small(int s, halo::Type w);
    // The stage's value from an expression of type w: clamped and cast to t.
    halo::Expr finish(halo::Expr v, halo::Type t);
    halo::Type random_type();
    static std::string type_name(halo::Type t);

    void add_pointwise(TypedStage &st, int a, int b);
    void add_stencil(TypedStage &st, int a, int b);
    void add_channel_mix(TypedStage &st, int a);
    void add_convolution(TypedStage &st, int a);
    void add_resample(TypedStage &st, int a);
    void add_lookup(TypedStage &st, int a);
    void add_scan(TypedStage &st, int a);
    void add_boundary(TypedStage &st, int a);
    void choose_second_output();

    std::vector<int> consumers_of(int s) const;
    std::vector<std::string> schedule_pure(int s, bool is_output);
    std::vector<std::string> schedule_update(int s, bool is_output);
    void schedule_stage(int s, bool is_output);  // the pure definition, then the update
    void maybe_specialize(int s);
    void place(int s);
};

}  // namespace halo_fuzz
