#!/usr/bin/env bash
# Time per puzzle of `latin generate` for every type under grammars/ (no level asked), one run a seed, wall
# clock of the whole process: median and slowest over SEEDS seeds (default 15), and the levels the puzzles got.
#
#   benches/generate.sh [SEEDS] [SIZE]          # SIZE: 9 by default (Sudoku types use their 3x3 boxes)
#   LEVELS=1 benches/generate.sh [SEEDS] [SIZE] # instead: Sudoku by asked level (--difficulty), each level
#   TYPES="frame x-sums" benches/generate.sh     # only these types
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-15}
size=${2:-9}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/latin-target}"
cargo build --release --quiet
latin="$CARGO_TARGET_DIR/release/latin"
if [ -n "${LEVELS:-}" ]; then
  # Not fish: thinned 9x9 Sudokus rarely need it (`--difficulty fish --attempts 3000` from seed 97 first meets
  # it at seed 1595), far past the 200 attempts a level gets here.
  runs=(singles intersections subsets probing)
elif [ -n "${TYPES:-}" ]; then
  runs=($TYPES)
else
  runs=($(sed -n 's/^name: *//p' grammars/*.yaml))
fi
printf "%-16s %10s %10s  %s\n" type "median ms" "slowest ms" levels
for run in "${runs[@]}"; do
  if [ -n "${LEVELS:-}" ]; then
    type=sudoku
    ask=(--difficulty "$run")
  else
    type=$run
    ask=()
  fi
  times=()
  levels=()
  for s in $(seq 1 "$seeds"); do
    start=$(date +%s%N)
    title=$("$latin" generate "$type" "${ask[@]}" --size "$size" --seed $((s * 97)) | head -1)
    times+=($(( ($(date +%s%N) - start) / 1000000 )))
    levels+=("$(sed 's/.*(\([a-z]*\),.*/\1/' <<< "$title")")
  done
  sorted=($(printf "%s\n" "${times[@]}" | sort -n))
  median=${sorted[$(( ${#sorted[@]} / 2 ))]}
  printf "%-16s %10s %10s  %s\n" "$run" "$median" "${sorted[-1]}" \
    "$(printf "%s\n" "${levels[@]}" | sort | uniq -c | awk '{ printf "%s %s, ", $1, $2 }' | sed 's/, $//')"
done
