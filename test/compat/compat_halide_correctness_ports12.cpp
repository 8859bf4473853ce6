// A twelfth batch of ports of programs from Halide's test/correctness directory (one TEST_CASE
// per program, or per part of one, each naming the Halide test it follows): bits_known,
// associativity, thread_safety, hoist_storage, vectorized_assert, bound_allocation,
// inlined_generator, auto_schedule_no_parallel, auto_schedule_no_reorder,
// bitcast_vector_load_into_scalar and extract_concat_bits.
// The behaviour is rewritten, not copied: every result is compared point by point against
// plain C++ loops written here.
// Changed or not ported:
// - bits_known asks the simplifier (can_prove / is_const of simplify) about bitwise Exprs of
//   Params; Halo has no such API, so the port realizes every Expr for many values of the Params
//   (edge values and pseudo-random ones) and compares with a C++ evaluation of the same Expr.
//   Halide's 0x80000000 and ~0x80000000 literals are written as typed constants.
// - associativity checks Halide's internal prove_associativity on hand-built IR; the port writes
//   each of its updates as a real reduction and rfactors it (the outer part of a split RDom,
//   the intermediate parallel, and the inner part, the intermediate vectorized), which needs
//   Halo to find the same associative operator; the non-associative update must be refused by
//   rfactor. Halide's saturating_add / widening_add are written with casts (Halo has neither).
//   An argmin is not commutative (between equal values the last point wins), so rfactor of the
//   inner part of its RDom must be refused there (Halide's table calls it commutative and would
//   reorder the ties); the outer part and every loop at once rfactor.
// - thread_safety builds and realizes 1000 pipelines on 1000 threads; the port runs 32 threads,
//   each with its own Func and schedule, and checks every value; a second case (not in Halide's
//   program) realizes one compiled pipeline on 16 threads at once, each with its own ParamMap.
// - hoist_storage counts mallocs through custom_malloc; Halo has neither Func::hoist_storage nor
//   custom allocators, so hoist_storage(g, level) is written store_at(g, level) (store_root()
//   for Var::outermost()), store_in(MemoryType::Heap) is kept, and the values are checked.
// - vectorized_assert counts errors through a custom error handler; the port catches the
//   RuntimeError and checks its message (and, in a case of its own, the values without the
//   bound, for more p and sizes).
// - bound_allocation inspects Allocate nodes through a custom lowering pass; Halo has no
//   Func::bound_allocation, so the three pipelines are realized and checked without it.
// - inlined_generator uses GeneratorContext::apply / create; Halo builds a Generator with
//   GeneratorBase::build after setting its GeneratorParams and Inputs, and natural_vector_size
//   comes from get_jit_target_from_environment().
// - bitcast_vector_load_into_scalar reinterprets a Shuffle::make_concat of 2 to 8 narrow loads
//   as one uint64 (Halo has no Shuffle, and its reinterpret keeps the lane count); the port
//   builds the same uint64 with casts, shifts and ors, scalar and vectorized, both chunk orders.
// - extract_concat_bits counts extract_bits / concat_bits / reinterpret nodes with a custom
//   lowering pass; Halo has none of these intrinsics (nor the pass), so each is written with the
//   shifts, masks and casts Halide defines it by, and the values are checked.
// - auto_schedule_no_parallel / auto_schedule_no_reorder expect Halide's Mullapudi2016
//   autoscheduler to refuse a pipeline already partly scheduled; Halo's auto_schedule adds to
//   what is there, so the port accepts a CompileError or a pipeline that computes the right
//   values, but not wrong values or a crash.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "CompatUtil.h"
#include "dsl/Halo.h"

namespace Halide = halo;

using namespace Halide;
using halo_compat::contains;
using halo_compat::hash32;
using halo_compat::mismatches;
using halo_compat::thrown_message;

namespace {

int64_t emod(int64_t a, int64_t b) {  // Halide's % for a positive divisor
    int64_t r = a % b;
    return r < 0 ? r + b : r;
}

// ---------------------------------------------------------------------------------------------
// bits_known

struct BitsValues {
    int64_t i64;
    int32_t i32;
    uint64_t u64;
    uint32_t u32;
    uint16_t u16;
    uint8_t u8;
};

struct BitsParams {
    Param<int64_t> i64{"i64"};
    Param<int32_t> i32{"i32"};
    Param<uint64_t> u64{"u64"};
    Param<uint32_t> u32{"u32"};
    Param<uint16_t> u16{"u16"};
    Param<uint8_t> u8{"u8"};
    void set(const BitsValues &v) {
        i64.set(v.i64);
        i32.set(v.i32);
        u64.set(v.u64);
        u32.set(v.u32);
        u16.set(v.u16);
        u8.set(v.u8);
    }
};

struct BitsCase {
    const char *text;
    Expr e;
    std::function<bool(const BitsValues &)> ref;
};

std::vector<BitsValues> bits_values() {
    std::vector<BitsValues> vs;
    const int64_t edges64[] = {0, 1, -1, 2, 3, -2, 15, 16, 17, -16, 255, 256, 1000, 0xffff, 0x10000,
                               INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN};
    for (int64_t e : edges64) {
        vs.push_back({e, int32_t(e), uint64_t(e), uint32_t(e), uint16_t(e), uint8_t(e)});
    }
    for (uint32_t i = 0; i < 120; i++) {
        uint64_t a = (uint64_t(hash32(4 * i)) << 32) | hash32(4 * i + 1);
        uint32_t b = hash32(4 * i + 2), c = hash32(4 * i + 3);
        // Small values often, so that the low bits and the clamps are exercised too.
        if (i % 3 == 0) b &= 0x3f;
        if (i % 4 == 1) c &= 0x7;
        vs.push_back({int64_t(a), int32_t(b), a ^ c, b ^ (c << 7), uint16_t(c >> 3), uint8_t(c)});
    }
    return vs;
}

void check_bits_cases(BitsParams &p, const std::vector<BitsCase> &cases, bool must_hold) {
    const std::vector<BitsValues> vs = bits_values();
    Var x;
    for (const BitsCase &c : cases) {
        CAPTURE(c.text);
        Func f;
        f(x) = c.e;
        int bad = 0, held = 0;
        for (const BitsValues &v : vs) {
            bool want = c.ref(v);
            held += want;
            p.set(v);
            Buffer<bool> out = f.realize({1});
            if (out(0) != want) {
                if (bad == 0)
                    MESSAGE("i64=" << v.i64 << " i32=" << v.i32 << " u64=" << v.u64 << " u32=" << v.u32
                                   << " u16=" << v.u16 << " u8=" << +v.u8 << ": got " << out(0) << ", expected "
                                   << want);
                bad++;
            }
        }
        CHECK(bad == 0);
        if (must_hold) CHECK(held == int(vs.size()));  // the C++ side agrees it is always true
        else CHECK((held > 0 && held < int(vs.size())));  // and that these really vary
    }
}

}  // namespace

