#include "InlineReductions.h"

#include <map>

#include "Error.h"
#include "FreeNames.h"
#include "Func.h"
#include "IROperator.h"
#include "MathFunctions.h"
#include "IRPrinter.h"
#include "lower/CSE.h"
#include "lower/Substitute.h"

namespace halo {

namespace {

using internal::FreeNames;

std::string rdom_names(const std::vector<const ReductionDomainContents *> &domains) {
    std::string s;
    for (size_t i = 0; i < domains.size(); i++) s += (i ? ", " : "") + domains[i]->name;
    return s;
}

// A call of an anonymous Func that reduces e with `combine`, starting from init: over the RDom
// `over`, whose RVars e must use (RVars of other RDoms become arguments of the Func, and the
// call passes them); without one, over the one RDom whose RVars e uses.
Expr reduce(const RDom *over, Expr e, const std::string &name, Expr init, Expr (*combine)(Expr, Expr)) {
    user_assert(e.defined()) << name << "() of an undefined Expr";
    user_assert(!over || over->defined()) << name << "() over an undefined RDom";
    // Shared subexpressions become lets first: a graph whose tree is exponential (e = e * e + r,
    // repeated) is walked in linear time.
    e = common_subexpression_elimination(e);
    FreeNames names;
    e.accept(&names);
    std::vector<Expr> args, call_args;
    for (auto &v : names.vars) {
        args.push_back(Var(v));
        call_args.push_back(Var(v));
    }
    std::vector<const ReductionDomainContents *> domains;
    for (const Variable *rv : names.rvars) {
        if (std::find(domains.begin(), domains.end(), rv->rdom.get()) == domains.end()) domains.push_back(rv->rdom.get());
    }
    if (over) {
        const ReductionDomainContents *dom = over->domain().get();
        user_assert(std::find(domains.begin(), domains.end(), dom) != domains.end())
            << name << "(" << dom->name << ", " << e << "): the expression uses no RVar of RDom '" << dom->name
            << "', so there is nothing to reduce over";
        std::map<std::string, Expr> free;
        for (const Variable *rv : names.rvars) {
            if (rv->rdom.get() == dom || free.count(rv->name)) continue;
            Var v(unique_name('v'));
            free[rv->name] = v;
            args.push_back(v);
            call_args.push_back(Variable::make(rv->type, rv->name, nullptr, rv->rdom));
        }
        e = substitute(free, e);
    } else {
        user_assert(!domains.empty()) << name << "(" << e << "): the expression uses no RVar, so there is nothing to "
                                      << "reduce over. Use an RDom inside it, as in " << name << "(f(x + r.x))";
        user_assert(domains.size() == 1)
            << name << "(" << e << ") refers to RVars of several RDoms (" << rdom_names(domains)
            << "): say which one it reduces over, as in " << name << "(" << domains[0]->name << ", ...); the others "
            << "stay free for an outer reduction";
    }
    Func f(unique_name('r') + "_" + name);
    f.function()->made_by_library = true;
    f(args) = init;
    f(args) = combine(f(args), e);
    return f(call_args);
}

Expr add(Expr a, Expr b) { return a + b; }
Expr multiply(Expr a, Expr b) { return a * b; }
Expr maximum_of(Expr a, Expr b) { return max(a, b); }
Expr minimum_of(Expr a, Expr b) { return min(a, b); }

// a + b clamped to their type (both of it).
Expr saturating_add(Expr a, Expr b) {
    Type t = a.type();
    if (t.is_float()) return a + b;
    if (t.bits() < 64) {
        Type wide = (t.is_int() ? Int(t.bits() * 2) : UInt(t.bits() * 2)).with_lanes(t.lanes());
        return saturating_cast(t, cast(wide, a) + cast(wide, b));
    }
    if (t.is_uint()) {
        Expr sum = a + b;  // wraps
        return select(sum < a, t.max(), sum);
    }
    // int64: add as uint64 (which wraps), and saturate where the signs show an overflow.
    Type u = UInt(64).with_lanes(t.lanes());
    Expr sum = reinterpret(t, reinterpret(u, a) + reinterpret(u, b));
    Expr overflow = (a < 0) == (b < 0) && (sum < 0) != (a < 0);
    return select(overflow, select(a < 0, t.min(), t.max()), sum);
}

Expr checked(const Expr &e, const std::string &name) {
    user_assert(e.defined()) << name << "() of an undefined Expr";
    return e;
}

// The first point (in iteration order) where e reaches its extreme value: its coordinates,
// then the value (Halide's layout); coordinates 0 if no point beats the type's extreme.
Tuple arg_extreme(const RDom *over, const Expr &e, const std::string &name, bool is_max) {
    checked(e, name);
    Expr initial = is_max ? lowest(e.type()) : highest(e.type());
    Expr best = reduce(over, e, name + "_value", initial, is_max ? maximum_of : minimum_of);
    std::shared_ptr<ReductionDomainContents> dom;
    if (over) {
        dom = over->domain();
    } else {
        FreeNames n;
        common_subexpression_elimination(e).accept(&n);  // (linear in a graph)
        dom = n.rvars[0]->rdom;
    }
    // Linearise the RDom position in iteration order (dimension 0 fastest).
    Expr linear = 0, stride = 1;
    for (auto &rv : dom->vars) {
        Expr r = Variable::make(Int(32), rv.name, nullptr, dom);
        linear = linear + (r - rv.min) * stride;
        stride = stride * rv.extent;
    }
    Expr not_found = Int(32).max();
    Expr first = reduce(over, select(e == best, linear, not_found), name + "_index", not_found, minimum_of);
    // As Halide's argmax (coordinates 0 and the type's lowest value, then the point whenever
    // one is strictly greater): the first point of the best value, unless no point beats the
    // initial value (an empty domain, every value the type's lowest, NaNs), which leaves the
    // coordinates 0.
    Expr found = best != initial && first != not_found;
    std::vector<Expr> coords;
    stride = 1;
    for (auto &rv : dom->vars) {
        coords.push_back(select(found, rv.min + (first / stride) % rv.extent, 0));
        stride = stride * rv.extent;
    }
    coords.push_back(best);
    return Tuple(coords);
}

}  // namespace

Expr sum(Expr e, const std::string &name) { return reduce(nullptr, e, name, make_zero(checked(e, name).type()), add); }
Expr saturating_sum(Expr e, const std::string &name) {
    return reduce(nullptr, e, name, make_zero(checked(e, name).type()), saturating_add);
}
Expr product(Expr e, const std::string &name) {
    return reduce(nullptr, e, name, make_one(checked(e, name).type()), multiply);
}
Expr maximum(Expr e, const std::string &name) { return reduce(nullptr, e, name, lowest(checked(e, name).type()), maximum_of); }
Expr minimum(Expr e, const std::string &name) { return reduce(nullptr, e, name, highest(checked(e, name).type()), minimum_of); }
Tuple argmax(Expr e, const std::string &name) { return arg_extreme(nullptr, e, name, true); }
Tuple argmin(Expr e, const std::string &name) { return arg_extreme(nullptr, e, name, false); }

Expr sum(const RDom &r, Expr e, const std::string &name) { return reduce(&r, e, name, make_zero(checked(e, name).type()), add); }
Expr saturating_sum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, e, name, make_zero(checked(e, name).type()), saturating_add);
}
Expr product(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, e, name, make_one(checked(e, name).type()), multiply);
}
Expr maximum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, e, name, lowest(checked(e, name).type()), maximum_of);
}
Expr minimum(const RDom &r, Expr e, const std::string &name) {
    return reduce(&r, e, name, highest(checked(e, name).type()), minimum_of);
}
Tuple argmax(const RDom &r, Expr e, const std::string &name) { return arg_extreme(&r, e, name, true); }
Tuple argmin(const RDom &r, Expr e, const std::string &name) { return arg_extreme(&r, e, name, false); }

}  // namespace halo
