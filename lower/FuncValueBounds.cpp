#include "FuncValueBounds.h"

#include <set>

#include "CSE.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/Func.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// Whether a bound is an expression the caller can evaluate anywhere in the pipeline: made of
// constants and Params only (not of the Func's own Vars, lets, RVars, or reads of Funcs and
// images, and not of undef(), which is no value at all).
class UsableAnywhere : public IRVisitor {
public:
    bool ok = true;
    using IRVisitor::visit;
    void visit(const Variable *op) override { ok &= op->param != nullptr; }
    void visit(const Call *op) override {
        ok &= op->call_type == Call::Extern || op->call_type == Call::ExternC ||
              (op->call_type == Call::Intrinsic && !op->is_intrinsic(Call::undef));
        IRVisitor::visit(op);
    }
    void visit(const Let *op) override { ok = false; }
};

bool usable_anywhere(const Expr &e) {
    UsableAnywhere u;
    e.accept(&u);
    return u.ok;
}

// An end of a value's interval as the callers use it, or undefined (no bound) where it is
// not usable anywhere, or is no use: an int32 or int64 sum that overflows (undefined
// behaviour) is left unfolded, and a chain of Funcs each adding two reads of the one before
// it (Halide's sliding_window_cascade) would double it with every Func; a graph that large as
// a tree is not simplified at all.
Expr usable_end(const Expr &end) {
    if (!end.defined() || expr_shape(end).tree_size > 256) return Expr();
    Expr e = simplify(end);
    if (!usable_anywhere(e)) return Expr();
    std::set<std::string> names;
    collect_variables(e, names);
    bool overflowed = names.empty() && !is_const(e);  // constants only, yet not folded
    return overflowed ? Expr() : e;
}

class ValueBoundsFinder {
public:
    explicit ValueBoundsFinder(const Environment &env) : env_(env) {}

    FuncValueBounds run() {
        for (auto &[name, f] : env_) find(*f);
        return bounds_;
    }

private:
    const Environment &env_;
    FuncValueBounds bounds_;
    std::set<std::string> done_;

    // The Funcs a definition reads are bounded first, so that their bounds are used in it.
    void find(const FunctionContents &f) {
        if (!done_.insert(f.name).second) return;
        for (auto &callee : direct_calls(f)) {
            auto it = env_.find(callee);
            if (it != env_.end()) find(*it->second);
        }
        // An update may store any value (a scan, a histogram): no bounds from the pure
        // definition alone. Nor for an output whose pure definition stores nothing somewhere
        // (undef()): its buffer keeps whatever the caller put there.
        if (!f.updates.empty() || f.pure.store_condition.defined()) return;
        Scope every_argument;
        for (auto &a : f.args) every_argument[a] = Interval();
        UseFuncValueBounds known(bounds_);
        for (size_t i = 0; i < f.pure.values.size(); i++) {
            const Expr &value = f.pure.values[i];
            // undef() in a pure definition stores nothing (zero) where chosen: no bounds.
            if (uses_undef(value)) continue;
            Interval r = bounds_of_expr_in_scope(value, every_argument);
            r.min = usable_end(r.min);
            r.max = usable_end(r.max);
            if (r.min.defined() || r.max.defined()) bounds_[{f.name, int(i)}] = r;
        }
    }
};

}  // namespace

FuncValueBounds compute_func_value_bounds(const Environment &env) { return ValueBoundsFinder(env).run(); }

}  // namespace halo
