// Prints any IR node as readable text (the lowered loop nest looks like Halide's Stmt).
#pragma once

#include <ostream>
#include <string>

#include "IR.h"

namespace halo {

std::ostream &operator<<(std::ostream &os, const Expr &e);
std::ostream &operator<<(std::ostream &os, const Stmt &s);
std::ostream &operator<<(std::ostream &os, const Type &t);
std::string to_string(const Expr &e);
std::string to_string(const Stmt &s);

}  // namespace halo
