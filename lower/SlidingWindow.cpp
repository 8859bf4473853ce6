#include "SlidingWindow.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "Bounds.h"
#include "CSE.h"
#include "EvaluateInt.h"
#include "IREquality.h"
#include "ScheduleFunctions.h"
#include "SlidingWarmup.h"
#include "Simplify.h"
#include "Substitute.h"
#include "dsl/Error.h"
#include "dsl/IROperator.h"
#include "dsl/IRPrinter.h"

namespace halo {

namespace {

// How an expression changes as one variable grows (the others fixed).
enum class Monotonic { Constant, Increasing, Decreasing, Unknown };

Monotonic flip(Monotonic m) {
    if (m == Monotonic::Increasing) return Monotonic::Decreasing;
    if (m == Monotonic::Decreasing) return Monotonic::Increasing;
    return m;
}

Monotonic combine(Monotonic a, Monotonic b) {
    if (a == Monotonic::Constant) return b;
    if (b == Monotonic::Constant) return a;
    return a == b ? a : Monotonic::Unknown;
}

Monotonic monotonic_select(const Select *n, const std::string &var, const std::map<std::string, Monotonic> &lets);

// Whether e (as a tree: shared subexpressions counted each time) has at most `limit` nodes.
bool node_count_at_most(const Expr &e, int limit) {
    struct Count : IRVisitor {
        int left;
        explicit Count(int l) : left(l) {}
        // (Stops descending once over the limit: the count of a large tree costs the limit.)
#define HALO_COUNT_VISIT(N)                 \
    void visit(const N *op) override {      \
        if (--left >= 0) IRVisitor::visit(op); \
    }
        HALO_FOR_EACH_EXPR_NODE(HALO_COUNT_VISIT)
#undef HALO_COUNT_VISIT
    } count(limit);
    e.accept(&count);
    return count.left >= 0;
}

// How the Lets around a subexpression change with the variable (bounds that share much are
// analysed in the form common_subexpression_elimination gives them, with Lets).
using LetMonotonicity = std::map<std::string, Monotonic>;

// Whether e depends on var, directly or through a Let around it that does.
bool depends_on(const Expr &e, const std::string &var, const LetMonotonicity &lets) {
    if (expr_uses_var(e, var)) return true;
    for (auto &[name, m] : lets) {
        if (m != Monotonic::Constant && expr_uses_var(e, name)) return true;
    }
    return false;
}

Monotonic monotonic_in(const Expr &e, const std::string &var, const LetMonotonicity &lets) {
    if (!depends_on(e, var, lets)) return Monotonic::Constant;
    if (auto v = e.as<Variable>()) {
        if (v->name == var) return Monotonic::Increasing;
        auto it = lets.find(v->name);
        return it != lets.end() ? it->second : Monotonic::Constant;
    }
    if (auto n = e.as<Let>()) {
        LetMonotonicity inner = lets;
        inner[n->name] = monotonic_in(n->value, var, lets);
        return monotonic_in(n->body, var, inner);
    }
    if (auto n = e.as<Add>()) return combine(monotonic_in(n->a, var, lets), monotonic_in(n->b, var, lets));
    if (auto n = e.as<Sub>()) return combine(monotonic_in(n->a, var, lets), flip(monotonic_in(n->b, var, lets)));
    if (auto n = e.as<Min>()) return combine(monotonic_in(n->a, var, lets), monotonic_in(n->b, var, lets));
    if (auto n = e.as<Max>()) return combine(monotonic_in(n->a, var, lets), monotonic_in(n->b, var, lets));
    if (auto n = e.as<Mul>()) {
        // By a constant only: its sign decides.
        for (auto [c, other] : {std::pair{n->a, n->b}, std::pair{n->b, n->a}}) {
            if (const int64_t *k = as_const_int(c)) {
                Monotonic m = monotonic_in(other, var, lets);
                return *k > 0 ? m : *k < 0 ? flip(m) : Monotonic::Constant;
            }
        }
        return Monotonic::Unknown;
    }
    if (auto n = e.as<Div>()) {
        // Rounding division by a positive constant keeps the order.
        const int64_t *k = as_const_int(n->b);
        return k && *k > 0 ? monotonic_in(n->a, var, lets) : Monotonic::Unknown;
    }
    if (auto n = e.as<Cast>()) {
        bool widening_int = n->type.is_int() && n->value.type().is_int() && n->type.bits() >= n->value.type().bits();
        return widening_int ? monotonic_in(n->value, var, lets) : Monotonic::Unknown;
    }
    if (auto n = e.as<Select>()) return monotonic_select(n, var, lets);
    return Monotonic::Unknown;
}

Monotonic monotonic_in(const Expr &e, const std::string &var) { return monotonic_in(e, var, LetMonotonicity()); }

// The operands of a tree of Max nodes (max(max(a, b), c): a, b and c).
void max_operands(const Expr &e, std::vector<Expr> &out) {
    if (auto m = e.as<Max>()) {
        max_operands(m->a, out);
        max_operands(m->b, out);
    } else {
        out.push_back(e);
    }
}

// Whether a >= b everywhere because every operand of b's max is one of a's (max(b, x) >= b).
bool max_includes(const Expr &a, const Expr &b) {
    std::vector<Expr> as, bs;
    max_operands(a, as);
    max_operands(b, bs);
    return std::all_of(bs.begin(), bs.end(), [&](const Expr &x) {
        return std::any_of(as.begin(), as.end(), [&](const Expr &y) { return equal(x, y); });
    });
}

// select(var > w, t, f), the start of a sliding window's later iterations (t) and of its first
// (f): it never decreases where t and f do not and t >= f (the switch from f to t only rises).
Monotonic monotonic_select(const Select *n, const std::string &var, const LetMonotonicity &lets) {
    auto is_var = [&](const Expr &x) {
        auto v = x.as<Variable>();
        return v && v->name == var;
    };
    // The condition holds from some value of var on: var > w, var >= w, w < var or w <= var.
    auto becomes_true = [&](const Expr &c) {
        Expr a, b;
        bool greater = false;
        if (auto o = c.as<LT>()) a = o->a, b = o->b;
        else if (auto o = c.as<LE>()) a = o->a, b = o->b;
        else if (auto o = c.as<GT>()) a = o->a, b = o->b, greater = true;
        else if (auto o = c.as<GE>()) a = o->a, b = o->b, greater = true;
        else return false;
        if (greater) std::swap(a, b);  // now a < b or a <= b
        return is_var(b) && !depends_on(a, var, lets);
    };
    if (!becomes_true(n->condition)) return Monotonic::Unknown;
    Monotonic t = monotonic_in(n->true_value, var, lets), f = monotonic_in(n->false_value, var, lets);
    auto rising = [](Monotonic m) { return m == Monotonic::Increasing || m == Monotonic::Constant; };
    if (!rising(t) || !rising(f) || !max_includes(n->true_value, n->false_value)) return Monotonic::Unknown;
    return Monotonic::Increasing;
}

// The divisions and remainders by positive constants in an expression that depend on var: the
// innermost numerators (those with no such division inside), and the largest product of the
// divisors along one nesting (4 for (y / 2 + 1) / 2): a multiple of every divisor on the way.
class FindDivisions : public IRVisitor {
public:
    explicit FindDivisions(const std::string &v) : var_(v) {}
    std::vector<Expr> innermost;
    int64_t nested_product = 1;
    bool other = false;  // a division by something else
    using IRVisitor::visit;
    void visit(const Div *op) override { note(op->a, op->b); }
    void visit(const Mod *op) override { note(op->a, op->b); }

private:
    const std::string &var_;
    int64_t product_ = 1;  // of the divisors of the enclosing divisions
    void note(const Expr &a, const Expr &b) {
        if (!expr_uses_var(a, var_)) return;
        const int64_t *k = as_const_int(b);
        if (!k || *k <= 0 || *k > 64 || product_ > 64) {
            other = true;
            return;
        }
        const int64_t saved = product_;
        const size_t found_before = innermost.size();
        product_ *= *k;
        nested_product = std::max(nested_product, product_);
        a.accept(this);
        if (innermost.size() == found_before) innermost.push_back(a);  // no division inside a
        product_ = saved;
    }
};

// Whether e never decreases as var grows, for expressions of n / k and n % k (k positive
// constants, possibly nested, all over one innermost numerator n increasing in var), such as
// the rows an upsampling reads, f(y / 2 - 1 + 2 * (y % 2)) and f(y / 2), and its upsampling
// again: not monotonic term by term, but with n = K t + r for each remainder r (K a multiple
// of every divisor on the way), e is an expression e_r(t) of t alone. It never decreases iff
// each e_r(t) <= e_(r+1)(t), and e_(K-1)(t) <= e_0(t + 1): constants once simplified, or it
// is not known.
bool never_decreases_by_remainders(const Expr &e, const std::string &var) {
    FindDivisions finder(var);
    e.accept(&finder);
    if (finder.other || finder.innermost.empty()) return false;
    const Expr n = finder.innermost[0];
    const int64_t K = finder.nested_product;
    if (K > 64 || n.type() != Int(32) || monotonic_in(n, var) != Monotonic::Increasing) return false;
    for (auto &a : finder.innermost) {
        if (!equal(a, n)) return false;
    }
    Expr t = Variable::make(Int(32), var + ".quotient");
    auto at = [&](int64_t r, const Expr &q) {
        Expr v = simplify(substitute_expr(n, q * int32_t(K) + int32_t(r), e));
        return expr_uses_var(v, var) ? Expr() : v;
    };
    for (int64_t r = 0; r < K; r++) {
        Expr here = at(r, t), next = r + 1 < K ? at(r + 1, t) : at(0, t + 1);
        if (!here.defined() || !next.defined()) return false;
        Expr step_expr = simplify(next - here);  // as_const_int points into it
        const int64_t *step = as_const_int(step_expr);
        if (!step || *step < 0) return false;
    }
    return true;
}

// monotonic_in, and where that does not know, the remainders' analysis.
Monotonic monotonic_bound(const Expr &e, const std::string &var) {
    Monotonic m = monotonic_in(e, var);
    // (The remainders' analysis substitutes numerators that use var: not through Lets, whose
    // names hide what they use.)
    if (m == Monotonic::Unknown && !expr_shape(e).has_lets && never_decreases_by_remainders(e, var)) {
        return Monotonic::Increasing;
    }
    return m;
}

class Slide : public IRMutator {
public:
    Slide(const FunctionContents &f, const Environment &env, std::vector<std::string> &report,
          const std::set<std::string> &unique_loops, WarmupPlan &warmup)
        : f_(f), env_(env), report_(report), unique_loops_(unique_loops), warmup_(warmup) {}

