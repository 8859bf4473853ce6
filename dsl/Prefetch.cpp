// Stage::prefetch and Func::prefetch (Halide's): directives recorded on the stage's schedule;
// lower/Prefetch.cpp places the prefetches once the loops and the regions they read are known.
#include "Func.h"

namespace halo {

Stage &Stage::prefetch_buffer(const std::string &buffer, const std::shared_ptr<FunctionContents> &func,
                              const VarOrRVar &at, const VarOrRVar &from, Expr offset, PrefetchBoundStrategy strategy) {
    std::string directive = "prefetch(" + buffer + ", " + at.name() + ", " + from.name() + ", ...)";
    user_assert(offset.defined()) << describe() << ": " << directive << " with an undefined offset";
    user_assert(offset.type().is_int() || offset.type().is_uint())
        << describe() << ": " << directive << " needs an integer offset (iterations of " << from.name()
        << " ahead), not one of type " << offset.type();
    f_->changed();
    PrefetchDirective p;
    p.buffer = buffer;
    p.func = func;
    p.at = at.name();
    p.from = from.name();
    p.offset = cast(Int(32), offset);
    p.strategy = strategy;
    def().schedule.prefetches.push_back(p);
    return *this;
}

Stage &Stage::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                       PrefetchBoundStrategy strategy) {
    return prefetch_buffer(f.name(), f.function(), at, from, std::move(offset), strategy);
}

Stage &Stage::prefetch(const Func &f, const VarOrRVar &var, int offset, PrefetchBoundStrategy strategy) {
    return prefetch(f, var, var, Expr(offset), strategy);
}

Func &Func::prefetch(const Func &f, const VarOrRVar &at, const VarOrRVar &from, Expr offset,
                     PrefetchBoundStrategy strategy) {
    user_assert(defined()) << "Func '" << name() << "' is scheduled before it has a definition; define it first";
    Stage(f_, 0).prefetch(f, at, from, std::move(offset), strategy);
    return *this;
}

Func &Func::prefetch(const Func &f, const VarOrRVar &var, int offset, PrefetchBoundStrategy strategy) {
    return prefetch(f, var, var, Expr(offset), strategy);
}

}  // namespace halo
