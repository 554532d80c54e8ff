#!/usr/bin/env python3
"""Two latin builds side by side on large generated puzzles of every type, the ones whose search is most often
left undecided at the handover to the backend: for each type `latin grammars` lists, `latin generate TYPE --size
S --seed 5 --time-limit T` at 16x16 (T = 3 s) and 25x25 (T = 5 s), written to DIR once (a later run reuses
them; the time limits make the set depend on the machine, so keep DIR to compare builds). Each puzzle is then
solved and proved unique (`--max 2`) by BASE, then NEW, one at a time, and the puzzles are grouped by what
NEW's probing at the handover did: decided the puzzle (no backend call), ran and left it to the backend, or
never ran (search decided). Prints each group's totals for both builds and the geometric mean of the ratios.

    python3 benches/handover-ab.py BASE NEW DIR [--types T,T,...] [--seeds A-B]

`--types` makes only those types and `--seeds` each with every seed from A to B (default: every type, seed 5);
the files are named TYPE-SIZE.yaml for seed 5 alone, TYPE-SIZE-SEED.yaml otherwise.

Measured 2026-12-01 (README, *How it works*, "Probing at the handover"): 113 puzzles; 14 decided by probing,
37.4 -> 10.9 s and 27.6 -> 8.1 s in two runs; 80 left to the backend, 34.7 -> 35.0 s and 31.4 -> 32.6 s. A set the
script made itself: 15 decided by probing, 273.5 -> 59.5 s; 82 left to the backend, 33.9 -> 31.5 s.
Measured 2026-12-02 (the second search from probing's candidates): `--types
kenken,mathrax,product-killer,sum-skyscrapers,skyscrapers,inshi --seeds 11-18`, 96 puzzles, 374.1 -> 158.0 s;
then with products and sums of heights as clauses, 172.0 -> 23.5 s (docs/performance-log.md, the fiftieth).
"""
import json
import math
import os
import subprocess
import sys

SIZES = [(16, 3), (25, 5)]


def all_types(latin):
    listing = subprocess.run([latin, "grammars"], capture_output=True, text=True, check=True).stdout
    # The types are the indented lines under "Puzzle types:", up to the next heading (named rules, primitives),
    # but for the note in brackets on types made of types.
    types = listing.split("Puzzle types:\n", 1)[1]
    kinds = []
    for line in types.splitlines():
        if not line.startswith("  "):
            break
        if not line.strip().startswith("("):
            kinds.append(line.split()[0])
    return kinds


def generate(latin, out_dir, kinds, seeds):
    os.makedirs(out_dir, exist_ok=True)
    for kind in kinds:
        for seed in seeds:
            for size, limit in SIZES:
                suffix = "" if seeds == [5] else f"-{seed}"
                path = os.path.join(out_dir, f"{kind}-{size}{suffix}.yaml")
                if os.path.exists(path):
                    continue
                made = subprocess.run(
                    [latin, "generate", kind, "--size", str(size), "--seed", str(seed),
                     "--time-limit", str(limit)],
                    capture_output=True, text=True)
                if made.returncode == 0:
                    with open(path, "w") as f:
                        f.write(made.stdout)


def solve(latin, path):
    out = subprocess.run([latin, "solve", path, "--max", "2", "--format", "json", "--time-limit", "120"],
                         capture_output=True, text=True)
    d = json.loads(out.stdout)
    s = d["stats"]
    return {"ms": d["time_ms"], "probes": s["probes"], "calls": s["solver_calls"],
            "answer": (d["count"], d["complete"])}


def main():
    args = sys.argv[1:]
    kinds, seeds = None, [5]
    while len(args) > 3 and args[-2] in ("--types", "--seeds"):
        flag, value = args[-2:]
        args = args[:-2]
        if flag == "--types":
            kinds = value.split(",")
        else:
            first, _, last = value.partition("-")
            seeds = list(range(int(first), int(last or first) + 1))
    if len(args) != 3:
        sys.exit(__doc__)
    base, new, out_dir = args
    generate(new, out_dir, kinds or all_types(new), seeds)
    groups = {"decided by probing": [], "left to the backend": [], "no probing": []}
    for name in sorted(os.listdir(out_dir)):
        path = os.path.join(out_dir, name)
        a, b = solve(base, path), solve(new, path)
        # Within the time limit one build may prove what the other could not; but a count proved complete is
        # never below the solutions the other found, and two that proved agree.
        for (proved, whole), (found, _) in ((a["answer"], b["answer"]), (b["answer"], a["answer"])):
            if whole and found > proved:
                sys.exit(f"{name}: the counts differ, {a['answer']} against {b['answer']}")
        if a["answer"] != b["answer"]:
            print(f"{name}: (count, complete) {a['answer']} against {b['answer']}")
        group = ("no probing" if b["probes"] == 0 else
                 "decided by probing" if b["calls"] == 0 else "left to the backend")
        groups[group].append((name, a["ms"], b["ms"]))
        print(f"{name}: {a['ms']:.1f} -> {b['ms']:.1f} ms ({group})", flush=True)
    for group, rows in groups.items():
        if not rows:
            continue
        geo = math.exp(sum(math.log(max(b, 0.1) / max(a, 0.1)) for _, a, b in rows) / len(rows))
        before = sum(a for _, a, _ in rows) / 1000
        after = sum(b for _, _, b in rows) / 1000
        print(f"{group}: {len(rows)} puzzles, {before:.1f} -> {after:.1f} s, geometric mean ratio {geo:.2f}")


if __name__ == "__main__":
    main()
