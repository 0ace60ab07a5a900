#!/usr/bin/env bash
# Discovery cost per epoch of the Lightning, MindSpore and Keras layouts
# against CANDLE's (goal: no more), 10,000 checkpoints each, warm cache.
# Environment: BENCH_EPOCHS (10000), BENCH_REPS (5), CKPT_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
bench_build bench_layouts
bench="$build/tests/bench/layouts/bench_layouts"
tmp="${BENCH_TMPDIR:-$( [[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}"
data="$(mktemp -d "$tmp/bench_layouts.XXXXXX")"
trap 'rm -rf "$data"' EXIT
"$bench" make "$data" "${BENCH_EPOCHS:-10000}" 0
echo "layout scan bench: ${BENCH_EPOCHS:-10000} checkpoints per layout, median of ${BENCH_REPS:-5}, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
"$bench" time "$data" "${BENCH_REPS:-5}"
