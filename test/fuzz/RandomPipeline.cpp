// The algorithm half of the random pipeline generator: which stages there are and what they
// compute. Every stage is an int32 Func of (x, y); narrow, unsigned, 64-bit and float
// arithmetic happens inside a stage's expression.
#include "RandomPipeline.h"

#include <climits>
#include <algorithm>
#include <cstdint>
#include <set>

#include "TestUtil.h"
#include "dsl/IRVisitor.h"
#include "lower/Environment.h"

using namespace halo;

namespace halo_fuzz {

// The Funcs f's definitions call directly (itself excluded).
std::vector<std::shared_ptr<FunctionContents>> called_funcs(const FunctionContents &f) {
    struct Calls : IRVisitor {
        std::vector<std::shared_ptr<FunctionContents>> funcs;
        void visit(const Call *op) override {
            if (op->call_type == Call::Halo) {
                if (auto g = op->func.lock()) funcs.push_back(g);
            }
            IRVisitor::visit(op);
        }
    } calls;
    for_each_expr(f, [&](const Expr &e) { e.accept(&calls); });
    std::vector<std::shared_ptr<FunctionContents>> out;
    for (auto &g : calls.funcs) {
        if (g.get() != &f) out.push_back(g);
    }
    return out;
}

RandomPipeline::RandomPipeline(unsigned seed, bool extreme_regions)
    : rng_(seed), side_rng_(seed * 2654435761u + 12345u), where_rng_(seed * 3266489917u + 4242u),
      name_rng_(seed * 2246822519u + 777u), extreme_regions_(extreme_regions), input_(std::vector<int>{24, 20}, "input") {
    input_.set_min(-3, -2);
    halo_test::fill_random(input_, -50, 50, seed);
    // The input's layout comes from the seed (not from rng_: the other choices of a seed stay),
    // across every target fuzz_target picks.
    strided_input_ = (seed / 3) % 6 == 1;
    if ((seed / 3) % 6 == 4) {
        // The same values in column-major memory, read as a Buffer used directly: a fixed buffer
        // strided in x, which the pipeline is compiled for as it lies.
        Buffer<int> yx(std::vector<int>{20, 24}, "input");
        yx.set_min(-2, -3);
        Buffer<int> column_major = yx.transposed(0, 1);
        column_major.copy_from(input_);
        input_ = column_major;
        transposed_fixed_input_ = true;
    }
}

void RandomPipeline::build(int n) {
    Func clamped("in_clamped");
    Expr cx = clamp(Expr(x_), -3, 20), cy = clamp(Expr(y_), -2, 17);
    if (strided_input_) {
        column_major_.resize(24 * 20);
        input_.for_each_element([&](int xx, int yy) { column_major_[size_t((xx + 3) * 20 + yy + 2)] = input_(xx, yy); });
        const halo_dimension_t shape[] = {{-3, 24, 20, 0}, {-2, 20, 1, 0}};
        input_param_.dim(0).set_stride(Expr());
        input_param_.set(Buffer<int>(column_major_.data(), 2, shape, "input_column_major"));
        clamped(x_, y_) = input_param_(cx, cy);
    } else {
        clamped(x_, y_) = input_(cx, cy);
    }
    stages_.push_back({clamped, {}, {}, true});
    log_ << "input: 24x20 at (-3, -2)"
         << (strided_input_ ? ", column-major (dim(0).set_stride(Expr()))" : transposed_fixed_input_ ? ", a column-major Buffer read directly" : "")
         << "\nin_clamped(x, y) = input(clamp(x, -3, 20), clamp(y, -2, 17))\n";
    for (int i = 1; i <= n; i++) {
        int a = rand(i), b = rand(i);
        // One stage in six is named like an earlier one (as a helper that names its Funcs,
        // called twice, does): lowering names its copies apart, and every reference must follow.
        int named_as = i > 1 && name_rand(6) == 0 ? 1 + name_rand(i - 1) : i;
        PipelineStage st{Func("s" + std::to_string(named_as)), {}, {}, true};
        if (named_as != i) log_ << "(stage " << i << " is named s" << named_as << " too)\n";
        if (side_rand(8) == 0) add_param_select(st, a, b);
        else switch (rand(11)) {
        case 10: add_tuple_stage(st, a, b); break;
        case 0:
        case 1:
        case 2:
        case 3: add_pointwise_or_stencil(st, a, b); break;
        case 4:
        case 5:
        case 6: add_update_stage(st, a, b); break;
        default: add_typed_arithmetic(st, a, b); break;
        }
        // The stages it really reads (some definitions use only one of a and b).
        // Calls through the hidden Func of an inline sum() count too. By identity: two
        // stages may share a name.
        std::vector<std::shared_ptr<FunctionContents>> work = called_funcs(*st.f.function());
        std::set<const FunctionContents *> seen;
        while (!work.empty()) {
            auto callee = work.back();
            work.pop_back();
            if (!seen.insert(callee.get()).second) continue;
            bool is_stage = false;
            for (int j = 0; j < i; j++) {
                if (stages_[j].f.function() != callee) continue;
                is_stage = true;
                if (std::find(st.inputs.begin(), st.inputs.end(), j) == st.inputs.end()) st.inputs.push_back(j);
            }
            if (!is_stage) {
                for (auto &f : called_funcs(*callee)) work.push_back(f);
            }
        }
        stages_.push_back(st);
    }
    // An output whose updates write outside the requested region is an error (as in Halide):
    // such a stage gets a pointwise consumer as the output (as does a Tuple-valued one: the
    // harness compares one buffer).
    if (!stages_.back().output_safe_updates || stages_.back().is_tuple) {
        int last = int(stages_.size()) - 1;
        PipelineStage st{Func("out"), {last}, {}, true};
        st.f(x_, y_) = read(last, x_, y_) + 1;
        log_ << "out(x, y) = " << stages_[last].f.name() << "(x, y) + 1\n";
        stages_.push_back(st);
    }
}

// A select on Params whose arms read different stages and regions: on a bool Param, or on
// k > c for an int Param k (with an implying condition k > c + d the schedule may specialize on).
void RandomPipeline::add_param_select(PipelineStage &st, int a, int b) {
    Func f = st.f;
    Var x = x_, y = y_;
    std::string F = f.name(), A = stages_[a].f.name(), B = stages_[b].f.name();
    std::string cond_text;
    // Params by the stage's index: two stages may share a name, never a Param.
    std::string S = "stage" + std::to_string(stages_.size());
    if (side_rand(2) == 0) {
        Param<bool> q("q_" + S);
        st.param_condition_holds = side_rand(2) == 0;
        q.set(st.param_condition_holds);
        bool_params_.push_back(q);
        st.param_condition = q;
        cond_text = q.name() + " (" + (st.param_condition_holds ? "true" : "false") + ")";
    } else {
        Param<int> k("k_" + S);
        int value = side_rand(10), c = side_rand(10), d = side_rand(4);
        k.set(value);
        params_.push_back(k);
        st.param_condition = Expr(k) > c;
        st.param_condition_holds = value > c;
        st.implying_condition = Expr(k) > c + d;
        st.implying_condition_holds = value > c + d;
        cond_text = k.name() + " > " + std::to_string(c) + " (" + k.name() + " = " + std::to_string(value) + ")";
    }
    // Sometimes the other arm is undef(): the stage stores nothing unless the condition holds,
    // and lowering tests the condition once, outside its loops (lower/HoistInvariantIfs.h).
    if (side_rand(3) == 0) {
        f(x, y) = select(st.param_condition, read(a, x - 1, y) * 2 + read(a, x + 2, y + 1), undef<int>());
        log_ << F << "(x, y) = select(" << cond_text << ", " << A << "(x-1, y) * 2 + " << A << "(x+2, y+1), undef)\n";
        return;
    }
    f(x, y) = select(st.param_condition, read(a, x - 1, y) * 2 + read(a, x + 2, y + 1), read(b, x, y + 3) - 3);
    log_ << F << "(x, y) = select(" << cond_text << ", " << A << "(x-1, y) * 2 + " << A << "(x+2, y+1), " << B
         << "(x, y+3) - 3)\n";
}

void RandomPipeline::add_pointwise_or_stencil(PipelineStage &st, int a, int b) {
    Func f = st.f;
    Var x = x_, y = y_;
    std::string F = f.name(), A = stages_[a].f.name(), B = stages_[b].f.name();
    switch (rand(12)) {
    case 11: {
        // Two rows of A chosen by B's values (local Laplacian's level lookup): A's region spans
        // every row the lookup may choose, whatever rows are asked for (auto_schedule inlines
        // A where its reads are fewer than that region).
        Expr row = clamp(read(b, x, y) % 16, 0, 14);
        f(x, y) = read(a, x, row) - read(a, x + 1, row + 1);
        log_ << F << "(x, y) = " << A << "(x, r) - " << A << "(x + 1, r + 1), r = clamp(" << B
             << "(x, y) % 16, 0, 14)\n";
        break;
    }
    case 9:
        // Values clamped by the definition: an offset for the stages after it.
        f(x, y) = clamp(read(b, x, y) % 9, -3, 4);
        st.small_values = true;
        log_ << F << "(x, y) = clamp(" << B << "(x, y) % 9, -3, 4)\n";
        break;
    case 10: {
        // A read at positions offset by another stage's values, not clamped here: the
        // reader's region comes from the offset stage's value bounds, whether that stage is
        // inlined or computed.
        int c = -1;
        for (int j = int(stages_.size()) - 1; j >= 0 && c < 0; j--) {
            if (stages_[j].small_values) c = j;
        }
        if (c < 0) c = b;  // none yet: an ordinary read
        std::string C = stages_[c].f.name();
        Expr off = stages_[c].small_values ? read(c, x, y) : clamp(read(c, x, y), -3, 4);
        f(x, y) = read(a, x + off, y - off) + read(b, x, y);
        log_ << F << "(x, y) = " << A << "(x + " << C << "(x, y), y - " << C << "(x, y)) + " << B << "(x, y)"
             << (stages_[c].small_values ? "" : " (offset clamped to [-3, 4])") << "\n";
        break;
    }
    case 0:
        if (where_rand(4) == 0) {
            // A random number of the point (the same in every schedule) and a mux.
            f(x, y) = read(a, x, y) * 3 + cast<int>(random_uint() % 17) + mux(read(b, x, y) % 3, {x, y, read(b, x, y)});
            log_ << F << "(x, y) = " << A << "(x, y) * 3 + random_uint() % 17 + mux(" << B << " % 3, {x, y, " << B
                 << "})\n";
            break;
        }
        f(x, y) = read(a, x, y) * 3 + read(b, x, y);
        log_ << F << "(x, y) = " << A << "(x, y) * 3 + " << B << "(x, y)\n";
        break;
    case 1:
        f(x, y) = read(a, x - 1, y) + read(a, x + 1, y + 1) - read(b, x, y - 1);
        log_ << F << "(x, y) = " << A << "(x-1, y) + " << A << "(x+1, y+1) - " << B << "(x, y-1)\n";
        break;
    case 2:
        f(x, y) = read(a, 2 * x, y) + read(a, 2 * x + 1, y) / 2;
        log_ << F << "(x, y) = " << A << "(2x, y) + " << A << "(2x+1, y) / 2\n";
        break;
    case 3:
        if (where_rand(3) == 0) {  // the same as shifts, which bounds inference bounds too
            f(x, y) = read(a, x >> 1, y) + read(b, (x << 1) - x, (y + 1) >> 1) % 7;
            log_ << F << "(x, y) = " << A << "(x >> 1, y) + " << B << "((x << 1) - x, (y+1) >> 1) % 7\n";
            break;
        }
        f(x, y) = read(a, x / 2, y) + read(b, x, (y + 1) / 2) % 7;
        log_ << F << "(x, y) = " << A << "(x/2, y) + " << B << "(x, (y+1)/2) % 7\n";
        break;
    case 4: {
        RDom r(0, 2, -1, 2, "r" + F);
        f(x, y) = sum(read(a, x + r.x, y + r.y)) - read(b, x, y);
        log_ << F << "(x, y) = sum(" << A << "(x + r.x, y + r.y)) - " << B << "(x, y), r in [0, 1] x [-1, 0]\n";
        break;
    }
    case 5:
        if (coin()) {
            // undef() inside an expression: stored only where the select picks A (elsewhere an
            // intermediate holds zero, an output what its buffer held).
            f(x, y) = select(read(a, x, y) > read(b, x, y), read(a, x, y), undef<int>()) * 2 + 1;
            log_ << F << "(x, y) = select(" << A << " > " << B << ", " << A << ", undef) * 2 + 1\n";
            break;
        }
        f(x, y) = select(read(a, x, y) > read(b, x, y), read(a, x, y), read(b, x + 1, y) - 1);
        log_ << F << "(x, y) = select(" << A << " > " << B << ", " << A << ", " << B << "(x+1, y) - 1)\n";
        break;
    case 6:
        // A read whose position depends on data, clamped to a known range.
        f(x, y) = read(a, clamp(read(b, x, y), -5, 25), y) + x;
        log_ << F << "(x, y) = " << A << "(clamp(" << B << "(x, y), -5, 25), y) + x\n";
        break;
    default:
        f(x, y) = max(read(a, y, x), read(b, x, y)) + min(read(a, x, y), 5);
        stages_[a].read_transposed = true;
        log_ << F << "(x, y) = max(" << A << "(y, x), " << B << "(x, y)) + min(" << A << ", 5)\n";
        break;
    }
}

// Stages with update definitions: reductions, scans and recurrences that read their own Func
// at other points, scatters to data-dependent positions.
void RandomPipeline::add_update_stage(PipelineStage &st, int a, int b) {
    Func f = st.f;
    Var x = x_, y = y_;
    std::string F = f.name(), A = stages_[a].f.name(), B = stages_[b].f.name();
    int lo = rand(7) - 4, n = 1 + rand(12);
    RDom r(lo, n, "r" + F);
    std::string range = "r in [" + std::to_string(lo) + ", " + std::to_string(lo + n - 1) + "]";
    f(x, y) = read(b, x, y);
    log_ << F << "(x, y) = " << B << "(x, y)\n";
    switch (rand(9)) {
    case 6: {  // a reduction over a predicated RDom (RDom::where) whose predicate reads y
        RDom k(-2, 5, "k" + F);
        // Sometimes as likely(...), which must not be taken for a GuardWithIf guard; sometimes
        // also reading f itself (the sum so far: the order of k matters, and no rfactor).
        bool hinted = coin(), reads_self = rand(3) == 0;
        Expr condition = (k.x + y) % 2 == 0;
        // Sometimes a bound on k too, which narrows the region the update reads.
        int k_max = where_rand(3) == 0 ? where_rand(3) - 1 : 2;
        // In one of six equivalent forms, or one that lets K + 1 through when K is even, which
        // bounds inference solves for k.
        const int form = k_max < 2 ? where_rand(7) : 0;
        const char *forms[] = {"k <= K",      "k + 2 <= K + 2", "2 * k < 2 * K + 2",        "-k >= -K",
                               "min(k, 5) <= K", "k == min(k, K)", "(k + 4) / 2 <= (K + 4) / 2"};
        if (k_max < 2) {
            Expr bound = form == 0   ? k.x <= k_max
                         : form == 1 ? k.x + 2 <= k_max + 2
                         : form == 2 ? 2 * k.x < 2 * k_max + 2
                         : form == 3 ? -k.x >= -k_max
                         : form == 4 ? min(k.x, 5) <= k_max
                         : form == 5 ? k.x == min(k.x, k_max)
                                     : (k.x + 4) / 2 <= (k_max + 4) / 2;
            condition = condition && bound;
        }
        if (reads_self) condition = condition && f(x, y) < 40;
        k.where(hinted ? likely(condition) : condition);
        Expr term = read(a, x + k.x, y);
        if (where_rand(4) != 0) {
            Func w("w" + F);
            w(x, y) = read(a, x, y) * 3 - y;
            log_ << w.name() << "(x, y) = " << A << "(x, y) * 3 - y\n";
            term = w(x + k.x, y);
            st.where_helper = w;
            st.where_rvar = k.x;
            A = w.name();
        }
        f(x, y) += term * (k.x + 3);
        log_ << F << "(x, y) += " << A << "(x + k, y) * (k + 3), k in [-2, 2] where "
             << (hinted ? "likely(" : "(") << "(k + y) % 2 == 0"
             << (k_max < 2 ? " && " + std::string(forms[form]) + ", K = " + std::to_string(k_max) : std::string())
             << (reads_self ? " && " + F + "(x, y) < 40" : "") << ")\n";
        st.update_has_x = {true};
        st.rfactored = !reads_self && maybe_rfactor(f, k);
        return;
    }
    case 7:  // a diagonal update: loops over x only, writes (x, x)
        f(x, x) = f(x, x) * 2 + read(a, x, x + 1) % 5;
        log_ << F << "(x, x) = " << F << "(x, x) * 2 + " << A << "(x, x + 1) % 5\n";
        st.update_has_x = {true};
        st.updates_without_y = {0};
        st.output_safe_updates = false;
        return;
    case 0: {
        RDom k(-1, 3, "k" + F);
        f(x, y) += read(a, x + k.x, y) * (k.x + 2);
        log_ << F << "(x, y) += " << A << "(x + k, y) * (k + 2), k in [-1, 1]\n";
        st.update_has_x = {true};
        st.rfactored = maybe_rfactor(f, k);
        return;
    }
    case 1:
        if (coin()) {  // an update that keeps the value where the select picks undef()
            f(x, y) += select((x + y) % 3 == 0, read(a, x, y + 1), undef<int>());
            log_ << F << "(x, y) += select((x + y) % 3 == 0, " << A << "(x, y+1), undef)\n";
            st.update_has_x = {true};
            return;
        }
        f(x, y) = max(f(x, y), f(x, y) / 2 + read(a, x, y + 1));
        log_ << F << "(x, y) = max(" << F << "(x, y), " << F << "(x, y) / 2 + " << A << "(x, y+1))\n";
        st.update_has_x = {true};
        return;
    case 8:  // each iteration reads and writes its own point: its RVar may run in parallel
        f(r, y) = f(r, y) * 2 + read(a, r, y);
        log_ << F << "(r, y) = " << F << "(r, y) * 2 + " << A << "(r, y), " << range << "\n";
        st.update_rvar_race_free = true;
        break;
    case 2:  // a scan (over one point, no iteration reads another's: as Halide proves it)
        f(r, y) = f(r - 1, y) / 2 + read(a, r, y);
        log_ << F << "(r, y) = " << F << "(r - 1, y) / 2 + " << A << "(r, y), " << range << "\n";
        st.update_rvar_race_free = n == 1;
        break;
    case 3:  // a recurrence reading two earlier points
        f(r, y) = (f(r - 1, y) + f(r - 2, y)) % 1000;
        log_ << F << "(r, y) = (" << F << "(r - 1, y) + " << F << "(r - 2, y)) % 1000, " << range << "\n";
        st.update_rvar_race_free = n == 1;
        break;
    case 4:  // reads the point after the one it writes
        f(r, y) = f(r + 1, y) + 1;
        log_ << F << "(r, y) = " << F << "(r + 1, y) + 1, " << range << "\n";
        st.update_rvar_race_free = n == 1;
        break;
    default: {  // a scatter to data-dependent positions, then a shift
        if (where_rand(3) == 0) {
            // undef() in the left side: the update runs only where the select takes the position.
            Expr at = read(a, r, y);
            f(select(at % 3 != 0, clamp(at, -3, 9), undef<int>()), y) += 1;
            log_ << F << "(select(" << A << "(r, y) % 3 != 0, clamp(" << A << "(r, y), -3, 9), undef), y) += 1, " << range
                 << "\n";
        } else {
            f(clamp(read(a, r, y), -3, 9), y) += 1;
            log_ << F << "(clamp(" << A << "(r, y), -3, 9), y) += 1, " << range << "\n";
            st.update_atomic_ok = true;
        }
        if (coin()) {
            RDom s(0, 5, "s" + F);
            f(s, y) = f(s + 1, y);
            log_ << F << "(s, y) = " << F << "(s + 1, y), s in [0, 4]\n";
            st.update_has_x = {false, false};
            st.output_safe_updates = false;
            st.update_atomic_ok = false;
            return;
        }
        break;
    }
    }
    st.update_has_x = {false};
    st.output_safe_updates = false;
    st.has_update_rvar = true;
    st.update_rvar = r.x;
}

// A Tuple-valued stage (two int32 values computed together), with updates that read both
// old values before writing either.
void RandomPipeline::add_tuple_stage(PipelineStage &st, int a, int b) {
    Func f = st.f;
    Var x = x_, y = y_;
    std::string F = f.name(), A = stages_[a].f.name(), B = stages_[b].f.name();
    st.is_tuple = true;
    f(x, y) = {read(a, x, y) + 1, read(b, x - 1, y) * 2};
    log_ << F << "(x, y) = {" << A << "(x, y) + 1, " << B << "(x-1, y) * 2}\n";
    switch (rand(4)) {
    case 2: {  // a Tuple reduction, sometimes rfactored: a sum and a max, an argmin or argmax, or a complex product
        RDom k(-1, 3, "k" + F);
        const int form = rand(3);
        if (form == 2) {
            // Values in [0, 3]: many ties, which the first or the last point wins.
            Expr v = read(a, x + k.x, y) % 4, best = f(x, y)[0], at = f(x, y)[1];
            const char *spelled[] = {"{min(f0, v), select(f0 < v, f1, k)}", "{min(f0, v), select(v < f0, k, f1)}",
                                     "{max(f0, v), select(f0 >= v, f1, k)}", "{max(v, f0), select(v >= f0, k, f1)}"};
            const int which = rand(4);
            if (which == 0) f(x, y) = {min(best, v), select(best < v, at, k.x)};
            else if (which == 1) f(x, y) = {min(best, v), select(v < best, k.x, at)};
            else if (which == 2) f(x, y) = {max(best, v), select(best >= v, at, k.x)};
            else f(x, y) = {max(v, best), select(v >= best, k.x, at)};
            log_ << F << "(x, y) = " << spelled[which] << " with v = " << A << "(x + k, y) % 4, k in [-1, 1]\n";
        } else if (form == 0) {
            f(x, y) = {f(x, y)[0] + read(a, x + k.x, y) * (k.x + 2), max(f(x, y)[1], read(b, x, y + k.x))};
            log_ << F << "(x, y) = {" << F << "[0] + " << A << "(x + k, y) * (k + 2), max(" << F << "[1], " << B
                 << "(x, y + k))}, k in [-1, 1]\n";
        } else {
            // Factors in [-2, 2], so three of them keep the values far from overflow.
            Expr re = read(a, x + k.x, y) % 3, im = read(b, x, y + k.x) % 3;
            Expr f0 = f(x, y)[0], f1 = f(x, y)[1];
            f(x, y) = {f0 * re - f1 * im, f1 * re + f0 * im};
            log_ << F << "(x, y) = " << F << " * (" << A << "(x + k, y) % 3, " << B
                 << "(x, y + k) % 3) as complex numbers, k in [-1, 1]\n";
        }
        st.update_has_x = {true};
        st.rfactored = maybe_rfactor(f, k);
        break;
    }
    case 0:  // a swap with arithmetic: both values read before either is written
        f(x, y) = {f(x, y)[1] % 97, f(x, y)[0] - read(a, x, y + 1)};
        log_ << F << "(x, y) = {" << F << "[1] % 97, " << F << "[0] - " << A << "(x, y+1)}\n";
        st.update_has_x = {true};
        break;
    case 1: {  // an argmax-like scan along x
        int lo = rand(5) - 3, n = 1 + rand(8);
        RDom r(lo, n, "r" + F);
        f(r, y) = {select(f(r - 1, y)[1] > f(r, y)[1], f(r - 1, y)[0], f(r, y)[0]),
                   max(f(r - 1, y)[1], f(r, y)[1])};
        log_ << F << "(r, y) = {select(" << F << "(r-1)[1] > " << F << "(r)[1], " << F << "(r-1)[0], " << F
             << "(r)[0]), max(" << F << "(r-1)[1], " << F << "(r)[1])}, r in [" << lo << ", " << lo + n - 1 << "]\n";
        st.update_has_x = {false};
        st.output_safe_updates = false;
        break;
    }
    default:
        break;  // no update
    }
}

// Sometimes splits the reduction over k and rfactors its outer loop into an intermediate Func
// (default placement, or at the root with its update parallel over the new Var).
bool RandomPipeline::maybe_rfactor(Func f, const RDom &k) {
    if (rand(3) != 0) return false;
    std::string F = f.name();
    Var u("u" + F);
    RVar ko("ko" + F), ki("ki" + F);
    int factor = 1 + rand(3);
    f.update(0).split(k.x, ko, ki, factor);
    Func intm = f.update(0).rfactor(ko, u);
    log_ << "  " << F << ".update(0).split(" << k.x.name() << ", ko, ki, " << factor << ").rfactor(ko, u)";
    if (coin()) {
        intm.compute_root();
        log_ << "; " << intm.name() << ".compute_root()";
        if (coin()) {
            intm.update(0).parallel(u);
            log_ << ".update(0).parallel(u)";
        }
    }
    log_ << "\n";
    return true;
}

void RandomPipeline::add_typed_arithmetic(PipelineStage &st, int a, int b) {
    Func f = st.f;
    Var x = x_, y = y_;
    Expr A = read(a, x, y), B = read(b, x, y);
    std::string text;
    Expr value;
    switch (rand(3)) {
    case 0: value = edge_arithmetic(A, B, text); break;
    case 1: value = narrow_arithmetic(A, B, text); break;
    default:
        // Reads at positions computed in a narrow type, which wrap.
        value = read(a, cast<int32_t>(cast<uint8_t>(x + 250)), y) + read(b, x, cast<int32_t>(cast<int8_t>(y * 20)));
        text = "A(int32(uint8(x + 250)), y) + B(x, int32(int8(y * 20)))";
        break;
    }
    f(x, y) = value;
    log_ << f.name() << "(x, y) = " << text << "  [A = " << stages_[a].f.name() << "(x, y), B = " << stages_[b].f.name()
         << "(x, y)]\n";
}

}  // namespace halo_fuzz

