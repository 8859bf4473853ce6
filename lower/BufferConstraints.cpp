#include "BufferConstraints.h"

#include <map>
#include <set>

#include "BoundsOverflowChecks.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Buffer.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"
#include "dsl/IRVisitor.h"

namespace halo {

namespace {

// The buffer fields and Params a constraint reads.
class ConstraintInputs : public IRVisitor {
public:
    std::set<std::string> names;
    std::set<const ParameterContents *> params;

private:
    void visit(const Variable *op) override {
        names.insert(op->name);
        if (op->param) params.insert(op->param.get());
    }
};

struct Constrained {
    std::string buffer;  // the buffer's name, as its fields are named in the IR
    const std::vector<BufferDimConstraint> *dims;
    std::string directive_prefix;  // "input.dim(" or "g.output_buffer().dim("
    bool is_output;
    int tuple_values = 1;  // of an output
};

}  // namespace

bool fixed_buffer_strided_dim0(const ParameterContents &p) {
    return p.is_fixed_buffer && p.buffer && !p.buffer->dims.empty() && p.buffer->dims[0].stride != 1;
}

std::set<std::string> buffers_with_strided_dim0(const std::vector<std::shared_ptr<ParameterContents>> &params,
                                                const std::vector<const FunctionContents *> &outputs) {
    std::set<std::string> strided;
    for (const FunctionContents *output : outputs) {
        // (A Tuple output's dimension 0 stays dense: add_buffer_constraints refuses another.)
        if (output->output_constraints.empty() || !output->output_constraints[0].stride_set || output->is_tuple()) continue;
        const Expr &s = output->output_constraints[0].stride;
        if (!s.defined() || !is_one(simplify(s))) strided.insert(output->name);
    }
    for (auto &p : params) {
        if (fixed_buffer_strided_dim0(*p)) strided.insert(p->name);
        if (!p->is_buffer || p->is_fixed_buffer || p->dimensions == 0) continue;
        std::lock_guard<std::mutex> lock(p->mutex);
        if (p->constraints.empty() || !p->constraints[0].stride_set) continue;
        const Expr &s = p->constraints[0].stride;
        if (!s.defined() || !is_one(simplify(s))) strided.insert(p->name);
    }
    return strided;
}

Stmt add_buffer_constraints(const Stmt &s, const std::vector<std::shared_ptr<ParameterContents>> &params,
                            const std::vector<const FunctionContents *> &outputs) {
    // The constraints are copied under each parameter's lock (they may be set from other
    // threads, though a pipeline compiled before a change recompiles at its next call).
    std::vector<std::vector<BufferDimConstraint>> copies;
    std::vector<Constrained> all;
    copies.reserve(params.size() + outputs.size());
    for (auto &p : params) {
        if (!p->is_buffer || p->is_fixed_buffer) continue;
        std::lock_guard<std::mutex> lock(p->mutex);
        if (p->constraints.empty()) continue;
        copies.push_back(p->constraints);
        all.push_back({p->name, &copies.back(), p->name + ".dim(", false});
    }
    for (const FunctionContents *output : outputs) {
        if (output->output_constraints.empty()) continue;
        copies.push_back(output->output_constraints);
        all.push_back({output->name, &copies.back(), output->name + ".output_buffer().dim(", true, output->outputs()});
    }
    if (all.empty()) return s;

    std::set<const ParameterContents *> known_params;
    for (auto &p : params) known_params.insert(p.get());
    std::vector<Stmt> checks;
    std::map<std::string, Expr> replacements;
    for (const Constrained &c : all) {
        for (size_t d = 0; d < c.dims->size(); d++) {
            const BufferDimConstraint &k = (*c.dims)[d];
            user_assert(!(d == 0 && c.is_output && c.tuple_values > 1 && k.stride_set &&
                          (!k.stride.defined() || !is_one(simplify(k.stride)))))
                << c.directive_prefix << "0).set_stride(" << (k.stride.defined() ? to_string(k.stride) : std::string())
                << "): the output has " << c.tuple_values << " values (a Tuple), and Halo writes a Tuple output's "
                << "buffers with stride 1 in dimension 0; constrain a single-valued output, or copy the Tuple's "
                << "values into one";
            const std::pair<const char *, Expr> fields[] = {{"min", k.min}, {"extent", k.extent}, {"stride", k.stride}};
            for (auto &[field, want] : fields) {
                if (!want.defined()) continue;
                std::string directive = c.directive_prefix + std::to_string(d) + ").set_" + field + "(" +
                                        to_string(want) + ")";
                ConstraintInputs inputs;
                want.accept(&inputs);
                for (const ParameterContents *p : inputs.params) {
                    user_assert(known_params.count(p))
                        << directive << " uses '" << p->name << "', which the pipeline does not otherwise "
                        << "take; use it in the algorithm too, or constrain with a constant";
                }
                if (std::string(field) == "stride" && d == 0 && is_one(simplify(want))) {
                    // Stride 1 is dimension 0's default (the runtime checks it with the other
                    // buffer fields): nothing more to check or to know. Another stride of an
                    // input's or a single-valued output's dimension 0 is checked below like any
                    // field (and its stores and loads use it).
                    continue;
                }
                Expr have = Variable::make(Int(32), c.buffer + "." + field + "." + std::to_string(d));
                Expr msg = Call::make(Int(32), "halo_error_buffer_constraint",
                                      {StringImm::make(c.buffer), StringImm::make(field), Expr(int(d)),
                                       exact_int64(have), exact_int64(want), StringImm::make(directive)},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(have == want, msg));
                replacements[c.buffer + "." + field + "." + std::to_string(d)] = want;
            }
        }
    }
    // The constraints may refer to each other's fields (set_extent(other.dim(0).extent())):
    // the replacements apply after all checks, and only to the body.
    Stmt body = substitute(replacements, s);
    checks.push_back(body);
    return Block::make(checks);
}

}  // namespace halo
