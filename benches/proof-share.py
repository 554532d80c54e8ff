#!/usr/bin/env python3
"""How much of a solve is the proof of uniqueness: each record solved to its first solution (`--max 1`), then
solved and proved unique (`--max 2`, as the corpus test does), one record at a time, by one latin binary. Prints
per record both times and the totals and medians, and the share of the total the proof takes. Times are latin's
own `time_ms` (the solve, not the process start).

    python3 benches/proof-share.py LATIN FILE.jsonl [TYPE] [SIZE]

TYPE selects records by type (`all`, the default, for every one); SIZE by grid size (the 25x25s of
`sudoku-gecode.jsonl`: `sudoku 25`). Both runs of a record are back to back, so noise hits them alike.
"""
import json
import statistics
import subprocess
import sys


def solve(binary, line, most):
    out = subprocess.run(
        [binary, "solve", "-", "--from", "record", "--format", "json", "--max", str(most)],
        input=line, capture_output=True, text=True, check=True).stdout
    answer = json.loads(out)
    if answer["status"] != "solved":
        sys.exit(f"{json.loads(line)['id']}: {answer['status']}")
    return answer["time_ms"]


def ms(t):
    """Milliseconds to three significant figures at most, so that a 9x9's 0.68 ms is not printed as 1."""
    return f"{t:.0f} ms" if t >= 100 else f"{t:.3g} ms"


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    binary, path = args[:2]
    kind = args[2] if len(args) > 2 else "all"
    size = int(args[3]) if len(args) > 3 else None
    records = []
    for line in open(path):
        record = json.loads(line)
        if (kind == "all" or record["type"] == kind) and size in (None, record["size"]):
            records.append(line)
    if not records:
        sys.exit(f"no records of type {kind} (size {size}) in {path}")
    first, proved = [], []
    for line in records:
        first.append(solve(binary, line, 1))
        proved.append(solve(binary, line, 2))
        print(f"{json.loads(line)['id']}: first {ms(first[-1])}, proved unique {ms(proved[-1])}", flush=True)
    print(f"{len(records)} records: first solution total {sum(first) / 1000:.2f} s, "
          f"median {ms(statistics.median(first))}, slowest {ms(max(first))} | "
          f"proved unique total {sum(proved) / 1000:.2f} s, median {ms(statistics.median(proved))}, "
          f"slowest {ms(max(proved))} | the proof's share {1 - sum(first) / sum(proved):.2f}")


main()
