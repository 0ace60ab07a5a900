#!/usr/bin/env bash
# Benchmarks `ckpt diff` (ckpt::TensorDiff) against h5py + numpy doing the same
# diff, and against a bare H5Dread of the same data, in one run on the same
# files with a warm page cache. Medians of REPS runs. Total well under 60 s.
#   (a) large contiguous tensors: 2 files x BIG_TENSORS x BIG_ELEMENTS float32
#   (b) many small tensors:       2 files x SMALL_TENSORS x SMALL_ELEMENTS float32
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
BIG_TENSORS="${BIG_TENSORS:-8}"
BIG_ELEMENTS="${BIG_ELEMENTS:-16777216}"
SMALL_TENSORS="${SMALL_TENSORS:-4000}"
SMALL_ELEMENTS="${SMALL_ELEMENTS:-256}"
REPS="${REPS:-3}"
PYTHON="${PYTHON:-/usr/bin/python3}" # Debian's python3 has python3-h5py/numpy

bench_build bench_diff
bench="$build/tests/bench/diff/bench_diff"

data="$(mktemp -d "${TMPDIR:-/tmp}/ckpt-bench-diff.XXXXXX")"
trap 'rm -rf "$data"' EXIT
"$bench" make "$data" "$BIG_TENSORS" "$BIG_ELEMENTS" "$SMALL_TENSORS" "$SMALL_ELEMENTS"
cat "$data"/*.h5 >/dev/null # warm the page cache

row() { # name goal_text ratio goal [measure for the results file]
  awk -v n="$1" -v g="$2" -v r="$3" -v goal="$4" -v m="${5:-}" \
    'BEGIN { printf "%-34s %8.2fx   %-8s %s\n", n, r, g, (r >= goal ? "ok" : "MISSED")
             if (m != "") printf "@result|diff|%s|%.2fx|%s|%s\n", m, r, g, (r >= goal ? "MET" : "MISSED") }'
}

for case in big small; do
  a="$data/${case}_a.h5"; b="$data/${case}_b.h5"
  read -r t_bare bytes < <("$bench" bare "$a" "$b" "$REPS")
  read -r t_ours _ < <("$bench" ours "$a" "$b" "$REPS")
  read -r t_py _ < <("$PYTHON" "$here/diff_h5py.py" "$a" "$b" "$REPS")
  # The first diff of the pair in a fresh process: each file is first read by a
  # forked copy (H5Probe, both at once) that later diffs find decided.
  firsts=()
  for _ in $(seq "$REPS"); do firsts+=("$("$bench" ours "$a" "$b" 1 | cut -d' ' -f1)"); done
  t_first="$(printf '%s\n' "${firsts[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
  declare "bare_$case=$t_bare" "ours_$case=$t_ours" "py_$case=$t_py" "bytes_$case=$bytes" \
    "first_$case=$t_first"
done

mb() { awk -v b="$1" -v t="$2" 'BEGIN { printf "%.0f", b / t / 1048576 }'; }
echo
echo "diff benchmark: median of $REPS, page cache warm, $(nproc) cores"
echo "(a) $BIG_TENSORS x $BIG_ELEMENTS float32 per file; (b) $SMALL_TENSORS x $SMALL_ELEMENTS float32 per file"
printf "%-10s %12s %12s %12s   %s\n" case "bare H5Dread" ours "h5py+numpy" "(seconds; MiB/s of both files)"
for case in big small; do
  eval "tb=\$bare_$case to=\$ours_$case tp=\$py_$case by=\$bytes_$case"
  printf "%-10s %12.4f %12.4f %12.4f   bare %s, ours %s, h5py %s MiB/s\n" "$case" "$tb" "$to" "$tp" \
    "$(mb "$by" "$tb")" "$(mb "$by" "$to")" "$(mb "$by" "$tp")"
done
echo
printf "%-34s %9s   %-8s %s\n" ratio value goal result
big="2 x $BIG_TENSORS x $BIG_ELEMENTS float32"
small="2 x $SMALL_TENSORS x $SMALL_ELEMENTS float32"
row "(a) h5py+numpy time / ours" ">= 5x" "$(awk -v p="$py_big" -v o="$ours_big" 'BEGIN{print p/o}')" 5 \
  "$big: speed vs h5py + NumPy"
row "(b) h5py+numpy time / ours" ">= 3x" "$(awk -v p="$py_small" -v o="$ours_small" 'BEGIN{print p/o}')" 3 \
  "$small: speed vs h5py + NumPy"
for case in big small; do
  eval "tf=\$first_$case to=\$ours_$case"
  n=$([[ $case == big ]] && echo "$big" || echo "$small")
  awk -v f="$tf" -v o="$to" -v n="$n" 'BEGIN {
    printf "%-34s %8.2fx   (%.3f s vs %.3f s)\n", "first diff in a process / later", f / o, f, o
    printf "@result|diff|%s: the first diff in a process (both files read first by forked HDF5 checks) vs a later one (%.3f s vs %.3f s)|%.2fx|-|info\n", n, f, o, f / o }'
done
row "(a) ours throughput / bare H5Dread" ">= 0.5x" "$(awk -v b="$bare_big" -v o="$ours_big" 'BEGIN{print b/o}')" 0.5 \
  "$big: throughput vs bare H5Dread"
row "(b) ours throughput / bare H5Dread" ">= 0.5x" "$(awk -v b="$bare_small" -v o="$ours_small" 'BEGIN{print b/o}')" 0.5 \
  "$small: throughput vs bare H5Dread"