TEST_CASE("bits_known: Exprs provable from their known bits are true for every value") {
    BitsParams p;
    Expr i64 = p.i64, i32 = p.i32, u64 = p.u64, u32 = p.u32, u16 = p.u16, u8 = p.u8;
    const Expr top_bit = Expr(int32_t(INT32_MIN));
    const Expr low_31 = cast<uint32_t>(Expr(0x7fffffff));
    std::vector<BitsCase> cases = {
        {"(i64 & 1) < 2", (i64 & 1) < 2, [](const BitsValues &v) { return (v.i64 & 1) < 2; }},
        {"(i64 & 1) >= 0", (i64 & 1) >= 0, [](const BitsValues &v) { return (v.i64 & 1) >= 0; }},
        {"(i64 | 1) % 2 == 1", (i64 | 1) % 2 == 1, [](const BitsValues &v) { return emod(v.i64 | 1, 2) == 1; }},
        {"(i64 & 2) <= 2", (i64 & 2) <= 2, [](const BitsValues &v) { return (v.i64 & 2) <= 2; }},
        {"(i64 & 2) >= 0", (i64 & 2) >= 0, [](const BitsValues &v) { return (v.i64 & 2) >= 0; }},
        {"(min(i32, -1) ^ (i32 & 255)) < 0", (min(i32, -1) ^ (i32 & 255)) < 0,
         [](const BitsValues &v) { return (std::min(v.i32, -1) ^ (v.i32 & 255)) < 0; }},
        {"(u64 & 1) < 2", (u64 & 1) < 2, [](const BitsValues &v) { return (v.u64 & 1) < 2; }},
        {"(u64 | 1) % 2 == 1", (u64 | 1) % 2 == 1, [](const BitsValues &v) { return (v.u64 | 1) % 2 == 1; }},
        {"(u64 & 2) <= 2", (u64 & 2) <= 2, [](const BitsValues &v) { return (v.u64 & 2) <= 2; }},
        {"((i32 & ~15) & 15) == 0", ((i32 & ~15) & 15) == 0,
         [](const BitsValues &v) { return ((v.i32 & ~15) & 15) == 0; }},
        {"((i32 & ~15) % 16) == 0", ((i32 & ~15) % 16) == 0,
         [](const BitsValues &v) { return emod(v.i32 & ~15, 16) == 0; }},
        {"((i32 & int32(u16 << 2)) | 5) % 8 == 5", ((i32 & cast<int32_t>(u16 << 2)) | 5) % 8 == 5,
         [](const BitsValues &v) { return emod((v.i32 & int32_t(uint16_t(v.u16 << 2))) | 5, 8) == 5; }},
        {"(i32 | top bit) < 0", (i32 | top_bit) < 0,
         [](const BitsValues &v) { return (v.i32 | INT32_MIN) < 0; }},
        {"int32(u32 & 0x7fffffff) >= 0", cast<int32_t>(u32 & low_31) >= 0,
         [](const BitsValues &v) { return int32_t(v.u32 & 0x7fffffffu) >= 0; }},
        {"(uint32(u16) & (uint32(u16) << 16)) == 0", (cast<uint32_t>(u16) & (cast<uint32_t>(u16) << 16)) == 0,
         [](const BitsValues &v) { return (uint32_t(v.u16) & (uint32_t(v.u16) << 16)) == 0; }},
        {"(i32 & int32(u16)) >= 0", (i32 & cast<int32_t>(u16)) >= 0,
         [](const BitsValues &v) { return (v.i32 & int32_t(v.u16)) >= 0; }},
        {"(i32 & int32(u16)) < 0x10000", (i32 & cast<int32_t>(u16)) < 0x10000,
         [](const BitsValues &v) { return (v.i32 & int32_t(v.u16)) < 0x10000; }},
        {"~clamp(u8, 3, 5) >= 250", (~clamp(u8, 3, 5)) >= 255 - 5,
         [](const BitsValues &v) { return uint8_t(~std::clamp<uint8_t>(v.u8, 3, 5)) >= 250; }},
        {"~clamp(u8, 3, 5) <= 252", (~clamp(u8, 3, 5)) <= 255 - 3,
         [](const BitsValues &v) { return uint8_t(~std::clamp<uint8_t>(v.u8, 3, 5)) <= 252; }},
        {"(~(i32 * 16)) % 16 == 15", (~(i32 * 16)) % 16 == 15,
         [](const BitsValues &v) { return emod(~int32_t(uint32_t(v.i32) * 16u), 16) == 15; }},
    };
    check_bits_cases(p, cases, true);
}

TEST_CASE("bits_known: Exprs that the known bits do not decide take both values") {
    BitsParams p;
    Expr i64 = p.i64, i32 = p.i32, u64 = p.u64, u32 = p.u32, u16 = p.u16, u8 = p.u8;
    const Expr top_bit = Expr(int32_t(INT32_MIN));
    const Expr low_31 = cast<uint32_t>(Expr(0x7fffffff));
    std::vector<BitsCase> cases = {
        {"(i64 & 3) < 2", (i64 & 3) < 2, [](const BitsValues &v) { return (v.i64 & 3) < 2; }},
        {"(i64 & 3) >= 1", (i64 & 3) >= 1, [](const BitsValues &v) { return (v.i64 & 3) >= 1; }},
        {"(i64 | 1) % 4 == 1", (i64 | 1) % 4 == 1, [](const BitsValues &v) { return emod(v.i64 | 1, 4) == 1; }},
        {"(i64 & 3) <= 2", (i64 & 3) <= 2, [](const BitsValues &v) { return (v.i64 & 3) <= 2; }},
        {"(max(u32, 1000) ^ (u64 & 255)) >= 1000", (max(u32, 1000) ^ (u64 & 255)) >= 1000,
         [](const BitsValues &v) { return (uint64_t(std::max<uint32_t>(v.u32, 1000)) ^ (v.u64 & 255)) >= 1000; }},
        {"(u64 & 3) < 2", (u64 & 3) < 2, [](const BitsValues &v) { return (v.u64 & 3) < 2; }},
        {"(u64 | 1) % 4 == 1", (u64 | 1) % 4 == 1, [](const BitsValues &v) { return (v.u64 | 1) % 4 == 1; }},
        {"(u64 & 2) >= 1", (u64 & 2) >= 1, [](const BitsValues &v) { return (v.u64 & 2) >= 1; }},
        {"((i32 & ~15) & 31) == 0", ((i32 & ~15) & 31) == 0,
         [](const BitsValues &v) { return ((v.i32 & ~15) & 31) == 0; }},
        {"((i32 & ~15) % 32) == 0", ((i32 & ~15) % 32) == 0,
         [](const BitsValues &v) { return emod(v.i32 & ~15, 32) == 0; }},
        {"((i32 & int32(u16 << 1)) | 5) % 8 == 5", ((i32 & cast<int32_t>(u16 << 1)) | 5) % 8 == 5,
         [](const BitsValues &v) { return emod((v.i32 & int32_t(uint16_t(v.u16 << 1))) | 5, 8) == 5; }},
        {"(i32 | top bit) < -1", (i32 | top_bit) < -1,
         [](const BitsValues &v) { return (v.i32 | INT32_MIN) < -1; }},
        {"int16(u32 & 0x7fffffff) >= 0", cast<int16_t>(u32 & low_31) >= 0,
         [](const BitsValues &v) { return int16_t(uint16_t(v.u32 & 0x7fffffffu)) >= 0; }},
        {"(uint32(u16) & (uint32(u16) << 15)) == 0", (cast<uint32_t>(u16) & (cast<uint32_t>(u16) << 15)) == 0,
         [](const BitsValues &v) { return (uint32_t(v.u16) & (uint32_t(v.u16) << 15)) == 0; }},
        {"(i32 & int32(u16)) >= 1", (i32 & cast<int32_t>(u16)) >= 1,
         [](const BitsValues &v) { return (v.i32 & int32_t(v.u16)) >= 1; }},
        {"(i32 & int32(u16)) < 0xffff", (i32 & cast<int32_t>(u16)) < 0xffff,
         [](const BitsValues &v) { return (v.i32 & int32_t(v.u16)) < 0xffff; }},
        {"~clamp(u8, 3, 5) >= 251", (~clamp(u8, 3, 5)) >= 255 - 4,
         [](const BitsValues &v) { return uint8_t(~std::clamp<uint8_t>(v.u8, 3, 5)) >= 251; }},
    };
    check_bits_cases(p, cases, false);
}

