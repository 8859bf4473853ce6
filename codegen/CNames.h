// Names that ahead-of-time compilation declares in C: the generated function (and its files,
// lib<name>.a and <name>.h) must be callable from C and C++ and must not collide with anything
// the program links.
#pragma once

#include <string>
#include <vector>

namespace halo {

// "" if `name` can be the generated function's name, else why not (for an error message):
// not a C identifier, a C or C++ keyword, main, reserved for the C implementation (leading
// "__" or "_" and a capital), or starting with "halo_" (the Halo runtime's prefix).
std::string why_not_function_name(const std::string &name);

// Throws CompileError naming `name` and the reason if it cannot be the function's name.
void check_function_name(const std::string &name);

// The generated function's parameter names in its header, one per argument name, in order.
// A name that cannot be one is changed (the names only document the prototype): characters
// other than letters, digits and '_' become '_', a keyword or `context` (the _with_context
// entry point's first parameter) gets a trailing '_', a reserved or digit-led name a leading
// 'p', and a name an earlier parameter has a suffix _2, _3, ...
std::vector<std::string> c_parameter_names(const std::vector<std::string> &names);

}  // namespace halo
