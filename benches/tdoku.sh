#!/usr/bin/env bash
# latin against tdoku (the fastest published 9x9 solver), side by side in one run, one thread each, on the corpus
# lines files; both count to two solutions (`latin solve --lines`, `tdoku_solve 2`). Prints puzzles per CPU
# second (user + system time of the whole process) and latin's rate over tdoku's. Issue 16's goal is 0.2 or more
# on every file.
#
#   benches/tdoku.sh [LIMIT]    # LIMIT: lines per file (default: all; forum-hardest-1905 is always cut to 10,000;
#                               # a file under 40,000 lines is solved repeated up to that many, by both)
#
# tdoku is built from the source beside ../shared/peers/build-tdoku.sh into /tmp, never into this project.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-0}
lines=../shared/corpus/lines
tdoku=$(bash ../shared/peers/build-tdoku.sh)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/latin-target}"
cargo build --release --quiet
latin="$CARGO_TARGET_DIR/release/latin"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpu() { # command... -> CPU seconds (user + system) of the whole run
  /usr/bin/time -f "%U %S" -o "$tmp/t" "$@" > /dev/null 2>&1 || true
  awk '{ print $1 + $2 }' "$tmp/t"
}
printf "%-34s %8s %14s %14s %8s\n" file puzzles "latin /cpu-s" "tdoku /cpu-s" ratio
for f in sudoku-17clue sudoku-top1465 sudoku-forum-hardest-1106 sudoku-forum-hardest-1905; do
  n=$limit
  [ "$f" = sudoku-forum-hardest-1905 ] && { [ "$n" = 0 ] || [ "$n" -gt 10000 ]; } && n=10000
  if [ "$n" = 0 ]; then cp "$lines/$f.txt" "$tmp/one"; else head -n "$n" "$lines/$f.txt" > "$tmp/one"; fi
  # Small files are repeated up to 40,000 lines: /usr/bin/time counts in 10 ms steps, and tdoku takes a few ms.
  : > "$tmp/in"
  while [ "$(grep -c . "$tmp/in")" -lt 40000 ]; do cat "$tmp/one" >> "$tmp/in"; done
  count=$(grep -c . "$tmp/in")
  a=$(RAYON_NUM_THREADS=1 cpu taskset -c 0 "$latin" solve --lines "$tmp/in" --type sudoku --box 3x3)
  b=$(cpu taskset -c 0 sh -c "\"$tdoku\" 2 < \"$tmp/in\"")
  awk -v f="$f" -v n="$count" -v a="$a" -v b="$b" \
    'BEGIN { ra = n / a; rb = n / b; printf "%-34s %8d %14.0f %14.0f %8.3f\n", f, n, ra, rb, ra / rb }'
done
