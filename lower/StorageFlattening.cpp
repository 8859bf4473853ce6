#include "StorageFlattening.h"

#include <algorithm>
#include <set>

#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

Expr field(const std::string &buffer, const char *name, int d, Type t = Int(32)) {
    return Variable::make(t, buffer + "." + name + "." + std::to_string(d));
}

// Index of args in a buffer whose mins and strides are the symbols <name>.min.d, .stride.d.
// Flat indices are 64-bit: a buffer may hold 2^31 elements or more even though every
// coordinate (and every offset from a dimension's min) fits in 32 bits. Internal buffers
// carry 64-bit strides of their own; inputs and outputs have the 32-bit strides of
// halo_buffer_t. Dimension 0 of an input or output is dense (codegen checks it on entry),
// which is what lets vector loads and stores be contiguous.
Expr flat_index(const std::string &name, const std::vector<Expr> &args, bool external) {
    Expr idx;
    for (size_t d = 0; d < args.size(); d++) {
        Expr offset = Cast::make(Int(64), args[d] - field(name, "min", int(d)));
        Expr stride = external ? Cast::make(Int(64), field(name, "stride", int(d)))
                               : field(name, "stride", int(d), Int(64));
        Expr term = d == 0 && external ? offset : offset * stride;
        idx = idx.defined() ? idx + term : term;
    }
    return idx.defined() ? idx : Expr(int64_t(0));
}

class Flatten : public IRMutator {
public:
    explicit Flatten(const Environment &env) : env_(env) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        internal_.insert(op->name);
        Stmt body = mutate(op->body);
        internal_.erase(internal_.find(op->name));
        const FuncSchedule &sched = env_.at(op->name)->schedule;
        const auto &args = env_.at(op->name)->args;
        // Storage order: innermost first.
        std::vector<int> order;
        for (auto &n : sched.storage_order) {
            order.push_back(int(std::find(args.begin(), args.end(), n) - args.begin()));
        }
        if (order.empty()) {
            for (size_t d = 0; d < op->bounds.size(); d++) order.push_back(int(d));
        }
        std::vector<std::pair<std::string, Expr>> lets;
        std::vector<Expr> extents(op->bounds.size());
        for (size_t d = 0; d < op->bounds.size(); d++) {
            lets.push_back({op->name + ".min." + std::to_string(d), op->bounds[d].min});
            lets.push_back({op->name + ".extent." + std::to_string(d), op->bounds[d].extent});
        }
        Expr stride = Expr(int64_t(1));
        for (size_t i = 0; i < order.size(); i++) {
            int d = order[i];
            Expr extent = Cast::make(Int(64), field(op->name, "extent", d));
            if (i == 0 && sched.align_storage > 1) {
                Expr a = Expr(int64_t(sched.align_storage));
                extent = (extent + (a - 1)) / a * a;
            }
            lets.push_back({op->name + ".stride." + std::to_string(d), stride});
            extents[i] = extent;
            stride = stride * extent;
        }
        Stmt s = Allocate::make(op->name, op->type, extents, body, sched.memory_type);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
        return s;
    }
    Stmt visit(const Provide *op) override {
        Expr value = mutate(op->value);
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        return Store::make(op->name, value, flat_index(op->name, args, !internal_.count(op->name)));
    }
    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halo && op->call_type != Call::Image) return IRMutator::visit(op);
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        return Load::make(op->type, op->name, flat_index(op->name, args, !internal_.count(op->name)));
    }

private:
    const Environment &env_;
    std::multiset<std::string> internal_;
};

}  // namespace

Stmt storage_flattening(const Stmt &s, const Environment &env, const std::string &output) {
    (void)output;
    return Flatten(env).mutate(s);
}

}  // namespace halo
