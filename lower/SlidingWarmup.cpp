#include "SlidingWarmup.h"

#include <algorithm>
#include <functional>

#include "Bounds.h"
#include "Substitute.h"
#include "dsl/IROperator.h"
#include "dsl/IRVisitor.h"

namespace halo {

std::string warmup_min_name(const std::string &loop) { return loop + ".warmup_min"; }

std::string warmup_original_min_name(const std::string &loop) { return loop + ".original_min"; }

Expr warmup_guard(const std::string &loop) {
    return Variable::make(Int(32), warmup_original_min_name(loop)) <= Variable::make(Int(32), loop);
}

bool is_warmup_guard(const Expr &condition, std::string *loop) {
    auto le = condition.as<LE>();
    if (!le) return false;
    auto from = le->a.as<Variable>(), v = le->b.as<Variable>();
    if (!from || !v || from->name != warmup_original_min_name(v->name)) return false;
    *loop = v->name;
    return true;
}

std::set<std::string> loops_named_once(const Stmt &s) {
    struct Count : IRVisitor {
        std::map<std::string, int> seen;
        using IRVisitor::visit;
        void visit(const For *op) override {
            seen[op->name]++;
            IRVisitor::visit(op);
        }
    } count;
    s.accept(&count);
    std::set<std::string> once;
    for (auto &[name, n] : count.seen) {
        if (n == 1) once.insert(name);
    }
    return once;
}

namespace {

using PlannedFuncs = std::map<std::string, WarmupFunc>;

bool produces_any(const Stmt &s, const PlannedFuncs &funcs) {
    struct Find : IRVisitor {
        const PlannedFuncs &funcs;
        bool found = false;
        explicit Find(const PlannedFuncs &f) : funcs(f) {}
        using IRVisitor::visit;
        void visit(const ProducerConsumer *op) override {
            found |= op->is_producer && funcs.count(op->name) > 0;
            IRVisitor::visit(op);
        }
    } find(funcs);
    s.accept(&find);
    return find.found;
}

// The body of one loop, with everything but the sliding Funcs' production run only from the
// loop's original first iteration on (`from_first`). Walks down the lets, blocks, consume
// nodes and ifs on conditions fixed for the loop that lead to the sliding Funcs' produce nodes.
class GuardBody {
public:
    GuardBody(const std::string &loop, const PlannedFuncs &sliding, Expr from_first)
        : loop_(loop), sliding_(sliding), from_first_(std::move(from_first)) {}

    std::map<std::string, const ProducerConsumer *> sliding_produces;
    std::map<std::string, const ProducerConsumer *> other_produces;
    std::string why_not;  // "" if the warm-up is safe

    Stmt guard(const Stmt &s) {
        if (!s.defined()) return s;
        if (auto l = s.as<LetStmt>()) {
            // (A let whose value changes with the loop makes what names it change too.)
            bool varies = varies_with_loop(l->value), had = varying_.count(l->name) > 0;
            if (varies) varying_.insert(l->name);
            else varying_.erase(l->name);  // (a let of the same name inside hides an outer one)
            Stmt body = guard(l->body);
            if (had) varying_.insert(l->name);
            else varying_.erase(l->name);
            return LetStmt::make(l->name, l->value, body);
        }
        if (auto b = s.as<Block>()) return Block::make(guard(b->first), guard(b->rest));
        // A Func stored and computed in the loop: its buffer, sized for the iteration, must not
        // be allocated in the warm-up (its region there is made of coordinates the loop never
        // reaches), so it must not enclose a sliding Func.
        if (auto r = s.as<Realize>(); r && produces_any(s, sliding_) && why_not.empty()) {
            why_not = "the buffer of " + r->name + ", stored in the loop, encloses a sliding Func";
        }
        if (auto p = s.as<ProducerConsumer>()) {
            if (!p->is_producer) return ProducerConsumer::make(p->name, false, guard(p->body));
            if (sliding_.count(p->name)) {
                sliding_produces[p->name] = p;
                return s;
            }
            other_produces[p->name] = p;
            return later_only(s);
        }
        if (auto i = s.as<IfThenElse>(); i && !varies_with_loop(i->condition)) {
            return IfThenElse::make(i->condition, guard(i->then_case), guard(i->else_case));
        }
        // A GuardWithIf guard on the loop (likely(loop <= e)): it holds in every iteration
        // before the first that it holds in, so the sliding Funcs inside it run in the warm-up
        // (and where it fails, in the tail, no later iteration needs their rows).
        if (auto i = s.as<IfThenElse>(); i && !i->else_case.defined() && holds_up_to_a_bound(i->condition)) {
            return IfThenElse::make(i->condition, guard(i->then_case));
        }
        if (auto e = s.as<Evaluate>(); e && is_const(e->value)) return s;
        // A sliding Func's fold check guards the iterations of the warm-up too.
        if (is_fold_check_of_sliding(s)) return s;
        return later_only(s);
    }

private:
    // c is loop <= e or loop < e (perhaps in likely()), e not naming the loop.
    bool holds_up_to_a_bound(const Expr &c) const {
        Expr e = c;
        if (auto call = e.as<Call>(); call && call->is_intrinsic(Call::likely)) e = call->args[0];
        Expr a, b;
        if (auto le = e.as<LE>()) a = le->a, b = le->b;
        else if (auto lt = e.as<LT>()) a = lt->a, b = lt->b;
        else return false;
        auto v = a.as<Variable>();
        return v && v->name == loop_ && !varies_with_loop(b);
    }
    // Whether e names the loop's variable or a let of the body whose value does, or reads
    // memory or calls a Func or extern (values that may change from one iteration to the next).
    bool varies_with_loop(const Expr &e) const {
        struct Finder : IRVisitor {
            const std::string &loop;
            const std::set<std::string> &varying;
            bool found = false;
            Finder(const std::string &l, const std::set<std::string> &v) : loop(l), varying(v) {}
            using IRVisitor::visit;
            void visit(const Variable *v) override { found |= v->name == loop || varying.count(v->name) > 0; }
            void visit(const Load *) override { found = true; }
            void visit(const Call *c) override {
                found |= c->call_type != Call::Intrinsic;
                IRVisitor::visit(c);
            }
        } finder(loop_, varying_);
        e.accept(&finder);
        return finder.found;
    }
    bool is_fold_check_of_sliding(const Stmt &s) const {
        auto a = s.as<AssertStmt>();
        auto call = a ? a->message.as<Call>() : nullptr;
        if (!call || call->name != "halo_error_fold_storage" || call->args.empty()) return false;
        auto func = call->args[0].as<StringImm>();
        return func && sliding_.count(func->value);
    }
    Stmt later_only(const Stmt &s) {
        if (produces_any(s, sliding_) && why_not.empty()) {
            why_not = "a sliding Func is computed under a statement that must not run before the loop's first iteration";
        }
        return IfThenElse::make(from_first_, s);
    }

