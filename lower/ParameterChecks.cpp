#include "ParameterChecks.h"

#include <set>

#include "Simplify.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

std::string stage_name(const std::string &func, int stage) {
    return stage == 0 ? func : func + ".update(" + std::to_string(stage - 1) + ")";
}

Expr widen(const Expr &e) { return Cast::make(Int(64), e); }

}  // namespace

Stmt add_parameter_checks(const Stmt &s, const Environment &env) {
    std::vector<Stmt> checks;
    std::set<const ReductionDomainContents *> rdoms_seen;
    for (auto &[name, f] : env) {
        for (int k = 0; k < f->stages(); k++) {
            const Definition &def = f->stage(k);
            for (const Split &sp : def.schedule.splits) {
                if (sp.kind != Split::SplitVar || is_const(simplify(sp.factor))) continue;
                Expr msg = Call::make(Int(32), "halo_error_split_factor",
                                      {StringImm::make(stage_name(name, k)), StringImm::make(sp.old_var), sp.factor},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(sp.factor > 0, msg));
            }
            if (!def.rdom || !rdoms_seen.insert(def.rdom.get()).second) continue;
            for (auto &rv : def.rdom->vars) {
                // In 64 bits, so the check itself cannot wrap.
                Expr last = simplify(widen(rv.min) + widen(rv.extent) - Expr(int64_t(1)));
                Expr ok = rv.extent <= 0 || last <= Expr(int64_t(INT32_MAX));
                if (is_one(simplify(ok))) continue;
                Expr msg = Call::make(Int(32), "halo_error_rdom_overflow",
                                      {StringImm::make(stage_name(name, k)), StringImm::make(rv.name), rv.min, rv.extent},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(ok, msg));
            }
        }
    }
    if (checks.empty()) return s;
    checks.push_back(s);
    return Block::make(checks);
}

}  // namespace halo
