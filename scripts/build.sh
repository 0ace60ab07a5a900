#!/usr/bin/env bash
# Installs missing Debian packages, configures and builds everything into build/.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-$here/build}"
bash "$here/scripts/setup-deps.sh"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${CKPT_BUILD_TYPE:-RelWithDebInfo}"
fi
cmake --build "$build" --parallel "$(nproc)"
