// Randomized differential testing of typed, three-dimensional pipelines (test/fuzz/TypedPipeline.h
// says what they contain) under random schedules, against the reference evaluator. Every
// generated program is valid, so each case must end in a bit-exact match with the reference
// (for both outputs when there are two), or in undefined behaviour the reference reports (int32
// overflow from Halide's implicit coercions; then the compiled code is not run), or, where an
// intermediate stage is also the second output, in the run-time error that its consumers read
// it beyond the region asked for (as in Halide), or where a producer is bound(c, ...) while a
// consumer computes c beyond it, in that bound's run-time error. A CompileError,
// a RuntimeError, any other exception or a wrong value fails the test.
//
// HALO_TYPED_FUZZ_CASES sets the number of cases (200 by default), HALO_TYPED_FUZZ_SEED the first
// seed; CTest runs shards of consecutive seeds. HALO_FUZZ_PRINT=1 prints every case after it
// ran, HALO_FUZZ_PRINT_FIRST=1 before. The last line, "fuzz totals: ...", is for scripts.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "TestUtil.h"
#include "fuzz/FuzzHarness.h"
#include "fuzz/TypedPipeline.h"

using namespace halo;

namespace {

using halo_fuzz::Outcome;

struct Region {
    int w, h, x, y;
};

// How the compiled pipeline's output buffers lie in memory: dense (x innermost), interleaved
// (channels innermost: (c, x, y) memory seen as (x, y, c), which needs
// output_buffer().dim(0).set_stride(Expr())), or a window of a larger buffer whose memory
// around the window keeps a byte pattern, so that a store outside the window shows. Seeds
// choose (not the pipeline's random numbers, so that a seed's other choices stay).
enum class Layout { Dense, Interleaved, Window };

Layout layout_for_seed(unsigned seed) {
    switch ((seed / 7) % 5) {
    case 1: return Layout::Interleaved;
    case 3: return Layout::Window;
    default: return Layout::Dense;
    }
}

const char *layout_name(Layout l) {
    return l == Layout::Interleaved ? "interleaved (channels innermost)" : l == Layout::Window ? "a window of a larger buffer" : "dense";
}

constexpr uint8_t kPattern = 0xa5;

struct OutputBuffer {
    Buffer<> view, backing;  // backing: the larger buffer of a window (else undefined)

