// A direct interpreter of Func definitions: the algorithm run without any schedule. Points of
// a pure definition are computed on demand and memoised. An update runs as its default loop
// nest would: for the values of its pure Vars that a query needs (a "slice"), every iteration
// of its RDom in order (dimension 0 innermost), each reading the Func as the iterations
// before it left it. Updates may only read their own Func at the same pure Var values (as in
// Halide), so slices are independent and can be run one at a time.
#include "ReferenceEvaluator.h"

#include "EuclideanDivision.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <map>

#include "dsl/Arithmetic.h"
#include "dsl/IROperator.h"
#include "dsl/Func.h"
#include "dsl/IRPrinter.h"
#include "Environment.h"
#include "LargeStack.h"
#include "dsl/ExternFunction.h"

namespace halo {

namespace {

struct Value {
    int64_t i = 0;  // integers (uint64 as bit pattern) and bools
    double f = 0;   // floats
};

using Frame = std::map<std::string, Value>;
using Values = std::vector<Value>;  // one per value of a (Tuple-valued) Func
using Point = std::vector<int>;

int64_t wrap(Type t, int64_t v) { return wrap_to_type(t, v); }

// The element of a buffer of type t at coordinates c, as a Value.
Value element_value(const BufferContents &b, Type t, const int *c) {
    Value v;
    if (t.is_float()) {
        v.f = buffer_get_as_double(b, c);
    } else if (t.bits() == 64) {
        std::memcpy(&v.i, b.host + b.offset_of(c) * 8, 8);
    } else {
        v.i = int64_t(buffer_get_as_double(b, c));
    }
    return v;
}

// popcount / count_leading_zeros / count_trailing_zeros of the low `bits` bits of v.
int64_t count_bits(const std::string &which, int bits, uint64_t v) {
    if (bits < 64) v &= (uint64_t(1) << bits) - 1;
    if (which == Call::popcount) return __builtin_popcountll(v);
    if (v == 0) return bits;
    if (which == Call::count_leading_zeros) return __builtin_clzll(v) - (64 - bits);
    return __builtin_ctzll(v);
}
// The bits of v (of type from) read as type to: both have the same bits, floats are 32 or 64.
Value reinterpret_bits(Type from, Type to, Value v) {
    uint64_t bits = 0;
    if (from.is_float() && from.bits() == 32) {
        float f = float(v.f);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        bits = u;
    } else if (from.is_float()) {
        std::memcpy(&bits, &v.f, 8);
    } else {
        bits = uint64_t(v.i);
        if (from.bits() < 64) bits &= (uint64_t(1) << from.bits()) - 1;
    }
    Value r;
    if (to.is_float() && to.bits() == 32) {
        uint32_t u = uint32_t(bits);
        float f;
        std::memcpy(&f, &u, 4);
        r.f = f;
    } else if (to.is_float()) {
        std::memcpy(&r.f, &bits, 8);
    } else {
        r.i = wrap_to_type(to, int64_t(bits));
    }
    return r;
}

double round_float(Type t, double v) { return t.bits() == 32 ? double(float(v)) : v; }

class Evaluator {
public:
    Value eval(const Expr &e, Frame &frame);
    Values func_value(const FunctionContents &f, const Point &p, int stage);
    // specialize_fail: a pipeline with a stage none of whose specializations applies fails
    // before it runs (as compiled code does).
    void check_specializations(const FunctionContents &f, int stage);
    // The output buffer's fields (f.min.0, f.extent.0, ...), which specialization conditions
    // may read.
    Frame globals;
    // The output and its buffers' contents before the call: where its pure definition stores
    // nothing (undef(), Definition::store_condition), its value is what the buffer held.
    const FunctionContents *output = nullptr;
    std::vector<Buffer<>> output_before;

private:
    // The value the output's buffers held at p before the call (zero outside them).
    Values held_by_output(const Point &p) {
        Values v(output_before.size());
        for (size_t i = 0; i < output_before.size(); i++) {
            const Buffer<> &b = output_before[i];
            if (b.contains(p)) v[i] = element_value(*b.contents, b.type(), p.data());
        }
        return v;
    }
    // Values of pure definitions, by (Func, point).
    std::map<const FunctionContents *, std::map<Point, Values>> pure_memo_;
    std::map<const FunctionContents *, std::map<Point, bool>> in_progress_;
    // What one slice of an update wrote: the point -> value after the whole update.
    using Written = std::map<Point, Values>;
    // By (Func, stage) and the slice's pure Var values.
    std::map<std::pair<const FunctionContents *, int>, std::map<Point, Written>> slices_;
    // The update being run, for reads of its own Func inside it.
    struct Running {
        const FunctionContents *f;
        int stage;
        const Written *written;
    };
    std::vector<Running> running_;