// A C function of the user's (HalideExtern_N) that pipelines call: narrow and wide arguments,
// each read as C reads it.
extern "C" int32_t fuzz_extern_mix(int32_t a, int8_t b, double c) {
    return int32_t(uint32_t(a) * 2654435761u) ^ int32_t(b) * 1000 ^ int32_t(c * 0.5);
}
HalideExtern_3(int32_t, fuzz_extern_mix, int32_t, int8_t, double);

namespace halo_fuzz {

// Arithmetic at the edges of its types, where the compiled code and the reference evaluator
// must agree on the documented semantics.
Expr RandomPipeline::edge_arithmetic(Expr A, Expr B, std::string &text) {
    Expr most_negative = select(A > 0, Expr(INT32_MIN), A);
    Expr minus_one_or_b = select(B > 0, Expr(-1), B);
    switch (rand(19)) {
    case 17:
        text = "fuzz_extern_mix(A, int8(B), float64(A - B))  [a C function]";
        return fuzz_extern_mix(A, cast<int8_t>(B), cast<double>(A - B));
    case 0: text = "int32(float32(A) * 3e7f)"; return cast<int32_t>(cast<float>(A) * 3.0e7f);
    case 1: text = "A << (B % 40 - 4)"; return A << (B % 40 - 4);
    case 2: text = "A >> (B % 40 - 4)"; return A >> (B % 40 - 4);
    case 3: text = "int32(uint32(A) >> (B % 40))"; return cast<int32_t>(cast<uint32_t>(A) >> (B % 40));
    case 4: text = "select(A > 0, INT_MIN, A) / select(B > 0, -1, B)"; return most_negative / minus_one_or_b;
    case 5: text = "select(A > 0, INT_MIN, A) % select(B > 0, -1, B)"; return most_negative % minus_one_or_b;
    case 6: text = "A / B + A % B"; return A / B + A % B;
    case 7: text = "int32(uint32(A) * 0x9E3779B1)"; return cast<int32_t>(cast<uint32_t>(A) * Expr(uint32_t(0x9E3779B1u)));
    case 8: text = "int32((int64(A) * 3000000000) >> 20)"; return cast<int32_t>((cast<int64_t>(A) * Expr(int64_t(3000000000LL))) >> 20);
    case 9: text = "int32(int16(A * 1000))"; return cast<int32_t>(cast<int16_t>(A * 1000));
    case 10: text = "int32(saturating_cast<uint8>(A))"; return cast<int32_t>(saturating_cast(UInt(8), A));
    case 11: text = "int32(abs(select(A > 0, INT_MIN, A)) / 2)"; return cast<int32_t>(abs(most_negative) / 2);
    case 12: text = "int32(float32(A) / float32(B))"; return cast<int32_t>(cast<float>(A) / cast<float>(B));
    case 13: text = "int32(float64(A) * 1e10)"; return cast<int32_t>(cast<double>(A) * 1e10);
    case 14: text = "reinterpret<int32>(float32(A % 4096) * 0.37f)"; return reinterpret<int32_t>(cast<float>(A % 4096) * 0.37f);
    case 15:
        text = "int32(reinterpret<uint32>(A) >> 7) ^ reinterpret<int32>(uint32(B) * 3)";
        return cast<int32_t>(reinterpret<uint32_t>(A) >> 7) ^ reinterpret<int32_t>(cast<uint32_t>(B) * Expr(uint32_t(3)));
    case 16: text = "int32(select(A > B, uint8(A), 300))  [300 is cast to uint8: 44]"; return cast<int32_t>(select(A > B, cast<uint8_t>(A), 300));
    default: text = "A * 100000000 (int32 overflow for |A| > 21)"; return A * 100000000;
    }
}

// Arithmetic in 8- and 16-bit and unsigned types, with Halide's implicit coercions.
Expr RandomPipeline::narrow_arithmetic(Expr A, Expr B, std::string &text) {
    static const Type types[] = {UInt(8), Int(8), UInt(16), Int(16), UInt(32)};
    static const char *names[] = {"uint8", "int8", "uint16", "int16", "uint32"};
    int ta = rand(5), tb = rand(5);
    Expr a = cast(types[ta], A), b = cast(types[tb], B);
    std::string sa = std::string(names[ta]) + "(A)", sb = std::string(names[tb]) + "(B)";
    Expr r;
    switch (rand(9)) {
    case 0: r = a + b, text = sa + " + " + sb; break;
    case 1: r = a - b, text = sa + " - " + sb; break;
    case 2: r = a * b, text = sa + " * " + sb; break;
    case 3: r = a / b, text = sa + " / " + sb; break;
    case 4: r = a % b, text = sa + " % " + sb; break;
    case 5: r = min(a, b) + 7, text = "min(" + sa + ", " + sb + ") + 7"; break;
    case 6:
        r = select(a < b, a * 3, cast(types[ta], b - 5));
        text = "select(" + sa + " < " + sb + ", " + sa + " * 3, " + names[ta] + "(" + sb + " - 5))";
        break;
    case 7: r = cast<int32_t>(a < 0), text = "int32(" + sa + " < 0)"; break;
    // Bitwise operators need one signedness: b in a's type.
    default: r = (a ^ cast(types[ta], B)) >> 2, text = "(" + sa + " ^ " + names[ta] + "(B)) >> 2"; break;
    }
    text = "int32(" + text + ")";
    return cast<int32_t>(r);
}

std::vector<int> RandomPipeline::consumers_of(int s) const {
    std::vector<int> c;
    for (size_t j = 0; j < stages_.size(); j++) {
        if (!reachable_[j]) continue;
        for (int in : stages_[j].inputs) {
            if (in == s && std::find(c.begin(), c.end(), int(j)) == c.end()) c.push_back(int(j));
        }
    }
    return c;
}

}  // namespace halo_fuzz
