#!/usr/bin/env bash
# Exhaustive f32 verification of the correctly rounded math (opt-in; about 40 minutes on two
# cores for the whole set): every one of the 2^32 f32 encodings of each function is evaluated by kir's numerics and
# compared with a reference independent of it (tests/numerics_verify/verify_f32.cpp: the C
# library's double result where it is provably far from an f32 rounding boundary, else the tests'
# Boost reference at 128/256 bits).
#
# Usage: scripts/verify-f32-exhaustive.sh [--jobs N] [--plain] [FN ...]  (default: every function)
#
# FN is a function of the math set, or one of the approximate modes exp2:approx, exp2:approx-ftz
# and tanh:approx (kir's value in that mode, and the mode's bound in the numerics contract at
# every input; see tests/numerics_verify/verify_f32.cpp).
#
# --plain checks the variant of the f32 kernels (exp, exp2, log, sin, cos, tanh, erf) without
# fused multiply-add, which CPUs without FMA run (KIR_NUMERICS_NO_FMA=1); its results are FN.plain.
#
# The 2^32 inputs of a function are cut into 256 shards of 2^24, run N at a time (default: the
# cores). Each finished shard leaves build-verify/verify-f32/FN/SHARD.txt, so an interrupted run
# resumes where it stopped (delete that folder to start over; shards of another revision are
# discarded). When all 256 shards of a function
# are there, docs/verification/f32/FN.txt gets the function's result: date, revision, inputs
# checked, mismatches (the first ones listed), inputs escalated to the Boost reference, the
# seconds (each shard's wall time, summed). The script exits non-zero when any function has a mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
jobs=$(nproc)
variant=
fns=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    --plain) export KIR_NUMERICS_NO_FMA=1; variant=.plain; shift ;;
    -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
    *) fns+=("$1"); shift ;;
  esac
done
if [ ${#fns[@]} -eq 0 ]; then
  fns=(exp exp2 log log1p sin cos asin tanh erf erfc sigmoid rsqrt sqrt floor abs i0 lgamma
       exp2:approx exp2:approx-ftz tanh:approx)
fi
scripts/install-deps.sh >/dev/null
export CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=true
cmake -S . -B build-verify -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-verify --target kir_verify_f32 -j "$jobs" >/dev/null
bin=$ROOT/build-verify/tests/kir_verify_f32
out=$ROOT/build-verify/verify-f32
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
[ -z "$(git status --porcelain -- numerics 2>/dev/null)" ] || rev="$rev+modified-numerics"
mkdir -p docs/verification/f32
failed=0
for f in "${fns[@]}"; do
  fn=${f//:/.}$variant  # the name of the shard folder and the result file (exp2:approx -> exp2.approx)
  mkdir -p "$out/$fn"
  if [ "$(cat "$out/$fn/REVISION" 2>/dev/null)" != "$rev" ]; then  # another revision's shards
    rm -f "$out/$fn"/*.txt
    echo "$rev" > "$out/$fn/REVISION"
  fi
  pending=()
  for s in $(seq 0 255); do [ -s "$out/$fn/$s.txt" ] || pending+=("$s"); done
  echo "$fn: $((256 - ${#pending[@]}))/256 shards done before this run, ${#pending[@]} to run on $jobs jobs"
  if [ ${#pending[@]} -gt 0 ]; then
    # One shard: [s * 2^24, (s + 1) * 2^24). Written to a temporary name first, so a killed
    # shard is run again (its exit status 1 means mismatches, which the file records).
    printf '%s\n' "${pending[@]}" | xargs -P "$jobs" -I{} bash -c '
      s={}; b=$((s << 24)); e=$(((s + 1) << 24))
      "$0" "$3" $b $e > "$2/$1/$s.tmp" || [ $? -eq 1 ]
      mv "$2/$1/$s.tmp" "$2/$1/$s.txt"
      echo "  $1 shard $s: $(head -1 "$2/$1/$s.txt" | cut -d" " -f4-)"' "$bin" "$fn" "$out" "$f"
  fi
  n=$(ls "$out/$fn"/*.txt | wc -l)
  [ "$n" -eq 256 ] || { echo "$fn: only $n/256 shards finished" >&2; failed=1; continue; }
  sum() { cat "$out/$fn"/*.txt | grep -o "$1=[0-9.]*" | cut -d= -f2 | awk '{s += $1} END {printf "%.0f", s}'; }
  checked=$(sum checked) mism=$(sum mismatches) esc=$(sum escalated) secs=$(sum seconds)
  {
    echo "function: $f (f32, every encoding 0x00000000..0xffffffff)"
    echo "kernels: $([ -n "$variant" ] && echo "plain (KIR_NUMERICS_NO_FMA=1)" || echo "fused multiply-add where the CPU has it ($(grep -qw fma /proc/cpuinfo && echo yes || echo no) here)")"
    echo "date: $(date -u +%Y-%m-%d)"
    echo "revision: $rev"
    echo "checked: $checked"
    echo "mismatches: $mism"
    echo "escalated to the Boost reference: $esc"
    echo "seconds (each shard's wall time, summed): $secs"
    cat "$out/$fn"/*.txt | grep "^mismatch" | head -20 || true
  } > "docs/verification/f32/$fn.txt"
  echo "$fn: checked $checked, mismatches $mism, escalated $esc, $secs s -> docs/verification/f32/$fn.txt"
  [ "$checked" = 4294967296 ] || { echo "$fn: checked $checked, not 2^32" >&2; failed=1; }
  [ "$mism" = 0 ] || failed=1
done
exit $failed
