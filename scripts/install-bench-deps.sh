#!/usr/bin/env bash
# Installs the Debian 12 packages of the backend benchmark's anchors (kir_bench_backend:
# oneDNN, OpenBLAS, Eigen, SLEEF) on top of kir's own (install-deps.sh). Benchmark-only: the
# default build and CI never need them. Idempotent: when every package is already present it
# prints nothing and runs no apt command.
set -euo pipefail
"$(dirname "$0")/install-deps.sh"
PKGS=(
  libdnnl-dev libopenblas-dev libeigen3-dev libsleef-dev
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-bench-deps: installing ${missing[*]}"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
