#!/usr/bin/env bash
# Installs Halo from a build tree into a scratch prefix, builds the outside project against it
# with find_package(Halo) and halo_add_library, and runs it. Then builds a project that links
# the library generated there with find_package(Halo COMPONENTS runtime) only, with LLVM and
# libpng made unfindable, and requires its configure output to be free of find noise and its
# program to need nothing of LLVM.
set -euo pipefail
build=$1; src=$2; work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/install" >/dev/null
cmake -S "$src/test/outside_project" -B "$work/outside" -DCMAKE_PREFIX_PATH="$work/install" > "$work/outside.log"
if grep -n "Could NOT find" "$work/outside.log"; then
  echo "install_and_use: find_package(Halo) printed find noise (above)" >&2; exit 1
fi
cmake --build "$work/outside" -j2 >/dev/null
"$work/outside/outside_main"

cmake -S "$src/test/outside_runtime_project" -B "$work/runtime_only" -DCMAKE_PREFIX_PATH="$work/install" \
      -DINVERT_DIR="$work/outside/invert.halo" \
      -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON -DCMAKE_DISABLE_FIND_PACKAGE_PNG=ON --no-warn-unused-cli > "$work/runtime_only.log"
if grep -niE "could not find|llvm|png" "$work/runtime_only.log"; then
  echo "install_and_use: find_package(Halo COMPONENTS runtime) looked for the compiler's dependencies (above)" >&2; exit 1
fi
cmake --build "$work/runtime_only" -j2 >/dev/null
if ldd "$work/runtime_only/runtime_only_main" | grep -iE "llvm|png"; then
  echo "install_and_use: the runtime-only program links LLVM or libpng (above)" >&2; exit 1
fi
"$work/runtime_only/runtime_only_main"
