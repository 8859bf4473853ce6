#include "DistinctNames.h"

#include <algorithm>
#include <set>

#include "dsl/Error.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

using Renames = std::map<const FunctionContents *, std::string>;

// Gives the calls of renamed Funcs their new names (the call still points at the user's Func,
// which only identifies it).
class RenameCalls : public IRMutator {
public:
    explicit RenameCalls(const Renames &renamed) : renamed_(renamed) {}
    using IRMutator::mutate;
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type != Call::Halo) return e;
        auto r = renamed_.find(op->func.identity());
        if (r == renamed_.end()) return e;
        const Call *c = e.as<Call>();
        return Call::make(c->type, r->second, c->args, c->call_type, c->func, c->param, c->value_index);
    }

private:
    const Renames &renamed_;
};

// Whether e calls one of the renamed Funcs.
bool calls_renamed(const Expr &e, const Renames &renamed) {
    return has_call(e, [&](const Call &c) { return c.call_type == Call::Halo && renamed.count(c.func.identity()); });
}

void rename_in(Expr &e, RenameCalls &rename) {
    if (e.defined()) e = rename.mutate(e);
}

// Renames the calls in a copied definition and its specializations.
void rename_in(Definition &d, RenameCalls &rename, const Renames &renamed) {
    for (auto &v : d.values) rename_in(v, rename);
    for (auto &a : d.args) rename_in(a, rename);
    rename_in(d.store_condition, rename);
    for (auto &sp : d.schedule.splits) rename_in(sp.factor, rename);
    if (d.rdom) {
        bool predicates_call = std::any_of(d.rdom->predicates.begin(), d.rdom->predicates.end(),
                                           [&](const Expr &p) { return calls_renamed(p, renamed); });
        if (predicates_call) {
            // The RDom is shared with the user's definitions (and maybe other Funcs'): the copy
            // gets an RDom of its own (as Wrappers.cpp does when it redirects a predicate).
            d.rdom = std::make_shared<ReductionDomainContents>(*d.rdom);
            for (auto &p : d.rdom->predicates) rename_in(p, rename);
        }
    }
    for (auto &sp : d.specializations) {
        rename_in(sp.condition, rename);
        rename_in(*sp.definition, rename, renamed);
    }
}

// RDom bounds are also reached through the RVars of every expression (Environment.cpp's call
// collector follows them), which a renamed copy of the RDom would not change: refused.
void check_rdom_bounds(const FunctionContents &f, const Definition &d, const Renames &renamed) {
    if (d.rdom) {
        for (auto &rv : d.rdom->vars) {
            user_assert(!calls_renamed(rv.min, renamed) && !calls_renamed(rv.extent, renamed))
                << "Func '" << f.name << "': the bounds of RDom '" << d.rdom->name << "' read a Func whose name "
                << "another Func of this pipeline has too, which lowering cannot tell apart there; give the "
                << "two Funcs distinct names";
        }
    }
    for (auto &sp : d.specializations) check_rdom_bounds(f, *sp.definition, renamed);
}

// A compute_at/store_at level naming a shared name follows the Func it was made from (which
// must be one of the pipeline's: a level given by name alone cannot tell them apart).
void rename_level(const FunctionContents &f, LoopLevel &level, const std::set<std::string> &shared,
                  const FunctionCopies &copies) {
    if (level.kind != LoopLevel::At || !shared.count(level.func_name)) return;
    auto consumer = level.consumer.lock();
    const std::string *name = consumer ? copies.find_name(consumer.get()) : nullptr;
    user_assert(name) << "Func '" << f.name << "' is scheduled at loop level " << level.func_name << "." << level.var_name
                      << " (given by name, or by a Func outside this pipeline), but two different Funcs in this "
                      << "pipeline are named '" << level.func_name << "': give them distinct names, or schedule with "
                      << "compute_at/store_at of the Func itself";
    level.func_name = *name;
}

