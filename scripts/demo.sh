#!/usr/bin/env bash
# Installs dependencies, builds Halo and runs the main demo: the seeds' CNN block on a
# photograph (ahead-of-time compiled, fused and breadth-first, checked against plain C++),
# then a short tile-size sweep of the fused schedule (table, CSV and heatmap PNG).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target cnn_block_run sweep
./build/apps/cnn_block_run apps/images/chelsea.png build/cnn_block_out.png
./build/bench/sweep cnn_block --widths 8,32,64 --heights 8,32 --rounds 3 --no-plain \
  --csv build/sweep_cnn_block.csv --png build/sweep_cnn_block.png
