#!/usr/bin/env bash
# Runs the CPU backend benchmark kir_bench_backend (issue 13): installs its anchor libraries
# (install-bench-deps.sh), configures and builds build-bench (RelWithDebInfo), runs the benchmark with
# the given arguments (--large, --filter SUBSTR, --threads 1|2, --markdown, --reps N) and also
# writes the Markdown table to bench/results-latest.md. Ratios compare against anchors measured in
# the same run; run it on a quiet machine (other load shows up in the cpu/wall column).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
./scripts/install-bench-deps.sh
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=true
JOBS=${JOBS:-$(nproc)}
# RelWithDebInfo like every other build: the timed code is the backend's generated C++, compiled
# at -O3 by the provider whatever the build type (GCC 12 at -O3 also reports a false -Wrestrict
# inside libstdc++'s string code, which our warnings-as-errors policy would stop on).
configure=$(cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo)
if grep -q "kir_bench_backend skipped" <<<"$configure"; then
  grep "kir_bench_backend skipped" <<<"$configure" >&2
  exit 1
fi
nice -n 10 cmake --build build-bench --target kir_bench_backend -j "$JOBS"
# OpenBLAS 0.3.21 (Debian 12) does not recognize every newer CPU: on an unknown model its
# DYNAMIC_ARCH falls back to the SSE3 "Prescott" kernels (10x slower). Choose its kernels from
# the CPU flags unless the caller did; the benchmark prints the core OpenBLAS runs.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell
  fi
fi
exec build-bench/bench/kir_bench_backend --markdown-file "$ROOT/bench/results-latest.md" "$@"
