#include "RedundancyReport.h"

#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <algorithm>
#include <set>
#include <sstream>

#include "DistinctNames.h"
#include "Environment.h"
#include "EvaluateInt.h"
#include "Lower.h"
#include "Simplify.h"
#include "VectorizeLoops.h"
#include "Substitute.h"
#include "dsl/Buffer.h"
#include "dsl/Func.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

// Provides keep only which Func they write; their values and indices do not change how many
// points run, and dropping them lets the simplifier remove lets nothing structural uses.
class StripProvides : public IRMutator {
public:
    using IRMutator::mutate;
    using IRMutator::visit;
    Stmt visit(const Provide *op) override { return Provide::make(op->name, {Expr(0)}, {}); }
    Stmt visit(const AssertStmt *) override { return Evaluate::make(0); }
    // A store guard (around the points a parallel ShiftInwards tile shares with the one before
    // it) that varies across the lanes of a vectorized loop skips only the stores: the vector
    // computes every lane, and they count as computed. One that does not vary across lanes, or
    // whose loop runs lane by lane (the vectorizer's call_runs_lane_by_lane), skips computing
    // the points too: an if like any other.
    Stmt visit(const IfThenElse *op) override {
        if (is_store_guard(op->condition) && !op->else_case.defined() && varies_across_lanes(op->condition) &&
            !runs_lane_by_lane(op->then_case)) {
            return mutate(op->then_case);
        }
        return IRMutator::visit(op);
    }
    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Vectorized) return IRMutator::visit(op);
        lane_varying_.insert(op->name);
        Stmt s = IRMutator::visit(op);
        lane_varying_.erase(op->name);
        return s;
    }
    Stmt visit(const LetStmt *op) override {
        if (!varies_across_lanes(op->value)) return IRMutator::visit(op);
        lane_varying_.insert(op->name);
        Stmt s = IRMutator::visit(op);
        lane_varying_.erase(op->name);
        return s;
    }

private:
    std::set<std::string> lane_varying_;  // vectorized loops' variables and lets of them
    bool varies_across_lanes(const Expr &e) const {
        for (auto &name : lane_varying_) {
            if (expr_uses_var(e, name)) return true;
        }
        return false;
    }
    static bool runs_lane_by_lane(const Stmt &s) {
        struct Finder : IRVisitor {
            bool found = false;
            using IRVisitor::visit;
            void visit(const Call *c) override {
                found |= call_runs_lane_by_lane(*c);
                IRVisitor::visit(c);
            }
        } finder;
        s.accept(&finder);
        return finder.found;
    }
};

struct Tally {
    std::map<std::string, int64_t> computed, allocations, total_bytes, max_bytes;
    void add(const Tally &o, int64_t times) {
        for (auto &[k, v] : o.computed) computed[k] += v * times;
        for (auto &[k, v] : o.allocations) allocations[k] += v * times;
        for (auto &[k, v] : o.total_bytes) total_bytes[k] += v * times;
        for (auto &[k, v] : o.max_bytes) max_bytes[k] = std::max(max_bytes[k], v);
    }
};

// Runs the loop skeleton with integer arithmetic, multiplying instead of iterating wherever
// a loop body does not depend on the loop variable.
class Counter {
public:
    // Loops whose bodies depend on their variable are run one iteration at a time: a bound on
    // those keeps a report of a huge region (near the ends of int32) from running for hours.
    static constexpr int64_t max_iterations = 4'000'000;
    IntEnvironment env;
    std::vector<std::string> loops;

    int64_t eval(const Expr &e) {
        IntEvaluation r = evaluate_int(e, env);
        if (r.value) return *r.value;
        user_assert(r.unknown_variable.empty())
            << "redundancy_report: the loop bounds depend on '" << r.unknown_variable
            << "', which is not known before running (bind every input first)";
        user_error << "redundancy_report: cannot evaluate " << e << " before running the pipeline";
        return 0;
    }