// ---------------------------------------------------------------------------------------------
// associativity

namespace {

const int kAssocN = 37;  // the RDom's extent: neither the split factor nor the vector divides it
const int kAssocW = 5;   // f's extent

// The three ways each reduction is realized: as written; the RDom split by 4 with the outer part
// rfactored (the intermediate's update parallel over it); the inner part rfactored (vectorized).
void rfactor_schedule(Func f, const RVar &r, int variant) {
    if (variant == 0) return;
    RVar ro("ro"), ri("ri");
    Var u("u");
    f.update().split(r, ro, ri, 4);
    if (variant == 1) {
        Func intm = f.update().rfactor(ro, u);
        intm.compute_root().update().parallel(u);
    } else {
        Func intm = f.update().rfactor(ri, u);
        intm.compute_root().update().vectorize(u);
    }
}

// Input values in [lo, lo + span) at (r, x).
template <typename T>
Buffer<T> assoc_input(uint32_t seed, int lo, int span, int w = kAssocN, int h = kAssocW) {
    Buffer<T> b(w, h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) b(x, y) = T(lo + int(hash32(seed * 7919u + uint32_t(y * w + x)) % uint32_t(span)));
    return b;
}

// A permutation of distinct values (argmin ties would depend on the order of the merge).
Buffer<int> assoc_distinct(uint32_t seed) {
    Buffer<int> b(kAssocN, kAssocW);
    for (int y = 0; y < kAssocW; y++) {
        std::vector<int> v(kAssocN);
        for (int i = 0; i < kAssocN; i++) v[i] = i * 3 - 50;
        for (int i = kAssocN - 1; i > 0; i--) std::swap(v[i], v[hash32(seed + uint32_t(y * 131 + i)) % uint32_t(i + 1)]);
        for (int i = 0; i < kAssocN; i++) b(i, y) = v[i];
    }
    return b;
}

uint32_t wrap_mul32(uint32_t a, uint32_t b) { return a * b; }

}  // namespace

TEST_CASE("associativity: four spellings of a saturating uint8 add rfactor") {
    Buffer<uint8_t> in = assoc_input<uint8_t>(1, 0, 23);
    for (int spelling = 0; spelling < 4; spelling++) {
        for (int variant = 0; variant < 3; variant++) {
            CAPTURE(spelling);
            CAPTURE(variant);
            Var x("x");
            RDom r(0, kAssocN);
            Func f("f");
            f(x) = cast<uint8_t>(x * 40);
            Expr a = f(x), b = in(r, x);
            Expr e;
            if (spelling == 0) e = cast<uint8_t>(min(cast<uint16_t>(a) + b, 255));
            else if (spelling == 1) e = select(a > 255 - b, cast<uint8_t>(255), a + b);
            else if (spelling == 2) e = select(a < ~b, a + b, cast<uint8_t>(255));
            else e = saturating_cast<uint8_t>(cast<uint16_t>(a) + cast<uint16_t>(b));
            f(x) = e;
            std::string err = thrown_message([&] { rfactor_schedule(f, r.x, variant); });
            CHECK(err == "");
            if (!err.empty()) {
                MESSAGE(err);
                continue;
            }
            Buffer<uint8_t> out = f.realize({kAssocW});
            CHECK(mismatches<uint8_t>(out, [&](const std::vector<int> &p) {
                      int acc = uint8_t(p[0] * 40);
                      for (int i = 0; i < kAssocN; i++) acc = std::min(acc + in(i, p[0]), 255);
                      return uint8_t(acc);
                  }) == 0);
        }
    }
}

TEST_CASE("associativity: logical and and or reductions rfactor") {
    Buffer<int> in = assoc_input<int>(2, 0, 9);
    for (int op = 0; op < 2; op++) {
        for (int variant = 0; variant < 3; variant++) {
            CAPTURE(op);
            CAPTURE(variant);
            Var x("x");
            RDom r(0, kAssocN);
            Func f("f");
            // Rows 0 and 1 hold the identity throughout; the others decide at some r.
            Expr y = op == 0 ? (in(r, x) != 0 || x < 2) : (in(r, x) == 0 && x >= 2);
            f(x) = op == 0 ? (x != 4) : (x == 3);
            f(x) = op == 0 ? (y && f(x)) : (y || f(x));
            std::string err = thrown_message([&] { rfactor_schedule(f, r.x, variant); });
            CHECK(err == "");
            if (!err.empty()) {
                MESSAGE(err);
                continue;
            }
            Buffer<bool> out = f.realize({kAssocW});
            CHECK(mismatches<bool>(out, [&](const std::vector<int> &p) {
                      int xx = p[0];
                      bool acc = op == 0 ? (xx != 4) : (xx == 3);
                      for (int i = 0; i < kAssocN; i++) {
                          bool yy = op == 0 ? (in(i, xx) != 0 || xx < 2) : (in(i, xx) == 0 && xx >= 2);
                          acc = op == 0 ? (yy && acc) : (yy || acc);
                      }
                      return acc;
                  }) == 0);
        }
    }
}