    const Written &run_update_slice(const FunctionContents &f, int stage, const Point &slice);

    std::string current_func_;  // the Func whose definition is being evaluated
    // Inside the arm of a select that the condition did not take. Halide's select evaluates
    // both arms, so an int32 overflow there is undefined behaviour too (compiled code computes
    // both: an index that wrapped reads anywhere). That arm is evaluated only to find such
    // overflows: its reads of Funcs and inputs evaluate their coordinates and give 0, and it
    // checks no require().
    int untaken_arms_ = 0;
    // Names f as current_func_ while it lives.
    struct InFunc {
        std::string &current, saved;
        InFunc(std::string &c, const std::string &f) : current(c), saved(c) { current = f; }
        ~InFunc() { current = saved; }
    };

    int64_t checked(Type t, IntArith op, int64_t a, int64_t b) const;
    Value binary(IRNodeType op, Type t, Value a, Value b);
    Value call(const Call *op, Frame &frame);
    Value call_extern_function(const Call *op, Frame &frame);
    std::string requirement_failed_message(const Call *op, Frame &frame);
    Value param_value(const Variable *op);
};

Value Evaluator::param_value(const Variable *op) {
    const ParameterContents &p = *op->param;
    Value v;
    if (p.is_buffer) {
        // name.min.d, name.extent.d or name.stride.d of a bound buffer
        user_assert(p.buffer) << "reference_realize: ImageParam '" << p.name << "' has no Buffer bound";
        std::string rest = op->name.substr(p.name.size() + 1);
        size_t dot = rest.find('.');
        std::string field = rest.substr(0, dot);
        int d = std::stoi(rest.substr(dot + 1));
        const halo_dimension_t &dim = p.buffer->dims.at(d);
        v.i = field == "min" ? dim.min : field == "extent" ? dim.extent : dim.stride;
        return v;
    }
    if (p.type.is_float()) v.f = p.scalar_as_double();
    else v.i = p.scalar_as_int();
    return v;
}

// Integer +, - and *: wraps, except that int32 and int64 overflow is undefined behaviour.
int64_t Evaluator::checked(Type t, IntArith op, int64_t a, int64_t b) const {
    bool overflowed = false;
    int64_t r = int_arith(t, op, a, b, &overflowed);
    if (overflowed) throw UndefinedBehaviorError(signed_overflow_message("Func '" + current_func_ + "'", t, op, a, b));
    return r;
}

Value Evaluator::binary(IRNodeType op, Type t, Value a, Value b) {
    Value r;
    bool fl = t.is_float();
    bool un = t.is_uint();
    auto ucmp = [&](auto cmp) { return cmp(uint64_t(a.i), uint64_t(b.i)); };
    switch (op) {
    case IRNodeType::Add:
        if (fl) r.f = round_float(t, a.f + b.f);
        else r.i = checked(t, IntArith::Add, a.i, b.i);
        break;
    case IRNodeType::Sub:
        if (fl) r.f = round_float(t, a.f - b.f);
        else r.i = checked(t, IntArith::Sub, a.i, b.i);
        break;
    case IRNodeType::Mul:
        if (fl) r.f = round_float(t, a.f * b.f);
        else r.i = checked(t, IntArith::Mul, a.i, b.i);
        break;
    case IRNodeType::Div:
        if (fl) r.f = round_float(t, a.f / b.f);
        else if (un) r.i = b.i == 0 ? 0 : wrap(t, int64_t(uint64_t(a.i) / uint64_t(b.i)));
        else r.i = wrap(t, euclidean_div(a.i, b.i));
        break;
    case IRNodeType::Mod:
        if (fl) {  // each step rounded to the type, as compiled code computes it
            const double q = std::floor(round_float(t, a.f / b.f));
            r.f = round_float(t, a.f - round_float(t, b.f * q));
        }
        else if (un) r.i = b.i == 0 ? 0 : wrap(t, int64_t(uint64_t(a.i) % uint64_t(b.i)));
        else r.i = wrap(t, euclidean_mod(a.i, b.i));
        break;
    case IRNodeType::Min:
        if (fl) r.f = a.f < b.f ? a.f : b.f;
        else r.i = (un ? ucmp(std::less<uint64_t>()) : a.i < b.i) ? a.i : b.i;
        break;
    case IRNodeType::Max:
        if (fl) r.f = a.f < b.f ? b.f : a.f;
        else r.i = (un ? ucmp(std::less<uint64_t>()) : a.i < b.i) ? b.i : a.i;
        break;
    case IRNodeType::EQ: r.i = fl ? a.f == b.f : a.i == b.i; break;
    case IRNodeType::NE: r.i = fl ? a.f != b.f : a.i != b.i; break;
    case IRNodeType::LT: r.i = fl ? a.f < b.f : un ? ucmp(std::less<uint64_t>()) : a.i < b.i; break;
    case IRNodeType::LE: r.i = fl ? a.f <= b.f : un ? ucmp(std::less_equal<uint64_t>()) : a.i <= b.i; break;
    case IRNodeType::GT: r.i = fl ? a.f > b.f : un ? ucmp(std::greater<uint64_t>()) : a.i > b.i; break;
    case IRNodeType::GE: r.i = fl ? a.f >= b.f : un ? ucmp(std::greater_equal<uint64_t>()) : a.i >= b.i; break;
    case IRNodeType::And: r.i = a.i && b.i; break;
    case IRNodeType::Or: r.i = a.i || b.i; break;
    default: internal_error << "reference evaluator: bad binary op";
    }
    return r;
}

// The message of a failed require(), as the runtime's halo_error_requirement_failed makes it.
std::string Evaluator::requirement_failed_message(const Call *op, Frame &frame) {
    std::ostringstream msg;
    msg << "Requirement Failed: (" << op->args[2].as<StringImm>()->value << ")";
    for (size_t i = 4; i < op->args.size(); i++) {
        const Expr &a = op->args[i];
        msg << " ";
        if (auto s = a.as<StringImm>()) {
            msg << s->value;
            continue;
        }
        Value v = eval(a, frame);
        char num[64];
        if (a.type().is_float()) std::snprintf(num, sizeof num, "%f", v.f);
        else if (a.type().is_uint()) std::snprintf(num, sizeof num, "%llu", static_cast<unsigned long long>(v.i));
        else std::snprintf(num, sizeof num, "%lld", static_cast<long long>(v.i));
        msg << num;
    }
    const std::string &func = op->args[3].as<StringImm>()->value;
    if (!func.empty()) msg << " (a require() in Func '" << func << "')";
    return msg.str();
}

Value Evaluator::call_extern_function(const Call *op, Frame &frame) {
    const ExternFunction *fn = find_extern_function(op->name);
    internal_assert(fn) << "reference evaluator: extern function " << op->name << " is not registered";
    std::vector<ExternScalar> args;
    for (auto &a : op->args) {
        Value v = eval(a, frame);
        args.push_back(ExternScalar{v.i, v.f});
    }
    ExternScalar r = fn->invoke(fn->address, args);
    Type t = op->type;
    if (t.is_float()) return Value{0, t.bits() == 32 ? double(float(r.f)) : r.f};
    return Value{t.is_bool() ? int64_t(r.i != 0) : wrap(t, r.i), 0};
}

Value Evaluator::call(const Call *op, Frame &frame) {
    Type t = op->type;
    auto arg = [&](int i) { return eval(op->args[i], frame); };
    // print: the value only (the reference evaluator computes points in its own order, and
    // prints nothing).
    if (op->is_intrinsic(Call::print)) return arg(0);
    if (op->is_intrinsic(Call::print_when)) return arg(1);
    user_assert(!op->is_intrinsic(Call::random))
        << "random_float(), random_uint() or random_int() is used outside a Func's definition and an RDom's "
        << "where(), where it has no point to depend on; compute it in a Func and read that";
    // (The untaken arm of a select is evaluated for its reads, whose bounds a schedule must
    // cover too, but calls no C function of the user's: what it could do there is unseen.)
    if (untaken_arms_ > 0 && (op->call_type == Call::Halo || op->call_type == Call::Image ||
                              op->call_type == Call::ExternC || op->is_intrinsic(Call::require))) {
        for (const Expr &a : op->args) {
            if (!a.as<StringImm>()) eval(a, frame);
        }
        return Value();
    }
    if (op->is_intrinsic(Call::require)) {
        if (!arg(0).i) throw RuntimeError(-13, requirement_failed_message(op, frame));
        return arg(1);
    }
    if (op->call_type == Call::Halo) {
        Point p;
        for (auto &a : op->args) p.push_back(int(eval(a, frame).i));
        // A read of the Func whose update is running sees what the iterations so far left.
        for (auto it = running_.rbegin(); it != running_.rend(); ++it) {
            if (it->f != op->func.get()) continue;
            auto w = it->written->find(p);
            if (w != it->written->end()) return w->second[size_t(op->value_index)];
            return func_value(*op->func, p, it->stage - 1)[size_t(op->value_index)];
        }
        return func_value(*op->func, p, op->func->stages() - 1)[size_t(op->value_index)];
    }
    if (op->call_type == Call::ExternC) return call_extern_function(op, frame);
    if (op->call_type == Call::Image) {
        user_assert(op->param->buffer) << "reference_realize: input '" << op->name << "' has no Buffer bound";
        std::vector<int> c;
        for (auto &a : op->args) c.push_back(int(eval(a, frame).i));
        return element_value(*op->param->buffer, t, c.data());
    }
    const std::string &n = op->name;
    Value r;
    if (is_value_hint(*op) || n == Call::unsafe_promise_clamped) return arg(0);
    if (n == Call::bitwise_and) r.i = arg(0).i & arg(1).i;
    else if (n == Call::bitwise_or) r.i = arg(0).i | arg(1).i;
    else if (n == Call::bitwise_xor) r.i = arg(0).i ^ arg(1).i;
    else if (n == Call::bitwise_not) r.i = ~arg(0).i;
    else if (n == Call::reinterpret) return reinterpret_bits(op->args[0].type(), t, arg(0));
    else if (n == Call::popcount || n == Call::count_leading_zeros || n == Call::count_trailing_zeros) {
        r.i = count_bits(n, t.bits(), uint64_t(arg(0).i));
    }
    else if (n == Call::shift_left || n == Call::shift_right) {
        int64_t a = arg(0).i, b = arg(1).i;
        r.i = shift_value(t, a, b, op->args[1].type().is_int(), n == Call::shift_left);
    } else if (n == Call::abs) {
        Value a = arg(0);
        if (t.is_float()) r.f = std::fabs(a.f);
        else r.i = a.i < 0 && op->args[0].type().is_int() ? int64_t(0 - uint64_t(a.i)) : a.i;  // |MIN| as unsigned
    } else if (n == "is_nan" || n == "is_inf" || n == "is_finite") {
        double x = arg(0).f;
        r.i = n == "is_nan" ? std::isnan(x) : n == "is_inf" ? std::isinf(x) : std::isfinite(x);
    } else {
        double x = arg(0).f;
        if (n == "sqrt") r.f = std::sqrt(x);
        else if (n == "exp") r.f = std::exp(x);
        else if (n == "log") r.f = std::log(x);
        else if (n == "floor") r.f = std::floor(x);
        else if (n == "ceil") r.f = std::ceil(x);
        else if (n == "round") r.f = std::nearbyint(x);
        else if (n == "trunc") r.f = std::trunc(x);
        else if (n == "sin") r.f = std::sin(x);
        else if (n == "cos") r.f = std::cos(x);
        else if (n == "tan") r.f = std::tan(x);
        else if (n == "pow") r.f = std::pow(x, arg(1).f);
        else if (n == "atan2") r.f = std::atan2(x, arg(1).f);
        else if (n == "hypot") r.f = std::hypot(x, arg(1).f);
        else if (n == "asin") r.f = std::asin(x);
        else if (n == "acos") r.f = std::acos(x);
        else if (n == "atan") r.f = std::atan(x);
        else if (n == "sinh") r.f = std::sinh(x);
        else if (n == "cosh") r.f = std::cosh(x);
        else if (n == "tanh") r.f = std::tanh(x);
        else if (n == "asinh") r.f = std::asinh(x);
        else if (n == "acosh") r.f = std::acosh(x);
        else if (n == "atanh") r.f = std::atanh(x);
        else if (n == "erf") r.f = std::erf(x);
        else user_error << "reference evaluator: unsupported call " << n;
        r.f = round_float(t, r.f);
        return r;
    }
    if (!t.is_float()) r.i = wrap(t, r.i);
    return r;
}

Value Evaluator::eval(const Expr &e, Frame &frame) {
    const BaseExprNode *node = e.get();
    Type t = e.type();
    switch (node->node_type) {
    case IRNodeType::IntImm: return Value{e.as<IntImm>()->value, 0};
    case IRNodeType::UIntImm: return Value{int64_t(e.as<UIntImm>()->value), 0};
    case IRNodeType::FloatImm: return Value{0, e.as<FloatImm>()->value};
    case IRNodeType::Variable: {
        const Variable *v = e.as<Variable>();
        auto it = frame.find(v->name);
        if (it != frame.end()) return it->second;
        if (auto g = globals.find(v->name); g != globals.end()) return g->second;
        if (v->param) return param_value(v);
        user_error << "reference evaluator: variable '" << v->name << "' is not bound (an RVar or Var "
                   << "used outside the definition it belongs to?)";
        return Value();
    }
    case IRNodeType::Cast: {
        const Cast *c = e.as<Cast>();
        Value v = eval(c->value, frame);
        Type from = c->value.type();
        Value r;
        if (t.is_float()) r.f = round_float(t, from.is_float() ? v.f : from.is_uint() && from.bits() == 64 ? double(uint64_t(v.i)) : double(v.i));
        else if (from.is_float()) r.i = saturating_float_to_int(t, v.f);
        else r.i = t.is_bool() ? (v.i != 0) : wrap(t, v.i);
        return r;
    }
    case IRNodeType::Not: return Value{!eval(e.as<Not>()->a, frame).i, 0};
    case IRNodeType::Select: {
        const Select *s = e.as<Select>();
        bool condition = eval(s->condition, frame).i != 0;
        Value taken = eval(condition ? s->true_value : s->false_value, frame);
        untaken_arms_++;
        struct Leave {
            int &depth;
            ~Leave() { depth--; }
        } leave{untaken_arms_};
        eval(condition ? s->false_value : s->true_value, frame);
        return taken;
    }
    case IRNodeType::Call: return call(e.as<Call>(), frame);
    case IRNodeType::Let: {
        const Let *l = e.as<Let>();
        Value v = eval(l->value, frame);
        Frame inner = frame;
        inner[l->name] = v;
        return eval(l->body, inner);
    }
    default: break;
    }
#define HALO_BIN(N)                                                                    \
    if (auto b = e.as<N>()) {                                                          \
        Value x = eval(b->a, frame), y = eval(b->b, frame);                            \
        return binary(IRNodeType::N, b->a.type(), x, y);                               \
    }
    HALO_BIN(Add) HALO_BIN(Sub) HALO_BIN(Mul) HALO_BIN(Div) HALO_BIN(Mod) HALO_BIN(Min)
    HALO_BIN(Max) HALO_BIN(EQ) HALO_BIN(NE) HALO_BIN(LT) HALO_BIN(LE) HALO_BIN(GT) HALO_BIN(GE)
    HALO_BIN(And) HALO_BIN(Or)
#undef HALO_BIN
    internal_error << "reference evaluator: unexpected node " << e;
    return Value();
}

namespace {
// The positions of f's pure Vars on the left side of an update.
std::vector<int> pure_positions(const FunctionContents &f, const Definition &def) {
    std::vector<int> r;
    for (size_t i = 0; i < def.args.size(); i++) {
        auto v = def.args[i].as<Variable>();
        if (v && !v->rdom && !v->param && v->name == f.args[i]) r.push_back(int(i));
    }
    return r;
}
}  // namespace

void Evaluator::check_specializations(const FunctionContents &f, int stage) {
    const Definition *def = &f.stage(stage);
    Frame empty;
    while (true) {
        const Definition *taken = nullptr;
        for (const Specialization &sp : def->specializations) {
            if (eval(sp.condition, empty).i != 0) {
                taken = sp.definition.get();
                break;
            }
        }
        if (taken) {
            def = taken;
            continue;
        }
        if (def->fails_unspecialized) {
            throw RuntimeError(-11, describe_stage(f.name, stage) + ": none of its specializations applies to this call, and it "
                                    "was scheduled with specialize_fail(\"" + def->fail_message + "\")");
        }
        return;
    }
}

const Evaluator::Written &Evaluator::run_update_slice(const FunctionContents &f, int stage, const Point &slice) {
    auto &by_slice = slices_[{&f, stage}];
    auto found = by_slice.find(slice);
    if (found != by_slice.end()) return found->second;
    const Definition &def = f.updates[stage - 1];
    std::vector<int> pure = pure_positions(f, def);
    Written written;
    InFunc in_func(current_func_, f.name);
    Frame frame;
    for (size_t i = 0; i < pure.size(); i++) frame[f.args[pure[i]]].i = slice[i];
    running_.push_back({&f, stage, &written});
    struct Pop {
        std::vector<Running> &r;
        ~Pop() { r.pop_back(); }
    } pop{running_};
    auto apply = [&]() {
        if (def.rdom) {
            for (auto &pred : def.rdom->predicates) {
                if (eval(pred, frame).i == 0) return;  // RDom::where: not in the domain
            }
        }
        Point p;
        for (auto &a : def.args) p.push_back(int(eval(a, frame).i));
        // Every value is computed before any is written (a Tuple update reads the old values).
        Values v;
        for (auto &e : def.values) v.push_back(eval(e, frame));
        written[p] = v;
    };
    if (!def.rdom) {
        apply();
    } else {
        const auto &vars = def.rdom->vars;
        std::vector<int64_t> mins, extents;
        Frame empty;
        for (auto &rv : vars) {
            mins.push_back(eval(rv.min, empty).i);
            extents.push_back(eval(rv.extent, empty).i);
        }
        bool nonempty = true;
        for (auto e : extents) nonempty &= e > 0;
        std::vector<int64_t> r = mins;
        while (nonempty) {
            for (size_t d = 0; d < vars.size(); d++) frame[vars[d].name].i = r[d];
            apply();
            size_t d = 0;
            for (; d < vars.size(); d++) {
                if (++r[d] < mins[d] + extents[d]) break;
                r[d] = mins[d];
            }
            if (d == vars.size()) break;
        }
    }
    return by_slice.emplace(slice, std::move(written)).first->second;
}

Values Evaluator::func_value(const FunctionContents &f, const Point &p, int stage) {
    if (stage > 0) {
        const Definition &def = f.updates[stage - 1];
        Point slice;
        for (int i : pure_positions(f, def)) slice.push_back(p[i]);
        const Written &w = run_update_slice(f, stage, slice);
        auto it = w.find(p);
        if (it != w.end()) return it->second;
        return func_value(f, p, stage - 1);
    }
    auto &memo = pure_memo_[&f];
    auto it = memo.find(p);
    if (it != memo.end()) return it->second;
    bool &busy = in_progress_[&f][p];
    user_assert(!busy) << "reference evaluator: Func '" << f.name << "' depends on its own value at the "
                       << "same point (a cyclic definition)";
    busy = true;
    InFunc in_func(current_func_, f.name);
    Frame frame;
    for (size_t i = 0; i < f.args.size(); i++) frame[f.args[i]].i = p[i];
    Values v;
    if (&f == output && f.pure.store_condition.defined() && eval(f.pure.store_condition, frame).i == 0) {
        v = held_by_output(p);
    } else {
        for (auto &e : f.pure.values) v.push_back(eval(e, frame));
    }
    busy = false;
    memo[p] = v;
    return v;
}

}  // namespace

namespace {

void evaluate_into(const Func &f, std::vector<Buffer<>> &dst) {
    Evaluator ev;
    const FunctionContents &fc = *f.function();
    for (int d = 0; d < dst[0].dimensions(); d++) {
        ev.globals[fc.name + ".min." + std::to_string(d)].i = dst[0].dim(d).min();
        ev.globals[fc.name + ".extent." + std::to_string(d)].i = dst[0].dim(d).extent();
        ev.globals[fc.name + ".stride." + std::to_string(d)].i = dst[0].dim(d).stride();
    }
    for (auto &func : pipeline_functions({f.function()})) {
        for (int k = 0; k < func->stages(); k++) ev.check_specializations(*func, k);
    }
    if (fc.pure.store_condition.defined()) {
        ev.output = &fc;
        for (auto &b : dst) ev.output_before.push_back(b.copy());
    }
    dst[0].for_each_element([&](const std::vector<int> &c) {
        Values v = ev.func_value(fc, c, fc.stages() - 1);
        for (size_t i = 0; i < dst.size(); i++) {
            Type t = dst[i].type();
            uint8_t *ptr = dst[i].contents->host + dst[i].contents->offset_of(c.data()) * t.bytes();
            if (t.is_float()) {
                if (t.bits() == 32) { float x = float(v[i].f); std::memcpy(ptr, &x, 4); }
                else std::memcpy(ptr, &v[i].f, 8);
            } else {
                std::memcpy(ptr, &v[i].i, t.bytes());  // little-endian: the low bytes
            }
        }
    });
}

}  // namespace

void reference_realize(const Func &f, Realization &dst) {
    std::vector<Type> types = f.output_types();
    user_assert(dst.size() == types.size())
        << "reference_realize of Func '" << f.name() << "', which has " << types.size() << " values, into "
        << dst.size() << " buffers";
    std::vector<Buffer<>> buffers = dst.buffers();
    for (size_t i = 0; i < buffers.size(); i++) {
        user_assert(buffers[i].defined() && buffers[i].dimensions() == f.dimensions() && buffers[i].type() == types[i])
            << "reference_realize of Func '" << f.name() << "' into a buffer of the wrong shape or type";
        for (int d = 0; d < f.dimensions(); d++) {
            user_assert(buffers[i].dim(d).min() == buffers[0].dim(d).min() &&
                        buffers[i].dim(d).extent() == buffers[0].dim(d).extent())
                << "reference_realize of Func '" << f.name() << "': the buffers of a Realization must cover "
                << "the same region";
        }
    }
    // The evaluator recurses through expressions: on the compiler's large stack.
    run_with_large_stack([&] { evaluate_into(f, buffers); });
}

void reference_realize(const Func &f, Buffer<> &dst) {
    Realization r(dst);
    reference_realize(f, r);
}

Realization reference_realize(const Func &f, const std::vector<int> &sizes) {
    std::vector<Buffer<>> buffers;
    std::vector<Type> types = f.output_types();
    for (size_t i = 0; i < types.size(); i++) {
        buffers.emplace_back(types[i], sizes, f.name() + "_reference" + (types.size() > 1 ? "_" + std::to_string(i) : ""));
    }
    Realization r(buffers);
    reference_realize(f, r);
    return r;
}

}  // namespace halo
