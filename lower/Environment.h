// The Funcs a pipeline consists of, and the order in which they are realized.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dsl/Function.h"
#include "dsl/Parameter.h"

namespace halo {

using Environment = std::map<std::string, std::shared_ptr<FunctionContents>>;

// Every Func the output depends on (and the output), by name.
Environment find_functions(const std::shared_ptr<FunctionContents> &output);

// The Funcs in an order where every Func comes after the Funcs it calls. The last is an output
// no other output reads (the pipeline's last stage).
std::vector<std::string> realization_order(const Environment &env, const std::vector<std::string> &outputs);

// Funcs called by each definition of f (directly).
std::vector<std::string> direct_calls(const FunctionContents &f);
// Funcs called by one definition (stage) of f (directly).
std::vector<std::string> stage_calls(const FunctionContents &f, int stage);

// Scalar Params and image inputs the pipeline reads, in the order first met.
std::vector<std::shared_ptr<ParameterContents>> find_parameters(const Environment &env,
                                                                const std::vector<std::string> &order);

}  // namespace halo
