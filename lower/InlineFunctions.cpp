#include "InlineFunctions.h"

#include "Substitute.h"
#include "dsl/Error.h"

namespace halo {

namespace {

class Inliner : public IRMutator {
public:
    Inliner(const Environment &env, const std::string &output) : env_(env), output_(output) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Expr visit(const Call *op) override {
        Expr call = IRMutator::visit(op);
        if (op->call_type != Call::Halo || op->name == output_) return call;
        const FunctionContents &f = *env_.at(op->name);
        if (!f.schedule.compute_level.is_inline()) return call;
        internal_assert(f.updates.empty()) << "inlining Func with updates: " << f.name;
        const Call *c = call.as<Call>();
        std::map<std::string, Expr> args;
        for (size_t i = 0; i < f.args.size(); i++) args[f.args[i]] = c->args[i];
        // The inlined body may call further inlined Funcs.
        return mutate(substitute(args, f.pure.value));
    }

private:
    const Environment &env_;
    const std::string &output_;
};

}  // namespace

Stmt inline_functions(const Stmt &s, const Environment &env, const std::string &output) {
    return Inliner(env, output).mutate(s);
}

}  // namespace halo
