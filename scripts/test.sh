#!/usr/bin/env bash
# Installs dependencies, builds Halo and runs the whole test suite twice: in a Release build
# (build/), then in a build with AddressSanitizer and UndefinedBehaviorSanitizer
# (build-asan/, -DHALO_SANITIZE=address,undefined; fewer random pipelines), and the
# concurrency tests under ThreadSanitizer (build-tsan/). Any sanitizer report fails its test.
# --no-sanitize: the Release build and its tests only.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1
for arg in "$@"; do
  case $arg in
    --no-sanitize) sanitize=0 ;;
    *) echo "usage: $0 [--no-sanitize]" >&2; exit 2 ;;
  esac
done
bash scripts/deps.sh
jobs=$(nproc)
SECONDS=0
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j"$jobs")
echo "test.sh: Release build and tests: ${SECONDS} s"
if [ "$sanitize" = 1 ]; then
  SECONDS=0
  # UBSan reports end their process (-fno-sanitize-recover); show the stack that led there.
  export UBSAN_OPTIONS=print_stacktrace=1
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Release -DHALO_SANITIZE=address,undefined >/dev/null
  cmake --build build-asan -j"$jobs"
  (cd build-asan && ctest --output-on-failure -j"$jobs")
  echo "test.sh: sanitized build and tests: ${SECONDS} s"
  SECONDS=0
  # ThreadSanitizer (build-tsan/): the tests that realize from several threads at once.
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=Release -DHALO_SANITIZE=thread >/dev/null
  cmake --build build-tsan -j"$jobs" --target test_concurrency
  # Through CTest (the tests labelled "concurrency", one entry per test case), without
  # address-space randomization: GCC 12's ThreadSanitizer cannot start on kernels whose mmap
  # randomization reaches its shadow memory ("unexpected memory mapping").
  (cd build-tsan && setarch "$(uname -m)" -R ctest --output-on-failure --no-tests=error -j"$jobs" -L concurrency)
  echo "test.sh: ThreadSanitizer build and tests: ${SECONDS} s"
fi
