#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds kir twice and runs every CTest suite in
# both builds: an ASan+UBSan build (clang, which also builds the libFuzzer targets and runs a
# short seeded fuzz smoke of the parser+verifier and the manifest loader) and a release build
# (gcc), then a 60-second seeded differential campaign (kir fuzz) of the release build, which
# fails the run when it has findings (their reproducers are under build/fuzz-smoke/findings).
# Usage: scripts/test.sh [--no-sanitize]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1
for a in "$@"; do
  case "$a" in
    --no-sanitize) sanitize=0 ;;
    *) echo "usage: scripts/test.sh [--no-sanitize]" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh
# ccache hits across clones in different folders (CI clones afresh each run).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
# One artifact cache for the backend tests of both builds: the generated C++ is compiled by the
# system compiler either way, so the second build's tests load what the first one compiled.
export KIR_CACHE_DIR="${KIR_CACHE_DIR:-$PWD/build-kir-cache}"
jobs=$(nproc)

build() {  # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

if [ "$sanitize" = 1 ]; then
  echo "== ASan+UBSan build (clang) with fuzz targets"
  build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DKIR_SANITIZE=ON -DKIR_FUZZ=ON
  echo "== fuzz smoke (seeded, 30 s per target)"
  for t in build-asan/fuzz/fuzz_*; do
    scripts/fuzz.sh build-asan "$(basename "$t")" 30 -seed=20261129
  done
  echo "== tests, ASan+UBSan build"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi

echo "== tests, release build (gcc)"
build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
ctest --test-dir build --output-on-failure -j"$jobs"

echo "== differential fuzz smoke (seeded, 60 s: generated kernels, interpreter vs CPU backend)"
rm -rf build/fuzz-smoke
build/tools/kir fuzz --time 60 --seed 20261201 --jobs "$jobs" --out build/fuzz-smoke
