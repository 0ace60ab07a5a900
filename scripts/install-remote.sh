#!/usr/bin/env bash
# Puts a working `ckpt` on a Linux host that has no Qt: a relocatable bundle of
# this build's ckpt (stripped: the front end PREFIX/bin/ckpt and the full
# program PREFIX/libexec/ckpt/ckpt it runs) and every shared library they need
# except glibc (in PREFIX/lib, found through RUNPATHs relative to $ORIGIN),
# copied over ssh with tar, then checked by running `ckpt version --json` there.
#
#   scripts/install-remote.sh HOST [PREFIX]     PREFIX defaults to ~/.local/ckpt
#
# HOST is anything ssh takes (a ~/.ssh/config Host, user@host); the system ssh
# is used as configured (keys, agent, ProxyJump), never a password prompt.
# The host needs glibc at least as new as this machine's (Debian 12: 2.36).
#   CKPT_BUILD_DIR   build folder holding app/cli/ckpt (default build/)
#   CKPT_SSH         the ssh command (default "ssh"; e.g. "ssh -F my_config")
#   CKPT_SSH_COMPRESS=0   no ssh compression (fast links, loopback)
# Then open ssh://HOST/folder in Ckpt Studio: the default PREFIX is found by
# itself; another one is given as the far ckpt (PREFIX/bin/ckpt) once per host.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-$here/build}"
[[ "$build" = /* ]] || build="$here/$build"

if [[ $# -lt 1 || $# -gt 2 || "$1" == -h || "$1" == --help ]]; then
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
host="$1"
prefix="${2:-~/.local/ckpt}"
ckpt="$build/app/cli/ckpt"
full="$build/app/libexec/ckpt/ckpt"
for program in "$ckpt" "$full"; do
  [[ -x "$program" ]] || { echo "install-remote: $program not built: run scripts/build.sh first" >&2; exit 2; }
done
for tool in patchelf ldd tar strip; do
  command -v "$tool" >/dev/null || { echo "install-remote: needs $tool (apt-get install patchelf binutils)" >&2; exit 2; }
done
read -r -a ssh <<<"${CKPT_SSH:-ssh}"
ssh+=(-o BatchMode=yes)
[[ "${CKPT_SSH_COMPRESS:-1}" == 0 ]] || ssh+=(-C)

# The far shell gets PREFIX as one word; a leading ~/ stays expandable.
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
if [[ "$prefix" == "~" ]]; then far_prefix="~"
elif [[ "$prefix" == "~/"* ]]; then far_prefix="~/$(quote "${prefix#\~/}")"
else far_prefix="$(quote "$prefix")"; fi

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/libexec/ckpt" "$stage/lib"
strip --strip-unneeded -o "$stage/bin/ckpt" "$ckpt"
strip --strip-unneeded -o "$stage/libexec/ckpt/ckpt" "$full"
# Every library ldd resolves, but glibc's own (the host has those, and they
# must match its dynamic loader).
{ ldd "$ckpt"; ldd "$full"; } | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
while read -r soname path; do
  case "$soname" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|\
    libnsl.so.*|libanl.so.*|ld-linux*) continue ;;
  esac
  cp -L "$path" "$stage/lib/$soname"
  chmod u+w "$stage/lib/$soname"
  patchelf --set-rpath '$ORIGIN' "$stage/lib/$soname"
done
if { ldd "$ckpt"; ldd "$full"; } | grep -q 'not found'; then
  echo "install-remote: this build's ckpt misses libraries:" >&2
  { ldd "$ckpt"; ldd "$full"; } | grep 'not found' >&2
  exit 2
fi
patchelf --set-rpath '$ORIGIN/../lib' "$stage/bin/ckpt"
patchelf --set-rpath '$ORIGIN/../../lib' "$stage/libexec/ckpt/ckpt"
echo "install-remote: $(ls "$stage/lib" | wc -l) libraries, $(du -sh "$stage" | cut -f1) to $host:$prefix" >&2

# Unpacked beside, then renamed into place: a dropped copy leaves the old bundle.
tar -C "$stage" -cf - bin libexec lib | "${ssh[@]}" -- "$host" \
  "set -e; p=$far_prefix; mkdir -p \"\$p\"; rm -rf \"\$p/.ckpt-new\"; mkdir \"\$p/.ckpt-new\";
   tar -C \"\$p/.ckpt-new\" -xf -;
   rm -rf \"\$p/bin.old\" \"\$p/libexec.old\" \"\$p/lib.old\";
   for d in lib libexec bin; do [ ! -e \"\$p/\$d\" ] || mv \"\$p/\$d\" \"\$p/\$d.old\"; mv \"\$p/.ckpt-new/\$d\" \"\$p/\$d\"; done;
   rm -rf \"\$p/.ckpt-new\" \"\$p/bin.old\" \"\$p/libexec.old\" \"\$p/lib.old\""
if ! out="$("${ssh[@]}" -- "$host" "$far_prefix/bin/ckpt version --json" 2>&1)"; then
  echo "install-remote: copied, but $prefix/bin/ckpt does not run on $host:" >&2
  echo "$out" >&2
  exit 1
fi
echo "$out"
echo "install-remote: ckpt installed on $host as $prefix/bin/ckpt" >&2
