#!/usr/bin/env bash
# The watcher's CPU cost to handle one new epoch (rename from work/ plus the
# relink of `last`, as CANDLE saves) against a full Scanner::scan of the same
# 10,000-epoch run, measured in the same process and run. Goal: <= 1%.
# Environment: BENCH_EPOCHS (10000), BENCH_REPS (15), CKPT_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
bench_build bench_watch
out="$("$build/tests/bench/watch/bench_watch" --epochs "${BENCH_EPOCHS:-10000}" \
       --reps "${BENCH_REPS:-15}")"
python3 - "$out" <<'PY'
import os, sys
kv = dict(p.split("=") for p in sys.argv[1].split())
scan, event, poll = float(kv["scan_cpu"]), float(kv["event_cpu"]), float(kv["poll_cpu"])
print(f"\nwatch bench: one CANDLE run of {kv['epochs']} epochs, CPU time of this process "
      f"(all threads), medians; load {os.getloadavg()[0]:.1f}\n")
print(f"{'what':46} {'CPU ms':>9} {'wall ms':>9}")
print(f"{'Scanner::scan of the whole tree (baseline)':46} {scan*1e3:9.2f} {float(kv['scan_wall'])*1e3:9.2f}")
print(f"{'watcher: one new epoch (rename + relink)':46} {event*1e3:9.2f} {float(kv['event_wall'])*1e3:9.2f}")
print(f"{'polling: one pass, nothing changed':46} {poll*1e3:9.3f} {'':>9}  ({kv['watched']} paths)")
ratio = event / scan
print(f"\n{'goal':46} {'ratio':>9} {'target':>9} result")
print(f"{'new-epoch handling vs full scan (CPU)':46} {ratio*100:8.2f}% {'<=1%':>9} "
      f"{'PASS' if ratio <= 0.01 else 'FAIL'}")
print("(wall time of the event includes the 50 ms debounce by design)")
print(f"@result|watch|one new epoch vs a full scan of {kv['epochs']} epochs (CPU)|"
      f"{ratio*100:.2f}%|<= 1%|{'MET' if ratio <= 0.01 else 'MISSED'}")
PY
