#!/usr/bin/env python3
"""Schedules of one kernel on the host CPU timed in turns.

usage: python3 bench/cpu_ab.py FILE -k KERNEL --shape S [--nautc PATH]
                               [--against PATH] [--rounds N] SCHEDULE...

Each SCHEDULE is what `nautc run --schedule` takes (`auto`, `heuristics`,
a schedule file) or inline JSON (`'{"programs": {...}}'`, written to a
file). Every round times each schedule once (`nautc run --time`: the
median of repeated runs after a warm-up), in turn, so that the machine's
drift falls on all alike; printed per schedule: the median over rounds,
the fastest and slowest round, and the median's ratio to the first
schedule's. On a shared host one round's noise is often 20% or more:
compare medians over several rounds (7 by default), never one timing.
With --against, a second nautc (a build before a change) times every
schedule too, in the same turns: a change to the compiler against the
code before it.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TIME = re.compile(r"time: median ([0-9.]+) ms")


def schedule_argument(text, folder, n):
    """A schedule file path for inline JSON, else the argument as given."""
    if not text.lstrip().startswith("{"):
        return text
    json.loads(text)  # a typo fails here, not in nautc
    path = os.path.join(folder, f"schedule{n}.json")
    with open(path, "w") as f:
        f.write(text)
    return path


def time_once(args, nautc, schedule):
    cmd = [nautc, "run", args.file, "-k", args.kernel, "--shape",
           args.shape, "--schedule", schedule, "--time"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    match = TIME.search(out.stdout + out.stderr)
    if out.returncode != 0 or not match:
        sys.exit(f"cpu_ab: {' '.join(cmd)} failed:\n{out.stdout}{out.stderr}")
    return float(match.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("-k", "--kernel", required=True)
    ap.add_argument("--shape", required=True)
    ap.add_argument("--nautc",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--against", help="a second nautc, timed in turns")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("schedules", nargs="+")
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="cpu_ab.")
    paths = [schedule_argument(s, folder, n)
             for n, s in enumerate(args.schedules)]
    runs = [(args.nautc, path, text)
            for path, text in zip(paths, args.schedules)]
    if args.against:
        runs += [(args.against, path, f"{text} (--against)")
                 for path, text in zip(paths, args.schedules)]
    times = [[] for _ in runs]
    for _ in range(args.rounds):
        for n, (nautc, path, _) in enumerate(runs):
            times[n].append(time_once(args, nautc, path))
    first = statistics.median(times[0])
    for (_, _, text), t in zip(runs, times):
        median = statistics.median(t)
        print(f"{median:9.3f} ms  [{min(t):.3f} .. {max(t):.3f}]  "
              f"x{median / first:5.3f}  {text}")
    for path in paths:
        if path.startswith(folder):
            os.remove(path)
    os.rmdir(folder)


if __name__ == "__main__":
    main()
