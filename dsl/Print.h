// print and print_when (Halide's): an Expr that prints its arguments each time it is evaluated
// and has the value of the first. Debugging aids: a loop containing one runs lane by lane (not
// vectorized), so its lines come in the order of the points. Lines go to stderr, or to the
// handler set with halo_set_print_handler (runtime/HaloRuntime.h).
#pragma once

#include <string>
#include <vector>

#include "IR.h"

namespace halo {

// Exprs of numbers and StringImms; the first must be a number.
Expr print(const std::vector<Expr> &args);
// Prints only where condition holds; the value of args[0] either way.
Expr print_when(Expr condition, const std::vector<Expr> &args);

namespace detail {
inline Expr print_arg(const Expr &e) { return e; }
inline Expr print_arg(const char *s) { return StringImm::make(s); }
inline Expr print_arg(const std::string &s) { return StringImm::make(s); }
}  // namespace detail

// print(f(x), "at", x): strings, Exprs and numbers in any order after the first.
template <typename... Args>
Expr print(const Expr &first, Args &&...rest) {
    return print(std::vector<Expr>{first, detail::print_arg(rest)...});
}
template <typename... Args>
Expr print_when(Expr condition, const Expr &first, Args &&...rest) {
    return print_when(std::move(condition), std::vector<Expr>{first, detail::print_arg(rest)...});
}

}  // namespace halo
