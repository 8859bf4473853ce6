#include "ParameterChecks.h"

#include <map>
#include <mutex>
#include <set>

#include "Simplify.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

std::string stage_name(const std::string &func, int stage) {
    return stage == 0 ? func : func + ".update(" + std::to_string(stage - 1) + ")";
}

Expr widen(const Expr &e) { return Cast::make(Int(64), e); }

// A split factor known only at run time must be positive wherever its loops run: always, or,
// in a specialized stage, when its branch is taken (`taken`; undefined: always). And a
// stage with specialize_fail fails when none of its specializations applies.
void add_schedule_checks(const Definition &def, const std::string &func, int k, const Expr &taken,
                         std::vector<Stmt> &checks) {
    Expr general = taken;  // the definition's own schedule runs when no specialization applies
    for (const Specialization &spec : def.specializations) {
        Expr branch = general.defined() ? (general && spec.condition) : spec.condition;
        add_schedule_checks(*spec.definition, func, k, branch, checks);
        general = general.defined() ? (general && !spec.condition) : !spec.condition;
    }
    if (def.fails_unspecialized) {
        // specialize_fail: checked here, before anything runs, so that the stage itself needs
        // no failing branch (whose empty region bounds inference could not express).
        Expr msg = Call::make(Int(32), "halo_error_specialize_fail",
                              {StringImm::make(describe_stage(func, k)), StringImm::make(def.fail_message)},
                              Call::Extern);
        checks.push_back(AssertStmt::make(general.defined() ? !general : Expr::make_bool(false), msg));
        return;
    }
    for (const Split &sp : def.schedule.splits) {
        if (sp.kind != Split::SplitVar || is_const(simplify(sp.factor))) continue;
        Expr msg = Call::make(Int(32), "halo_error_split_factor",
                              {StringImm::make(stage_name(func, k)), StringImm::make(sp.directive),
                               StringImm::make(sp.old_var), sp.factor},
                              Call::Extern);
        Expr ok = sp.factor > 0;
        checks.push_back(AssertStmt::make(general.defined() ? (!general || ok) : ok, msg));
    }
}

}  // namespace

namespace {

// outs: the pipeline's outputs, whose buffers' fields conditions may read.
void check_conditions(const Definition &def, const std::string &func, int k,
                      const std::vector<const FunctionContents *> &outs) {
    for (const Specialization &spec : def.specializations) {
        struct Unknown : IRVisitor {
            const std::vector<const FunctionContents *> &outs;
            std::string found;
            explicit Unknown(const std::vector<const FunctionContents *> &o) : outs(o) {}
            void visit(const Variable *v) override {
                if (v->param || !found.empty()) return;
                for (const FunctionContents *out : outs) {
                    for (int d = 0; d < out->dimensions(); d++) {
                        for (const char *field : {".min.", ".extent.", ".stride."}) {
                            if (v->name == out->name + field + std::to_string(d)) return;
                        }
                    }
                }
                found = v->name;
            }
        } unknown(outs);
        spec.condition.accept(&unknown);
        std::string names;
        for (const FunctionContents *out : outs) names += (names.empty() ? "'" : ", '") + out->name + "'";
        user_assert(unknown.found.empty())
            << describe_stage(func, k) << ": specialize(" << spec.condition << ") reads '" << unknown.found
            << "', which this pipeline (with output" << (outs.size() > 1 ? "s " : " ") << names
            << ") does not have: a condition may use Params, the fields of input buffers, and those of the "
            << "outputs' own buffers (" << outs[0]->name << ".output_buffer()), not another Func's output_buffer()";
        check_conditions(*spec.definition, func, k, outs);
    }
}

}  // namespace

void check_specialization_conditions(const Environment &env, const std::vector<std::string> &outputs) {
    std::vector<const FunctionContents *> outs;
    for (auto &o : outputs) outs.push_back(env.at(o).get());
    for (auto &[name, f] : env) {
        for (int k = 0; k < f->stages(); k++) check_conditions(f->stage(k), name, k, outs);
    }
}

