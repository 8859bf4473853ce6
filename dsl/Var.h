// Var (a pure dimension) and RVar/RDom (a reduction domain).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Function.h"
#include "IROperator.h"
#include "Parameter.h"

namespace halo {

class Var {
public:
    Var() : name_(unique_name('v')) {}
    explicit Var(const std::string &name) : name_(name) {}
    const std::string &name() const { return name_; }
    operator Expr() const { return Variable::make(Int(32), name_); }
    bool same_as(const Var &o) const { return name_ == o.name_; }
    // A loop of one iteration around all of a stage's loops (Halide's): compute_at(f,
    // Var::outermost()) computes a producer once per realization of f, inside f's own
    // realization (unlike compute_root when f is itself computed at a tile).
    static Var outermost() { return Var("__outermost"); }
    // The n-th implicit Var (_n), which the placeholder _ stands for (see ImplicitVars.h).
    static Var implicit(int n) { return Var("_" + std::to_string(n)); }

private:
    std::string name_;
};

// The implicit Vars, as Halide names them: those the placeholder _ stands for
// (f(x, _) = g(x, _) is f(x, _0, _1) = g(x, _0, _1) for a 3-D g), and the Vars of an
// ImageParam's wrappers (im.in().compute_root().vectorize(_0, 8)).
inline const Var _("_");
inline const Var _0("_0"), _1("_1"), _2("_2"), _3("_3"), _4("_4"), _5("_5"), _6("_6"), _7("_7"), _8("_8"),
    _9("_9");

class RDom;

// One dimension of an RDom.
class RVar {
public:
    // Each default-constructed RVar has a name of its own, as in Halide (split(r.x, ro, ri, 4)).
    RVar() : name_(unique_name('r')) {}
    RVar(std::shared_ptr<ReductionDomainContents> dom, int index) : dom_(std::move(dom)), index_(index) {}
    // A named loop variable made by splitting an RVar (see Stage::split).
    explicit RVar(const std::string &name) : name_(name) {}
    const std::string &name() const { return dom_ ? dom_->vars[index_].name : name_; }
    Expr min() const { return dom_->vars[index_].min; }
    Expr extent() const { return dom_->vars[index_].extent; }
    operator Expr() const {
        user_assert(missing_.empty()) << missing_;
        return Variable::make(Int(32), name(), nullptr, dom_);
    }
    const std::shared_ptr<ReductionDomainContents> &domain() const { return dom_; }
    // A field of an RDom (r.y, r.z, r.w) beyond its dimensions: using it is an error that says so.
    static RVar missing(const std::string &why) {
        RVar v;
        v.missing_ = why;
        return v;
    }

private:
    std::shared_ptr<ReductionDomainContents> dom_;
    int index_ = 0;
    std::string name_;
    std::string missing_;
};

// A multi-dimensional box to reduce over, iterated with dimension 0 innermost.
class RDom {
public:
    // No dimensions yet (Halide's undefined RDom); r.x of it is an error.
    RDom();
    // RDom(min0, extent0, min1, extent1, ...)
    explicit RDom(const std::vector<std::pair<Expr, Expr>> &ranges, const std::string &name = "");
    // As in Halide, any number of (min, extent) pairs, then optionally the name:
    // RDom(0, w, 0, h, "r"). Dimensions past the fourth are r[4], r[5], ...
    template <typename... Rest>
    RDom(Expr min0, Expr extent0, Rest &&...rest)
        : RDom(ranges_and_name(std::move(min0), std::move(extent0), std::forward<Rest>(rest)...)) {}
    // Iterates over the whole of a buffer.
    template <typename T>
    explicit RDom(const class Buffer<T> &b) : RDom(ranges_of(b.contents)) {}
    // Iterates over the whole of an input image, whatever its size when the pipeline runs.
    explicit RDom(const class ImageParam &p);

    int dimensions() const { return dom_ ? int(dom_->vars.size()) : 0; }
    // Restricts the domain to the points where predicate holds (Halide's RDom::where), e.g. a
    // triangle: RDom r(0, n, 0, n); r.where(r.x <= r.y). Several calls: all must hold. Only
    // before the RDom is used in a definition.
    RDom &where(Expr predicate);
    RVar operator[](int i) const;
    operator RVar() const { return (*this)[0]; }
    operator Expr() const { return Expr((*this)[0]); }
    const std::shared_ptr<ReductionDomainContents> &domain() const { return dom_; }
    bool defined() const { return dom_ != nullptr; }

    RVar x, y, z, w;

private:
    struct RangesAndName {
        std::vector<Expr> bounds;  // min0, extent0, min1, extent1, ...
        std::string name;
    };
    explicit RDom(const RangesAndName &given);
    static void collect(RangesAndName &) {}
    template <typename T, typename... Rest>
    static void collect(RangesAndName &out, T &&first, Rest &&...rest) {
        if constexpr (std::is_convertible_v<T, std::string>) {
            static_assert(sizeof...(Rest) == 0, "RDom(min0, extent0, ..., name): the name comes last");
            out.name = std::string(std::forward<T>(first));
        } else {
            out.bounds.push_back(Expr(std::forward<T>(first)));
            collect(out, std::forward<Rest>(rest)...);
        }
    }
    template <typename... Rest>
    static RangesAndName ranges_and_name(Expr min0, Expr extent0, Rest &&...rest) {
        RangesAndName r;
        r.bounds = {std::move(min0), std::move(extent0)};
        collect(r, std::forward<Rest>(rest)...);
        return r;
    }
    static std::vector<std::pair<Expr, Expr>> ranges_of(const std::shared_ptr<struct BufferContents> &b);
    std::shared_ptr<ReductionDomainContents> dom_;
};

}  // namespace halo