// Of the Funcs sharing a name, the one that keeps it: an output, else the one made first.
void order_by_claim(std::vector<std::shared_ptr<FunctionContents>> &group,
                    const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    auto is_output = [&](const std::shared_ptr<FunctionContents> &f) {
        return std::find(outputs.begin(), outputs.end(), f) != outputs.end();
    };
    std::stable_sort(group.begin(), group.end(), [&](const auto &a, const auto &b) {
        if (is_output(a) != is_output(b)) return is_output(a);
        return a->serial < b->serial;
    });
}

}  // namespace

const std::string *FunctionCopies::find_name(const FunctionContents *original) const {
    auto n = name_of.find(original);
    return n == name_of.end() ? nullptr : &n->second;
}

const std::string &FunctionCopies::name_in_copies(const FunctionContents *original) const {
    const std::string *n = find_name(original);
    internal_assert(n) << "a Func reached by lowering is not one of the pipeline's";
    return *n;
}

const FunctionContents *FunctionCopies::original_of(const std::string &name) const {
    auto o = originals.find(name);
    internal_assert(o != originals.end()) << "lowering has no copy named '" << name << "'";
    return o->second.get();
}

FunctionCopies copy_with_distinct_names(const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    std::vector<std::shared_ptr<FunctionContents>> funcs = pipeline_functions(outputs);
    std::map<std::string, std::vector<std::shared_ptr<FunctionContents>>> by_name;
    for (auto &f : funcs) by_name[f->name].push_back(f);

    FunctionCopies copies;
    Renames renamed;  // only the Funcs whose names change
    // An input's name is its buffer's (and an AOT argument's), so it is claimed before any
    // Func's: Halide names a Func made after ImageParam "foo" foo$1.
    std::set<std::string> inputs = parameter_names(funcs);
    std::set<std::string> shared, used = inputs;
    for (auto &f : funcs) {
        copies.name_of[f.get()] = f->name;
        used.insert(f->name);
    }
    for (auto &[name, group] : by_name) {
        // An output keeps its name (the caller's buffer argument); Environment.cpp's
        // find_parameters refuses an input of the same name.
        bool input_claims = inputs.count(name) &&
                            std::none_of(group.begin(), group.end(), [&](const auto &f) {
                                return std::find(outputs.begin(), outputs.end(), f) != outputs.end();
                            });
        if (group.size() < 2 && !input_claims) continue;
        shared.insert(name);
        order_by_claim(group, outputs);
        int next = 1;
        for (size_t i = input_claims ? 0 : 1; i < group.size(); i++) {
            std::string fresh;
            do {
                fresh = name + "$" + std::to_string(next++);
            } while (used.count(fresh));
            used.insert(fresh);
            renamed[group[i].get()] = fresh;
            copies.name_of[group[i].get()] = fresh;
        }
    }

    if (!shared.empty()) {
        for (auto &f : funcs) {
            for (int s = 0; s < f->stages(); s++) check_rdom_bounds(*f, f->stage(s), renamed);
        }
    }
    RenameCalls rename(renamed);
    for (auto &f : funcs) {
        auto copy = std::make_shared<FunctionContents>(*f);
        copy->pipeline.reset();  // the copies' IR must not own a compiled pipeline
        copy->name = copies.name_of.at(f.get());
        lock_loop_levels(*copy, *f);
        if (!shared.empty()) {
            for (int s = 0; s < copy->stages(); s++) rename_in(copy->stage(s), rename, renamed);
            for (auto &b : copy->schedule.bounds) {
                for (Expr *e : {&b.min, &b.extent, &b.modulus, &b.remainder}) rename_in(*e, rename);
            }
            for (auto &fold : copy->schedule.folds) rename_in(fold.factor, rename);
            for (auto &[var, extent] : copy->schedule.storage_bounds) rename_in(extent, rename);
            rename_level(*copy, copy->schedule.compute_level, shared, copies);
            rename_level(*copy, copy->schedule.store_level, shared, copies);
        }
        copies.env[copy->name] = copy;
        copies.originals[copy->name] = f;
    }
    return copies;
}

}  // namespace halo
