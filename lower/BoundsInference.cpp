#include "BoundsInference.h"

#include "Bounds.h"
#include "LetStmts.h"
#include "ScheduleFunctions.h"
#include "Simplify.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

Expr var(const std::string &name) { return Variable::make(Int(32), name); }

std::vector<Stmt> flatten_block(const Stmt &s) {
    std::vector<Stmt> out;
    Stmt cur = s;
    while (auto b = cur.as<Block>()) {
        out.push_back(b->first);
        cur = b->rest;
    }
    if (cur.defined()) out.push_back(cur);
    return out;
}

// The Func whose produce encloses the first call to `name` in s (for error messages).
std::string first_consumer(const Stmt &s, const std::string &name) {
    struct Finder : IRVisitor {
        const std::string &name;
        std::vector<std::string> producing;
        std::string found;
        explicit Finder(const std::string &n) : name(n) {}
        void visit(const ProducerConsumer *op) override {
            if (op->is_producer) producing.push_back(op->name);
            IRVisitor::visit(op);
            if (op->is_producer) producing.pop_back();
        }
        void visit(const Call *op) override {
            if (found.empty() && op->name == name && !producing.empty()) found = producing.back();
            IRVisitor::visit(op);
        }
    } f(name);
    s.accept(&f);
    return f.found.empty() ? std::string("its consumer") : f.found;
}

class BoundsInference : public IRMutator {
public:
    BoundsInference(const Environment &env, const std::string &output) : env_(env), output_(output) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const Block *op) override {
        auto produce = op->first.as<ProducerConsumer>();
        auto consume = op->rest.as<ProducerConsumer>();
        if (!(produce && produce->is_producer && consume && !consume->is_producer &&
              produce->name == consume->name)) {
            return IRMutator::visit(op);
        }
        Stmt first = mutate(op->first);
        // The bounds of the stages nested at this level, lifted above this producer so that its
        // bounds can name them instead of repeating their expanded values (which would grow
        // exponentially with the pipeline's depth).
        LetList inner_lets;
        Stmt rest = peel_leading_lets(mutate(op->rest), inner_lets, true);
        const FunctionContents &f = *env_.at(produce->name);
        LetValues known = let_values(inner_lets);
        Box required = box_required(rest.as<ProducerConsumer>()->body, f.name, {}, known);
        internal_assert(!required.empty()) << "Func " << f.name << " computed but not used";
        apply_explicit_bounds(f, required, rest);
        return wrap_lets(define_stage_bounds(f, required, Block::make(first, rest), known), inner_lets);
    }

    Stmt visit(const Realize *op) override {
        LetList inner_lets;
        Stmt body = peel_leading_lets(mutate(op->body), inner_lets, true);
        const FunctionContents &f = *env_.at(op->name);
        LetValues known = let_values(inner_lets);
        Box b = box_union(box_required(body, f.name, {}, known), box_provided(body, f.name, {}, known));
        apply_explicit_bounds(f, b, body);
        std::vector<Range> bounds;
        LetList lets;
        for (int d = 0; d < f.dimensions(); d++) {
            user_assert(b.dims[d].is_bounded())
                << "Func '" << f.name << "' is written at a position the compiler cannot bound in "
                << "dimension " << d << " (" << f.args[d] << "), for example by an update whose "
                << "left side depends on data. Declare the range with " << f.name << ".bound("
                << f.args[d] << ", min, extent)";
            std::string mn = f.name + ".realize." + std::to_string(d) + ".min";
            std::string ex = f.name + ".realize." + std::to_string(d) + ".extent";
            lets.push_back({mn, simplify(b.dims[d].min, known)});
            lets.push_back({ex, simplify(b.dims[d].max - var(mn) + 1, known)});
            bounds.push_back(Range(var(mn), var(ex)));
        }
        return wrap_lets(wrap_lets(Realize::make(op->name, op->type, bounds, body), lets), inner_lets);
    }

    // The output's loops cover the output buffer.
    Stmt define_output_bounds(const Stmt &s) {
        const FunctionContents &f = *env_.at(output_);
        Box region;
        for (int d = 0; d < f.dimensions(); d++) {
            Expr mn = var(f.name + ".min." + std::to_string(d));
            Expr ex = var(f.name + ".extent." + std::to_string(d));
            region.dims.push_back(Interval(mn, mn + ex - 1));
        }
        region.used = true;
        // bound() on the output fixes its loops (the output write check verifies the buffer).
        for (int d = 0; d < f.dimensions(); d++) {
            for (auto &b : f.schedule.bounds) {
                if (b.var == f.args[d]) region.dims[d] = Interval(b.min, b.min + b.extent - 1);
            }
        }
        return define_stage_bounds(f, region, s, {});
    }

