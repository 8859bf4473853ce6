// Evaluates integer index expressions (loop bounds, regions, buffer fields) once the variables
// they name are known, wrapping as compiled code does. Used before anything runs: by the
// redundancy report (to count points) and by input bounds inference (to size inputs).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "dsl/IR.h"

namespace halo {

using IntEnvironment = std::map<std::string, int64_t>;

struct IntEvaluation {
    std::optional<int64_t> value;
    // Why there is no value: the first variable not in the environment (empty if the
    // expression has a node this evaluator does not handle, such as a load or a float).
    std::string unknown_variable;
};

IntEvaluation evaluate_int(const Expr &e, const IntEnvironment &env);

}  // namespace halo
