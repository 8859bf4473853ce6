// What the randomized differential tests share: how a case can end, the loop over seeds that
// reports failures and totals, and the tail strategies their schedules draw from.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <ostream>
#include <string>

#include "dsl/Halo.h"

namespace halo_fuzz {

struct Outcome {
    // Match: the reference's answer, bit for bit. Expected: an error the case was made to
    // cause (or one its test accepts, named there). Undefined: undefined behaviour the
    // reference evaluator found (the compiled code is not run). Limit: a stated resource
    // limit at extreme coordinates. Failure: anything else.
    enum Kind { Match, Expected, Undefined, Limit, Failure } kind;
    std::string detail;
};

using FuzzCounts = std::map<Outcome::Kind, int>;

// Runs run_case on the seeds [first, first + cases), stopping after 3 failures: each failure
// fails the test with its seed and description (HALO_FUZZ_PRINT=1 prints every case). Ends
// with the totals; the last line, "fuzz totals: ...", is for scripts/fuzz.sh.
inline FuzzCounts run_fuzz_cases(unsigned first, int cases,
                                 const std::function<Outcome(unsigned seed, std::string &description)> &run_case) {
    FuzzCounts counts;
    double slowest = 0;
    unsigned slowest_seed = first;
    for (unsigned seed = first; seed < first + unsigned(cases) && counts[Outcome::Failure] < 3; seed++) {
        std::string description;
        auto start = std::chrono::steady_clock::now();
        Outcome o = run_case(seed, description);
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > slowest) slowest = seconds, slowest_seed = seed;
        counts[o.kind]++;
        if (std::getenv("HALO_FUZZ_PRINT")) MESSAGE("seed " << seed << " (" << seconds << " s): " << o.detail << "\n" << description);
        if (o.kind == Outcome::Failure) FAIL_CHECK("seed " << seed << ": " << o.detail << "\n" << description);
    }
    int run = 0;
    for (auto &[kind, n] : counts) run += n;
    MESSAGE(run << " cases from seed " << first << ": " << counts[Outcome::Match] << " match, "
                << counts[Outcome::Expected] << " expected errors, " << counts[Outcome::Undefined]
                << " undefined behaviour (skipped), " << counts[Outcome::Limit]
                << " resource limits at extreme coordinates, " << counts[Outcome::Failure] << " failures; slowest "
                << slowest << " s (seed " << slowest_seed << ")");
    MESSAGE("fuzz totals: cases=" << run << " match=" << counts[Outcome::Match] << " expected="
                                  << counts[Outcome::Expected] << " undefined=" << counts[Outcome::Undefined]
                                  << " limit=" << counts[Outcome::Limit] << " failure=" << counts[Outcome::Failure]);
    return counts;
}

inline int total(const FuzzCounts &counts) {
    int run = 0;
    for (auto &[kind, n] : counts) run += n;
    return run;
}

// The target a case compiles for: the host (AVX-512 where it has it) for two seeds in four,
// AVX2 and SSE4.1 for one each (narrower vectors, other instructions: masked loads and
// gathers, or none). Under ThreadSanitizer the environment's target stands (SSE4.1 there).
inline halo::Target fuzz_target(unsigned seed) {
    halo::Target host = halo::get_jit_target_from_environment();
    if (std::getenv("HALO_JIT_TARGET")) return host;
    const char *names[] = {nullptr, "x86-64-avx2", nullptr, "x86-64-sse41"};
    const char *name = names[seed % 4];
    if (!name) return host;
    halo::Target t = halo::Target::parse(name);
    return t.supported_by_host() ? t : host;
}

// Grows f's region in dimension v at random, with align_bounds (a modulus of 2 to 8 and a
// remainder from -1 to modulus + 1) or align_extent: the values computed stay the reference's.
// rand(n) draws from [0, n); the directive is logged after `indent`.
template <typename Rand>
void random_alignment(halo::Func f, const halo::Var &v, Rand &&rand, std::ostream &log, const char *indent) {
    int m = 2 + rand(7), r = rand(m + 3) - 1;
    if (rand(2) == 0) {
        f.align_bounds(v, m, r);
        log << indent << ".align_bounds(" << v.name() << ", " << m << ", " << r << ")\n";
    } else {
        f.align_extent(v, m);
        log << indent << ".align_extent(" << v.name() << ", " << m << ")\n";
    }
}

const halo::TailStrategy kTails[] = {halo::TailStrategy::Auto, halo::TailStrategy::GuardWithIf,
                                     halo::TailStrategy::ShiftInwards, halo::TailStrategy::RoundUp};

inline const char *tail_name(halo::TailStrategy t) {
    switch (t) {
    case halo::TailStrategy::Auto: return "Auto";
    case halo::TailStrategy::GuardWithIf: return "GuardWithIf";
    case halo::TailStrategy::ShiftInwards: return "ShiftInwards";
    default: return "RoundUp";
    }
}

}  // namespace halo_fuzz
