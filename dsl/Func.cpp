// Func definitions and the checks that turn user mistakes into clear errors.
#include "Func.h"

#include "Random.h"
#include "Require.h"

#include "FreeNames.h"
#include "ImplicitVars.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <set>
#include <sstream>
#include <type_traits>

#include "IRPrinter.h"
#include "Param.h"
#include "lower/CSE.h"
#include "lower/IREquality.h"
#include "lower/Substitute.h"
#include <cmath>

namespace halo {


namespace {

using internal::FreeNames;

std::string join(const std::vector<std::string> &v) {
    std::string s;
    for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + v[i];
    return s;
}

void check_calls(const FunctionContents &f, const FreeNames &names, const char *what) {
    for (const Call *c : names.func_calls) {
        user_assert(c->func.get() != &f || what != std::string("pure definition"))
            << "Func '" << f.name << "': its pure definition refers to itself (" << f.name
            << "(...) on the right side). A pure definition cannot be recursive; define " << f.name
            << " first and use an update definition (" << f.name << "(x) = ...; " << f.name
            << "(r) = " << f.name << "(r - 1) + ...) for a recurrence";
        if (c->func.get() == &f) continue;
        user_assert(c->func.get())
            << "Func '" << f.name << "': its " << what << " reads Func '" << c->name
            << "', which was destroyed (an expression taken from its own definition outlived it). "
            << "Keep the Func '" << c->name << "' alive while its expressions are used";
        user_assert(c->func->has_pure_definition)
            << "Func '" << f.name << "': its " << what << " calls Func '" << c->name
            << "', which has no definition. Define " << c->name << " (" << c->name
            << "(x, ...) = ...) before using it";
        user_assert(int(c->args.size()) == c->func->dimensions())
            << "Func '" << c->name << "' is called with " << c->args.size()
            << " arguments in the " << what << " of '" << f.name << "', but it is defined over "
            << c->func->dimensions() << " (" << join(c->func->args) << ")";
    }
}

// A Func declared with required types and dimensions (Func(type, dimensions, name)) must be
// defined with them, as in Halide.
void check_required_shape(const FunctionContents &f, const std::vector<Expr> &values, size_t dimensions) {
    if (f.required_dimensions >= 0) {
        user_assert(int(dimensions) == f.required_dimensions)
            << "Func '" << f.name << "' was declared with " << f.required_dimensions << " dimension"
            << (f.required_dimensions == 1 ? "" : "s") << " (Func(type, " << f.required_dimensions << ", \"" << f.name
            << "\")), but its pure definition has " << dimensions << "; define it over "
            << f.required_dimensions << " Vars, or declare it with " << dimensions;
    }
    if (f.required_types.empty()) return;
    user_assert(values.size() == f.required_types.size())
        << "Func '" << f.name << "' was declared with " << f.required_types.size() << " value type"
        << (f.required_types.size() == 1 ? "" : "s") << ", but its pure definition gives " << values.size()
        << " value" << (values.size() == 1 ? "" : "s");
    for (size_t i = 0; i < values.size(); i++) {
        std::string which = values.size() > 1 ? " value " + std::to_string(i) : "";
        user_assert(values[i].type() == f.required_types[i])
            << "Func '" << f.name << "' was declared to hold " << f.required_types[i].to_string() << which
            << ", but its pure definition" << which << " has type " << values[i].type().to_string()
            << "; wrap the value in cast<" << f.required_types[i].to_string() << ">(...) or declare the Func with "
            << values[i].type().to_string();
    }
}

}  // namespace

Func::Func() : Func(unique_name('f')) {}

Tuple Func::values() const {
    user_assert(defined()) << "Func '" << name() << "' has no definition, so no values()";
    return Tuple(f_->pure.values);
}

Tuple Func::update_values(int i) const {
    user_assert(i >= 0 && i < num_update_definitions())
        << "Func '" << name() << "' has " << num_update_definitions() << " update definitions; "
        << "update_values(" << i << ") does not exist";
    return Tuple(f_->updates[size_t(i)].values);
}

std::vector<Var> Func::split_vars() const {
    std::vector<Var> vars;
    for (const Dim &d : f_->pure.schedule.dims) {
        if (!d.is_rvar && d.var.rfind("__", 0) != 0) vars.push_back(Var(d.var));
    }
    return vars;
}

std::vector<Expr> Func::update_args(int i) const {
    user_assert(i >= 0 && i < num_update_definitions())
        << "Func '" << name() << "' has " << num_update_definitions() << " update definitions; "
        << "update_args(" << i << ") does not exist";
    return f_->updates[size_t(i)].args;
}

std::vector<RVar> Func::rvars(int i) const {
    user_assert(i >= 0 && i < num_update_definitions())
        << "Func '" << name() << "' has " << num_update_definitions() << " update definitions; "
        << "rvars(" << i << ") does not exist";
    std::vector<RVar> out;
    const auto &dom = f_->updates[size_t(i)].rdom;
    if (dom) {
        for (size_t k = 0; k < dom->vars.size(); k++) out.push_back(RVar(dom, int(k)));
    }
    return out;
}

Expr Func::value() const {
    user_assert(defined()) << "Func '" << name() << "' has no definition, so no value()";
    user_assert(!f_->is_tuple()) << "Func '" << name() << "' is Tuple-valued (" << f_->outputs()
                                 << " values); use values() instead of value()";
    return f_->pure.values[0];
}

Expr Func::update_value(int i) const {
    Tuple t = update_values(i);
    user_assert(t.size() == 1) << "Func '" << name() << "' is Tuple-valued (" << t.size()
                               << " values); use update_values(" << i << ") instead of update_value";
    return t[0];
}

uint64_t next_function_serial() {
    static std::atomic<uint64_t> next{0};
    return next++;
}

Func::Func(std::shared_ptr<FunctionContents> f) : f_(std::move(f)) {
    user_assert(f_) << "Func made from a null FunctionContents: name a new Func (Func f(\"f\")), or make "
                    << "it from the function() of a Func that exists";
}

Func::Func(const std::string &name) : f_(std::make_shared<FunctionContents>()) {
    f_->name = name;
}

Func::Func(const Type &required_type, int required_dimensions, const std::string &name)
    : Func(std::vector<Type>{required_type}, required_dimensions, name) {}

Func::Func(const std::vector<Type> &required_types, int required_dimensions, const std::string &name)
    : Func(name) {
    user_assert(!required_types.empty()) << "Func '" << name << "' declared with an empty list of required types; "
                                         << "give one type per value, or declare it as Func(\"" << name << "\")";
    user_assert(required_dimensions >= -1)
        << "Func '" << name << "' declared with " << required_dimensions
        << " dimensions; give a count of 0 or more, or -1 (AnyDims) for any";
    f_->required_types = required_types;
    f_->required_dimensions = required_dimensions;
}

Func::Func(const Expr &e) : Func() {
    FreeNames names;
    e.accept(&names);
    std::vector<Expr> args;
    for (auto &v : names.vars) args.push_back(Var(v));
    (*this)(args) = e;
}

Func lambda(const Expr &e) {
    // f(_) = e, as Halide's: the Func has as many dimensions as e has implicit Vars (lambda(g(_))
    // is g over its dimensions), none for an e of no Var.
    Func f(unique_name('l'));
    f(_) = e;
    return f;
}
Func lambda(const Var &x, const Expr &e) {
    Func f(unique_name('l'));
    f(x) = e;
    return f;
}
Func lambda(const Var &x, const Var &y, const Expr &e) {
    Func f(unique_name('l'));
    f(x, y) = e;
    return f;
}
Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e) {
    Func f(unique_name('l'));
    f(x, y, z) = e;
    return f;
}
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e) {
    Func f(unique_name('l'));
    f(x, y, z, w) = e;
    return f;
}

