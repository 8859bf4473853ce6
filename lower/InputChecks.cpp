#include "InputChecks.h"

#include "Bounds.h"
#include "LetStmts.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

Expr field(const std::string &buffer, const char *name, int d) {
    return Variable::make(Int(32), buffer + "." + name + "." + std::to_string(d));
}

class ClampDataDependent : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        Expr e = IRMutator::visit(op);
        if (op->call_type != Call::Image) return e;
        const Call *c = e.as<Call>();
        std::vector<Expr> args = c->args;
        bool changed = false;
        for (size_t d = 0; d < args.size(); d++) {
            if (!expr_reads_data(args[d])) continue;
            Expr mn = field(op->name, "min", int(d));
            Expr mx = mn + field(op->name, "extent", int(d)) - 1;
            args[d] = max(min(args[d], mx), mn);
            changed = true;
        }
        if (!changed) return e;
        return Call::make(c->type, c->name, args, c->call_type, c->func, c->param);
    }
};

}  // namespace

Stmt clamp_data_dependent_input_reads(const Stmt &s) { return ClampDataDependent().mutate(s); }

Stmt add_input_checks(const Stmt &whole, const std::vector<std::shared_ptr<ParameterContents>> &params,
                      const FunctionContents &output) {
    // The checks go inside the leading bounds lets, so they can name the stages' bounds
    // instead of expanding them (expansion grows exponentially with the pipeline's depth).
    // (Not through realizations: the checks must run before any buffer is allocated.)
    LetList lets;
    Stmt s = peel_leading_lets(whole, lets, false);
    LetValues known = let_values(lets);
    auto boxes = boxes_required(s, {}, known);
    std::vector<Stmt> checks;
    // The output's loops may write outside the requested region (a split with ShiftInwards
    // when the output is narrower than the factor, or RoundUp); never outside the buffer.
    Box written = box_provided(s, output.name, {}, known);
    for (size_t d = 0; d < written.dims.size(); d++) {
        if (!written.dims[d].is_bounded()) continue;
        Expr lo = simplify(written.dims[d].min, known), hi = simplify(written.dims[d].max, known);
        Expr have_min = field(output.name, "min", int(d));
        Expr have_max = simplify(have_min + field(output.name, "extent", int(d)) - 1);
        Expr msg = Call::make(Int(32), "halo_error_output_bounds",
                              {StringImm::make(output.name), Expr(int32_t(d)), have_min, have_max, lo, hi},
                              Call::Extern);
        checks.push_back(AssertStmt::make(lo >= have_min && hi <= have_max, msg));
    }

    for (auto &p : params) {
        if (!p->is_buffer) continue;
        auto it = boxes.find(p->name);
        if (it == boxes.end()) continue;
        const Box &b = it->second;
        for (size_t d = 0; d < b.dims.size(); d++) {
            if (!b.dims[d].is_bounded()) continue;
            Expr need_min = simplify(b.dims[d].min, known), need_max = simplify(b.dims[d].max, known);
            Expr have_min = field(p->name, "min", int(d));
            Expr have_max = simplify(have_min + field(p->name, "extent", int(d)) - 1);
            int od = d < size_t(output.dimensions()) ? int(d) : 0;
            Expr out_min = output.dimensions() ? field(output.name, "min", od) : Expr(0);
            Expr out_max = output.dimensions()
                               ? simplify(out_min + field(output.name, "extent", od) - 1)
                               : Expr(0);
            Expr msg = Call::make(Int(32), "halo_error_bounds",
                                  {StringImm::make(p->name), StringImm::make(output.name), Expr(int32_t(d)),
                                   have_min, have_max, out_min, out_max, need_min, need_max},
                                  Call::Extern);
            checks.push_back(AssertStmt::make(need_min >= have_min && need_max <= have_max, msg));
        }
    }
    checks.push_back(s);
    return wrap_lets(Block::make(checks), lets);
}

}  // namespace halo
