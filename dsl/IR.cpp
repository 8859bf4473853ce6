// Node constructors and the default traversals of IRVisitor and IRMutator.
#include "IR.h"

#include "Arithmetic.h"
#include "Error.h"

namespace halo {

namespace detail {

void release_node(std::shared_ptr<const IRNode> &&node) {
    // Nesting depth of node destructions on this thread, and the nodes deferred past it.
    thread_local int depth = 0;
    thread_local std::vector<std::shared_ptr<const IRNode>> deferred;
    const int max_depth = 256;
    if (node.use_count() > 1) {  // not the last reference: nothing is destroyed
        node.reset();
        return;
    }
    if (depth >= max_depth) {
        deferred.push_back(std::move(node));
        return;
    }
    depth++;
    node.reset();
    depth--;
    if (depth > 0) return;
    while (!deferred.empty()) {
        std::shared_ptr<const IRNode> next = std::move(deferred.back());
        deferred.pop_back();
        depth++;
        next.reset();
        depth--;
    }
}

}  // namespace detail

Expr::Expr(int8_t v) : Expr(IntImm::make(Int(8), v)) {}
Expr::Expr(int16_t v) : Expr(IntImm::make(Int(16), v)) {}
Expr::Expr(int32_t v) : Expr(IntImm::make(Int(32), v)) {}
Expr::Expr(int64_t v) : Expr(IntImm::make(Int(64), v)) {}
Expr::Expr(uint8_t v) : Expr(UIntImm::make(UInt(8), v)) {}
Expr::Expr(uint16_t v) : Expr(UIntImm::make(UInt(16), v)) {}
Expr::Expr(uint32_t v) : Expr(UIntImm::make(UInt(32), v)) {}
Expr::Expr(uint64_t v) : Expr(UIntImm::make(UInt(64), v)) {}
Expr Expr::make_bool(bool v) { return UIntImm::make(Bool(), v ? 1 : 0); }
Expr::Expr(float v) : Expr(FloatImm::make(Float(32), v)) {}
Expr::Expr(double v) : Expr(FloatImm::make(Float(64), v)) {}

Expr IntImm::make(Type t, int64_t v) { return Expr(std::make_shared<IntImm>(t, wrap_to_type(t, v))); }
Expr UIntImm::make(Type t, uint64_t v) {
    return Expr(std::make_shared<UIntImm>(t, uint64_t(wrap_to_type(t, int64_t(v)))));
}
Expr FloatImm::make(Type t, double v) {
    if (t.bits() == 32) v = double(float(v));
    return Expr(std::make_shared<FloatImm>(t, v));
}
Expr StringImm::make(const std::string &v) { return Expr(std::make_shared<StringImm>(v)); }

Expr Cast::make(Type t, Expr v) {
    internal_assert(v.defined()) << "Cast of undefined Expr";
    internal_assert(t.lanes() == v.type().lanes()) << "Cast changes lanes";
    return Expr(std::make_shared<Cast>(t, std::move(v)));
}

Expr Variable::make(Type t, const std::string &n, std::shared_ptr<ParameterContents> param,
                    std::shared_ptr<ReductionDomainContents> rdom) {
    auto node = std::make_shared<Variable>(t, n);
    node->param = std::move(param);
    node->rdom = std::move(rdom);
    return Expr(node);
}

template <typename T, IRNodeType NT>
Expr BinaryOpNode<T, NT>::make(Expr a, Expr b) {
    internal_assert(a.defined() && b.defined()) << "binary op of undefined Expr";
    internal_assert(a.type() == b.type())
        << "binary op of mismatched types " << a.type().to_string() << " and "
        << b.type().to_string();
    Type t = a.type();
    if constexpr (NT == IRNodeType::EQ || NT == IRNodeType::NE || NT == IRNodeType::LT ||
                  NT == IRNodeType::LE || NT == IRNodeType::GT || NT == IRNodeType::GE) {
        t = Bool(t.lanes());
    }
    return Expr(std::make_shared<T>(t, std::move(a), std::move(b)));
}
template struct BinaryOpNode<Add, IRNodeType::Add>;
template struct BinaryOpNode<Sub, IRNodeType::Sub>;
template struct BinaryOpNode<Mul, IRNodeType::Mul>;
template struct BinaryOpNode<Div, IRNodeType::Div>;
template struct BinaryOpNode<Mod, IRNodeType::Mod>;
template struct BinaryOpNode<Min, IRNodeType::Min>;
template struct BinaryOpNode<Max, IRNodeType::Max>;
template struct BinaryOpNode<EQ, IRNodeType::EQ>;
template struct BinaryOpNode<NE, IRNodeType::NE>;
template struct BinaryOpNode<LT, IRNodeType::LT>;
template struct BinaryOpNode<LE, IRNodeType::LE>;
template struct BinaryOpNode<GT, IRNodeType::GT>;
template struct BinaryOpNode<GE, IRNodeType::GE>;
template struct BinaryOpNode<And, IRNodeType::And>;
template struct BinaryOpNode<Or, IRNodeType::Or>;

Expr Not::make(Expr a) {
    Type t = a.type();
    return Expr(std::make_shared<Not>(t, std::move(a)));
}

Expr Select::make(Expr c, Expr t, Expr f) {
    internal_assert(t.type() == f.type()) << "select of mismatched types";
    Type ty = t.type();
    return Expr(std::make_shared<Select>(ty, std::move(c), std::move(t), std::move(f)));
}

Expr Load::make(Type t, const std::string &name, Expr index) {
    return Expr(std::make_shared<Load>(t, name, std::move(index)));
}

Expr Ramp::make(Expr base, Expr stride, int lanes) {
    Type t = base.type().with_lanes(lanes);
    return Expr(std::make_shared<Ramp>(t, std::move(base), std::move(stride), lanes));
}

Expr Broadcast::make(Expr value, int lanes) {
    Type t = value.type().with_lanes(lanes);
    return Expr(std::make_shared<Broadcast>(t, std::move(value), lanes));
}

FunctionContents *FunctionPtr::operator->() const {
    FunctionContents *f = get();
    internal_assert(f) << "a Func was freed while an expression still reads it";
    return f;
}

Expr Call::make(Type t, const std::string &name, std::vector<Expr> args, CallType ct,
                FunctionPtr func, std::shared_ptr<ParameterContents> param, int value_index) {
    auto node = std::make_shared<Call>(t, name, std::move(args), ct);
    node->func = std::move(func);
    node->param = std::move(param);
    node->value_index = value_index;
    return Expr(node);
}

Expr Let::make(const std::string &name, Expr value, Expr body) {
    Type t = body.type();
    return Expr(std::make_shared<Let>(t, name, std::move(value), std::move(body)));
}

Stmt LetStmt::make(const std::string &name, Expr value, Stmt body) {
    auto n = std::make_shared<LetStmt>();
    n->name = name;
    n->value = std::move(value);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt AssertStmt::make(Expr condition, Expr message) {
    auto n = std::make_shared<AssertStmt>();
    n->condition = std::move(condition);
    n->message = std::move(message);
    return Stmt(n);
}

Stmt ProducerConsumer::make(const std::string &name, bool is_producer, Stmt body) {
    auto n = std::make_shared<ProducerConsumer>();
    n->name = name;
    n->is_producer = is_producer;
    n->body = std::move(body);
    return Stmt(n);
}

Stmt For::make(const std::string &name, Expr min, Expr extent, ForType t, Stmt body) {
    auto n = std::make_shared<For>();
    n->name = name;
    n->min = std::move(min);
    n->extent = std::move(extent);
    n->for_type = t;
    n->body = std::move(body);
    return Stmt(n);
}

Stmt Store::make(const std::string &name, Expr value, Expr index, bool nontemporal, bool atomic) {
    internal_assert(!(nontemporal && atomic)) << "a store to " << name << " both nontemporal and atomic";
    auto n = std::make_shared<Store>();
    n->name = name;
    n->value = std::move(value);
    n->index = std::move(index);
    n->nontemporal = nontemporal;
    n->atomic = atomic;
    return Stmt(n);
}

Stmt Provide::make(const std::string &name, std::vector<Expr> values, std::vector<Expr> args, bool atomic) {
    auto n = std::make_shared<Provide>();
    n->name = name;
    n->values = std::move(values);
    n->args = std::move(args);
    n->atomic = atomic;
    return Stmt(n);
}

Stmt Allocate::make(const std::string &name, Type t, std::vector<Expr> extents, Stmt body, MemoryType memory_type) {
    auto n = std::make_shared<Allocate>();
    n->memory_type = memory_type;
    n->name = name;
    n->type = t;
    n->extents = std::move(extents);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt Realize::make(const std::string &name, std::vector<Type> types, std::vector<Range> bounds, Stmt body) {
    auto n = std::make_shared<Realize>();
    n->name = name;
    n->types = std::move(types);
    n->bounds = std::move(bounds);
    n->body = std::move(body);
    return Stmt(n);
}

Stmt Block::make(Stmt first, Stmt rest) {
    if (!first.defined()) return rest;
    if (!rest.defined()) return first;
    auto n = std::make_shared<Block>();
    n->first = std::move(first);
    n->rest = std::move(rest);
    return Stmt(n);
}

Stmt Block::make(const std::vector<Stmt> &stmts) {
    Stmt result;
    for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) result = make(*it, result);
    return result;
}

Stmt IfThenElse::make(Expr condition, Stmt then_case, Stmt else_case) {
    auto n = std::make_shared<IfThenElse>();
    n->condition = std::move(condition);
    n->then_case = std::move(then_case);
    n->else_case = std::move(else_case);
    return Stmt(n);
}

Stmt Evaluate::make(Expr value) {
    auto n = std::make_shared<Evaluate>();
    n->value = std::move(value);
    return Stmt(n);
}

const int64_t *as_const_int(const Expr &e) {
    if (auto i = e.as<IntImm>()) return &i->value;
    return nullptr;
}

bool is_const(const Expr &e) {
    if (!e.defined()) return false;
    if (e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>()) return true;
    if (auto b = e.as<Broadcast>()) return is_const(b->value);
    return false;
}

bool is_const(const Expr &e, int64_t v) {
    if (!e.defined()) return false;
    if (auto i = e.as<IntImm>()) return i->value == v;
    if (auto u = e.as<UIntImm>()) return v >= 0 && u->value == uint64_t(v);
    if (auto f = e.as<FloatImm>()) return f->value == double(v);
    if (auto b = e.as<Broadcast>()) return is_const(b->value, v);
    return false;
}

Expr make_const(Type t, int64_t v) {
    Expr s;
    Type e = t.element_of();
    if (e.is_int()) s = IntImm::make(e, v);
    else if (e.is_uint()) s = UIntImm::make(e, uint64_t(v));
    else s = FloatImm::make(e, double(v));
    return t.lanes() > 1 ? Broadcast::make(s, t.lanes()) : s;
}

Expr make_const(Type t, double v) {
    Type e = t.element_of();
    // A float converts to an integer type as a cast does: toward zero, saturating, NaN -> 0.
    Expr s = e.is_float() ? FloatImm::make(e, v) : make_const(e, saturating_float_to_int(e, v));
    return t.lanes() > 1 ? Broadcast::make(s, t.lanes()) : s;
}

Expr make_zero(Type t) { return make_const(t, int64_t(0)); }
Expr make_one(Type t) { return make_const(t, int64_t(1)); }

// ---------------------------------------------------------------- IRVisitor defaults

void IRVisitor::visit(const IntImm *) {}
void IRVisitor::visit(const UIntImm *) {}
void IRVisitor::visit(const FloatImm *) {}
void IRVisitor::visit(const StringImm *) {}
void IRVisitor::visit(const Cast *op) { op->value.accept(this); }
void IRVisitor::visit(const Variable *) {}
#define HALO_VISIT_BINARY(N) \
    void IRVisitor::visit(const N *op) { op->a.accept(this); op->b.accept(this); }
HALO_VISIT_BINARY(Add) HALO_VISIT_BINARY(Sub) HALO_VISIT_BINARY(Mul) HALO_VISIT_BINARY(Div)
HALO_VISIT_BINARY(Mod) HALO_VISIT_BINARY(Min) HALO_VISIT_BINARY(Max) HALO_VISIT_BINARY(EQ)
HALO_VISIT_BINARY(NE) HALO_VISIT_BINARY(LT) HALO_VISIT_BINARY(LE) HALO_VISIT_BINARY(GT)
HALO_VISIT_BINARY(GE) HALO_VISIT_BINARY(And) HALO_VISIT_BINARY(Or)
#undef HALO_VISIT_BINARY
void IRVisitor::visit(const Not *op) { op->a.accept(this); }
void IRVisitor::visit(const Select *op) {
    op->condition.accept(this);
    op->true_value.accept(this);
    op->false_value.accept(this);
}
void IRVisitor::visit(const Load *op) { op->index.accept(this); }
void IRVisitor::visit(const Ramp *op) { op->base.accept(this); op->stride.accept(this); }
void IRVisitor::visit(const Broadcast *op) { op->value.accept(this); }
void IRVisitor::visit(const Call *op) {
    for (const auto &a : op->args) a.accept(this);
}
void IRVisitor::visit(const Let *op) { op->value.accept(this); op->body.accept(this); }
void IRVisitor::visit(const LetStmt *op) { op->value.accept(this); op->body.accept(this); }
void IRVisitor::visit(const AssertStmt *op) { op->condition.accept(this); op->message.accept(this); }
void IRVisitor::visit(const ProducerConsumer *op) { op->body.accept(this); }
void IRVisitor::visit(const For *op) {
    op->min.accept(this);
    op->extent.accept(this);
    op->body.accept(this);
}
void IRVisitor::visit(const Store *op) { op->value.accept(this); op->index.accept(this); }
void IRVisitor::visit(const Provide *op) {
    for (const auto &v : op->values) v.accept(this);
    for (const auto &a : op->args) a.accept(this);
}
void IRVisitor::visit(const Allocate *op) {
    for (const auto &e : op->extents) e.accept(this);
    op->body.accept(this);
}
void IRVisitor::visit(const Realize *op) {
    for (const auto &r : op->bounds) {
        r.min.accept(this);
        r.extent.accept(this);
    }
    op->body.accept(this);
}
void IRVisitor::visit(const Block *op) { op->first.accept(this); op->rest.accept(this); }
void IRVisitor::visit(const IfThenElse *op) {
    op->condition.accept(this);
    op->then_case.accept(this);
    if (op->else_case.defined()) op->else_case.accept(this);
}
void IRVisitor::visit(const Evaluate *op) { op->value.accept(this); }

// ---------------------------------------------------------------- IRMutator defaults

Expr IRMutator::visit(const IntImm *op) { return self(op); }
Expr IRMutator::visit(const UIntImm *op) { return self(op); }
Expr IRMutator::visit(const FloatImm *op) { return self(op); }
Expr IRMutator::visit(const StringImm *op) { return self(op); }
Expr IRMutator::visit(const Variable *op) { return self(op); }
Expr IRMutator::visit(const Cast *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? self(op) : Cast::make(op->type, v);
}
#define HALO_MUTATE_BINARY(N)                                                 \
    Expr IRMutator::visit(const N *op) {                                      \
        Expr a = mutate(op->a), b = mutate(op->b);                            \
        return a.same_as(op->a) && b.same_as(op->b) ? self(op) : N::make(a, b); \
    }
HALO_MUTATE_BINARY(Add) HALO_MUTATE_BINARY(Sub) HALO_MUTATE_BINARY(Mul) HALO_MUTATE_BINARY(Div)
HALO_MUTATE_BINARY(Mod) HALO_MUTATE_BINARY(Min) HALO_MUTATE_BINARY(Max) HALO_MUTATE_BINARY(EQ)
HALO_MUTATE_BINARY(NE) HALO_MUTATE_BINARY(LT) HALO_MUTATE_BINARY(LE) HALO_MUTATE_BINARY(GT)
HALO_MUTATE_BINARY(GE) HALO_MUTATE_BINARY(And) HALO_MUTATE_BINARY(Or)
#undef HALO_MUTATE_BINARY
Expr IRMutator::visit(const Not *op) {
    Expr a = mutate(op->a);
    return a.same_as(op->a) ? self(op) : Not::make(a);
}
Expr IRMutator::visit(const Select *op) {
    Expr c = mutate(op->condition), t = mutate(op->true_value), f = mutate(op->false_value);
    if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) return self(op);
    return Select::make(c, t, f);
}
Expr IRMutator::visit(const Load *op) {
    Expr i = mutate(op->index);
    return i.same_as(op->index) ? self(op) : Load::make(op->type, op->name, i);
}
Expr IRMutator::visit(const Ramp *op) {
    Expr b = mutate(op->base), s = mutate(op->stride);
    return b.same_as(op->base) && s.same_as(op->stride) ? self(op) : Ramp::make(b, s, op->lanes);
}
Expr IRMutator::visit(const Broadcast *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? self(op) : Broadcast::make(v, op->lanes);
}
Expr IRMutator::visit(const Call *op) {
    std::vector<Expr> args;
    bool changed = false;
    for (const auto &a : op->args) {
        args.push_back(mutate(a));
        changed |= !args.back().same_as(a);
    }
    if (!changed) return self(op);
    return Call::make(op->type, op->name, std::move(args), op->call_type, op->func, op->param, op->value_index);
}
Expr IRMutator::visit(const Let *op) {
    Expr v = mutate(op->value), b = mutate(op->body);
    return v.same_as(op->value) && b.same_as(op->body) ? self(op) : Let::make(op->name, v, b);
}

Stmt IRMutator::visit(const LetStmt *op) {
    Expr v = mutate(op->value);
    Stmt b = mutate(op->body);
    return v.same_as(op->value) && b.same_as(op->body) ? self(op) : LetStmt::make(op->name, v, b);
}
Stmt IRMutator::visit(const AssertStmt *op) {
    Expr c = mutate(op->condition), m = mutate(op->message);
    return c.same_as(op->condition) && m.same_as(op->message) ? self(op) : AssertStmt::make(c, m);
}
Stmt IRMutator::visit(const ProducerConsumer *op) {
    Stmt b = mutate(op->body);
    return b.same_as(op->body) ? self(op) : ProducerConsumer::make(op->name, op->is_producer, b);
}
Stmt IRMutator::visit(const For *op) {
    Expr mn = mutate(op->min), ex = mutate(op->extent);
    Stmt b = mutate(op->body);
    if (mn.same_as(op->min) && ex.same_as(op->extent) && b.same_as(op->body)) return self(op);
    return For::make(op->name, mn, ex, op->for_type, b);
}
Stmt IRMutator::visit(const Store *op) {
    Expr v = mutate(op->value), i = mutate(op->index);
    return v.same_as(op->value) && i.same_as(op->index) ? self(op) : Store::make(op->name, v, i, op->nontemporal, op->atomic);
}
Stmt IRMutator::visit(const Provide *op) {
    bool changed = false;
    std::vector<Expr> v;
    for (const auto &e : op->values) {
        v.push_back(mutate(e));
        changed |= !v.back().same_as(e);
    }
    std::vector<Expr> args;
    for (const auto &a : op->args) {
        args.push_back(mutate(a));
        changed |= !args.back().same_as(a);
    }
    return changed ? Provide::make(op->name, v, std::move(args), op->atomic) : self(op);
}
Stmt IRMutator::visit(const Allocate *op) {
    bool changed = false;
    std::vector<Expr> extents;
    for (const auto &e : op->extents) {
        extents.push_back(mutate(e));
        changed |= !extents.back().same_as(e);
    }
    Stmt b = mutate(op->body);
    changed |= !b.same_as(op->body);
    return changed ? Allocate::make(op->name, op->type, std::move(extents), b, op->memory_type) : self(op);
}
Stmt IRMutator::visit(const Realize *op) {
    bool changed = false;
    std::vector<Range> bounds;
    for (const auto &r : op->bounds) {
        Range n(mutate(r.min), mutate(r.extent));
        changed |= !n.min.same_as(r.min) || !n.extent.same_as(r.extent);
        bounds.push_back(n);
    }
    Stmt b = mutate(op->body);
    changed |= !b.same_as(op->body);
    return changed ? Realize::make(op->name, op->types, std::move(bounds), b) : self(op);
}
Stmt IRMutator::visit(const Block *op) {
    Stmt f = mutate(op->first), r = mutate(op->rest);
    return f.same_as(op->first) && r.same_as(op->rest) ? self(op) : Block::make(f, r);
}
Stmt IRMutator::visit(const IfThenElse *op) {
    Expr c = mutate(op->condition);
    Stmt t = mutate(op->then_case), e = mutate(op->else_case);
    if (c.same_as(op->condition) && t.same_as(op->then_case) && e.same_as(op->else_case)) return self(op);
    return IfThenElse::make(c, t, e);
}
Stmt IRMutator::visit(const Evaluate *op) {
    Expr v = mutate(op->value);
    return v.same_as(op->value) ? self(op) : Evaluate::make(v);
}

}  // namespace halo
