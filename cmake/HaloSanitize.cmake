# HALO_SANITIZE: sanitizers for every target of the build (libraries, tests, apps, benchmarks,
# and the generator executables that run at build time), e.g.
#   cmake -S . -B build-asan -DHALO_SANITIZE=address,undefined    (scripts/test.sh's second build)
#   cmake -S . -B build-tsan -DHALO_SANITIZE=thread
# Code LLVM generates at run time (the JIT) is not instrumented.
#
# Sets HALO_SANITIZER_ENV: the environment (one VAR=value, or empty) that the build-time
# generator runs (halo_add_library) and every CTest entry run with.
set(HALO_SANITIZE "" CACHE STRING
    "Sanitizers for every target, comma-separated: address, undefined, thread (empty: none)")
set(HALO_SANITIZER_ENV "")
if(HALO_SANITIZE)
  string(REPLACE "," ";" _halo_sanitizers "${HALO_SANITIZE}")
  foreach(s IN LISTS _halo_sanitizers)
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "HALO_SANITIZE: unknown sanitizer '${s}' (use address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _halo_sanitizers AND "address" IN_LIST _halo_sanitizers)
    message(FATAL_ERROR "HALO_SANITIZE: thread cannot be combined with address")
  endif()
  # -g1: line tables, so that reports name files and lines.
  set(_halo_sanitize_flags -fsanitize=${HALO_SANITIZE} -fno-omit-frame-pointer -g1)
  if(NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
    # -O1 (after the build type's -O3, so it wins), as the sanitizers' documentation advises:
    # with -fsanitize=undefined, GCC 12 takes 4-5 times longer at -O3 (test_types_operators.cpp:
    # 270 s against 70 s), and the tests run about as fast.
    list(APPEND _halo_sanitize_flags -O1)
  endif()
  if("undefined" IN_LIST _halo_sanitizers)
    # Every UBSan report ends the process with a nonzero code, so it fails its test (or build step).
    list(APPEND _halo_sanitize_flags -fno-sanitize-recover=undefined)
  endif()
  # With address, LeakSanitizer is on (its default on Linux): a leak fails its test or build
  # step. (Compiled Funcs once leaked through reference cycles; see FunctionPtr in dsl/IR.h.)
  if("thread" IN_LIST _halo_sanitizers)
    # A data race ends the test at its first report (the report also fails it by its text).
    set(HALO_SANITIZER_ENV "TSAN_OPTIONS=halt_on_error=1")
  endif()
  add_compile_options(${_halo_sanitize_flags})
  add_link_options(-fsanitize=${HALO_SANITIZE})
  message(STATUS "Sanitizers: ${HALO_SANITIZE}")
endif()
