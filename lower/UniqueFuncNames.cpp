#include "UniqueFuncNames.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "Environment.h"
#include "dsl/Error.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// The Funcs a definition reads, and the input images whose wrappers (ImageParam::in) it may
// be redirected to.
struct FuncReads : IRVisitor {
    std::vector<std::shared_ptr<FunctionContents>> funcs;
    std::vector<std::shared_ptr<ImageParamWrappers>> image_wrappers;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halo) {
            if (auto f = op->func.lock()) funcs.push_back(f);
        } else if (op->call_type == Call::Image && op->param) {
            if (auto w = op->param->wrappers.lock()) image_wrappers.push_back(w);
        }
        IRVisitor::visit(op);
    }
};

// Every Func of the pipeline by identity (find_functions goes by name, which is what may be
// ambiguous here), outputs first; and the wrapper maps of the images it reads.
struct PipelineFuncs {
    std::vector<std::shared_ptr<FunctionContents>> funcs;
    std::vector<std::shared_ptr<ImageParamWrappers>> image_wrappers;
};

PipelineFuncs funcs_of(const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    PipelineFuncs p;
    std::set<const FunctionContents *> seen;
    std::set<const ImageParamWrappers *> seen_images;
    std::vector<std::shared_ptr<FunctionContents>> stack(outputs.rbegin(), outputs.rend());
    while (!stack.empty()) {
        auto f = stack.back();
        stack.pop_back();
        if (!seen.insert(f.get()).second) continue;
        p.funcs.push_back(f);
        FuncReads reads;
        for_each_expr(*f, [&](const Expr &e) { e.accept(&reads); });
        for (auto &w : reads.image_wrappers) {
            if (!seen_images.insert(w.get()).second) continue;
            p.image_wrappers.push_back(w);
            for (auto &[consumer, wrapper] : w->by_consumer) stack.push_back(wrapper);
        }
        for (auto &callee : reads.funcs) stack.push_back(callee);
        for (auto &[consumer, wrapper] : f->wrappers) stack.push_back(wrapper);
    }
    return p;
}

// Gives the renamed Funcs' calls their new names.
class RenameCalls : public IRMutator {
public:
    explicit RenameCalls(const std::map<const FunctionContents *, std::string> &renamed) : renamed_(renamed) {}
    using IRMutator::mutate;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type != Call::Halo) return e;
        auto r = renamed_.find(op->func.identity());
        if (r == renamed_.end()) return e;
        const Call *c = e.as<Call>();
        return Call::make(c->type, r->second, c->args, c->call_type, c->func, c->param, c->value_index);
    }

private:
    const std::map<const FunctionContents *, std::string> &renamed_;
};

// Rewrites one Expr; returns whether it changed.
bool rename_calls_in(Expr &e, RenameCalls &rename) {
    if (!e.defined()) return false;
    Expr n = rename.mutate(e);
    if (n.same_as(e)) return false;
    e = n;
    return true;
}

// Rewrites every Expr of a definition, as for_each_expr reads them, and its store condition.
// Returns whether any changed.
bool rename_calls_in(Definition &d, RenameCalls &rename, std::set<const ReductionDomainContents *> &rdoms_done) {
    bool changed = false;
    auto update = [&](Expr &e) { changed |= rename_calls_in(e, rename); };
    for (auto &v : d.values) update(v);
    for (auto &a : d.args) update(a);
    update(d.store_condition);
    // Reduction domains are shared by the definitions that use them: each is renamed once.
    if (d.rdom && rdoms_done.insert(d.rdom.get()).second) {
        for (auto &rv : d.rdom->vars) {
            update(rv.min);
            update(rv.extent);
        }
        for (auto &p : d.rdom->predicates) update(p);
    }
    for (auto &sp : d.schedule.splits) update(sp.factor);
    for (auto &sp : d.specializations) {
        update(sp.condition);
        changed |= rename_calls_in(*sp.definition, rename, rdoms_done);
    }
    return changed;
}

using WrapperMap = std::map<std::string, std::shared_ptr<FunctionContents>>;
using ConsumerMap = std::map<std::string, std::weak_ptr<FunctionContents>>;

// Wrappers are keyed by their consumer's name, with the consumer kept beside: one whose
// consumer is unknown (or gone) for a shared name cannot be told apart.
void check_wrapper_keys(const WrapperMap &wrappers, const ConsumerMap &consumers, const std::string &wrapped,
                        const std::set<std::string> &shared_names) {
    for (auto &[consumer, wrapper] : wrappers) {
        if (!shared_names.count(consumer)) continue;
        auto c = consumers.find(consumer);
        user_assert(c != consumers.end() && !c->second.expired())
            << wrapped << " has a wrapper for consumer '" << consumer << "' (made by in(" << consumer
            << ")), but two different Funcs in this pipeline are named '" << consumer
            << "', and the wrapper cannot tell which one it is for: give the Funcs distinct names";
    }
}

