#include "Environment.h"

#include <algorithm>
#include <functional>
#include <set>

#include "dsl/Error.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// Applies fn to every Expr of a definition (value, args, RDom bounds and predicates, split
// factors, and unless own_only its specializations).
void for_each_definition_expr(const Definition &d, const std::function<void(const Expr &)> &fn,
                              bool own_only = false) {
    for (auto &v : d.values) fn(v);
    for (auto &a : d.args) fn(a);
    if (d.rdom) {
        for (auto &rv : d.rdom->vars) {
            fn(rv.min);
            fn(rv.extent);
        }
        for (auto &p : d.rdom->predicates) fn(p);
    }
    for (auto &sp : d.schedule.splits) {
        if (sp.factor.defined()) fn(sp.factor);
    }
    for (auto &p : d.schedule.prefetches) fn(p.offset);
    if (own_only) return;
    for (auto &sp : d.specializations) {
        fn(sp.condition);
        for_each_definition_expr(*sp.definition, fn);
    }
}

// ... of one stage of f, with its specializations' conditions and schedules.
void for_each_stage_expr(const FunctionContents &f, int s, const std::function<void(const Expr &)> &fn) {
    for_each_definition_expr(f.stage(s), fn);
}

}  // namespace

void for_each_expr(const FunctionContents &f, const std::function<void(const Expr &)> &fn) {
    for (int s = 0; s < f.stages(); s++) for_each_stage_expr(f, s, fn);
    for (auto &b : f.schedule.bounds) {
        for (const Expr *e : {&b.min, &b.extent, &b.modulus, &b.remainder}) {
            if (e->defined()) fn(*e);
        }
    }
    for (auto &[var, extent] : f.schedule.storage_bounds) fn(extent);
}

namespace {

struct CallCollector : IRVisitor {
    std::vector<const Call *> calls;
    std::vector<const Variable *> params;
    void visit(const Call *op) override {
        if (op->call_type == Call::Halo || op->call_type == Call::Image) calls.push_back(op);
        IRVisitor::visit(op);
    }
    void visit(const Variable *op) override {
        if (op->param) params.push_back(op);
        if (op->rdom) {
            for (auto &rv : op->rdom->vars) {
                rv.min.accept(this);
                rv.extent.accept(this);
            }
        }
    }
};

}  // namespace

namespace {
std::vector<std::string> called_names(const CallCollector &c, const FunctionContents &f) {
    std::vector<std::string> names;
    for (auto *call : c.calls) {
        if (call->call_type == Call::Halo && call->name != f.name &&
            std::find(names.begin(), names.end(), call->name) == names.end()) {
            names.push_back(call->name);
        }
    }
    return names;
}
}  // namespace

std::vector<std::string> direct_calls(const FunctionContents &f) {
    CallCollector c;
    for_each_expr(f, [&](const Expr &e) { e.accept(&c); });
    return called_names(c, f);
}

std::vector<std::string> stage_calls(const FunctionContents &f, int stage) {
    CallCollector c;
    for_each_stage_expr(f, stage, [&](const Expr &e) { e.accept(&c); });
    return called_names(c, f);
}

std::vector<std::string> definition_calls(const FunctionContents &f, const Definition &d) {
    CallCollector c;
    for_each_definition_expr(d, [&](const Expr &e) { e.accept(&c); }, true);
    return called_names(c, f);
}

