// Randomized differential testing: random pipelines under random schedules, or one case in five
// under auto_schedule's (test/fuzz/RandomPipeline.h says what they contain), against the
// reference evaluator.
//
// Each case ends in exactly one of:
//   match        the output equals the reference's, bit for bit;
//   expected     the schedule was made invalid on purpose, and realize threw the RuntimeError
//                or CompileError that names it;
//   undefined    the reference evaluator found undefined behaviour (int32 overflow), so any
//                result is right; the compiled pipeline is not run (with an index that
//                overflowed it may read anywhere). At most a quarter of the cases may end so;
//   limit        the output was requested at coordinates near the ends of int32, and realize
//                threw a RuntimeError saying the region is too large to allocate or does not
//                fit in 32 bits (a resource limit, stated; never accepted for ordinary
//                coordinates);
// and anything else fails the test: a wrong value, an unexpected CompileError (the program is
// valid) or RuntimeError, any other exception. Crashes and hangs fail the CTest entry.
//
// HALO_FUZZ_CASES sets the number of cases (500 by default), HALO_FUZZ_SEED the first seed;
// CTest runs shards of consecutive seeds. HALO_FUZZ_PRINT=1 prints every case after it ran,
// HALO_FUZZ_PRINT_FIRST=1 before (for cases that crash). A failure prints the seed, the
// pipeline and the schedule; the last line, "fuzz totals: ...", is for scripts/fuzz.sh.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "TestUtil.h"
#include "fuzz/FuzzHarness.h"
#include "fuzz/RandomPipeline.h"
#include "lower/Bounds.h"
#include "lower/Lower.h"

using namespace halo;

namespace {

using halo_fuzz::Outcome;

bool contains_any(const std::string &s, const std::vector<std::string> &parts) {
    for (auto &p : parts) {
        if (s.find(p) != std::string::npos) return true;
    }
    return false;
}

// Outputs requested near the ends of int32 can make producers' regions 2^30 or 2^31 wide (a
// scan from 0 read at x = 2^30): those cases must end in a clear "out of memory", not in the
// machine's OOM killer, nor in minutes of computing a 4 GiB buffer for each of 18 output
// points (seed 101198 under an 8 GiB limit). A case needs well under 1 GiB otherwise. Address-space limits and AddressSanitizer's shadow memory do not mix, so the
// sanitized builds generate no such cases instead.
#if HALO_TEST_SANITIZED  // test/CMakeLists.txt
constexpr bool kExtremeRegions = false;
void limit_memory() {}
#else
constexpr bool kExtremeRegions = true;
void limit_memory() {
    rlimit limit;
    const rlim_t max_bytes = rlim_t(2) << 30;
    if (getrlimit(RLIMIT_AS, &limit) == 0 && (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > max_bytes)) {
        limit.rlim_cur = max_bytes;
        setrlimit(RLIMIT_AS, &limit);
    }
}
#endif

// Where the compiled pipeline writes its output: a dense buffer, or (one seed in five each) a
// window of a larger buffer (rows longer than the output) or a column-major buffer (dimension
// 0 strided, which the output allows with output_buffer().dim(0).set_stride(Expr())). The
// memory around a window keeps its sentinel: a store outside the window shows.
class OutputStorage {
public:
    enum Layout { Dense, Window, ColumnMajor };
    static constexpr int kSentinel = -12345;

