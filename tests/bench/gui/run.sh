#!/usr/bin/env bash
# GUI loading benchmark: 100 runs x 1,000 epochs opened in the real MainWindow
# on the offscreen platform. Reports the longest event-loop stall (goal <= 50 ms,
# baseline: an idle window) and when the first run shows against when the scan
# ends (goal: before). The data (~100k epoch directories) is made once and kept
# in <build>/bench-data/gui-RUNSxEPOCHS. Then the Experiments panel with 100
# launched runs' records refreshing (longest stall, goal <= 50 ms);
# GUI_EXPERIMENTS_ONLY=1 measures only that.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
build="${CKPT_BUILD_DIR:-$repo/build}"
runs="${RUNS:-100}"
epochs="${EPOCHS:-1000}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$repo" -B "$build" -G Ninja >/dev/null
fi
cmake --build "$build" --target bench_gui_load --parallel 2 >/dev/null
data="$build/bench-data/gui-${runs}x${epochs}"
mkdir -p "$(dirname "$data")"
export QT_QPA_PLATFORM=offscreen
# No remembered folders and no verify cache from a real session (a cache loads in
# the background while memory is measured), no launch registry of the user's.
xdg="$(mktemp -d)"
trap 'rm -rf "$xdg"' EXIT
export XDG_CONFIG_HOME="$xdg/config" XDG_CACHE_HOME="$xdg/cache" XDG_DATA_HOME="$xdg/data"
"$build/tests/bench/gui/bench_gui_load" "$data" "$runs" "$epochs" 2> >(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR >&2)