namespace {

// Each update as a function of (f(x), r, x); the reference as the same in C++.
struct Int32Case {
    const char *text;
    std::function<Expr(Expr, Expr, Expr)> update;
    std::function<int32_t(int32_t, int, int)> ref;
};

void run_int32_cases(const std::vector<Int32Case> &cases) {
    for (const Int32Case &c : cases) {
        for (int variant = 0; variant < 3; variant++) {
            CAPTURE(std::string(c.text));
            CAPTURE(variant);
            Var x("x");
            RDom r(0, kAssocN);
            Func f("f");
            f(x) = x * 11 - 20;
            f(x) = c.update(f(x), r.x, x);
            std::string err = thrown_message([&] { rfactor_schedule(f, r.x, variant); });
            CHECK(err == "");
            if (!err.empty()) {
                MESSAGE(err);
                continue;
            }
            Buffer<int> out = f.realize({kAssocW});
            CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
                      int32_t acc = p[0] * 11 - 20;
                      for (int i = 0; i < kAssocN; i++) acc = c.ref(acc, i, p[0]);
                      return acc;
                  }) == 0);
        }
    }
}

}  // namespace

TEST_CASE("associativity: single-valued int32 updates rfactor") {
    Buffer<int> g = assoc_input<int>(3, -100, 200);
    Buffer<int> h = assoc_input<int>(4, 0, 200000);
    Func x0("x0");
    {
        Var a, b;
        x0(a, b) = a * 7 - b * 13;
    }
    run_int32_cases({
        {"min(f, g + int16(h))",
         [&](Expr f, Expr r, Expr x) { return min(f, g(r, x) + cast<int16_t>(h(r, x))); },
         [&](int32_t f, int r, int x) { return std::min(f, g(r, x) + int32_t(int16_t(h(r, x)))); }},
        {"g + h + f", [&](Expr f, Expr r, Expr x) { return g(r, x) + h(r, x) + f; },
         [&](int32_t f, int r, int x) { return g(r, x) + h(r, x) + f; }},
        {"max(g, f)", [&](Expr f, Expr r, Expr x) { return max(g(r, x), f); },
         [&](int32_t f, int r, int x) { return std::max(g(r, x), f); }},
        {"max(x0, f) with a Func named x0", [&](Expr f, Expr r, Expr x) { return max(x0(r, x), f); },
         [&](int32_t f, int r, int x) { return std::max(r * 7 - x * 13, f); }},
    });
}

TEST_CASE("associativity: updates that simplify to a sum or a max rfactor") {
    Buffer<int> g = assoc_input<int>(3, -100, 200);
    run_int32_cases({
        {"max(f + g, f - 3)", [&](Expr f, Expr r, Expr x) { return max(f + g(r, x), f - 3); },
         [&](int32_t f, int r, int x) { return std::max(f + g(r, x), f - 3); }},
        {"max(max(min(f, g + 2), f), g + 2)",
         [&](Expr f, Expr r, Expr x) { return max(max(min(f, g(r, x) + 2), f), g(r, x) + 2); },
         [&](int32_t f, int r, int x) { return std::max(std::max(std::min(f, g(r, x) + 2), f), g(r, x) + 2); }},
    });
}

// The comment of Halide's third case, f(x) = f(x) + g(rx) + y + z: written left to right, the
// update is ((f + g) + y) + z, which Halide's prover reassociates.
TEST_CASE("associativity: a sum and a product written left to right rfactor") {
    Buffer<int> g = assoc_input<int>(3, -100, 200);
    run_int32_cases({
        {"f + g + 2", [&](Expr f, Expr r, Expr x) { return f + g(r, x) + 2; },
         [&](int32_t f, int r, int x) { return f + g(r, x) + 2; }},
        {"f * g * 2", [&](Expr f, Expr r, Expr x) { return f * g(r, x) * 2; },
         [&](int32_t f, int r, int x) { return int32_t(uint32_t(f) * uint32_t(g(r, x)) * 2u); }},
    });
}

TEST_CASE("associativity: max of f plus g and g is not associative, rfactor refuses it") {
    Buffer<int> g = assoc_input<int>(5, -100, 200);
    Var x("x"), u("u");
    RDom r(0, kAssocN);
    Func f("f");
    f(x) = 0;
    f(x) = max(f(x) + g(r, x), g(r, x));
    std::string err = thrown_message([&] { f.update().rfactor(r.x, u); });
    CHECK(err != "");
    // As written (no rfactor) it is an ordinary serial reduction.
    Func f2("f2");
    f2(x) = 0;
    f2(x) = max(f2(x) + g(r, x), g(r, x));
    Buffer<int> out = f2.realize({kAssocW});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &p) {
              int acc = 0;
              for (int i = 0; i < kAssocN; i++) acc = std::max(acc + g(i, p[0]), g(i, p[0]));
              return acc;
          }) == 0);
}

namespace {

void run_tuple_form(int form) {
    Buffer<int> g = assoc_input<int>(6, -9, 19);
    Buffer<int> g1 = assoc_input<int>(7, -9, 19);
    Buffer<int> z = assoc_input<int>(8, -50, 100);
    for (int variant = 0; variant < 3; variant++) {
        CAPTURE(form);
        CAPTURE(variant);
        Var x("x");
        RDom r(0, kAssocN);
        Func f("f");
        if (form == 0) {
            // Tuple(f[0], f[1] + z): the first element is left alone.
            f(x) = Tuple(x + 1, x * 2);
            f(x) = Tuple(f(x)[0], f(x)[1] + z(r, x));
        } else if (form == 1) {
            // Tuple(min(f[0], g), f[1] * g * 2, f[2] + float(z))
            f(x) = Tuple(x * 5, x + 1, cast<float>(x));
            f(x) = Tuple(min(f(x)[0], g(r, x)), f(x)[1] * g(r, x) * 2, f(x)[2] + cast<float>(z(r, x)));
        } else {
            // complex multiplication
            f(x) = Tuple(x + 1, 1 - x);
            f(x) = Tuple(f(x)[0] * g(r, x) - f(x)[1] * g1(r, x), f(x)[0] * g1(r, x) + f(x)[1] * g(r, x));
        }
        std::string err = thrown_message([&] { rfactor_schedule(f, r.x, variant); });
        CHECK(err == "");
        if (!err.empty()) {
            MESSAGE(err);
            continue;
        }
        Realization out = f.realize({kAssocW});
        // The products wrap: compare modulo 2^32, where any association gives the same.
        for (int xx = 0; xx < kAssocW; xx++) {
            if (form == 0) {
                int a = xx + 1, b = xx * 2;
                for (int i = 0; i < kAssocN; i++) b += z(i, xx);
                CHECK(Buffer<int>(out[0])(xx) == a);
                CHECK(Buffer<int>(out[1])(xx) == b);
            } else if (form == 1) {
                int a = xx * 5;
                uint32_t b = uint32_t(xx + 1);
                float c = float(xx);
                for (int i = 0; i < kAssocN; i++) {
                    a = std::min(a, g(i, xx));
                    b = wrap_mul32(wrap_mul32(b, uint32_t(g(i, xx))), 2u);
                    c += float(z(i, xx));
                }
                CHECK(Buffer<int>(out[0])(xx) == a);
                CHECK(uint32_t(Buffer<int>(out[1])(xx)) == b);
                CHECK(Buffer<float>(out[2])(xx) == c);
            } else {
                uint32_t re = uint32_t(xx + 1), im = uint32_t(1 - xx);
                for (int i = 0; i < kAssocN; i++) {
                    uint32_t gr = uint32_t(g(i, xx)), gi = uint32_t(g1(i, xx));
                    uint32_t nre = re * gr - im * gi, nim = re * gi + im * gr;
                    re = nre;
                    im = nim;
                }
                CHECK(uint32_t(Buffer<int>(out[0])(xx)) == re);
                CHECK(uint32_t(Buffer<int>(out[1])(xx)) == im);
            }
        }
    }
}

}  // namespace

