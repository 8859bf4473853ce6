#include "Require.h"

#include <sstream>

#include "Error.h"
#include "IRPrinter.h"
#include "IRVisitor.h"

namespace halo {

Expr require(Expr condition, const std::vector<Expr> &values) {
    user_assert(condition.defined() && condition.type().is_bool())
        << "require(" << condition << ", ...): the condition must be a boolean Expr";
    user_assert(!values.empty() && values[0].defined()) << "require(" << condition << ", ...) needs a value";
    user_assert(!values[0].as<StringImm>())
        << "require(" << condition << ", \"" << values[0].as<StringImm>()->value
        << "\", ...): the first argument after the condition is the value the expression has, so it must "
        << "be a number; put the message after it";
    user_assert(condition.type().is_scalar() || condition.type().lanes() == values[0].type().lanes())
        << "require(" << condition << ", " << values[0] << "): a vector condition needs a value of its lanes";
    for (size_t i = 1; i < values.size(); i++) {
        user_assert(values[i].defined()) << "require(" << condition << ", ...): message argument " << i
                                         << " is undefined";
        user_assert(values[i].as<StringImm>() || values[i].type().lanes() == values[0].type().lanes() ||
                    values[i].type().is_scalar())
            << "require(" << condition << ", ...): message argument " << values[i]
            << " must be a string, a scalar, or a vector of the value's lanes";
    }
    std::ostringstream printed;
    printed << condition;
    std::string text = printed.str();
    // "(p > 0)" loses the printer's outer parentheses: the message puts its own around it.
    if (text.size() > 2 && text.front() == '(' && text.back() == ')') {
        int depth = 0;
        bool outer = true;
        for (size_t i = 0; i + 1 < text.size(); i++) {
            depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0;
            outer &= depth > 0;
        }
        if (outer) text = text.substr(1, text.size() - 2);
    }
    std::vector<Expr> args{condition, values[0], StringImm::make(text), StringImm::make("")};
    args.insert(args.end(), values.begin() + 1, values.end());
    return Call::make(values[0].type(), Call::require, args, Call::Intrinsic);
}

namespace internal {

Expr name_requirements(const Expr &e, const std::string &func) {
    struct Namer : IRMutator {
        const std::string &func;
        explicit Namer(const std::string &f) : func(f) {}
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            Expr m = IRMutator::visit(op);
            const Call *c = m.as<Call>();
            if (!c->is_intrinsic(Call::require)) return m;
            const StringImm *named = c->args[3].as<StringImm>();
            if (!named || !named->value.empty()) return m;
            std::vector<Expr> args = c->args;
            args[3] = StringImm::make(func);
            return Call::make(c->type, c->name, args, c->call_type);
        }
    } namer(func);
    return namer.mutate(e);
}

}  // namespace internal
}  // namespace halo
