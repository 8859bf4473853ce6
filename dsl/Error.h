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

namespace detail {
// Collects a message with operator<< and throws when it goes out of scope.
template <typename E>
class ErrorReporter {
public:
    template <typename C>
    ErrorReporter(const C &condition, const char *prefix) : fire_(!static_cast<bool>(condition)) {
        if (fire_) stream_ << prefix;
    }
    template <typename T>
    ErrorReporter &operator<<(const T &v) {
        if (fire_) stream_ << v;
        return *this;
    }
    ~ErrorReporter() noexcept(false) {
        if (fire_ && !std::uncaught_exceptions()) throw E(stream_.str());
    }

private:
    bool fire_;
    std::ostringstream stream_;
};
}  // namespace detail

#define user_assert(c) ::halo::detail::ErrorReporter<::halo::CompileError>((c), "")
#define user_error ::halo::detail::ErrorReporter<::halo::CompileError>(false, "")
#define internal_assert(c) \
    ::halo::detail::ErrorReporter<::halo::InternalError>((c), "Halo internal error: ")
#define internal_error \
    ::halo::detail::ErrorReporter<::halo::InternalError>(false, "Halo internal error: ")

}  // namespace halo