    // Where f slid (one entry per place its bounds lets are): the dimension and how many of
    // its rows one iteration needs (in terms of the loop variable).
    struct Slid {
        int dim;
        Expr window;
        bool backwards;  // towards lower coordinates
    };
    std::vector<Slid> slid;
    // How many places f's bounds lets are in (one per specialization branch it is computed in).
    int places = 0;
    // Whether f slides along dimension d in every place it is computed: only then can its
    // buffer, which all the places share, be folded along d.
    bool slides_everywhere_along(int d) const {
        if (places == 0 || int(slid.size()) != places) return false;
        for (auto &s : slid) {
            if (s.dim != d) return false;
        }
        return true;
    }
    // Why it did not slide somewhere ("" if it did everywhere).
    std::string why_not;
    // For each dimension an explicit fold_storage folds: in how many places its fold got a
    // check of what the place needs at once. Where all did, the realization needs no check of
    // its whole extent.
    std::map<int, int> fold_checks;
    bool fold_checked_everywhere(int d) const {
        auto it = fold_checks.find(d);
        return places > 0 && it != fold_checks.end() && it->second == places;
    }
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        loops_.push_back(op);
        std::vector<std::pair<std::string, Expr>> saved;
        saved.swap(lets_);  // lets inside an inner loop are new for each of its iterations
        Stmt s = IRMutator::visit(op);
        lets_.swap(saved);
        loops_.pop_back();
        return s;
    }

