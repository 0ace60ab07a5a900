#!/usr/bin/env bash
# Fork preparation benchmark (issue 7: "preparing a fork of a 1 GiB epoch on the
# same file system takes < 50 ms (hard links)"). LaunchPrep::prepare + apply of
# a fork from an epoch whose model.h5 is 1 GiB, against a baseline doing the same
# file work in the same run (mkdir of the fork's folders, link(2) of the epoch's
# files, the `last` symlink). Reported with checksums off (the plan's checks and
# the links) and on (prepare's restart check then recomputes the epoch's CRC-32).
# The data lives under the build folder (a disk, like a user's runs), not /tmp.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../common.sh"
reps="${REPS:-15}"

bench_build bench_fork
data="$build/bench-fork-data"
rm -rf "$data"
trap 'rm -rf "$data"' EXIT
"$build/tests/bench/fork/bench_fork" "$data" "$reps"
