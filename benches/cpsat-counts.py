#!/usr/bin/env python3
"""latin's counts and candidates against CP-SAT's on puzzles with several solutions. The other cross-checks
compare unique puzzles, where a propagator that cuts off a solution shows only when it cuts off the one there
is; a puzzle with many solutions reaches states that a unique one never does. Each puzzle `latin generate` makes
(small sizes, so that every solution can be listed) is weakened a step at a time, each step dropping one thing
chosen at random: a given, a line or cage of a list, a pair, a sign, a cage's operator, an outside clue. After each step CP-SAT lists the
solutions (up to MAX) with the models of benches/cpsat-cross-check.py and cpsat-cross-check-more.py, written
from the setters' rules, and latin must agree: `latin count --max MAX` the same number (both capped at MAX) and,
where there are fewer, `latin candidates` each cell's values in at least one solution, no more and no fewer.

    python3 benches/cpsat-counts.py LATIN FIRST-LAST [TYPE[:SIZES]...] [--max MAX] [--steps STEPS] [--path ARGS]

`--path "--no-presolve --backend cbc"` counts on the pure path (the whole program to CBC), `--path
"--search-nodes 0"` with clause learning straight after presolve: each of latin's ways to a count, the counts
then compared alone (`candidates` takes the default path).

Default: every type the two scripts model, Sudoku-based ones at 4 and 6, Latin-square ones at 4 and 5, MAX 60,
STEPS 6; latin has 60 s a call (`--time-limit`), and a puzzle it does not decide in that time is printed with
its record and left (neither agreement nor disagreement). Prints a line per type (puzzles made, weakened puzzles compared, how many of them had 2 to MAX-1
solutions, disagreements) and every disagreement; exits 1 on any. Needs `pip install ortools`.
"""
import importlib.util
import json
import os
import random
import subprocess
import sys

from ortools.sat.python import cp_model

HERE = os.path.dirname(os.path.abspath(__file__))
TIME_LIMIT = 60


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PEER = load("cpsat-cross-check")
MORE = load("cpsat-cross-check-more")
# cpsat.py's model builder, loaded once (each load reads and compiles the peer's file).
PEER_BUILD = PEER.peer_builder()


def types():
    """Every type a model here covers, with the sizes to make it at: 4 and 5 for the Latin-square types (those
    the two scripts make at 5), 4 and 6 for the Sudoku-based ones."""
    sizes = {kind: [int(s) for s in listed.split(",")] for kind, listed in PEER.TYPES.items()}
    sizes.update({kind: listed for kind, listed in MORE.TYPES if kind not in sizes})
    return {kind: [4, 5] if 5 in listed else [4, 6] for kind, listed in sizes.items()}


def builder(kind):
    """The model of a record of this type: the peer's where it has one (cpsat.py), else the other script's."""
    if kind in PEER.TYPES:
        return lambda p: PEER_BUILD(PEER.peer_form(json.loads(json.dumps(p))))
    return MORE.model


class Lister(cp_model.CpSolverSolutionCallback):
    """Collects the distinct grids (a model's helper variables could repeat one) and stops at `most`."""

    def __init__(self, x, most):
        super().__init__()
        self.x, self.most, self.grids = x, most, set()

    def on_solution_callback(self):
        self.grids.add(tuple(tuple(self.Value(v) for v in row) for row in self.x))
        if len(self.grids) >= self.most:
            self.StopSearch()


def cpsat_grids(build, p, most):
    m, x = build(p)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.enumerate_all_solutions = True
    lister = Lister(x, most)
    status = solver.Solve(m, lister)
    if status == cp_model.UNKNOWN:
        raise RuntimeError("CP-SAT did not finish")
    return lister.grids


class Undecided(Exception):
    """latin reached its time limit: reported with the record, neither agreement nor disagreement."""


def latin_json(latin, command, p, *args):
    out = subprocess.run([latin, command, "-", "--from", "record", "--format", "json", "--time-limit",
                          str(TIME_LIMIT), *args], input=json.dumps(p), capture_output=True, text=True)
    if out.returncode == 3:
        raise Undecided(f"latin {command} undecided in {TIME_LIMIT} s")
    if out.returncode not in (0, 1):
        return None, out.stderr.strip()
    return json.loads(out.stdout), None


