#!/usr/bin/env bash
# The main job: installs what is missing, builds kir and runs the bundled conformance campaign.
# Validate every bundled op-spec manifest (with parity against the paired kernels), run every
# example kernel in the reference interpreter, then run every workload row of every manifest
# through the interpreter against the op's independent reference kernel AND natively on the CPU
# backend (checked bit for bit against the interpreter), and print the table of ops x cases
# with both verdicts (docs/spec-run.md, docs/backend.md); finally write the numerical conformance
# report of the bundled workloads and the math functions (build/report/report.html, docs/report.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# ccache hits across clones in different folders (CI clones afresh each run).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target kir
echo "== op-spec manifests: kir spec validate specs"
build/tools/kir spec validate specs
echo "== example kernels: kir campaign examples --backend cpu (interpreter and CPU backend, bit for bit)"
build/tools/kir campaign examples --backend cpu
echo "== manifest workloads: interpreter vs reference kernels, CPU backend vs interpreter: kir spec run specs --backend cpu"
build/tools/kir spec run specs --backend cpu
echo "== numerical conformance report: kir report specs -o build/report (docs/report.md)"
exec build/tools/kir report specs -o build/report
