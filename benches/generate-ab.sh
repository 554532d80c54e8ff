#!/usr/bin/env bash
# Two builds of latin on the same `generate` runs, back to back: total wall clock over the seeds for each, and
# how many of the puzzles came out identical (a change to how puzzles are checked should change times, not
# puzzles, except where a proof's time limit cut in).
#
#   benches/generate-ab.sh OLD NEW SIZE SEEDS TYPE...     # seeds 97, 194, ... as benches/generate.sh
set -euo pipefail
old=$1 new=$2 size=$3 seeds=$4
shift 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf "%-16s %12s %12s  %s\n" type "old ms" "new ms" identical
for type in "$@"; do
  old_ms=0 new_ms=0 same=0
  for s in $(seq 1 "$seeds"); do
    a=$(date +%s%N)
    "$old" generate "$type" --size "$size" --seed $((s * 97)) > "$out/old.yaml"
    b=$(date +%s%N)
    "$new" generate "$type" --size "$size" --seed $((s * 97)) > "$out/new.yaml"
    c=$(date +%s%N)
    old_ms=$((old_ms + (b - a) / 1000000))
    new_ms=$((new_ms + (c - b) / 1000000))
    if cmp -s "$out/old.yaml" "$out/new.yaml"; then same=$((same + 1)); fi
  done
  printf "%-16s %12s %12s  %s/%s\n" "$type" "$old_ms" "$new_ms" "$same" "$seeds"
done
