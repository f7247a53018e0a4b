#!/usr/bin/env python3
"""How evolution searches the GPU workloads' spaces, against the exhaustive
search, under the same model.

usage: python3 bench/search_quality.py [PATH/TO/nautc] [--targets sm_80,sm_90]
                                       [--seeds 4] [--budgets default,64]

For each workload of bench/autoscheduler_model.py and target, compiles
once with `--schedule auto --explain` (every space today is searched
exhaustively: the model's optimum) and once for each seed and budget with
`--search evolutionary,seed=S[,candidates=N]` ("default": a quarter of
each space, at least 64), and compares each program's choice: whether
evolution chose the optimum, and the ratio of its prediction to the
optimum's. Also the compile's wall time (search included). Nothing is
measured on a device: the search's quality is under the model.
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from autoscheduler_model import EXAMPLES, WORKLOADS  # noqa: E402

HEADER = re.compile(r"^explain: (.*?): (\d+) candidates(?:, (\d+) predicted)?")
CHOSEN = re.compile(r"^\s*chosen:\s+(.*?): ([0-9.]+) us")


def choices(nautc, tensor, kernel, shape, target, search):
    """{program: (space, predicted, chosen, us)} and the wall time."""
    cmd = [nautc, "compile", os.path.join(EXAMPLES, tensor), "-k", kernel,
           "--target", target, "--shape", shape, "--schedule", "auto",
           "--explain", "-o", os.devnull]
    if search:
        cmd += ["--search", search]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}:\n{out.stderr}")
    found, current, seen = {}, None, {}
    for line in out.stdout.splitlines():
        h = HEADER.match(line)
        if h:
            # (Two searches of one header, a gated MLP's two projections,
            # are told apart by their order.)
            seen[h.group(1)] = seen.get(h.group(1), 0) + 1
            key = f"{h.group(1)} #{seen[h.group(1)]}"
            current = (key, int(h.group(2)), int(h.group(3) or h.group(2)))
            continue
        c = CHOSEN.match(line)
        if c and current:
            found[current[0]] = (current[1], current[2], c.group(1),
                                 float(c.group(2)))
            current = None
    return found, wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("nautc", nargs="?",
                        default=os.path.join(HERE, "..", "build", "bin",
                                             "nautc"))
    parser.add_argument("--targets", default="sm_80,sm_90")
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--budgets", default="default,64")
    args = parser.parse_args()
    budgets = args.budgets.split(",")
    stats = {b: {"runs": 0, "found": 0, "worst": 1.0, "predicted": 0,
                 "space": 0} for b in budgets}
    walls = {"exhaustive": []}
    print("| target | kernel | shape | program | space | optimum (us) | "
          + " | ".join(f"{b}: found / worst" for b in budgets) + " |")
    print("|---" * (6 + len(budgets)) + "|")
    for target in args.targets.split(","):
        for tensor, kernel, shape in WORKLOADS:
            optimum, wall = choices(args.nautc, tensor, kernel, shape, target,
                                    "")
            walls["exhaustive"].append(wall)
            evolved = {b: [] for b in budgets}
            for b in budgets:
                for seed in range(args.seeds):
                    spec = f"evolutionary,seed={seed}"
                    if b != "default":
                        spec += f",candidates={b}"
                    found, wall = choices(args.nautc, tensor, kernel, shape,
                                          target, spec)
                    walls.setdefault(b, []).append(wall)
                    evolved[b].append(found)
            for program, (space, _, chosen, us) in optimum.items():
                cells = []
                for b in budgets:
                    hits, worst = 0, 1.0
                    for found in evolved[b]:
                        if program not in found:
                            # (Another set of programs: counted as missed.)
                            worst = float("inf")
                            continue
                        _, predicted, e_chosen, e_us = found[program]
                        hits += e_chosen == chosen
                        worst = max(worst, e_us / us if us > 0 else 1.0)
                        stats[b]["predicted"] += predicted
                        stats[b]["space"] += space
                    stats[b]["runs"] += len(evolved[b])
                    stats[b]["found"] += hits
                    stats[b]["worst"] = max(stats[b]["worst"], worst)
                    cells.append(f"{hits}/{len(evolved[b])} / {worst:.2f}")
                print(f"| {target} | {kernel} | {shape} | {program} | {space} "
                      f"| {us:.1f} | " + " | ".join(cells) + " |")
    print()
    for b in budgets:
        s = stats[b]
        share = s["predicted"] / max(1, s["space"])
        print(f"budget {b}: evolution chose the exhaustive optimum in "
              f"{s['found']} of {s['runs']} searches, predicting "
              f"{100 * share:.0f}% of the candidates; worst "
              f"{s['worst']:.2f}x the optimum")
    for name, times in walls.items():
        times = sorted(times)
        print(f"compile wall time, {name} search: median "
              f"{times[len(times) // 2]:.2f} s, longest {times[-1]:.2f} s")


if __name__ == "__main__":
    main()
