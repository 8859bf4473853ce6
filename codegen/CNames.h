// Names that ahead-of-time compilation declares in C: the generated function (and its files,
// lib<name>.a and <name>.h) must be callable from C and C++ and must not collide with anything
// the program links.
#pragma once

#include <string>

namespace halo {

// "" if `name` can be the generated function's name, else why not (for an error message):
// not a C identifier, a C or C++ keyword, main, reserved for the C implementation (leading
// "__" or "_" and a capital), or starting with "halo_" (the Halo runtime's prefix).
std::string why_not_function_name(const std::string &name);

// Throws CompileError naming `name` and the reason if it cannot be the function's name.
void check_function_name(const std::string &name);

}  // namespace halo
