#include "Dimension.h"

#include <algorithm>
#include <vector>

#include "Error.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "IRVisitor.h"

namespace halo {

namespace {

// A constraint may read constants, Params and buffer fields, but no Var or RVar: it is
// evaluated once per call, outside every loop.
// (A name bound by a Let inside the expression is no Var: Halide's let_in_rdom_bound gives an
// RDom the extent let x = (p + 8) / p in x * x.)
class FindLoopVars : public IRVisitor {
public:
    std::string found;

    using IRVisitor::visit;

private:
    std::vector<std::string> let_bound_;
    void visit(const Variable *op) override {
        bool buffer_field = op->name.find(".min.") != std::string::npos ||
                            op->name.find(".extent.") != std::string::npos ||
                            op->name.find(".stride.") != std::string::npos;
        bool bound_here = std::find(let_bound_.begin(), let_bound_.end(), op->name) != let_bound_.end();
        if (!op->param && !buffer_field && !bound_here && found.empty()) found = op->name;
    }
    void visit(const Let *op) override {
        op->value.accept(this);
        let_bound_.push_back(op->name);
        op->body.accept(this);
        let_bound_.pop_back();
    }
};

}  // namespace

std::string first_loop_variable(const Expr &e) {
    FindLoopVars vars;
    e.accept(&vars);
    return vars.found;
}

Dimension::Dimension(std::shared_ptr<ParameterContents> param, int d) : param_(std::move(param)), d_(d) {
    user_assert(d >= 0 && d < param_->dimensions)
        << "ImageParam '" << param_->name << "' has " << param_->dimensions << " dimensions; no dimension " << d;
}

Dimension::Dimension(std::shared_ptr<FunctionContents> output, int d) : output_(std::move(output)), d_(d) {
    user_assert(output_->has_pure_definition || output_->required_dimensions >= 0)
        << "output_buffer() of Func '" << output_->name
        << "', which has no definition yet: define it first (or declare it with its type and dimensions, "
        << "Func(type, dimensions, name))";
    user_assert(d >= 0 && d < output_->dimensions())
        << "Func '" << output_->name << "' has " << output_->dimensions() << " dimensions; its output buffer has no dimension " << d;
}

const std::string &Dimension::buffer_name() const { return param_ ? param_->name : output_->name; }

Expr Dimension::field(const char *name) const {
    return Variable::make(Int(32), buffer_name() + "." + name + "." + std::to_string(d_), param_);
}

Expr Dimension::min() const { return field("min"); }
Expr Dimension::extent() const { return field("extent"); }
Expr Dimension::max() const { return min() + extent() - 1; }
// Dimension 0 is dense (stride 1, known to the compiler) unless set_stride said otherwise.
Expr Dimension::stride() const {
    if (d_ != 0) return field("stride");
    BufferDimConstraint c;
    if (param_) {
        std::lock_guard<std::mutex> lock(param_->mutex);
        if (!param_->constraints.empty()) c = param_->constraints[0];
    } else if (!output_->output_constraints.empty()) {
        c = output_->output_constraints[0];
    }
    if (!c.stride_set) return Expr(1);
    return c.stride.defined() && is_const(c.stride) ? c.stride : field("stride");
}

Dimension Dimension::dim(int d) const { return param_ ? Dimension(param_, d) : Dimension(output_, d); }

void Dimension::constrain(Expr BufferDimConstraint::*member, const char *name, Expr value) {
    std::string directive = (param_ ? buffer_name() : buffer_name() + ".output_buffer()") + ".dim(" +
                            std::to_string(d_) + ").set_" + name;
    if (value.defined()) {
        user_assert(value.type().is_int() || value.type().is_uint())
            << directive << "(" << value << "): the value is " << value.type() << "; it must be an integer";
        std::string loop_var = first_loop_variable(value);
        user_assert(loop_var.empty())
            << directive << "(" << value << ") uses '" << loop_var << "', a Var or RVar; a constraint may use "
            << "only constants, Params and buffer fields such as other.dim(0).extent()";
        if (value.type() != Int(32)) value = cast(Int(32), value);
    }
    if (param_ && value.defined()) {
        // The buffer's own fields (in.dim(0).set_min(in.dim(1).min() - 5)) are kept by name
        // only: a field holding its ImageParam would make the ImageParam hold itself (a cycle of
        // shared pointers, never freed). Lowering knows the owner without the pointer.
        struct ForgetOwner : IRMutator {
            const ParameterContents *owner;
            explicit ForgetOwner(const ParameterContents *o) : owner(o) {}
            using IRMutator::visit;
            Expr visit(const Variable *op) override {
                if (op->param.get() != owner) return IRMutator::visit(op);
                return Variable::make(op->type, op->name);
            }
        } forget(param_.get());
        value = forget.mutate(value);
    }
    if (param_) {
        std::lock_guard<std::mutex> lock(param_->mutex);
        param_->constraints.resize(size_t(param_->dimensions));
        param_->constraints[size_t(d_)].*member = value;
        if (member == &BufferDimConstraint::stride) param_->constraints[size_t(d_)].stride_set = true;
        param_->constraints_version++;
    } else {
        output_->output_constraints.resize(size_t(output_->dimensions()));
        output_->output_constraints[size_t(d_)].*member = value;
        if (member == &BufferDimConstraint::stride) output_->output_constraints[size_t(d_)].stride_set = true;
        output_->changed();
    }
}

OutputBuffer &OutputBuffer::set_host_alignment(int bytes) {
    user_assert(bytes > 0) << "Func '" << f_->name << "': output_buffer().set_host_alignment(" << bytes
                           << ") needs a positive number of bytes";
    f_->output_host_alignment = bytes;
    f_->changed();
    return *this;
}

Dimension &Dimension::set_min(Expr min) {
    constrain(&BufferDimConstraint::min, "min", std::move(min));
    return *this;
}
Dimension &Dimension::set_extent(Expr extent) {
    constrain(&BufferDimConstraint::extent, "extent", std::move(extent));
    return *this;
}
Dimension &Dimension::set_stride(Expr stride) {
    constrain(&BufferDimConstraint::stride, "stride", std::move(stride));
    return *this;
}
Dimension &Dimension::set_bounds(Expr min, Expr extent) {
    set_min(std::move(min));
    return set_extent(std::move(extent));
}

}  // namespace halo
