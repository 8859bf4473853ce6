#include "Print.h"

#include "Error.h"
#include "IRPrinter.h"

namespace halo {

namespace {
void check_print_args(const char *name, const std::vector<Expr> &args) {
    user_assert(!args.empty() && args[0].defined()) << name << "() needs a value to print first";
    user_assert(!args[0].as<StringImm>())
        << name << "(\"" << args[0].as<StringImm>()->value << "\", ...): the first argument is the value the "
        << "expression has, so it must be a number; put the string after it";
    for (auto &a : args) {
        user_assert(a.defined()) << name << "() of an undefined Expr";
        user_assert(a.as<StringImm>() || a.type().is_scalar())
            << name << "(" << a << "): only scalar values and strings can be printed";
    }
}
}  // namespace

Expr print(const std::vector<Expr> &args) {
    check_print_args("print", args);
    return Call::make(args[0].type(), Call::print, args, Call::Intrinsic);
}

Expr print_when(Expr condition, const std::vector<Expr> &args) {
    check_print_args("print_when", args);
    user_assert(condition.defined() && condition.type().is_bool() && condition.type().is_scalar())
        << "print_when(" << condition << ", ...): the condition must be a boolean";
    std::vector<Expr> all{std::move(condition)};
    all.insert(all.end(), args.begin(), args.end());
    return Call::make(args[0].type(), Call::print_when, all, Call::Intrinsic);
}

}  // namespace halo