    OutputStorage(Layout layout, int w, int h, int x, int y) : layout_(layout) {
        if (layout == Window) {
            backing_ = Buffer<int>(w + 5, h + 3);
            backing_.set_min(x - 2, y - 1);
            backing_.fill(kSentinel);
            view_ = backing_.cropped(0, x, w).cropped(1, y, h);
        } else if (layout == ColumnMajor) {
            column_major_.assign(size_t(w) * h, kSentinel);
            const halo_dimension_t shape[] = {{x, w, h, 0}, {y, h, 1, 0}};
            view_ = Buffer<int>(column_major_.data(), 2, shape, "output_column_major");
        } else {
            view_ = Buffer<int>(w, h);
            view_.set_min(x, y);
            view_.fill(kSentinel);
        }
    }
    // Seeds choose the layout (not from the pipeline's random numbers, so that a seed's other
    // choices stay); outputs near the ends of int32 stay dense.
    static Layout for_seed(unsigned seed, bool extreme_region) {
        if (extreme_region) return Dense;
        switch ((seed / 7) % 5) {
        case 1: return Window;
        case 3: return ColumnMajor;
        default: return Dense;
        }
    }
    Buffer<int> &view() { return view_; }
    const char *name() const { return layout_ == Window ? "a window of a larger buffer" : layout_ == ColumnMajor ? "column-major" : "dense"; }
    // Before compiling: a column-major output needs dimension 0's stride left free.
    void constrain(Func f) const {
        if (layout_ == ColumnMajor) f.output_buffer().dim(0).set_stride(Expr());
    }
    // Points of the larger buffer outside the window that no longer hold the sentinel.
    int written_outside() const {
        if (layout_ != Window) return 0;
        int bad = 0;
        const halo_dimension_t &wx = view_.raw_buffer()->dim[0], &wy = view_.raw_buffer()->dim[1];
        backing_.for_each_element([&](int px, int py) {
            bool inside = px >= wx.min && px < wx.min + wx.extent && py >= wy.min && py < wy.min + wy.extent;
            bad += !inside && backing_(px, py) != kSentinel;
        });
        return bad;
    }

private:
    Layout layout_;
    Buffer<int> backing_, view_;
    std::vector<int> column_major_;
};

Outcome run_case(unsigned seed, std::string &description) {
    // Odd seeds stream every output that can (lower/NontemporalStores.h): its size threshold
    // would keep these small outputs out.
    halo_test::ScopedEnv streaming("HALO_NONTEMPORAL_MIN_BYTES", seed % 2 ? "0" : nullptr);
    halo_fuzz::RandomPipeline p(seed, kExtremeRegions);
    p.build(2 + p.rand(5));
    // One case in five takes auto_schedule's schedule for its output size instead of a random one.
    if (seed % 5 == 2) {
        try {
            p.schedule_automatically();
        } catch (const std::exception &e) {
            description = p.description();
            return {Outcome::Failure, std::string("auto_schedule threw: ") + e.what()};
        }
    } else {
        try {
            p.schedule();
        } catch (const std::logic_error &e) {  // a directive accepted that must be rejected
            description = p.description();
            return {Outcome::Failure, e.what()};
        }
    }
    description = p.description();
    if (std::getenv("HALO_FUZZ_PRINT_FIRST")) std::fprintf(stderr, "seed %u:\n%s\n", seed, description.c_str());
    OutputStorage storage(OutputStorage::for_seed(seed, p.extreme_region()), p.out_w, p.out_h, p.out_x, p.out_y);
    Buffer<int> &out = storage.view();
    Buffer<int> expected(p.out_w, p.out_h);
    expected.set_min(p.out_x, p.out_y);
    // The same contents in both: an output whose pure definition stores nothing somewhere
    // (undef()) keeps them there, and a point the compiled code failed to write shows.
    expected.fill(OutputStorage::kSentinel);
    try {
        Buffer<> e(expected);
        reference_realize(p.output(), e);
    } catch (const UndefinedBehaviorError &e) {
        return {Outcome::Undefined, e.what()};
    } catch (const RuntimeError &e) {
        // The algorithm's own run-time errors (specialize_fail): the compiled pipeline must
        // report the same one, which the expectation names.
        // (Or a compile error comes first.)
        const halo_fuzz::Expectation &expect = p.expectation();
        bool runtime_expected = expect.kind == halo_fuzz::Expectation::RuntimeError && contains_any(e.what(), expect.message_parts);
        if (!runtime_expected && expect.kind != halo_fuzz::Expectation::CompileError) {
            return {Outcome::Failure, std::string("the reference evaluator threw: ") + e.what()};
        }
    } catch (const std::exception &e) {
        return {Outcome::Failure, std::string("the reference evaluator threw: ") + e.what()};
    }
    const halo_fuzz::Expectation &expect = p.expectation();
    // Every third case realizes the output as the first of two outputs of one pipeline (the
    // second reads it), so that every schedule of an output is also lowered as a pipeline's
    // other output (computed at the root into the caller's buffer, read by the last stage).
    const bool two_outputs = seed % 3 == 0;
    Buffer<int> second(p.out_w, p.out_h);
    second.set_min(p.out_x, p.out_y);
    Target target = halo_fuzz::fuzz_target(seed);
    description += "target: " + target.to_string() + "\n";
    description += std::string("output buffer: ") + storage.name() + "\n";
    storage.constrain(p.output());
    try {
        if (two_outputs) {
            Var x("x"), y("y");
            Func reader("second_output");
            reader(x, y) = p.output()(x, y) ^ 0x5a5a;
            Pipeline both({p.output(), reader});
            both.compile_jit(target);
            both.realize(Realization(out, second));
        } else {
            Buffer<> o(out);
            p.output().realize(o, target);
        }
    } catch (const CompileError &e) {
        if (expect.kind == halo_fuzz::Expectation::CompileError && contains_any(e.what(), expect.message_parts)) {
            return {Outcome::Expected, e.what()};
        }
        return {Outcome::Failure, std::string("CompileError on a valid program: ") + e.what()};
    } catch (const RuntimeError &e) {
        if (expect.kind == halo_fuzz::Expectation::RuntimeError && contains_any(e.what(), expect.message_parts)) {
            return {Outcome::Expected, e.what()};
        }
        if (contains_any(e.what(), expect.tolerated_runtime_errors)) return {Outcome::Expected, e.what()};
        if (p.extreme_region() && contains_any(e.what(), {"out of memory", "does not fit in 32 bits, or its 32-bit computation wraps"})) {
            return {Outcome::Limit, e.what()};
        }
        return {Outcome::Failure, std::string("unexpected RuntimeError: ") + e.what()};
    } catch (const std::exception &e) {
        return {Outcome::Failure, std::string("exception: ") + e.what()};
    }
    if (expect.kind != halo_fuzz::Expectation::Match) {
        return {Outcome::Failure, "no error, expected one containing '" + expect.message_parts[0] + "'"};
    }
    std::string diff = halo_test::compare(out, expected);
    if (!diff.empty()) return {Outcome::Failure, std::string(two_outputs ? "(two outputs) " : "") + "wrong result: " + diff};
    if (int outside = storage.written_outside()) {
        return {Outcome::Failure, "stores outside the output's window, at " + std::to_string(outside) + " points"};
    }
    if (two_outputs) {
        int bad = 0;
        second.for_each_element([&](int sx, int sy) { bad += second(sx, sy) != (expected(sx, sy) ^ 0x5a5a); });
        if (bad) return {Outcome::Failure, "wrong result in the pipeline's second output at " + std::to_string(bad) + " points"};
    }
    return {Outcome::Match, ""};
}


}  // namespace

