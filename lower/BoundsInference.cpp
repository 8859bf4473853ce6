#include "BoundsInference.h"

#include <algorithm>

#include "Bounds.h"
#include "BoundsOverflowChecks.h"
#include "LetStmts.h"
#include "ScheduleFunctions.h"
#include "Simplify.h"
#include "Substitute.h"
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

// The produce node of Func name in s (the first one), or null.
const ProducerConsumer *find_produce(const Stmt &s, const std::string &name) {
    struct Finder : IRVisitor {
        const std::string &name;
        const ProducerConsumer *found = nullptr;
        explicit Finder(const std::string &n) : name(n) {}
        void visit(const ProducerConsumer *op) override {
            if (found) return;
            if (op->is_producer && op->name == name) {
                found = op;
                return;
            }
            IRVisitor::visit(op);
        }
    } f(name);
    s.accept(&f);
    return f.found;
}

// The Func whose produce encloses the first call to `name` in s (for error messages), or "".
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
    return f.found;
}

}  // namespace

// The region of one dimension after the Func's bounds on it (see Bound in dsl/Schedule.h), in
// Halide's order: align_bounds() grows it outwards to a min of remainder modulo modulus and an
// extent that is a multiple of modulus (align_extent() rounds only its extent up), then bound()
// replaces its min, then bound() or bound_extent() fixes its extent from that min. (Division
// rounds down, so negative mins align the same way as positive ones.)
Interval apply_bound(const Bound &b, Interval r) {
    if (b.modulus.defined() && r.is_bounded()) {
        Expr m = b.modulus;
        if (b.remainder.defined()) {
            Expr min = ((r.min - b.remainder) / m) * m + b.remainder;
            Expr extent = ((r.max - min + m) / m) * m;
            r = Interval(min, min + extent - 1);
        } else {
            Expr extent = ((r.max - r.min + m) / m) * m;
            r.max = r.min + extent - 1;
        }
    }
    if (b.min.defined()) r.min = b.min;
    if (b.extent.defined()) r.max = r.min + b.extent - 1;
    return r;
}

namespace {

class BoundsInference : public IRMutator {
public:
    BoundsInference(const Environment &env, const std::string &output, const std::vector<std::string> &other_outputs)
        : env_(env), output_(output), other_outputs_(other_outputs) {}
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
        if (std::count(other_outputs_.begin(), other_outputs_.end(), f.name)) {
            // Another output of the pipeline: computed over its buffer, which must hold what
            // the later outputs read of it.
            std::vector<Stmt> checks = check_output_covers_reads(f, required, rest, known);
            checks.push_back(define_stage_bounds(f, output_region(f), Block::make(first, rest), known));
            return wrap_lets(Block::make(checks), inner_lets);
        }
        if (required.empty()) {
            // Read only where a select's condition is constant false (a specialization's
            // condition substituted into its stage): no point is needed, so none is computed.
            // Its stages become no-ops, not loops over an empty region: bounds inference would
            // still find reads in those loops (x - 1 over [0, -1] reads [-1, -2]), and check
            // them against the inputs, and compute the Funcs they read.
            required.used = true;
            required.dims.assign(f.dimensions(), Interval(Expr(0), Expr(-1)));
            first = ProducerConsumer::make(f.name, true, Block::make(std::vector<Stmt>(f.stages(), Evaluate::make(0))));
            std::vector<Stmt> checks{define_stage_bounds(f, required, Block::make(first, rest), known)};
            return wrap_lets(Block::make(checks), inner_lets);
        }
        std::vector<Stmt> checks = check_explicit_bounds(f, required, known);
        apply_explicit_bounds(f, required, rest);
        // Read only under a condition of Params (in some specializations' branches): computed
        // only when it holds (Halide's skip_stages), so that what it reads need not exist
        // otherwise (its reads' boxes become conditional in turn). Not under a condition of an
        // enclosing loop, fixed only for one iteration: a sliding window computes in each
        // iteration only what is new, counting on the iterations before.
        if (required.maybe_unused() && !uses_enclosing_name(required.used_if)) {
            first = IfThenElse::make(required.used_if, first);
        }
        Stmt produce_consume = define_stage_bounds(f, required, Block::make(first, rest), known);
        checks.push_back(produce_consume);
        return wrap_lets(Block::make(checks), inner_lets);
    }

    Stmt visit(const For *op) override { return with_enclosing(op->name, [&] { return IRMutator::visit(op); }); }
    Stmt visit(const LetStmt *op) override { return with_enclosing(op->name, [&] { return IRMutator::visit(op); }); }

