#!/usr/bin/env bash
# Installs dependencies, builds Halo and runs the main demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target conv_demo
./build/apps/conv_demo apps/images/chelsea.png build/conv_demo_out.png