TEST_CASE("random pipelines under random schedules match the reference evaluator") {
    limit_memory();
    int cases = halo_test::env_int("HALO_FUZZ_CASES", 500);
    unsigned first = unsigned(halo_test::env_int("HALO_FUZZ_SEED", 1));
    halo_fuzz::FuzzCounts counts = halo_fuzz::run_fuzz_cases(first, cases, run_case);
    int run = halo_fuzz::total(counts);
    CHECK(counts[Outcome::Failure] == 0);
    // The generator must mostly make programs that run, and the reference must not call
    // many of them undefined (those skip the compiled code).
    CHECK(counts[Outcome::Match] >= run / 2);
    CHECK(counts[Outcome::Undefined] <= run / 4);
}

// Bounds inference asks for the box of one Func at a time (box_required, box_provided), which
// walk only the statements that touch it: on the loop nests of random pipelines under random
// schedules, every Func's box must be the one found by walking everything (boxes_required).
TEST_CASE("the box of one Func is its box among all, on random pipelines' loop nests") {
    auto text = [](const Box &b) {
        std::ostringstream os;
        os << (b.used ? "used" : "unused");
        for (auto &d : b.dims) os << " [" << d.min << ", " << d.max << "]";
        return os.str();
    };
    int compared = 0;
    for (unsigned seed = 1; seed <= 60; seed++) {
        halo_fuzz::RandomPipeline p(seed, false);
        p.build(2 + p.rand(5));
        LoweredPipeline lowered;
        try {
            p.schedule();
            LowerOptions options;
            options.stop_before_flattening = true;
            lowered = lower(p.output().function(), "boxes", options);
        } catch (const std::exception &) {
            continue;  // the generator's invalid schedules
        }
        for (auto &[name, box] : boxes_required(lowered.body)) {
            INFO("seed " << seed << ", Func " << name);
            CHECK(text(box_required(lowered.body, name)) == text(box));
            compared++;
        }
    }
    CHECK(compared >= 100);
}
