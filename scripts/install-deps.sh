#!/usr/bin/env bash
# Installs the Debian 12 packages kir needs to build, test and fuzz. Idempotent: when every
# package is already present it prints nothing and runs no apt command.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build ccache git pkg-config
  clang libclang-rt-14-dev
  libmpfr-dev libgmp-dev libboost-dev
  libyaml-cpp-dev librapidcheck-dev catch2 libcli11-dev libfmt-dev nlohmann-json3-dev
  libbenchmark-dev
  pybind11-dev python3-dev python3-numpy python3-pytest
  libkainjow-mustache-dev python3-jsonschema chromium
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
