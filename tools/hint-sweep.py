#!/usr/bin/env python3
"""Follows `latin hint --all` on puzzles with one solution and checks every step against that solution: a
placement must be the solution's value, a strike must not be. Puzzle files (YAML, or anything `latin` reads)
are taken whole; a `.jsonl` file is taken a record a line (at most PER_TYPE records of each type, default 6,
grids up to 16x16). Prints each wrong step and a summary; exit 1 when any step was wrong.

Usage: tools/hint-sweep.py LATIN FILE... [--per-type N]
  tools/hint-sweep.py target/release/latin puzzles/*/*.yaml
  tools/hint-sweep.py target/release/latin ../shared/corpus/*.jsonl
"""
import collections, json, os, subprocess, sys, tempfile

args = sys.argv[1:]
per_type = 6
if "--per-type" in args:
    i = args.index("--per-type")
    per_type = int(args[i + 1])
    del args[i:i + 2]
LATIN, files = args[0], args[1:]


def run(*argv):
    out = subprocess.run([LATIN, *argv], capture_output=True, text=True, timeout=300)
    return json.loads(out.stdout.splitlines()[0]) if out.stdout else None


def puzzles(tmp):
    """Each puzzle as a path: files as given, records of a .jsonl file one to a file."""
    seen = collections.Counter()
    for path in files:
        if not path.endswith(".jsonl"):
            yield path, []
            continue
        for k, line in enumerate(open(path)):
            record = json.loads(line)
            kind = record.get("type")
            if record.get("size", 0) > 16 or seen[kind] >= per_type:
                continue
            seen[kind] += 1
            one = os.path.join(tmp, f"{os.path.basename(path)}-{k}.jsonl")
            with open(one, "w") as f:
                f.write(line)
            yield one, ["--from", "record"]


wrong = checked = unfinished = 0
with tempfile.TemporaryDirectory() as tmp:
    for path, extra in puzzles(tmp):
        solved = run("solve", "--max", "2", "--format", "json", *extra, path)
        if not solved or solved.get("count") != 1:
            continue
        solution = solved["solutions"][0]
        hints = run("hint", "--all", "--format", "json", "--time-limit", "60", *extra, path)
        if hints is None:
            print(f"{path}: hint wrote nothing")
            wrong += 1
            continue
        checked += 1
        unfinished += not hints.get("finished")
        for step in hints["steps"]:
            r, c = map(int, step["cell"][1:].split("c"))
            if step["place"] != (solution[r - 1][c - 1] == step["value"]):
                print(f"{path}: wrong step {step['text']}")
                wrong += 1
                break
print(f"{checked} puzzles followed, {wrong} with a wrong step, {unfinished} left to search")
sys.exit(1 if wrong else 0)
