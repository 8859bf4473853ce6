#include "IREquality.h"

#include <cstdint>
#include <cstring>

namespace halo {

namespace {

template <typename T>
int cmp(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

int compare_type(Type a, Type b) {
    if (int c = cmp(int(a.code()), int(b.code()))) return c;
    if (int c = cmp(int(a.bits()), int(b.bits()))) return c;
    return cmp(int(a.lanes()), int(b.lanes()));
}

template <typename N>
int compare_binary(const Expr &a, const Expr &b) {
    const N *x = static_cast<const N *>(a.get());
    const N *y = static_cast<const N *>(b.get());
    if (int c = compare_expr(x->a, y->a)) return c;
    return compare_expr(x->b, y->b);
}

}  // namespace

int compare_expr(const Expr &a, const Expr &b) {
    if (a.same_as(b)) return 0;
    if (!a.defined() || !b.defined()) return cmp(a.defined(), b.defined());
    if (int c = cmp(int(a.get()->node_type), int(b.get()->node_type))) return c;
    if (int c = compare_type(a.type(), b.type())) return c;
    switch (a.get()->node_type) {
    case IRNodeType::IntImm: return cmp(a.as<IntImm>()->value, b.as<IntImm>()->value);
    case IRNodeType::UIntImm: return cmp(a.as<UIntImm>()->value, b.as<UIntImm>()->value);
    case IRNodeType::FloatImm: {
        // By bit pattern: a NaN is not "equal" to every number (a < b and b < a are both false
        // for it: select(c, NaN, 1.0f) was folded to NaN, and ordered containers of Exprs lost
        // their strict weak order), and -0.0 and 0.0 are different constants.
        uint64_t x, y;
        double va = a.as<FloatImm>()->value, vb = b.as<FloatImm>()->value;
        std::memcpy(&x, &va, 8);
        std::memcpy(&y, &vb, 8);
        return cmp(x, y);
    }
    case IRNodeType::StringImm: return cmp(a.as<StringImm>()->value, b.as<StringImm>()->value);
    case IRNodeType::Cast: return compare_expr(a.as<Cast>()->value, b.as<Cast>()->value);
    case IRNodeType::Variable: return cmp(a.as<Variable>()->name, b.as<Variable>()->name);
    case IRNodeType::Add: return compare_binary<Add>(a, b);
    case IRNodeType::Sub: return compare_binary<Sub>(a, b);
    case IRNodeType::Mul: return compare_binary<Mul>(a, b);
    case IRNodeType::Div: return compare_binary<Div>(a, b);
    case IRNodeType::Mod: return compare_binary<Mod>(a, b);
    case IRNodeType::Min: return compare_binary<Min>(a, b);
    case IRNodeType::Max: return compare_binary<Max>(a, b);
    case IRNodeType::EQ: return compare_binary<EQ>(a, b);
    case IRNodeType::NE: return compare_binary<NE>(a, b);
    case IRNodeType::LT: return compare_binary<LT>(a, b);
    case IRNodeType::LE: return compare_binary<LE>(a, b);
    case IRNodeType::GT: return compare_binary<GT>(a, b);
    case IRNodeType::GE: return compare_binary<GE>(a, b);
    case IRNodeType::And: return compare_binary<And>(a, b);
    case IRNodeType::Or: return compare_binary<Or>(a, b);
    case IRNodeType::Not: return compare_expr(a.as<Not>()->a, b.as<Not>()->a);
    case IRNodeType::Select: {
        auto x = a.as<Select>(), y = b.as<Select>();
        if (int c = compare_expr(x->condition, y->condition)) return c;
        if (int c = compare_expr(x->true_value, y->true_value)) return c;
        return compare_expr(x->false_value, y->false_value);
    }
    case IRNodeType::Load: {
        auto x = a.as<Load>(), y = b.as<Load>();
        if (int c = cmp(x->name, y->name)) return c;
        return compare_expr(x->index, y->index);
    }
    case IRNodeType::Ramp: {
        auto x = a.as<Ramp>(), y = b.as<Ramp>();
        if (int c = compare_expr(x->base, y->base)) return c;
        return compare_expr(x->stride, y->stride);
    }
    case IRNodeType::Broadcast: return compare_expr(a.as<Broadcast>()->value, b.as<Broadcast>()->value);
    case IRNodeType::Call: {
        auto x = a.as<Call>(), y = b.as<Call>();
        if (int c = cmp(x->name, y->name)) return c;
        if (int c = cmp(int(x->call_type), int(y->call_type))) return c;
        if (int c = cmp(x->value_index, y->value_index)) return c;
        if (int c = cmp(x->args.size(), y->args.size())) return c;
        for (size_t i = 0; i < x->args.size(); i++) {
            if (int c = compare_expr(x->args[i], y->args[i])) return c;
        }
        return 0;
    }
    case IRNodeType::Let: {
        auto x = a.as<Let>(), y = b.as<Let>();
        if (int c = cmp(x->name, y->name)) return c;
        if (int c = compare_expr(x->value, y->value)) return c;
        return compare_expr(x->body, y->body);
    }
    default: return 0;
    }
}

}  // namespace halo