    const std::string &loop_;
    const PlannedFuncs &sliding_;
    Expr from_first_;
    std::set<std::string> varying_;  // lets of the body (around the statement walked) that vary with the loop
};

class WarmUp : public IRMutator {
public:
    WarmUp(const WarmupPlan &plan, std::vector<std::string> &report) : plan_(plan), report_(report) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        Stmt body = mutate(op->body);
        auto planned = plan_.find(op->name);
        if (planned == plan_.end()) return body.same_as(op->body) ? Stmt(self(op)) : For::make(op->name, op->min, op->extent, op->for_type, body);
        const std::string first_name = warmup_min_name(op->name);
        const std::string original_name = warmup_original_min_name(op->name);
        // (The guard names the original first iteration through a let of its own.)
        GuardBody g(op->name, planned->second, warmup_guard(op->name));
        Stmt guarded = g.guard(body);
        int early = 0;
        std::string why = g.why_not;
        for (auto &[f, p] : g.sliding_produces) {
            for (auto &[other, q] : g.other_produces) {
                (void)q;
                if (why.empty() && box_required(p->body, other).used) {
                    why = "the sliding Func " + f + " reads " + other + ", which is computed in the loop and does not warm up";
                }
            }
        }
        if (why.empty()) early = iterations_early(g.sliding_produces, planned->second);
        std::string funcs;
        for (auto &[f, p] : g.sliding_produces) funcs += (funcs.empty() ? "" : ", ") + f;
        if (!why.empty()) {
            report_.push_back(op->name + ": no warm-up before the loop (" + why + ")");
        } else if (early > 0) {
            report_.push_back(op->name + ": starts " + std::to_string(early) + " iteration" + (early > 1 ? "s" : "") +
                              " early to warm up the sliding window" + (g.sliding_produces.size() > 1 ? "s" : "") + " of " + funcs);
        }
        Stmt loop;
        if (early > 0) {
            // Not where the loop runs no iteration (it must not start running), nor where the
            // rows are near the low end of int32 (the warm-up's bounds, below them, could
            // overflow where the loop's own do not): there the first iteration computes all.
            Expr warm = op->extent > 0 && op->min > Int(32).min() / 2;
            for (auto &[f, p] : g.sliding_produces) {
                (void)p;
                warm = warm && planned->second.at(f).first_min > Int(32).min() / 2;
            }
            Expr iterations = Variable::make(Int(32), op->name + ".warmup_iterations");
            loop = For::make(op->name, Variable::make(Int(32), first_name), op->extent + iterations, op->for_type, guarded);
            loop = LetStmt::make(first_name, Variable::make(Int(32), original_name) - iterations, loop);
            loop = LetStmt::make(op->name + ".warmup_iterations", select(warm, early, 0), loop);
            return LetStmt::make(original_name, op->min, loop);
        }
        loop = For::make(op->name, op->min, op->extent, op->for_type, body);
        return LetStmt::make(first_name, op->min, loop);
    }

private:
    // How many iterations before the first the earliest sliding Func starts: each needs its own
    // warm-up before the first iteration in which a Func reading it (if any slides too) starts.
    static int iterations_early(const std::map<std::string, const ProducerConsumer *> &produces, const PlannedFuncs &needs) {
        std::map<std::string, int> start;  // iterations before the loop's first
        std::function<int(const std::string &)> early = [&](const std::string &f) -> int {
            auto known = start.find(f);
            if (known != start.end()) return known->second;
            int readers = 0;
            for (auto &[c, p] : produces) {
                if (c != f && box_required(p->body, f).used) readers = std::max(readers, early(c));
            }
            auto n = needs.find(f);
            return start[f] = readers + (n != needs.end() ? n->second.iterations : 0);
        };
        int most = 0;
        for (auto &[f, p] : produces) most = std::max(most, early(f));
        return most;
    }

    const WarmupPlan &plan_;
    std::vector<std::string> &report_;
};

}  // namespace

Stmt warm_up_sliding_windows(const Stmt &s, const WarmupPlan &plan, std::vector<std::string> &report) {
    if (plan.empty()) return s;
    return WarmUp(plan, report).mutate(s);
}

}  // namespace halo
