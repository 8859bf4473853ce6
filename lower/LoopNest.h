// The loop nest of a lowered pipeline as Halide's Func::print_loop_nest shows it: which Func
// is produced where, and its loops with their kinds, without the bounds, checks and
// expressions of the full lowered statement:
//   produce blur_y:
//     parallel blur_y.s0.y.yo:
//       ...
//         vectorized blur_y.s0.x.xi:
//           blur_y(...) = ...
#pragma once

#include <string>

#include "dsl/IR.h"

namespace halo {

std::string loop_nest_text(const Stmt &s);

}  // namespace halo
