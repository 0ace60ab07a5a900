#!/usr/bin/env bash
# Checksum verification throughput against two baselines measured in the same run
# on the same files, page cache warm:
#   2 x cat, half the files each      (how fast the data can be read at all, with
#                                      our parallelism: two readers at once)
#   cat FILES > /dev/null             (one reader, for reference)
#   CANDLE's checksum_file in Python  (zlib.crc32 over 10 MiB chunks)
# Goals: ours >= 0.7x the two cats and >= 3x Python. Also ISA-L vs zlib in memory, and
# the reading strategies (block size, mmap, threads, splitting one big file).
# Environment: BENCH_FILES (40), BENCH_MIB (25), BENCH_REPS (5), CKPT_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
bench_build bench_verify
exe="$build/tests/bench/verify/bench_verify"

data="$(mktemp -d "${TMPDIR:-/tmp}/bench-verify.XXXXXX")"
trap 'rm -rf "$data"' EXIT

BENCH_FILES="${BENCH_FILES:-40}" BENCH_MIB="${BENCH_MIB:-25}" BENCH_REPS="${BENCH_REPS:-5}" \
python3 - "$exe" "$data" <<'PY'
import os, statistics, subprocess, sys, time, zlib

exe, data = sys.argv[1], sys.argv[2]
nfiles, mib, reps = (int(os.environ[k]) for k in ("BENCH_FILES", "BENCH_MIB", "BENCH_REPS"))

def checksum_file(filename):
    # CANDLE's checksum_file: zlib.crc32 over 10 MiB chunks, decimal string.
    chunk_size = 10 * 1024 * 1024
    with open(filename, "rb") as fp:
        checksum = 0
        while True:
            chunk = fp.read(chunk_size)
            if not chunk:
                break
            checksum = zlib.crc32(chunk, checksum)
    return str(checksum)

def make(paths_sizes, listname):
    with open(os.path.join(data, listname), "w") as out:
        for path, size in paths_sizes:
            with open(path, "wb") as f:
                left = size
                while left:
                    n = min(left, 8 << 20)
                    f.write(os.urandom(n))
                    left -= n
            out.write(f"{checksum_file(path)} {path}\n")
    return os.path.join(data, listname)

files = [(os.path.join(data, f"m{i:03d}.h5"), mib << 20) for i in range(nfiles)]
many = make(files, "many.txt")
big = make([(os.path.join(data, "big.h5"), nfiles * mib << 20)], "big.txt")
paths = [p for p, _ in files]
total = sum(s for _, s in files)

def ours(listfile, *opts):
    out = subprocess.run([exe, "files", "--crcs", listfile, "--reps", "1", *opts],
                         check=True, capture_output=True, text=True).stdout
    return float(dict(p.split("=") for p in out.split())["seconds"])

def cat():
    t0 = time.perf_counter()
    subprocess.run(["cat", *paths], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0

def cat2():
    # The same parallelism as ours: two readers, each half the files, at once.
    t0 = time.perf_counter()
    readers = [subprocess.Popen(["cat", *paths[i::2]], stdout=subprocess.DEVNULL)
               for i in range(2)]
    if any(r.wait() != 0 for r in readers):
        sys.exit("cat failed")
    return time.perf_counter() - t0

def python_loop():
    t0 = time.perf_counter()
    for p in paths:
        checksum_file(p)
    return time.perf_counter() - t0

# The machine is shared: every repetition runs every contender back to back, so
# each sees the same load, and the table reports medians over repetitions.
contenders = {
    "cat FILES > /dev/null": cat,
    "2 x cat, half the files each, at once": cat2,
    "python zlib.crc32, 10 MiB chunks (CANDLE)": python_loop,
    "ours (default: 2 threads, mmap)": lambda: ours(many),
    "  1 thread, mmap": lambda: ours(many, "--threads", "1"),
    "  2 threads, read 128 KiB": lambda: ours(many, "--strategy", "read", "--block", "128"),
    "  2 threads, read 1 MiB": lambda: ours(many, "--strategy", "read", "--block", "1024"),
    "  1 thread, read 128 KiB": lambda: ours(many, "--strategy", "read", "--block", "128",
                                             "--threads", "1"),
    "one file, 1 thread": lambda: ours(big, "--threads", "1", "--split", "0"),
    "one file, 2 threads, no split": lambda: ours(big, "--threads", "2", "--split", "0"),
    "one file, 2 threads, 64 MiB parts": lambda: ours(big, "--threads", "2", "--split", "64"),
}
for fn in contenders.values():
    fn()  # warm-up: page cache, code paths
times = {name: [] for name in contenders}
for _ in range(reps):
    for name, fn in contenders.items():
        times[name].append(fn())
med = {name: statistics.median(t) for name, t in times.items()}
t_cat = med["cat FILES > /dev/null"]
t_cat2 = med["2 x cat, half the files each, at once"]
t_py = med["python zlib.crc32, 10 MiB chunks (CANDLE)"]
t_ours = med["ours (default: 2 threads, mmap)"]

mem = dict(p.split("=") for p in subprocess.run(
    [exe, "memory", "--mib", "256", "--reps", str(reps)], check=True, capture_output=True,
    text=True).stdout.split())

gb = total / 1e9
print(f"\nverify bench: {nfiles} files x {mib} MiB = {total >> 20} MiB, page cache warm, "
      f"median of {reps}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}\n")
print(f"{'what':42} {'seconds':>9} {'GB/s':>7}")
for name, t in med.items():
    print(f"{name:42} {t:9.3f} {gb / t:7.2f}")
print()
r_cat, r_cat2, r_py = t_cat / t_ours, t_cat2 / t_ours, t_py / t_ours
print(f"{'goal':42} {'ratio':>9} {'target':>7} result")
print(f"{'ours throughput vs 2 parallel cats':42} {r_cat2:9.2f} {'>=0.70':>7} {'PASS' if r_cat2 >= 0.7 else 'FAIL'}")
print(f"{'ours throughput vs one cat':42} {r_cat:9.2f}")
print(f"{'ours throughput vs python':42} {r_py:9.2f} {'>=3.00':>7} {'PASS' if r_py >= 3 else 'FAIL'}")
big_1, big_split = med["one file, 1 thread"], med["one file, 2 threads, 64 MiB parts"]
print(f"{'split speed-up on one file (2 thr vs 1)':42} {big_1 / big_split:9.2f}")
print(f"{'ISA-L vs zlib crc32, in memory':42} {float(mem['ratio']):9.2f}"
      f"   (ISA-L {mem['isal_gbps']} GB/s, zlib {mem['zlib_gbps']} GB/s, 1 core)")
size = f"{nfiles} x {mib} MiB"
v = lambda ok: "MET" if ok else "MISSED"
print(f"@result|verify|{size}: throughput vs two `cat` readers of half the files each, at once "
      f"(ours {gb / t_ours:.1f} GB/s, theirs {gb / t_cat2:.1f} GB/s)|{r_cat2:.2f}x|>= 0.7x|"
      f"{v(r_cat2 >= 0.7)}")
print(f"@result|verify|{size}: throughput vs one `cat FILES > /dev/null`|{r_cat:.2f}x|-|info")
print(f"@result|verify|{size}: vs Python zlib.crc32 in 10 MiB chunks (CANDLE's)|{r_py:.1f}x|"
      f">= 3x|{v(r_py >= 3)}")
print(f"@result|verify|ISA-L vs zlib CRC-32 in memory, one core (why ISA-L)|"
      f"{float(mem['ratio']):.2f}x|-|info")
PY
