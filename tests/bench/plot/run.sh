#!/usr/bin/env bash
# Plot benchmark, all in one run on the offscreen platform: replot with 1e6
# points against replot with 1e4 points (goal <= 3x), and appending one point
# then replotting against a plain replot (goal <= 1.2x); with smoothing off and
# on (on draws the faint raw curve too). The data is synthetic, made in-process.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
build="${CKPT_BUILD_DIR:-$repo/build}"
reps="${REPS:-15}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$repo" -B "$build" -G Ninja >/dev/null
fi
cmake --build "$build" --target bench_plot --parallel 2 >/dev/null
QT_QPA_PLATFORM=offscreen "$build/tests/bench/plot/bench_plot" "$reps" 2> >(grep -v propagateSizeHints >&2)
