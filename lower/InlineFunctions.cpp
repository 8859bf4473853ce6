#include "InlineFunctions.h"

#include <map>

#include "CSE.h"
#include "IREquality.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"

namespace halo {

namespace {

// A call of an inlined Func, by name and arguments (compared structurally).
struct CallKey {
    std::string name;
    int value_index;
    std::vector<Expr> args;
    bool operator<(const CallKey &o) const {
        if (name != o.name) return name < o.name;
        if (value_index != o.value_index) return value_index < o.value_index;
        if (args.size() != o.args.size()) return args.size() < o.args.size();
        for (size_t i = 0; i < args.size(); i++) {
            if (int c = compare_expr(args[i], o.args[i])) return c < 0;
        }
        return false;
    }
};

class Inliner : public IRMutator {
public:
    Inliner(const Environment &env, const std::string &output) : env_(env), output_(output) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    // An inlined value is pasted into its consumer by reference, so a chain of inlined Funcs
    // builds a graph whose tree is exponentially larger than it is: walking it again as a tree
    // (the inlined body is mutated after its arguments are substituted, and the arguments are
    // already inlined) would take exponential time. Each node is mutated once per definition.
    Expr mutate(const Expr &e) override {
        return mutated_.get(e, [&](const Expr &once) { return IRMutator::mutate(once); });
    }

    Expr visit(const Call *op) override {
        Expr call = IRMutator::visit(op);
        if (op->call_type != Call::Halo || op->name == output_) return call;
        const FunctionContents &f = *env_.at(op->name);
        if (!f.schedule.compute_level.is_inline()) return call;
        internal_assert(f.updates.empty()) << "inlining Func with updates: " << f.name;
        user_assert(f.pure.specializations.empty() && !f.pure.fails_unspecialized)
            << "Func '" << f.name << "' is specialized (specialize or specialize_fail) but computed inline, "
            << "where it has no loops of its own to specialize. Compute it somewhere (compute_root() or "
            << "compute_at) or specialize its consumer instead";
        // As in Halide, a loop directive on an inlined Func is a mistake, not something to drop.
        for (const Dim &d : f.pure.schedule.dims) {
            user_assert(d.for_type == ForType::Serial)
                << "Func '" << f.name << "': " << directive_name(d.for_type) << "(" << d.var
                << ") cannot apply because the Func is computed inline (into '" << current_consumer_
                << "'), where it has no loops of its own. Compute it somewhere (compute_root() or compute_at) or "
                << "remove the directive";
        }
        const Call *c = call.as<Call>();
        // The same point of an inlined Func is inlined once and shared: a chain of inlined
        // stencils reads each point of each stage many times, and expanding every read would
        // grow the expression exponentially with the chain's length.
        // Arguments are simplified first, so that p(x - 1) read through p(x + 1) is the
        // same point as p(x): (x - 1) + 1 and x must share one key. Large arguments (reads
        // that depend on other inlined values) are left as they are.
        std::vector<Expr> call_args = c->args;
        for (Expr &a : call_args) {
            if (tree_size_below(a, 256)) a = simplify(a);
        }
        CallKey key{f.name, c->value_index, call_args};
        auto done = inlined_.find(key);
        if (done != inlined_.end()) return done->second;
        std::map<std::string, Expr> args;
        for (size_t i = 0; i < f.args.size(); i++) args[f.args[i]] = call_args[i];
        // The inlined body may call further inlined Funcs.
        Expr value = mutate(substitute(args, f.pure.values[size_t(c->value_index)]));
        if (inlined_.size() >= kMaxInlinedPoints) {
            throw CompileError("Inlining Func '" + f.name + "' into its consumers needs more than " +
                               std::to_string(kMaxInlinedPoints) +
                               " distinct points of inlined Funcs in one definition. Schedule some of "
                               "them with compute_root() or compute_at() instead of inlining them.");
        }
        inlined_.emplace(std::move(key), value);
        return value;
    }

    // Each stage's value is lifted on its own: the shared points become Lets.
    Stmt visit(const Provide *op) override {
        inlined_.clear();
        mutated_.clear();
        current_consumer_ = op->name;
        std::vector<Expr> values;
        for (auto &v : op->values) values.push_back(common_subexpression_elimination(mutate(v)));
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        return Provide::make(op->name, values, args, op->atomic);
    }

private:
    const Environment &env_;
    const std::string &output_;
    std::map<CallKey, Expr> inlined_;
    MutationMemo mutated_;
    std::string current_consumer_;  // the Func whose definition is being inlined into
    // Beyond this the lowered code would be too large to compile in reasonable time anyway.
    static constexpr size_t kMaxInlinedPoints = 20000;
};

}  // namespace

Stmt inline_functions(const Stmt &s, const Environment &env, const std::string &output) {
    return Inliner(env, output).mutate(s);
}

}  // namespace halo
