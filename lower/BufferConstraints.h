// The constraints users put on the buffers a pipeline reads and writes (ImageParam::dim(d).
// set_min/set_extent/set_stride, Func::output_buffer().dim(d)...): a run-time check of each,
// before anything runs, that names the buffer, the field and the directive; after the checks
// the constrained fields are replaced by the required values, so the compiler knows them (a
// constant stride or min simplifies every address).
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dsl/Function.h"
#include "dsl/IR.h"
#include "dsl/Parameter.h"

namespace halo {

// Whether a Buffer used directly in the algorithm (not through an ImageParam) has a dimension
// 0 that is not dense, an interleaved image say. Such a buffer has no constraints to set: the
// pipeline is compiled for its layout as it is when compiled (as Halide does), and a compiled
// pipeline whose fixed buffer changed between dense and strided since compiles again.
bool fixed_buffer_strided_dim0(const ParameterContents &p);

// The input and output buffers whose dimension 0 may have a stride other than 1: those whose
// dim(0).set_stride (output_buffer().dim(0).set_stride) was given something other than the
// constant 1 (Expr() for no constraint), and fixed buffers that are strided there.
std::set<std::string> buffers_with_strided_dim0(const std::vector<std::shared_ptr<ParameterContents>> &params,
                                                const std::vector<const FunctionContents *> &outputs);

Stmt add_buffer_constraints(const Stmt &s, const std::vector<std::shared_ptr<ParameterContents>> &params,
                            const std::vector<const FunctionContents *> &outputs);

}  // namespace halo
