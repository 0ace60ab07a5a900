#!/usr/bin/env bash
# Discovery benchmark: builds a 10,000-epoch tree (20 runs x 500 epochs), then
# measures on a warm cache, in one go: (a) the scanner's own system calls in
# C++ without parsing, same threads, (b) Python os.walk + json.load, (c)
# ckpt::Scanner::scan; then as whole processes, the way a user runs them:
# `ckpt scan TREE --json > /dev/null` against `bench_scan once TREE` (the (a)
# work plus printing a line per epoch) and `python_scan.py TREE once` (the (b)
# work plus a line per epoch). Goals: ours <= 1.5x (a), <= 0.7x (b); the whole
# `ckpt scan` <= 1.5x the (a) process (issue 34) and <= 0.5x the (b) process.
# For information, the (a) process once more, printing as many bytes as `ckpt
# scan --json` does (its lines padded with what it read): the share of the gap
# that is the output's size alone.
# For information too: the CPU (user + system) of the two whole processes, and
# both over an empty folder (start-up and exit alone).
# Last, memory: the peak RSS of `ckpt scan --json` over 100,000 epochs (200
# runs x 500) less that of an empty folder, per epoch (goal <= 1 KiB).
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
mkdir "$data/empty"
"$bench" make "$data/big" 200 500 256 >/dev/null
python3 - "$reps" "$runs" "$bench" "$ckpt" "$data/tree" "$here/python_scan.py" "$data/big" \
  "$data/empty" "$(get files "$ours_out")" \
  "$(get baseline_s "$ours_out")" "$(get baseline_cpu_s "$ours_out")" \
  "$(get python_s "$py_out")" "$(get python_cpu_s "$py_out")" \
  "$(get ours_s "$ours_out")" "$(get ours_cpu_s "$ours_out")" <<'PY'
import os, statistics, subprocess, sys, time
reps, runs = int(sys.argv[1]), int(sys.argv[2])
bench, ckpt, tree, py_scan, big, empty = sys.argv[3:9]
files = int(sys.argv[9])
a, a_cpu, b, b_cpu, c, c_cpu = map(float, sys.argv[10:16])

cpu_of = {}

def wall(cmd):
    # Wall time as the user waits; the child's CPU (user + system) kept beside it.
    t0 = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - t0
    cpu_of.setdefault(tuple(cmd), []).append(usage.ru_utime + usage.ru_stime)
    return elapsed

def peak_rss_kib(cmd):
    # Through bench_scan: a child of this interpreter would start from its peak RSS.
    return int(subprocess.run([bench, "rss", *cmd], stdout=subprocess.PIPE, check=True).stdout)