Type Func::output_type() const {
    user_assert(f_->has_known_shape()) << "Func '" << name() << "' has no definition, so it has no type";
    user_assert(!f_->is_tuple()) << "Func '" << name() << "' is Tuple-valued (" << f_->outputs()
                                 << " values); use output_types() instead of output_type()";
    return f_->types()[0];
}

std::vector<Type> Func::output_types() const {
    user_assert(f_->has_known_shape()) << "Func '" << name() << "' has no definition, so it has no type";
    return f_->types();
}

int Func::outputs() const {
    user_assert(f_->has_known_shape()) << "Func '" << name() << "' has no definition, so no outputs()";
    return f_->outputs();
}

std::vector<Var> Func::args() const {
    std::vector<Var> r;
    for (auto &a : f_->args) r.push_back(Var(a));
    return r;
}

FuncRef Func::operator()(std::vector<Expr> args) const {
    for (size_t i = 0; i < args.size(); i++) args[i] = call_argument(args[i], "Func '" + name() + "'", i);
    int placeholder = expand_placeholder(args, defined() ? dimensions() : -1, "Func '" + name() + "'");
    if (!defined()) return FuncRef(f_, std::move(args), placeholder);  // its definition places _
    user_assert(int(args.size()) == dimensions())
        << "Func '" << name() << "' is called with " << args.size() << " arguments, but it is defined over "
        << dimensions() << " (" << join(f_->args) << ")";
    return FuncRef(f_, std::move(args));
}

FuncRef::operator Expr() const {
    // Its type is not known yet, and Funcs cannot be recursive: a call before the definition
    // is always a mistake in the order of the algorithm's statements.
    user_assert(f_->has_pure_definition)
        << "Func '" << f_->name << "' is called, but it has no definition yet. Define it (" << f_->name
        << "(x, ...) = ...) before using it in another expression; a pure definition cannot refer to itself";
    user_assert(!f_->is_tuple()) << "Func '" << f_->name << "' is Tuple-valued (" << f_->outputs()
                                 << " values) and is used as one Expr; read one of its values with "
                                 << f_->name << "(...)[i], or all of them as a Tuple";
    return Call::make(f_->pure.values[0].type(), f_->name, args_, Call::Halo, f_);
}

FuncTupleElementRef FuncRef::operator[](int i) const { return FuncTupleElementRef(*this, i); }

FuncTupleElementRef::FuncTupleElementRef(const FuncRef &ref, int index)
    : f_(ref.function()), args_(ref.arguments()), index_(index) {
    user_assert(f_->has_pure_definition)
        << "Func '" << f_->name << "' is called, but it has no definition yet. Define it before using it";
    user_assert(index >= 0 && index < f_->outputs())
        << "Func '" << f_->name << "' has " << f_->outputs() << " value" << (f_->outputs() == 1 ? "" : "s")
        << "; " << f_->name << "(...)[" << index << "] does not exist";
}

FuncTupleElementRef::operator Expr() const {
    return Call::make(f_->pure.values[size_t(index_)].type(), f_->name, args_, Call::Halo, f_, nullptr, index_);
}

Stage FuncTupleElementRef::operator=(const Expr &e) {
    user_assert(e.defined()) << "Func '" << f_->name << "'(...)[" << index_ << "] = an undefined Expr";
    std::vector<Expr> values;
    for (int i = 0; i < f_->outputs(); i++) {
        Type t = f_->pure.values[size_t(i)].type();
        values.push_back(i == index_ ? cast(t, e) : undef(t));
    }
    FuncRef ref(f_, args_);
    return f_->outputs() == 1 ? ref = values[0] : ref = Tuple(values);
}
Stage FuncTupleElementRef::operator+=(const Expr &e) { return *this = Expr(*this) + e; }
Stage FuncTupleElementRef::operator-=(const Expr &e) { return *this = Expr(*this) - e; }
Stage FuncTupleElementRef::operator*=(const Expr &e) { return *this = Expr(*this) * e; }
Stage FuncTupleElementRef::operator/=(const Expr &e) { return *this = Expr(*this) / e; }

Expr undef(Type t) { return Call::make(t, Call::undef, {}, Call::Intrinsic); }

namespace {

// Walks an expression graph, each shared node once (a value may be a graph whose tree is
// exponential), to at most max_depth levels, and finds undef() (stop_at_undef: stops there).
// In define() the walk runs on the user's stack, before checked_definition has refused
// definitions too deep for it: there it is limited to hoistable_depth levels.
class UndefInGraph : public IRVisitor {
public:
    static constexpr int hoistable_depth = 512;
    UndefInGraph(bool stop_at_undef, int max_depth) : stop_at_undef_(stop_at_undef), max_depth_(max_depth) {}
    bool found = false, too_deep = false;

private:
    bool stop_at_undef_;
    int max_depth_;
    std::set<const void *> seen_;
    int depth_ = 0;
    template <typename T>
    void once(const T *op) {
        if constexpr (std::is_same_v<T, Call>) found |= op->is_intrinsic(Call::undef);
        if ((found && stop_at_undef_) || too_deep || !seen_.insert(op).second) return;
        if (depth_ >= max_depth_) {
            too_deep = true;
            return;
        }
        depth_++;
        IRVisitor::visit(op);
        depth_--;
    }
#define HALO_VISIT_ONCE(N) \
    void visit(const N *op) override { once(op); }
    HALO_FOR_EACH_EXPR_NODE(HALO_VISIT_ONCE)
#undef HALO_VISIT_ONCE
};

}  // namespace

bool uses_undef(const Expr &e) {
    UndefInGraph f(true, INT_MAX);
    e.accept(&f);
    return f.found;
}

