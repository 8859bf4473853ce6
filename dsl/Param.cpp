// The ranges of scalar Params (Param<T>::set_range and its parts).
#include "Param.h"

#include "Error.h"
#include "IRPrinter.h"
#include "lower/Simplify.h"

namespace halo {

void set_param_bound(ParameterContents &p, const Expr &bound, bool is_max) {
    const char *which = is_max ? "set_max_value" : "set_min_value";
    Expr b;
    if (bound.defined()) {
        user_assert(bound.type().is_scalar() && !bound.type().is_bool())
            << "Param '" << p.name << "': " << which << "(" << bound << "): the bound must be a number";
        b = simplify(cast(p.type, bound));
        user_assert(is_const(b))
            << "Param '" << p.name << "': " << which << "(" << bound << "): the bound must be a constant "
            << "(it is checked against the value when the pipeline runs)";
    }
    std::lock_guard<std::mutex> lock(p.mutex);
    (is_max ? p.max_value : p.min_value) = b;
    p.constraints_version++;  // pipelines compiled with the old range recompile
}

}  // namespace halo
