#include "EvaluateInt.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "EuclideanDivision.h"
#include "dsl/Arithmetic.h"
#include "dsl/IROperator.h"

namespace halo {

namespace {

// Evaluation stops at the first node it cannot evaluate: `failed` says why.
class IntEvaluator {
public:
    explicit IntEvaluator(const IntEnvironment &env) : env_(env) {}
    bool failed = false;
    std::string unknown_variable;

    int64_t eval(const Expr &e) {
        if (failed) return 0;
        if (auto i = e.as<IntImm>()) return i->value;
        if (auto u = e.as<UIntImm>()) return int64_t(u->value);
        if (auto v = e.as<Variable>()) {
            if (auto b = bound_.find(v->name); b != bound_.end()) return b->second;
            auto it = env_.find(v->name);
            if (it == env_.end()) return fail(v->name);
            return it->second;
        }
        if (auto l = e.as<Let>()) {
            // (Bounds checks name large region ends once: let ... in ...)
            if (l->value.type().is_float()) return fail("");
            int64_t value = eval(l->value);
            if (failed) return 0;
            std::optional<int64_t> shadowed;
            if (auto b = bound_.find(l->name); b != bound_.end()) shadowed = b->second;
            bound_[l->name] = value;
            int64_t result = eval(l->body);
            if (shadowed) bound_[l->name] = *shadowed;
            else bound_.erase(l->name);
            return result;
        }
        if (auto c = e.as<Call>(); c && c->call_type == Call::Intrinsic && !e.type().is_float()) {
            const Type t = e.type();
            auto arg = [&](size_t i) { return eval(c->args[i]); };
            if (c->is_intrinsic(Call::bitwise_and)) return wrap_to_type(t, arg(0) & arg(1));
            if (c->is_intrinsic(Call::bitwise_or)) return wrap_to_type(t, arg(0) | arg(1));
            if (c->is_intrinsic(Call::bitwise_xor)) return wrap_to_type(t, arg(0) ^ arg(1));
            if (c->is_intrinsic(Call::bitwise_not)) return wrap_to_type(t, ~arg(0));
            if (c->is_intrinsic(Call::shift_left) || c->is_intrinsic(Call::shift_right)) {
                int64_t a = arg(0), b = arg(1);
                return shift_value(t, a, b, c->args[1].type().is_int(), c->is_intrinsic(Call::shift_left));
            }
        }
        if (auto c = e.as<Cast>(); c && !c->value.type().is_float() && !c->type.is_float()) {
            return wrap_to_type(c->type, eval(c->value));
        }
        if (auto c = e.as<Cast>(); c && c->value.type().is_float() && !c->type.is_float()) {
            // An index computed in floats (cast<int>(x * 0.5f)): as compiled code converts.
            return saturating_float_to_int(c->type, eval_float(c->value));
        }
        if (auto a = e.as<Add>()) return int_arith(e.type(), IntArith::Add, eval(a->a), eval(a->b));
        if (auto s = e.as<Sub>()) return int_arith(e.type(), IntArith::Sub, eval(s->a), eval(s->b));
        if (auto m = e.as<Mul>()) return int_arith(e.type(), IntArith::Mul, eval(m->a), eval(m->b));
        if (auto d = e.as<Div>()) {
            int64_t a = eval(d->a), b = eval(d->b);
            return wrap_to_type(e.type(), euclidean_div(a, b));
        }
        if (auto m = e.as<Mod>()) {
            int64_t a = eval(m->a), b = eval(m->b);
            return euclidean_mod(a, b);
        }
        if (auto m = e.as<Min>()) return std::min(eval(m->a), eval(m->b));
        if (auto m = e.as<Max>()) return std::max(eval(m->a), eval(m->b));
        if (auto c = e.as<EQ>()) return compare(c->a, c->b, [](auto a, auto b) { return a == b; });
        if (auto c = e.as<NE>()) return compare(c->a, c->b, [](auto a, auto b) { return a != b; });
        if (auto c = e.as<LT>()) return compare(c->a, c->b, [](auto a, auto b) { return a < b; });
        if (auto c = e.as<LE>()) return compare(c->a, c->b, [](auto a, auto b) { return a <= b; });
        if (auto c = e.as<GT>()) return compare(c->a, c->b, [](auto a, auto b) { return a > b; });
        if (auto c = e.as<GE>()) return compare(c->a, c->b, [](auto a, auto b) { return a >= b; });
        if (auto c = e.as<And>()) return eval(c->a) && eval(c->b);
        if (auto c = e.as<Or>()) return eval(c->a) || eval(c->b);
        if (auto n = e.as<Not>()) return !eval(n->a);
        if (auto s = e.as<Select>()) {
            int64_t c = eval(s->condition);
            return c ? eval(s->true_value) : eval(s->false_value);
        }
        if (auto c = e.as<Call>(); c && is_value_hint(*c)) return eval(c->args[0]);
        return fail("");
    }

private:
    const IntEnvironment &env_;
    std::map<std::string, int64_t> bound_;  // the enclosing lets' values

