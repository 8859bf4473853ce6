#include "InferInputBounds.h"

#include <set>

#include "EvaluateInt.h"
#include "Lower.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

std::string field(const std::string &buffer, const char *name, size_t d) {
    return buffer + "." + name + "." + std::to_string(d);
}

// What one walk over the checks found: for each input and dimension, the needed [min, max],
// or why it could not be computed.
struct Needs {
    std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> ranges;
    std::map<std::string, std::string> unknown;  // input -> the variable its need depends on
};

// The checks sit in the lets that lead the lowered pipeline, before any loop or allocation:
// walks those lets (binding every one it can evaluate) and reads each input check's need.
class NeedsCollector {
public:
    IntEnvironment env;
    // The float Params' values, substituted before evaluating (the environment holds integers).
    std::map<std::string, Expr> float_params;
    Needs needs;

    void walk(const Stmt &s) {
        if (!s.defined()) return;
        if (auto l = s.as<LetStmt>()) {
            IntEvaluation v = eval(l->value);
            auto saved = env.find(l->name);
            std::optional<int64_t> shadowed;
            if (saved != env.end()) shadowed = saved->second;
            if (v.value) env[l->name] = *v.value;
            else env.erase(l->name);
            walk(l->body);
            if (shadowed) env[l->name] = *shadowed;
            else env.erase(l->name);
        } else if (auto b = s.as<Block>()) {
            walk(b->first);
            walk(b->rest);
        } else if (auto a = s.as<AssertStmt>()) {
            read_check(a);
        } else if (auto i = s.as<IfThenElse>(); i && i->then_case.as<AssertStmt>() && !i->else_case.defined()) {
            // A check of an input read only under a condition fixed for the call (a
            // specialization's): it needs nothing when the condition is false (one that
            // cannot be evaluated counts as true).
            IntEvaluation c = eval(i->condition);
            if (!c.value || *c.value) read_check(i->then_case.as<AssertStmt>());
        }
        // Anything else (loops, allocations, specializations) comes after the checks.
    }

private:
    IntEvaluation eval(const Expr &e) const {
        return evaluate_int(float_params.empty() ? e : substitute(float_params, e), env);
    }

    // halo_error_bounds(input, output, dimension, have min, have max, need min, need max)
    void read_check(const AssertStmt *a) {
        auto call = a->message.as<Call>();
        if (!call || call->name != "halo_error_bounds" || call->args.size() != 7) return;
        auto name = call->args[0].as<StringImm>();
        auto dim = call->args[2].as<IntImm>();
        internal_assert(name && dim) << "malformed input check " << a->message;
        auto &ranges = needs.ranges[name->value];
        if (ranges.size() <= size_t(dim->value)) ranges.resize(dim->value + 1, {0, -1});
        IntEvaluation lo = eval(call->args[5]), hi = eval(call->args[6]);
        if (lo.value && hi.value) {
            ranges[dim->value] = {*lo.value, *hi.value};
        } else {
            needs.unknown[name->value] = lo.value ? hi.unknown_variable : lo.unknown_variable;
        }
    }
};

// Rounds of: the regions read when every unbound input has the region it has now; each input
// takes the region read. True when a round changes nothing; false after max_rounds (the inputs
// still changing in `unsettled`).
bool settle_regions(std::map<std::string, InputRegion> &regions, const Stmt &body, const IntEnvironment &fixed,
                    const std::map<std::string, Expr> &float_params, int max_rounds, std::set<std::string> &unsettled) {
    for (int round = 0;; round++) {
        NeedsCollector c;
        c.env = fixed;
        c.float_params = float_params;
        for (auto &[name, r] : regions) {
            int64_t stride = 1;
            for (size_t d = 0; d < r.min.size(); d++) {
                c.env[field(name, "min", d)] = r.min[d];
                c.env[field(name, "extent", d)] = r.extent[d];
                c.env[field(name, "stride", d)] = stride;
                stride *= r.extent[d];
            }
        }
        c.walk(body);
        unsettled.clear();  // the inputs whose region changed in this round
        for (auto &[name, r] : regions) {
            auto why = c.needs.unknown.find(name);
            user_assert(why == c.needs.unknown.end())
                << "infer_input_bounds: the region read from input '" << name << "' depends on "
                << (why->second.empty() ? "values read from memory (or floats it cannot evaluate)"
                                        : "'" + why->second + "'")
                << ", which is not known before running; bind that input or Param first (or give the input a "
                   "buffer of the size it needs)";
            auto it = c.needs.ranges.find(name);
            if (it == c.needs.ranges.end() || r.param->buffer) continue;  // not read, or already bound
            for (size_t d = 0; d < it->second.size() && d < r.min.size(); d++) {
                auto [lo, hi] = it->second[d];
                int64_t extent = std::max<int64_t>(hi - lo + 1, 1);
                // The input's own constraints win, as in Halide's bounds query: a buffer of the
                // region read would fail in.dim(d).set_min(...) / set_extent(...) when run.
                // A min alone moves the start: the extent still reaches the last point read.
                if (d < r.param->constraints.size()) {
                    const BufferDimConstraint &k = r.param->constraints[d];
                    auto value = [&](const Expr &e, const char *what) {
                        IntEvaluation v = evaluate_int(float_params.empty() ? e : substitute(float_params, e), c.env);
                        user_assert(v.value) << "infer_input_bounds: the " << what << " constraint of input '" << name
                                             << "' dimension " << d << " (" << e << ") depends on '"
                                             << v.unknown_variable << "', which is not known before running; bind "
                                             << "that input or Param first, or bind '" << name << "' yourself";
                        return *v.value;
                    };
                    if (k.min.defined()) {
                        lo = value(k.min, "min");
                        extent = std::max<int64_t>(hi - lo + 1, 1);
                    }
                    if (k.extent.defined()) extent = value(k.extent, "extent");
                }
                if (lo != r.min[d] || extent != r.extent[d]) unsettled.insert(name);
                r.min[d] = lo;
                r.extent[d] = extent;
            }
        }
        if (unsettled.empty()) return true;
        if (round >= max_rounds) return false;
    }
}

}  // namespace

