// The names of the pure Vars, RVars and Funcs an Expr refers to (for the checks of a Func's
// definitions and for inline reductions).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "Function.h"
#include "IRVisitor.h"

namespace halo {
namespace internal {

struct FreeNames : IRVisitor {
    std::vector<std::string> vars;
    std::vector<const Variable *> rvars;
    std::vector<const Call *> func_calls;
    void visit(const Variable *op) override {
        if (op->param) return;
        if (op->rdom) {
            rvars.push_back(op);
            // A definition over an RDom also reads what the RDom's predicates read.
            if (std::find(domains_.begin(), domains_.end(), op->rdom.get()) == domains_.end()) {
                domains_.push_back(op->rdom.get());
                const ReductionDomainContents *outer = in_predicates_of_;
                in_predicates_of_ = op->rdom.get();
                for (auto &p : op->rdom->predicates) p.accept(this);
                in_predicates_of_ = outer;
            }
        } else if (in_predicates_of_ && is_rvar_of(*in_predicates_of_, op->name)) {
            // The RDom's own RVars in its predicates (stored without the RDom: see RDom::where).
        } else if (std::find(vars.begin(), vars.end(), op->name) == vars.end()) {
            vars.push_back(op->name);
        }
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Halo) func_calls.push_back(op);
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        op->body.accept(this);
        vars.erase(std::remove(vars.begin(), vars.end(), op->name), vars.end());
    }

private:
    std::vector<const ReductionDomainContents *> domains_;
    const ReductionDomainContents *in_predicates_of_ = nullptr;
    static bool is_rvar_of(const ReductionDomainContents &d, const std::string &name) {
        for (auto &rv : d.vars) {
            if (rv.name == name) return true;
        }
        return false;
    }
};

}  // namespace internal
}  // namespace halo