    Stmt visit(const LetStmt *op) override {
        const std::string first = stage_prefix(f_.name, 0) + f_.args[0] + ".min";
        if (op->name == first && !loops_.empty()) return check_folds(op, slide(op));
        lets_.push_back({op->name, op->value});
        Stmt s = IRMutator::visit(op);
        lets_.pop_back();
        return s;
    }

private:
    // The chain of f's stage-0 bounds lets starting at op, rewritten so that each iteration of
    // the innermost enclosing loop computes only what the iterations before it did not.
    Stmt slide(const LetStmt *op) {
        places++;
        reused_ = false;
        std::vector<std::pair<std::string, Expr>> chain;
        Stmt body(IRMutator::self(op));
        while (const LetStmt *l = body.as<LetStmt>()) {
            if (l->name.rfind(stage_prefix(f_.name, 0), 0) != 0) break;
            chain.push_back({l->name, l->value});
            body = l->body;
        }
        Stmt rest = mutate(body);
        auto rebuild = [&](const std::vector<std::pair<std::string, Expr>> &lets) {
            Stmt s = rest;
            for (auto it = lets.rbegin(); it != lets.rend(); ++it) s = LetStmt::make(it->first, it->second, s);
            return s;
        };
        const For *loop = loops_.back();
        std::string why = reason_not_to_slide(loop);
        if (!why.empty()) {
            report_.push_back(f_.name + ": no sliding window over " + loop->name + " (" + why + ")");
            why_not = why;
            return rebuild(chain);
        }
        // Each bound in terms of the loop variable: the lets inside the loop expanded.
        std::map<std::string, Expr> inner;
        for (auto &[n, v] : lets_) inner[n] = substitute(inner, v);
        // (The expansion is a graph that shares the lets' values: as a tree, a chain of Funcs
        // each reading the next at two places doubles with every Func. Its shared parts are
        // bound by Lets again before anything walks it as a tree, as Halide's sliding window
        // does since its sliding_window_cascade test.)
        auto expanded = [&](const std::string &name) {
            Expr e;
            for (auto &[n, v] : chain) {
                if (n == name && !e.defined()) e = substitute(inner, v);
            }
            auto it = inner.find(name);  // an update stage's bounds (its lets come first)
            if (!e.defined() && it != inner.end()) e = it->second;
            return e.defined() ? simplify(common_subexpression_elimination(e)) : Expr();
        };
        const std::string &c = loop->name;
        int sliding = -1;
        bool backwards = false;  // the region moves towards lower coordinates (Halide slides those too)
        for (int d = 0; d < f_.dimensions(); d++) {
            std::string p = stage_prefix(f_.name, 0) + f_.args[d];
            Expr mn = expanded(p + ".min"), mx = expanded(p + ".max");
            if (!mn.defined() || !mx.defined()) return rebuild(chain);
            if (!expr_uses_var(mn, c) && !expr_uses_var(mx, c)) continue;
            Monotonic a = monotonic_bound(mn, c), b = monotonic_bound(mx, c);
            bool grows = (a == Monotonic::Increasing || a == Monotonic::Constant) &&
                         (b == Monotonic::Increasing || b == Monotonic::Constant);
            bool shrinks = (a == Monotonic::Decreasing || a == Monotonic::Constant) &&
                           (b == Monotonic::Decreasing || b == Monotonic::Constant);
            if (sliding >= 0 || !(grows || shrinks)) {
                why_not = sliding >= 0 ? "its region moves in two dimensions"
                                       : "its region does not only grow, nor only shrink";
                report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
                return rebuild(chain);
            }
            sliding = d;
            backwards = !grows;
        }
        // Slide dimension `sliding` (or, if nothing moves, compute everything in the first
        // iteration only): from the second iteration on, start after what the previous one
        // computed.
        int d = sliding >= 0 ? sliding : f_.dimensions() - 1;
        if (d < 0) return rebuild(chain);
        if (std::string why_split = recomputes_along(d, backwards); !why_split.empty()) {
            why_not = why_split;
            report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
            return rebuild(chain);
        }
        if (std::string g = produces_func_shifting_fused_loop(body); !g.empty()) {
            why_not = g + ", computed inside it, has a split of a fused loop that shifts inwards, which from the few "
                          "points new in an iteration would compute rows outside its buffer";
            report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
            return rebuild(chain);
        }
        // A RoundUp split along d (single_split_factor) slides where its region moves by whole
        // tiles of the split: its loops then start on the grid of the first iteration's tiles,
        // in the iterations before that too (the warm-up, which never reaches below the first
        // iteration's start), and compute a whole number of tiles that ends where they would.
        const int64_t round_up = single_split_factor(d, TailStrategy::RoundUp);
        const int64_t shift = single_split_factor(d, TailStrategy::ShiftInwards);
        Expr grid_origin;
        if (round_up > 0) {
            Expr mn = expanded(stage_prefix(f_.name, 0) + f_.args[d] + ".min");
            grid_origin = simplify(substitute(c, loop->min, mn));
            Expr step = simplify(substitute(c, Variable::make(Int(32), c) + 1, mn) - mn);
            const int64_t *k = as_const_int(step);
            if (sliding < 0 || !k || *k <= 0 || *k % round_up != 0) {
                why_not = "a split of it rounds up by " + std::to_string(round_up) +
                          ", and its region does not move by a multiple of " + std::to_string(round_up) +
                          " rows per iteration";
                report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
                return rebuild(chain);
            }
        }
        // An update that is not pure along d may write any row (f(x, r) = ...), and one that
        // does not move with the loop would be applied again to rows already final.
        for (int u = 1; u < f_.stages(); u++) {
            auto v = f_.stage(u).args[size_t(d)].as<Variable>();
            if (!v || v->name != f_.args[size_t(d)]) {
                why_not = "its update " + std::to_string(u - 1) + " is not pure in " + f_.args[size_t(d)];
                report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
                return rebuild(chain);
            }
        }
        if (sliding < 0 && f_.stages() > 1) {
            why_not = "its region does not move and it has update definitions";
            report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
            return rebuild(chain);
        }
        if (sliding < 0) why_not = "its region does not move";
        // The bounds lets stay what the iteration needs (its producers' regions are made from
        // them); only f's own loops start later, from a let of their own around its produce.
        std::string p = stage_prefix(f_.name, 0) + f_.args[d];
        Expr here = Variable::make(Int(32), c);
        auto previous = [&](const Expr &e) { return substitute(c, here - 1, e); };
        Expr needed_min = Variable::make(Int(32), p + ".min"), needed_max = Variable::make(Int(32), p + ".max");
        // Forwards, the loops start after what the previous iteration computed; backwards,
        // they end before it. (If nothing moves, everything is computed in the first one.)
        // The last row an iteration computes: with a RoundUp split its E, past the needed max.
        Expr computed_max_expanded = round_up > 0 ? simplify(rounded_end(expanded(p + ".min"), expanded(p + ".max"), round_up) - 1)
                                                  : expanded(p + ".max");
        // (The previous iteration computed up to its last row: start after it.)
        Expr previous_end = previous(computed_max_expanded);
        Expr new_min = sliding >= 0 ? max(needed_min, previous_end + 1) : needed_max + 1;
        Expr new_max = min(needed_max, previous(expanded(p + ".min")) - 1);
        Expr window = simplify(computed_max_expanded - expanded(p + ".min") + 1);
        Expr computed_max = round_up > 0 ? rounded_end(needed_min, needed_max, round_up) - 1 : needed_max;
        // Where f's loops start: the start let itself, or its aligned_start.
        auto start_of_loops = [&](const Expr &start) {
            return round_up > 0 ? aligned_start(grid_origin, start, round_up) : start;
        };
        // The first iteration computes everything needed (then the later ones what is new).
        Expr first_iteration = loop->min;
        // The lowest row of f still needed in this iteration (the rows below it are final).
        Expr live_min = needed_min;
        std::pair<std::string, Expr> live_let;  // defined where f warms up
        Expr needed_at_first;
        // (Not with other splits along d that shift inwards or round up than
        // single_split_factor's: from the few rows of a warm-up iteration, they would compute
        // rows below what the first iteration needs, outside f's buffer. A RoundUp split starts
        // on the first iteration's grid, at or above its start; a ShiftInwards one computes at
        // least F rows from that start.)
        // (A ShiftInwards split only where f reads no Func computed in the loop: its max is
        // raised in the warm-up, and such a Func's region, made from f's bounds lets before
        // sliding, would not follow.)
        bool warms_up = sliding >= 0 && !backwards && f_.stages() == 1 && unique_loops_.count(c) &&
                        (!computes_outside(d) || round_up > 0 || (shift > 0 && !reads_func_produced_in(body))) &&
                        !produces_func_computing_outside(body);
        if (warms_up) {
            // Halide's warm-up: the loop may start earlier (lower/SlidingWarmup.cpp), so that
            // the iterations before its first compute the rows its first needs, a few at a
            // time, as later iterations do; a fold then holds the rows of the steady state.
            first_iteration = Variable::make(Int(32), warmup_min_name(c));
            // Never below what the first real iteration needs: what the loop's body asks for
            // in the iterations before it (its consumers' reads, guarded off) is not needed.
            Expr needed_first = simplify(substitute(c, loop->min, expanded(p + ".min")));
            live_min = max(needed_min, needed_first);
            // What the body reads of f in this iteration, when its readers computed in it slide
            // too: from the rows new in their iteration only (the bounds lets cover their whole
            // window). A lower bound that rises with the loop, or it is not used.
            // (The box names the lets around the body, such as its readers' starts: expanded
            // only to be analysed, as they nest.)
            LetValues around;
            std::map<std::string, Expr> expansions = inner;
            for (auto &[n, v] : lets_) around[n] = v;
            for (auto &[n, v] : chain) {
                around[n] = v;
                expansions[n] = substitute(expansions, v);
            }
            Expr live_min_expanded = expanded(p + ".min");
            Box read = box_required(body, f_.name, {}, around);
            if (read.used && !read.maybe_unused() && size_t(d) < read.dims.size() && read.dims[size_t(d)].min.defined()) {
                Expr read_min = simplify(read.dims[size_t(d)].min);
                Expr read_min_expanded = substitute(expansions, read_min);
                Monotonic m = node_count_at_most(read_min_expanded, 4096) ? monotonic_bound(read_min_expanded, c) : Monotonic::Unknown;
                if (m == Monotonic::Increasing || m == Monotonic::Constant) {
                    live_min = max(live_min, read_min);
                    live_min_expanded = max(live_min_expanded, read_min_expanded);
                }
            }
            warmup_[c][f_.name] = {warmup_iterations(expanded(p + ".max"), live_min_expanded, c), needed_first};
            // What the loop's first iteration needs: a fold check in an iteration before it
            // asks for at least that much, so that the error says how large the fold must be.
            needed_at_first = simplify(substitute(c, loop->min, computed_max_expanded - max(live_min_expanded, needed_first) + 1));
            live_min = simplify(live_min);
            live_let = {p + ".min.live", live_min};
            live_min = Variable::make(Int(32), live_let.first);
            if (shift > 0) {
                // A ShiftInwards split computes F rows ending at the max: in a warm-up iteration
                // that needs fewer than F rows from the first iteration's start, they would
                // begin below it, outside f's buffer (and read rows of f's producers not
                // computed). There, f's max is raised to where F rows from that start end (or
                // to the first iteration's max, if less): rows the first iteration needs. The
                // bounds let itself is raised, so that f's producers, whose regions are made
                // from it, compute what those rows read, and the Funcs reading f in the
                // warm-up find every row they read computed. From the first iteration on, the
                // max is the needed one (the first iteration's is at least that much).
                Expr first_max = simplify(substitute(c, loop->min, expanded(p + ".max")));
                Expr raise_to = min(needed_first + int32_t(shift - 1), first_max);
                previous_end = previous(max(expanded(p + ".max"), raise_to));
                for (auto &[n, v] : chain) {
                    if (n == p + ".max") v = max(v, raise_to);
                }
            }
            new_min = max(live_min, previous_end + 1);
        }
        // The start of f's loops where it warms up: a let of its own (with a RoundUp split it
        // may lie below the live rows, which then hold it too; else it is the slid start).
        const std::string slid_name = p + ".min.slid";
        const std::string aligned_name = p + ".min.aligned";
        const bool own_start = warms_up && round_up > 0;
        const std::string loops_start_name = own_start ? aligned_name : slid_name;
        Expr lowest_written = live_min;
        if (warms_up && round_up > 0) lowest_written = min(live_min, Variable::make(Int(32), aligned_name));
        Stmt check;
        for (const StorageFold &fold : f_.schedule.folds) {
            if (fold.var != f_.args[d] || !fold.explicit_fold) continue;
            // fold_storage: what one iteration needs (and, rounding up, writes) must fit in the fold.
            Expr needed = computed_max - lowest_written + 1;
            if (needed_at_first.defined()) needed = max(needed, select(here < loop->min, needed_at_first, needed));
            Expr msg = Call::make(Int(32), "halo_error_fold_storage",
                                  {StringImm::make(f_.name), StringImm::make(f_.args[d]), needed, fold.factor, StringImm::make("")},
                                  Call::Extern);
            check = AssertStmt::make(needed <= fold.factor, msg);
            fold_checks[d]++;
        }
        // The bounds lets each stage's loops start (or, backwards, end) from instead.
        std::vector<std::pair<std::string, Expr>> starts;
        if (backwards) starts.push_back({p + ".max", select(here > loop->min, new_max, needed_max)});
        else starts.push_back({p + ".min", select(here > first_iteration, new_min, live_min)});
        if (sliding >= 0) {
            // Every update runs only over the rows its stage 0 computed in this iteration:
            // those past what the update covered in the iteration before. (Along a dimension
            // an update leaves pure, it reads f only at its own point: the rows before are final.)
            for (int u = 1; u < f_.stages(); u++) {
                std::string q = stage_prefix(f_.name, u) + f_.args[d];
                Expr u_min = expanded(q + ".min"), u_max = expanded(q + ".max");
                Monotonic a = u_min.defined() ? monotonic_bound(u_min, c) : Monotonic::Unknown;
                Monotonic b = u_max.defined() ? monotonic_bound(u_max, c) : Monotonic::Unknown;
                Monotonic way = backwards ? Monotonic::Decreasing : Monotonic::Increasing;
                bool moves_along = (a == way || a == Monotonic::Constant) && (b == way || b == Monotonic::Constant);
                if (!moves_along) {
                    why_not = "the region of its update " + std::to_string(u - 1) + " does not only " +
                              (backwards ? "shrink" : "grow");
                    report_.push_back(f_.name + ": no sliding window over " + c + " (" + why_not + ")");
                    return rebuild(chain);
                }
                if (backwards) {
                    Expr u_needed = Variable::make(Int(32), q + ".max");
                    starts.push_back({q + ".max", select(here > loop->min, min(u_needed, previous(u_min) - 1), u_needed)});
                } else {
                    Expr u_needed = Variable::make(Int(32), q + ".min");
                    starts.push_back({q + ".min", select(here > loop->min, max(u_needed, previous(u_max) + 1), u_needed)});
                }
            }
        }
        if (warms_up) {
            // The start is a let of its own beside f's bounds lets (not around its produce), so
            // that the Funcs it reads, whose bounds lets come next, name it in their own.
            rest = StartLater(f_.name, starts[0].first, Expr(), loops_start_name).mutate(rest);
            if (check.defined()) rest = Block::make(check, rest);
            if (own_start) rest = LetStmt::make(aligned_name, start_of_loops(Variable::make(Int(32), slid_name)), rest);
            rest = LetStmt::make(live_let.first, live_let.second, LetStmt::make(slid_name, starts[0].second, rest));
        } else {
            for (size_t i = 0; i < starts.size(); i++) {
                // (Only stage 0 may round up: single_split_factor is 0 for a Func with updates.)
                Expr start = i == 0 ? start_of_loops(starts[i].second) : starts[i].second;
                rest = StartLater(f_.name, starts[i].first, start).mutate(rest);
            }
            if (check.defined()) rest = Block::make(check, rest);
        }
        if (sliding >= 0) slid.push_back({d, window, backwards});
        reused_ = true;
        reused_dim_ = d;
        report_.push_back(f_.name + ": sliding window over " + c + " in dimension " + f_.args[d] +
                          (backwards ? ", backwards" : ""));
        return rebuild(chain);
    }

