// Stage::rfactor (Halide's): an associative reduction split into an intermediate Func that
// reduces over some RVar loops for each value of the others (made pure Vars), and the
// original update reducing the intermediate over those others.
#include <map>

#include "Associativity.h"
#include "Func.h"
#include "lower/Substitute.h"

namespace halo {

namespace {

// The update's RVar loops after its splits, each with its bounds, and the original RVars (and
// the splits' guards) as expressions of them. Loops are named by internal ids while splits
// are replayed (a split may give its outer loop the old loop's name).
struct RVarLoops {
    std::map<std::string, std::string> id_of;  // current loop name -> id
    std::map<std::string, std::pair<Expr, Expr>> bounds;  // id -> (min, extent)
    std::map<std::string, Expr> original;  // original RVar name -> expression of ids
    std::vector<Expr> guards;  // of splits whose factor may not divide the extent
    int next = 0;

    std::string fresh() { return "rfactor$" + std::to_string(next++); }
    void replace(const std::string &id, const Expr &by) {
        for (auto &[n, e] : original) e = substitute(id, by, e);
        for (Expr &g : guards) g = substitute(id, by, g);
    }
};

RVarLoops rvar_loops(const Definition &def, const std::string &stage) {
    RVarLoops loops;
    for (auto &rv : def.rdom->vars) {
        std::string id = loops.fresh();
        loops.id_of[rv.name] = id;
        loops.bounds[id] = {rv.min, rv.extent};
        loops.original[rv.name] = Variable::make(Int(32), id);
    }
    for (const Split &s : def.schedule.splits) {
        auto old = loops.id_of.find(s.old_var);
        bool touches_rvar = old != loops.id_of.end() || loops.id_of.count(s.outer) || loops.id_of.count(s.inner);
        if (!touches_rvar) continue;  // a split of a pure Var
        if (s.kind == Split::FuseVars) {
            // Two RVar loops fused into one over the product of their extents (as lowering
            // fuses them: inner = t % inner extent + inner min, outer = t / inner extent + outer min).
            auto in = loops.id_of.find(s.inner), out = loops.id_of.find(s.outer);
            user_assert(in != loops.id_of.end() && out != loops.id_of.end())
                << stage << ": rfactor of an update whose RVar loop is fused with a pure Var's loop (" << s.old_var
                << "); rfactor before fusing them";
            std::string inner_id = in->second, outer_id = out->second, fused = loops.fresh();
            auto [inner_min, inner_extent] = loops.bounds.at(inner_id);
            auto [outer_min, outer_extent] = loops.bounds.at(outer_id);
            Expr t = Variable::make(Int(32), fused);
            // (An empty loop fuses into an empty loop: two negative extents must not make a
            // positive product.)
            loops.bounds[fused] = {Expr(0), max(inner_extent, 0) * max(outer_extent, 0)};
            loops.replace(inner_id, t % inner_extent + inner_min);
            loops.replace(outer_id, t / inner_extent + outer_min);
            loops.id_of.erase(in);
            loops.id_of.erase(loops.id_of.find(s.outer));
            loops.id_of[s.old_var] = fused;
            continue;
        }
        // (A split or rename whose new names meet an RVar's loop splits that loop: names of
        // loops are unique, so old_var is that RVar's.)
        internal_assert(old != loops.id_of.end()) << stage << ": rfactor found no loop '" << s.old_var << "' to split";
        if (s.kind == Split::RenameVar) {
            std::string id = old->second;
            loops.id_of.erase(old);
            loops.id_of[s.outer] = id;
            continue;
        }
        std::string id = old->second;
        auto [mn, extent] = loops.bounds.at(id);
        std::string outer = loops.fresh(), inner = loops.fresh();
        Expr vo = Variable::make(Int(32), outer), vi = Variable::make(Int(32), inner);
        loops.bounds[outer] = {Expr(0), (extent + s.factor - 1) / s.factor};
        loops.bounds[inner] = {Expr(0), s.factor};
        // The guard keeps the points past the end out of the reduction; the clamp tells bounds
        // inference (which does not look at guards) that reads stay inside the old range.
        loops.replace(id, min(mn + vo * s.factor + vi, mn + extent - 1));
        loops.guards.push_back(vo * s.factor + vi < extent);
        loops.id_of.erase(old);
        loops.id_of[s.outer] = outer;
        loops.id_of[s.inner] = inner;
    }
    return loops;
}

// The values of a Func at a point: its one value, or each value of a Tuple.
std::vector<Expr> values_of(const FuncRef &ref, size_t n) {
    if (n == 1) return {Expr(ref)};
    std::vector<Expr> out;
    for (size_t i = 0; i < n; i++) out.push_back(Expr(ref[int(i)]));
    return out;
}

std::string loop_names(const RVarLoops &loops) {
    std::string s;
    for (auto &[name, id] : loops.id_of) s += (s.empty() ? "" : ", ") + name;
    return s;
}

}  // namespace

namespace {
// An RDom::where predicate that reads f: which iterations run then depends on their order.
bool predicate_reads(const Definition &def, const FunctionContents &f) {
    if (!def.rdom) return false;
    for (auto &p : def.rdom->predicates) {
        if (calls_func(p, f)) return true;
    }
    return false;
}
}  // namespace

std::string describe_values(const std::vector<Expr> &values) {
    if (values.size() == 1) return to_string(values[0]);
    std::string s = "{";
    for (size_t i = 0; i < values.size(); i++) s += (i ? ", " : "") + to_string(values[i]);
    return s + "}";
}

bool update_is_associative_and_commutative(const FunctionContents &f, const Definition &def) {
    if (predicate_reads(def, f)) return false;
    AssociativeUpdate assoc;
    if (match_associative(def.values, f, def.args, assoc) && assoc.commutative()) return true;
    std::vector<std::string> rvars;
    if (def.rdom) {
        for (auto &rv : def.rdom->vars) rvars.push_back(rv.name);
    }
    return iterations_apply_one_map(def.values, f, def.args, rvars);
}

Func Stage::rfactor(const RVar &r, const Var &v) { return rfactor({{r, v}}); }

Func Stage::rfactor(const std::vector<std::pair<RVar, Var>> &preserved) {
    const std::string stage = describe();
    // (Of a specialization too, as in Halide: only that specialization reduces through the
    // intermediate; the others, and the reference evaluator, keep the original update.)
    user_assert(index_ > 0) << stage << ": rfactor applies to an update definition (f.update(i).rfactor(...))";
    Definition &def = this->def();
    user_assert(def.rdom) << stage << " has no RDom: there is nothing to rfactor";
    user_assert(def.specializations.empty() && !def.fails_unspecialized)
        << stage << " is specialized; rfactor it before specializing it";
    user_assert(!preserved.empty()) << stage << ": rfactor needs at least one (RVar, Var) pair";
    user_assert(!f_->records_visits)
        << stage << ": rfactor of the intermediate of an argmin's or argmax's rfactor, whose last value records "
        << "whether a part visited any point: it cannot be rfactored again. Rfactor the original update once, "
        << "with every RVar loop that should become a Var (rfactor({{r1, u}, {r2, v}}))";
    AssociativeUpdate assoc;
    user_assert(match_associative(def.values, *f_, def.args, assoc))
        << stage << ": rfactor needs an associative update of the form " << f_->name << "(...) = " << f_->name
        << "(...) op e, with op one of +, -, *, min, max, &&, || and a saturating add, and neither e nor the left side reading "
        << f_->name
        << (def.values.size() > 1 ? " (for a Tuple: each value so, reading only its own value of " + f_->name +
                                        ", or left as it is, or an argmin or argmax: select(" + f_->name + "[j] < e_j, " +
                                        f_->name + "[i], e_i) beside min(" + f_->name + "[j], e_j); or a product of complex numbers)"
                                  : std::string())
        << " (this one is " << describe_values(def.values) << ")";
    user_assert(!predicate_reads(def, *f_))
        << stage << ": rfactor of an update whose RDom's where() reads " << f_->name
        << " itself: which iterations run depends on the values before them, so the reduction "
        << "cannot be split into independent parts";

    RVarLoops loops = rvar_loops(def, stage);
    // The RVar loops in loop order (innermost first), split into those the intermediate keeps
    // as RVars and those that become its pure Vars.
    std::map<std::string, std::string> preserved_var;  // loop name -> Var name
    for (auto &[rv, v] : preserved) {
        user_assert(loops.id_of.count(rv.name()))
            << stage << ": rfactor(" << rv.name() << ", " << v.name() << "): '" << rv.name()
            << "' is not one of its RVar loops (" << loop_names(loops) << ")";
        user_assert(std::find(f_->args.begin(), f_->args.end(), v.name()) == f_->args.end())
            << stage << ": rfactor(" << rv.name() << ", " << v.name() << "): '" << v.name() << "' is already a Var of "
            << f_->name << "; use a new Var";
        user_assert(preserved_var.emplace(rv.name(), v.name()).second)
            << stage << ": rfactor names the RVar loop '" << rv.name() << "' twice";
    }
    std::vector<std::string> kept, moved;  // loop names, innermost first
    for (const Dim &d : def.schedule.dims) {
        if (!d.is_rvar) continue;
        const bool is_moved = preserved_var.count(d.var) > 0;
        // The intermediate visits the kept loops inside the moved ones: in the update's order
        // only if no kept loop is outside a moved one. An argmin's result depends on the order.
        if (!is_moved && !moved.empty() && !assoc.commutative()) {
            user_error << stage << ": rfactor(" << moved.front() << ", " << preserved_var.at(moved.front())
                       << "): the update is an argmin or argmax, whose result depends on the order of its points "
                       << "(between equal values, the first or the last one wins, as its select says), and the RVar "
                       << "loop '" << d.var << "' it leaves to the intermediate is outside '"
                       << moved.front() << "', so the intermediate would visit the points in another order. Rfactor "
                       << "only loops outside every loop it keeps: rfactor '" << d.var << "' too, or an outer loop instead";
        }
        (is_moved ? moved : kept).push_back(d.var);
    }

    // The intermediate's RDom: the kept loops with their bounds, and the guards of the splits
    // and the original predicates (RDom::where) as its predicates.
    auto intm_dom = std::make_shared<ReductionDomainContents>();
    intm_dom->name = f_->name + "_intm_r";
    // (The predicates name the RDom's RVars without pointing back to it, as RDom::where does: a
    // reference from the RDom to itself would never be freed.)
    std::map<std::string, Expr> id_to_intm, id_to_named;
    for (auto &name : kept) {
        const std::string &id = loops.id_of.at(name);
        auto [mn, extent] = loops.bounds.at(id);
        intm_dom->vars.push_back({name, mn, extent});
        id_to_intm[id] = Variable::make(Int(32), name, nullptr, intm_dom);
        id_to_named[id] = Variable::make(Int(32), name);
    }
    for (auto &name : moved) {
        Expr v = Var(preserved_var.at(name));
        id_to_intm[loops.id_of.at(name)] = v;
        id_to_named[loops.id_of.at(name)] = v;
    }
    std::map<std::string, Expr> original_in_intm, original_named;
    for (auto &[name, e] : loops.original) {
        original_in_intm[name] = substitute(id_to_intm, e);
        original_named[name] = substitute(id_to_named, e);
    }
    for (Expr g : loops.guards) intm_dom->predicates.push_back(substitute(id_to_named, g));
    for (auto &p : def.rdom->predicates) intm_dom->predicates.push_back(substitute(original_named, p));

    int made = f_->rfactor_intermediates++;
    Func intm(f_->name + "_intm" + (made ? "_" + std::to_string(made) : std::string()));
    std::vector<Expr> pure_args;
    for (auto &a : f_->args) pure_args.push_back(Var(a));
    std::vector<Expr> intm_pure = pure_args;
    for (auto &name : moved) intm_pure.push_back(Var(preserved_var.at(name)));
    std::vector<Type> types;
    for (const Expr &v : def.values) types.push_back(v.type());
    // An argmin's identity is not one on both sides: between equal values, the identity's
    // position can win over a point's (first wins) or a part that visited no point (its loops
    // empty for some u, or every point left out by a predicate) can win over what came before
    // (last wins). So the intermediate records whether a part visited any point: each part
    // starts at its first point, and the update merges only the parts that visited one.
    const bool track_visits = assoc.has_follow();
    intm.function()->records_visits = track_visits;
    std::vector<Expr> intm_init = assoc.identity(types);
    if (track_visits) intm_init.push_back(Expr::make_bool(false));
    intm(intm_pure) = Tuple(intm_init);
    std::vector<Expr> intm_lhs;
    for (auto &a : def.args) intm_lhs.push_back(substitute(original_in_intm, a));
    for (auto &name : moved) intm_lhs.push_back(Var(preserved_var.at(name)));
    std::vector<Expr> others;
    for (const Expr &e : assoc.others) others.push_back(substitute(original_in_intm, e));
    const size_t intm_values = types.size() + (track_visits ? 1 : 0);
    std::vector<Expr> intm_now = values_of(intm(intm_lhs), intm_values);
    const std::vector<Expr> intm_so_far(intm_now.begin(), intm_now.begin() + types.size());
    std::vector<Expr> combined = assoc.combine(intm_so_far, others);
    if (track_visits) {
        // The first point a part visits starts it (no merge with the identity).
        std::vector<Expr> first = assoc.first(intm_so_far, others);
        for (size_t i = 0; i < combined.size(); i++) combined[i] = select(intm_now.back(), combined[i], first[i]);
        combined.push_back(Expr::make_bool(true));
    }
    if (kept.empty()) {
        // Every RVar loop became a Var (as Halide allows): the intermediate's update has no
        // RDom, so the guards and predicates that would have been its RDom's select instead.
        Expr taken;
        for (const Expr &p : intm_dom->predicates) taken = taken.defined() ? (taken && p) : p;
        if (taken.defined()) {
            for (size_t i = 0; i < combined.size(); i++) combined[i] = select(taken, combined[i], intm_now[i]);
        }
    }
    intm(intm_lhs) = Tuple(combined);
    if (Definition &intm_update = intm.function()->updates.back(); !kept.empty() && !intm_update.rdom) {
        // No value reads a kept RVar (f * 4 + e * 0, matched as simplified: a product by 4 per
        // point): the update still runs once per point of its RDom, not once.
        intm_update.rdom = intm_dom;
        intm_dom->used = true;
        std::vector<Dim> dims;
        for (auto &rv : intm_dom->vars) dims.push_back(Dim{rv.name, ForType::Serial, true});
        intm_update.schedule.dims.insert(intm_update.schedule.dims.begin(), dims.begin(), dims.end());
    }

    // This update now reduces the intermediate over the moved loops, at every point of f.
    auto dom = std::make_shared<ReductionDomainContents>();
    dom->name = f_->name + "_rfactor_r";
    std::vector<Expr> intm_args = pure_args;
    for (auto &name : moved) {
        auto [mn, extent] = loops.bounds.at(loops.id_of.at(name));
        dom->vars.push_back({name, mn, extent});
        intm_args.push_back(Variable::make(Int(32), name, nullptr, dom));
    }
    dom->used = true;
    std::vector<Expr> self;
    for (size_t i = 0; i < types.size(); i++) {
        self.push_back(Call::make(types[i], f_->name, pure_args, Call::Halo, FunctionPtr::weak(f_), nullptr, int(i)));
    }
    def.args = pure_args;
    std::vector<Expr> partial = values_of(intm(intm_args), intm_values);
    def.values = assoc.combine(self, std::vector<Expr>(partial.begin(), partial.begin() + types.size()));
    if (track_visits) {
        for (size_t i = 0; i < types.size(); i++) def.values[i] = select(partial.back(), def.values[i], self[i]);
    }
    def.rdom = dom;
    def.schedule = StageSchedule();
    for (auto &rv : dom->vars) def.schedule.dims.push_back(Dim{rv.name, ForType::Serial, true});
    for (auto &a : f_->args) def.schedule.dims.push_back(Dim{a, ForType::Serial, false});
    f_->changed();
    return intm;
}

}  // namespace halo