private:
    const Environment &env_;
    const std::string &output_;

    void apply_explicit_bounds(const FunctionContents &f, Box &box, const Stmt &consumers) {
        for (int d = 0; d < f.dimensions(); d++) {
            for (auto &b : f.schedule.bounds) {
                if (b.var == f.args[d]) box.dims[d] = Interval(b.min, b.min + b.extent - 1);
            }
            user_assert(box.dims[d].is_bounded())
                << "Func '" << first_consumer(consumers, f.name) << "' reads Func '" << f.name
                << "' at an index the compiler cannot bound in dimension " << d << " ("
                << f.args[d] << "): it depends on data. Clamp the index (clamp(e, lo, hi)) or "
                << "declare the range with " << f.name << ".bound(" << f.args[d] << ", min, extent)";
        }
    }

    // Lets for the loop bounds of every stage of f, given the region its consumers need.
    Stmt define_stage_bounds(const FunctionContents &f, const Box &required, const Stmt &body, const LetValues &known) {
        LetList lets;
        Scope scope;
        for (int k = 1; k < f.stages(); k++) {
            std::string p = stage_prefix(f.name, k);
            for (int d = 0; d < f.dimensions(); d++) {
                lets.push_back({p + f.args[d] + ".min", simplify(required.dims[d].min, known)});
                lets.push_back({p + f.args[d] + ".max", simplify(required.dims[d].max, known)});
            }
        }
        for (auto &[n, v] : lets) scope[n] = Interval::point(v);
        // The pure definition must also cover whatever the updates write.
        Box stage0 = required;
        const ProducerConsumer *produce = nullptr;
        if (auto b = body.as<Block>()) produce = b->first.as<ProducerConsumer>();
        if (!produce) produce = body.as<ProducerConsumer>();
        if (produce && f.stages() > 1) {
            std::vector<Stmt> stages = flatten_block(produce->body);
            for (size_t k = 1; k < stages.size(); k++) {
                Box written = box_provided(stages[k], f.name, scope, known);
                if (written.empty()) continue;
                for (int d = 0; d < f.dimensions(); d++) {
                    user_assert(written.dims[d].is_bounded())
                        << "Func '" << f.name << "': update " << k - 1 << " writes at a position "
                        << "the compiler cannot bound in dimension " << d << " (" << f.args[d]
                        << "). Declare the range with " << f.name << ".bound(" << f.args[d]
                        << ", min, extent)";
                }
                stage0 = box_union(stage0, written);
            }
        }
        std::string p0 = stage_prefix(f.name, 0);
        for (int d = 0; d < f.dimensions(); d++) {
            lets.push_back({p0 + f.args[d] + ".min", simplify(stage0.dims[d].min, known)});
            lets.push_back({p0 + f.args[d] + ".max", simplify(stage0.dims[d].max, known)});
        }
        return wrap_lets(body, lets);
    }
};

}  // namespace

Stmt bounds_inference(const Stmt &s, const Environment &env, const std::string &output) {
    BoundsInference bi(env, output);
    Stmt r = bi.mutate(s);
    return bi.define_output_bounds(r);
}

}  // namespace halo