    // fold_storage along a dimension f does not slide in, checked where f is computed (s, which
    // starts with the bounds lets at op): the rows of one iteration must fit the fold if
    // nothing is reused from iteration to iteration; if f slides along another dimension over
    // the innermost loop, the rows of all of that loop's iterations, which one iteration of the
    // loop outside it (or the realization) keeps (Halide's storage_folding test folds y while
    // sliding along x). A split along the dimension that rounds up or shifts inwards computes
    // rows outside those: then the realization's whole extent is checked, as before.
    Stmt check_folds(const LetStmt *op, Stmt s) {
        const For *loop = loops_.back();
        std::map<std::string, Expr> inner;
        for (auto &[n, v] : lets_) inner[n] = substitute(inner, v);
        for (Stmt b(IRMutator::self(op)); const LetStmt *l = b.as<LetStmt>(); b = l->body) {
            if (l->name.rfind(stage_prefix(f_.name, 0), 0) != 0) break;
            inner[l->name] = substitute(inner, l->value);
        }
        for (const StorageFold &fold : f_.schedule.folds) {
            int d = int(std::find(f_.args.begin(), f_.args.end(), fold.var) - f_.args.begin());
            if (!fold.explicit_fold || d >= f_.dimensions() || (reused_ && d == reused_dim_)) continue;
            if (computes_outside(d)) continue;
            std::string p = stage_prefix(f_.name, 0) + f_.args[size_t(d)];
            auto mn_it = inner.find(p + ".min"), mx_it = inner.find(p + ".max");
            if (mn_it == inner.end() || mx_it == inner.end()) continue;
            Expr mn = mn_it->second, mx = mx_it->second;
            if (reused_) {
                Scope scope{{loop->name, Interval(loop->min, loop->min + loop->extent - 1)}};
                mn = bounds_of_expr_in_scope(mn, scope).min;
                mx = bounds_of_expr_in_scope(mx, scope).max;
                if (!mn.defined() || !mx.defined()) continue;
            }
            Expr needed = simplify(mx - mn + 1);
            Expr msg = Call::make(Int(32), "halo_error_fold_storage",
                                  {StringImm::make(f_.name), StringImm::make(fold.var), needed, fold.factor, StringImm::make("")},
                                  Call::Extern);
            s = Block::make(AssertStmt::make(needed <= fold.factor, msg), s);
            fold_checks[d]++;
        }
        return s;
    }

