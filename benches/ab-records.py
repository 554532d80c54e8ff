#!/usr/bin/env python3
"""Two latin builds side by side on corpus records: each record solved by one build, then the other, REPEATS
times, and each build's best time per record kept (this machine is noisy; the best of a few is steadier than one
run). Prints both builds' total and median and their ratios. Times are latin's own `time_ms` (the solve, not the
process start), one record at a time, each solved and proved unique (`--max 2`) as the corpus test does, unless
the extra arguments pass their own `--max`.

    python3 benches/ab-records.py BASE NEW FILE.jsonl TYPE [REPEATS] [-- latin solve args]

BASE and NEW are `latin` binaries (build the base from a worktree: `git worktree add /tmp/base REV`, then
`CARGO_TARGET_DIR=/tmp/base-target cargo build --release` there); TYPE selects the records (`all` for every one).
"""
import json
import os
import statistics
import subprocess
import sys


def main():
    args = sys.argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    if len(args) < 4:
        sys.exit(__doc__)
    base, new, path, kind = args[:4]
    repeats = int(args[4]) if len(args) > 4 else 3
    records = [line for line in open(path) if kind == "all" or json.loads(line)["type"] == kind]
    if not records:
        sys.exit(f"no records of type {kind} in {path}")
    # `--max 2` unless the extra arguments say otherwise (`-- --max 1`: the first solution only).
    count = [] if "--max" in extra else ["--max", "2"]
    best = {base: [], new: []}
    for line in records:
        times = {base: [], new: []}
        for _ in range(repeats):
            for binary in (base, new):
                out = subprocess.run(
                    [binary, "solve", "-", "--from", "record", "--format", "json"] + count + extra,
                    input=line, capture_output=True, text=True, check=True).stdout
                times[binary].append(json.loads(out)["time_ms"])
        for binary in (base, new):
            best[binary].append(min(times[binary]))
    b, n = best[base], best[new]
    print(f"{os.path.basename(path)} {kind} ({len(records)} records, best of {repeats}): "
          f"base total {sum(b):.0f} ms, median {statistics.median(b):.2f} ms | "
          f"new total {sum(n):.0f} ms, median {statistics.median(n):.2f} ms | "
          f"new/base total {sum(n) / sum(b):.2f}, median {statistics.median(n) / statistics.median(b):.2f}")


main()
