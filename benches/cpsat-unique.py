#!/usr/bin/env python3
"""CP-SAT on the terms of latin's corpus test: each puzzle solved and then proved unique (the first solution cut
off and the model solved again, which must be infeasible), where ../shared/peers/cpsat.py stops at one solution.
One worker unless told. Uses cpsat.py's own model builder, so the models are the ones its figures come from.

    python3 benches/cpsat-unique.py FILE.jsonl [TYPE] [THREADS]   # TYPE: only the records of that type

Prints each puzzle's milliseconds (first solution, and in all) and a summary: median, slowest and total, for the
first solutions and for the proofs. Needs `pip install ortools`.
"""
import json
import os
import statistics
import sys
import time

from ortools.sat.python import cp_model

PEERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "peers")


def peer_builder():
    """cpsat.py's `build`; the file runs its command line when loaded, so it is loaded without that last call."""
    path = os.path.join(PEERS, "cpsat.py")
    source = open(path).read()
    body, tail = source.rstrip().rsplit("\n", 1)
    assert tail.strip() == "main()", f"{path} no longer ends with main(): update this script"
    sys.path.insert(0, PEERS)
    scope = {"__file__": path, "__name__": "cpsat"}
    exec(compile(body, path, "exec"), scope)
    return scope["build"]


def solve(model, threads):
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = threads
    return solver, solver.Solve(model)


def exclude(model, x, solver):
    """Some cell differs from the solution found."""
    differs = []
    for row in x:
        for var in row:
            d = model.NewBoolVar("")
            value = solver.Value(var)
            model.Add(var != value).OnlyEnforceIf(d)
            model.Add(var == value).OnlyEnforceIf(d.Not())
            differs.append(d)
    model.AddBoolOr(differs)


def main():
    path = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else None
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    build = peer_builder()
    firsts, totals = [], []
    for line in open(path):
        p = json.loads(line)
        if only and p["type"] != only:
            continue
        t0 = time.perf_counter()
        model, x = build(p)
        solver, status = solve(model, threads)
        t1 = time.perf_counter()
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            sys.exit(f"{p.get('id')}: no solution")
        exclude(model, x, solver)
        _, again = solve(model, threads)
        t2 = time.perf_counter()
        if again != cp_model.INFEASIBLE:
            sys.exit(f"{p.get('id')}: a second solution, or no proof ({again})")
        firsts.append(1000 * (t1 - t0))
        totals.append(1000 * (t2 - t0))
        print(f"{p.get('id')} {firsts[-1]:.1f} {totals[-1]:.1f}")
    for name, times in (("first solution", firsts), ("proved unique", totals)):
        print(f"{name}: n={len(times)} median_ms={statistics.median(times):.1f} "
              f"max_ms={max(times):.1f} total_s={sum(times) / 1000:.2f}")


if __name__ == "__main__":
    main()
