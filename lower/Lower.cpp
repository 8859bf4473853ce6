// The list of lowering passes, in order. Each pass is a function from IR to IR in a file of
// its own; this file only sequences them and dumps the IR between them on request.
#include "Lower.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "BoundConstantExtentLoops.h"
#include "BoundsInference.h"
#include "BoundsOverflowChecks.h"
#include "BufferConstraints.h"
#include "DistinctNames.h"
#include "Environment.h"
#include "FuncValueBounds.h"
#include "HoistInvariantIfs.h"
#include "HoistStoreGuards.h"
#include "InlineFunctions.h"
#include "InputChecks.h"
#include "LargeStack.h"
#include "PartitionLoops.h"
#include "RemovePromises.h"
#include "ScheduleFunctions.h"
#include "NontemporalStores.h"
#include "Prefetch.h"
#include "PrefetchSlidingInputs.h"
#include "SlidingWindow.h"
#include "Simplify.h"
#include "ParameterChecks.h"
#include "PassTiming.h"
#include "StorageFlattening.h"
#include "UnrollClampedLoops.h"
#include "UnrollLoops.h"
#include "VectorizeLoops.h"
#include "Wrappers.h"
#include "dsl/Error.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

// The default loops of a stage, for a definition and its specializations (which stay, with
// the default loops too: specialize_fail must still fail).
void reset_schedule(const FunctionContents &f, int k, Definition &d) {
    d.schedule = StageSchedule();
    if (k > 0 && d.rdom) {
        for (auto &rv : d.rdom->vars) d.schedule.dims.push_back(Dim{rv.name, ForType::Serial, true});
    }
    for (size_t i = 0; i < f.args.size(); i++) {
        bool pure = k == 0;
        if (auto v = d.args[i].as<Variable>(); v && !v->rdom && v->name == f.args[i]) pure = true;
        if (pure) d.schedule.dims.push_back(Dim{f.args[i], ForType::Serial, false});
    }
    for (auto &sp : d.specializations) reset_schedule(f, k, *sp.definition);
}

// The pipeline's outputs are computed at the root, into the caller's buffers, whatever
// placement they were given: Halide 14 ignores compute_at, store_at and compute_inline of an
// output (a program it runs must run here too).
void place_outputs_at_root(Environment &env, const std::vector<std::string> &outputs) {
    for (auto &name : outputs) {
        FuncSchedule &s = env.at(name)->schedule;
        s.explicitly_inlined = false;
        s.compute_level = LoopLevel::root();
        s.store_level = LoopLevel::root();
    }
}

// Where an undef() pure definition stores nothing: an output keeps its buffer's contents
// there; an intermediate has no contents of its own, and stores the zero its values hold.
void forget_store_conditions(Definition &d) {
    d.store_condition = Expr();
    for (auto &sp : d.specializations) forget_store_conditions(*sp.definition);
}
void store_undef_points_only_in_outputs(Environment &env, const std::vector<std::string> &outputs) {
    for (auto &[name, f] : env) {
        if (std::count(outputs.begin(), outputs.end(), name) == 0) forget_store_conditions(f->pure);
    }
}

}  // namespace

bool inlined_when_breadth_first(const FunctionContents &f, const std::string &output) {
    return f.schedule.compute_level.is_inline() && f.updates.empty() && f.name != output;
}

