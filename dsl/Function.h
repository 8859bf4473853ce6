// What a Func is inside: its pure definition, update definitions, and schedule.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "IR.h"
#include "Parameter.h"
#include "Schedule.h"

namespace halo {

struct ReductionVariable {
    std::string name;
    Expr min, extent;
};

struct ReductionDomainContents {
    std::string name;
    std::vector<ReductionVariable> vars;
    // RDom::where: the points of the box where all of these hold are the domain (Halide's
    // non-rectangular reductions). They may read the RVars, the pure Vars of the definition
    // that uses the RDom, Params and other Funcs.
    std::vector<Expr> predicates;
    bool used = false;  // by a definition: predicates can no longer be added
};

struct Definition;

// A specialization (Func::specialize): when `condition` holds at run time, the stage runs with
// the schedule of `definition` instead (same algorithm, own schedule, own nested
// specializations). Copying a Specialization copies its definition: lowering changes the
// schedules of its copies of the Funcs, never the user's.
struct Specialization {
    Expr condition;
    std::unique_ptr<Definition> definition;
    Specialization(Expr c, std::unique_ptr<Definition> d) : condition(std::move(c)), definition(std::move(d)) {}
    Specialization(const Specialization &o);
    Specialization &operator=(const Specialization &o);
    Specialization(Specialization &&) = default;
    Specialization &operator=(Specialization &&) = default;
};

struct Definition {
    std::vector<Expr> args;  // pure definition: the pure Vars; updates: any Exprs
    // The value at args: one Expr, or one per component of a Tuple-valued Func.
    std::vector<Expr> values;
    std::shared_ptr<ReductionDomainContents> rdom;  // updates over an RDom
    // A pure definition of undef() (f(x) = undef<T>()), or a select with undef() arms: the
    // points where a value is stored; undefined means everywhere. An output buffer keeps its
    // contents elsewhere (Halide's in-place pipelines); an intermediate Func stores the zero
    // its values hold there (what is never stored is undefined to read, so zero will do).
    Expr store_condition;
    StageSchedule schedule;
    // Tried in order at run time; the first whose condition holds is run, else this one.
    std::vector<Specialization> specializations;
    // specialize_fail: when no specialization's condition holds, the pipeline fails with this
    // message instead of running this definition.
    bool fails_unspecialized = false;
    std::string fail_message;
};

// Whether an update is f(args) = f(args) op e, op one of +, *, min, max, and e does not read
// f (Halide's prove_associativity, for the forms rfactor handles), or every iteration applies
// one map to the point it updates (iterations_apply_one_map): the order of its iterations does
// not change the result. Defined in Rfactor.cpp.
struct FunctionContents;
bool update_is_associative_and_commutative(const FunctionContents &f, const Definition &def);
// An update's values for messages: the value, or the Tuple's as {a, b, ...}.
std::string describe_values(const std::vector<Expr> &values);

// "Func 'f'" or "Func 'f' update 0": how messages name stage `stage` of Func `func`.
inline std::string describe_stage(const std::string &func, int stage) {
    return stage == 0 ? "Func '" + func + "'" : "Func '" + func + "' update " + std::to_string(stage - 1);
}

// The buffer holding value `index` of a Func with `count` values: the Func's own name for a
// single value, f.0, f.1, ... for a Tuple (as Halide names them).
inline std::string tuple_buffer_name(const std::string &func, int index, int count) {
    return count == 1 ? func : func + "." + std::to_string(index);
}

inline Specialization::Specialization(const Specialization &o)
    : condition(o.condition), definition(std::make_unique<Definition>(*o.definition)) {}
inline Specialization &Specialization::operator=(const Specialization &o) {
    condition = o.condition;
    definition = std::make_unique<Definition>(*o.definition);
    return *this;
}

class PipelineContents;

// Numbers the Funcs in the order they are made (thread-safe).
uint64_t next_function_serial();

struct FunctionContents {
    std::string name;
    // When the Func was made, relative to the others: of two Funcs made with one name, the
    // first keeps it in a pipeline that uses both (lower/DistinctNames.h). Copies keep it.
    uint64_t serial = next_function_serial();
    std::vector<std::string> args;  // the pure Vars' names, dimension 0 first
    bool has_pure_definition = false;
    Definition pure;
    std::vector<Definition> updates;
    FuncSchedule schedule;
    // The compiled pipeline with this Func as its output, owned here so that every handle of
    // the Func shares it and it is freed with the Func. It refers back to the Func weakly.
    std::shared_ptr<PipelineContents> pipeline;
    // Bumped by every change to this Func's definitions or schedule: a compiled pipeline
    // recompiles only when a Func it uses changed (see PipelineContents::is_current).
    uint64_t version = 0;
    // Func::in wrappers (lowering redirects the calls of their consumers).
    WrapperSet wrappers;
    // Constraints on the output buffer when this Func is a pipeline's output
    // (output_buffer().dim(d).set_...), per dimension; empty: none.
    std::vector<BufferDimConstraint> output_constraints;
    int output_host_alignment = 0;  // output_buffer().set_host_alignment (0: none)
    // Func::set_estimates: the expected (min, extent) of each dimension, for auto_schedule;
    // empty: none given.
    std::vector<std::pair<int, int>> estimates;
    // How many intermediates rfactor made of this Func's updates: the first is named f_intm,
    // later ones f_intm_1, f_intm_2, ... (an update rfactored again must not reuse the name).
    int rfactor_intermediates = 0;
    // An argmin's rfactor intermediate, whose last value records whether a part visited any
    // point (dsl/Rfactor.cpp): not rfactored again.
    bool records_visits = false;
    // Made by a library function (a boundary condition, an inline reduction's anonymous Func):
    // the user's code has no variable of its name, so auto_schedule's source declares a handle
    // (Pipeline::get_func).
    bool made_by_library = false;
    // Made by clone_in: a copy of the definitions of the Func of this name ("" for any other).
    std::string clone_of;

