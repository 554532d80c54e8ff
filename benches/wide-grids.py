#!/usr/bin/env python3
"""Grids past 64x64 (src/solve/wide.rs): empty Sudokus and Latin squares, and Sudokus with a share of a solution
given at random, each solved by `latin solve --max 2` with its wall time and peak memory (GNU time).

    python3 benches/wide-grids.py LATIN [OTHER_LATIN] [--time-limit SECS]

With OTHER_LATIN (a build before the change) each puzzle runs on both. The puzzles are written to a temporary
directory: a Sudoku's solution is the box pattern (b*(r%b) + r//b + c) mod n with its bands, stacks, rows within
bands, columns within stacks and digits shuffled (seeded), then each cell kept with the given probability.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
limit = "60"
if "--time-limit" in sys.argv:
    limit = sys.argv[sys.argv.index("--time-limit") + 1]
    args.remove(limit)
if not args:
    sys.exit(__doc__)


def sudoku(b, keep, seed):
    n = b * b
    rnd = random.Random(seed)
    perm = list(range(1, n + 1))
    rnd.shuffle(perm)
    rows = [band * b + r for band in rnd.sample(range(b), b) for r in rnd.sample(range(b), b)]
    cols = [st * b + c for st in rnd.sample(range(b), b) for c in rnd.sample(range(b), b)]
    grid = [[perm[(b * (r % b) + r // b + c) % n] for c in cols] for r in rows]
    lines = [" ".join(str(grid[r][c]) if rnd.random() < keep else "." for c in range(n)) for r in range(n)]
    return f"type: sudoku\nsize: {n}\nbox: {b}x{b}\ngivens: |\n" + "".join(f"  {line}\n" for line in lines)


PUZZLES = [
    ("empty sudoku 81", "type: sudoku\nsize: 81\nbox: 9x9\n"),
    ("empty sudoku 81 3x27", "type: sudoku\nsize: 81\nbox: 3x27\n"),
    ("empty sudoku 81 diagonals", "type: sudoku\nsize: 81\nbox: 9x9\nrules: [diagonals]\n"),
    ("empty sudoku 100", "type: sudoku\nsize: 100\nbox: 10x10\n"),
    ("empty latin 128", "type: latin\nsize: 128\n"),
    ("empty latin 255", "type: latin\nsize: 255\n"),
    ("sudoku 81, 70% given", sudoku(9, 0.7, 9)),
    ("sudoku 100, 70% given", sudoku(10, 0.7, 10)),
    ("sudoku 121, 70% given", sudoku(11, 0.7, 11)),
]


def run(latin, path):
    timed = subprocess.run(["/usr/bin/time", "-f", "%M", latin, "solve", path, "--max", "2", "--format", "json",
                            "--time-limit", limit], capture_output=True, text=True)
    peak_mb = int(timed.stderr.strip().splitlines()[-1]) / 1024
    try:
        j = json.loads(timed.stdout)
        return f"{j['status']:8} {j['count']} in {j['time_ms'] / 1000:6.2f} s, {peak_mb:6.0f} MB, " \
               f"{j['stats']['search_nodes']} search nodes"
    except (json.JSONDecodeError, KeyError):
        return f"exit {timed.returncode}: {timed.stderr.strip().splitlines()[0][:100]}"


with tempfile.TemporaryDirectory() as tmp:
    for name, text in PUZZLES:
        path = os.path.join(tmp, name.replace(" ", "-").replace(",", "").replace("%", "") + ".yaml")
        with open(path, "w") as f:
            f.write(text)
        for latin in args:
            print(f"{name:24} {os.path.basename(latin):12} {run(latin, path)}", flush=True)
