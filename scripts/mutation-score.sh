#!/usr/bin/env bash
# Mutation score of the differential campaign (docs/fuzzing.md "Mutation score"): for every
# seeded mutant of the CPU backend (`kir backend mutants`), a campaign of SECONDS with KIR_MUTANT
# set. A mutant is killed when its campaign has a finding (kir fuzz exits 1) that the unmutated
# backend does not have: a baseline campaign of the same seed and time runs first, and a
# mutant's finding counts when the baseline passed that case (or, beyond the baseline's cases,
# when its signature is not one of the baseline's). The time to kill is the campaign's
# first_finding_seconds (summary.json) when its first finding counts, else estimated from the
# case's position in the journal (marked ~). Prints one row per mutant and the killed fraction.
# Campaigns run without shrinking or reduction (the score needs the first finding only).
#
#   scripts/mutation-score.sh [SECONDS_PER_MUTANT] [SEED]
#
# Environment: KIR (the kir binary; default build/tools/kir), OUT (campaign directories; default
# a new temporary directory, kept), JOBS (workers per campaign; default 2), MUTANTS (a
# space-separated subset; default all), BASELINE_SECONDS (length of the baseline campaign;
# default SECONDS_PER_MUTANT). With a baseline without findings, each mutant's campaign stops at
# its first finding (kir fuzz --stop-on-finding). The artifact cache ($KIR_CACHE_DIR) is shared: the
# mutant's name is part of every cache key.
set -euo pipefail

SECONDS_PER_MUTANT=${1:-60}
SEED=${2:-1}
KIR=${KIR:-build/tools/kir}
JOBS=${JOBS:-2}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/kir-mutation-score.XXXXXX")}

if [[ ! -x $KIR ]]; then
  echo "mutation-score: no kir binary at $KIR (set KIR)" >&2
  exit 2
fi
if [[ -z ${MUTANTS:-} ]]; then
  # `kir backend mutants` prints each name on a line of its own, indented by two spaces.
  MUTANTS=$("$KIR" backend mutants | sed -n 's/^  \([a-z0-9_]*\)$/\1/p' | tr '\n' ' ')
fi
if "$KIR" backend mutants | grep -q "has none compiled in"; then
  echo "mutation-score: $KIR was built with -DKIR_MUTANTS=OFF" >&2
  exit 2
fi
mkdir -p "$OUT"
NO_REDUCE=""
"$KIR" fuzz --help | grep -q -- --no-reduce && NO_REDUCE=--no-reduce

# first_finding_seconds of a summary.json, or "" (no python needed: the field is on one line).
first_finding() {
  sed -n 's/^ *"first_finding_seconds": *\([0-9.eE+-]*\).*/\1/p' "$1" 2>/dev/null | head -n 1
}
json_number() {  # FIELD FILE
  sed -n "s/^ *\"$1\": *\([0-9.eE+-]*\).*/\1/p" "$2" 2>/dev/null | head -n 1
}

campaign() {  # NAME MUTANT [FLAGS] [SECONDS]: runs one campaign into $OUT/NAME, prints its exit code
  local dir="$OUT/$1" code
  rm -rf "$dir"
  set +e
  KIR_MUTANT=${2:-} "$KIR" fuzz --time "${4:-$SECONDS_PER_MUTANT}" --seed "$SEED" --jobs "$JOBS" --no-shrink $NO_REDUCE \
    ${3:-} --quiet --out "$dir" >"$OUT/$1.log" 2>&1
  code=$?
  set -e
  echo "$code"
}

# The unmutated backend's findings of this seed: a mutant is not credited with them.
base_code=$(campaign baseline "" "" "${BASELINE_SECONDS:-$SECONDS_PER_MUTANT}")
if [[ $base_code != 0 && $base_code != 1 ]]; then
  echo "mutation-score: the baseline campaign failed (exit $base_code, see $OUT/baseline.log)" >&2
  exit 2
fi
base_cases=$(json_number cases "$OUT/baseline/summary.json")
# With a clean baseline every finding of a mutant's campaign is the mutant's: the campaign may
# stop at its first one (the time to kill is the same; the rest of its time is saved).
STOP=""
if ! grep -q -v -P '\t(pass|unsupported)\t' "$OUT/baseline/journal.tsv" && "$KIR" fuzz --help | grep -q -- --stop-on-finding; then
  STOP=--stop-on-finding
fi
echo "baseline: $base_cases cases, $(grep -c -v -P '\t(pass|unsupported)\t' "$OUT/baseline/journal.tsv" || true) findings" >&2

# The journal line of the first finding of $1/journal.tsv the baseline does not have, as
# "LINE_NO<TAB>TOTAL_LINES<TAB>signature"; empty when there is none.
new_finding() {
  awk -F'\t' -v OFS='\t' '
    FNR == NR { outcome[$1] = $2; if ($2 != "pass" && $2 != "unsupported") bsig[$3] = 1; next }
    { n++ }
    $2 != "pass" && $2 != "unsupported" && !hit {
      if (($1 in outcome) ? (outcome[$1] == "pass" || outcome[$1] == "unsupported") : !($3 in bsig)) { hit = n; sig = $3 }
    }
    END { if (hit) print hit, n, sig }' "$OUT/baseline/journal.tsv" "$1/journal.tsv"
}

killed=0
total=0
times=()
rows=()
for m in $MUTANTS; do
  code=$(campaign "$m" "$m" "$STOP")
  dir="$OUT/$m"
  total=$((total + 1))
  cases=$(json_number cases "$dir/summary.json")
  hit=""
  [[ $code == 1 ]] && hit=$(new_finding "$dir")
  if [[ -n $hit ]]; then
    killed=$((killed + 1))
    IFS=$'\t' read -r line lines sig <<<"$hit"
    first_line=$(awk -F'\t' '$2 != "pass" && $2 != "unsupported" { print NR; exit }' "$dir/journal.tsv")
    if [[ $first_line == "$line" ]]; then
      t=$(printf '%.1f' "$(first_finding "$dir/summary.json")")
    else  # an earlier finding was the baseline's: estimate from the case's place in the journal
      t="~$(awk -v l="$line" -v n="$lines" -v s="$(json_number seconds "$dir/summary.json")" 'BEGIN {printf "%.1f", s * l / n}')"
    fi
    times+=("${t#\~}")
    rows+=("$(printf '%-30s %-8s %8s %6s  %s' "$m" killed "$t" "${cases:-?}" "$sig")")
  elif [[ $code == 0 || $code == 1 ]]; then
    rows+=("$(printf '%-30s %-8s %8s %6s' "$m" survived - "${cases:-?}")")
  else
    rows+=("$(printf '%-30s %-8s %8s %6s  kir fuzz exited %d (see %s)' "$m" error - "${cases:-?}" "$code" "$OUT/$m.log")")
  fi
  echo "${rows[-1]}" >&2
done

median=-
if ((${#times[@]})); then
  median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.1f", m}')
fi
printf '\n%-30s %-8s %8s %6s  %s\n' mutant result "kill s" cases "first new signature"
printf '%s\n' "${rows[@]}"
printf '\nmutation score: %d/%d killed (%s%%), median time to kill %s s, %s s per mutant, seed %s; campaigns in %s\n' \
  "$killed" "$total" "$(awk -v k="$killed" -v t="$total" 'BEGIN {printf "%.0f", t ? 100 * k / t : 0}')" "$median" \
  "$SECONDS_PER_MUTANT" "$SEED" "$OUT"
