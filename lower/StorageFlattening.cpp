#include "StorageFlattening.h"

#include "dsl/Error.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

Expr field(const std::string &buffer, const char *name, int d) {
    return Variable::make(Int(32), buffer + "." + name + "." + std::to_string(d));
}

// Index of args in a buffer whose mins and strides are the symbols <name>.min.d, .stride.d.
// Computed in 64 bits when buffers may exceed 2^31 elements would matter; 32 suffices here.
Expr flat_index(const std::string &name, const std::vector<Expr> &args) {
    Expr idx;
    for (size_t d = 0; d < args.size(); d++) {
        // Dimension 0 is dense in every buffer (codegen checks inputs and outputs on entry),
        // which is what lets vector loads and stores be contiguous.
        Expr offset = args[d] - field(name, "min", int(d));
        Expr term = d == 0 ? offset : offset * field(name, "stride", int(d));
        idx = idx.defined() ? idx + term : term;
    }
    return idx.defined() ? idx : Expr(0);
}

class Flatten : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        std::vector<Expr> extents;
        std::vector<std::pair<std::string, Expr>> lets;
        Expr stride = 1;
        for (size_t d = 0; d < op->bounds.size(); d++) {
            lets.push_back({op->name + ".min." + std::to_string(d), op->bounds[d].min});
            lets.push_back({op->name + ".extent." + std::to_string(d), op->bounds[d].extent});
            lets.push_back({op->name + ".stride." + std::to_string(d), stride});
            extents.push_back(field(op->name, "extent", int(d)));
            stride = stride * field(op->name, "extent", int(d));
        }
        Stmt s = Allocate::make(op->name, op->type, extents, body);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
        return s;
    }
    Stmt visit(const Provide *op) override {
        Expr value = mutate(op->value);
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        return Store::make(op->name, value, flat_index(op->name, args));
    }
    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halo && op->call_type != Call::Image) return IRMutator::visit(op);
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        return Load::make(op->type, op->name, flat_index(op->name, args));
    }
};

}  // namespace

Stmt storage_flattening(const Stmt &s, const Environment &env, const std::string &output) {
    (void)env;
    (void)output;
    return Flatten().mutate(s);
}

}  // namespace halo
