#!/usr/bin/env bash
# Installs the Debian packages Ckpt Studio needs to build, test and benchmark.
# Idempotent: does nothing when everything is already there. Root runs apt-get
# directly; other users go through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  qt6-base-dev qt6-base-dev-tools libqt6svg6 qt6-svg-dev libgl-dev
  libqcustomplot-dev
  libhdf5-dev hdf5-tools
  nlohmann-json3-dev zlib1g-dev libisal-dev libzip-dev
  libprotobuf-dev protobuf-compiler
  xvfb xauth
  python3 python3-h5py python3-numpy
  clang-format
  help2man file dpkg-dev
  slurmctld slurmd slurm-client munge
  openssh-server openssh-client patchelf
)
# The tests' example Lightning trainer runs real PyTorch (about 2.5 minutes to
# install): scripts/test.sh asks for it; the demo and a plain build do not.
if [[ "${CKPT_WITH_TORCH:-0}" == 1 ]]; then
  packages+=(python3-torch python3-yaml)
fi
if [[ "${CKPT_WITH_FUZZ:-0}" == 1 ]]; then
  packages+=(clang clang-14 libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "setup-deps: installing ${missing[*]}" >&2
$sudo apt-get update -qq
# Installing openssh-server (or slurmd) must not start or enable a system
# daemon: the remote tests start their own sshd on a loopback port. Where no
# policy-rc.d exists (a plain VM rather than a container), one that refuses
# every start is put in place for the install and removed afterwards.
policy=/usr/sbin/policy-rc.d
added_policy=0
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  added_policy=1
fi
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
if [[ $added_policy == 1 ]]; then
  $sudo rm -f "$policy"
  # systemd hosts enable units at install regardless of policy-rc.d.
  if command -v systemctl >/dev/null && [[ -d /run/systemd/system ]]; then
    $sudo systemctl disable --now ssh.service ssh.socket >/dev/null 2>&1 || true
  fi
fi
