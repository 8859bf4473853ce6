#include "ExternFunction.h"

#include <cctype>
#include <map>
#include <mutex>
#include <sstream>

#include "Error.h"
#include "IRPrinter.h"

namespace halo {

namespace {

std::mutex registry_mutex;
std::map<std::string, ExternFunction> &registry() {
    static std::map<std::string, ExternFunction> functions;
    return functions;
}

bool is_c_identifier(const std::string &s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    }
    return true;
}

std::string signature(const ExternFunction &f) {
    std::ostringstream os;
    os << f.return_type << " " << f.name << "(";
    for (size_t i = 0; i < f.arg_types.size(); i++) os << (i ? ", " : "") << f.arg_types[i];
    os << ")";
    return os.str();
}

bool supported(Type t) {
    return t.is_scalar() && (t.is_bool() || ((t.is_int() || t.is_uint()) && t.bits() >= 8) ||
                             (t.is_float() && (t.bits() == 32 || t.bits() == 64)));
}

}  // namespace

void register_extern_function(const ExternFunction &fn) {
    user_assert(is_c_identifier(fn.name)) << "HalideExtern: '" << fn.name << "' is not a C function name";
    user_assert(fn.name.rfind("halo_", 0) != 0)
        << "HalideExtern: '" << fn.name << "' starts with halo_, which names functions of Halo's runtime; "
        << "give the C function another name";
    user_assert(fn.address) << "HalideExtern: the function '" << fn.name << "' has no address";
    user_assert(supported(fn.return_type)) << "HalideExtern: '" << signature(fn) << "' returns a type Halo cannot "
                                           << "pass to or from C; use bool, an integer, float or double";
    for (Type t : fn.arg_types) {
        user_assert(supported(t)) << "HalideExtern: '" << signature(fn) << "' takes a type Halo cannot pass to C ("
                                  << t << "); use bool, an integer, float or double";
    }
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto [it, inserted] = registry().emplace(fn.name, fn);
    if (inserted) return;
    const ExternFunction &old = it->second;
    user_assert(old.address == fn.address && old.return_type == fn.return_type && old.arg_types == fn.arg_types)
        << "HalideExtern: the C function name '" << fn.name << "' is declared twice, as '" << signature(old) << "' and as '"
        << signature(fn) << "'" << (old.address != fn.address ? " at two addresses" : "")
        << "; a pipeline calls one function per name, so give the other a name of its own";
}

const ExternFunction *find_extern_function(const std::string &name) {
    std::lock_guard<std::mutex> lock(registry_mutex);
    auto it = registry().find(name);
    // Entries are never removed or replaced, so the pointer stays valid.
    return it == registry().end() ? nullptr : &it->second;
}

std::vector<ExternFunction> registered_extern_functions() {
    std::lock_guard<std::mutex> lock(registry_mutex);
    std::vector<ExternFunction> out;
    for (auto &[name, f] : registry()) out.push_back(f);
    return out;
}

Expr call_extern_function(const std::string &name, const std::vector<Expr> &args) {
    const ExternFunction *f = find_extern_function(name);
    user_assert(f) << "call of extern function '" << name << "', which no HalideExtern_N declared";
    user_assert(args.size() == f->arg_types.size())
        << "extern function '" << signature(*f) << "' called with " << args.size() << " arguments";
    for (size_t i = 0; i < args.size(); i++) {
        user_assert(args[i].defined()) << "argument " << i + 1 << " of extern function '" << name << "' is undefined";
        user_assert(args[i].type() == f->arg_types[i])
            << "Type mismatch for argument " << i + 1 << " to extern function " << name << ". Type expected is "
            << f->arg_types[i] << " but the argument " << args[i] << " has type " << args[i].type()
            << "; cast it to " << f->arg_types[i];
    }
    return Call::make(f->return_type, name, args, Call::ExternC);
}

}  // namespace halo
