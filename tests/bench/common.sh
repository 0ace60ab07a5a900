# Sourced by every tests/bench/<area>/run.sh after it has set $here (its own
# folder). Sets $repo and $build (CKPT_BUILD_DIR, default <repo>/build) and
# defines bench_build TARGET: configures the build directory when it has never
# been, then builds TARGET with at most two jobs, quietly.
repo="$(cd "$here/../../.." && pwd)"
build="${CKPT_BUILD_DIR:-$repo/build}"

bench_build() {
  if [[ ! -f "$build/CMakeCache.txt" ]]; then
    cmake -S "$repo" -B "$build" -G Ninja >/dev/null
  fi
  cmake --build "$build" --target "$1" -j2 >/dev/null
}
