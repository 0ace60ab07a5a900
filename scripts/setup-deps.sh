#!/usr/bin/env bash
# Installs the Debian packages Ckpt Studio needs to build, test and benchmark.
# Idempotent: does nothing when everything is already there. Root runs apt-get
# directly; other users go through sudo.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
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
)
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
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
