// Runs the compiler on a thread with a large stack. Compiler passes walk expressions
// recursively, and a user may write (or inlining may build) expressions thousands of levels
// deep; the default 8 MiB stack of the calling thread is not enough for those.
#pragma once

#include <functional>

namespace halo {

// Calls fn on a thread with a 256 MiB stack (or directly, when already on one) and rethrows
// whatever it throws. Blocks until fn returns.
void run_with_large_stack(const std::function<void()> &fn);

}  // namespace halo
