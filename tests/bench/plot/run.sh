#!/usr/bin/env bash
# Plot benchmark, all in one run on the offscreen platform: new data to painted
# frame (the history handed over, reduced to the pixels, painted) with 1e6 points
# against 8e3 points drawn raw (below the reduction threshold) (goal <= 3x), replot
# with 1e6 points against replot with 1e4 points (goal <= 3x), and appending one point
# then replotting against a plain replot (goal <= 1.2x; against a replot of the
# picture the appends left, for information); with smoothing off and on (on
# draws the faint raw curve too). Curves of long histories are built on the pool:
# the GUI thread's CPU is measured until the new curves are painted, and the wall
# latency of the whole (goal <= 100 ms for 1e6 points) and the other threads' CPU
# are reported too. The data is synthetic, made in-process.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
reps="${REPS:-15}"

bench_build bench_plot
QT_QPA_PLATFORM=offscreen "$build/tests/bench/plot/bench_plot" "$reps" 2> >(grep -v propagateSizeHints >&2)