namespace {

bool is_undef(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->is_intrinsic(Call::undef);
}

// Whether e contains undef() within UndefInGraph::hoistable_depth levels.
bool contains_undef(const Expr &e) {
    UndefInGraph f(true, UndefInGraph::hoistable_depth);
    e.accept(&f);
    return f.found;
}

// Whether e contains undef() and lies within UndefInGraph::hoistable_depth levels, so that
// the recursive rewriting of undef() below may run on it (a deeper one keeps its undef(),
// which the check after checked_definition reports).
bool has_hoistable_undef(const Expr &e) {
    if (!contains_undef(e)) return false;
    UndefInGraph f(false, UndefInGraph::hoistable_depth);
    e.accept(&f);
    return !f.too_deep;
}

// The first undef(), or select with an undef() arm and a condition without one, in a walk
// from the top (each shared node once).
class UndefSource : public IRVisitor {
public:
    Expr found;

private:
    std::set<const void *> seen_;
    template <typename T>
    void once(const T *op) {
        if (found.defined() || !seen_.insert(op).second) return;
        if constexpr (std::is_same_v<T, Call>) {
            if (op->is_intrinsic(Call::undef)) {
                found = IRMutator::self(op);
                return;
            }
        }
        if constexpr (std::is_same_v<T, Select>) {
            if (!contains_undef(op->condition) && (contains_undef(op->true_value) || contains_undef(op->false_value))) {
                found = IRMutator::self(op);
                return;
            }
        }
        IRVisitor::visit(op);
    }
#define HALO_VISIT_ONCE(N) \
    void visit(const N *op) override { once(op); }
    HALO_FOR_EACH_EXPR_NODE(HALO_VISIT_ONCE)
#undef HALO_VISIT_ONCE
};

// Halide's rule for undef() inside an expression: an operation on undef() is undef(), and an
// operation on a select with an undef() arm is the select of the operation on each arm. The
// undef() arms so end up at the top of the value, where they mean "store nothing there":
// f(x) + undef() is undef(), f(x)[1] + select(c, v, undef()) is select(c, f(x)[1] + v, undef()).
Expr hoist_undef(const Expr &e) {
    if (is_undef(e) || !has_hoistable_undef(e)) return e;
    if (const Select *s = e.as<Select>(); s && !contains_undef(s->condition)) {
        return select(s->condition, hoist_undef(s->true_value), hoist_undef(s->false_value));
    }
    // The outermost undef(), or select with an undef() arm and a defined condition, below e.
    UndefSource source;
    e.accept(&source);
    const Select *s = source.found.as<Select>();
    if (!s) return undef(e.type());
    Expr t = substitute_expr(source.found, s->true_value, e), f = substitute_expr(source.found, s->false_value, e);
    return hoist_undef(select(s->condition, t, f));
}

// Where a value chosen by a select chain is not undef(): true, false, or a boolean select.
Expr stored_where(const Expr &e) {
    if (is_undef(e)) return Expr(false);
    const Select *s = e.as<Select>();
    if (!s) return Expr(true);
    Expr t = stored_where(s->true_value), f = stored_where(s->false_value);
    if (is_one(t) && is_one(f)) return Expr(true);
    if (is_one(t) && is_const(f, 0)) return s->condition;
    if (is_const(t, 0) && is_one(f)) return !s->condition;
    return select(s->condition, t, f);
}

// An arm of a select (or of a chain of selects) that is undef() means "store nothing there",
// as in Halide: the arm becomes `kept`, the value already there (a read of the Func in an
// update; in a pure definition nothing was there, and what is never stored is undefined to
// read, so any value does: zero). Only the select chain at the top of a value is looked at.
Expr resolve_undef_arms(const Expr &e, const Expr &kept) {
    if (is_undef(e)) return kept;
    const Select *s = e.as<Select>();
    if (!s) return e;
    Expr t = resolve_undef_arms(s->true_value, kept), f = resolve_undef_arms(s->false_value, kept);
    if (t.same_as(s->true_value) && f.same_as(s->false_value)) return e;
    return select(s->condition, t, f);
}

// The first arm of a select chain that is not undef(), or nothing if every arm is.
Expr first_defined_arm(const Expr &e) {
    if (is_undef(e)) return Expr();
    const Select *s = e.as<Select>();
    if (!s) return e;
    Expr t = first_defined_arm(s->true_value);
    return t.defined() ? t : first_defined_arm(s->false_value);
}

// Moves the RVars of `from` to the domain `to` (nullptr: they refer to it by name only).
Expr rebind_rvars(const ReductionDomainContents *from, const std::shared_ptr<ReductionDomainContents> &to,
                  const Expr &e) {
    struct Rebind : IRMutator {
        const ReductionDomainContents *from;
        const std::shared_ptr<ReductionDomainContents> *to;
        using IRMutator::visit;
        Expr visit(const Variable *op) override {
            if (!op->rdom || op->rdom.get() != from) return self(op);
            return Variable::make(op->type, op->name, nullptr, *to);
        }
    } rebind;
    rebind.from = from;
    rebind.to = &to;
    return rebind.mutate(e);
}

// A predicate of RDom `dom`: its RVars refer to the RDom by name only, since a reference from
// the RDom's predicates back to the RDom would be a cycle, and it would never be freed.
Expr predicate_of(const ReductionDomainContents *dom, const Expr &predicate) {
    return rebind_rvars(dom, nullptr, predicate);
}

// A copy of `dom` restricted to where `condition` holds, and the RVars of the definition
// (args and values) moved to it.
std::shared_ptr<ReductionDomainContents> restricted_domain(const std::shared_ptr<ReductionDomainContents> &dom,
                                                           const Expr &condition, std::vector<Expr> &args,
                                                           std::vector<Expr> &values) {
    auto copy = std::make_shared<ReductionDomainContents>(*dom);
    copy->predicates.push_back(predicate_of(dom.get(), condition));
    for (auto *list : {&args, &values}) {
        for (Expr &e : *list) e = rebind_rvars(dom.get(), copy, e);
    }
    return copy;
}

// An update's left side with undef() in an argument, as in Halide's tuple_undef: the update
// runs only where no argument takes an undef() arm. Each such argument becomes its defined
// arm (in the values too, where they read f there); returns where the update runs, or
// nothing if no argument has undef(). Arguments whose undef() is not the arm of a select
// keep it, for define()'s error.
Expr take_undef_out_of_left_side(const std::string &func, std::vector<Expr> &args, std::vector<Expr> &values) {
    Expr runs_where;
    int runs_where_arg = -1;
    for (size_t i = 0; i < args.size(); i++) {
        if (!args[i].defined() || !contains_undef(args[i])) continue;
        Expr hoisted = hoist_undef(args[i]);
        if (!is_undef(hoisted) && (!hoisted.as<Select>() || !has_hoistable_undef(hoisted))) continue;
        Expr kept = first_defined_arm(hoisted);
        user_assert(kept.defined()) << "Func '" << func << "': argument " << i << " of the left side (" << args[i]
                                    << ") is undef() wherever it is evaluated, so the update would store nowhere";
        Expr resolved = resolve_undef_arms(hoisted, kept);
        if (const Select *s = resolved.as<Select>(); s && equal(s->true_value, s->false_value)) resolved = kept;
        Expr condition = stored_where(hoisted);
        // As in Halide, every argument with undef() arms must have them under one condition.
        user_assert(!runs_where.defined() || equal(runs_where, condition))
            << "Func '" << func << "': conditionally-undef arguments of the left side must have the same "
            << "conditions (as in Halide): argument " << runs_where_arg << " is defined where " << runs_where
            << ", argument " << i << " where " << condition << ". Give them one condition";
        runs_where = condition;
        runs_where_arg = int(i);
        for (Expr &v : values) {
            if (v.defined()) v = substitute_expr(args[i], resolved, v);
        }
        args[i] = resolved;
    }
    return runs_where;
}
}  // namespace

