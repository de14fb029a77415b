#!/usr/bin/env bash
# Runs one libFuzzer target on its seed corpus (copied to a temporary directory).
# Usage: scripts/fuzz.sh BUILD_DIR TARGET SECONDS [libFuzzer flags...]
#   TARGET: fuzz_parse_verify (corpus: tests/kir/**.kir), fuzz_spec (corpus: specs/**.yaml and
#   tests/specs data) or fuzz_differential (corpus: eight generator seeds). BUILD_DIR is configured with -DCMAKE_CXX_COMPILER=clang++ -DKIR_FUZZ=ON.
# Exits non-zero on a crash, leak, timeout or sanitizer report; the reproducer is left in the
# current directory (crash-*, leak-*, timeout-*).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1 target=$2 secs=$3; shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
case "$target" in
  fuzz_parse_verify) find tests/kir examples -name '*.kir' -exec cp {} "$work"/ \; ;;
  fuzz_spec) find specs tests/specs -name '*.yaml' -exec cp {} "$work"/ \; 2>/dev/null || true ;;
  fuzz_differential)  # seed bytes 0..7, size byte 8, steps byte 9 (fuzz/fuzz_differential.cpp)
    for i in 1 2 3 4 5 6 7 8; do printf "\\x$i\\x0$i\\x00\\x00\\x00\\x00\\x00\\x00\\x$((i * 11))\\x0$i" >"$work/seed-$i"; done ;;
  *) echo "fuzz.sh: unknown target $target" >&2; exit 2 ;;
esac
echo "fuzz: $target for ${secs} s on $(ls "$work" | wc -l) seed files"
"$dir/fuzz/$target" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 "$@" "$work" > "$work/log" 2>&1 || { tail -n 40 "$work/log"; exit 1; }
grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$work/log" || tail -n 3 "$work/log"
