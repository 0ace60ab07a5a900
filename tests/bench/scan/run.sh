#!/usr/bin/env bash
# Discovery benchmark: builds a 10,000-epoch tree (20 runs x 500 epochs), then
# measures on a warm cache, in one go: (a) the scanner's own system calls in
# C++ without parsing, same threads, (b) Python os.walk + json.load, (c)
# ckpt::Scanner::scan; then as whole processes, the way a user runs them:
# `ckpt scan TREE --json > /dev/null` against `bench_scan once TREE` (the (a)
# work plus printing a line per epoch). Goals: ours <= 1.5x (a), <= 0.7x (b),
# and the whole `ckpt scan` <= 1.5x its baseline process.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
reps="${REPS:-5}"
runs="${RUNS:-20}"
epochs="${EPOCHS:-500}"

bench_build bench_scan
bench_build ckpt
bench="$build/tests/bench/scan/bench_scan"
ckpt="$build/app/cli/ckpt"

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
python3 - "$reps" "$runs" "$bench" "$ckpt" "$data/tree" "$(get files "$ours_out")" \
  "$(get baseline_s "$ours_out")" "$(get baseline_cpu_s "$ours_out")" \
  "$(get python_s "$py_out")" "$(get python_cpu_s "$py_out")" \
  "$(get ours_s "$ours_out")" "$(get ours_cpu_s "$ours_out")" <<'PY'
import os, statistics, subprocess, sys, time
reps, runs = int(sys.argv[1]), int(sys.argv[2])
bench, ckpt, tree = sys.argv[3:6]
files = int(sys.argv[6])
a, a_cpu, b, b_cpu, c, c_cpu = map(float, sys.argv[7:13])

def wall(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0

# Whole processes, interleaved so that outside load hits both alike.
base_cmd, ours_cmd = [bench, "once", tree], [ckpt, "scan", tree, "--json"]
wall(base_cmd), wall(ours_cmd)
pb, pc = [], []
for _ in range(reps):
    pb.append(wall(base_cmd))
    pc.append(wall(ours_cmd))
pb, pc = statistics.median(pb), statistics.median(pc)
print(f"discovery of {files} epochs ({runs} runs), warm cache, median of {reps} passes "
      f"(Python: {min(reps, 3)}), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
print(f"{'scanner':<40}{'wall s':>9}{'us/epoch':>10}{'cpu s':>9}")
for name, t, cpu in (("(a) C++ readdir+open+read, no parsing", a, a_cpu),
                     ("(b) Python os.walk + json.load", b, b_cpu),
                     ("(c) ckpt::Scanner::scan", c, c_cpu)):
    print(f"{name:<40}{t:>9.4f}{t / files * 1e6:>10.2f}{cpu:>9.4f}")
print(f"{'(a) as a process: bench_scan once':<40}{pb:>9.4f}{pb / files * 1e6:>10.2f}")
print(f"{'(c) as a process: ckpt scan --json':<40}{pc:>9.4f}{pc / files * 1e6:>10.2f}")
ok_a, ok_b, ok_p = c / a <= 1.5, c / b <= 0.7, pc / pb <= 1.5
verdict = lambda ok: "MET" if ok else "MISSED"
print(f"{'ours / (a), wall':<40}{c / a:>9.2f}   goal <= 1.50  {verdict(ok_a)}")
print(f"{'ours / (b), wall':<40}{c / b:>9.2f}   goal <= 0.70  {verdict(ok_b)}")
print(f"{'ckpt scan / (a) process, wall':<40}{pc / pb:>9.2f}   goal <= 1.50  {verdict(ok_p)}")
print(f"{'ours / (a), cpu (info)':<40}{c_cpu / a_cpu:>9.2f}")
k = f"{files:,} epochs"
print(f"@result|scan|{k}: Scanner::scan vs the same syscalls, no parsing, same threads (C++)|"
      f"{c / a:.2f}x|<= 1.5x|{verdict(ok_a)}")
print(f"@result|scan|{k}: Scanner::scan vs Python os.walk + json.load|{c / b:.2f}x|<= 0.7x|"
      f"{verdict(ok_b)}")
print(f"@result|scan|{k}: whole `ckpt scan --json` process vs baseline process "
      f"({pc:.3f} s vs {pb:.3f} s)|{pc / pb:.2f}x|<= 1.5x|{verdict(ok_p)}")
sys.exit(0 if ok_a and ok_b and ok_p else 1)
PY
