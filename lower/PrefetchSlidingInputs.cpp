#include "PrefetchSlidingInputs.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>

#include "IREquality.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

// Buffers allocated inside some loop: per tile or strip, small and in cache; no prefetch.
class BuffersAllocatedInLoops : public IRVisitor {
public:
    std::set<std::string> names;

private:
    int loops_ = 0;
    void visit(const For *op) override {
        op->min.accept(this);
        op->extent.accept(this);
        loops_++;
        op->body.accept(this);
        loops_--;
    }
    void visit(const Allocate *op) override {
        if (loops_ > 0) names.insert(op->name);
        IRVisitor::visit(op);
    }
};

// The index of a load's first lane.
Expr first_lane(const Expr &index) {
    if (const Ramp *r = index.as<Ramp>()) return r->base;
    if (const Broadcast *b = index.as<Broadcast>()) return b->value;
    return index;
}

// The loads of one innermost loop body, their indices written without the lets around them
// (those of the Func's produce node outside the loop and those inside it).
class CollectLoads : public IRVisitor {
public:
    struct Read {
        std::string buffer;
        Type type;
        Expr index;  // scalar: the first lane's
    };
    CollectLoads(std::vector<std::pair<std::string, Expr>> lets) : lets_(std::move(lets)) {}
    std::vector<Read> reads;

private:
    std::vector<std::pair<std::string, Expr>> lets_;
    void visit(const Let *op) override {
        op->value.accept(this);
        lets_.push_back({op->name, op->value});
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const LetStmt *op) override {
        op->value.accept(this);
        lets_.push_back({op->name, op->value});
        op->body.accept(this);
        lets_.pop_back();
    }
    void visit(const Load *op) override {
        IRVisitor::visit(op);
        if (contains_node<Load>(op->index)) return;  // a gather: its rows are not known ahead
        Expr index = op->index;
        for (auto it = lets_.rbegin(); it != lets_.rend(); ++it) index = substitute(it->first, it->second, index);
        index = first_lane(simplify(index));
        if (index.type().is_vector()) return;  // no simple first lane (a vector of computed indices)
        reads.push_back({op->name, op->type.element_of(), index});
    }
};

// Whether two element indices of one buffer are provably within a cache line of each other.
bool same_cache_line(const Expr &a, const Expr &b, Type t) {
    Expr d = simplify(a - b);
    const int64_t *c = as_const_int(d);
    return c && std::llabs(*c) * t.bytes() < 64;
}

class InjectPrefetches : public IRMutator {
public:
    InjectPrefetches(const SlidingDims &sliding, const std::set<std::string> &local)
        : sliding_(sliding), local_(local) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const ProducerConsumer *op) override {
        if (!op->is_producer || !row_var_.empty()) return IRMutator::visit(op);
        for (auto &[func_dim, direction] : sliding_) {
            const auto &[func, dim] = func_dim;
            if (func != op->name) continue;
            row_var_ = func + ".s0." + dim;
            func_ = func;
            direction_ = direction;
            Stmt body = mutate(op->body);
            row_var_.clear();
            return body.same_as(op->body) ? self(op) : ProducerConsumer::make(op->name, true, body);
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const LetStmt *op) override {
        if (row_var_.empty()) return IRMutator::visit(op);
        // (The sliding row's own let, if its loop was split, stays: that name is what shifts.)
        bool keep = op->name != row_var_;
        if (keep) lets_.push_back({op->name, op->value});
        Stmt body = mutate(op->body);
        if (keep) lets_.pop_back();
        return body.same_as(op->body) ? self(op) : LetStmt::make(op->name, op->value, body);
    }
    Stmt visit(const For *op) override {
        if (row_var_.empty() || contains_node<For>(op->body)) return IRMutator::visit(op);
        CollectLoads collect(lets_);
        op->body.accept(&collect);
        std::vector<Stmt> prefetches;
        std::vector<CollectLoads::Read> chosen;
        Expr next_row = Variable::make(Int(32), row_var_) + direction_;
        for (const auto &read : collect.reads) {
            if (read.buffer == func_ || read.buffer.rfind(func_ + ".", 0) == 0 || local_.count(read.buffer)) continue;
            Expr ahead = simplify(substitute(row_var_, next_row, read.index));
            if (equal(ahead, read.index)) continue;  // does not move with the row (already simplified)
            // Not where this row already reads (the other rows of a stencil), nor where
            // another prefetch goes.
            auto near = [&](const CollectLoads::Read &other) {
                return other.buffer == read.buffer && same_cache_line(ahead, other.index, read.type);
            };
            if (std::any_of(collect.reads.begin(), collect.reads.end(), near) ||
                std::any_of(chosen.begin(), chosen.end(), near)) {
                continue;
            }
            chosen.push_back({read.buffer, read.type, ahead});
            prefetches.push_back(Evaluate::make(
                Call::make(Int(32), Call::prefetch, {Load::make(read.type, read.buffer, ahead)}, Call::Intrinsic)));
        }
        if (prefetches.empty()) return self(op);
        prefetches.push_back(op->body);
        return For::make(op->name, op->min, op->extent, op->for_type, Block::make(prefetches));
    }

private:
    const SlidingDims &sliding_;
    const std::set<std::string> &local_;
    std::string row_var_, func_;
    int direction_ = 1;
    std::vector<std::pair<std::string, Expr>> lets_;
};

}  // namespace

Stmt prefetch_sliding_inputs(const Stmt &s, const SlidingDims &sliding) {
    const char *env = std::getenv("HALO_PREFETCH_SLIDING");
    if (sliding.empty() || (env && std::strcmp(env, "0") == 0)) return s;
    BuffersAllocatedInLoops local;
    s.accept(&local);
    return InjectPrefetches(sliding, local.names).mutate(s);
}

}  // namespace halo
