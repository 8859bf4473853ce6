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

# The installed halo-sweep, through the CMake helper, on the outside project's generator: a
# CSV with a row per tile size (every one ran and agreed) and a PNG heatmap.
"$work/install/bin/halo-sweep" --help | grep -q "halo-sweep GENERATOR_EXE"
cmake --build "$work/outside" --target sweep_tiny_blur > "$work/sweep.log"
csv="$work/outside/sweep_tiny_blur.csv"
head -1 "$csv" | grep -qx "case,tile_w,tile_h,compile_ms,median_ms,min_ms,recompute_factor,tile_bytes,vs_best,agrees,status" \
  || { echo "install_and_use: unexpected CSV header in $csv" >&2; cat "$csv" >&2; exit 1; }
if [ "$(grep -c ',yes,ok$' "$csv")" -ne 4 ]; then
  echo "install_and_use: the sweep did not run and agree on 4 tile sizes" >&2; cat "$csv" "$work/sweep.log" >&2; exit 1
fi
if [ "$(head -c 8 "$work/outside/sweep_tiny_blur.png" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
  echo "install_and_use: the sweep's heatmap is not a PNG file" >&2; exit 1
fi

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
