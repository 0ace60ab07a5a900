#!/usr/bin/env bash
# Remote benchmark: 100 runs x 100 epochs opened over a real sshd on loopback
# (the issue's goal: the first run in < 300 ms, the whole within 1.5x of
# `ssh host ckpt scan --json` alone, a new far epoch seen in < 1 s).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
reps="${REPS:-5}"
runs="${RUNS:-100}"
epochs="${EPOCHS:-100}"

bench_build bench_scan
bench_build bench_remote
bench_build ckpt
tmp="${BENCH_TMPDIR:-$( [[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}"
data="$(mktemp -d "$tmp/bench_remote.XXXXXX")"
trap 'rm -rf "$data"' EXIT
"$build/tests/bench/scan/bench_scan" make "$data/tree" "$runs" "$epochs" 256 >/dev/null
"$build/tests/bench/remote/bench_remote" "$data/tree" "$reps"