std::vector<std::shared_ptr<FunctionContents>> pipeline_functions(
    const std::vector<std::shared_ptr<FunctionContents>> &outputs) {
    std::vector<std::shared_ptr<FunctionContents>> funcs;
    std::set<const FunctionContents *> seen;
    std::vector<std::shared_ptr<FunctionContents>> stack(outputs.rbegin(), outputs.rend());
    while (!stack.empty()) {
        auto f = stack.back();
        stack.pop_back();
        if (!seen.insert(f.get()).second) continue;
        user_assert(f->has_pure_definition)
            << "Func '" << f->name << "' is used in the pipeline but has no definition";
        funcs.push_back(f);
        CallCollector c;
        for_each_expr(*f, [&](const Expr &e) { e.accept(&c); });
        for (auto *call : c.calls) {
            // An input image's wrappers (ImageParam::in), which lowering redirects reads to.
            if (call->call_type == Call::Image && call->param) {
                if (auto w = call->param->wrappers.lock()) {
                    for (auto &wrapper : w->all()) stack.push_back(wrapper);
                }
            }
            if (call->call_type != Call::Halo || call->func == f) continue;
            auto callee = call->func.lock();
            user_assert(callee) << "Func '" << f->name << "' reads Func '" << call->name << "', which no longer "
                                << "exists (a wrapper made by " << call->name << ".in() outlived it): keep "
                                << "the wrapped Func alive while the pipeline is used";
            stack.push_back(callee);
        }
        // Wrappers (Func::in): lowering redirects calls to them; their schedules count too.
        for (auto &w : f->wrappers.all()) stack.push_back(w);
    }
    return funcs;
}

std::vector<std::string> realization_order(const Environment &env, const std::vector<std::string> &outputs) {
    std::vector<std::string> order;
    std::set<std::string> done, visiting;
    std::function<void(const std::string &)> visit = [&](const std::string &name) {
        if (done.count(name)) return;
        user_assert(!visiting.count(name))
            << "Func '" << name << "' depends on itself through other Funcs; a pipeline must be "
            << "acyclic (use an update definition for recurrences)";
        visiting.insert(name);
        for (auto &callee : direct_calls(*env.at(name))) visit(callee);
        visiting.erase(name);
        done.insert(name);
        order.push_back(name);
    };
    for (auto &o : outputs) visit(o);
    return order;
}

std::vector<std::shared_ptr<ParameterContents>> parameters_read(const std::vector<std::shared_ptr<FunctionContents>> &funcs) {
    std::vector<std::shared_ptr<ParameterContents>> params;
    auto add = [&](const std::shared_ptr<ParameterContents> &p) {
        // (By the contents: a read of an ImageParam holds it through an aliasing pointer.)
        if (std::none_of(params.begin(), params.end(), [&](auto &q) { return q.get() == p.get(); })) params.push_back(p);
    };
    for (auto &f : funcs) {
        CallCollector c;
        for_each_expr(*f, [&](const Expr &e) { e.accept(&c); });
        for (auto *call : c.calls) {
            if (call->call_type == Call::Image && call->param) add(call->param);
        }
        for (auto *v : c.params) add(v->param);
    }
    return params;
}

std::set<std::string> parameter_names(const std::vector<std::shared_ptr<FunctionContents>> &funcs) {
    std::set<std::string> names;
    for (auto &p : parameters_read(funcs)) names.insert(p->name);
    return names;
}

std::vector<std::shared_ptr<ParameterContents>> find_parameters(const Environment &env,
                                                                const std::vector<std::string> &order) {
    std::vector<std::shared_ptr<FunctionContents>> funcs;
    for (auto &name : order) funcs.push_back(env.at(name));
    std::vector<std::shared_ptr<ParameterContents>> params = parameters_read(funcs);
    for (size_t i = 0; i < params.size(); i++) {
        const ParameterContents &p = *params[i];
        for (size_t j = 0; j < i; j++) {
            user_assert(params[j]->name != p.name)
                << "Two different inputs are both named '" << p.name << "'; give them distinct names";
        }
        // A Func's buffer has the Func's name: an input of the same name would be the same
        // buffer in the generated code (the Func once wrote into the caller's input). Other
        // Funcs are renamed in lowering's copies (DistinctNames.h); an output keeps its name,
        // which names the caller's buffer argument.
        user_assert(!env.count(p.name))
            << (p.is_buffer ? "The input buffer '" : "The Param '") << p.name
            << "' has the same name as the pipeline's output Func '" << p.name
            << "', and both name arguments of the compiled pipeline; give them distinct names";
    }
    return params;
}

}  // namespace halo