    // A comparison of two integers, or of two floats (as floats: an integer evaluation of a
    // float would truncate it).
    template <typename Op>
    int64_t compare(const Expr &a, const Expr &b, Op op) {
        if (a.type().is_float()) return op(eval_float(a), eval_float(b));
        return op(eval(a), eval(b));
    }

    // A float expression, rounded to its type after every operation as compiled code rounds.
    double eval_float(const Expr &e) {
        if (failed) return 0;
        double r = eval_float_unrounded(e);
        return e.type().bits() == 32 ? double(float(r)) : r;
    }
    double eval_float_unrounded(const Expr &e) {
        Type t = e.type();
        if (auto f = e.as<FloatImm>()) return f->value;
        if (auto c = e.as<Cast>()) {
            if (c->value.type().is_float()) return eval_float(c->value);
            int64_t v = eval(c->value);
            return c->value.type().is_uint() ? double(uint64_t(v)) : double(v);
        }
        if (!t.is_float()) return fail_float();
        if (auto a = e.as<Add>()) return eval_float(a->a) + eval_float(a->b);
        if (auto s = e.as<Sub>()) return eval_float(s->a) - eval_float(s->b);
        if (auto m = e.as<Mul>()) return eval_float(m->a) * eval_float(m->b);
        if (auto d = e.as<Div>()) return eval_float(d->a) / eval_float(d->b);
        // As the generated code computes them: min(a, b) is a < b ? a : b, max(a, b) is
        // a < b ? b : a (std::min and std::max give a, not b, for a NaN).
        if (auto m = e.as<Min>()) {
            double a = eval_float(m->a), b = eval_float(m->b);
            return a < b ? a : b;
        }
        if (auto m = e.as<Max>()) {
            double a = eval_float(m->a), b = eval_float(m->b);
            return a < b ? b : a;
        }
        if (auto s = e.as<Select>()) return eval(s->condition) ? eval_float(s->true_value) : eval_float(s->false_value);
        if (auto c = e.as<Call>(); c && c->args.size() == 1 && c->call_type == Call::Intrinsic) {
            if (is_value_hint(*c)) return eval_float(c->args[0]);
            if (c->is_intrinsic(Call::abs)) return std::fabs(eval_float(c->args[0]));
            double a = eval_float(c->args[0]);
            if (c->name == "floor") return std::floor(a);
            if (c->name == "ceil") return std::ceil(a);
            if (c->name == "trunc") return std::trunc(a);
            if (c->name == "round") return std::nearbyint(a);  // to even, as compiled code rounds
        }
        return fail_float();
    }
    double fail_float() {
        fail("");
        return 0;
    }
    int64_t fail(const std::string &variable) {
        failed = true;
        unknown_variable = variable;
        return 0;
    }
};

}  // namespace

IntEvaluation evaluate_int(const Expr &e, const IntEnvironment &env) {
    IntEvaluator ev(env);
    int64_t v = ev.eval(e);
    IntEvaluation r;
    if (ev.failed) r.unknown_variable = ev.unknown_variable;
    else r.value = v;
    return r;
}

}  // namespace halo