size_t FuncRef::size() const {
    user_assert(f_->has_pure_definition) << "Func '" << f_->name << "' has no definition yet, so no size()";
    return size_t(f_->outputs());
}

Tuple::Tuple(const FuncRef &call) {
    for (size_t i = 0; i < call.size(); i++) exprs_.push_back(call[int(i)]);
}

Tuple tuple_select(const Expr &condition, const Tuple &true_value, const Tuple &false_value) {
    return tuple_select(Tuple(std::vector<Expr>(true_value.size(), condition)), true_value, false_value);
}

Tuple tuple_select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value) {
    user_assert(condition.size() == true_value.size() && true_value.size() == false_value.size())
        << "tuple_select of Tuples of different sizes (" << condition.size() << " conditions, " << true_value.size()
        << " and " << false_value.size() << " values)";
    std::vector<Expr> r;
    for (size_t i = 0; i < true_value.size(); i++) r.push_back(select(condition[i], true_value[i], false_value[i]));
    return Tuple(r);
}

namespace {

// Deeper expressions are refused: every compiler pass walks expressions recursively.
const uint64_t max_expression_depth = 4096;

// Checks the size of a definition's expression and lifts shared subexpressions into Lets
// (an expression graph can be exponentially smaller than its tree).
Expr checked_definition(const std::string &func, const Expr &e, const char *what) {
    ExprShape shape;
    Expr lifted = common_subexpression_elimination(e, &shape, max_expression_depth);
    user_assert(shape.depth <= max_expression_depth)
        << "Func '" << func << "': its " << what << " is an expression " << shape.depth
        << " levels deep; Halo accepts at most " << max_expression_depth << ". Build long chains "
        << "from several Funcs, or as a reduction over an RDom";
    return lifted;
}

// A Func's own definitions read it through weak references (see FunctionPtr): a strong one
// would make the Func own itself, and it would never be freed. For the same reason a wrapper of
// an ImageParam (ImageParam::in) reads the image without holding the image's wrappers, which
// hold it (see ImageParamWrappers): an update of the wrapper may read the image.
class WeakenSelfCalls : public IRMutator {
public:
    explicit WeakenSelfCalls(const std::shared_ptr<FunctionContents> &f) : f_(f) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (c->call_type == Call::Image && c->param && is_wrapper_of(*c->param)) {
            std::shared_ptr<ParameterContents> plain = c->param->plain.lock();
            if (plain) return Call::make(c->type, c->name, c->args, c->call_type, c->func, plain, c->value_index);
            return e;
        }
        if (c->call_type != Call::Halo || c->func != f_ || c->func.is_weak()) return e;
        return Call::make(c->type, c->name, c->args, c->call_type, FunctionPtr::weak(f_), c->param, c->value_index);
    }

private:
    bool is_wrapper_of(const ParameterContents &image) const {
        std::shared_ptr<ImageParamWrappers> w = image.wrappers.lock();
        if (!w) return false;
        for (auto &wrapper : w->all()) {
            if (wrapper == f_) return true;
        }
        return false;
    }
    const std::shared_ptr<FunctionContents> &f_;
};

}  // namespace

Stage FuncRef::operator=(const Expr &given) { return define({given}); }

Stage FuncRef::operator=(const Tuple &t) { return define(t.as_vector()); }

Stage FuncRef::operator=(const FuncRef &e) {
    if (e.f_->has_pure_definition && e.f_->is_tuple()) return define(Tuple(e).as_vector());
    return define({Expr(e)});
}

// The pure definition f(x, _) = e: the implicit Vars e uses go where the placeholder was. Without
// a placeholder, e may not use them (they would be free Vars).
void FuncRef::expand_left_placeholder(const std::vector<std::string> &free_vars) {
    int used = 0;
    for (auto &v : free_vars)
        if (is_implicit_var_name(v)) used = std::max(used, std::stoi(v.substr(1)) + 1);
    if (placeholder_ < 0) {
        for (int i = 0; i < used; i++) {
            bool on_left = false;
            for (auto &a : args_) on_left |= a.as<Variable>() && a.as<Variable>()->name == "_" + std::to_string(i);
            user_assert(on_left) << "Func '" << f_->name << "': its pure definition uses the implicit Var _" << i
                                 << " (a call with the placeholder _ on the right side), but its left side has no "
                                 << "placeholder; write " << f_->name << "(..., _) = ... so the implicit Vars become "
                                 << "its arguments";
        }
        return;
    }
    int at = placeholder_;
    for (int i = 0; i < used; i++) args_.insert(args_.begin() + at++, Var::implicit(i));
    placeholder_ = -1;
}

