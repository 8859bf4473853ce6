#include "Prefetch.h"

#include <algorithm>
#include <map>
#include <set>

#include "Bounds.h"
#include "DistinctNames.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

const char *const kPlaceholder = "prefetch_placeholder";

const Call *as_placeholder(const Evaluate *e) {
    const Call *c = e->value.as<Call>();
    return c && c->is_intrinsic(kPlaceholder) ? c : nullptr;
}

// The placeholders directly in a loop's body (not in the loops inside it).
class FindPlaceholders : public IRVisitor {
public:
    std::vector<const Call *> found;

private:
    using IRVisitor::visit;
    void visit(const For *) override {}
    void visit(const Evaluate *op) override {
        if (const Call *c = as_placeholder(op)) found.push_back(c);
    }
};

class RemovePlaceholders : public IRMutator {
public:
    // Only those directly in the statement, or in the loops inside it too.
    explicit RemovePlaceholders(bool inside_loops = false) : inside_loops_(inside_loops) {}

private:
    using IRMutator::visit;
    Stmt visit(const For *op) override { return inside_loops_ ? IRMutator::visit(op) : self(op); }
    Stmt visit(const Evaluate *op) override { return as_placeholder(op) ? Evaluate::make(0) : self(op); }
    bool inside_loops_;
};

// A read of the buffer, per value of a Tuple: the Call to copy with other coordinates.
class FindReads : public IRVisitor {
public:
    explicit FindReads(const std::string &name) : name_(name) {}
    std::map<int, const Call *> by_value;

private:
    using IRVisitor::visit;
    void visit(const Call *op) override {
        if ((op->call_type == Call::Halo || op->call_type == Call::Image) && op->name == name_) {
            by_value.emplace(op->value_index, op);
        }
        IRVisitor::visit(op);
    }
    const std::string &name_;
};

