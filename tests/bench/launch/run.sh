#!/usr/bin/env bash
# The launch dialog opens in < 100 ms for a 500-parameter config (issue 7):
# construction + first show + parameter table filled and painted, against a
# plain QTableWidget with the same 500 rows in the same run (offscreen).
# Environment: BENCH_REPS (9), CKPT_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
bench_build bench_launch_dialog
data="$(mktemp -d "${TMPDIR:-/tmp}/bench_launch.XXXXXX")"
trap 'rm -rf "$data"' EXIT
export QT_QPA_PLATFORM=offscreen
echo "launch dialog bench: 500 parameters, median of ${BENCH_REPS:-9}, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
"$build/tests/bench/launch/bench_launch_dialog" "$data" "${BENCH_REPS:-9}" 2> >(grep -v -e propagateSizeHints -e XDG_RUNTIME_DIR >&2)