    Stmt visit(const Realize *op) override {
        LetList inner_lets;
        Stmt body = peel_leading_lets(mutate(op->body), inner_lets, true);
        const FunctionContents &f = *env_.at(op->name);
        LetValues known = let_values(inner_lets);
        Box provided = box_provided(body, f.name, {}, known);
        Box b = box_union(box_required(body, f.name, {}, known), provided);
        if (b.empty()) {  // neither read nor written here (see the empty region in visit(Block))
            b.used = true;
            b.dims.assign(f.dimensions(), Interval(Expr(0), Expr(-1)));
        }
        apply_explicit_bounds(f, b, body);
        // bound() fixes the loops, not every point they write: a RoundUp split past the bound,
        // a ShiftInwards split shorter than its factor, or an update over a wider RDom writes
        // outside it, so the buffer holds what is written too (it was once just the bound).
        Box grown = box_union(b, provided);
        for (size_t d = 0; d < provided.dims.size() && d < b.dims.size(); d++) {
            if (provided.dims[d].is_bounded() && grown.dims[d].is_bounded()) b.dims[d] = grown.dims[d];
        }
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
        return wrap_lets(wrap_lets(Realize::make(op->name, op->types, bounds, body), lets), inner_lets);
    }

    // The output's loops cover the output buffer.
    Stmt define_output_bounds(const Stmt &s) { return define_stage_bounds(*env_.at(output_), output_region(*env_.at(output_)), s, {}); }

private:
    // The loops and lets around the statement being visited.
    std::vector<std::string> enclosing_;

    template <typename F>
    Stmt with_enclosing(const std::string &name, F visit) {
        enclosing_.push_back(name);
        Stmt s = visit();
        enclosing_.pop_back();
        return s;
    }
    bool uses_enclosing_name(const Expr &e) const {
        for (auto &n : enclosing_) {
            if (expr_uses_var(e, n)) return true;
        }
        return false;
    }

    // What an output's loops cover: its buffer (or its bound(), which the output write check
    // verifies against the buffer).
    Box output_region(const FunctionContents &f) {
        Box region;
        for (int d = 0; d < f.dimensions(); d++) {
            Expr mn = var(f.name + ".min." + std::to_string(d));
            Expr ex = var(f.name + ".extent." + std::to_string(d));
            region.dims.push_back(Interval(mn, mn + ex - 1));
        }
        region.used = true;
        for (int d = 0; d < f.dimensions(); d++) {
            for (auto &b : f.schedule.bounds) {
                if (b.var == f.args[d]) region.dims[d] = apply_bound(b, region.dims[d]);
            }
        }
        return region;
    }

    // An output read by a later output of the same pipeline is computed only over its buffer
    // (Halide's rule): the reads must fall inside it.
    std::vector<Stmt> check_output_covers_reads(const FunctionContents &f, const Box &required, const Stmt &consumers,
                                                const LetValues &known) {
        std::vector<Stmt> checks;
        if (required.empty()) return checks;
        std::string reader = first_consumer(consumers, f.name);
        for (int d = 0; d < f.dimensions(); d++) {
            user_assert(required.dims[d].is_bounded())
                << "Func '" << reader << "' reads Func '" << f.name << "' (an output of the pipeline) at an index "
                << "the compiler cannot bound in dimension " << d << " (" << f.args[d] << "); clamp the index";
            Expr need_min = simplify(required.dims[d].min, known), need_max = simplify(required.dims[d].max, known);
            Expr have_min = var(f.name + ".min." + std::to_string(d));
            Expr have_max = simplify(have_min + var(f.name + ".extent." + std::to_string(d)) - 1);
            Expr msg = Call::make(Int(32), "halo_error_output_read",
                                  {StringImm::make(f.name), StringImm::make(reader), StringImm::make(f.args[d]),
                                   exact_int64(have_min), exact_int64(have_max), exact_int64(need_min),
                                   exact_int64(need_max)},
                                  Call::Extern);
            checks.push_back(guard_by_use(required, AssertStmt::make(need_min >= have_min && need_max <= have_max, msg)));
        }
        return checks;
    }

    // bound() and bound_extent() promise the consumers never need more of f than the bound:
    // checked at run time, where f is computed (the region may differ per tile), against the
    // region the bounds give (aligned first, then fixed).
    std::vector<Stmt> check_explicit_bounds(const FunctionContents &f, const Box &required, const LetValues &known) {
        std::vector<Stmt> checks;
        for (int d = 0; d < f.dimensions(); d++) {
            for (auto &b : f.schedule.bounds) {
                if (b.var != f.args[d] || !b.extent.defined() || !required.dims[d].is_bounded()) continue;
                Expr need_min = simplify(required.dims[d].min, known), need_max = simplify(required.dims[d].max, known);
                Interval computed = apply_bound(b, Interval(need_min, need_max));
                Expr lo = simplify(computed.min), hi = simplify(computed.max);
                Expr msg = Call::make(Int(32), "halo_error_func_bound",
                                      {StringImm::make(f.name), StringImm::make(b.var),
                                       StringImm::make(b.directives(f.name)), exact_int64(lo), exact_int64(hi),
                                       exact_int64(need_min), exact_int64(need_max)},
                                      Call::Extern);
                checks.push_back(guard_by_use(required, AssertStmt::make(need_min >= lo && need_max <= hi, msg)));
            }
        }
        return checks;
    }

