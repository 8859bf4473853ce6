#include "Wrappers.h"

#include <map>
#include <set>

#include "dsl/Error.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// Redirects the calls in one consumer's definitions.
class RedirectCalls : public IRMutator {
public:
    RedirectCalls(const Environment &env, const FunctionCopies &names, const std::string &consumer)
        : env_(env), names_(names), consumer_(consumer), original_consumer_(names.original_of(consumer)) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    // A wrapper may itself be wrapped for the same consumer (f.in(g).in(g)): the consumer then
    // reads the last wrapper of the chain, which reads the one before it, and so on to f.
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        // A Func's reads of itself in its updates (f(x) += 1, a scan) stay reads of itself, as
        // in Halide's wrap_func_calls: through its global wrapper they made a cycle.
        if (const Call *c = e.as<Call>(); c && c->name == consumer_) return e;
        for (size_t hops = 0; hops <= env_.size(); hops++) {
            const Call *c = e.as<Call>();
            const WrapperSet *wrappers = wrappers_of(c);
            if (!wrappers || wrappers->empty()) return e;
            // The consumer's own wrapper (by the Func, not its name), else the global one, which
            // is not used inside the wrapped Func's (or image's) own wrappers.
            std::shared_ptr<FunctionContents> w = wrappers->for_consumer(original_consumer_);
            if (!w && (!wrappers->global || is_wrapper_of(*wrappers))) return e;
            if (!w) w = wrappers->global;
            // (An input's wrapper made by another thread after this lowering began is not one of
            // the pipeline's Funcs: the next compile uses it.)
            const std::string *wrapper = names_.find_name(w.get());
            if (!wrapper || *wrapper == consumer_ || *wrapper == c->name) return e;  // a wrapper reads what it wraps
            used_.insert(*wrapper);  // this consumer now reads the wrapper
            e = Call::make(c->type, *wrapper, c->args, Call::Halo, w, nullptr, c->value_index);
        }
        return e;
    }

private:
    // A Func's wrappers (Func::in) or an input image's (ImageParam::in).
    const WrapperSet *wrappers_of(const Call *op) {
        if (op->call_type == Call::Halo) {
            auto f = env_.find(op->name);
            return f == env_.end() ? nullptr : &f->second->wrappers;
        }
        if (op->call_type != Call::Image || !op->param) return nullptr;
        std::shared_ptr<ImageParamWrappers> w = op->param->wrappers.lock();
        if (!w) return nullptr;
        image_wrappers_.push_back(w);  // alive while this pass runs
        return w.get();
    }
    bool is_wrapper_of(const WrapperSet &wrappers) const {
        for (auto &w : wrappers.all()) {
            const std::string *name = names_.find_name(w.get());
            if (name && *name == consumer_) return true;
        }
        return false;
    }
    std::vector<std::shared_ptr<ImageParamWrappers>> image_wrappers_;
    const Environment &env_;
    const FunctionCopies &names_;
    const std::string &consumer_;
    const FunctionContents *original_consumer_;  // the user's Func the consumer is a copy of
    std::set<std::string> used_;

public:
    // The wrappers the consumer reads after the redirection.
    const std::set<std::string> &used() const { return used_; }
};

void redirect(Definition &d, RedirectCalls &r) {
    for (auto &v : d.values) v = r.mutate(v);
    for (auto &a : d.args) a = r.mutate(a);
    // The condition of select(c, v, undef()) reads through the wrapper too (it once read the
    // wrapped Func directly, which was then computed where the consumer's loops did not
    // expect it: a CompileError on a valid program).
    if (d.store_condition.defined()) d.store_condition = r.mutate(d.store_condition);
    if (d.rdom && !d.rdom->predicates.empty()) {
        std::vector<Expr> predicates = d.rdom->predicates;
        bool changed = false;
        for (auto &p : predicates) {
            Expr q = r.mutate(p);
            changed |= !q.same_as(p);
            p = q;
        }
        if (changed) {  // the RDom may be shared with other definitions: a copy of its own
            d.rdom = std::make_shared<ReductionDomainContents>(*d.rdom);
            d.rdom->predicates = predicates;
        }
    }
    for (auto &sp : d.specializations) redirect(*sp.definition, r);
}

}  // namespace

void apply_wrappers(Environment &env, const std::vector<std::string> &outputs, const FunctionCopies &copies) {
    std::map<std::string, std::set<std::string>> used;  // consumer -> wrappers it reads
    for (auto &[name, f] : env) {
        RedirectCalls r(env, copies, name);
        for (int k = 0; k < f->stages(); k++) redirect(f->stage(k), r);
        used[name] = r.used();
    }
    // f.in(g) where g (in this pipeline) does not read f: the wrapper and its schedule would be
    // dropped without a word (Halide refuses it too).
    for (auto &[name, f] : env) {
        for (auto &[consumer_func, w] : f->wrappers.for_consumers) {
            auto c = consumer_func.lock();
            const std::string *consumer = c ? copies.find_name(c.get()) : nullptr;
            if (!consumer || !env.count(*consumer)) continue;
            const std::string &wrapper = copies.name_in_copies(w.get());
            user_assert(used[*consumer].count(wrapper))
                << "Func '" << name << "': " << (w->clone_of.empty() ? "in(" : "clone_in(") << *consumer
                << ") wraps it for '" << *consumer << "', but '" << *consumer << "' does not call '" << name
                << "', so the " << (w->clone_of.empty() ? "wrapper '" : "clone '") << wrapper
                << "' and its schedule would do nothing. Wrap it for a Func that reads it";
        }
    }
    // Keep what the output reaches now (a wrapper of a consumer outside this pipeline, or a
    // wrapped Func read only through wrappers, drops out or stays as needed).
    std::set<std::string> reached;
    std::vector<std::string> stack = outputs;
    while (!stack.empty()) {
        std::string n = stack.back();
        stack.pop_back();
        if (!reached.insert(n).second) continue;
        for (auto &c : direct_calls(*env.at(n))) stack.push_back(c);
    }
    for (auto it = env.begin(); it != env.end();) {
        if (reached.count(it->first)) ++it;
        else it = env.erase(it);
    }
}

}  // namespace halo