    // Whether a split of dimension d (or of a loop split from it) in some stage rounds up or
    // shifts inwards, computing rows outside the region the bounds lets give.
    bool computes_outside(int d) const {
        for (int i = 0; i < f_.stages(); i++) {
            for (const Split &sp : splits_along(i, d).splits) {
                if (sp.tail != TailStrategy::GuardWithIf) return true;
            }
        }
        return false;
    }

    // The splits of stage i that split dimension d or a loop made from it (a fuse carries it
    // on), in schedule order, and every loop name made from d.
    struct SplitsAlong {
        std::vector<Split> splits;
        std::set<std::string> loops;
        std::set<std::string> fused;  // the loops among them that stand for d and another dimension
    };
    SplitsAlong splits_along(int i, int d) const {
        SplitsAlong r{{}, {f_.args[size_t(d)]}, {}};
        for (const Split &sp : f_.stage(i).schedule.splits) {
            if (sp.kind == Split::SplitVar && r.loops.count(sp.old_var)) {
                r.splits.push_back(sp);
                r.loops.insert(sp.outer);
                r.loops.insert(sp.inner);
                if (r.fused.count(sp.old_var)) r.fused.insert({sp.outer, sp.inner});
            } else if (sp.kind == Split::FuseVars && (r.loops.count(sp.inner) || r.loops.count(sp.outer))) {
                r.loops.insert(sp.old_var);
                r.fused.insert(sp.old_var);
            } else if (sp.kind == Split::RenameVar && r.loops.count(sp.old_var)) {
                r.loops.insert(sp.outer);
                if (r.fused.count(sp.old_var)) r.fused.insert(sp.outer);
            }
        }
        return r;
    }

