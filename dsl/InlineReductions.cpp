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

// The anonymous Func of an inline reduction of e: its arguments (e's Vars, then a Var for each
// RVar of another RDom than the one reduced over), the call that passes them, e with those
// RVars replaced by the Vars, and the RDom reduced over: `over`, whose RVars e must use, or
// without one, the one RDom whose RVars e uses.
struct ReductionSite {
    std::vector<Expr> args, call_args;
    Expr e;
    std::shared_ptr<ReductionDomainContents> domain;
};

ReductionSite reduction_site(const RDom *over, Expr e, const std::string &name) {
    user_assert(e.defined()) << name << "() of an undefined Expr";
    user_assert(!over || over->defined()) << name << "() over an undefined RDom";
    // Shared subexpressions become lets first: a graph whose tree is exponential (e = e * e + r,
    // repeated) is walked in linear time.
    e = common_subexpression_elimination(e);
    FreeNames names;
    e.accept(&names);
    ReductionSite site;
    for (auto &v : names.vars) {
        site.args.push_back(Var(v));
        site.call_args.push_back(Var(v));
    }
    std::vector<const ReductionDomainContents *> domains;
    for (const Variable *rv : names.rvars) {
        if (std::find(domains.begin(), domains.end(), rv->rdom.get()) == domains.end()) domains.push_back(rv->rdom.get());
    }
    if (over) {
        site.domain = over->domain();
        const ReductionDomainContents *dom = site.domain.get();
        user_assert(std::find(domains.begin(), domains.end(), dom) != domains.end())
            << name << "(" << dom->name << ", " << e << "): the expression uses no RVar of RDom '" << dom->name
            << "', so there is nothing to reduce over";
        std::map<std::string, Expr> free;
        for (const Variable *rv : names.rvars) {
            if (rv->rdom.get() == dom || free.count(rv->name)) continue;
            Var v(unique_name('v'));
            free[rv->name] = v;
            site.args.push_back(v);
            site.call_args.push_back(Variable::make(rv->type, rv->name, nullptr, rv->rdom));
        }
        e = substitute(free, e);
    } else {
        user_assert(!domains.empty()) << name << "(" << e << "): the expression uses no RVar, so there is nothing to "
                                      << "reduce over. Use an RDom inside it, as in " << name << "(f(x + r.x))";
        user_assert(domains.size() == 1)
            << name << "(" << e << ") refers to RVars of several RDoms (" << rdom_names(domains)
            << "): say which one it reduces over, as in " << name << "(" << domains[0]->name << ", ...); the others "
            << "stay free for an outer reduction";
        site.domain = names.rvars[0]->rdom;
    }
    site.e = e;
    return site;
}

Func reduction_func(const std::string &name) {
    Func f(unique_name('r') + "_" + name);
    f.function()->made_by_library = true;
    return f;
}

// A call of an anonymous Func that reduces e with `combine`, starting from init.
Expr reduce(const RDom *over, Expr e, const std::string &name, Expr init, Expr (*combine)(Expr, Expr)) {
    ReductionSite site = reduction_site(over, std::move(e), name);
    Func f = reduction_func(name);
    f(site.args) = init;
    f(site.args) = combine(f(site.args), site.e);
    return f(site.call_args);
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
// then the value. As Halide's argmax, one Tuple-valued reduction: it starts from coordinates 0
// and the type's lowest value, and takes a point whenever its value is strictly greater, so e
// is evaluated once per point (a C function it calls runs once per point), the first of equal
// values wins, and where no point beats the initial value (an empty domain, every value the
// type's lowest, NaNs) the coordinates stay 0.
Tuple arg_extreme(const RDom *over, const Expr &e, const std::string &name, bool is_max) {
    ReductionSite site = reduction_site(over, e, name);
    std::vector<Expr> initial, update;
    for (auto &rv : site.domain->vars) {
        initial.push_back(0);
        update.push_back(Variable::make(Int(32), rv.name, nullptr, site.domain));
    }
    initial.push_back(is_max ? lowest(site.e.type()) : highest(site.e.type()));
    update.push_back(site.e);
    Func f = reduction_func(name);
    f(site.args) = Tuple(initial);
    Expr best = f(site.args)[update.size() - 1];
    Expr better = is_max ? site.e > best : site.e < best;
    f(site.args) = tuple_select(better, Tuple(update), f(site.args));
    FuncRef result = f(site.call_args);
    std::vector<Expr> values;
    for (size_t i = 0; i < update.size(); i++) values.push_back(result[i]);
    return Tuple(values);
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
