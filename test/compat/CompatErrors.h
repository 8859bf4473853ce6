// What the ports of Halide's test/error programs share: checking an error message by its
// parts, and the message of any exception with its kind.
#pragma once

#include <doctest/doctest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>

#include "../TestUtil.h"
#include "dsl/Halo.h"

namespace halo_compat_errors {

// Checks that msg contains every part, showing the message on failure (SHOW_MESSAGES=1: always).
inline void check_message(const std::string &msg, std::initializer_list<const char *> parts) {
    CHECK_MESSAGE(!msg.empty(), "nothing was thrown");
    for (const char *p : parts) CHECK_MESSAGE(halo_test::contains(msg, p), "'" << std::string(p) << "' not in: " << msg);
    if (std::getenv("SHOW_MESSAGES")) MESSAGE(msg);
}

// Any exception's message, with its kind ("compile: ", "runtime: ", "internal: ", "other: ").
template <typename F>
std::string any_error_of(F fn) {
    try {
        fn();
    } catch (const halo::CompileError &e) {
        return std::string("compile: ") + e.what();
    } catch (const halo::RuntimeError &e) {
        return std::string("runtime: ") + e.what();
    } catch (const halo::InternalError &e) {
        return std::string("internal: ") + e.what();
    } catch (const std::exception &e) {
        return std::string("other: ") + e.what();
    }
    return "";
}

}  // namespace halo_compat_errors
