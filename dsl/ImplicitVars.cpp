#include "ImplicitVars.h"

#include <cctype>

#include "Buffer.h"
#include "Error.h"
#include "Var.h"

namespace halo {

bool is_implicit_var_name(const std::string &name) {
    if (name.size() < 2 || name.size() > 4 || name[0] != '_') return false;  // _0 .. _999
    for (size_t i = 1; i < name.size(); i++)
        if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
    return true;
}

namespace {
bool is_placeholder(const Expr &e) {
    const Variable *v = e.as<Variable>();
    return v && v->name == "_" && !v->rdom && !v->param;
}
}  // namespace

int expand_placeholder(std::vector<Expr> &args, int dimensions, const std::string &callee) {
    int pos = -1;
    for (size_t i = 0; i < args.size(); i++) {
        if (!is_placeholder(args[i])) continue;
        user_assert(pos < 0) << callee << " is called with the placeholder _ twice; _ stands for all the "
                             << "remaining dimensions, so it may appear once";
        pos = int(i);
    }
    if (pos < 0) return -1;
    args.erase(args.begin() + pos);
    if (dimensions < 0) return pos;
    user_assert(int(args.size()) <= dimensions)
        << callee << " has " << dimensions << " dimensions but is called with " << args.size()
        << " arguments besides the placeholder _";
    int k = 0;
    for (int at = pos; int(args.size()) < dimensions; at++) args.insert(args.begin() + at, Var::implicit(k++));
    return pos;
}

}  // namespace halo