    void apply_explicit_bounds(const FunctionContents &f, Box &box, const Stmt &consumers) {
        for (int d = 0; d < f.dimensions(); d++) {
            for (auto &b : f.schedule.bounds) {
                if (b.var == f.args[d]) box.dims[d] = apply_bound(b, box.dims[d]);
            }
            user_assert(box.dims[d].is_bounded())
                << [&] {
                       std::string c = first_consumer(consumers, f.name);
                       return c.empty() ? std::string("The pipeline") : "Func '" + c + "'";
                   }() << " reads Func '" << f.name
                << "' at an index the compiler cannot bound in dimension " << d << " ("
                << f.args[d] << "): it depends on data, or on values of no known range. Clamp the index (clamp(e, lo, hi)) or "
                << "declare the range with " << f.name << ".bound(" << f.args[d] << ", min, extent)";
        }
    }

    // Lets for the loop bounds of every stage of f, given the region its consumers need.
    // Every stage must also cover what the later stages of f touch: an update reads f where
    // it writes (it modifies the values there) and wherever its right side reads f (a scan
    // reads f(r - 1), a shift f(r + 1)). Later stages are bounded first, so each stage's box is
    // the consumers' region plus what the stages after it touch, in terms of their bounds.
    Stmt define_stage_bounds(const FunctionContents &f, const Box &required, const Stmt &body, const LetValues &known) {
        const ProducerConsumer *produce = find_produce(body, f.name);
        std::vector<Stmt> stages;
        if (produce) stages = flatten_block(produce->body);
        internal_assert(f.stages() == 1 || int(stages.size()) == f.stages())
            << "Func " << f.name << " has " << f.stages() << " stages but its produce has " << stages.size();

        LetList lets;
        LetValues values = known;
        Box touched_later;  // what the stages after the current one read or write of f
        for (int k = f.stages() - 1; k >= 0; k--) {
            Box box = box_union(required, touched_later);
            std::string p = stage_prefix(f.name, k);
            for (int d = 0; d < f.dimensions(); d++) {
                const char *end_name[] = {".min", ".max"};
                Expr ends[] = {box.dims[d].min, box.dims[d].max};
                for (int e = 0; e < 2; e++) {
                    Expr v = simplify(ends[e], values);
                    lets.push_back({p + f.args[d] + end_name[e], v});
                    values[p + f.args[d] + end_name[e]] = v;
                }
            }
            if (k == 0) break;
            // The stage's loops now have bounds (the symbols just defined): what does it touch?
            const Stmt &stage = stages[k];
            Box written = box_provided(stage, f.name, {}, values);
            Box read = box_required(stage, f.name, {}, values);
            for (int d = 0; d < f.dimensions(); d++) {
                user_assert(written.empty() || written.dims[d].is_bounded())
                    << "Func '" << f.name << "': update " << k - 1 << " writes at a position "
                    << "the compiler cannot bound in dimension " << d << " (" << f.args[d]
                    << "), for example one that depends on data. Clamp the position (clamp(e, lo, hi)): "
                    << "a bound() cannot vouch for where an update writes";
                user_assert(read.empty() || read.dims[d].is_bounded())
                    << "Func '" << f.name << "': update " << k - 1 << " reads " << f.name
                    << " at a position the compiler cannot bound in dimension " << d << " ("
                    << f.args[d] << "), for example one that depends on data. Clamp the index "
                    << "(clamp(e, lo, hi)) or declare the range with " << f.name << ".bound("
                    << f.args[d] << ", min, extent)";
            }
            touched_later = box_union(touched_later, box_union(written, read));
        }
        return wrap_lets(body, lets);
    }

    const Environment &env_;
    const std::string &output_;
    const std::vector<std::string> &other_outputs_;
};

}  // namespace

Stmt bounds_inference(const Stmt &s, const Environment &env, const std::string &output,
                      const std::vector<std::string> &other_outputs) {
    BoundsInference bi(env, output, other_outputs);
    Stmt r = bi.mutate(s);
    return bi.define_output_bounds(r);
}

}  // namespace halo
