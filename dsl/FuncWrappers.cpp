// Func::in (identity wrappers) and Func::clone_in (copies of a Func's definitions): Funcs that
// the consumers they are made for read instead of this one. Lowering redirects those consumers'
// calls (lower/Wrappers.cpp); here they are made and remembered, as Halide's get_wrapper does.
#include <algorithm>

#include "Func.h"
#include "IRVisitor.h"

namespace halo {

namespace {

// An identity Func over f's domain, reading f weakly (f owns its wrappers).
std::shared_ptr<FunctionContents> make_wrapper(const std::shared_ptr<FunctionContents> &f, const std::string &name) {
    user_assert(f->has_pure_definition) << "Func '" << f->name << "': in() before it has a definition; define it first";
    Func w(name);
    std::vector<Expr> args;
    for (auto &a : f->args) args.push_back(Var(a));
    std::vector<Expr> values;
    for (int i = 0; i < f->outputs(); i++) {
        values.push_back(Call::make(f->pure.values[i].type(), f->name, args, Call::Halo, FunctionPtr::weak(f), nullptr, i));
    }
    w(args) = Tuple(values);
    return w.function();
}

// A clone's definitions read the clone where the original's read the original (an update
// f(x) += f(x - 1) of the clone reads the clone), weakly, as a Func's reads of itself are.
class RetargetSelfCalls : public IRMutator {
public:
    RetargetSelfCalls(const FunctionContents *original, const std::shared_ptr<FunctionContents> &clone)
        : original_(original), clone_(clone) {}
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        const Call *c = e.as<Call>();
        if (c->call_type != Call::Halo || c->func.identity() != original_) return e;
        return Call::make(c->type, clone_->name, c->args, Call::Halo, FunctionPtr::weak(clone_), nullptr, c->value_index);
    }

    void retarget(Definition &d) {
        for (auto &v : d.values) v = mutate(v);
        for (auto &a : d.args) a = mutate(a);
        if (d.store_condition.defined()) d.store_condition = mutate(d.store_condition);
        if (d.rdom && !d.rdom->predicates.empty()) {
            std::vector<Expr> predicates = d.rdom->predicates;
            bool changed = false;
            for (auto &p : predicates) {
                Expr q = mutate(p);
                changed |= !q.same_as(p);
                p = q;
            }
            if (changed) {  // the original keeps its RDom; the clone gets one of its own
                d.rdom = std::make_shared<ReductionDomainContents>(*d.rdom);
                d.rdom->predicates = predicates;
            }
        }
        for (auto &sp : d.specializations) {
            sp.condition = mutate(sp.condition);
            retarget(*sp.definition);
        }
    }

private:
    const FunctionContents *original_;
    const std::shared_ptr<FunctionContents> &clone_;
};

// A copy of f's definitions and schedule as they are now (later changes to f do not reach it).
std::shared_ptr<FunctionContents> make_clone(const std::shared_ptr<FunctionContents> &f, const std::string &name) {
    user_assert(f->has_pure_definition) << "Func '" << f->name
                                        << "': clone_in() before it has a definition; define it first";
    std::shared_ptr<FunctionContents> clone = Func(name).function();
    clone->args = f->args;
    clone->has_pure_definition = true;
    clone->pure = f->pure;
    clone->updates = f->updates;
    clone->schedule = f->schedule;
    clone->estimates = f->estimates;
    clone->records_visits = f->records_visits;
    clone->clone_of = f->name;
    RetargetSelfCalls retarget(f.get(), clone);
    for (int k = 0; k < clone->stages(); k++) retarget.retarget(clone->stage(k));
    return clone;
}

// The wrapper or clone (per `directive`) of f that these consumers read: the one they share
// already, or a new one made by make(). As in Halide, the consumers either share one already, or
// none of them has one; asking again returns the same one, whichever directive made it.
template <typename Make>
Func wrapper_for(const std::shared_ptr<FunctionContents> &f, const std::vector<Func> &consumers,
                 const std::string &directive, Make make) {
    const std::string name = f->name;
    user_assert(!consumers.empty()) << "Func '" << name << "': " << directive << "() of an empty list of consumers";
    for (const Func &c : consumers) {
        user_assert(c.function() != f) << "Func '" << name << "': " << directive << "(" << name
                                       << ") wraps a Func for its own use; name a consumer"
                                       << (directive == "in" ? " (or call in() for all of them)" : "");
    }
    auto listed = [&](const FunctionContents *c) {
        for (const Func &g : consumers) {
            if (g.function().get() == c) return true;
        }
        return false;
    };
    const std::string first = consumers[0].name();
    if (auto existing = f->wrappers.for_consumer(consumers[0].function().get())) {
        for (auto &e : f->wrappers.for_consumers) {
            auto c = e.consumer.lock();
            if (!c || c.get() == consumers[0].function().get()) continue;
            user_assert(!listed(c.get()) || e.wrapper == existing)
                << "Func '" << name << "': " << directive << "() of a list naming '" << first << "' and '" << c->name
                << "', which already read different wrappers of it ('" << existing->name << "' and '"
                << e.wrapper->name << "'); a list's consumers must share one wrapper: make it for all of them "
                << "in one " << directive << "({...}) call";
            user_assert(listed(c.get()) || e.wrapper != existing)
                << "Func '" << name << "': " << directive << "() of a list naming '" << first << "' but not '"
                << c->name << "', which shares its wrapper '" << existing->name
                << "'; list every consumer of a shared wrapper, or give '" << first << "' a wrapper of its own";
        }
        return Func(existing);
    }
    for (const Func &c : consumers) {
        auto other = f->wrappers.for_consumer(c.function().get());
        user_assert(!other) << "Func '" << name << "': " << directive << "() of a list naming '" << first << "' and '"
                            << c.name() << "': '" << c.name() << "' already reads the wrapper '" << other->name
                            << "' while '" << first << "' has none; a list's consumers must share one wrapper (name '"
                            << c.name() << "' first to get its wrapper, or make the wrapper for all of them in one call)";
    }
    std::shared_ptr<FunctionContents> w = make();
    for (const Func &c : consumers) f->wrappers.set_for_consumer(c.function(), w);
    f->changed();
    return Func(w);
}

}  // namespace

Func Func::in(const Func &consumer) { return in(std::vector<Func>{consumer}); }

Func Func::in(const std::vector<Func> &consumers) {
    return wrapper_for(f_, consumers, "in", [&] {
        std::string wname = name() + "_in";
        for (const Func &c : consumers) wname += "_" + c.name();
        return make_wrapper(f_, wname);
    });
}

Func Func::in() {
    if (f_->wrappers.global) return Func(f_->wrappers.global);
    auto w = make_wrapper(f_, name() + "_global_wrapper");
    f_->wrappers.global = w;
    f_->changed();
    return Func(w);
}

Func Func::clone_in(const Func &consumer) { return clone_in(std::vector<Func>{consumer}); }

Func Func::clone_in(const std::vector<Func> &consumers) {
    return wrapper_for(f_, consumers, "clone_in", [&] {
        // Halide's name: the consumers sorted, so that one list in any order names one clone.
        std::vector<std::string> names;
        for (const Func &c : consumers) names.push_back(c.name());
        std::sort(names.begin(), names.end());
        std::string cname = name() + "_clone_in";
        for (const std::string &n : names) cname += "_" + n;
        return make_clone(f_, cname);
    });
}

}  // namespace halo