Stage FuncRef::define(std::vector<Expr> values) {
    Expr runs_where = f_->has_pure_definition ? take_undef_out_of_left_side(f_->name, args_, values) : Expr();
    for (size_t i = 0; i < args_.size(); i++) {
        user_assert(!args_[i].defined() || !contains_undef(args_[i]))
            << "Func '" << f_->name << "': undef() in argument " << i << " of the left side (" << args_[i]
            << "). " << (f_->has_pure_definition ? "An update's argument may have undef() only as an arm of a select "
                                                   "(select(c, x, undef<int>()): the update runs where c holds)"
                                                 : "The left side of a pure definition must be distinct Vars");
    }
    // Which values have undef() arms at their top once undef() is hoisted there.
    std::vector<bool> undef_arms(values.size(), false);
    for (size_t i = 0; i < values.size(); i++) {
        if (!values[i].defined()) continue;
        values[i] = hoist_undef(values[i]);
        undef_arms[i] = values[i].as<Select>() && has_hoistable_undef(values[i]);
    }
    // As in Halide, the values of a Tuple that are not wholly undef() store under one condition:
    // where none of them has undef() arms, or where all of them take their defined arms.
    int conditional_value = -1;
    for (size_t i = 0; i < values.size() && values.size() > 1; i++) {
        if (undef_arms[i]) conditional_value = int(i);
    }
    if (conditional_value >= 0) {
        Expr condition = stored_where(values[conditional_value]);
        for (size_t i = 0; i < values.size(); i++) {
            if (!values[i].defined() || is_undef(values[i])) continue;
            Expr c = undef_arms[i] ? stored_where(values[i]) : Expr(true);
            user_assert(equal(c, condition))
                << "Func '" << f_->name << "': conditionally-undef values in a Tuple must have the same conditions "
                << "(as in Halide): value " << conditional_value << " is defined where " << condition << ", value " << i
                << (undef_arms[i] ? " where " + to_string(c) : std::string(" everywhere"))
                << ". Give every value the same select(condition, ..., undef()), or make a whole value undef()";
        }
    }
    // A pure definition with undef(): where it stores (the same for every value of a Tuple).
    Expr store_condition;
    if (!f_->has_pure_definition) {
        for (size_t i = 0; i < values.size(); i++) {
            if (!values[i].defined()) continue;
            Expr c = is_undef(values[i]) ? Expr(false) : undef_arms[i] ? stored_where(values[i]) : Expr(true);
            if (i == 0) store_condition = c;
            else if (!equal(c, store_condition)) store_condition = Expr(true);
        }
        if (store_condition.defined() && is_one(store_condition)) store_condition = Expr();
    }
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].defined()) << "Func '" << f_->name << "' defined with an undefined Expr"
                                         << (values.size() > 1 ? " as value " + std::to_string(i) + " of its Tuple" : "");
        if (undef_arms[i]) {
            Expr kept = f_->has_pure_definition && i < size_t(f_->outputs())
                            ? Call::make(values[i].type(), f_->name, args_, Call::Halo, f_, nullptr, int(i))
                            : make_zero(values[i].type());
            values[i] = resolve_undef_arms(values[i], kept);
        }
        if (!is_undef(values[i])) continue;
        if (!f_->has_pure_definition) {
            // A pure definition of undef() stores nothing (Halide's iir_blur starts so): the
            // updates fill what is read, and what is never stored is undefined to read, so any
            // value will do.
            values[i] = make_zero(values[i].type());
            continue;
        }
        user_assert(i < size_t(f_->outputs()))
            << "Func '" << f_->name << "' has " << f_->outputs() << " values; an update gives " << values.size();
        values[i] = Call::make(values[i].type(), f_->name, args_, Call::Halo, f_, nullptr, int(i));
    }
    WeakenSelfCalls weaken(f_);
    FreeNames names;
    for (Expr &value : values) {
        value = weaken.mutate(checked_definition(f_->name, value, "definition"));
        // (After checked_definition: its shared subexpressions are lets, so a walk is linear.)
        user_assert(!uses_undef(value)) << "Func '" << f_->name << "': undef() inside an expression (" << value
                                        << "); as in Halide it may only be a whole value of an update's Tuple, "
                                        << "leaving that value as it is, or an arm of a select that is the whole "
                                        << "value (storing nothing where that arm is taken)";
        value.accept(&names);
    }
    // (names.vars, not values: the values may be graphs whose trees are exponential)
    if (!f_->has_pure_definition) expand_left_placeholder(names.vars);
    for (auto &a : args_) a = weaken.mutate(checked_definition(f_->name, a, "left side"));
    // The definition's require() calls name the Func, and its random numbers become hashes of
    // the point: the Vars of the left side and the RVars the definition iterates over.
    FreeNames point;
    for (auto &a : args_) a.accept(&point);
    std::vector<Expr> coordinates;
    for (auto &v : point.vars) coordinates.push_back(Variable::make(Int(32), v));
    std::set<std::string> rvars_seen;
    for (auto *rvars : {&point.rvars, &names.rvars}) {
        for (const Variable *rv : *rvars) {
            if (rvars_seen.insert(rv->name).second) coordinates.push_back(Variable::make(rv->type, rv->name, nullptr, rv->rdom));
        }
    }
    int definition = f_->has_pure_definition ? int(f_->updates.size()) + 1 : 0;
    auto lower_calls = [&](const Expr &e) {
        return internal::lower_random(internal::name_requirements(e, f_->name), coordinates, f_->name, definition);
    };
    for (Expr &value : values) value = lower_calls(value);
    for (Expr &a : args_) a = lower_calls(a);
    f_->changed();
    if (!f_->has_pure_definition) {
        std::vector<std::string> arg_names;
        for (size_t i = 0; i < args_.size(); i++) {
            const Variable *v = args_[i].as<Variable>();
            user_assert(v && !v->rdom && !v->param)
                << "Func '" << f_->name << "': argument " << i << " of its pure definition is "
                << args_[i] << ", but the left side of a pure definition must be distinct Vars, "
                << "as in " << f_->name << "(x, y) = .... Define it that way first; other "
                << "left sides are allowed in update definitions";
            user_assert(std::find(arg_names.begin(), arg_names.end(), v->name) == arg_names.end())
                << "Func '" << f_->name << "': Var '" << v->name
                << "' appears twice on the left side of its pure definition";
            arg_names.push_back(v->name);
        }
        check_required_shape(*f_, values, arg_names.size());
        check_calls(*f_, names, "pure definition");
        user_assert(names.rvars.empty())
            << "Func '" << f_->name << "': its pure definition uses RVar '" << names.rvars[0]->name
            << "' of an RDom. RVars may only appear in update definitions, as in " << f_->name
            << "(x) = 0; " << f_->name << "(x) += g(x, " << names.rvars[0]->name
            << "), or inside an inline reduction such as sum(...)";
        for (auto &v : names.vars) {
            user_assert(std::find(arg_names.begin(), arg_names.end(), v) != arg_names.end())
                << "Func '" << f_->name << "': its pure definition uses Var '" << v
                << "', which is not one of its arguments (" << join(arg_names)
                << "). Add it to the left side or replace it";
        }
        f_->args = arg_names;
        f_->pure.args = args_;
        f_->pure.values = values;
        f_->pure.store_condition = store_condition;
        f_->has_pure_definition = true;
        for (auto &a : arg_names) f_->pure.schedule.dims.push_back(Dim{a, ForType::Serial, false});
        return Stage(f_, 0);
    }

    // An update definition.
    int n = int(f_->updates.size()) + 1;
    std::string what = "update definition " + std::to_string(n - 1);
    user_assert(int(args_.size()) == f_->dimensions())
        << "Func '" << f_->name << "': " << what << " has " << args_.size()
        << " arguments on its left side, but the Func is defined over " << f_->dimensions();
    user_assert(int(values.size()) == f_->outputs())
        << "Func '" << f_->name << "': " << what << " has " << values.size() << " value"
        << (values.size() == 1 ? "" : "s") << ", but its pure definition has " << f_->outputs()
        << ". Every definition of a Tuple-valued Func gives every value, as in " << f_->name
        << "(x) = {" << f_->name << "(x)[0] + 1, " << f_->name << "(x)[1]}";
    for (size_t i = 0; i < values.size(); i++) {
        Type want = f_->pure.values[i].type();
        std::string which = values.size() > 1 ? " value " + std::to_string(i) : "";
        user_assert(values[i].type() == want)
            << "Func '" << f_->name << "': " << what << which << " has type " << values[i].type().to_string()
            << ", but its pure definition" << which << " has type " << want.to_string()
            << ". Every definition of a Func must have the same type; wrap the value in cast<"
            << want.to_string() << ">(...)";
    }
    check_calls(*f_, names, what.c_str());
    FreeNames lhs;
    for (auto &a : args_) a.accept(&lhs);
    if (runs_where.defined()) {
        runs_where = lower_calls(weaken.mutate(checked_definition(f_->name, runs_where, "left side")));
        runs_where.accept(&lhs);
    }
    check_calls(*f_, lhs, what.c_str());
    std::vector<std::string> pure_used;
    for (size_t i = 0; i < args_.size(); i++) {
        // A Var in its own position is a pure dimension of the update; elsewhere (the second
        // x of a diagonal g(x, x) = ...) it is an expression of that dimension, as in Halide.
        const Variable *v = args_[i].as<Variable>();
        if (v && !v->rdom && !v->param && v->name == f_->args[i]) pure_used.push_back(v->name);
    }
    for (auto &v : names.vars) {
        user_assert(std::find(pure_used.begin(), pure_used.end(), v) != pure_used.end())
            << "Func '" << f_->name << "': " << what << " uses Var '" << v
            << "', which is not a pure Var on its left side. Use it on the left side in its "
            << "own position, or replace it with an RVar";
    }
    // The loops over an update's pure Vars may run in any order, in parallel or vectorized,
    // so the update may read its own Func only at the same values of them (Halide's rule).
    for (const std::vector<const Call *> *calls : {&names.func_calls, &lhs.func_calls}) {
        for (const Call *c : *calls) {
            if (c->func != f_) continue;
            for (size_t i = 0; i < args_.size(); i++) {
                const Variable *v = args_[i].as<Variable>();
                if (!v || v->rdom || v->param || v->name != f_->args[i]) continue;
                const Variable *u = c->args[i].as<Variable>();
                user_assert(u && u->name == v->name)
                    << "Func '" << f_->name << "': " << what << " reads " << IRMutator::self(c) << ", with "
                    << c->args[i] << " where its left side has the pure Var '" << v->name
                    << "'. An update may read its own Func only with each pure Var of its left "
                    << "side unchanged in its own position, because its pure loops may run in any "
                    << "order, in parallel or vectorized. For a recurrence, use an RDom: "
                    << f_->name << "(r) = " << f_->name << "(r - 1) + ...";
            }
        }
    }
    for (auto &v : lhs.vars) {
        user_assert(std::find(pure_used.begin(), pure_used.end(), v) != pure_used.end())
            << "Func '" << f_->name << "': " << what << " uses Var '" << v
            << "' on its left side but not in its own position (the pure definition's arguments are "
            << join(f_->args) << "); a Var may appear elsewhere on the left side, as in g(x, x), only if "
            << "it also appears in its own position. Otherwise use an RVar";
    }
    std::shared_ptr<ReductionDomainContents> rdom;
    for (auto *list : {&names.rvars, &lhs.rvars}) {
        for (const Variable *r : *list) {
            user_assert(!rdom || rdom == r->rdom)
                << "Func '" << f_->name << "': " << what << " uses RVars of two different RDoms ('"
                << rdom->name << "' and '" << r->rdom->name
                << "'); combine them into one multi-dimensional RDom";
            rdom = r->rdom;
        }
    }
    if (rdom) {
        // A predicate reading f itself must not own f (a cycle: f, its update, the RDom, the
        // predicate's call of f): weakened as the values are, as Halide does.
        for (auto &p : rdom->predicates) p = weaken.mutate(p);
        rdom->used = true;
    }
    if (runs_where.defined() && rdom) {
        // Where the left side is defined becomes a predicate of this update's own copy of
        // the RDom (the user's RDom may serve other definitions), so that bounds inference
        // and every schedule treat it as they treat RDom::where.
        rdom = restricted_domain(rdom, runs_where, args_, values);
    } else if (runs_where.defined()) {
        // No RDom: the update keeps the value already there where it does not run.
        for (size_t i = 0; i < values.size(); i++) {
            Expr here = Call::make(values[i].type(), f_->name, args_, Call::Halo, FunctionPtr::weak(f_), nullptr, int(i));
            values[i] = select(runs_where, values[i], here);
        }
    }
    Definition def;
    def.args = args_;
    def.values = values;
    def.rdom = rdom;
    if (rdom) {
        for (auto &rv : rdom->vars) def.schedule.dims.push_back(Dim{rv.name, ForType::Serial, true});
    }
    for (auto &p : pure_used) def.schedule.dims.push_back(Dim{p, ForType::Serial, false});
    f_->updates.push_back(def);
    return Stage(f_, n);
}

