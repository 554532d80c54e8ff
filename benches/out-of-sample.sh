#!/usr/bin/env bash
# Puzzles the corpus does not hold, to A/B a change on: COUNT puzzles of each TYPE from `latin generate`, seeds
# FIRST.. (default 101 and 15), written as YAML under DIR/TYPE/. Then
#
#   latin bench DIR/TYPE --against OTHER_LATIN --repeat 3 --max-repeat 3
#
# A search heuristic tuned on the corpus's 20 records a type can lose out of sample: last-conflict branching
# (2026-11-26) lowered every variant median on the corpus and made these arrows 1.11x slower.
#
#   benches/out-of-sample.sh DIR [FIRST] [COUNT] TYPE...
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
dir=$1
shift
first=101
count=15
[[ $1 =~ ^[0-9]+$ ]] && { first=$1; shift; }
[[ ${1:-} =~ ^[0-9]+$ ]] && { count=$1; shift; }
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/latin-target}"
cargo build --release --quiet
latin="$CARGO_TARGET_DIR/release/latin"
for type in "$@"; do
  mkdir -p "$dir/$type"
  made=0
  for seed in $(seq "$first" $((first + count - 1))); do
    out="$dir/$type/$type-$seed.yaml"
    if "$latin" generate "$type" --size 9 --seed "$seed" --format yaml --time-limit 30 > "$out" 2>/dev/null; then
      made=$((made + 1))
    else
      rm -f "$out"
    fi
  done
  echo "$type: $made of $count puzzles in $dir/$type"
done