def weakenings(p):
    """Every single thing the record could do without: (where, what) pairs, `apply` performs one."""
    steps = [("givens", (r, c)) for r, row in enumerate(p.get("givens") or []) for c, v in enumerate(row) if v]
    for key in ("lines", "pairs"):
        steps += [(key, (name, i)) for name, entries in p.get(key, {}).items() for i in range(len(entries))]
    steps += [("less", (i, None)) for i in range(len(p.get("less", [])))]
    # A cage's operator hidden (KenKen's bare number: any operator reaching it); a cage without its clue is
    # refused in a region map, so the cages' clues stay.
    steps += [("clues", (cage, None)) for cage, clue in p.get("clues", {}).items() if clue[-1:] in list("+-*/x")]
    # Outside clues, under a key of the type's own (`sky`, `edges`, `xsums`, `battlefield`, `rossini`, ...).
    for key, sides in p.items():
        if isinstance(sides, dict) and sides and set(sides) <= {"top", "bottom", "left", "right"}:
            steps += [(key, (side, i)) for side, clues in sides.items()
                      for i, clue in enumerate(clues) if clue not in (None, 0, [])]
    return steps


def apply(p, step):
    key, (a, b) = step
    if key == "givens":
        p["givens"][a][b] = 0
    elif key == "less":
        del p["less"][a]
    elif key == "clues":
        p["clues"][a] = p["clues"][a][:-1]
    elif key in ("lines", "pairs"):
        del p[key][a][b]
        clues = p.get("line_clues", {}).get(a) if key == "lines" else None
        if clues is not None:
            del clues[b]
    else:
        clues = p[key][a]
        # "No clue" is 0 among skyscraper counts (the corpus's schema), null elsewhere.
        clues[b] = 0 if key == "sky" else None


def compare(latin, build, p, most, path):
    """None when latin agrees with CP-SAT on this record, else what differs; and CP-SAT's count."""
    grids = cpsat_grids(build, p, most)
    counted, why = latin_json(latin, "count", p, "--max", str(most), *path)
    if counted is None:
        return f"latin count refused it: {why}", len(grids)
    if min(counted["count"], most) != len(grids):
        return f"latin counts {counted['count']}, CP-SAT {len(grids)}", len(grids)
    if len(grids) >= most or path:
        return None, len(grids)
    listed, why = latin_json(latin, "candidates", p)
    if listed is None:
        return f"latin candidates refused it: {why}", len(grids)
    n = p["size"]
    union = [[sorted({g[r][c] for g in grids}) for c in range(n)] for r in range(n)]
    if grids and listed["candidates"] != union:
        return f"candidates differ: latin {listed['candidates']}, CP-SAT {union}", len(grids)
    return None, len(grids)


def check(latin, kind, n, seed, most, steps, path):
    """(compared, several, disagreements) over one puzzle's weakenings; None when latin made no puzzle."""
    p = PEER.made(latin, kind, n, seed)
    if p is None:
        return None
    p.pop("solution", None)
    build, rng = builder(kind), random.Random(f"{kind} {n} {seed}")
    compared, several, bad = 0, 0, []
    for step in range(steps):
        choices = weakenings(p)
        if not choices:
            break
        apply(p, rng.choice(choices))
        try:
            why, count = compare(latin, build, p, most, path)
        except Undecided as e:
            print(f"{kind} size {n} seed {seed} step {step + 1}: {e}\n  {json.dumps(p)}", flush=True)
            break
        compared += 1
        several += 2 <= count < most
        if why:
            bad.append(f"{kind} size {n} seed {seed} step {step + 1}: {why}\n  {json.dumps(p)}")
        if count >= most:
            break
    return compared, several, bad


def main():
    args = sys.argv[1:]
    options = {"--max": "60", "--steps": "6", "--path": ""}
    for flag in options:
        if flag in args:
            i = args.index(flag)
            options[flag] = args[i + 1]
            args = args[:i] + args[i + 2:]
    most, steps, path = int(options["--max"]), int(options["--steps"]), options["--path"].split()
    latin, seeds, only = args[0], args[1], args[2:]
    first, _, last = seeds.rpartition("-")
    table = types()
    wanted = {a.split(":")[0]: [int(s) for s in a.split(":")[1].split(",")] if ":" in a else table[a]
              for a in only} or table
    failures = 0
    for kind, sizes in wanted.items():
        made = compared = several = 0
        for n in sizes:
            for seed in range(int(first or 1), int(last) + 1):
                got = check(latin, kind, n, seed, most, steps, path)
                if got is None:
                    continue
                made += 1
                compared, several = compared + got[0], several + got[1]
                for line in got[2]:
                    print(line, flush=True)
                failures += len(got[2])
        print(f"{kind}: made {made}, compared {compared}, several {several}", flush=True)
    print("disagreements", failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
