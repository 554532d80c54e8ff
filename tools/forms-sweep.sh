#!/usr/bin/env bash
# Round trips through every form `convert` writes, for puzzles `generate` makes: each type at one size and box
# shape, written as a Tatham ID, a puzz.link URL, an f-puzzles and a SudokuPad link, a Penpa+ link, a corpus
# record, a janko.at block and a grid line, each read back and solved to two solutions. Prints a line for each
# form whose puzzle came back different (its solutions or their count) or failed to solve; forms that refuse a
# type (with their reason) are listed only with -v. Exit 1 when any came back different. BOX `-` leaves each
# type its own boxes (none on a Latin square, so joins of Latin-square types can be swept); -p sweeps every
# join of two types (`a+b`) instead of the types themselves.
#
#   tools/forms-sweep.sh [-v] [-p] LATIN SIZE BOX [TYPE...]    # every type of `latin grammars` when none is named
#   SEED=301 tools/forms-sweep.sh LATIN SIZE BOX                 # other puzzles than seed 3's
#   tools/forms-sweep.sh target/release/latin 8 2x4
#   tools/forms-sweep.sh -p target/release/latin 6 -
set -uo pipefail
verbose=0 pairs=0
while [ "${1:-}" = -v ] || [ "${1:-}" = -p ]; do
  [ "$1" = -v ] && verbose=1
  [ "$1" = -p ] && pairs=1
  shift
done
latin=$1 size=$2 box=$3
shift 3
types=("$@")
if [ ${#types[@]} -eq 0 ]; then
  mapfile -t types < <("$latin" grammars | awk '/^Puzzle types/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {exit}')
fi
if [ $pairs = 1 ]; then
  singles=("${types[@]}")
  types=()
  for ((i = 0; i < ${#singles[@]}; i++)); do
    for ((j = i + 1; j < ${#singles[@]}; j++)); do
      types+=("${singles[i]}+${singles[j]}")
    done
  done
fi
boxes=()
[ "$box" != - ] && boxes=(--box "$box")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
answers() {
  "$latin" solve --max 2 --format json "$1" 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("status"), d.get("count"), d.get("solutions"))' 2>&1
}
status=0
for type in "${types[@]}"; do
  puzzle=$out/$type.yaml
  if ! "$latin" generate "$type" --size "$size" "${boxes[@]}" --seed "${SEED:-3}" --time-limit 15 > "$puzzle" 2> "$out/err"; then
    [ $verbose = 1 ] && echo "$type: not generated: $(head -c 160 "$out/err")"
    continue
  fi
  want=$(answers "$puzzle")
  for form in tatham puzzlink fpuzzles sudokupad penpa record janko line; do
    if ! "$latin" convert --to "$form" "$puzzle" > "$out/$type.$form" 2> "$out/err"; then
      [ $verbose = 1 ] && echo "$type $form: refused: $(head -c 160 "$out/err")"
      continue
    fi
    got=$(answers "$out/$type.$form")
    if [ "$got" != "$want" ]; then
      echo "$type $form: came back different: $(echo "$got" | head -c 160)"
      status=1
    fi
  done
done
exit $status
