#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds kir, runs a short seeded fuzz smoke of
# the parser+verifier (libFuzzer, clang), then every CTest suite in a normal build and in an
# ASan+UBSan build. Usage: scripts/test.sh [--no-sanitize] [--no-fuzz]
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1 fuzz=1
for a in "$@"; do
  case "$a" in
    --no-sanitize) sanitize=0 ;;
    --no-fuzz) fuzz=0 ;;
    *) echo "usage: scripts/test.sh [--no-sanitize] [--no-fuzz]" >&2; exit 2 ;;
  esac
done
scripts/install-deps.sh
jobs=$(nproc)

build() {  # build DIR [cmake args...]
  local dir=$1; shift
  cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

if [ "$fuzz" = 1 ]; then
  echo "== fuzz smoke: parser + verifier (seeded, 60 s)"
  build build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DKIR_FUZZ=ON \
    -DKIR_FUZZ_ONLY=ON
  scripts/fuzz.sh build-fuzz 60 -seed=20261129
fi

if [ "$sanitize" = 1 ]; then
  echo "== tests, ASan+UBSan build"
  build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKIR_SANITIZE=ON
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$jobs"
fi

echo "== tests, release build"
build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
ctest --test-dir build --output-on-failure -j"$jobs"
