#!/usr/bin/env bash
# Installs dependencies, builds Halo and runs the whole test suite.
#
#   bash scripts/test.sh            what CI runs: the whole suite in build-asan/
#                                   (-DHALO_SANITIZE=address,undefined), then the concurrency
#                                   tests in build-tsan/ (-DHALO_SANITIZE=thread)
#   bash scripts/test.sh --release  the whole suite in a Release build (build/): the quicker
#                                   loop while developing, and the build the benchmarks use
#   bash scripts/test.sh --all      both
#
# Why CI runs the sanitized build rather than Release and sanitized ones: on CI's 2 cores the
# three builds and two full runs took longer than its 90 minutes. The sanitized build runs every
# test the Release build runs (the code the JIT emits is the same in both); it adds every
# AddressSanitizer, LeakSanitizer and UBSan report as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
release=0
sanitize=1
for arg in "$@"; do
  case $arg in
    --release) release=1; sanitize=0 ;;
    --all) release=1; sanitize=1 ;;
    --no-sanitize) release=1; sanitize=0 ;;  # the former name of --release
    *) echo "usage: $0 [--release | --all]" >&2; exit 2 ;;
  esac
done
bash scripts/deps.sh
jobs=$(nproc)
if [ "$release" = 1 ]; then
  SECONDS=0
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j"$jobs"
  echo "test.sh: Release build: ${SECONDS} s"
  SECONDS=0
  (cd build && ctest --output-on-failure -j"$jobs")
  echo "test.sh: Release tests: ${SECONDS} s"
fi
if [ "$sanitize" = 1 ]; then
  SECONDS=0
  # UBSan reports end their process (-fno-sanitize-recover); show the stack that led there.
  export UBSAN_OPTIONS=print_stacktrace=1
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DHALO_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan -j"$jobs"
  echo "test.sh: sanitized build: ${SECONDS} s"
  SECONDS=0
  (cd build-asan && ctest --output-on-failure -j"$jobs")
  echo "test.sh: sanitized tests: ${SECONDS} s"
  SECONDS=0
  # ThreadSanitizer (build-tsan/): the tests that realize from several threads at once.
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Release -DHALO_SANITIZE=thread >/dev/null
  cmake --build build-tsan -j"$jobs" --target test_concurrency test_atomic jit_sanitizer_probe test_random_pipelines \
    test_random_typed_pipelines
  # Through CTest (the tests labelled "concurrency", one entry per test case), without
  # address-space randomization: GCC 12's ThreadSanitizer cannot start on kernels whose mmap
  # randomization reaches its shadow memory ("unexpected memory mapping").
  # The JIT instruments pipelines for ThreadSanitizer too (codegen/SanitizeJIT.h), which sees
  # vector accesses of at most 16 bytes: their code is made for SSE4.1 here.
  (cd build-tsan && HALO_JIT_TARGET=x86-64-sse41 setarch "$(uname -m)" -R ctest --output-on-failure --no-tests=error \
    -j"$jobs" -L concurrency)
  echo "test.sh: ThreadSanitizer build and tests: ${SECONDS} s"
fi
