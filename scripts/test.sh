#!/usr/bin/env bash
# Builds everything and runs every test (CTest), including the Slurm tests,
# which start a real one-node cluster of their own.
#
#   scripts/test.sh [--asan | --tsan] [CTEST ARGS...]
#     --asan  AddressSanitizer + UndefinedBehaviorSanitizer, Debug, into build-asan/
#     --tsan  ThreadSanitizer, RelWithDebInfo, into build-tsan/
# A sanitizer finding fails the test that triggered it. Findings inside Qt or
# HDF5 themselves are suppressed, narrowly, by tests/sanitizers/*.supp.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
supp="$here/tests/sanitizers"
case "${1:-}" in
  --asan)
    shift
    export CKPT_BUILD_DIR="${CKPT_BUILD_DIR:-$here/build-asan}"
    export CKPT_BUILD_TYPE=Debug
    export CKPT_CMAKE_ARGS="-DCKPT_SANITIZE=address,undefined ${CKPT_CMAKE_ARGS:-}"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
    export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
    export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
    ;;
  --tsan)
    shift
    export CKPT_BUILD_DIR="${CKPT_BUILD_DIR:-$here/build-tsan}"
    export CKPT_BUILD_TYPE=RelWithDebInfo
    export CKPT_CMAKE_ARGS="-DCKPT_SANITIZE=thread ${CKPT_CMAKE_ARGS:-}"
    # Debian's Qt, HDF5 and glib are not instrumented and Qt's QMutex/QSemaphore
    # wait on futexes TSan cannot see, so the memory Qt itself moves through
    # intercepted calls (QThreadPool's queue by memmove, QWaitCondition's
    # pthread_cond_destroy after a pool thread's wakeAll) is reported as racing.
    # ignore_noninstrumented_modules ignores only accesses made by interceptors
    # called from uninstrumented libraries; their pthread synchronisation still
    # counts, and every access from our code (in a slot or a pool task too) is
    # checked. A called_from_lib suppression would drop Qt's pthread ordering
    # as well and bury the tests in false reports.
    # die_after_fork=0: after a QProcess start TSan takes the test process for
    # the child of a multi-threaded fork and kills it at its next thread start
    # (tst_Crc32 after running python3); no child of ours starts a thread.
    # history_size=7: the most history TSan keeps. With the default it often
    # cannot restore the stack of a queued call's construction ("failed to
    # restore the stack"), and a tsan.supp rule cannot match a missing stack
    # (tst_MainWindow: 5 runs of 6 failed so, none with 7).
    export TSAN_OPTIONS="suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:die_after_fork=0:history_size=7"
    ;;
esac
build="${CKPT_BUILD_DIR:-$here/build}"
CKPT_WITH_TORCH=1 bash "$here/scripts/build.sh"
cd "$build"
ctest --output-on-failure --parallel "$(nproc)" --timeout 600 "$@"