    // The backing's bytes outside the window that lost the pattern.
    int written_outside() const {
        if (!backing.defined()) return 0;
        int bad = 0, bytes = backing.type().bytes();
        backing.for_each_element([&](const std::vector<int> &c) {
            if (view.contains(c)) return;
            const uint8_t *e = backing.data() + (int64_t(c[0] - backing.min(0)) * backing.stride(0) +
                                                 int64_t(c[1] - backing.min(1)) * backing.stride(1) +
                                                 int64_t(c[2] - backing.min(2)) * backing.stride(2)) * bytes;
            for (int i = 0; i < bytes; i++) bad += e[i] != kPattern;
        });
        return bad;
    }
};

Buffer<> dense_buffer(Type t, const Region &r, int channels) {
    Buffer<> b(t, {r.w, r.h, channels});
    b.set_min({r.x, r.y, 0});
    return b;
}

OutputBuffer output_buffer(Type t, const Region &r, int channels, Layout layout) {
    OutputBuffer out;
    if (layout == Layout::Interleaved) {
        Buffer<> cxy(t, {channels, r.w, r.h});
        cxy.set_min({0, r.x, r.y});
        out.view = cxy.transposed(0, 1).transposed(1, 2);
    } else if (layout == Layout::Window) {
        out.backing = dense_buffer(t, {r.w + 5, r.h + 3, r.x - 2, r.y - 1}, channels);
        std::memset(out.backing.data(), kPattern, size_t(out.backing.number_of_elements()) * t.bytes());
        out.view = out.backing.cropped(0, r.x, r.w).cropped(1, r.y, r.h);
        out.view.fill(0);  // as a new dense buffer holds
    } else {
        out.view = dense_buffer(t, r, channels);
    }
    return out;
}

// The outputs over one region: the reference's, then the compiled pipeline's, compared.
Outcome realize_region(const halo_fuzz::TypedPipeline &p, const std::vector<Func> &outputs, Pipeline *both,
                       const Region &region, const Target &target, Layout layout) {
    std::vector<Buffer<>> expected;
    std::vector<OutputBuffer> got;
    try {
        for (const Func &f : outputs) {
            expected.push_back(dense_buffer(f.output_type(), region, p.channels));
            reference_realize(f, expected.back());
        }
    } catch (const UndefinedBehaviorError &e) {
        return {Outcome::Undefined, e.what()};
    } catch (const std::exception &e) {
        return {Outcome::Failure, std::string("the reference evaluator threw: ") + e.what()};
    }
    try {
        for (const Func &f : outputs) got.push_back(output_buffer(f.output_type(), region, p.channels, layout));
        if (both) {
            both->compile_jit(target);
            both->realize(Realization(got[0].view, got[1].view));
        } else {
            Func(outputs[0]).realize(got[0].view, target);
        }
    } catch (const CompileError &e) {
        return {Outcome::Failure, std::string("CompileError on a valid program: ") + e.what()};
    } catch (const RuntimeError &e) {
        std::string message = e.what();
        if (p.second_is_intermediate() && message.find("an output is computed only over its buffer") != std::string::npos) {
            return {Outcome::Expected, message};
        }
        if (p.bound_may_fail() && message.find("is bounded to") != std::string::npos) return {Outcome::Expected, message};
        if (p.fold_may_fail() && message.find("(fold_storage), but") != std::string::npos) return {Outcome::Expected, message};
        return {Outcome::Failure, "RuntimeError on a valid program: " + message};
    } catch (const std::exception &e) {
        return {Outcome::Failure, std::string("exception: ") + e.what()};
    }
    for (size_t k = 0; k < outputs.size(); k++) {
        std::string diff = halo_test::compare(got[k].view, expected[k]);
        if (!diff.empty()) return {Outcome::Failure, "wrong result in " + outputs[k].name() + ": " + diff};
        if (int outside = got[k].written_outside()) {
            return {Outcome::Failure, outputs[k].name() + " stored outside its window: " + std::to_string(outside) + " bytes changed"};
        }
    }
    return {Outcome::Match, ""};
}

Outcome run_case(unsigned seed, std::string &description) {
    // Odd seeds stream every output that can (lower/NontemporalStores.h): its size threshold
    // would keep these small outputs out.
    halo_test::ScopedEnv streaming("HALO_NONTEMPORAL_MIN_BYTES", seed % 2 ? "0" : nullptr);
    halo_fuzz::TypedPipeline p(seed);
    p.build(2 + p.rand(6));
    try {
        p.schedule();
    } catch (const std::exception &e) {  // a directive refused on a valid schedule
        description = p.description();
        return {Outcome::Failure, std::string("a schedule directive threw: ") + e.what()};
    }
    description = p.description();
    if (std::getenv("HALO_FUZZ_PRINT_FIRST")) std::fprintf(stderr, "seed %u:\n%s\n", seed, description.c_str());
    std::vector<Func> outputs{p.output()};
    if (p.second_output().defined()) outputs.push_back(p.second_output());
    std::unique_ptr<Pipeline> both;
    if (outputs.size() > 1) both = std::make_unique<Pipeline>(outputs);
    std::vector<Region> regions{{p.out_w, p.out_h, p.out_x, p.out_y}};
    // One case in four realizes the compiled pipeline again over another region: its buffers
    // then come from blocks the arena kept from the first call, of other sizes.
    if (seed % 4 == 1) {
        regions.push_back({1 + (p.out_w * 7 + 3) % 40, 1 + (p.out_h * 5 + 2) % 24, p.out_x - 3, p.out_y + 2});
        description += "then again over " + std::to_string(regions[1].w) + "x" + std::to_string(regions[1].h) + " at (" +
                       std::to_string(regions[1].x) + ", " + std::to_string(regions[1].y) + ", 0)\n";
    }
    Target target = halo_fuzz::fuzz_target(seed);
    description += "target: " + target.to_string() + "\n";
    Layout layout = layout_for_seed(seed);
    description += std::string("output buffers: ") + layout_name(layout) + "\n";
    if (layout == Layout::Interleaved) {
        for (Func f : outputs) f.output_buffer().dim(0).set_stride(Expr());
    }
    for (const Region &r : regions) {
        Outcome o = realize_region(p, outputs, both.get(), r, target, layout);
        if (o.kind != Outcome::Match) return o;
    }
    return {Outcome::Match, ""};
}

}  // namespace

TEST_CASE("random typed 3-D pipelines under random schedules match the reference evaluator") {
    int cases = halo_test::env_int("HALO_TYPED_FUZZ_CASES", 200);
    unsigned first = unsigned(halo_test::env_int("HALO_TYPED_FUZZ_SEED", 1));
    halo_fuzz::FuzzCounts counts = halo_fuzz::run_fuzz_cases(first, cases, run_case);
    int run = halo_fuzz::total(counts);
    CHECK(counts[Outcome::Failure] == 0);
    CHECK(counts[Outcome::Undefined] <= run / 10);
}
