// Halide's require(): a value that is only valid where a condition holds. Where it fails, the
// pipeline stops with a run-time error (halo_error_code_requirement_failed, or a RuntimeError
// from realize()) whose message is "Requirement Failed: (condition) message...", naming the
// Func that evaluated it.
#pragma once

#include <string>
#include <vector>

#include "IR.h"
#include "Print.h"

namespace halo {

// values[0] is the value; the rest (numbers and strings) make the error message.
Expr require(Expr condition, const std::vector<Expr> &values);

// require(p > 0, p, "p must be positive, but is", p).
template <typename... Args>
Expr require(Expr condition, const Expr &value, Args &&...message) {
    return require(std::move(condition), std::vector<Expr>{value, detail::print_arg(message)...});
}

namespace internal {
// The require() calls of a definition of Func `func`, made to name it in their messages.
Expr name_requirements(const Expr &e, const std::string &func);
}  // namespace internal

}  // namespace halo