namespace {

// Every Func that is not inlined goes to the root, with the default loops of each stage.
void make_breadth_first(Environment &env, const std::string &output) {
    for (auto &[name, f] : env) {
        bool inlined = inlined_when_breadth_first(*f, output);
        if (!inlined && name != output) {
            f->schedule.compute_level = LoopLevel::root();
            f->schedule.store_level = LoopLevel::root();
        }
        for (int k = 0; k < f->stages(); k++) reset_schedule(*f, k, f->stage(k));
    }
}

LoweredPipeline lower_on_this_stack(const std::vector<std::shared_ptr<FunctionContents>> &outputs,
                                    const std::string &name, const LowerOptions &options) {
    const char *dump_env = std::getenv("HALO_DUMP_IR");
    bool dump = dump_env && *dump_env && std::string(dump_env) != "0";
    PassTimer timer(name);
    auto step = [&](const char *pass, Stmt s) {
        timer.lap(pass);
        if (dump) std::cerr << "==== " << name << " after " << pass << ":\n" << s << "\n";
        return s;
    };

    std::vector<std::string> output_names;
    for (auto &output : outputs) {
        user_assert(std::count(output_names.begin(), output_names.end(), output->name) == 0)
            << "Func '" << output->name << "' is given twice as an output of the pipeline"
            << " (or two different outputs are both named '" << output->name << "')";
        output_names.push_back(output->name);
    }
    // Lowering may fill in default placements; it works on a copy of every Func so that the
    // user's Funcs keep exactly the schedule they were given (and their names: two Funcs with
    // one name are told apart in the copies).
    FunctionCopies copies = copy_with_distinct_names(outputs);
    Environment &env = copies.env;
    resolve_prefetch_targets(copies);
    apply_wrappers(env, output_names, copies);
    store_undef_points_only_in_outputs(env, output_names);
    FuncValueBounds value_bounds = compute_func_value_bounds(env);
    UseFuncValueBounds use_value_bounds(value_bounds);
    std::vector<std::string> order = realization_order(env, output_names);
    // The last stage is the output the pipeline ends with; the others wrap around it.
    const std::shared_ptr<FunctionContents> &output = env.at(order.back());
    std::vector<std::string> other_outputs;
    for (auto &n : output_names) {
        if (n != output->name) other_outputs.push_back(n);
    }
    place_outputs_at_root(env, output_names);
    if (options.breadth_first) make_breadth_first(env, output->name);
    add_outermost_loops(env);
    resolve_default_placements(env, order, output->name);
    check_specialization_conditions(env, output_names);
    timer.lap("find_and_place_funcs");

    Stmt s = step("schedule_functions", schedule_functions(env, order, output->name, other_outputs));
    s = step("inline_functions", inline_functions(s, env, output->name));
    check_constant_overflow(s);
    check_placement(s, env, other_outputs);
    timer.lap("check_placement");
    s = step("bounds_inference", bounds_inference(s, env, output->name, other_outputs));
    std::vector<std::string> notes;
    WarmupPlan warmup;
    SlidingDims sliding;
    s = step("sliding_window", sliding_window(s, env, &notes, &warmup, &sliding));
    s = step("warm_up_sliding_windows", warm_up_sliding_windows(s, warmup, notes));
    auto params = find_parameters(env, order);
    std::vector<const FunctionContents *> output_funcs{output.get()};
    for (auto &n : other_outputs) output_funcs.push_back(env.at(n).get());
    std::set<std::string> strided_buffers = buffers_with_strided_dim0(params, output_funcs);
    if (!options.without_checks) {
        std::vector<const FunctionContents *> in_user_order;  // for the messages
        for (auto &n : output_names) in_user_order.push_back(env.at(n).get());
        s = step("add_input_checks", add_input_checks(s, params, in_user_order));
        s = step("add_parameter_checks", add_parameter_checks(s, env, params));
    }
    s = step("remove_promises", remove_promises(s));
    s = step("simplify", simplify(s));
    if (!options.without_checks) s = step("add_bounds_overflow_checks", add_bounds_overflow_checks(s));
    auto result = [&](const Stmt &body) {
        LoweredPipeline p;
        p.name = name;
        p.body = body;
        for (auto &n : output_names) {
            const FunctionContents &f = *env.at(n);
            std::vector<Type> types = f.types();
            for (size_t i = 0; i < types.size(); i++) {
                std::string buffer = tuple_buffer_name(f.name, int(i), int(types.size()));
                p.outputs.push_back({buffer, types[i], f.dimensions()});
                if (f.output_host_alignment > 1) p.host_alignments[buffer] = f.output_host_alignment;
            }
        }
        for (auto &param : params) {
            if (param->is_buffer && param->host_alignment > 1) p.host_alignments[param->name] = param->host_alignment;
        }
        p.params = params;
        p.strided_buffers = strided_buffers;
        p.notes = notes;
        return p;
    };
    s = step("inject_prefetches", inject_prefetches(s, output_names));
    if (options.stop_before_flattening) return result(s);
    s = step("storage_flattening", storage_flattening(s, env, strided_buffers));
    // After flattening: the addresses it makes from buffer fields get the constrained values.
    s = step("add_buffer_constraints", add_buffer_constraints(s, params, output_funcs));
    s = step("partition_loops", partition_loops(s, partition_policies(env)));
    s = step("bound_constant_extent_loops", bound_constant_extent_loops(s));
    s = step("unroll_loops", unroll_loops(s));
    s = step("vectorize_loops", vectorize_loops(s));
    s = step("unroll_clamped_loops", unroll_clamped_loops(s));
    s = step("simplify", simplify(s));
    // (After simplify: it folds the checks of inner loops' bounds that stand beside a guard.)
    s = step("hoist_store_guards", hoist_store_guards(s));
    s = step("hoist_invariant_ifs", hoist_invariant_ifs(s));
    s = step("define_tuple_output_fields", define_tuple_output_fields(s, output_funcs));
    s = step("prefetch_sliding_inputs", prefetch_sliding_inputs(s, sliding));
    std::vector<OutputBufferShape> output_buffers;
    for (const FunctionContents *f : output_funcs) {
        // (An output with updates is written by several stages, the later ones perhaps without
        // reading it: streaming stores are weakly ordered, even with later stores to the same
        // place, so those keep ordinary stores.)
        if (!f->updates.empty()) continue;
        int values = int(f->types().size());
        for (int i = 0; i < values; i++) output_buffers.push_back({tuple_buffer_name(f->name, i, values), f->dimensions()});
    }
    s = step("nontemporal_output_stores", nontemporal_output_stores(s, output_buffers, strided_buffers));
    return result(s);
}

}  // namespace

// Lowering recurses over the IR: it runs on a stack sized for deep programs.
LoweredPipeline lower(const std::vector<std::shared_ptr<FunctionContents>> &outputs, const std::string &name,
                      const LowerOptions &options) {
    internal_assert(!outputs.empty()) << "lowering a pipeline without outputs";
    LoweredPipeline result;
    run_with_large_stack([&] { result = lower_on_this_stack(outputs, name, options); });
    return result;
}

LoweredPipeline lower(const std::shared_ptr<FunctionContents> &output, const std::string &name,
                      const LowerOptions &options) {
    return lower(std::vector<std::shared_ptr<FunctionContents>>{output}, name, options);
}

}  // namespace halo