# Whole processes, interleaved so that outside load hits them alike.
base_cmd, ours_cmd = [bench, "once", tree], [ckpt, "scan", tree, "--json"]
py_cmd = [sys.executable, py_scan, tree, "once"]
# (a) writing as many bytes as ckpt prints (information: how much of the gap is output).
ours_bytes = len(subprocess.run(ours_cmd, stdout=subprocess.PIPE, check=False).stdout)
line_bytes = max(1, ours_bytes // files)
bytes_cmd = [bench, "once", tree, str(line_bytes)]
bytes_out = len(subprocess.run(bytes_cmd, stdout=subprocess.PIPE, check=False).stdout)
wall(base_cmd), wall(ours_cmd), wall(py_cmd), wall(bytes_cmd)
pb, pc, pp, pw = [], [], [], []
for _ in range(reps):
    pb.append(wall(base_cmd))
    pc.append(wall(ours_cmd))
    pp.append(wall(py_cmd))
    pw.append(wall(bytes_cmd))
pb, pc, pp = statistics.median(pb), statistics.median(pc), statistics.median(pp)
pw = statistics.median(pw)
cpu_b, cpu_c = (statistics.median(cpu_of[tuple(c)][1:]) for c in (base_cmd, ours_cmd))
# Start-up and exit alone: the same two processes over an empty folder.
empty_base, empty_ours = [bench, "once", empty], [ckpt, "scan", empty, "--json"]
eb, eo = [], []
for _ in range(max(20, reps)):
    eb.append(wall(empty_base))
    eo.append(wall(empty_ours))
eb, eo = statistics.median(eb), statistics.median(eo)
big_epochs = 200 * 500
rss_big = peak_rss_kib([ckpt, "scan", big, "--json"])
rss_empty = peak_rss_kib([ckpt, "scan", empty, "--json"])
kib_per_epoch = (rss_big - rss_empty) / big_epochs
print(f"discovery of {files} epochs ({runs} runs), warm cache, median of {reps} passes "
      f"(Python: {min(reps, 3)}), {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
print(f"{'scanner':<40}{'wall s':>9}{'us/epoch':>10}{'cpu s':>9}")
for name, t, cpu in (("(a) C++ readdir+open+read, no parsing", a, a_cpu),
                     ("(b) Python os.walk + json.load", b, b_cpu),
                     ("(c) ckpt::Scanner::scan", c, c_cpu)):
    print(f"{name:<40}{t:>9.4f}{t / files * 1e6:>10.2f}{cpu:>9.4f}")
print(f"{'(a) as a process: bench_scan once':<40}{pb:>9.4f}{pb / files * 1e6:>10.2f}")
print(f"{'(b) as a process: python_scan.py once':<40}{pp:>9.4f}{pp / files * 1e6:>10.2f}")
print(f"{'(c) as a process: ckpt scan --json':<40}{pc:>9.4f}{pc / files * 1e6:>10.2f}")
print(f"{'(a) process printing as many bytes':<40}{pw:>9.4f}{pw / files * 1e6:>10.2f}"
      f"   ({bytes_out} bytes; ckpt: {ours_bytes})")
print(f"CPU of the whole process (user + system): bench_scan once {cpu_b:.4f} s, "
      f"ckpt scan --json {cpu_c:.4f} s")
print(f"over an empty folder: bench_scan once {eb * 1e3:.1f} ms, ckpt scan --json {eo * 1e3:.1f} ms")
print(f"ckpt scan --json peak RSS: {rss_big} KiB over {big_epochs} epochs, {rss_empty} KiB "
      f"over an empty folder: {kib_per_epoch:.2f} KiB per epoch")
ok_a, ok_b, ok_p = c / a <= 1.5, c / b <= 0.7, pc / pb <= 1.5
ok_pp, ok_m = pc / pp <= 0.5, kib_per_epoch <= 1.0
verdict = lambda ok: "MET" if ok else "MISSED"
print(f"{'ours / (a), wall':<40}{c / a:>9.2f}   goal <= 1.50  {verdict(ok_a)}")
print(f"{'ours / (b), wall':<40}{c / b:>9.2f}   goal <= 0.70  {verdict(ok_b)}")
print(f"{'ckpt scan / (a) process, wall':<40}{pc / pb:>9.2f}   goal <= 1.50  {verdict(ok_p)}")
print(f"{'ckpt scan / (b) process, wall':<40}{pc / pp:>9.2f}   goal <= 0.50  {verdict(ok_pp)}")
print(f"{'ours / (a), cpu (info)':<40}{c_cpu / a_cpu:>9.2f}")
k = f"{files:,} epochs"
print(f"@result|scan|{k}: Scanner::scan vs the same syscalls, no parsing, same threads (C++)|"
      f"{c / a:.2f}x|<= 1.5x|{verdict(ok_a)}")
print(f"@result|scan|{k}: Scanner::scan vs Python os.walk + json.load|{c / b:.2f}x|<= 0.7x|"
      f"{verdict(ok_b)}")
print(f"@result|scan|{k}: whole `ckpt scan --json` process vs baseline process "
      f"({pc:.3f} s vs {pb:.3f} s)|{pc / pb:.2f}x|<= 1.5x|{verdict(ok_p)}")
print(f"@result|scan|{k}: whole `ckpt scan --json` process vs the baseline process printing as "
      f"many bytes ({ours_bytes / 1e6:.1f} MB; {pc:.3f} s vs {pw:.3f} s)|{pc / pw:.2f}x|-|info")
print(f"@result|scan|{k}: CPU of the whole `ckpt scan --json` process vs the baseline process's "
      f"({cpu_c:.3f} s vs {cpu_b:.3f} s; {(cpu_c - cpu_b) / files * 1e6:.1f} us more per epoch)|"
      f"{cpu_c / cpu_b:.2f}x|-|info")
print(f"@result|scan|an empty folder: whole `ckpt scan --json` process vs baseline process, start-up "
      f"and exit ({eo * 1e3:.1f} ms vs {eb * 1e3:.1f} ms)|{eo / eb:.2f}x|-|info")
print(f"@result|scan|{k}: whole `ckpt scan --json` process vs Python os.walk + json.load process "
      f"({pc:.3f} s vs {pp:.3f} s)|{pc / pp:.2f}x|<= 0.5x|{verdict(ok_pp)}")
print(f"@result|scan|{big_epochs:,} epochs: `ckpt scan --json` resident memory per epoch (peak RSS "
      f"over an empty folder's)|{kib_per_epoch:.2f} KiB|<= 1 KiB|{verdict(ok_m)}")
sys.exit(0 if ok_a and ok_b and ok_p and ok_pp and ok_m else 1)
PY
