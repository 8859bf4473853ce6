// The Funcs a pipeline consists of, and the order in which they are realized.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dsl/Function.h"
#include "dsl/Parameter.h"

namespace halo {

using Environment = std::map<std::string, std::shared_ptr<FunctionContents>>;

// Every Func the outputs depend on (and the outputs, first), by identity: two different Funcs
// may have one name (lowering's copies tell them apart, DistinctNames.h).
std::vector<std::shared_ptr<FunctionContents>> pipeline_functions(
    const std::vector<std::shared_ptr<FunctionContents>> &outputs);

// Applies fn to every Expr of every definition of f (values, args, RDom bounds and predicates,
// split factors, specializations), and of its bounds.
void for_each_expr(const FunctionContents &f, const std::function<void(const Expr &)> &fn);

// The Funcs in an order where every Func comes after the Funcs it calls. The last is an output
// no other output reads (the pipeline's last stage).
std::vector<std::string> realization_order(const Environment &env, const std::vector<std::string> &outputs);

// Funcs called by each definition of f (directly).
std::vector<std::string> direct_calls(const FunctionContents &f);
// Funcs called by one definition (stage) of f (directly).
std::vector<std::string> stage_calls(const FunctionContents &f, int stage);
// Funcs called by one branch of a stage of f: the definition d, without its specializations
// (a specialization rfactored calls an intermediate the others do not).
std::vector<std::string> definition_calls(const FunctionContents &f, const Definition &d);

// The Params and image inputs (and embedded Buffers) the Funcs read, each once, in the order met.
std::vector<std::shared_ptr<ParameterContents>> parameters_read(const std::vector<std::shared_ptr<FunctionContents>> &funcs);
// The names of the Params and image inputs the Funcs read.
std::set<std::string> parameter_names(const std::vector<std::shared_ptr<FunctionContents>> &funcs);

// Scalar Params and image inputs the pipeline reads, in the order first met.
std::vector<std::shared_ptr<ParameterContents>> find_parameters(const Environment &env,
                                                                const std::vector<std::string> &order);

}  // namespace halo