    // The Funcs other than f computed inside f's produce in s: their regions are made from f's
    // bounds, which sliding clips.
    std::vector<const FunctionContents *> funcs_computed_inside(const Stmt &s) const {
        struct Find : IRVisitor {
            const std::string &f;
            std::set<std::string> produced;
            int inside_f = 0;
            explicit Find(const std::string &name) : f(name) {}
            using IRVisitor::visit;
            void visit(const ProducerConsumer *op) override {
                bool is_f = op->is_producer && op->name == f;
                if (op->is_producer && inside_f > 0) produced.insert(op->name);
                inside_f += is_f;
                IRVisitor::visit(op);
                inside_f -= is_f;
            }
        } find(f_.name);
        s.accept(&find);
        std::vector<const FunctionContents *> out;
        for (const std::string &name : find.produced) {
            auto it = env_.find(name);
            if (name != f_.name && it != env_.end()) out.push_back(it->second.get());
        }
        return out;
    }
    // The tail a split of stage i computes with (a pure definition's Auto shifts inwards).
    static TailStrategy tail_of(const Split &sp, int i) {
        if (sp.tail != TailStrategy::Auto) return sp.tail;
        return i == 0 ? TailStrategy::ShiftInwards : TailStrategy::GuardWithIf;
    }

    // Whether a Func computed inside f's produce in s has a split that computes points outside
    // its region: ShiftInwards or RoundUp. A warm-up iteration's region is clipped to rows the
    // first iteration needs, and from a region shorter than the split's factor such a split
    // computes points below them, outside the Func's buffer, which covers only what the
    // iterations from the first on compute (seed 8201242 of the typed differential test wrote
    // before it). (A Func computed beside f in the loop slides, or not, on its own.)
    // (Every schedule a stage may run with counts: its own and its specializations', nested;
    // seed 9930605 of the differential test wrote before a buffer through a ShiftInwards split
    // made only in a specialization.)
    bool produces_func_computing_outside(const Stmt &s) const {
        for (const FunctionContents *g : funcs_computed_inside(s)) {
            for (int i = 0; i < g->stages(); i++) {
                bool computes_outside = false;
                for_each_schedule(g->stage(i), [&](const StageSchedule &schedule) {
                    for (const Split &sp : schedule.splits) {
                        if (sp.kind == Split::SplitVar && tail_of(sp, i) != TailStrategy::GuardWithIf) computes_outside = true;
                    }
                });
                if (computes_outside) return true;
            }
        }
        return false;
    }
    // Calls fn with the schedule of d and of each of its specializations, nested.
    static void for_each_schedule(const Definition &d, const std::function<void(const StageSchedule &)> &fn) {
        fn(d.schedule);
        for (const Specialization &sp : d.specializations) for_each_schedule(*sp.definition, fn);
    }

    // The name of a Func computed inside f's produce in s whose split of a fused loop shifts
    // inwards, or "". From a region that sliding made smaller than the split's factor, its
    // shifted tile reaches into rows of the other fused dimension outside its buffer, as f's
    // own would (see recomputes_along).
    std::string produces_func_shifting_fused_loop(const Stmt &s) const {
        for (const FunctionContents *g : funcs_computed_inside(s)) {
            for (int i = 0; i < g->stages(); i++) {
                bool shifts = false;
                for_each_schedule(g->stage(i), [&](const StageSchedule &schedule) {
                    std::set<std::string> fused;
                    for (const Split &sp : schedule.splits) {
                        if (sp.kind == Split::FuseVars) {
                            fused.insert(sp.old_var);
                        } else if (sp.kind == Split::RenameVar && fused.count(sp.old_var)) {
                            fused.insert(sp.outer);
                        } else if (sp.kind == Split::SplitVar && fused.count(sp.old_var)) {
                            if (tail_of(sp, i) == TailStrategy::ShiftInwards) shifts = true;
                            fused.insert({sp.outer, sp.inner});
                        }
                    }
                });
                if (shifts) return g->name;
            }
        }
        return "";
    }

    // Whether f's produce in s reads a Func whose produce is also in s.
    bool reads_func_produced_in(const Stmt &s) const {
        struct Find : IRVisitor {
            const std::string &f;
            std::set<std::string> produced, read;
            bool in_f = false;
            explicit Find(const std::string &name) : f(name) {}
            using IRVisitor::visit;
            void visit(const ProducerConsumer *op) override {
                if (!op->is_producer) return IRVisitor::visit(op);
                produced.insert(op->name);
                bool was = in_f;
                in_f |= op->name == f;
                IRVisitor::visit(op);
                in_f = was;
            }
            void visit(const Call *op) override {
                if (in_f && op->call_type == Call::Halo) read.insert(op->name);
                IRVisitor::visit(op);
            }
        } find(f_.name);
        s.accept(&find);
        return std::any_of(find.read.begin(), find.read.end(), [&](const std::string &n) { return n != f_.name && find.produced.count(n); });
    }

    // The factor of f's one split along d, if its tail is `tail` (Auto is ShiftInwards for a
    // pure definition): a single split of d itself by a positive constant, in a Func with no
    // updates, with no other split of d or of the loops made from it (fusing them is fine).
    // 0 otherwise.
    // - RoundUp: f computes the rows [min, E], E + 1 = min + F * ceil((max - min + 1) / F), from
    //   its bounds lets min and max: sliding moves its start back onto that grid (see
    //   aligned_start), so that it computes a part of what it would without sliding, and
    //   nothing past it.
    // - ShiftInwards: f computes [max - F + 1, max] where fewer than F rows are new; in the
    //   warm-up, its max is raised to F rows past the first iteration's start (see slide()).
    int64_t single_split_factor(int d, TailStrategy tail) const {
        if (f_.stages() != 1) return 0;
        std::vector<Split> splits = splits_along(0, d).splits;
        if (splits.size() != 1) return 0;
        const Split &sp = splits[0];
        const int64_t *k = as_const_int(sp.factor);
        TailStrategy t = sp.tail == TailStrategy::Auto ? TailStrategy::ShiftInwards : sp.tail;
        return t == tail && sp.old_var == f_.args[size_t(d)] && k && *k > 0 ? *k : 0;
    }

    // The last row E a RoundUp split by F computes from the bounds lets min and max, plus one.
    static Expr rounded_end(const Expr &mn, const Expr &mx, int64_t F) {
        Expr f = Expr(int32_t(F));
        return mn + ((mx - mn) / f + 1) * f;
    }
    // The start the loops of a RoundUp split by F take instead of s, the first new row: the
    // highest point at or below s of the split's grid, origin + F j (origin: the first
    // iteration's min, a point of every iteration's grid, as the region moves by multiples of
    // F). The split then computes whole tiles from it and ends at E, as it would from the
    // bounds let min, which is a point of the grid at or below s: the rows it recomputes below
    // s are rows this iteration needs, with the values they have. (Written so that it visibly
    // never decreases as s grows: the producers' live rows are found from it.)
    static Expr aligned_start(const Expr &origin, const Expr &s, int64_t F) {
        Expr f = Expr(int32_t(F));
        return origin + ((s - origin) / f) * f;
    }

