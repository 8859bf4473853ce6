// What a Func is inside: its pure definition, update definitions, and schedule.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "IR.h"
#include "Schedule.h"

namespace halo {

struct ReductionVariable {
    std::string name;
    Expr min, extent;
};

struct ReductionDomainContents {
    std::string name;
    std::vector<ReductionVariable> vars;
};

struct Definition {
    std::vector<Expr> args;  // pure definition: the pure Vars; updates: any Exprs
    Expr value;
    std::shared_ptr<ReductionDomainContents> rdom;  // updates over an RDom
    StageSchedule schedule;
};

class Pipeline;

// Bumped by every change to any definition or schedule, so compiled pipelines know when to recompile.
extern std::atomic<uint64_t> definition_generation;

struct FunctionContents {
    std::string name;
    std::vector<std::string> args;  // the pure Vars' names, dimension 0 first
    bool has_pure_definition = false;
    Definition pure;
    std::vector<Definition> updates;
    FuncSchedule schedule;
    std::shared_ptr<Pipeline> pipeline;  // compiled pipeline with this Func as output

    Type type() const { return pure.value.type(); }
    int dimensions() const { return int(args.size()); }
    int stages() const { return 1 + int(updates.size()); }
    const Definition &stage(int i) const { return i == 0 ? pure : updates[i - 1]; }
    Definition &stage(int i) { return i == 0 ? pure : updates[i - 1]; }
    static void changed() { definition_generation++; }
};

}  // namespace halo
