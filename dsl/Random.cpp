#include "Random.h"

#include <atomic>

#include "Error.h"
#include "IROperator.h"
#include "IRPrinter.h"
#include "IRVisitor.h"
#include "MathFunctions.h"

namespace halo {

namespace {

// Each random_*() call is its own variable.
std::atomic<int64_t> next_call_id{1};

Expr random_call(Type t, Expr seed, const char *fn) {
    if (seed.defined()) {
        user_assert(seed.type().is_scalar() && (seed.type().is_int() || seed.type().is_uint()))
            << fn << "(" << seed << "): the seed must be a scalar integer";
        seed = cast(UInt(32), seed);
    } else {
        seed = make_const(UInt(32), int64_t(0));
    }
    return Call::make(t, Call::random, {seed, make_const(Int(64), next_call_id++)}, Call::Intrinsic);
}

// A 32-bit mix with good avalanche (multiply-xorshift rounds, as in well-known integer hash
// finalizers): every input bit changes about half the output bits.
Expr mix(Expr h) {
    h = h ^ (h >> 16);
    h = h * make_const(UInt(32), int64_t(0x7feb352d));
    h = h ^ (h >> 15);
    h = h * make_const(UInt(32), int64_t(0x846ca68b));
    return h ^ (h >> 16);
}

uint32_t mix_now(uint32_t h) {
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    return h ^ (h >> 16);
}

uint32_t hash_string(const std::string &s) {
    uint32_t h = 2166136261u;  // FNV-1a
    for (unsigned char c : s) h = (h ^ c) * 16777619u;
    return h;
}

}  // namespace

Expr random_float(Expr seed) { return random_call(Float(32), std::move(seed), "random_float"); }
Expr random_uint(Expr seed) { return random_call(UInt(32), std::move(seed), "random_uint"); }
Expr random_int(Expr seed) { return random_call(Int(32), std::move(seed), "random_int"); }

namespace internal {

Expr lower_random(const Expr &e, const std::vector<Expr> &coordinates, const std::string &func, int definition) {
    struct Lower : IRMutator {
        const std::vector<Expr> &coordinates;
        uint32_t tag;
        Lower(const std::vector<Expr> &c, uint32_t t) : coordinates(c), tag(t) {}
        using IRMutator::visit;
        Expr visit(const Call *op) override {
            if (!op->is_intrinsic(Call::random)) return IRMutator::visit(op);
            uint32_t call_tag = mix_now(tag ^ mix_now(uint32_t(*as_const_int(op->args[1]))));
            Expr h = mix(make_const(UInt(32), int64_t(call_tag)) ^ op->args[0]);
            for (const Expr &c : coordinates) h = mix(h ^ cast(UInt(32), c));
            if (op->type == UInt(32)) return h;
            if (op->type == Int(32)) return reinterpret(Int(32), h);
            // The top 24 bits, scaled into [0, 1): exact in a float.
            return cast(Float(32), h >> 8) * make_const(Float(32), 1.0 / 16777216.0);
        }
    } lower(coordinates, mix_now(hash_string(func)) ^ mix_now(uint32_t(definition) + 0x9e3779b9u));
    return lower.mutate(e);
}

}  // namespace internal
}  // namespace halo
