#include "InputChecks.h"

#include "Bounds.h"
#include "BoundsInference.h"
#include "BoundsOverflowChecks.h"
#include "LetStmts.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"

#include <map>
#include <optional>
#include <set>

namespace halo {

namespace {

Expr field(const std::string &buffer, const char *name, int d) {
    return Variable::make(Int(32), buffer + "." + name + "." + std::to_string(d));
}

// A split by more than the extent of the loop it splits (vectorize(xi, 16) of the inner loop of
// a tile 8 wide): with ShiftInwards, its loop shifts to start before the tile, so the first
// tile writes before the output's min however large the output is. Names the directive for each
// such split of out's pure definition in dimension d ("" if there is none). (Updates cannot
// shift inwards: their splits guard.)
std::string oversized_split_hint(const FunctionContents &out, int d) {
    std::string hint;
    const StageSchedule &sched = out.stage(0).schedule;
    std::set<std::string> of_dimension = {out.args[d]};
    std::map<std::string, int64_t> width;  // loops of dimension d of a known constant extent
    for (const Split &s : sched.splits) {
        bool ours = s.kind == Split::FuseVars ? of_dimension.count(s.inner) || of_dimension.count(s.outer)
                                              : of_dimension.count(s.old_var) > 0;
        auto known = width.find(s.old_var);
        std::optional<int64_t> w;
        if (known != width.end() && s.kind != Split::FuseVars) w = known->second;
        // Every name the split consumes or defines is forgotten, then what it defines in this
        // dimension is added back (a schedule may reuse a name: split(x, x, xi, 8)).
        for (const std::string &name : {s.old_var, s.outer, s.inner}) {
            width.erase(name);
            of_dimension.erase(name);
        }
        if (!ours) continue;
        if (s.kind == Split::FuseVars) {  // a fused loop's extent is not followed
            of_dimension.insert(s.old_var);
            continue;
        }
        of_dimension.insert(s.outer);
        if (s.kind == Split::RenameVar) {
            if (w) width[s.outer] = *w;
            continue;
        }
        of_dimension.insert(s.inner);
        const int64_t *f = as_const_int(s.factor);
        if (!f) continue;
        width[s.inner] = *f;
        if (w) width[s.outer] = (*w + *f - 1) / *f;
        if (!w || *f <= *w || s.tail == TailStrategy::GuardWithIf || s.tail == TailStrategy::RoundUp) continue;
        std::string directive = "split(" + s.old_var + ", " + s.outer + ", " + s.inner + ", " + std::to_string(*f) + ")";
        for (const Dim &dim : sched.dims) {
            if (dim.var != s.inner) continue;
            if (dim.for_type == ForType::Vectorized) directive = "vectorize(" + s.old_var + ", " + std::to_string(*f) + ")";
            if (dim.for_type == ForType::Unrolled) directive = "unroll(" + s.old_var + ", " + std::to_string(*f) + ")";
        }
        hint += (hint.empty() ? "" : "; ") + out.name + "." + directive + " splits " + s.old_var + ", a loop of " +
                std::to_string(*w) + " points, by " + std::to_string(*f) + ": a split by more than its loop's " +
                "extent shifts the loop before the loop's start (TailStrategy::ShiftInwards), to before the " +
                "output's min at the first tile; use a factor of at most " + std::to_string(*w) + ", or a wider tile";
    }
    return hint;
}

// Why the output's loops could reach outside the requested region in dimension d: the
// schedule and definitions that can make them.
std::string output_overreach_hint(const FunctionContents &out, int d) {
    const std::string oversized = oversized_split_hint(out, d);
    std::string hint = oversized;
    auto add = [&](const std::string &h) { hint += (hint.empty() ? "" : "; ") + h; };
    for (auto &b : out.schedule.bounds) {
        if (b.var != out.args[d]) continue;
        if (b.modulus.defined()) {
            add(out.name + (b.remainder.defined() ? ".align_bounds(" : ".align_extent(") + b.var +
                ", ...) grows its loops to the alignment, so the buffer's min and extent must be aligned as "
                "it asks; realize an aligned region, or align a Func the output reads instead");
        }
        if (b.extent.defined()) {
            add(out.name + (b.min.defined() ? ".bound(" : ".bound_extent(") + b.var +
                ", ...) fixes its loops, so the buffer must be exactly the bound's region");
        }
    }
    bool shifts = false, rounds_up = false;
    for (int k = 0; k < out.stages(); k++) {
        const std::vector<Split> &splits = out.stage(k).schedule.splits;
        std::set<std::string> inside_shift = loops_from_shifted_outer_loops(splits, k == 0);
        for (auto &s : splits) {
            if (s.kind != Split::SplitVar) continue;
            rounds_up |= s.tail == TailStrategy::RoundUp && !inside_shift.count(s.old_var);
            shifts |= s.tail == TailStrategy::ShiftInwards || (s.tail == TailStrategy::Auto && k == 0);
        }
    }
    if (rounds_up) {
        add("a split of the output with TailStrategy::RoundUp writes up to a multiple of the split "
            "factor, so the output's size must be a multiple of it; use TailStrategy::GuardWithIf or "
            "request such a size");
    }
    if (shifts && oversized.empty()) {
        add("a split of the output with TailStrategy::ShiftInwards (the default) needs the output to "
            "be at least as large as the split factor; use TailStrategy::GuardWithIf or request a "
            "larger output");
    }
    if (out.stages() > 1) {
        add("its update definitions read or write " + out.name + " there, and an output is computed "
            "only over its buffer: request a region that covers what the updates touch, or compute "
            "the updates in another Func and copy the wanted part to the output");
    }
    if (hint.empty()) hint = "request a larger output";
    return hint;
}

// bound() on an output fixes its loops: the requested region must lie inside the bound. And
// the output's loops may write outside the requested region (a split with ShiftInwards when
// the output is narrower than the factor, RoundUp, bound(), or updates that touch the output
// outside it); never outside the buffer.
void add_output_checks(const FunctionContents &output, const Stmt &s, const LetValues &known, std::vector<Stmt> &checks) {
    for (int d = 0; d < output.dimensions(); d++) {
        for (auto &b : output.schedule.bounds) {
            if (b.var != output.args[d] || !b.extent.defined()) continue;
            Expr have_min = field(output.name, "min", d);
            Expr have_max = simplify(have_min + field(output.name, "extent", d) - 1);
            Interval computed = apply_bound(b, Interval(have_min, have_max));
            Expr lo = simplify(computed.min), hi = simplify(computed.max);
            Expr msg = Call::make(Int(32), "halo_error_output_bound",
                                  {StringImm::make(output.name), StringImm::make(b.var),
                                   StringImm::make(b.directives(output.name)),
                                   exact_int64(lo), exact_int64(hi),
                                   exact_int64(have_min), exact_int64(have_max)},
                                  Call::Extern);
            checks.push_back(AssertStmt::make(have_min >= lo && have_max <= hi, msg));
        }
    }
    Box written = box_provided(s, output.name, {}, known);
    for (size_t d = 0; d < written.dims.size(); d++) {
        internal_assert(written.dims[d].is_bounded()) << "unbounded writes to the output " << output.name;
        Expr lo = simplify(written.dims[d].min, known), hi = simplify(written.dims[d].max, known);
        Expr have_min = field(output.name, "min", int(d));
        Expr have_max = simplify(have_min + field(output.name, "extent", int(d)) - 1);
        Expr msg = Call::make(Int(32), "halo_error_output_bounds",
                              {StringImm::make(output.name), StringImm::make(output.args[d]), exact_int64(have_min),
                               exact_int64(have_max), exact_int64(lo), exact_int64(hi),
                               StringImm::make(output_overreach_hint(output, int(d)))},
                              Call::Extern);
        checks.push_back(guard_by_use(written, AssertStmt::make(lo >= have_min && hi <= have_max, msg)));
    }
}

}  // namespace

Stmt add_input_checks(const Stmt &whole, const std::vector<std::shared_ptr<ParameterContents>> &params,
                      const std::vector<const FunctionContents *> &outputs) {
    // Whom the input's region is for: with several outputs the checked region is the union of
    // what each needs (naming one of them, with the union, blamed it for the others' reads).
    std::string producing = "output '" + outputs[0]->name + "'";
    if (outputs.size() > 1) {
        producing = "outputs ";
        for (size_t i = 0; i < outputs.size(); i++) {
            producing += std::string(i == 0 ? "" : i + 1 == outputs.size() ? " and " : ", ") + "'" + outputs[i]->name + "'";
        }
    }
    // The checks go inside the leading bounds lets, so they can name the stages' bounds
    // instead of expanding them (expansion grows exponentially with the pipeline's depth).
    // (Not through realizations: the checks must run before any buffer is allocated.)
    LetList lets;
    Stmt s = peel_leading_lets(whole, lets, false);
    LetValues known = let_values(lets);
    auto boxes = boxes_required(s, {}, known);
    std::vector<Stmt> checks;
    for (const FunctionContents *o : outputs) add_output_checks(*o, s, known, checks);
    for (auto &p : params) {
        if (!p->is_buffer) continue;
        auto it = boxes.find(p->name);
        if (it == boxes.end()) continue;
        const Box &b = it->second;
        for (size_t d = 0; d < b.dims.size(); d++) {
            user_assert(b.dims[d].is_bounded())
                << "Input '" << p->name << "' is read at an index the compiler cannot bound in "
                << "dimension " << d << " (it depends on data or is otherwise unbounded), so the "
                << "pipeline cannot check the input covers it. Clamp the index (clamp(e, lo, hi)) or "
                << "read through a boundary condition (BoundaryConditions::repeat_edge(" << p->name
                << ") and friends)";
            Expr need_min = simplify(b.dims[d].min, known), need_max = simplify(b.dims[d].max, known);
            Expr have_min = field(p->name, "min", int(d));
            Expr have_max = simplify(have_min + field(p->name, "extent", int(d)) - 1);
            Expr msg = Call::make(Int(32), "halo_error_bounds",
                                  {StringImm::make(p->name), StringImm::make(producing), Expr(int32_t(d)),
                                   exact_int64(have_min), exact_int64(have_max), exact_int64(need_min),
                                   exact_int64(need_max)},
                                  Call::Extern);
            checks.push_back(guard_by_use(b, AssertStmt::make(need_min >= have_min && need_max <= have_max, msg)));
        }
    }
    checks.push_back(s);
    return wrap_lets(Block::make(checks), lets);
}

namespace {

// A Tuple-valued output has a buffer per value (f.0, f.1, ...) and the pipeline's region is
// theirs: f.min.d and f.extent.d (and f.stride.d, for constraints) stand for value 0's fields,
// and the other buffers must cover the same region.
Stmt tuple_output_fields_of(const Stmt &body, const FunctionContents &output) {
    int n = output.outputs();
    if (n == 1) return body;
    std::vector<Stmt> checks;
    for (int i = 1; i < n; i++) {
        std::string b0 = tuple_buffer_name(output.name, 0, n), bi = tuple_buffer_name(output.name, i, n);
        for (int d = 0; d < output.dimensions(); d++) {
            Expr min0 = field(b0, "min", d), extent0 = field(b0, "extent", d);
            Expr min = field(bi, "min", d), extent = field(bi, "extent", d);
            Expr msg = Call::make(Int(32), "halo_error_realization_mismatch",
                                  {StringImm::make(output.name), Expr(i), Expr(d), min0, extent0, min, extent},
                                  Call::Extern);
            checks.push_back(AssertStmt::make(min == min0 && extent == extent0, msg));
        }
    }
    checks.push_back(body);
    Stmt s = Block::make(checks);
    for (int d = output.dimensions(); d-- > 0;) {
        for (const char *f : {"stride", "extent", "min"}) {
            s = LetStmt::make(output.name + "." + f + "." + std::to_string(d),
                              field(tuple_buffer_name(output.name, 0, n), f, d), s);
        }
    }
    return s;
}

}  // namespace

Stmt define_tuple_output_fields(const Stmt &body, const std::vector<const FunctionContents *> &outputs) {
    Stmt s = body;
    for (const FunctionContents *o : outputs) s = tuple_output_fields_of(s, *o);
    return s;
}

}  // namespace halo
