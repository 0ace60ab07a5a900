#!/usr/bin/env bash
# Builds everything and runs every test (CTest), including the Slurm tests,
# which start a real one-node cluster of their own.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-$here/build}"
bash "$here/scripts/build.sh"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600 "$@"
