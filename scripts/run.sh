#!/usr/bin/env bash
# The main job: installs what is missing, builds kir and runs the bundled conformance campaign.
# Until the backend and oracle exist, the campaign normalizes, verifies and runs every bundled
# kernel in the reference interpreter on seeded inputs and prints a summary; it first validates
# every bundled op-spec manifest (with parity against the paired kernels).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# ccache hits across clones in different folders (CI clones afresh each run).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target kir
echo "== op-spec manifests: kir spec validate specs"
build/tools/kir spec validate specs
echo "== kernels: kir campaign examples specs/kernels"
exec build/tools/kir campaign examples specs/kernels
