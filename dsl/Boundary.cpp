#include "Boundary.h"
#include "ImplicitVars.h"

#include <map>
#include <mutex>
#include <string>

namespace halo {
namespace BoundaryConditions {

namespace {

// The source's values at a point: one, or each value of a Tuple-valued Func.
using Source = std::function<std::vector<Expr>(const std::vector<Expr> &)>;

enum class Kind { RepeatEdge, Constant, Mirror, MirrorInterior, RepeatImage };

// Each boundary condition is a Func of its own, even of the same source and kind (a pipeline
// may apply repeat_edge(in) twice): the first gets the plain name, later ones name$1, name$2,
// as Halide's unique_name numbers them.
std::string unique_boundary_name(const std::string &base) {
    static std::mutex mutex;
    static std::map<std::string, int> uses;
    std::lock_guard<std::mutex> lock(mutex);
    int n = uses[base]++;
    return n == 0 ? base : base + "$" + std::to_string(n);
}

const char *kind_name(Kind k) {
    switch (k) {
    case Kind::RepeatEdge: return "repeat_edge";
    case Kind::Constant: return "constant_exterior";
    case Kind::Mirror: return "mirror_image";
    case Kind::MirrorInterior: return "mirror_interior";
    default: return "repeat_image";
    }
}

// var_names: the Vars of the boundary condition's Func (a Func source's own, as in Halide, so
// that a schedule written with the source's Vars applies), or empty for bc0, bc1, ...
// value: constant_exterior's value outside the bounds, one per value of the source.
Func make_boundary(const std::string &name, const Source &source, int dims, const Region &bounds,
                   Kind kind, const std::vector<std::string> &var_names, const std::vector<Expr> &value = {}) {
    user_assert(int(bounds.size()) <= dims)
        << "Boundary condition on '" << name << "' given " << bounds.size()
        << " bounds for a source with " << dims << " dimensions";
    std::vector<Expr> args, coords;
    Expr outside;
    for (int d = 0; d < dims; d++) {
        Var v(d < int(var_names.size()) ? var_names[size_t(d)] : "bc" + std::to_string(d));
        args.push_back(v);
        if (d >= int(bounds.size()) || !bounds[d].first.defined()) {
            coords.push_back(v);  // unbounded dimension: passed through
            continue;
        }
        Expr mn = cast(Int(32), bounds[d].first), ex = cast(Int(32), bounds[d].second);
        Expr mx = mn + ex - 1;
        // The clamps below change nothing at run time; they tell bounds inference the range.
        if (kind == Kind::Mirror) {
            Expr m = (Expr(v) - mn) % (2 * ex);
            coords.push_back(clamp(mn + select(m < ex, m, 2 * ex - 1 - m), mn, mx));
        } else if (kind == Kind::MirrorInterior) {
            // Period 2 * extent - 2 (for extent 1, x % 0 is 0: the one pixel).
            Expr m = (Expr(v) - mn) % (2 * ex - 2);
            coords.push_back(clamp(mn + select(m < ex, m, 2 * ex - 2 - m), mn, mx));
        } else if (kind == Kind::RepeatImage) {
            coords.push_back(clamp(mn + (Expr(v) - mn) % ex, mn, mx));
        } else {
            coords.push_back(clamp(v, mn, mx));
        }
        Expr o = Expr(v) < mn || Expr(v) > mx;
        outside = outside.defined() ? (outside || o) : o;
    }
    Func f(unique_boundary_name(name + "_" + kind_name(kind)));
    f.function()->made_by_library = true;
    std::vector<Expr> inside = source(coords);
    if (kind == Kind::Constant) {
        user_assert(value.size() == inside.size())
            << "constant_exterior of '" << name << "' given " << value.size() << " value" << (value.size() == 1 ? "" : "s")
            << " for the outside, but '" << name << "' has " << inside.size()
            << " (a Tuple-valued source takes a Tuple of as many values, one per element)";
        for (size_t i = 0; i < inside.size() && outside.defined(); i++) {
            user_assert(value[i].defined()) << "constant_exterior of '" << name << "' given an undefined value";
            // An integer constant takes the source's type, and must fit it (select's rule).
            Expr v = as_const_int(value[i]) ? value[i] : cast(inside[i].type(), value[i]);
            inside[i] = select(outside, v, inside[i]);
        }
    }
    if (inside.size() == 1) f(args) = inside[0];
    else f(args) = Tuple(inside);
    return f;
}

// The region a boundary condition keeps: the given one, else the source's own bounds (an
// ImageParam's at run time, a Buffer's now; a Func has none, so its region must be given).
Region region_of(const Func &, const Region &given) { return given; }
Region region_of(const ImageParam &p, const Region &given) {
    if (!given.empty()) return given;
    Region r;
    for (int d = 0; d < p.dimensions(); d++) r.push_back({p.dim(d).min(), p.dim(d).extent()});
    return r;
}
Region region_of(const Buffer<> &b, const Region &given) {
    if (!given.empty()) return given;
    Region r;
    for (int d = 0; d < b.dimensions(); d++) r.push_back({Expr(b.dim(d).min()), Expr(b.dim(d).extent())});
    return r;
}

Source of(const Func &f) {
    return [f](const std::vector<Expr> &a) {
        if (f.defined() && f.outputs() > 1) return Tuple(f(a)).as_vector();
        return std::vector<Expr>{Expr(f(a))};
    };
}
Source of(const ImageParam &p) {
    return [p](const std::vector<Expr> &a) { return std::vector<Expr>{p(a)}; };
}
Source of(const Buffer<> &b) {
    return [b](const std::vector<Expr> &a) { return std::vector<Expr>{b(a)}; };
}

std::vector<std::string> var_names_of(const Func &f) {
    std::vector<std::string> names;
    for (const Var &v : f.args()) {
        if (is_implicit_var_name(v.name())) return {};  // (_0, _1 belong to the placeholder _)
        names.push_back(v.name());
    }
    return names;
}
std::vector<std::string> var_names_of(const ImageParam &) { return {}; }
std::vector<std::string> var_names_of(const Buffer<> &) { return {}; }

template <typename S>
Func boundary(const S &s, const Region &b, Kind kind, const std::vector<Expr> &value = {}) {
    return make_boundary(s.name(), of(s), s.dimensions(), region_of(s, b), kind, var_names_of(s), value);
}

}  // namespace

Func repeat_edge(const Func &s, const Region &b) { return boundary(s, b, Kind::RepeatEdge); }
Func repeat_edge(const ImageParam &s, const Region &b) { return boundary(s, b, Kind::RepeatEdge); }
Func repeat_edge(const Buffer<> &s, const Region &b) { return boundary(s, b, Kind::RepeatEdge); }
Func constant_exterior(const Func &s, Expr v, const Region &b) { return boundary(s, b, Kind::Constant, {v}); }
Func constant_exterior(const ImageParam &s, Expr v, const Region &b) { return boundary(s, b, Kind::Constant, {v}); }
Func constant_exterior(const Buffer<> &s, Expr v, const Region &b) { return boundary(s, b, Kind::Constant, {v}); }
Func constant_exterior(const Func &s, const Tuple &v, const Region &b) {
    return boundary(s, b, Kind::Constant, v.as_vector());
}
Func constant_exterior(const ImageParam &s, const Tuple &v, const Region &b) {
    return boundary(s, b, Kind::Constant, v.as_vector());
}
Func constant_exterior(const Buffer<> &s, const Tuple &v, const Region &b) {
    return boundary(s, b, Kind::Constant, v.as_vector());
}
Func mirror_image(const Func &s, const Region &b) { return boundary(s, b, Kind::Mirror); }
Func mirror_image(const ImageParam &s, const Region &b) { return boundary(s, b, Kind::Mirror); }
Func mirror_image(const Buffer<> &s, const Region &b) { return boundary(s, b, Kind::Mirror); }
Func mirror_interior(const Func &s, const Region &b) { return boundary(s, b, Kind::MirrorInterior); }
Func mirror_interior(const ImageParam &s, const Region &b) { return boundary(s, b, Kind::MirrorInterior); }
Func mirror_interior(const Buffer<> &s, const Region &b) { return boundary(s, b, Kind::MirrorInterior); }
Func repeat_image(const Func &s, const Region &b) { return boundary(s, b, Kind::RepeatImage); }
Func repeat_image(const ImageParam &s, const Region &b) { return boundary(s, b, Kind::RepeatImage); }
Func repeat_image(const Buffer<> &s, const Region &b) { return boundary(s, b, Kind::RepeatImage); }

}  // namespace BoundaryConditions
}  // namespace halo
