// The list of lowering passes, in order. Each pass is a function from IR to IR in a file of
// its own; this file only sequences them and dumps the IR between them on request.
#include "Lower.h"

#include <cstdlib>
#include <iostream>

#include "BoundsInference.h"
#include "Environment.h"
#include "InlineFunctions.h"
#include "InputChecks.h"
#include "PartitionLoops.h"
#include "ScheduleFunctions.h"
#include "Simplify.h"
#include "StorageFlattening.h"
#include "UnrollLoops.h"
#include "VectorizeLoops.h"
#include "dsl/IRPrinter.h"

namespace halo {

LoweredPipeline lower(const std::shared_ptr<FunctionContents> &output, const std::string &name) {
    const char *dump_env = std::getenv("HALO_DUMP_IR");
    bool dump = dump_env && *dump_env && std::string(dump_env) != "0";
    auto step = [&](const char *pass, Stmt s) {
        if (dump) std::cerr << "==== " << name << " after " << pass << ":\n" << s << "\n";
        return s;
    };

    // Lowering may fill in default placements; it works on a copy of every Func so that the
    // user's Funcs keep exactly the schedule they were given.
    Environment env;
    for (auto &[n, f] : find_functions(output)) env[n] = std::make_shared<FunctionContents>(*f);
    std::vector<std::string> order = realization_order(env, output->name);
    resolve_default_placements(env, order, output->name);

    Stmt s = step("schedule_functions", schedule_functions(env, order, output->name));
    s = step("inline_functions", inline_functions(s, env, output->name));
    check_placement(s, env, output->name);
    s = step("clamp_data_dependent_input_reads", clamp_data_dependent_input_reads(s));
    s = step("bounds_inference", bounds_inference(s, env, output->name));
    auto params = find_parameters(env, order);
    s = step("add_input_checks", add_input_checks(s, params, *env.at(output->name)));
    s = step("simplify", simplify(s));
    s = step("storage_flattening", storage_flattening(s, env, output->name));
    s = step("partition_loops", partition_loops(s));
    s = step("unroll_loops", unroll_loops(s));
    s = step("vectorize_loops", vectorize_loops(s));
    s = step("simplify", simplify(s));

    LoweredPipeline p;
    p.name = name;
    p.body = s;
    p.output = output;
    p.params = params;
    return p;
}

}  // namespace halo