    // Makes the loops of f's produce use `min` instead of the bounds let `min_name`: they start
    // later (or, with a .max let, end earlier). With `defined_as`, min is that let, defined
    // elsewhere.
    class StartLater : public IRMutator {
    public:
        StartLater(const std::string &f, const std::string &min_name, Expr min, std::string defined_as = "")
            : f_(f), name_(min_name), min_(std::move(min)), defined_as_(std::move(defined_as)) {}
        using IRMutator::mutate;
        using IRMutator::visit;
        Stmt visit(const ProducerConsumer *op) override {
            if (!op->is_producer || op->name != f_) return IRMutator::visit(op);
            std::string slid = defined_as_.empty() ? name_ + ".slid" : defined_as_;
            Stmt body = substitute(name_, Variable::make(Int(32), slid), op->body);
            Stmt produce = ProducerConsumer::make(op->name, true, body);
            return defined_as_.empty() ? LetStmt::make(slid, min_, produce) : produce;
        }

    private:
        std::string f_, name_;
        Expr min_;
        std::string defined_as_;
    };

    std::string reason_not_to_slide(const For *loop) const {
        if (loop->for_type != ForType::Serial) return "the loop is not serial";
        for (int i = 0; i < f_.stages(); i++) {
            if (!f_.stage(i).specializations.empty()) return "it is specialized";
        }
        return "";
    }

    // Why a split along the dimension it slides in (or of a loop split from it) computes rows
    // the iteration must not ("" if none does). RoundUp computes past what the iteration needs,
    // from where sliding starts it: outside the realization (except single_split_factor's split,
    // whose start slide() aligns to the split's grid). ShiftInwards (the pure
    // definition's Auto) recomputes rows before the new ones: forwards, those are rows of
    // earlier iterations, harmless for a pure Func computed in order, but with updates it
    // resets rows they have finished (seed 52371 of the differential test), backwards they
    // are rows of later iterations (outside the realization at the end, or overwriting live
    // rows of a folded buffer), and on a parallel loop two of them may share a folded row.
    std::string recomputes_along(int d, bool backwards) const {
        const std::string &dim = f_.args[size_t(d)];
        for (int i = 0; i < f_.stages(); i++) {
            SplitsAlong along = splits_along(i, d);
            bool shifted = false;
            for (const Split &s : along.splits) {
                if (s.tail == TailStrategy::RoundUp && !(i == 0 && !backwards && single_split_factor(d, TailStrategy::RoundUp) > 0)) {
                    return "a split of it rounds up";
                }
                bool shifts = s.tail == TailStrategy::ShiftInwards || (s.tail == TailStrategy::Auto && i == 0);
                if (shifts && f_.stages() > 1) {
                    return "a split of it along " + dim + " shifts inwards, which would recompute rows its updates finished";
                }
                if (shifts && backwards) {
                    return "a split of it along " + dim + " shifts inwards, which would compute rows of later "
                           "iterations of a window moving backwards";
                }
                // A fused loop's shifted last tile starts before the region's first point when
                // the region holds fewer points than the factor: in a dimension fused into it,
                // rows before the region's, which a slid region's buffer does not hold (seed
                // 8600700 of the differential test wrote before one).
                if (shifts && along.fused.count(s.old_var)) {
                    return "a split of a loop fused from " + dim + " shifts inwards, which from the few points "
                           "new in an iteration would compute rows outside its buffer";
                }
                shifted |= shifts;
            }
            for (const Dim &loop : f_.stage(i).schedule.dims) {
                if (shifted && along.loops.count(loop.var) && loop.for_type == ForType::Parallel) {
                    return "a split of it along " + dim + " shifts inwards and its loop " + loop.var +
                           " is parallel, so two threads could write the same row";
                }
            }
        }
        return "";
    }

    // How many iterations before the loop's first f needs to warm up, so that each computes
    // about as many rows as a later one: in the steady state (the ends' clamps dropped), the
    // rows live at once over the rows new per iteration, less one. Only the length of the
    // warm-up depends on this (any number computes the same values), so it is estimated by
    // evaluating at a few points (the other names 0 or 1: a window over y / 2 may depend on
    // the parity of a min); 0 where that fails.
    static int warmup_iterations(const Expr &max_needed, const Expr &live_min, const std::string &c) {
        Expr hi = steady_state(max_needed, c), lo = steady_state(live_min, c);
        if (!node_count_at_most(hi, 4096) || !node_count_at_most(lo, 4096)) return 0;
        std::set<std::string> names;
        collect_variables(hi, names);
        collect_variables(lo, names);
        names.erase(c);
        int64_t most = 0;
        for (int64_t others : {0, 1}) {
            for (int64_t at : {10, 11}) {
                IntEnvironment env;
                for (auto &n : names) env[n] = others;
                auto eval = [&](const Expr &e, int64_t v) {
                    env[c] = v;
                    return evaluate_int(e, env).value;
                };
                auto h = eval(hi, at), h_before = eval(hi, at - 1), l = eval(lo, at);
                if (!h || !h_before || !l || *h - *h_before <= 0) return 0;
                int64_t step = *h - *h_before, live = *h - *l + 1;
                if (live > 0) most = std::max(most, (live + step - 1) / step - 1);
            }
        }
        return int(std::min<int64_t>(16, most));
    }
    // e with the clamps that hold it at a constant dropped (min(2y + 2, M) is 2y + 2 away from
    // the end), and a sliding window's start taken from its later iterations.
    static Expr steady_state(const Expr &e, const std::string &c) {
        struct Drop : IRMutator {
            const std::string &c;
            explicit Drop(const std::string &v) : c(v) {}
            using IRMutator::visit;
            Expr clamp(const Expr &a, const Expr &b, bool is_min) {
                bool ua = expr_uses_var(a, c), ub = expr_uses_var(b, c);
                if (ua && !ub) return mutate(a);
                if (ub && !ua) return mutate(b);
                return is_min ? Expr(Min::make(mutate(a), mutate(b))) : Expr(Max::make(mutate(a), mutate(b)));
            }
            Expr visit(const Min *op) override { return clamp(op->a, op->b, true); }
            Expr visit(const Max *op) override { return clamp(op->a, op->b, false); }
            Expr visit(const Select *op) override {
                return expr_uses_var(op->condition, c) ? mutate(op->true_value) : IRMutator::visit(op);
            }
        } drop(c);
        return simplify(drop.mutate(e));
    }

