#!/usr/bin/env bash
# Runs the libFuzzer target for the KIR parser+verifier on the test corpus.
# Usage: scripts/fuzz.sh BUILD_DIR SECONDS [libFuzzer flags...]   (BUILD_DIR configured with
# -DCMAKE_CXX_COMPILER=clang++ -DKIR_FUZZ=ON). Exits non-zero on a crash, leak or sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1 secs=$2; shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/kir/valid/*.kir tests/kir/invalid/*.kir "$work"/ 2>/dev/null || true
find tests/kir/normalize -name '*.kir' -exec cp {} "$work"/ \; 2>/dev/null || true
"$dir"/fuzz/fuzz_parse_verify -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@" "$work" 2>&1 | tail -n 12
