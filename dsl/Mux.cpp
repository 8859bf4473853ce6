#include "Mux.h"

#include <functional>

#include "Error.h"
#include "IROperator.h"
#include "IRPrinter.h"

namespace halo {

Expr mux(const Expr &id, const std::vector<Expr> &values) {
    user_assert(id.defined()) << "mux() with an undefined index";
    user_assert(!values.empty()) << "mux(" << id << ", {}): give at least one value";
    user_assert(id.type().is_int() || id.type().is_uint())
        << "mux(" << id << ", ...): the index has type " << id.type().to_string() << "; give an integer index";
    for (size_t i = 0; i < values.size(); i++) {
        user_assert(values[i].defined()) << "mux(" << id << ", ...): value " << i << " is undefined";
        user_assert(values[i].type() == values[0].type())
            << "mux(" << id << ", ...): value " << i << " (" << values[i] << ") has type " << values[i].type().to_string()
            << " but value 0 (" << values[0] << ") has type " << values[0].type().to_string()
            << "; all values must have one type (cast them)";
    }
    // Any index but 0 .. n - 2 takes the last value. (An index the id's type cannot hold, past
    // 255 for a uint8 id, is never taken.)
    int64_t pickable = int64_t(values.size()) - 1;
    while (pickable > 0 && !id.type().can_represent(pickable - 1)) pickable--;
    auto constant = [&](int64_t i) { return make_const(id.type(), i); };
    if (pickable <= 8) {
        // select(id == 0, v0, id == 1, v1, ..., last)
        Expr result = values.back();
        for (int64_t i = pickable; i-- > 0;) result = select(id == constant(i), values[size_t(i)], result);
        return result;
    }
    // Many values: a balanced tree of selects inside a range check, as deep as log2(n) (a chain
    // of 10000 selects passed the limit on the depth of a definition, and simplifying each of its
    // unrolled copies took time linear in n).
    std::function<Expr(int64_t, int64_t)> tree = [&](int64_t lo, int64_t hi) -> Expr {
        if (lo == hi) return values[size_t(lo)];
        const int64_t mid = lo + (hi - lo + 1) / 2;
        return select(id < constant(mid), tree(lo, mid - 1), tree(mid, hi));
    };
    Expr in_range = id <= constant(pickable - 1);
    if (!id.type().is_uint()) in_range = id >= constant(0) && in_range;
    return select(in_range, tree(0, pickable - 1), values.back());
}

Expr mux(const Expr &id, std::initializer_list<Expr> values) { return mux(id, std::vector<Expr>(values)); }

Expr mux(const Expr &id, const Tuple &values) { return mux(id, values.as_vector()); }

Tuple mux(const Expr &id, const std::vector<Tuple> &values) {
    user_assert(!values.empty()) << "mux(" << id << ", {}): give at least one Tuple";
    std::vector<Expr> result;
    for (size_t k = 0; k < values[0].size(); k++) {
        std::vector<Expr> element;
        for (size_t i = 0; i < values.size(); i++) {
            user_assert(values[i].size() == values[0].size())
                << "mux(" << id << ", ...): Tuple " << i << " has " << values[i].size() << " elements but Tuple 0 has "
                << values[0].size() << "; all Tuples must have one size";
            element.push_back(values[i][k]);
        }
        result.push_back(mux(id, element));
    }
    return Tuple(result);
}

Tuple mux(const Expr &id, std::initializer_list<Tuple> values) { return mux(id, std::vector<Tuple>(values)); }

}  // namespace halo