    Tally count(const Stmt &s) {
        Tally t;
        if (!s.defined()) return t;
        if (auto b = s.as<Block>()) {
            t.add(count(b->first), 1);
            t.add(count(b->rest), 1);
        } else if (auto l = s.as<LetStmt>()) {
            int64_t v = eval(l->value);
            auto it = env.find(l->name);
            bool shadows = it != env.end();
            int64_t saved = shadows ? it->second : 0;
            env[l->name] = v;
            t = count(l->body);
            if (shadows) env[l->name] = saved;
            else env.erase(l->name);
        } else if (auto f = s.as<For>()) {
            int64_t mn = eval(f->min), ex = eval(f->extent);
            loops.push_back(f->name);
            if (ex > 0 && !stmt_uses_var(f->body, f->name)) {
                env[f->name] = mn;
                t.add(count(f->body), ex);
            } else {
                for (int64_t i = 0; i < ex; i++) {
                    user_assert(++iterations_ <= max_iterations)
                        << "redundancy_report: the loop nest runs more than " << max_iterations
                        << " iterations that cannot be counted without running them (loop '" << f->name
                        << "' alone has " << ex << "); ask for a smaller output, or one whose regions do not "
                        << "reach the ends of int32";
                    env[f->name] = mn + i;
                    t.add(count(f->body), 1);
                }
            }
            env.erase(f->name);
            loops.pop_back();
        } else if (auto r = s.as<Realize>()) {
            int64_t points = 1;
            for (auto &b : r->bounds) points *= std::max<int64_t>(0, eval(b.extent));
            int64_t bytes = 0;
            for (auto &type : r->types) bytes += points * type.bytes();
            t.allocations[r->name] += 1;
            t.total_bytes[r->name] += bytes;
            t.max_bytes[r->name] = std::max(t.max_bytes[r->name], bytes);
            t.add(count(r->body), 1);
        } else if (auto p = s.as<ProducerConsumer>()) {
            t = count(p->body);
        } else if (auto i = s.as<IfThenElse>()) {
            if (eval(i->condition)) t = count(i->then_case);
            else t = count(i->else_case);
        } else if (auto p = s.as<Provide>()) {
            if (is_pure_stage(p->name)) t.computed[p->name] += 1;
        }
        return t;
    }

private:
    int64_t iterations_ = 0;
    // The innermost loop of f decides the stage; no loop at all means a 0-D pure definition.
    bool is_pure_stage(const std::string &f) {
        std::string prefix = f + ".s";
        for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
            if (it->compare(0, prefix.size(), prefix) == 0) return it->compare(0, prefix.size() + 2, prefix + "0.") == 0;
        }
        return true;
    }
};

// The inputs and scalar parameters a lowering read, as they were bound: part of a cache key.
std::string bound_params_key(const LoweredPipeline &p) {
    std::ostringstream key;
    for (auto &param : p.params) {
        key << param->name << ':';
        if (param->is_buffer && param->buffer) {
            for (auto &d : param->buffer->dims) key << d.min << ',' << d.extent << ',' << d.stride << ';';
        } else if (!param->is_buffer) {
            key << param->scalar_as_int();
        }
        key << '|';
    }
    return key.str();
}

Tally tally(const Func &output, const std::vector<int> &sizes, bool breadth_first, std::string *params_key = nullptr) {
    LowerOptions opts;
    opts.stop_before_flattening = true;
    opts.without_checks = true;
    opts.breadth_first = breadth_first;
    LoweredPipeline p = lower(output.function(), "report", opts);
    Counter c;
    const std::string &out = output.name();
    for (size_t d = 0; d < sizes.size(); d++) {
        c.env[out + ".min." + std::to_string(d)] = 0;
        c.env[out + ".extent." + std::to_string(d)] = sizes[d];
    }
    for (auto &param : p.params) {
        if (param->is_buffer && param->buffer) {
            for (size_t d = 0; d < param->buffer->dims.size(); d++) {
                c.env[param->name + ".min." + std::to_string(d)] = param->buffer->dims[d].min;
                c.env[param->name + ".extent." + std::to_string(d)] = param->buffer->dims[d].extent;
                c.env[param->name + ".stride." + std::to_string(d)] = param->buffer->dims[d].stride;
            }
        } else if (!param->is_buffer) {
            c.env[param->name] = param->scalar_as_int();
        }
    }
    if (params_key) *params_key = bound_params_key(p);
    Stmt skeleton = simplify(StripProvides().mutate(p.body));
    return c.count(skeleton);
}

