// What the branch of a specialization knows from its condition (and from the failed
// conditions of the specializations tested before it), applied to the branch's definition:
// select(p, a, b) specialized on p becomes a, so that bounds inference sees a alone, as
// Halide's specializations do.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/Function.h"

namespace halo {

struct KnownInBranch {
    // Params of known value: a bool Param tested, p == constant.
    std::map<std::string, Expr> params;
    // Conditions of known truth value, replaced wherever the definition repeats them.
    std::vector<std::pair<Expr, Expr>> conditions;
    // Integer Params known to lie in [lo, hi] (p > 73 gives [74, +inf)), deciding the
    // comparisons of the Param with constants it implies (p > 50 is then true).
    std::map<std::string, std::pair<std::optional<int64_t>, std::optional<int64_t>>> ranges;
};

// Adds what knowing that cond is `holds` tells.
void learn_from_condition(const Expr &cond, bool holds, KnownInBranch &known);

// The definition with what is known substituted into its values and arguments.
Definition with_known(const Definition &def, const KnownInBranch &known);

}  // namespace halo