class InjectPrefetches : public IRMutator {
public:
    explicit InjectPrefetches(const std::vector<std::string> &outputs) : outputs_(outputs.begin(), outputs.end()) {}

private:
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        realized_[op->name].push_back(op);
        Stmt body = mutate(op->body);
        realized_[op->name].pop_back();
        return Realize::make(op->name, op->types, op->bounds, body);
    }

    Stmt visit(const For *op) override {
        bool vector = op->for_type == ForType::Vectorized;
        vector_depth_ += vector;
        Stmt body = mutate(op->body);
        vector_depth_ -= vector;
        FindPlaceholders find;
        body.accept(&find);
        if (find.found.empty()) return For::make(op->name, op->min, op->extent, op->for_type, body);
        body = RemovePlaceholders().mutate(body);
        std::vector<Stmt> stmts;
        if (vector_depth_ == 0 && !vector) {
            for (const Call *p : find.found) {
                // (One whose own loop had one iteration, which the simplifier made a let, is
                // here in the loop around it: nothing lies ahead of that loop; it is dropped.)
                if (p->args[4].as<StringImm>()->value != op->name) continue;
                Stmt s = prefetch(p, body);
                if (s.defined()) stmts.push_back(s);
            }
        }
        stmts.push_back(body);
        return For::make(op->name, op->min, op->extent, op->for_type, Block::make(stmts));
    }

    // The prefetches placeholder p asks for, of what body reads; undefined if none.
    Stmt prefetch(const Call *p, const Stmt &body) {
        const std::string &name = p->args[0].as<StringImm>()->value;
        const std::string &from = p->args[1].as<StringImm>()->value;
        Expr offset = p->args[2];
        auto strategy = PrefetchBoundStrategy(*as_const_int(p->args[3]));
        FindReads reads(name);
        body.accept(&reads);
        if (reads.by_value.empty()) return Stmt();  // (not read here: nothing to prefetch)
        const Call *any = reads.by_value.begin()->second;
        // The buffer's extent: an input's or output's fields, or the realization around us.
        bool realized_here = realized_.count(name) && !realized_[name].empty();
        bool external = any->call_type == Call::Image || outputs_.count(name);
        if (!realized_here && !external) return Stmt();  // stored inside the loop
        Box box = box_required(body, name);
        if (box.empty()) return Stmt();
        std::map<std::string, Expr> ahead{{from, Variable::make(Int(32), from) + offset}};
        std::vector<Expr> mins, maxs;
        Expr inside = Expr(true);
        for (size_t d = 0; d < box.dims.size(); d++) {
            if (!box.dims[d].is_bounded()) return Stmt();
            Expr mn = substitute(ahead, box.dims[d].min), mx = substitute(ahead, box.dims[d].max);
            Expr buf_min, buf_extent;
            if (realized_here) {
                buf_min = realized_[name].back()->bounds[d].min;
                buf_extent = realized_[name].back()->bounds[d].extent;
            } else {
                buf_min = Variable::make(Int(32), name + ".min." + std::to_string(d));
                buf_extent = Variable::make(Int(32), name + ".extent." + std::to_string(d));
            }
            Expr buf_max = buf_min + buf_extent - 1;
            if (strategy == PrefetchBoundStrategy::Clamp) {
                mn = max(mn, buf_min);
                mx = min(mx, buf_max);
            } else if (strategy == PrefetchBoundStrategy::GuardWithIf) {
                inside = inside && mn >= buf_min && mx <= buf_max;
            }
            mins.push_back(simplify(mn));
            maxs.push_back(simplify(mx));
        }
        // One prefetch per cache line of each row: the innermost dimension in steps of a line,
        // then its last element, on a line of its own where a row does not start on one.
        std::string loop = "prefetch." + name + "." + std::to_string(count_++);
        std::vector<Expr> at(mins.size()), last(mins.size());
        for (size_t d = 1; d < mins.size(); d++) at[d] = last[d] = Variable::make(Int(32), loop + "." + std::to_string(d));
        int per_line = 1;
        if (!mins.empty()) {
            per_line = std::max(1, 64 / any->type.bytes());
            at[0] = mins[0] + Variable::make(Int(32), loop + ".0") * per_line;
            last[0] = maxs[0];
        }
        auto prefetch_at = [&](const std::vector<Expr> &where) {
            std::vector<Stmt> each;
            for (auto &[value, read] : reads.by_value) {
                Expr element = Call::make(read->type.element_of(), read->name, where, read->call_type, read->func,
                                          read->param, read->value_index);
                each.push_back(Evaluate::make(Call::make(Int(32), Call::prefetch, {element}, Call::Intrinsic)));
            }
            return Block::make(each);
        };
        Stmt s = prefetch_at(at);
        if (!mins.empty()) {
            // (The line starts mins[0] + k * per_line for k < ceil(extent / per_line); none for
            // an empty row, whose extent - 1 divides to below 0.)
            Expr starts = (maxs[0] - mins[0]) / per_line + 1;
            s = Block::make({For::make(loop + ".0", 0, simplify(starts), ForType::Serial, s), prefetch_at(last)});
        }
        for (size_t d = 1; d < mins.size(); d++) {
            s = For::make(loop + "." + std::to_string(d), mins[d], simplify(maxs[d] - mins[d] + 1), ForType::Serial, s);
        }
        Expr guard = simplify(inside);
        if (!is_one(guard)) s = IfThenElse::make(guard, s);
        if (box.maybe_unused()) s = IfThenElse::make(box.used_if, s);
        return s;
    }

    std::set<std::string> outputs_;
    std::map<std::string, std::vector<const Realize *>> realized_;
    int vector_depth_ = 0;
    int count_ = 0;
};

void resolve_in(Definition &d, const FunctionCopies &copies) {
    for (PrefetchDirective &p : d.schedule.prefetches) {
        auto f = p.func.lock();
        if (!f) continue;  // an input's: its name stands
        auto it = copies.name_of.find(f.get());
        p.buffer = it == copies.name_of.end() ? "" : it->second;
    }
    for (Specialization &sp : d.specializations) resolve_in(*sp.definition, copies);
}

}  // namespace

Stmt prefetch_placeholder(const PrefetchDirective &p, const std::string &from_loop, const std::string &at_loop) {
    return Evaluate::make(Call::make(Int(32), kPlaceholder,
                                     {StringImm::make(p.buffer), StringImm::make(from_loop), p.offset,
                                      Expr(int32_t(p.strategy)), StringImm::make(at_loop)},
                                     Call::Intrinsic));
}

void resolve_prefetch_targets(FunctionCopies &copies) {
    for (auto &[name, f] : copies.env) {
        for (int s = 0; s < f->stages(); s++) resolve_in(f->stage(s), copies);
    }
}

Stmt inject_prefetches(const Stmt &s, const std::vector<std::string> &outputs) {
    // A placeholder left outside every loop stood in a loop of one iteration, which the
    // simplifier made a let (seed 8800130 of the differential test): it has no iterations
    // ahead to prefetch for.
    return RemovePlaceholders(true).mutate(InjectPrefetches(outputs).mutate(s));
}

}  // namespace halo