namespace {
Expr self_call(const std::shared_ptr<FunctionContents> &f, const std::vector<Expr> &args, const char *op) {
    user_assert(!f->is_tuple()) << "Func '" << f->name << "' is Tuple-valued (" << f->outputs() << " values); "
                                << op << " updates one value. Write the update with every value, as in "
                                << f->name << "(x) = {" << f->name << "(x)[0] + e, " << f->name << "(x)[1]}";
    return Call::make(f->pure.values[0].type(), f->name, args, Call::Halo, f);
}
}  // namespace

// An update of a Func without a pure definition gets one first, as in Halide: the identity
// of the operator everywhere, over the update's own Vars where its arguments are distinct Vars
// (f(x) += e defines f(x) = 0) and implicit Vars elsewhere (f(r % 3) += 1 defines f(_0) = 0).
void FuncRef::define_identity_if_undefined(const std::vector<Expr> &identity, const std::vector<Expr> &update) {
    if (f_->has_pure_definition) return;
    if (placeholder_ >= 0) {
        // f(x, _) += h(_): the placeholder stands for the implicit Vars the update's right side
        // uses, in the update and in the pure definition made for it (Halide's f(x, _0, _1)).
        FreeNames used;
        for (auto &e : update) {
            if (e.defined()) common_subexpression_elimination(e).accept(&used);  // (linear in a graph)
        }
        expand_left_placeholder(used.vars);
    }
    std::vector<Expr> pure(args_.size());
    std::set<std::string> seen;
    for (size_t i = 0; i < args_.size(); i++) {
        auto v = args_[i].as<Variable>();
        if (v && !v->param && !v->rdom && seen.insert(v->name).second) pure[i] = args_[i];
    }
    // Other arguments get implicit Vars that no argument already is.
    for (size_t i = 0; i < args_.size(); i++) {
        if (pure[i].defined()) continue;
        int k = int(i);
        while (seen.count("_" + std::to_string(k))) k++;
        seen.insert("_" + std::to_string(k));
        pure[i] = Var::implicit(k);
    }
    FuncRef(f_, pure).define(identity);
}

// f(x) += {a, b} and the other Tuple updates (Halide's): each value combined with its own
// element (of the value's type after coercion, as in Halide: f(x) += 1.5f on an int Func is
// an error); an undefined f gets the identity of each first.
Stage FuncRef::update_each(const Tuple &t, bool identity_is_one, const char *op, Expr (*combine)(Expr, Expr)) {
    std::vector<Expr> identity;
    for (auto &e : t.as_vector()) {
        user_assert(e.defined()) << "Func '" << f_->name << "': " << op << " with an undefined Tuple element";
        identity.push_back(identity_is_one ? make_one(e.type()) : make_zero(e.type()));
    }
    define_identity_if_undefined(identity, t.as_vector());
    user_assert(f_->outputs() == int(t.size()))
        << "Func '" << f_->name << "' has " << f_->outputs() << " value" << (f_->outputs() == 1 ? "" : "s") << " but "
        << op << " gives a Tuple of " << t.size() << "; give one element per value";
    std::vector<Expr> values;
    for (size_t i = 0; i < t.size(); i++) {
        Type ti = f_->pure.values[i].type();
        Expr self = Call::make(ti, f_->name, args_, Call::Halo, f_, nullptr, int(i));
        values.push_back(combine(self, t[i]));
    }
    return define(values);
}
Stage FuncRef::operator+=(const Tuple &t) { return update_each(t, false, "+=", [](Expr a, Expr b) { return a + b; }); }
Stage FuncRef::operator-=(const Tuple &t) { return update_each(t, false, "-=", [](Expr a, Expr b) { return a - b; }); }
Stage FuncRef::operator*=(const Tuple &t) { return update_each(t, true, "*=", [](Expr a, Expr b) { return a * b; }); }
Stage FuncRef::operator/=(const Tuple &t) { return update_each(t, true, "/=", [](Expr a, Expr b) { return a / b; }); }
namespace {
bool tuple_valued(const FuncRef &r) { return r.function()->has_pure_definition && r.function()->is_tuple(); }
}  // namespace
Stage FuncRef::operator+=(const FuncRef &e) { return tuple_valued(e) ? *this += Tuple(e) : *this += Expr(e); }
Stage FuncRef::operator-=(const FuncRef &e) { return tuple_valued(e) ? *this -= Tuple(e) : *this -= Expr(e); }
Stage FuncRef::operator*=(const FuncRef &e) { return tuple_valued(e) ? *this *= Tuple(e) : *this *= Expr(e); }
Stage FuncRef::operator/=(const FuncRef &e) { return tuple_valued(e) ? *this /= Tuple(e) : *this /= Expr(e); }

