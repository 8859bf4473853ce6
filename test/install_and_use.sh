#!/usr/bin/env bash
# Installs Halo from a build tree into a scratch prefix, builds the outside project against it
# with find_package(Halo) and halo_add_library, and runs it.
set -euo pipefail
build=$1; src=$2; work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/install" >/dev/null
cmake -S "$src/test/outside_project" -B "$work/outside" -DCMAKE_PREFIX_PATH="$work/install" >/dev/null
cmake --build "$work/outside" -j2 >/dev/null
"$work/outside/outside_main"
