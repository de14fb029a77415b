#!/usr/bin/env bash
# Opt-in ThreadSanitizer run of the CPU backend's runtime: builds build-tsan (clang, KIR_TSAN=ON)
# and runs the worker pool's tests, the tests whose kernels run tasks through the pool (faults
# stopping tasks, ordered partitions, atomics) and the reproduction of timing-dependent findings.
# The host side (pool, joins, fault records, coverage counters) is instrumented; generated
# kernels are built by the provider without sanitizers, so races inside a kernel's own code are
# not seen here (the differential campaigns and the interpreter's conflict checks cover those).
# Too slow for CI (the build alone is about 30 minutes on two cores).
# Usage: scripts/tsan.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export KIR_CACHE_DIR="${KIR_CACHE_DIR:-$PWD/build-kir-cache}"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DKIR_TSAN=ON \
  -DKIR_PYTHON=OFF >/dev/null
cmake --build build-tsan -j"$(nproc)" --target backend_tests fuzz_tests
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
build-tsan/tests/backend_tests "[runtime],[faults]"
build-tsan/tests/backend_tests --filenames-as-tags "[#test_effects]"
build-tsan/tests/fuzz_tests "[repro]"
echo "tsan: no data race reported"
