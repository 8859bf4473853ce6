// Calls from a pipeline to the user's own C functions (Halide's HalideExtern_N and
// HalidePureExtern_N macros):
//
//     extern "C" int call_counter(int x, int y) { count++; return 0; }
//     HalideExtern_2(int, call_counter, int, int);   // now call_counter(Expr, Expr) is an Expr
//     f(x) = call_counter(x, 0);
//
// The macro defines an overload of the function's name that takes Exprs and makes a call of
// the C function, and registers the function's address and signature, so that JIT-compiled
// pipelines and the reference evaluator call it directly (no exported symbol is needed).
// An ahead-of-time library refers to the function by its C name, for the program that links
// it to provide.
//
// The call is evaluated where the definition evaluates it: once per point the schedule
// computes (a recomputed point calls it again, a sliding window's reused point does not), and
// lane by lane in a vectorized loop (its loop is not vectorized). A pure extern
// (HalidePureExtern_N) is declared to LLVM as touching no memory, so identical calls may be
// merged and a loop-invariant one lifted out of a loop where it is sure to run.
// Arguments must have exactly the declared types, as in Halide (cast them: call_counter(x,
// cast<int>(c))). Supported types: bool, 8- to 64-bit integers, float and double.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "IR.h"
#include "Type.h"

namespace halo {

// A scalar crossing between the reference evaluator and a C function: integers (and bools) in
// i, floats and doubles in f.
struct ExternScalar {
    int64_t i = 0;
    double f = 0;
};

// Calls the C function at `address` with the arguments, converting as its signature says.
using ExternInvoker = ExternScalar (*)(void *address, const std::vector<ExternScalar> &args);

struct ExternFunction {
    std::string name;
    void *address = nullptr;
    Type return_type;
    std::vector<Type> arg_types;
    bool pure = false;
    ExternInvoker invoke = nullptr;
};

// Records the function under its name. Registering a name again with the same address and
// signature does nothing; a different address or signature is a CompileError (two C functions
// cannot share a symbol), as is a name Halo's runtime uses (halo_...) or that is not a C
// identifier.
void register_extern_function(const ExternFunction &fn);
// The registered function of that name, or null.
const ExternFunction *find_extern_function(const std::string &name);
// Every registered function (for the JIT's symbol table).
std::vector<ExternFunction> registered_extern_functions();

// A call of the registered function `name` with args, checked against its signature (the
// message names the function, the argument and both types).
Expr call_extern_function(const std::string &name, const std::vector<Expr> &args);

namespace detail {

template <typename T>
T from_extern_scalar(const ExternScalar &v) {
    if constexpr (std::is_floating_point_v<T>) return T(v.f);
    else return T(v.i);
}
template <typename T>
ExternScalar to_extern_scalar(T value) {
    ExternScalar s;
    if constexpr (std::is_floating_point_v<T>) s.f = double(value);
    else s.i = int64_t(value);
    return s;
}
template <typename R, typename... A, size_t... I>
ExternScalar invoke_extern(void *address, const std::vector<ExternScalar> &args, std::index_sequence<I...>) {
    auto fn = reinterpret_cast<R (*)(A...)>(address);
    return to_extern_scalar<R>(fn(from_extern_scalar<A>(args[I])...));
}
template <typename R, typename... A>
ExternScalar invoke_extern(void *address, const std::vector<ExternScalar> &args) {
    return invoke_extern<R, A...>(address, args, std::index_sequence_for<A...>{});
}

template <typename R, typename... A>
Expr extern_call(const char *name, bool pure, R (*fn)(A...), const std::vector<Expr> &args) {
    static_assert(std::is_arithmetic_v<R> && (std::is_arithmetic_v<A> && ...),
                  "HalideExtern_N: the return and argument types must be bool, integers, float or double");
    ExternFunction f;
    f.name = name;
    f.address = reinterpret_cast<void *>(fn);
    f.return_type = type_of<R>();
    f.arg_types = {type_of<A>()...};
    f.pure = pure;
    f.invoke = &invoke_extern<R, A...>;
    register_extern_function(f);
    return call_extern_function(name, args);
}

}  // namespace detail
}  // namespace halo

