#!/usr/bin/env bash
# Runs every benchmark under tests/bench/ (each area's run.sh measures its own
# baselines in the same run and prints ratios against the goals). Meant for a
# quiet machine: the whole output goes to stdout and build/bench-results.txt;
# the `@result` lines become tests/bench/RESULTS.md and the README's table
# (scripts/bench-results.py), so published figures are never typed by hand.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CKPT_BUILD_DIR="${CKPT_BUILD_DIR:-$here/build}"
bash "$here/scripts/build.sh" >/dev/null
out="$CKPT_BUILD_DIR/bench-results.txt"
: >"$out"
for script in "$here"/tests/bench/*/run.sh; do
  area="$(basename "$(dirname "$script")")"
  if [[ $# -gt 0 && ! " $* " =~ " $area " ]]; then continue; fi
  echo "=== $area" | tee -a "$out"
  bash "$script" 2>&1 | tee -a "$out" || echo "($area: a goal was missed or the bench failed)" | tee -a "$out"
  echo | tee -a "$out"
done
echo "results in $out"
python3 "$here/scripts/bench-results.py" "$out" "$here" "$@"
