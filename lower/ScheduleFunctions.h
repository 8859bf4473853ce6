// Builds the loop nest of every Func from its schedule and places each Func's realization
// at its store and compute levels. Loop bounds are left as symbols (f.s0.x.min, ...) for
// bounds inference to define.
#pragma once

#include "Environment.h"
#include "dsl/IR.h"

namespace halo {

// The loop nest of one stage of f, with loop variables named "<f>.s<stage>.<var>".
Stmt build_stage(const FunctionContents &f, int stage);

// Does s call Func name?
bool stmt_calls(const Stmt &s, const std::string &name);

// The whole pipeline's loop nest: the output's stages, with every non-inlined Func placed.
// other_outputs (computed at the root) write buffers of the caller's, not realizations.
Stmt schedule_functions(const Environment &env, const std::vector<std::string> &order,
                        const std::string &output, const std::vector<std::string> &other_outputs = {});

// Checks that every use of a Func is inside its realization and that a Func computed at a
// loop is used there. Run after inlining.
// The pipeline's other outputs (besides its last stage) need not be used.
void check_placement(const Stmt &s, const Environment &env, const std::vector<std::string> &other_outputs);

// Gives Funcs with update definitions that were left inlined a place to be computed: the
// innermost loop of their only consumer, or the root if several Funcs consume them.
void resolve_default_placements(const Environment &env, const std::vector<std::string> &order,
                                const std::string &output);

// The name of Var::outermost(): a loop of one iteration around all of a stage's loops.
inline constexpr const char *kOutermost = "__outermost";
// Where a reduction without a placement goes in a specialized consumer: a loop of one
// iteration innermost in every branch.
inline constexpr const char *kInnermost = "__innermost";

// Gives every stage of a Func that another is computed or stored at Var::outermost() that loop.
void add_outermost_loops(const Environment &env);

// Symbol names shared with bounds inference.
inline std::string stage_prefix(const std::string &f, int stage) {
    return f + ".s" + std::to_string(stage) + ".";
}

}  // namespace halo