// HalideExtern_N(return type, name, argument types...), N from 1 to 5: declares
// `Expr name(Expr, ...)` for the C function `name` (declared before the macro).
// HalidePureExtern_N: the same, for a function without side effects. (There is no N = 0: C++
// cannot overload `T name()` by its return type.)
#define HALO_EXPAND_(...) __VA_ARGS__
#define HALO_EXTERN_(pure, rt, name, params, args, ...)                                         \
    inline ::halo::Expr name params {                                                           \
        return ::halo::detail::extern_call(#name, pure, static_cast<rt (*)(__VA_ARGS__)>(&name), \
                                           {HALO_EXPAND_ args});                                \
    }
#define HALO_EXTERN_PARAMS_1_ (const ::halo::Expr &a1)
#define HALO_EXTERN_PARAMS_2_ (const ::halo::Expr &a1, const ::halo::Expr &a2)
#define HALO_EXTERN_PARAMS_3_ (const ::halo::Expr &a1, const ::halo::Expr &a2, const ::halo::Expr &a3)
#define HALO_EXTERN_PARAMS_4_ \
    (const ::halo::Expr &a1, const ::halo::Expr &a2, const ::halo::Expr &a3, const ::halo::Expr &a4)
#define HALO_EXTERN_PARAMS_5_                                                                    \
    (const ::halo::Expr &a1, const ::halo::Expr &a2, const ::halo::Expr &a3, const ::halo::Expr &a4, \
     const ::halo::Expr &a5)

#define HalideExtern_1(rt, name, t1) HALO_EXTERN_(false, rt, name, HALO_EXTERN_PARAMS_1_, (a1), t1)
#define HalideExtern_2(rt, name, t1, t2) HALO_EXTERN_(false, rt, name, HALO_EXTERN_PARAMS_2_, (a1, a2), t1, t2)
#define HalideExtern_3(rt, name, t1, t2, t3) \
    HALO_EXTERN_(false, rt, name, HALO_EXTERN_PARAMS_3_, (a1, a2, a3), t1, t2, t3)
#define HalideExtern_4(rt, name, t1, t2, t3, t4) \
    HALO_EXTERN_(false, rt, name, HALO_EXTERN_PARAMS_4_, (a1, a2, a3, a4), t1, t2, t3, t4)
#define HalideExtern_5(rt, name, t1, t2, t3, t4, t5) \
    HALO_EXTERN_(false, rt, name, HALO_EXTERN_PARAMS_5_, (a1, a2, a3, a4, a5), t1, t2, t3, t4, t5)

#define HalidePureExtern_1(rt, name, t1) HALO_EXTERN_(true, rt, name, HALO_EXTERN_PARAMS_1_, (a1), t1)
#define HalidePureExtern_2(rt, name, t1, t2) HALO_EXTERN_(true, rt, name, HALO_EXTERN_PARAMS_2_, (a1, a2), t1, t2)
#define HalidePureExtern_3(rt, name, t1, t2, t3) \
    HALO_EXTERN_(true, rt, name, HALO_EXTERN_PARAMS_3_, (a1, a2, a3), t1, t2, t3)
#define HalidePureExtern_4(rt, name, t1, t2, t3, t4) \
    HALO_EXTERN_(true, rt, name, HALO_EXTERN_PARAMS_4_, (a1, a2, a3, a4), t1, t2, t3, t4)
#define HalidePureExtern_5(rt, name, t1, t2, t3, t4, t5) \
    HALO_EXTERN_(true, rt, name, HALO_EXTERN_PARAMS_5_, (a1, a2, a3, a4, a5), t1, t2, t3, t4, t5)