    // Func(type, dimensions, name) (Halide's): what its pure definition must give; before it is
    // defined, what types() and dimensions() report. Empty and -1: no requirement.
    std::vector<Type> required_types;
    int required_dimensions = -1;

    // The type of each value (one per component of a Tuple).
    std::vector<Type> types() const {
        if (!has_pure_definition) return required_types;
        std::vector<Type> t;
        for (auto &v : pure.values) t.push_back(v.type());
        return t;
    }
    int outputs() const { return has_pure_definition ? int(pure.values.size()) : int(required_types.size()); }
    bool is_tuple() const { return outputs() > 1; }
    int dimensions() const {
        return has_pure_definition || required_dimensions < 0 ? int(args.size()) : required_dimensions;
    }
    // Its types and dimensions are known: it is defined, or declared with them.
    bool has_known_shape() const { return has_pure_definition || !required_types.empty(); }
    int stages() const { return 1 + int(updates.size()); }
    const Definition &stage(int i) const { return i == 0 ? pure : updates[i - 1]; }
    Definition &stage(int i) { return i == 0 ? pure : updates[i - 1]; }
    void changed() { version++; }
    // What a compiled pipeline checks to be current: the version, and when the LoopLevel
    // handles the Func is computed and stored at were last set() (which changes no version).
    std::array<uint64_t, 3> schedule_stamp() const {
        return {version, schedule.compute_level.set_stamp(), schedule.store_level.set_stamp()};
    }
};

// Lowering's first step on its copy of f: the compute and store levels become what their
// handles hold now (unshared, so that later set() calls reach only the user's Funcs), with the
// defaults filled in (a store level not given, or inlined, is the compute level). An undefined
// level, or one inside the Func's own loops (`original`, the user's Func f was copied from), is
// refused naming the Func.
void lock_loop_levels(FunctionContents &f, const FunctionContents &original);

}  // namespace halo