Stage FuncRef::operator+=(const Expr &e) {
    define_identity_if_undefined({make_zero(e.type())}, {e});
    Expr self = self_call(f_, args_, "+=");
    return *this = self + e;
}
Stage FuncRef::operator-=(const Expr &e) {
    define_identity_if_undefined({make_zero(e.type())}, {e});
    Expr self = self_call(f_, args_, "-=");
    return *this = self - e;
}
Stage FuncRef::operator*=(const Expr &e) {
    define_identity_if_undefined({make_one(e.type())}, {e});
    Expr self = self_call(f_, args_, "*=");
    return *this = self * e;
}
Stage FuncRef::operator/=(const Expr &e) {
    define_identity_if_undefined({make_one(e.type())}, {e});
    Expr self = self_call(f_, args_, "/=");
    return *this = self / e;
}

Expr lowest(Type t) { return t.is_float() ? make_const(t, -INFINITY) : make_const(t, t.min_int()); }
Expr highest(Type t) {
    if (t.is_float()) return make_const(t, INFINITY);
    if (t.is_uint() && t.bits() == 64) return UIntImm::make(t, UINT64_MAX);
    return make_const(t, t.max_int());
}

Expr Type::max() const { return highest(*this); }
Expr Type::min() const { return lowest(*this); }

// ---------------------------------------------------------------- RDom and ImageParam

RDom::RDom(const std::vector<std::pair<Expr, Expr>> &ranges, const std::string &name) {
    dom_ = std::make_shared<ReductionDomainContents>();
    dom_->name = name.empty() ? unique_name('r') : name;
    static const char *suffix[] = {"x", "y", "z", "w"};
    for (size_t i = 0; i < ranges.size(); i++) {
        Expr mn = ranges[i].first, ex = ranges[i].second;
        user_assert(mn.defined() && ex.defined()) << "RDom '" << dom_->name << "' given an undefined bound";
        user_assert(!mn.type().is_float() && !ex.type().is_float())
            << "RDom '" << dom_->name << "' bounds must be integers";
        for (const Expr *e : {&mn, &ex}) {
            std::string loop_var = first_loop_variable(*e);
            user_assert(loop_var.empty())
                << "RDom '" << dom_->name << "': the " << (e == &mn ? "min " : "extent ") << *e << " of dimension "
                << i << " uses '" << loop_var << "', a Var or RVar. An RDom's bounds are fixed before its loops "
                << "run: use constants, Params and input sizes (such as input.width()); to skip points that "
                << "depend on a Var, use RDom::where";
        }
        mn = cast(Int(32), mn);
        ex = cast(Int(32), ex);
        std::string vn = dom_->name + "." + (i < 4 ? suffix[i] : std::to_string(i));
        // Known ranges are checked here (the rest at run time): the last value must be a
        // 32-bit coordinate.
        const int64_t *cmin = as_const_int(mn), *cext = as_const_int(ex);
        user_assert(!(cmin && cext && *cext > 0 && *cmin + *cext - 1 > INT32_MAX))
            << "RDom '" << dom_->name << "': " << vn << " runs from " << *cmin << " for " << *cext
            << " values, past the largest 32-bit coordinate (2^31 - 1); use a smaller min or extent";
        dom_->vars.push_back({vn, mn, ex});
    }
    RVar *fields[] = {&x, &y, &z, &w};
    for (size_t i = 0; i < ranges.size() && i < 4; i++) *fields[i] = RVar(dom_, int(i));
    for (size_t i = ranges.size(); i < 4; i++) {
        *fields[i] = RVar::missing("RDom '" + dom_->name + "' has " + std::to_string(ranges.size()) + " dimension" +
                                   (ranges.size() == 1 ? "" : "s") + ", so " + dom_->name + "." + suffix[i] +
                                   " does not exist; give the RDom more ranges, or use the ones it has");
    }
}

namespace {
std::vector<std::pair<Expr, Expr>> paired_bounds(const std::vector<Expr> &bounds, const std::string &name) {
    user_assert(bounds.size() % 2 == 0)
        << "RDom" << (name.empty() ? "" : " '" + name + "'") << " given " << bounds.size()
        << " bounds: give a min and an extent for each dimension (RDom(min0, extent0, min1, extent1, ...))";
    std::vector<std::pair<Expr, Expr>> ranges;
    for (size_t i = 0; i < bounds.size(); i += 2) ranges.emplace_back(bounds[i], bounds[i + 1]);
    return ranges;
}
}  // namespace

RDom::RDom(const RangesAndName &given) : RDom(paired_bounds(given.bounds, given.name), given.name) {}

RDom::RDom() {
    RVar *fields[] = {&x, &y, &z, &w};
    const char *suffix[] = {"x", "y", "z", "w"};
    for (int i = 0; i < 4; i++) {
        *fields[i] = RVar::missing(std::string("Use of .") + suffix[i] + " of an RDom that has no dimensions "
                                   "(default-constructed, never given ranges); construct it with its bounds, as "
                                   "RDom r(0, 10)");
    }
}

RDom::RDom(const ImageParam &p) {
    std::vector<std::pair<Expr, Expr>> ranges;
    for (int d = 0; d < p.dimensions(); d++) ranges.push_back({p.dim(d).min(), p.dim(d).extent()});
    *this = RDom(ranges);
}

RDom &RDom::where(Expr predicate) {
    user_assert(dom_) << "where() on an RDom with no dimensions";
    user_assert(predicate.defined()) << "RDom '" << dom_->name << "'.where() with an undefined Expr";
    user_assert(predicate.type().is_bool() && predicate.type().is_scalar())
        << "RDom '" << dom_->name << "'.where(" << predicate << "): the predicate is " << predicate.type()
        << "; it must be a boolean condition such as r.x < r.y";
    user_assert(!dom_->used) << "RDom '" << dom_->name << "'.where(" << predicate << ") after the RDom was used in "
                             << "a definition; add predicates before using the RDom";
    // A predicate built as a graph whose tree is huge is walked as a tree by every later
    // pass: its shared parts are bound by Lets first, as a definition's are. A small one is
    // left as written, for the analyses that read bounds of RVars off it.
    if (!tree_size_below(predicate, 4096)) predicate = common_subexpression_elimination(predicate);
    // Random numbers in a predicate are hashes of the RDom's point.
    std::vector<Expr> point;
    for (auto &rv : dom_->vars) point.push_back(Variable::make(Int(32), rv.name, nullptr, dom_));
    predicate = internal::lower_random(predicate, point, "RDom " + dom_->name, int(dom_->predicates.size()));
    dom_->predicates.push_back(predicate_of(dom_.get(), predicate));
    return *this;
}

