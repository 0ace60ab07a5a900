#!/usr/bin/env bash
# Installs what is missing, builds, creates the bundled demo experiment (a few
# CANDLE runs written by the demo trainer, one of them restarted) and opens it
# in ckpt-studio. Without a display it prints `ckpt scan` of the demo instead.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-$here/build}"
export CKPT_BUILD_DIR="$build"
bash "$here/scripts/build.sh"
demo="$build/demo-experiment"
if [[ ! -d "$demo" ]]; then
  bash "$here/scripts/make-demo.sh" "$demo"
fi
studio="$build/app/studio/ckpt-studio"
if [[ -x "$studio" && ( -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ) ]]; then
  exec "$studio" "$demo" "$@"
fi
[[ -x "$studio" ]] && echo "demo: no display; showing 'ckpt scan' instead (try: xvfb-run $studio --screenshot demo.png $demo)" >&2
exec "$build/app/cli/ckpt" scan "$demo"
