// Errors. User mistakes become CompileError exceptions whose message names the Func and says
// what to do; broken invariants inside Halo become InternalError.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace halo {

struct CompileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct InternalError : std::logic_error {
    using std::logic_error::logic_error;
};

// Raised by realize() when the compiled pipeline reports a run-time error.
struct RuntimeError : std::runtime_error {
    int code;
    RuntimeError(int c, const std::string &msg) : std::runtime_error(msg), code(c) {}
};

// Raised by the reference evaluator when the program's result is undefined (int32 or int64
// overflow), so that a differential tester can tell "this program has no defined result"
// apart from other errors.
struct UndefinedBehaviorError : RuntimeError {
    explicit UndefinedBehaviorError(const std::string &msg) : RuntimeError(-1, msg) {}
};

namespace detail {
// Collects a message with operator<< and throws it when the statement ends. Only built when
// the check has already failed, so passing checks cost one branch.
template <typename E>
class ErrorReporter {
public:
    explicit ErrorReporter(const char *prefix) { stream_ << prefix; }
    template <typename T>
    ErrorReporter &operator<<(const T &v) {
        stream_ << v;
        return *this;
    }
    ~ErrorReporter() noexcept(false) {
        if (!std::uncaught_exceptions()) throw E(stream_.str());
    }

private:
    std::ostringstream stream_;
};

// Lets "cond ? (void)0 : Voidify() & reporter << ..." type-check.
struct Voidify {
    template <typename R>
    void operator&(R &&) {}
};
}  // namespace detail

#define HALO_CHECK_(c, E, prefix) \
    (static_cast<bool>(c)) ? (void)0 : ::halo::detail::Voidify() & ::halo::detail::ErrorReporter<E>(prefix)
#define user_assert(c) HALO_CHECK_(c, ::halo::CompileError, "")
#define user_error HALO_CHECK_(false, ::halo::CompileError, "")
#define internal_assert(c) HALO_CHECK_(c, ::halo::InternalError, "Halo internal error: ")
#define internal_error HALO_CHECK_(false, ::halo::InternalError, "Halo internal error: ")

}  // namespace halo