RVar RDom::operator[](int i) const {
    user_assert(dom_ && i >= 0 && i < dimensions())
        << "RDom has " << dimensions() << " dimensions; no dimension " << i;
    return RVar(dom_, i);
}

std::vector<std::pair<Expr, Expr>> RDom::ranges_of(const std::shared_ptr<BufferContents> &b) {
    std::vector<std::pair<Expr, Expr>> r;
    for (auto &d : b->dims) r.push_back({Expr(d.min), Expr(d.extent)});
    return r;
}

ImageParam::ImageParam(Type t, int dimensions, const std::string &name)
    : p_(std::make_shared<ParameterContents>()), wrappers_(std::make_shared<ImageParamWrappers>()) {
    p_->name = name.empty() ? unique_name('i') : name;
    p_->type = t;
    p_->is_buffer = true;
    p_->dimensions = dimensions;
    p_->wrappers = wrappers_;
    p_->plain = p_;
    auto owner = std::make_shared<std::pair<std::shared_ptr<ParameterContents>, std::shared_ptr<ImageParamWrappers>>>(p_, wrappers_);
    p_holding_wrappers_ = std::shared_ptr<ParameterContents>(owner, p_.get());
}

Func ImageParam::in(const Func &consumer) { return in(std::vector<Func>{consumer}); }

Func ImageParam::in(const std::vector<Func> &consumers) {
    user_assert(p_) << "in() of an undefined ImageParam";
    user_assert(!consumers.empty()) << "ImageParam '" << name() << "': in() of an empty list of consumers";
    if (auto existing = wrappers_->for_consumer(consumers[0].function().get())) return Func(existing);
    std::string wname = name() + "_in";
    for (const Func &c : consumers) wname += "_" + c.name();
    Func w = image_wrapper(wname);
    for (const Func &c : consumers) wrappers_->set_for_consumer(c.function(), w.function());
    return w;
}

Func ImageParam::in() {
    user_assert(p_) << "in() of an undefined ImageParam";
    if (wrappers_->global) return Func(wrappers_->global);
    Func w = image_wrapper(name() + "_global_wrapper");
    wrappers_->global = w.function();
    return w;
}

ImageParam::operator Func() const {
    user_assert(p_) << "An undefined ImageParam (made without a type and dimensions) used as a Func";
    if (std::shared_ptr<FunctionContents> f = wrappers_->as_func.lock()) return Func(f);
    Func f(name());
    std::vector<Expr> args;
    for (int d = 0; d < dimensions(); d++) args.push_back(Var("_" + std::to_string(d)));
    f(args) = (*this)(args);
    // (As Halide's: the image's Func records its type and dimensions as required ones.)
    f.function()->required_types = {type()};
    f.function()->required_dimensions = dimensions();
    wrappers_->as_func = f.function();
    return f;
}

ImageParam &ImageParam::set_estimates(const std::vector<std::pair<Expr, Expr>> &region) {
    user_assert(p_) << "set_estimates of an undefined ImageParam";
    user_assert(int(region.size()) == dimensions())
        << "ImageParam '" << name() << "' has " << dimensions() << " dimensions but set_estimates was given "
        << region.size() << " (min, extent) pairs";
    for (int d = 0; d < dimensions(); d++) dim(d).set_estimate(region[d].first, region[d].second);
    return *this;
}

ImageParam &ImageParam::set_host_alignment(int bytes) {
    user_assert(p_) << "set_host_alignment of an undefined ImageParam";
    user_assert(bytes > 0) << "ImageParam '" << name() << "': set_host_alignment(" << bytes
                           << ") needs a positive number of bytes";
    std::lock_guard<std::mutex> lock(p_->mutex);
    p_->host_alignment = bytes;
    p_->constraints_version++;  // pipelines compiled without the check recompile
    return *this;
}

Func ImageParam::image_wrapper(const std::string &wname) {
    Func w(wname);
    std::vector<Expr> args;
    for (int d = 0; d < dimensions(); d++) args.push_back(Var("_" + std::to_string(d)));
    w(args) = read(args, false);
    // Pipelines compiled before read the image directly: they recompile (as for a new
    // constraint) to read the wrapper.
    std::lock_guard<std::mutex> lock(p_->mutex);
    p_->constraints_version++;
    return w;
}

void check_image_param_buffer(const ParameterContents &p, const Buffer<> &b, const char *how) {
    user_assert(b.defined()) << "ImageParam '" << p.name << "' " << how << " an undefined Buffer";
    user_assert(b.type() == p.type)
        << "ImageParam '" << p.name << "' has type " << p.type.to_string() << " but was " << how
        << " Buffer '" << b.name() << "' of type " << b.type().to_string();
    user_assert(b.dimensions() == p.dimensions)
        << "ImageParam '" << p.name << "' has " << p.dimensions << " dimensions but was " << how
        << " Buffer '" << b.name() << "' with " << b.dimensions();
}

void ImageParam::set(const Buffer<> &b) {
    check_image_param_buffer(*p_, b, "set to");
    p_->set_buffer(b.contents);
}

Buffer<> ImageParam::get() const {
    Buffer<> b;
    b.contents = p_->bound_buffer();
    return b;
}

Expr ImageParam::operator()(std::vector<Expr> args) const { return read(std::move(args), true); }

Expr ImageParam::read(std::vector<Expr> args, bool holding_wrappers) const {
    user_assert(p_) << "Use of an undefined ImageParam";
    expand_placeholder(args, dimensions(), "ImageParam '" + name() + "'");
    user_assert(int(args.size()) == dimensions())
        << "ImageParam '" << name() << "' has " << dimensions() << " dimensions but is called with "
        << args.size() << " arguments";
    for (size_t i = 0; i < args.size(); i++) args[i] = call_argument(args[i], "ImageParam '" + name() + "'", i);
    return Call::make(type(), name(), std::move(args), Call::Image, nullptr, holding_wrappers ? p_holding_wrappers_ : p_);
}

Expr buffer_field(const std::shared_ptr<ParameterContents> &p, const char *field, int d) {
    return Variable::make(Int(32), p->name + "." + field + "." + std::to_string(d), p);
}

Dimension ImageParam::dim(int i) const { return Dimension(p_, i); }

std::string LoopLevel::to_string() const {
    const LoopLevel &l = current();
    if (l.kind == Undefined) return "undefined";
    if (l.kind == Inlined) return "inline";
    if (l.kind == Root) return "root";
    return l.func_name + "." + l.var_name;
}

}  // namespace halo
