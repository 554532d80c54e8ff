#!/usr/bin/env python3
"""The README's two corpus tables (*Performance*: the corpus against CP-SAT, and the variants) in one run, so that
their figures are measured side by side in one session and reproduce by one command:

    python3 benches/corpus-table.py [--latin-only]

latin: the corpus test, one puzzle at a time (`CI=true RAYON_NUM_THREADS=1 cargo test --release --test corpus --
--nocapture --test-threads=1`: the time of `solve` on a loaded puzzle; where a record stores a solution or a
count, latin also proves uniqueness). Its summary lines name the README's rows (`FILE [ROW]: N puzzles, median
...`). CP-SAT: `../shared/peers/cpsat.py` (one worker, one solution, model build included) on the same records,
and for the variant types not decided in a millisecond also `benches/cpsat-unique.py` (solved, then proved
unique, as latin is). Every median is the upper one of an even count (the middle record of the sorted list, as
the corpus test and cpsat.py print it; cpsat-unique.py's per-record lines are read the same way). The corpus is `$LATIN_CORPUS`, else `../shared/corpus`. Prints the two tables as
Markdown on standard output, progress on standard error. Needs `pip install ortools` (not with --latin-only).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CORPUS = os.environ.get("LATIN_CORPUS") or os.path.join(REPO, "..", "shared", "corpus")
PEER = os.path.join(REPO, "..", "shared", "peers", "cpsat.py")
UNIQUE = os.path.join(HERE, "cpsat-unique.py")

# The rows of the first table: the corpus test's row name, its file, and which records (as the test selects them).
ROWS = [
    ("sudoku", "sudoku.jsonl", lambda r: True),
    ("sudoku16", "sudoku16.jsonl", lambda r: True),
    ("sudoku-counts", "sudoku-counts.jsonl", lambda r: True),
    ("sudoku-gecode, up to 16x16", "sudoku-gecode.jsonl", lambda r: r["size"] <= 16),
    ("sudoku-gecode, 25x25 (first solution)", "sudoku-gecode.jsonl", lambda r: r["size"] == 25),
    ("latin-qcp, up to 16", "latin-qcp.jsonl", lambda r: r["size"] <= 16),
    ("latin-qcp, order 20", "latin-qcp.jsonl", lambda r: r["size"] == 20),
    ("latin-qcp, order 25", "latin-qcp.jsonl", lambda r: r["size"] == 25),
] + [(t, f"{t}.jsonl", lambda r: True) for t in
     "inshi jigsaw killer kenken futoshiki skyscrapers consecutive evenodd".split()]

VARIANTS = ("thermo arrow whispers renban palindrome little-killer kropki xv sandwich "
            "sum-skyscrapers").split()
# The variant types CP-SAT is also timed on latin's terms (solved and proved unique): the five whose puzzles
# take both solvers longest to prove, where one solution and a proof differ most.
PROVED = {"arrow", "whispers", "renban", "little-killer", "sandwich"}

# The test harness may print `test NAME ... ` on the same line first.
SUMMARY = re.compile(r"(\S+\.jsonl) \[(.+?)\]: (\d+) puzzles, median ([\d.]+) ms, slowest ([\d.]+) ms")


def latin():
    """{row: (puzzles, median ms, slowest ms)} from one run of the corpus test."""
    env = dict(os.environ, CI="true", RAYON_NUM_THREADS="1", LATIN_CORPUS=CORPUS)
    command = ["cargo", "test", "--release", "--test", "corpus", "--", "--nocapture", "--test-threads=1"]
    print("latin: " + " ".join(command), file=sys.stderr)
    run = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"the corpus test failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    rows = {}
    for line in run.stderr.splitlines():
        m = SUMMARY.search(line)
        if m:
            rows[m.group(2)] = (int(m.group(3)), float(m.group(4)), float(m.group(5)))
    return rows


def records(file, keep):
    with open(os.path.join(CORPUS, file)) as f:
        return [line for line in f if keep(json.loads(line))]


def peer(lines):
    """cpsat.py on these records: (median ms, slowest ms)."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl") as f:
        f.writelines(lines)
        f.flush()
        out = subprocess.run([sys.executable, PEER, f.name, "100000000", "1"], capture_output=True, text=True,
                             check=True).stdout
    m = re.search(r"median_ms=([\d.]+) .*max_ms=([\d.]+) .* wrong=(\d+)", out)
    if not m or m.group(3) != "0":
        sys.exit(f"cpsat.py: {out}")
    return float(m.group(1)), float(m.group(2))


def peer_unique(kind):
    """cpsat-unique.py on the variant type: (median ms, slowest ms), solved and proved unique."""
    out = subprocess.run([sys.executable, UNIQUE, os.path.join(CORPUS, "variants.jsonl"), kind, "1"],
                         capture_output=True, text=True, check=True).stdout
    # Its per-record lines are `ID FIRST_MS TOTAL_MS`; its own summary takes the mean of the middle two.
    totals = sorted(float(line.split()[2]) for line in out.splitlines() if line.startswith("variant-"))
    if not totals:
        sys.exit(f"cpsat-unique.py: {out}")
    return totals[len(totals) // 2], totals[-1]


def fig(ms):
    """As the README writes times: whole milliseconds from 100 on (thousands separated), one decimal from 10, two
    below (the corpus test prints two)."""
    if ms >= 100:
        return f"{ms:,.0f}"
    return f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}"


def main():
    latin_only = "--latin-only" in sys.argv[1:]
    ours = latin()
    missing = [r for r, _, _ in ROWS if r not in ours] + [k for k in VARIANTS if k not in ours]
    if missing:
        sys.exit(f"the corpus test printed no summary for: {', '.join(missing)} (is the corpus at {CORPUS}?)")
    print("| corpus file | puzzles | latin median ms | CP-SAT median ms | ratio | latin slowest ms | "
          "CP-SAT slowest ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row, file, keep in ROWS:
        n, median, slowest = ours[row]
        if latin_only:
            print(f"| {row} | {n:,} | {fig(median)} | | | {fig(slowest)} | |")
            continue
        print(f"CP-SAT: {row}", file=sys.stderr)
        their_median, their_slowest = peer(records(file, keep))
        print(f"| {row} | {n:,} | {fig(median)} | {fig(their_median)} | {median / their_median:.2f} | "
              f"{fig(slowest)} | {fig(their_slowest)} |")
    print()
    print("| type | latin median ms | CP-SAT median ms, one solution / proved unique | latin slowest ms | "
          "CP-SAT slowest ms, one / unique |")
    print("|---|---:|---:|---:|---:|")
    for kind in VARIANTS:
        _, median, slowest = ours[kind]
        if latin_only:
            print(f"| {kind} | {fig(median)} | | {fig(slowest)} | |")
            continue
        print(f"CP-SAT: {kind}", file=sys.stderr)
        one = peer(records("variants.jsonl", lambda r, k=kind: r["type"] == k))
        if kind in PROVED:
            both = peer_unique(kind)
            medians, slowests = f"{fig(one[0])} / {fig(both[0])}", f"{fig(one[1])} / {fig(both[1])}"
        else:
            medians, slowests = fig(one[0]), fig(one[1])
        print(f"| {kind} | {fig(median)} | {medians} | {fig(slowest)} | {slowests} |")


main()
