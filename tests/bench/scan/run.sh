#!/usr/bin/env bash
# Discovery benchmark: builds a 10,000-epoch tree (20 runs x 500 epochs), then
# measures on a warm cache, in one go: (a) bare readdir+open+read in C++,
# (b) Python os.walk + json.load, (c) ckpt::Scanner::scan. Prints the ratios
# against the goals: ours <= 1.5x (a) and <= 0.7x (b).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
reps="${REPS:-5}"
runs="${RUNS:-20}"
epochs="${EPOCHS:-500}"

bench_build bench_scan
bench="$build/tests/bench/scan/bench_scan"

# tmpfs when there is one: the measurement is on a warm cache anyway, and
# creating and deleting 20,000 files on a busy disk would take longer than the bench.
tmp="${BENCH_TMPDIR:-$( [[ -d /dev/shm && -w /dev/shm ]] && echo /dev/shm || echo "${TMPDIR:-/tmp}")}"
data="$(mktemp -d "$tmp/bench_scan.XXXXXX")"
trap 'rm -rf "$data"' EXIT
"$bench" make "$data/tree" "$runs" "$epochs" 256 >/dev/null

ours_out="$("$bench" time "$data/tree" "$reps")"
# Python takes seconds per pass: three passes give a stable enough median.
py_out="$(python3 "$here/python_scan.py" "$data/tree" "$(( reps < 3 ? reps : 3 ))")"

get() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }
python3 - "$reps" "$runs" "$(get files "$ours_out")" \
  "$(get baseline_s "$ours_out")" "$(get baseline_cpu_s "$ours_out")" \
  "$(get python_s "$py_out")" "$(get python_cpu_s "$py_out")" \
  "$(get ours_s "$ours_out")" "$(get ours_cpu_s "$ours_out")" <<'PY'
import os, sys
reps, runs, files = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
a, a_cpu, b, b_cpu, c, c_cpu = map(float, sys.argv[4:10])
print(f"discovery of {files} epochs ({runs} runs), warm cache, median of {reps} passes "
      f"(Python: {min(reps, 3)}), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
print(f"{'scanner':<40}{'wall s':>9}{'us/epoch':>10}{'cpu s':>9}")
for name, t, cpu in (("(a) C++ readdir+open+read, no parsing", a, a_cpu),
                     ("(b) Python os.walk + json.load", b, b_cpu),
                     ("(c) ckpt::Scanner::scan", c, c_cpu)):
    print(f"{name:<40}{t:>9.4f}{t / files * 1e6:>10.2f}{cpu:>9.4f}")
ok_a, ok_b = c / a <= 1.5, c / b <= 0.7
print(f"{'ours / (a), wall':<40}{c / a:>9.2f}   goal <= 1.50  {'MET' if ok_a else 'MISSED'}")
print(f"{'ours / (b), wall':<40}{c / b:>9.2f}   goal <= 0.70  {'MET' if ok_b else 'MISSED'}")
print(f"{'ours / (a), cpu (info)':<40}{c_cpu / a_cpu:>9.2f}")
sys.exit(0 if ok_a and ok_b else 1)
PY
