// The list of lowering passes, in order. Each pass is a function from IR to IR in a file of
// its own; this file only sequences them and dumps the IR between them on request.
#include "Lower.h"

#include <cstdlib>
#include <iostream>

#include "BoundsInference.h"
#include "BoundsOverflowChecks.h"
#include "BufferConstraints.h"
#include "Environment.h"
#include "InlineFunctions.h"
#include "InputChecks.h"
#include "LargeStack.h"
#include "PartitionLoops.h"
#include "RemovePromises.h"
#include "ScheduleFunctions.h"
#include "Simplify.h"
#include "ParameterChecks.h"
#include "PassTiming.h"
#include "StorageFlattening.h"
#include "UnrollLoops.h"
#include "VectorizeLoops.h"
#include "Wrappers.h"
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

// Every Func that is not inlined goes to the root, with the default loops of each stage.
void make_breadth_first(Environment &env, const std::string &output) {
    for (auto &[name, f] : env) {
        bool inlined = f->schedule.compute_level.is_inline() && f->updates.empty() && name != output;
        if (!inlined && name != output) {
            f->schedule.compute_level = LoopLevel::root();
            f->schedule.store_level = LoopLevel::root();
        }
        for (int k = 0; k < f->stages(); k++) reset_schedule(*f, k, f->stage(k));
    }
}

LoweredPipeline lower_on_this_stack(const std::shared_ptr<FunctionContents> &output, const std::string &name,
                                    const LowerOptions &options) {
    const char *dump_env = std::getenv("HALO_DUMP_IR");
    bool dump = dump_env && *dump_env && std::string(dump_env) != "0";
    PassTimer timer(name);
    auto step = [&](const char *pass, Stmt s) {
        timer.lap(pass);
        if (dump) std::cerr << "==== " << name << " after " << pass << ":\n" << s << "\n";
        return s;
    };

    // Lowering may fill in default placements; it works on a copy of every Func so that the
    // user's Funcs keep exactly the schedule they were given.
    Environment env;
    for (auto &[n, f] : find_functions(output)) {
        env[n] = std::make_shared<FunctionContents>(*f);
        env[n]->pipeline.reset();  // the copies' IR must not own a compiled pipeline
    }
    apply_wrappers(env, output->name);
    std::vector<std::string> order = realization_order(env, output->name);
    if (options.breadth_first) make_breadth_first(env, output->name);
    add_outermost_loops(env);
    resolve_default_placements(env, order, output->name);
    check_specialization_conditions(env, output->name);
    timer.lap("find_and_place_funcs");

    Stmt s = step("schedule_functions", schedule_functions(env, order, output->name));
    s = step("inline_functions", inline_functions(s, env, output->name));
    check_constant_overflow(s);
    check_placement(s, env, output->name);
    timer.lap("check_placement");
    s = step("bounds_inference", bounds_inference(s, env, output->name));
    auto params = find_parameters(env, order);
    s = step("add_input_checks", add_input_checks(s, params, *env.at(output->name)));
    s = step("add_parameter_checks", add_parameter_checks(s, env));
    s = step("remove_promises", remove_promises(s));
    s = step("simplify", simplify(s));
    s = step("add_bounds_overflow_checks", add_bounds_overflow_checks(s));
    auto result = [&](const Stmt &body) {
        LoweredPipeline p;
        p.name = name;
        p.body = body;
        p.output_func = output->name;
        std::vector<Type> types = output->types();
        for (size_t i = 0; i < types.size(); i++) {
            p.outputs.push_back({tuple_buffer_name(output->name, int(i), int(types.size())), types[i], output->dimensions()});
        }
        p.params = params;
        return p;
    };
    if (options.stop_before_flattening) return result(s);
    s = step("storage_flattening", storage_flattening(s, env, output->name));
    // After flattening: the addresses it makes from buffer fields get the constrained values.
    s = step("add_buffer_constraints", add_buffer_constraints(s, params, *env.at(output->name)));
    s = step("partition_loops", partition_loops(s));
    s = step("unroll_loops", unroll_loops(s));
    s = step("vectorize_loops", vectorize_loops(s));
    s = step("simplify", simplify(s));
    s = step("define_tuple_output_fields", define_tuple_output_fields(s, *env.at(output->name)));
    return result(s);
}

}  // namespace

// Lowering recurses over the IR: it runs on a stack sized for deep programs.
LoweredPipeline lower(const std::shared_ptr<FunctionContents> &output, const std::string &name,
                      const LowerOptions &options) {
    LoweredPipeline result;
    run_with_large_stack([&] { result = lower_on_this_stack(output, name, options); });
    return result;
}

}  // namespace halo
