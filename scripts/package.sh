#!/usr/bin/env bash
# Builds the optimised (-O3, Release) programs with warnings as errors, makes the
# Debian packages and proves the installed artefacts work:
#   1. cpack -G DEB: ckpt-studio_*.deb (ckpt, ckpt-studio, .desktop, icon, ckpt(1),
#      bash completion) and libckpt-dev_*.deb (ckpt::core for other projects)
#   2. cmake --install into a staging prefix; tests/consumer (find_package(ckpt))
#      is built against that prefix, not the build tree, and run on the demo
#   3. with --check-install (CI; installs system-wide, needs root or sudo):
#      apt-get installs both .debs with their dependencies, then runs the
#      installed ckpt, ckpt-studio (offscreen), the man page, the completion and
#      the consumer built against /usr
#
#   scripts/package.sh [--check-install]      packages land in build-release/
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CKPT_BUILD_DIR="${CKPT_PACKAGE_BUILD_DIR:-$here/build-release}"
export CKPT_BUILD_TYPE=Release
export CKPT_CMAKE_ARGS="-DCKPT_BUILD_TESTS=OFF"
build="$CKPT_BUILD_DIR"
bash "$here/scripts/build.sh"

step() { echo "package: $*" >&2; }
fail() { echo "package: FAILED: $*" >&2; exit 1; }

step "cpack -G DEB"
rm -f "$build"/*.deb
(cd "$build" && cpack -G DEB >/dev/null)
runtime_deb="$(ls "$build"/ckpt-studio_*.deb)"
dev_deb="$(ls "$build"/libckpt-dev_*.deb)"
for deb in "$runtime_deb" "$dev_deb"; do
  echo "== $(basename "$deb")"
  dpkg-deb --field "$deb" Package Version Depends
  dpkg-deb --contents "$deb" | awk '{print "   " $6}' | grep -v '/$'
done
dpkg-deb --field "$runtime_deb" Depends | grep -q libqt6core6 ||
  fail "$runtime_deb: dpkg-shlibdeps did not declare Qt"

demo="$build/demo-experiment"
[[ -d "$demo" ]] || bash "$here/scripts/make-demo.sh" "$demo" >/dev/null

consumer() { # consumer PREFIX: builds tests/consumer against PREFIX and runs it on the demo
  local prefix="$1" out="$build/consumer-${1//\//_}"
  rm -rf "$out"
  cmake -S "$here/tests/consumer" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
  grep -q "ckpt_DIR:PATH=$prefix" "$out/CMakeCache.txt" ||
    fail "the consumer found ckpt elsewhere than $prefix: $(grep ckpt_DIR "$out/CMakeCache.txt")"
  cmake --build "$out" >/dev/null
  "$out/ckpt-consumer" "$demo"
}

step "cmake --install into a staging prefix and a consumer project built against it"
stage="$build/stage"
rm -rf "$stage"
cmake --install "$build" --prefix "$stage" >/dev/null
for f in bin/ckpt libexec/ckpt/ckpt bin/ckpt-studio include/ckpt/scan/Scanner.h include/ckpt/checksum/Verifier.h \
         'lib*/libckpt_core.a' 'lib*/cmake/ckpt/ckptConfig.cmake' \
         'lib*/cmake/ckpt/ckptConfigVersion.cmake' 'lib*/cmake/ckpt/ckptTargets.cmake' \
         share/applications/ckpt-studio.desktop share/icons/hicolor/scalable/apps/ckpt-studio.svg \
         share/man/man1/ckpt.1.gz share/bash-completion/completions/ckpt; do
  compgen -G "$stage/$f" >/dev/null || fail "cmake --install did not provide $f"
done
consumer "$stage"

[[ "${1:-}" == --check-install ]] || exit 0

sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
step "apt-get install $(basename "$runtime_deb") $(basename "$dev_deb")"
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
  "$runtime_deb" "$dev_deb" >/dev/null
[[ "$(command -v ckpt)" == /usr/bin/ckpt ]] || fail "ckpt is not /usr/bin/ckpt"
/usr/bin/ckpt --version | grep -qx "ckpt [0-9.]*" || fail "ckpt --version: $(/usr/bin/ckpt --version)"
/usr/bin/ckpt scan --summary "$demo"
shot="$build/installed-screenshot.png"
rm -f "$shot"
QT_QPA_PLATFORM=offscreen /usr/bin/ckpt-studio --screenshot "$shot" "$demo"
[[ -s "$shot" ]] || fail "the installed ckpt-studio wrote no screenshot"
zcat /usr/share/man/man1/ckpt.1.gz | grep -q '^\.SS "ckpt verify"' ||
  fail "ckpt(1) lacks the verify command's section"
words="$(bash -c 'source /usr/share/bash-completion/completions/ckpt
  COMP_WORDS=(ckpt veri); COMP_CWORD=1; _ckpt; echo "${COMPREPLY[*]}"
  COMP_WORDS=(ckpt verify --ep); COMP_CWORD=2; _ckpt; echo "${COMPREPLY[*]}"')"
[[ "$words" == $'verify\n--epoch' ]] || fail "bash completion gave: $words"
consumer /usr
step "installed packages work"