TEST_CASE("associativity: a complex multiplication Tuple rfactors") { run_tuple_form(2); }

TEST_CASE("associativity: a Tuple with one element left alone rfactors") { run_tuple_form(0); }

TEST_CASE("associativity: a Tuple of min, product and float sum rfactors") { run_tuple_form(1); }

TEST_CASE("associativity: a 1D argmin Tuple rfactors") {
    Buffer<int> g = assoc_distinct(9);
    for (int variant = 0; variant < 3; variant++) {
        CAPTURE(variant);
        Var x("x");
        RDom r(0, kAssocN);
        Func f("f");
        f(x) = Tuple(std::numeric_limits<int32_t>::max(), -1);
        f(x) = Tuple(min(f(x)[0], g(r, x)), select(f(x)[0] < g(r, x), f(x)[1], r.x));
        std::string err = thrown_message([&] { rfactor_schedule(f, r.x, variant); });
        if (variant == 2) {
            // The intermediate would visit the points in another order.
            CHECK(err.find("rfactor(ri, u): the update is an argmin or argmax") != std::string::npos);
            CHECK(err.find("rfactor 'ro' too, or an outer loop instead") != std::string::npos);
            continue;
        }
        CHECK(err == "");
        if (!err.empty()) {
            MESSAGE(err);
            continue;
        }
        Realization out = f.realize({kAssocW});
        for (int xx = 0; xx < kAssocW; xx++) {
            int m = std::numeric_limits<int32_t>::max(), at = -1;
            for (int i = 0; i < kAssocN; i++)
                if (!(m < g(i, xx))) m = g(i, xx), at = i;
            CHECK(Buffer<int>(out[0])(xx) == m);
            CHECK(Buffer<int>(out[1])(xx) == at);
        }
    }
}

