#include "SplitFactorChecks.h"

#include "Simplify.h"
#include "dsl/IROperator.h"

namespace halo {

Stmt add_split_factor_checks(const Stmt &s, const Environment &env) {
    std::vector<Stmt> checks;
    for (auto &[name, f] : env) {
        for (int k = 0; k < f->stages(); k++) {
            for (const Split &sp : f->stage(k).schedule.splits) {
                if (sp.kind != Split::SplitVar || is_const(simplify(sp.factor))) continue;
                std::string stage = k == 0 ? name : name + ".update(" + std::to_string(k - 1) + ")";
                Expr msg = Call::make(Int(32), "halo_error_split_factor",
                                      {StringImm::make(stage), StringImm::make(sp.old_var), sp.factor},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(sp.factor > 0, msg));
            }
        }
    }
    if (checks.empty()) return s;
    checks.push_back(s);
    return Block::make(checks);
}

}  // namespace halo
