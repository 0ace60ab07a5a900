#!/usr/bin/env bash
# Streaming a MindSpore checkpoint (a 256 MiB float32 tensor split as MindSpore
# splits big ones): statistics (inspect) and a weight diff of two such files,
# each against read() of the same bytes in the same run, page cache warm.
# Goal: >= 0.5x the read throughput. Environment: BENCH_MIB (256), CKPT_BUILD_DIR.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
bench_build bench_protobuf
bench="$build/tests/bench/protobuf/bench_protobuf"
mib="${BENCH_MIB:-256}"
data="$(mktemp -d "${TMPDIR:-/tmp}/bench_protobuf.XXXXXX")"
trap 'rm -rf "$data"' EXIT
"$bench" big "$data/a.ckpt" "$mib"
cp "$data/a.ckpt" "$data/b.ckpt"
cat "$data"/*.ckpt >/dev/null
read_out="$("$bench" read "$data/a.ckpt")"
diff_out="$("$bench" diff "$data/a.ckpt" "$data/b.ckpt")"
echo "$read_out"; echo "$diff_out"
python3 - "$mib" "$read_out" "$diff_out" <<'PY'
import re, sys
mib, read_out, diff_out = sys.argv[1], sys.argv[2], sys.argv[3]
raw = float(re.search(r"raw read: ([\d.]+)", read_out).group(1))
stats = float(re.search(r"open\+stats: ([\d.]+)", read_out).group(1))
rss = re.search(r"peak RSS (\d+)", read_out).group(1)
ratio = float(re.search(r"ratio ([\d.]+)", diff_out).group(1))
v = lambda ok: "MET" if ok else "MISSED"
print(f"@result|tensors|MindSpore {mib} MiB: inspect statistics vs read() ({stats:.0f} vs {raw:.0f} MiB/s, peak RSS {rss} MiB)|{stats / raw:.2f}x|>= 0.5x|{v(stats / raw >= 0.5)}")
print(f"@result|tensors|MindSpore 2 x {mib} MiB: weight diff vs read() of both files|{ratio:.2f}x|>= 0.5x|{v(ratio >= 0.5)}")
PY
