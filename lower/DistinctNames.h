// Lowering's copies of a pipeline's Funcs, with distinct names.
//
// Halide lets two different Funcs have one name in a pipeline (a helper that makes
// Func("blur_y") called twice); everything after this step looks Funcs up by name. So the
// copies lowering works on are named apart: of the Funcs sharing a name, an output keeps it,
// else the one made first; the others become name$1, name$2, ... (skipping names the pipeline
// already has). An input's (Param's or ImageParam's) name is claimed before any Func's, as
// in Halide, where a Func made after ImageParam "foo" is named foo$1: a Func of that name
// is renamed too, unless it is an output (whose name names the caller's buffer argument;
// find_parameters refuses that clash). Every reference in the copies follows by identity: calls (in values, update
// arguments, RDom predicates, specialization conditions, split factors and bounds) and
// compute_at/store_at levels made from a Func (Func::in wrappers belong to their consumer
// Funcs already, see WrapperSet). The user's Funcs are never changed: a renaming that outlived
// this lowering would leave calls elsewhere bound to the wrong Func. A reference by name alone
// that cannot tell the Funcs apart (a LoopLevel GeneratorParam "g.x") is a user error naming it.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Environment.h"
#include "dsl/Function.h"

namespace halo {

struct FunctionCopies {
    Environment env;  // the copies, by their names (distinct)
    // The name each of the user's Funcs (by identity) has in env, and back.
    std::map<const FunctionContents *, std::string> name_of;
    Environment originals;  // the user's Funcs, by their copies' names

    // The name in env of one of the user's Funcs, or null if it is not one of the pipeline's.
    const std::string *find_name(const FunctionContents *original) const;
    // The same, for one that must be (an internal error if not).
    const std::string &name_in_copies(const FunctionContents *original) const;
    // The user's Func a copy was made from (an internal error for another name).
    const FunctionContents *original_of(const std::string &name) const;
};

FunctionCopies copy_with_distinct_names(const std::vector<std::shared_ptr<FunctionContents>> &outputs);

}  // namespace halo
