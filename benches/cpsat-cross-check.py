#!/usr/bin/env python3
"""latin's generator against an independent solver: puzzles made by `latin generate` (unique, by latin's own
count) are written as corpus records by `latin convert --to record` and handed to CP-SAT with the model builder
of ../shared/peers/cpsat.py, which must find the same solution and prove that no other exists. A propagator that
cut off a solution would make latin call a puzzle unique that is not; the corpus holds 9x9s of most variants,
this covers every size a type is made at.

    python3 benches/cpsat-cross-check.py LATIN [TYPE[:SIZES]]... [--seeds FIRST-LAST]

Default: every type the peer models, Sudoku-based ones at sizes 4, 6, 8 and 9, Latin-square ones at 4 to 8,
seeds 1-4. Prints one line per type (made, checked, bad) and every disagreement; exits 1 on any. Needs `pip
install ortools`. A size the generator cannot fill within 20 s (little killer at 9: no givens, clues thinned
while unique) is reported as not made, not as bad.
"""
import json
import subprocess
import sys

CPSAT_UNIQUE = __file__.replace("cpsat-cross-check.py", "cpsat-unique.py")
exec(compile(open(CPSAT_UNIQUE).read().split("\ndef main")[0], CPSAT_UNIQUE, "exec"))

SUDOKU = "4,6,8,9"
LATIN = "4,5,6,7,8"
# Arrows are checked by cpsat-cross-check-more.py, whose model reads the pills `generate` draws (the peer's does
# not).
TYPES = {t: SUDOKU for t in ("sudoku jigsaw killer consecutive evenodd thermo whispers renban palindrome "
                             "little-killer kropki xv sandwich").split()}
TYPES.update({t: LATIN for t in "kenken inshi futoshiki skyscrapers sum-skyscrapers".split()})


def peer_form(p):
    """The record as the peer's model reads it: it takes sandwich clues from the top and left only (a bottom
    or right clue is the same sum), every side of `sky`, both pair keys, products as `*`, and givens always."""
    n = p["size"]
    p.setdefault("givens", [[0] * n for _ in range(n)])
    if p["type"] == "sandwich":
        p.setdefault("edges", {})
    for key in ("sky", "edges"):
        for side in ("top", "bottom", "left", "right"):
            if key in p:
                p[key].setdefault(side, [None if p["type"] == "sandwich" else 0] * n)
    if p["type"] == "sandwich":
        e = p["edges"]
        for a, b in (("top", "bottom"), ("left", "right")):
            for i, clue in enumerate(e[b]):
                if clue is not None:
                    e[a][i] = clue
    if "pairs" in p:
        for k in ("x", "v", "white", "black"):
            p["pairs"].setdefault(k, [])
    return p


def made(latin, kind, size, seed):
    gen = subprocess.run([latin, "generate", kind, "--size", str(size), "--seed", str(seed), "--format", "yaml",
                          "--time-limit", "20"], capture_output=True, text=True)
    if gen.returncode:
        return None
    rec = subprocess.run([latin, "convert", "-", "--to", "record"], input=gen.stdout, capture_output=True,
                         text=True, check=True)
    return json.loads(rec.stdout)


def disagreement(build, p):
    model, x = build(peer_form(p))
    solver, status = solve(model, 1)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "CP-SAT finds no solution"
    if [[solver.Value(v) for v in row] for row in x] != p["solution"]:
        return "CP-SAT finds another solution"
    exclude(model, x, solver)
    if solve(model, 1)[1] != cp_model.INFEASIBLE:
        return "CP-SAT finds a second solution"
    return None


def main():
    latin, rest = sys.argv[1], sys.argv[2:]
    first, last = 1, 4
    if "--seeds" in rest:
        i = rest.index("--seeds")
        first, last = map(int, rest[i + 1].split("-"))
        rest = rest[:i] + rest[i + 2:]
    wanted = {a.split(":")[0]: (a.split(":")[1] if ":" in a else TYPES[a.split(":")[0]]) for a in rest} or TYPES
    build = peer_builder()
    bad_total = 0
    for kind, sizes in wanted.items():
        counts = {"made": 0, "not made": 0, "bad": 0}
        for size in map(int, sizes.split(",")):
            for seed in range(first, last + 1):
                p = made(latin, kind, size, seed)
                if p is None:
                    counts["not made"] += 1
                    continue
                counts["made"] += 1
                why = disagreement(build, p)
                if why:
                    counts["bad"] += 1
                    print(f"{kind} size {size} seed {seed}: {why}", flush=True)
        bad_total += counts["bad"]
        print(kind, counts, flush=True)
    sys.exit(1 if bad_total else 0)


if __name__ == "__main__":
    main()