TEST_CASE("associativity: a 2D argmin plus a sum of rx, four types, rfactors") {
    const int RW = 12, RH = 15, W = 3, H = 2;
    // Distinct uint8 values over the whole RDom for each (x, y).
    Buffer<uint8_t> g(RW, RH, W * H);
    for (int k = 0; k < W * H; k++) {
        std::vector<int> v(256);
        for (int i = 0; i < 256; i++) v[i] = i;
        for (int i = 255; i > 0; i--) std::swap(v[i], v[hash32(uint32_t(k * 1000 + i)) % uint32_t(i + 1)]);
        for (int j = 0; j < RH; j++)
            for (int i = 0; i < RW; i++) g(i, j, k) = uint8_t(v[j * RW + i]);
    }
    for (int variant = 0; variant < 4; variant++) {
        CAPTURE(variant);
        Var x("x"), y("y"), u("u"), v("v");
        RDom r(0, RW, 0, RH);
        Func f("f");
        f(x, y) = Tuple(cast<uint8_t>(255), 0, cast<int16_t>(0), 0.0f);
        Expr gv = g(r.x, r.y, x + y * W);
        Expr less = f(x, y)[0] < gv;
        f(x, y) = Tuple(min(f(x, y)[0], gv), f(x, y)[1] + r.x, select(less, f(x, y)[2], cast<int16_t>(r.x)),
                        select(less, f(x, y)[3], cast<float>(r.y)));
        std::string err = thrown_message([&] {
            if (variant == 1) {
                Func intm = f.update().rfactor(r.y, v);
                intm.compute_root().update().parallel(v);
            } else if (variant == 2) {
                Func intm = f.update().rfactor({{r.x, u}, {r.y, v}});
                intm.compute_root().update().vectorize(u, 4);
            } else if (variant == 3) {
                rfactor_schedule(f, r.x, 2);
            }
        });
        if (variant == 3) {
            // Not the inner part of r.x alone: its outer part and r.y are outside it.
            CHECK(err.find("the update is an argmin or argmax") != std::string::npos);
            continue;
        }
        CHECK(err == "");
        if (!err.empty()) {
            MESSAGE(err);
            continue;
        }
        Realization out = f.realize({W, H});
        for (int yy = 0; yy < H; yy++) {
            for (int xx = 0; xx < W; xx++) {
                int m = 255, sum = 0, ax = 0;
                float ay = 0;
                for (int j = 0; j < RH; j++) {
                    for (int i = 0; i < RW; i++) {
                        int gv2 = g(i, j, xx + yy * W);
                        bool l = m < gv2;
                        m = std::min(m, gv2);
                        sum += i;
                        if (!l) ax = i, ay = float(j);
                    }
                }
                CAPTURE(xx);
                CAPTURE(yy);
                CHECK(int(Buffer<uint8_t>(out[0])(xx, yy)) == m);
                CHECK(Buffer<int>(out[1])(xx, yy) == sum);
                CHECK(int(Buffer<int16_t>(out[2])(xx, yy)) == ax);
                CHECK(Buffer<float>(out[3])(xx, yy) == ay);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// thread_safety

TEST_CASE("thread_safety: pipelines built and realized on many threads at once") {
    const int kThreads = 32;
    std::vector<int> bad(kThreads, -1);
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([t, &bad, &errors] {
            try {
                Func f, g;
                Var x, xo, xi;
                f(x) = x * (t + 1) + t;
                g(x) = f(x) + f(x + 1);
                if (t % 4 == 1) g.vectorize(x, 8);
                if (t % 4 == 2) g.split(x, xo, xi, 16).parallel(xo);
                if (t % 4 == 3) f.compute_at(g, x);
                Buffer<int> out = g.realize({100 + t});
                int b = 0;
                for (int i = 0; i < out.width(); i++)
                    if (out(i) != (i * (t + 1) + t) + ((i + 1) * (t + 1) + t)) b++;
                bad[t] = b;
            } catch (const std::exception &e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto &th : threads) th.join();
    for (int t = 0; t < kThreads; t++) {
        CAPTURE(t);
        CHECK(errors[t] == "");
        CHECK(bad[t] == 0);
    }
}

// Beyond Halide's program: one pipeline, compiled once, realized on many threads at once, each
// with its own Param value and input buffer through a ParamMap.
TEST_CASE("thread_safety: one compiled pipeline realized on many threads with ParamMaps") {
    const int kThreads = 16;
    ImageParam in(Int(32), 1, "in");
    Param<int> k("k");
    Func f("f"), g("g");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = in(x) * k;
    g(x) = f(x) + f(x + 1) + f(x + 2);
    f.compute_at(g, xo).vectorize(x, 4);
    g.split(x, xo, xi, 8).vectorize(xi, 4);
    std::vector<Buffer<int>> inputs;
    for (int t = 0; t < kThreads; t++) {
        Buffer<int> b(64 + 2 + t);
        for (int i = 0; i < b.width(); i++) b(i) = int(hash32(uint32_t(t * 1000 + i)) % 1000);
        inputs.push_back(b);
    }
    in.set(inputs[0]);
    k.set(1);
    g.compile_jit();
    std::vector<int> bad(kThreads, -1);
    std::vector<std::string> errors(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        threads.emplace_back([&, t] {
            try {
                for (int rep = 0; rep < 20; rep++) {
                    ParamMap pm;
                    pm.set(in, inputs[t]);
                    pm.set(k, t + rep);
                    Buffer<int> out(64 + t);
                    g.realize(out, pm);
                    int b = 0;
                    for (int i = 0; i < out.width(); i++)
                        if (out(i) != (inputs[t](i) + inputs[t](i + 1) + inputs[t](i + 2)) * (t + rep)) b++;
                    if (b) {
                        bad[t] = b;
                        return;
                    }
                }
                bad[t] = 0;
            } catch (const std::exception &e) {
                errors[t] = e.what();
            }
        });
    }
    for (auto &th : threads) th.join();
    for (int t = 0; t < kThreads; t++) {
        CAPTURE(t);
        CHECK(errors[t] == "");
        CHECK(bad[t] == 0);
    }
}

// ---------------------------------------------------------------------------------------------
// bitcast_vector_load_into_scalar (chunks concatenated with shifts: Halo has no Shuffle)

namespace {

template <typename CHUNK>
void check_chunk_concat(int n_chunks, bool highest_first, int vec) {
    const int cw = 8 * int(sizeof(CHUNK));
    const int wide = 256;
    Buffer<CHUNK> in(wide * n_chunks);
    for (int i = 0; i < in.width(); i++) in(i) = CHUNK(hash32(uint32_t(i * 31 + n_chunks)));
    Var x("x");
    Func input("input"), store("store");
    input(x) = in(x);
    Expr v = cast<uint64_t>(0);
    for (int i = 0; i < n_chunks; i++) {
        // Lowest first: chunk i lands at bit i * cw; highest first: chunk i at the top.
        int pos = highest_first ? (n_chunks - 1 - i) : i;
        v = v | (cast<uint64_t>(input(n_chunks * x + i)) << cast<uint64_t>(pos * cw));
    }
    store(x) = v;
    if (vec) store.vectorize(x, vec);
    Buffer<uint64_t> out = store.realize({wide});
    CHECK(mismatches<uint64_t>(out, [&](const std::vector<int> &p) {
              uint64_t w = 0;
              for (int c = 0; c < n_chunks; c++) {
                  int idx = highest_first ? c : (n_chunks - 1 - c);
                  w = (w << cw) | uint64_t(in(n_chunks * p[0] + idx));
              }
              return w;
          }) == 0);
}

}  // namespace

TEST_CASE("bitcast_vector_load_into_scalar: chunks of 8, 16 and 32 bits concatenated into 64") {
    for (int vec : {0, 4, 8}) {
        for (int order = 0; order < 2; order++) {
            CAPTURE(vec);
            CAPTURE(order);
            for (int n = 2; 8 * n <= 64; n *= 2) check_chunk_concat<uint8_t>(n, order == 1, vec);
            for (int n = 2; 16 * n <= 64; n *= 2) check_chunk_concat<uint16_t>(n, order == 1, vec);
            check_chunk_concat<uint32_t>(2, order == 1, vec);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// extract_concat_bits (extract_bits and concat_bits written with shifts and casts)

TEST_CASE("extract_concat_bits: bytes extracted from a uint32 Func, scalar and vectorized") {
    for (int vec = 0; vec < 2; vec++) {
        CAPTURE(vec);
        Func f("f"), g("g");
        Var x("x");
        f(x) = cast<uint32_t>(x);
        g(x) = cast<uint8_t>(f(x / 4) >> cast<uint32_t>(8 * (x % 4)));
        f.compute_root();
        if (vec) {
            f.vectorize(x, 8);
            g.align_bounds(x, 4).vectorize(x, 32);
        }
        Buffer<uint8_t> out = g.realize({1024});
        CHECK(mismatches<uint8_t>(out, [](const std::vector<int> &p) {
                  uint32_t i = uint32_t(p[0]);
                  return uint8_t((i / 4) >> (8 * (i % 4)));
              }) == 0);
    }
}

TEST_CASE("extract_concat_bits: four bytes of a uint8 Func concatenated little-endian") {
    for (int vec = 0; vec < 2; vec++) {
        CAPTURE(vec);
        Func f("f"), g("g");
        Var x("x");
        f(x) = cast<uint8_t>(x);
        Expr v = cast<uint32_t>(0);
        for (int b = 0; b < 4; b++) v = v | (cast<uint32_t>(f(4 * x + b)) << cast<uint32_t>(8 * b));
        g(x) = v;
        f.compute_root();
        if (vec) {
            f.vectorize(x, 32);
            g.vectorize(x, 8);
        }
        Buffer<uint32_t> out = g.realize({64});
        for (int i = 0; i < 64; i++)
            for (int b = 0; b < 4; b++) CHECK(uint8_t((out(i) >> (8 * b)) & 0xff) == uint8_t(i * 4 + b));
    }
}

TEST_CASE("extract_concat_bits: the shift and cast forms of extract_bits and concat_bits") {
    Func f("f");
    Var x("x");
    f(x) = cast<uint16_t>(x);
    struct Check {
        const char *text;
        Expr e;
        std::function<uint64_t(uint16_t)> ref;
    };
    std::vector<Check> checks = {
        {"concat {f, 37}", cast<uint32_t>(f(x)) | (cast<uint32_t>(37) << 16),
         [](uint16_t v) { return uint64_t(v) + (37u << 16); }},
        {"concat {0, f, 0, 0}", cast<uint64_t>(f(x)) << 16, [](uint16_t v) { return uint64_t(v) << 16; }},
        {"extract uint8 at 3", cast<uint8_t>(f(x) >> 3), [](uint16_t v) { return uint64_t(uint8_t(v >> 3)); }},
        {"extract uint16 at 3", f(x) >> 3, [](uint16_t v) { return uint64_t(v >> 3); }},
        {"extract int16 at 8", cast<int16_t>((f(x) >> 8) & 0xff), [](uint16_t v) { return uint64_t((v >> 8) & 0xff); }},
        {"extract uint8 at -1", cast<uint8_t>(f(x)) << 1, [](uint16_t v) { return uint64_t(uint8_t(uint8_t(v) << 1)); }},
        {"mantissa bits", cast<uint8_t>(reinterpret<uint32_t>(cast<float>(f(x))) >> 15),
         [](uint16_t v) {
             float fv = float(v);
             uint32_t bits;
             std::memcpy(&bits, &fv, 4);
             return uint64_t(uint8_t(bits >> 15));
         }},
    };
    for (const Check &c : checks) {
        CAPTURE(std::string(c.text));
        Func g;
        g(x) = cast<uint64_t>(c.e);
        for (int vec : {0, 8}) {
            if (vec) g.vectorize(x, vec);
            Buffer<uint64_t> out = g.realize({1024});
            CHECK(mismatches<uint64_t>(out, [&](const std::vector<int> &p) { return c.ref(uint16_t(p[0])); }) == 0);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// hoist_storage (hoist_storage(g, level) written store_at(g, level), or store_root())

namespace {

int check_sum_of_diagonals(const Buffer<int> &out) {
    return mismatches<int>(out, [](const std::vector<int> &p) { return 2 * (p[0] + p[1]); });
}

int check_with_h(const Buffer<int> &out) {
    return mismatches<int>(out, [](const std::vector<int> &p) { return 4 * p[0] + 5 * p[1]; });
}

}  // namespace

TEST_CASE("hoist_storage: a producer computed per pixel, stored at the root, on the heap") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = f(x - 1, y - 1) + f(x + 1, y + 1);
    g.compute_root();
    f.compute_at(g, x).store_root().store_in(MemoryType::Heap);
    Buffer<int> out = g.realize({128, 128});
    CHECK(check_sum_of_diagonals(out) == 0);
}

TEST_CASE("hoist_storage: a producer computed per tile, RoundUp and GuardWithIf tiles") {
    for (int guard = 0; guard < 2; guard++) {
        for (int at_yo = 0; at_yo < 2; at_yo++) {
            CAPTURE(guard);
            CAPTURE(at_yo);
            Func f("f"), g("g");
            Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
            f(x, y) = x + y;
            g(x, y) = f(x - 1, y - 1) + f(x + 1, y + 1);
            g.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16,
                                  guard ? TailStrategy::GuardWithIf : TailStrategy::RoundUp);
            f.compute_at(g, xo).store_in(MemoryType::Heap);
            if (at_yo) f.store_at(g, yo);
            else f.store_root();
            // RoundUp needs the output to be a whole number of tiles.
            Buffer<int> out = g.realize(guard ? std::vector<int>{123, 101} : std::vector<int>{128, 128});
            CHECK(check_sum_of_diagonals(out) == 0);
        }
    }
}

TEST_CASE("hoist_storage: two producers per tile, stored at the same or different levels") {
    // 0: both at the root; 1: f at the root, h at yo; 2: f per tile, h at yo.
    for (int which = 0; which < 3; which++) {
        CAPTURE(which);
        Func f("f"), h("h"), g("g");
        Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
        f(x, y) = x + y;
        h(x, y) = 2 * x + 3 * y;
        g(x, y) = f(x - 1, y - 1) + f(x + 1, y + 1) + h(x, y);
        g.compute_root().tile(x, y, xo, yo, xi, yi, 16, 16, TailStrategy::GuardWithIf);
        f.compute_at(g, xo).store_in(MemoryType::Heap);
        h.compute_at(g, xo).store_in(MemoryType::Heap);
        if (which < 2) f.store_root();
        if (which == 0) h.store_root();
        else h.store_at(g, yo);
        Buffer<int> out = g.realize({128, 125});
        CHECK(check_with_h(out) == 0);
    }
}

TEST_CASE("hoist_storage: a producer per pixel of a specialized, vectorized consumer") {
    for (int w : {128, 50, 64, 65}) {
        CAPTURE(w);
        Func f("f"), g("g");
        Var x("x"), y("y");
        f(x, y) = x + y;
        g(x, y) = f(x - 1, y - 1) + f(x + 1, y + 1);
        g.compute_root();
        g.specialize(g.output_buffer().width() > 64).vectorize(x, 4);
        f.compute_at(g, x).store_root().store_in(MemoryType::Heap);
        Buffer<int> out(w, 37);
        g.realize(out);
        CHECK(check_sum_of_diagonals(out) == 0);
    }
}

TEST_CASE("hoist_storage: a sliding-window producer stored per row or at the root") {
    for (int root = 0; root < 2; root++) {
        CAPTURE(root);
        Func f("f"), g("g");
        Var x("x"), y("y");
        f(x, y) = x + y;
        g(x, y) = f(x - 1, y - 1) + f(x + 1, y + 1);
        g.compute_root();
        f.compute_at(g, x).store_in(MemoryType::Heap);
        if (root) f.store_root();
        else f.store_at(g, y);
        Buffer<int> out = g.realize({128, 128});
        CHECK(check_sum_of_diagonals(out) == 0);
    }
}

// ---------------------------------------------------------------------------------------------
// vectorized_assert

TEST_CASE("vectorized_assert: bound_storage's check fires inside a vector loop, and only when it must") {
    Func f("f"), g("g");
    Var x("x");
    Param<int> p;
    f(x) = x;
    f(x) += 1;
    g(x) = f(x) + f(2 * x + p);
    g.vectorize(x, 8);
    f.bound_storage(x, 32);
    // The size of f depends on both x and p: the check runs where f is computed, inside g's
    // vectorized loop.
    g.compile_jit();
    p.set(256);
    std::string msg = halo_compat::thrown_message([&] { g.realize({128}); });
    CHECK(contains(msg, "Func 'f' has storage for 32 in x (bound_storage)"));
    p.set(0);
    Buffer<int> out = g.realize({8});
    CHECK(mismatches<int>(out, [&](const std::vector<int> &c) { return (c[0] + 1) + (2 * c[0] + 1); }) == 0);
}

TEST_CASE("vectorized_assert: a Func with an update read at 2x + p inside a vector loop") {
    for (int sched = 0; sched < 2; sched++) {
        CAPTURE(sched);
        Func f("f"), g("g");
        Var x("x");
        Param<int> p("p");
        f(x) = x;
        f(x) += 1;
        g(x) = f(x) + f(2 * x + p);
        g.vectorize(x, 8);
        if (sched == 1) f.compute_at(g, x);
        g.compile_jit();
        for (int pv : {256, 0, 3, -5}) {
            for (int n : {128, 8, 13}) {
                CAPTURE(pv);
                CAPTURE(n);
                p.set(pv);
                Buffer<int> out = g.realize({n});
                CHECK(mismatches<int>(out, [&](const std::vector<int> &c) {
                          return (c[0] + 1) + (2 * c[0] + pv + 1);
                      }) == 0);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// bound_allocation (without Func::bound_allocation)

TEST_CASE("bound_allocation: a producer per row, and two producers at two levels") {
    {
        Func f("f"), g("g");
        Var x("x"), y("y");
        f(x, y) = x + y;
        g(x, y) = 2 * f(x, y);
        f.compute_at(g, y);
        Buffer<int> out = g.realize({10, 10});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return 2 * (p[0] + p[1]); }) == 0);
    }
    {
        Func f("f"), h("h"), g("g");
        Var x("x"), y("y");
        f(x, y) = x + y;
        h(x, y) = x - 2 * y;
        g(x, y) = 2 * f(x, y) + 3 * h(x, y);
        f.compute_at(g, y);
        h.compute_root();
        Buffer<int> out = g.realize({10, 10});
        CHECK(mismatches<int>(out, [](const std::vector<int> &p) {
                  return 2 * (p[0] + p[1]) + 3 * (p[0] - 2 * p[1]);
              }) == 0);
    }
}

TEST_CASE("bound_allocation: a producer per row that reads an ImageParam") {
    ImageParam input(Int(32), 2);
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = input(x, y) + x + y;
    g(x, y) = 2 * f(x, y);
    f.compute_at(g, y);
    Buffer<int> in(10, 10);
    in.fill(10);
    input.set(in);
    Buffer<int> out = g.realize({10, 10});
    CHECK(mismatches<int>(out, [](const std::vector<int> &p) { return 2 * (p[0] + p[1] + 10); }) == 0);
}

// ---------------------------------------------------------------------------------------------
// inlined_generator

namespace {

class InlinedExample : public Generator<InlinedExample> {
public:
    GeneratorParam<float> compiletime_factor{"compiletime_factor", 1, 0, 100};
    GeneratorParam<bool> vectorize{"vectorize", true};

    Input<float> runtime_factor{"runtime_factor", 1.0f};
    Input<int> runtime_offset{"runtime_offset", 0};

    Output<Func> output{"output", Int(32), 3};

    void generate() {
        Func f;
        f(x, y) = max(x, y);
        output(x, y, c) = cast<int32_t>(f(x, y) * c * compiletime_factor * runtime_factor + runtime_offset);
    }

    void schedule() {
        output.bound(c, 0, 3).reorder(c, x, y).unroll(c);
        output.specialize(vectorize).vectorize(x, get_jit_target_from_environment().natural_vector_size(32));
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

int check_inlined_example(const Buffer<int> &img, float cf, float rf, int offset) {
    return mismatches<int>(img, [&](const std::vector<int> &p) {
        float v = float(std::max(p[0], p[1]) * p[2]) * cf * rf + float(offset);
        return int32_t(v);
    });
}

}  // namespace

TEST_CASE("inlined_generator: default GeneratorParams, Inputs set before realizing") {
    InlinedExample gen;
    Func out = gen.build();
    gen.runtime_factor.set(2.0f);
    gen.runtime_offset.set(32);
    for (int w : {32, 37}) {
        CAPTURE(w);
        Buffer<int> img = out.realize({w, w - 3, 3});
        CHECK(check_inlined_example(img, 1.0f, 2.0f, 32) == 0);
    }
}

TEST_CASE("inlined_generator: GeneratorParams set before building") {
    for (int vec = 0; vec < 2; vec++) {
        CAPTURE(vec);
        InlinedExample gen;
        gen.compiletime_factor.set(2.5f);
        gen.vectorize.set(vec == 1);
        Func out = gen.build();
        gen.runtime_factor.set(2.0f);
        gen.runtime_offset.set(32);
        Buffer<int> img = out.realize({32, 32, 3});
        CHECK(check_inlined_example(img, 2.5f, 2.0f, 32) == 0);
    }
}

// ---------------------------------------------------------------------------------------------
// auto_schedule_no_parallel, auto_schedule_no_reorder

namespace {

std::vector<int> fib_ref(int n) {
    // f(x) = 1 everywhere, then f(r) = f(r - 2) + f(r - 1) for r in [2, 20).
    std::vector<int> v(n, 1);
    for (int r = 2; r < 20 && r < n; r++) v[r] = v[r - 2] + v[r - 1];
    return v;
}

}  // namespace

TEST_CASE("auto_schedule_no_parallel: auto_schedule of a pipeline whose output is already parallel") {
    Func fib("fib"), g("g");
    Var x("x");
    RDom r(2, 18);
    fib(x) = 1;
    fib(r) = fib(r - 2) + fib(r - 1);
    g(x) = fib(x + 10);
    g.set_estimate(x, 0, 50);
    g.parallel(x);
    std::string err = thrown_message([&] { auto_schedule(g); });
    if (!err.empty()) {
        MESSAGE("auto_schedule refused: " << err);
        CHECK(contains(err, "g"));
        return;
    }
    std::vector<int> ref = fib_ref(70);
    for (int n : {50, 17}) {
        CAPTURE(n);
        std::string rerr;
        Buffer<int> out;
        rerr = thrown_message([&] { out = g.realize({n}); });
        CHECK(rerr == "");
        if (rerr.empty()) CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ref[p[0] + 10]; }) == 0);
    }
}

TEST_CASE("auto_schedule_no_reorder: auto_schedule of a pipeline whose output is already reordered") {
    Func f("f"), g("g");
    Var x("x"), y("y");
    RDom r(2, 18);
    f(x, y) = 1;
    f(r, y) = f(r - 2, y) + f(r - 1, y);
    g(x, y) = f(x + 10, y) + 2;
    g.set_estimates({{0, 50}, {0, 50}});
    g.reorder(y, x);
    std::string err = thrown_message([&] { auto_schedule(g); });
    if (!err.empty()) {
        MESSAGE("auto_schedule refused: " << err);
        CHECK(contains(err, "g"));
        return;
    }
    std::vector<int> ref = fib_ref(70);
    std::string rerr;
    Buffer<int> out;
    rerr = thrown_message([&] { out = g.realize({50, 50}); });
    CHECK(rerr == "");
    if (rerr.empty()) CHECK(mismatches<int>(out, [&](const std::vector<int> &p) { return ref[p[0] + 10] + 2; }) == 0);
}
