#include "LosslessCast.h"

#include "IROperator.h"

namespace halo {

namespace {
// Bits of a float type's significand, the implicit leading bit included.
int significand_bits(Type t) { return t.bits() == 16 ? 11 : t.bits() == 32 ? 24 : 53; }
}  // namespace

bool type_can_represent(Type to, Type from) {
    to = to.element_of();
    from = from.element_of();
    if (to == from) return true;
    if (to.is_float()) {
        if (from.is_float()) return to.bits() >= from.bits();
        int value_bits = from.is_int() ? from.bits() - 1 : from.bits();
        return value_bits <= significand_bits(to);
    }
    if (from.is_float()) return false;
    if (to.is_int()) return from.is_int() ? to.bits() >= from.bits() : to.bits() > from.bits();
    return from.is_uint() && to.bits() >= from.bits();  // unsigned `to`: no negative value fits
}

Expr lossless_cast(Type t, const Expr &e) {
    if (!e.defined()) return Expr();
    t = t.with_lanes(e.type().lanes());
    if (e.type() == t) return e;
    if (type_can_represent(t, e.type())) return cast(t, e);
    if (auto b = e.as<Broadcast>()) {
        Expr value = lossless_cast(t.element_of(), b->value);
        return value.defined() ? Broadcast::make(value, b->lanes) : Expr();
    }
    if (auto c = e.as<Cast>()) {
        // A widening cast changes no value, so its operand may fit t even where the cast's
        // type does not (int32(u8) fits int16); a narrowing one may already have wrapped.
        if (!type_can_represent(c->type, c->value.type())) return Expr();
        return lossless_cast(t, c->value);
    }
    if (auto i = e.as<IntImm>()) return t.can_represent(i->value) ? make_const(t, i->value) : Expr();
    if (auto u = e.as<UIntImm>()) {
        if (u->value > uint64_t(INT64_MAX)) return t.is_uint() && t.bits() == 64 ? make_const(t, int64_t(u->value)) : Expr();
        return t.can_represent(int64_t(u->value)) ? make_const(t, int64_t(u->value)) : Expr();
    }
    if (auto f = e.as<FloatImm>()) return t.can_represent(f->value) ? make_const(t, f->value) : Expr();
    if (!t.is_float() && t.bits() >= 16 && type_can_represent(e.type(), t)) {
        // Two operands of half t's width cannot overflow t when added or multiplied, nor
        // subtracted when t is signed (an unsigned difference may be negative); and e's type,
        // which holds every value of t, computed the same number without wrapping.
        Type half = t.with_bits(t.bits() / 2);
        auto narrowed = [&](const Expr &a, const Expr &b, Expr &na, Expr &nb) {
            na = lossless_cast(half, a);
            nb = lossless_cast(half, b);
            return na.defined() && nb.defined();
        };
        Expr a, b;
        if (auto add = e.as<Add>()) {
            if (narrowed(add->a, add->b, a, b)) return Add::make(cast(t, a), cast(t, b));
        } else if (auto sub = e.as<Sub>()) {
            if (t.is_int() && narrowed(sub->a, sub->b, a, b)) return Sub::make(cast(t, a), cast(t, b));
        } else if (auto mul = e.as<Mul>()) {
            if (narrowed(mul->a, mul->b, a, b)) return Mul::make(cast(t, a), cast(t, b));
        }
    }
    return Expr();
}

}  // namespace halo