    const FunctionContents &f_;
    const Environment &env_;
    std::vector<std::string> &report_;
    const std::set<std::string> &unique_loops_;
    WarmupPlan &warmup_;
    std::vector<const For *> loops_;  // inside the realization, outermost first
    std::vector<std::pair<std::string, Expr>> lets_;  // inside the innermost loop
    // Whether the last place slid (or, nothing moving, computes everything in the first
    // iteration of its loop only): values are then reused from one iteration to the next.
    bool reused_ = false;
    int reused_dim_ = -1;
};

int64_t next_power_of_two(int64_t n) {
    int64_t p = 1;
    while (p < n) p *= 2;
    return p;
}

// A Func realized in several places (one per stage of a consumer it is computed in, or per
// specialization branch) has one list of storage folds, used by storage flattening for all
// of them: it is folded automatically only if every place proposes the same fold. So the
// pass runs twice: once to collect the proposals, once to rewrite.
using FoldProposal = std::optional<std::pair<int, int64_t>>;  // dimension, factor

class FindRealizations : public IRMutator {
public:
    FindRealizations(Environment &env, std::vector<std::string> &report,
                     std::map<std::string, std::vector<FoldProposal>> &proposals, bool planning,
                     const std::set<std::string> &unique_loops, WarmupPlan &warmup, SlidingDims *sliding)
        : env_(env), report_(report), proposals_(proposals), planning_(planning), unique_loops_(unique_loops),
          warmup_(warmup), sliding_(sliding) {}
    using IRMutator::mutate;
    using IRMutator::visit;

    Stmt visit(const Realize *op) override {
        Stmt body = mutate(op->body);
        auto it = env_.find(op->name);
        if (it == env_.end()) return Realize::make(op->name, op->types, op->bounds, body);
        FunctionContents &f = *it->second;
        Slide slide(f, env_, report_, unique_loops_, warmup_);
        // (A Func of no dimensions has nothing to slide along.)
        if (f.dimensions() > 0 && !(f.schedule.store_level == f.schedule.compute_level)) body = slide.mutate(body);
        if (planning_) {
            proposals_[f.name].push_back(automatic_fold(slide));
            return Realize::make(op->name, op->types, op->bounds, op->body);
        }
        if (sliding_) {
            for (const auto &slid : slide.slid) (*sliding_)[{f.name, f.args[size_t(slid.dim)]}] = slid.backwards ? -1 : 1;
        }
        std::vector<Range> bounds = op->bounds;
        std::vector<Stmt> checks = fold(f, slide, bounds);
        checks.push_back(body);
        return Realize::make(op->name, op->types, bounds, Block::make(checks));
    }

private:
    // A Func sliding along one dimension (in one place) needs only the rows an iteration
    // needs: a power of two at least the window.
    static FoldProposal automatic_fold(const Slide &slide) {
        if (slide.slid.size() != 1 || !slide.slides_everywhere_along(slide.slid[0].dim)) return std::nullopt;
        const int64_t *window = as_const_int(slide.slid[0].window);
        if (!window || *window <= 0) return std::nullopt;
        return std::make_pair(slide.slid[0].dim, next_power_of_two(*window));
    }

    // Storage folding: automatic where every realization of f agrees (see automatic_fold).
    // fold_storage folds by its extent anywhere: along the dimension the Func slides in, what
    // each iteration needs must fit (checked where it is computed); along another, what the
    // realization covers (checked here). Returns the checks to run first in the realization.
    std::vector<Stmt> fold(FunctionContents &f, const Slide &slide, std::vector<Range> &bounds) {
        std::vector<StorageFold> folds;
        std::vector<Stmt> checks;
        auto add = [&](int d, const Expr &factor, bool explicit_fold) {
            bounds[size_t(d)].extent = min(bounds[size_t(d)].extent, factor);
            folds.push_back({f.args[size_t(d)], factor, explicit_fold});
            report_.push_back(f.name + ": storage folded modulo " + to_string(factor) + " in dimension " + f.args[size_t(d)]);
        };
        for (const StorageFold &fold : f.schedule.folds) {
            // (An automatic fold from another realization of f is decided again below.)
            if (!fold.explicit_fold) continue;
            int d = int(std::find(f.args.begin(), f.args.end(), fold.var) - f.args.begin());
            if (!slide.fold_checked_everywhere(d)) {
                Expr needed = bounds[size_t(d)].extent;
                // The whole realization is checked where f does not slide: say why it does not.
                std::string hint = slide.why_not.empty() ? "" : " (it is not computed as a sliding window: " + slide.why_not + ")";
                Expr msg = Call::make(Int(32), "halo_error_fold_storage",
                                      {StringImm::make(f.name), StringImm::make(fold.var), needed, fold.factor,
                                       StringImm::make(hint)},
                                      Call::Extern);
                checks.push_back(AssertStmt::make(needed <= fold.factor, msg));
            }
            add(d, fold.factor, true);
        }
        const std::vector<FoldProposal> &all = proposals_[f.name];
        bool agreed = !all.empty() && all[0] && std::all_of(all.begin(), all.end(), [&](const FoldProposal &p) { return p == all[0]; });
        if (folds.empty() && agreed) add(all[0]->first, Expr(int32_t(all[0]->second)), false);
        f.schedule.folds = folds;  // what storage flattening folds
        return checks;
    }

    Environment &env_;
    std::vector<std::string> &report_;
    std::map<std::string, std::vector<FoldProposal>> &proposals_;
    bool planning_;
    const std::set<std::string> &unique_loops_;
    WarmupPlan &warmup_;
    SlidingDims *sliding_;
};

}  // namespace

Stmt sliding_window(const Stmt &s, Environment &env, std::vector<std::string> *report, WarmupPlan *plan,
                    SlidingDims *sliding) {
    std::map<std::string, std::vector<FoldProposal>> proposals;
    std::vector<std::string> planning_lines, lines;
    std::set<std::string> unique_loops = loops_named_once(s);
    WarmupPlan planning_warmup, warmup;
    FindRealizations(env, planning_lines, proposals, true, unique_loops, planning_warmup, nullptr).mutate(s);
    Stmt r = FindRealizations(env, lines, proposals, false, unique_loops, warmup, sliding).mutate(s);
    if (report) *report = lines;
    if (plan) *plan = warmup;
    return r;
}

}  // namespace halo