// Moves the wrappers of renamed consumers to their new names.
bool rekey_wrappers(WrapperMap &wrappers, ConsumerMap &consumers,
                    const std::map<const FunctionContents *, std::string> &renamed) {
    std::vector<std::pair<std::string, std::string>> moves;
    for (auto &[key, consumer] : consumers) {
        auto c = consumer.lock();
        auto r = c ? renamed.find(c.get()) : renamed.end();
        if (r != renamed.end() && key != r->second && wrappers.count(key)) moves.push_back({key, r->second});
    }
    for (auto &[from, to] : moves) {
        wrappers[to] = wrappers[from];
        consumers[to] = consumers[from];
        wrappers.erase(from);
        consumers.erase(from);
    }
    return !moves.empty();
}

}  // namespace

void name_funcs_apart(const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    PipelineFuncs p = funcs_of(outputs);
    std::map<std::string, std::vector<std::shared_ptr<FunctionContents>>> by_name;
    for (auto &f : p.funcs) by_name[f->name].push_back(f);
    std::set<std::string> shared_names;
    for (auto &[name, group] : by_name) {
        if (group.size() > 1) shared_names.insert(name);
    }
    if (shared_names.empty()) return;

    auto is_output = [&](const std::shared_ptr<FunctionContents> &f) {
        return std::find(outputs.begin(), outputs.end(), f) != outputs.end();
    };
    std::set<std::string> used;
    for (auto &f : p.funcs) used.insert(f->name);
    std::map<const FunctionContents *, std::string> renamed;
    for (auto &name : shared_names) {
        auto group = by_name[name];
        // An output keeps its name (it names the pipeline's result; two outputs with one name
        // are refused by lowering), then the Func made first.
        std::stable_sort(group.begin(), group.end(), [&](const auto &a, const auto &b) {
            if (is_output(a) != is_output(b)) return is_output(a);
            return a->serial < b->serial;
        });
        int next = 1;
        for (size_t i = 1; i < group.size(); i++) {
            if (is_output(group[i])) continue;
            std::string fresh;
            do {
                fresh = name + "$" + std::to_string(next++);
            } while (used.count(fresh));
            used.insert(fresh);
            renamed[group[i].get()] = fresh;
        }
    }

    // References by name alone first, so that an ambiguous one leaves every Func as it was.
    for (auto &f : p.funcs) {
        check_wrapper_keys(f->wrappers, f->wrapper_consumers, "Func '" + f->name + "'", shared_names);
        for (const LoopLevel *level : {&f->schedule.compute_level, &f->schedule.store_level}) {
            user_assert(level->kind != LoopLevel::At || !shared_names.count(level->func) || !level->consumer.expired())
                << "Func '" << f->name << "' is scheduled at loop level " << level->func << "." << level->var
                << " (given by name), but two different Funcs in this pipeline are named '" << level->func
                << "': give them distinct names, or schedule with compute_at/store_at of the Func itself";
        }
    }
    for (auto &w : p.image_wrappers) check_wrapper_keys(w->by_consumer, w->consumers, "An input image", shared_names);

    for (auto &[f, name] : renamed) {
        auto it = std::find_if(p.funcs.begin(), p.funcs.end(), [&](const auto &g) { return g.get() == f; });
        internal_assert(it != p.funcs.end()) << "renamed Func not in the pipeline";
        (*it)->name = name;
        (*it)->changed();
    }
    RenameCalls rename(renamed);
    std::set<const ReductionDomainContents *> rdoms_done;
    for (auto &f : p.funcs) {
        bool changed = false;
        for (int s = 0; s < f->stages(); s++) changed |= rename_calls_in(f->stage(s), rename, rdoms_done);
        for (auto &b : f->schedule.bounds) {
            for (Expr *e : {&b.min, &b.extent, &b.modulus, &b.remainder}) changed |= rename_calls_in(*e, rename);
        }
        for (auto &fold : f->schedule.folds) changed |= rename_calls_in(fold.factor, rename);
        for (LoopLevel *level : {&f->schedule.compute_level, &f->schedule.store_level}) {
            if (level->kind != LoopLevel::At) continue;
            auto consumer = level->consumer.lock();
            auto r = consumer ? renamed.find(consumer.get()) : renamed.end();
            if (r != renamed.end() && level->func != r->second) {
                level->func = r->second;
                changed = true;
            }
        }
        changed |= rekey_wrappers(f->wrappers, f->wrapper_consumers, renamed);
        if (changed) f->changed();
    }
    for (auto &w : p.image_wrappers) rekey_wrappers(w->by_consumer, w->consumers, renamed);
}

}  // namespace halo
