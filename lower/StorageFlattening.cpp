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
// which is what lets vector loads and stores be contiguous, unless the buffer's dim(0)
// stride was set (dense0 false: its stride is used, a constant one where it was given).
// The values of a Tuple-valued Func f live in buffers f.0, f.1, ...: internal ones share f's
// mins and strides; an output's have strides of their own (its mins are checked equal).
// folds: per dimension, the factor it is stored modulo (undefined: not folded).
Expr flat_index(const std::string &name, const std::string &stride_name, const std::vector<Expr> &args,
                bool external, bool dense0, const std::vector<Expr> &folds = {}) {
    Expr idx;
    for (size_t d = 0; d < args.size(); d++) {
        Expr from_min = args[d] - field(name, "min", int(d));
        if (d < folds.size() && folds[d].defined()) from_min = from_min % folds[d];
        Expr offset = Cast::make(Int(64), from_min);
        Expr stride = external ? Cast::make(Int(64), field(stride_name, "stride", int(d)))
                               : field(stride_name, "stride", int(d), Int(64));
        Expr term = d == 0 && external && dense0 ? offset : offset * stride;
        idx = idx.defined() ? idx + term : term;
    }
    return idx.defined() ? idx : Expr(int64_t(0));
}

// The let holding value i of a Tuple Provide until every value is computed.
std::string value_name(const Provide *op, int i) { return op->name + ".value." + std::to_string(i); }

class Flatten : public IRMutator {
public:
    Flatten(const Environment &env, const std::set<std::string> &strided_buffers)
        : env_(env), strided_buffers_(strided_buffers) {}
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
        // bound_storage: the dimension is allocated with the given extent (a constant one lets
        // the buffer live on the stack), once the region is checked to fit in it.
        std::vector<Expr> storage_bound(op->bounds.size());
        std::vector<Stmt> checks;
        for (auto &[var, bound] : sched.storage_bounds) {
            auto it = std::find(args.begin(), args.end(), var);
            internal_assert(it != args.end()) << "bound_storage of a dimension " << op->name << " does not have";
            int d = int(it - args.begin());
            storage_bound[size_t(d)] = max(bound, 0);  // (an empty region fits a bound below 0)
            Expr needed = field(op->name, "extent", d);
            Expr msg = Call::make(Int(32), "halo_error_bound_storage",
                                  {StringImm::make(op->name), StringImm::make(var), needed, bound}, Call::Extern);
            checks.push_back(AssertStmt::make(needed <= bound, msg));
        }
        Expr stride = Expr(int64_t(1));
        for (size_t i = 0; i < order.size(); i++) {
            int d = order[i];
            Expr extent = Cast::make(Int(64), storage_bound[size_t(d)].defined() ? storage_bound[size_t(d)]
                                                                                 : field(op->name, "extent", d));
            for (auto &[dim, alignment] : sched.storage_alignment) {
                bool here = dim.empty() ? i == 0 : dim == args[size_t(d)];
                if (!here || alignment <= 1) continue;
                Expr a = Expr(alignment);
                extent = (extent + (a - 1)) / a * a;
            }
            lets.push_back({op->name + ".stride." + std::to_string(d), stride});
            extents[i] = extent;
            stride = stride * extent;
        }
        Stmt s = body;
        for (size_t i = op->types.size(); i-- > 0;) {
            s = Allocate::make(tuple_buffer_name(op->name, int(i), int(op->types.size())), op->types[i], extents, s,
                               sched.memory_type);
        }
        checks.push_back(s);  // (checked before allocating)
        s = Block::make(checks);
        for (auto it = lets.rbegin(); it != lets.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
        return s;
    }
    Stmt visit(const Provide *op) override {
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        bool external = !internal_.count(op->name);
        int n = int(op->values.size());
        if (n == 1) {
            bool dense0 = !strided_buffers_.count(op->name);
            return Store::make(op->name, mutate(op->values[0]),
                               flat_index(op->name, op->name, args, external, dense0, folds_of(op->name)),
                               /*nontemporal=*/false, op->atomic);
        }
        // Every value is computed before any is stored: an update's values read the old ones.
        std::vector<Stmt> stores;
        std::vector<Expr> points;  // the point in each buffer, for an atomic update's lock
        for (int i = 0; i < n; i++) {
            std::string b = tuple_buffer_name(op->name, i, n);
            Type t = op->values[size_t(i)].type();
            Expr index = flat_index(op->name, external ? b : op->name, args, external, true, folds_of(op->name));
            stores.push_back(Store::make(b, Variable::make(t, value_name(op, i)), index));
            points.push_back(Load::make(t, b, index));
        }
        Stmt s = Block::make(stores);
        for (int i = n; i-- > 0;) s = LetStmt::make(value_name(op, i), mutate(op->values[i]), s);
        if (!op->atomic) return s;
        // Stage::atomic of a Tuple: the values are read, computed and stored under the point's
        // lock (a compare-and-swap updates one value only).
        auto call = [&](const char *intrinsic) {
            return Evaluate::make(Call::make(Int(32), intrinsic, points, Call::Intrinsic));
        };
        return Block::make({call(Call::atomic_lock), s, call(Call::atomic_unlock)});
    }
    Expr visit(const Call *op) override {
        if (op->call_type != Call::Halo && op->call_type != Call::Image) return IRMutator::visit(op);
        std::vector<Expr> args;
        for (auto &a : op->args) args.push_back(mutate(a));
        bool external = !internal_.count(op->name);
        int n = op->call_type == Call::Halo ? env_.at(op->name)->outputs() : 1;
        std::string b = tuple_buffer_name(op->name, op->value_index, n);
        bool dense0 = !strided_buffers_.count(op->name);
        return Load::make(op->type, b, flat_index(op->name, external ? b : op->name, args, external, dense0, folds_of(op->name)));
    }

    // The storage folds of an internal buffer (sliding windows, fold_storage), per dimension.
    std::vector<Expr> folds_of(const std::string &name) const {
        std::vector<Expr> folds;
        if (!internal_.count(name)) return folds;  // inputs and outputs are not folded
        const FunctionContents &f = *env_.at(name);
        folds.resize(f.args.size());
        for (const StorageFold &fold : f.schedule.folds) {
            for (size_t d = 0; d < f.args.size(); d++) {
                if (f.args[d] == fold.var) folds[d] = fold.factor;
            }
        }
        return folds;
    }

private:
    const Environment &env_;
    const std::set<std::string> &strided_buffers_;
    std::multiset<std::string> internal_;
};

}  // namespace

Stmt storage_flattening(const Stmt &s, const Environment &env, const std::set<std::string> &strided_buffers) {
    return Flatten(env, strided_buffers).mutate(s);
}

}  // namespace halo
