#include "Mux.h"

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
    // select(id == 0, v0, id == 1, v1, ..., last): any other index takes the last value.
    Expr result = values.back();
    // (An index the id's type cannot hold, past 255 for a uint8 id, is never taken.)
    for (size_t i = values.size() - 1; i-- > 0;) {
        if (id.type().can_represent(int64_t(i))) result = select(id == make_const(id.type(), int64_t(i)), values[i], result);
    }
    return result;
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