// Which Funcs the breadth-first lowering inlines, and the sizes.
std::string inlining_key(const Func &output, const std::vector<int> &sizes) {
    std::ostringstream key;
    for (int s : sizes) key << s << 'x';
    // Lowering's copies: a Func sharing the output's name is not the output.
    for (auto &[name, f] : copy_with_distinct_names({output.function()}).env) {
        key << '|' << name << (inlined_when_breadth_first(*f, output.name()) ? ":i" : ":r");
    }
    return key.str();
}

}  // namespace

const RedundancyRow *RedundancyReport::find(const std::string &func) const {
    for (auto &r : rows) {
        if (r.func == func) return &r;
    }
    return nullptr;
}

std::string RedundancyReport::to_string() const {
    std::ostringstream s;
    char line[256];
    std::snprintf(line, sizeof line, "%-16s %14s %14s %9s %14s %8s %14s\n", "Func", "computed", "required",
                  "factor", "buffer bytes", "allocs", "total bytes");
    s << line;
    for (auto &r : rows) {
        std::snprintf(line, sizeof line, "%-16s %14lld %14lld %9.3f %14lld %8lld %14lld\n", r.func.c_str(),
                      (long long)r.computed, (long long)r.required, r.factor, (long long)r.buffer_bytes,
                      (long long)r.allocations, (long long)r.total_bytes);
        s << line;
    }
    return s.str();
}

struct RedundancyReportCache::Entries {
    std::map<std::string, Tally> breadth_first;
};
RedundancyReportCache::RedundancyReportCache() : entries(std::make_unique<Entries>()) {}
RedundancyReportCache::~RedundancyReportCache() = default;

RedundancyReport redundancy_report(const Func &output, const std::vector<int> &sizes, double warn_factor) {
    return redundancy_report(output, sizes, warn_factor, nullptr);
}

RedundancyReport redundancy_report(const Func &output, const std::vector<int> &sizes, double warn_factor,
                                   RedundancyReportCache *cache) {
    user_assert(int(sizes.size()) == output.dimensions())
        << "redundancy_report: Func '" << output.name() << "' has " << output.dimensions()
        << " dimensions but was given " << sizes.size() << " sizes";
    std::string params_key;
    Tally actual = tally(output, sizes, false, &params_key);
    Tally needed;
    if (cache) {
        std::string key = inlining_key(output, sizes) + '#' + params_key;
        auto hit = cache->entries->breadth_first.find(key);
        if (hit != cache->entries->breadth_first.end()) {
            needed = hit->second;
        } else {
            needed = tally(output, sizes, true);
            cache->entries->breadth_first.emplace(key, needed);
        }
    } else {
        needed = tally(output, sizes, true);
    }
    RedundancyReport report;
    for (auto &[name, required] : needed.computed) {
        RedundancyRow row;
        row.func = name;
        row.required = required;
        row.computed = actual.computed.count(name) ? actual.computed[name] : 0;
        row.factor = required ? double(row.computed) / double(required) : 0;
        row.buffer_bytes = actual.max_bytes[name];
        row.allocations = actual.allocations[name];
        row.total_bytes = actual.total_bytes[name];
        report.rows.push_back(row);
    }
    // Output last, others by name (a stable order).
    std::stable_partition(report.rows.begin(), report.rows.end(),
                          [&](const RedundancyRow &r) { return r.func != output.name(); });
    static std::mutex warned_mutex;
    static std::set<std::string> warned;
    for (auto &r : report.rows) {
        if (r.factor <= warn_factor) continue;
        std::lock_guard<std::mutex> lock(warned_mutex);
        if (!warned.insert(output.name() + "/" + r.func).second) continue;
        std::fprintf(stderr,
                     "halo warning: under this schedule of '%s', Func '%s' is computed %.1f times over "
                     "(%lld points for %lld needed). Check the loop order around its compute_at level: a "
                     "loop outside the tiles that the Func does not depend on (e.g. output channels) "
                     "makes every tile recompute it.\n",
                     output.name().c_str(), r.func.c_str(), r.factor, (long long)r.computed,
                     (long long)r.required);
    }
    return report;
}

}  // namespace halo