std::map<std::string, InputRegion> infer_input_regions(const std::vector<std::shared_ptr<FunctionContents>> &outputs,
                                                       const std::vector<int> &sizes) {
    LowerOptions opts;
    opts.stop_before_flattening = true;
    LoweredPipeline p = lower(outputs, "infer_input_bounds", opts);

    IntEnvironment fixed;  // the outputs' regions, integer Params and bound buffers
    std::map<std::string, Expr> float_params;
    for (auto &out : outputs) {
        user_assert(out->dimensions() == int(sizes.size()))
            << "infer_input_bounds: Func '" << out->name << "' has " << out->dimensions()
            << " dimensions but was given " << sizes.size() << " sizes";
        int64_t stride = 1;
        for (size_t d = 0; d < sizes.size(); d++) {
            fixed[field(out->name, "min", d)] = 0;
            fixed[field(out->name, "extent", d)] = sizes[d];
            fixed[field(out->name, "stride", d)] = stride;
            stride *= sizes[d];
        }
    }
    std::map<std::string, InputRegion> regions;
    for (auto &param : p.params) {
        if (!param->is_buffer) {
            if (param->type.is_float()) float_params[param->name] = FloatImm::make(param->type, param->scalar_as_double());
            else fixed[param->name] = param->scalar_as_int();
            continue;
        }
        if (param->is_fixed_buffer) continue;
        InputRegion r;
        r.param = param;
        std::shared_ptr<BufferContents> bound = param->buffer;
        for (int d = 0; d < param->dimensions; d++) {
            if (bound) {
                r.min.push_back(bound->dims[d].min);
                r.extent.push_back(bound->dims[d].extent);
            } else {
                // The first guess, for reads clamped to the input's own bounds: the output's extent.
                r.min.push_back(0);
                r.extent.push_back(size_t(d) < sizes.size() ? sizes[d] : 1);
            }
        }
        regions[param->name] = r;
    }

    // Reads clamped to an input's bounds depend on the input's own fields: iterate from the
    // guess until the needs stop changing (at once for reads that do not depend on them, after
    // one step for clamped ones).
    std::set<std::string> unsettled;
    auto guessed = regions;
    if (!settle_regions(regions, p.body, fixed, float_params, 8, unsettled)) {
        // A read such as clamp(x, 1, width - 1) shrinks the region by a point per round from
        // the output's extent. Halide's start instead: every input not bound yet empty, for up
        // to 16 rounds (there that read settles at once, on the one point at 1).
        regions = guessed;
        for (auto &[name, r] : regions) {
            if (!r.param->buffer) std::fill(r.extent.begin(), r.extent.end(), 0);
        }
        if (!settle_regions(regions, p.body, fixed, float_params, 16, unsettled)) {
            auto quoted = [](const std::vector<std::string> &names) {
                std::string s;
                for (auto &n : names) s += (s.empty() ? "'" : ", '") + n + "'";
                return s;
            };
            std::vector<std::string> funcs;
            for (auto &out : outputs) funcs.push_back(out->name);
            user_error << "infer_input_bounds of Func " << quoted(funcs) << ": the region read from input "
                       << quoted({unsettled.begin(), unsettled.end()})
                       << " does not settle (it depends on the input's own size, which depends on the region); "
                       << "bind the input yourself with a buffer of the size you want";
        }
    }
    return regions;
}

Buffer<> allocate_input_region(const std::string &name, const InputRegion &region) {
    std::vector<int> extents, mins;
    for (size_t d = 0; d < region.min.size(); d++) {
        user_assert(region.extent[d] <= INT32_MAX && region.min[d] >= INT32_MIN && region.min[d] <= INT32_MAX)
            << "infer_input_bounds: input '" << name << "' would need " << region.extent[d] << " points from "
            << region.min[d] << " in dimension " << d << ", more than a buffer can hold; realize a smaller size";
        extents.push_back(int(region.extent[d]));
        mins.push_back(int(region.min[d]));
    }
    Buffer<> b(region.param->type, extents, name);
    b.set_min(mins);
    return b;
}

}  // namespace halo