namespace {

// The scalar Params a statement reads, by name.
class ScalarParams : public IRVisitor {
public:
    std::map<std::string, std::shared_ptr<ParameterContents>> found;
    using IRVisitor::visit;
    void visit(const Variable *op) override {
        if (op->param && !op->param->is_buffer) found.emplace(op->name, op->param);
    }
};

// Param::set_range: the value lies in its range. The bounds are constants of the Param's own
// type, so the comparison is exact in it; the message shows both in 64 bits. Every Param of the
// pipeline is checked, not only those the statement still reads: a value out of range is the
// caller's mistake even where it would change nothing (a split factor of a stage that no
// output needs).
void add_range_checks(const Stmt &s, const std::vector<std::shared_ptr<ParameterContents>> &pipeline_params,
                      std::vector<Stmt> &checks) {
    ScalarParams params;
    s.accept(&params);
    for (auto &p : pipeline_params) {
        if (!p->is_buffer) params.found.emplace(p->name, p);
    }
    for (auto &[name, p] : params.found) {
        Expr lo, hi;
        {
            std::lock_guard<std::mutex> lock(p->mutex);
            lo = p->min_value;
            hi = p->max_value;
        }
        // (uint64 values past INT64_MAX would print as negative int64s)
        const bool is_float = p->type.is_float(), is_u64 = p->type.is_uint() && p->type.bits() == 64;
        Type wide = is_float ? Float(64) : is_u64 ? UInt(64) : Int(64);
        const char *fn = is_float ? "halo_error_param_range_f64"
                                  : is_u64 ? "halo_error_param_range_u64" : "halo_error_param_range_i64";
        Expr value = Variable::make(p->type, name, p);
        for (int is_max = 0; is_max < 2; is_max++) {
            Expr bound = is_max ? hi : lo;
            if (!bound.defined()) continue;
            Expr ok = is_max ? value <= bound : value >= bound;
            Expr msg = Call::make(Int(32), fn,
                                  {StringImm::make(name), Cast::make(wide, value), Cast::make(wide, bound),
                                   Expr(int32_t(is_max))},
                                  Call::Extern);
            checks.push_back(AssertStmt::make(ok, msg));
        }
    }
}

}  // namespace

Stmt add_parameter_checks(const Stmt &s, const Environment &env,
                          const std::vector<std::shared_ptr<ParameterContents>> &params) {
    std::vector<Stmt> checks;
    add_range_checks(s, params, checks);
    std::set<const ReductionDomainContents *> rdoms_seen;
    for (auto &[name, f] : env) {
        // A modulus of align_bounds or align_extent known only at run time must be positive.
        for (const Bound &b : f->schedule.bounds) {
            if (!b.modulus.defined() || is_const(simplify(b.modulus))) continue;
            std::string directive = name + (b.remainder.defined() ? ".align_bounds(" : ".align_extent(") + b.var + ", ...)";
            Expr msg = Call::make(Int(32), "halo_error_align_modulus",
                                  {StringImm::make(directive), b.modulus}, Call::Extern);
            checks.push_back(AssertStmt::make(b.modulus > 0, msg));
        }
        for (int k = 0; k < f->stages(); k++) {
            const Definition &def = f->stage(k);
            add_schedule_checks(def, name, k, Expr(), checks);
            if (!def.rdom || !rdoms_seen.insert(def.rdom.get()).second) continue;
            for (auto &rv : def.rdom->vars) {
                // In 64 bits, so the check itself cannot wrap.
                Expr last = simplify(widen(rv.min) + widen(rv.extent) - Expr(int64_t(1)));
                Expr ok = rv.extent <= 0 || last <= Expr(int64_t(INT32_MAX));
                if (is_one(simplify(ok))) continue;
                Expr msg = Call::make(Int(32), "halo_error_rdom_overflow",
                                      {StringImm::make(stage_name(name, k)), StringImm::make(rv.name), rv.min, rv.extent},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(ok, msg));
            }
        }
    }
    if (checks.empty()) return s;
    checks.push_back(s);
    return Block::make(checks);
}

}  // namespace halo
