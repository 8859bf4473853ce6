// The redundancy report: for a scheduled pipeline and an output size, before anything runs,
// how many points of each Func the schedule computes against how many the output strictly
// needs (each Func computed once over its required region), and the memory its buffers take.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace halo {

class Func;

struct RedundancyRow {
    std::string func;
    int64_t computed = 0;      // points of the pure definition evaluated under the schedule
    int64_t required = 0;      // points the output needs, each computed once
    double factor = 0;         // computed / required: the recompute factor
    int64_t buffer_bytes = 0;  // largest single allocation of its buffer (per tile if tiled)
    int64_t allocations = 0;   // how many times its buffer is allocated
    int64_t total_bytes = 0;   // bytes allocated over the whole run
};

struct RedundancyReport {
    std::vector<RedundancyRow> rows;  // in realization order, output last
    const RedundancyRow *find(const std::string &func) const;
    // A printable table.
    std::string to_string() const;
};

// Builds the report for realizing `output` over [0, sizes). Inputs bound to ImageParams are
// used for their bounds only. Prints a warning (once per Func) for any Func computed more
// than `warn_factor` times over.
RedundancyReport redundancy_report(const Func &output, const std::vector<int> &sizes,
                                   double warn_factor = 4.0);

// The breadth-first half of a report (how many points each Func needs) is a lowering of its
// own, and depends only on the algorithm, which Funcs are inlined, the sizes and the inputs'
// shapes. Reports of trial schedules of one pipeline (the automatic scheduler's) share it
// through a cache, which must not outlive a change to the pipeline's definitions.
class RedundancyReportCache {
public:
    RedundancyReportCache();
    ~RedundancyReportCache();
    struct Entries;
    std::unique_ptr<Entries> entries;
};
RedundancyReport redundancy_report(const Func &output, const std::vector<int> &sizes, double warn_factor,
                                   RedundancyReportCache *cache);

}  // namespace halo
