#!/usr/bin/env bash
# Installs Halo's build dependencies (Debian 12 packages only).
set -euo pipefail
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  build-essential cmake llvm-19-dev libzstd-dev libpng-dev doctest-dev libgomp1 >/dev/null
