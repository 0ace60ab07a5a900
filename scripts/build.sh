#!/usr/bin/env bash
# Installs missing Debian packages, configures and builds everything into build/.
# Our scripts and CI build with CKPT_WERROR=ON (warnings are errors in our own
# targets); a plain `cmake -S . -B build` leaves it off.
#   CKPT_BUILD_DIR   build folder (default build/)
#   CKPT_BUILD_TYPE  CMake build type of a new build folder (default RelWithDebInfo)
#   CKPT_CMAKE_ARGS  more configure arguments for a new build folder
#   CKPT_TARGETS     build only these targets (default: all)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-$here/build}"
bash "$here/scripts/setup-deps.sh"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # shellcheck disable=SC2086 # CKPT_CMAKE_ARGS is a list of arguments
  cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="${CKPT_BUILD_TYPE:-RelWithDebInfo}" \
    -DCKPT_WERROR=ON "${launcher[@]}" ${CKPT_CMAKE_ARGS:-}
fi
targets=()
for t in ${CKPT_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"
