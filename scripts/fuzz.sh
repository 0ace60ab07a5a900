#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz, clang + ASan + UBSan, own build
# directory) and runs each in turn for SECONDS, one fuzzer process at a time.
# Fails when any target finds a crash, a hang (one input over -timeout), a leak
# or runs out of memory; the input that did it is kept under
# $build/fuzz-artifacts/ and its name printed. Corpora persist in
# $build/fuzz-corpus/<target>/ across runs, seeded by scripts/fuzz-seeds.sh.
#
#   scripts/fuzz.sh [SECONDS]     each target for SECONDS (default 60)
#   scripts/fuzz.sh --ci          the CI-sized run: each target 8 seconds
#   scripts/fuzz.sh SECONDS fuzz_ckpt_info fuzz_ckpt_log     only these targets
#
# Environment: CKPT_FUZZ_BUILD_DIR (default build-fuzz), CKPT_BUILD_DIR (the normal
# build whose ckpt-demo-train makes the seeds; default build).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds=60
ci=0
if [[ "${1:-}" == "--ci" ]]; then seconds=8; ci=1; shift; elif [[ "${1:-}" =~ ^[0-9]+$ ]]; then seconds="$1"; shift; fi
build="${CKPT_FUZZ_BUILD_DIR:-$here/build-fuzz}"
[[ "$build" = /* ]] || build="$here/$build"

CKPT_WITH_FUZZ=1 bash "$here/scripts/setup-deps.sh"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  # -O1 and line tables only: instrumented code that builds fast and fuzzes fast.
  # CKPT_WERROR: the whole of ckpt::core is compiled here with Debian's clang,
  # so every CI run also keeps core free of clang warnings.
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -G Ninja -DCKPT_FUZZ=ON -DCKPT_WERROR=ON \
    -DCMAKE_BUILD_TYPE=Fuzz -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" \
    -DCMAKE_C_FLAGS_FUZZ="-O1 -gline-tables-only" "${launcher[@]}" >/dev/null
fi
cmake --build "$build" --target ckpt_fuzzers --parallel "${CKPT_FUZZ_JOBS:-2}"

targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cd "$here/tests/fuzz" && ls fuzz_*.cpp | sed 's/\.cpp$//')
fi
seeds="$build/fuzz-seeds"
if [[ ! -f "$seeds/.done" ]]; then
  bash "$here/scripts/fuzz-seeds.sh" "$seeds"
  touch "$seeds/.done"
fi

# Inputs larger than this are not tried: every seed fits (the demo's model.h5
# files are the largest); text parsers get less room to mutate in.
max_len() {
  case "$1" in
    fuzz_hdf5_inspect | fuzz_model_sniff) echo 262144 ;;
    *) echo 65536 ;;
  esac
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
# Leaks inside libhdf5 itself are known and not ours to free (tests/fuzz/lsan.supp).
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/tests/fuzz/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
# CI fuzzes with a fixed seed so a red run can be replayed; by hand, a fresh one each time.
seed=()
[[ $ci == 1 ]] && seed=(-seed="${CKPT_FUZZ_SEED:-20261124}")
failed=()
total_runs=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t"
  mkdir -p "$corpus"
  log="$build/fuzz-logs/$t.log"
  # One input over 10 s is a hang; over 2 GiB of memory an OOM; either fails the run.
  if "$build/tests/fuzz/$t" "$corpus" "$seeds/$t" -max_total_time="$seconds" \
      -max_len="$(max_len "$t")" "${seed[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    total_runs=$((total_runs + ${runs:-0}))
    printf 'fuzz: %-18s ok   %9s runs in %ss, corpus %s\n' "$t" "${runs:-?}" "$seconds" \
      "$(find "$corpus" -type f | wc -l)"
  else
    failed+=("$t")
    printf 'fuzz: %-18s FAILED (log: %s)\n' "$t" "$log"
    grep -E '^==[0-9]+==ERROR|SUMMARY|Test unit written|ALARM|out-of-memory' "$log" | head -8 || true
  fi
done
echo "fuzz: ${#targets[@]} targets x ${seconds}s, $total_runs inputs run"
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "fuzz: findings in ${failed[*]}: reproduce with $build/tests/fuzz/<target> <artifact>" >&2
  exit 1
fi
