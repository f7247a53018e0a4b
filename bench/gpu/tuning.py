#!/usr/bin/env python3
"""The auto-scheduler's GPU tuning mode: the model's top candidates for
GEMMs measured on the device, the model refit to them, and the regret.

On the build machine (nautc built; no GPU):

    python3 bench/gpu/tuning.py prepare [--nautc PATH] [--target sm_90] [--top 4]

compiles, for each GEMM case below, the `--top` schedules the cost model
ranks first (`nautc compile --schedule auto --explain` lists them with
their predicted time and terms) into bench/gpu/bundles/tuning/, one bundle
a candidate (`--schedule` a file naming the contraction's program), and
writes what the model predicted to bench/gpu/bundles/tuning/tuning.plan.

On the GPU machine, time them (nautc only; each checked against the f64
product first, as every bundle is):

    python3 bench/gpu/run_gemms.py --bundles bench/gpu/bundles/tuning \\
        --no-baselines --out $OUT/tuning.md

then, anywhere:

    python3 bench/gpu/tuning.py report $OUT/tuning.jsonl [--out tuning-report.md]

which reports, per case, each candidate's predicted and measured time, the
regret of the model's choice (its measured time over the best measured of
the top candidates, less 1), and refits the model: measured ~ max(alpha x
compute, beta x memory) + latency + split sum, alpha and beta (the model's
compute and DRAM terms scaled for this device) chosen to minimise the
squared log error over every candidate measured; the regret of the refit
model's choice is reported beside the original's. Run it when a device
is lent (issue 20's GPU tuning mode); until then nothing here is measured.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TUNING = os.path.join(HERE, "bundles", "tuning")

# name, file, kernel, shape: GEMMs from square to skinny.
CASES = [
    ("f16_4096", "examples/gemm.tensor", "gemm", "M=4096,N=4096,K=4096"),
    ("f16_8192", "examples/gemm.tensor", "gemm", "M=8192,N=8192,K=8192"),
    ("f16_ragged", "examples/gemm.tensor", "gemm", "M=4000,N=3000,K=5000"),
    ("f16_skinny_k128", "examples/gemm.tensor", "gemm", "M=8192,N=8192,K=128"),
    ("f16_splitk_128", "examples/gemm.tensor", "gemm", "M=128,N=128,K=16384"),
    ("bf16_4096", "bench/kernels/gemm_bf16.tensor", "gemm_bf16", "M=4096,N=4096,K=4096"),
]

RANKED = re.compile(r"^\s*(chosen|runner-up):\s+(.*?): ([0-9.]+) us \(compute ([0-9.]+), "
                    r"memory ([0-9.]+), latency ([0-9.]+)(?:, split sum ([0-9.]+))?;.*?\) = "
                    r"(#tile\.schedule<.*>)\s*$")
PROGRAM = re.compile(r"tile\.program @(\w+) .*mma = #tile\.mma")


def ranked_candidates(nautc, path, kernel, shape, target):
    """The model's ranked candidates for the case's contraction and its
    program's name."""
    cmd = [nautc, "compile", path, "-k", kernel, "--target", target, "--shape", shape,
           "--schedule", "auto", "--explain", "--emit", "tile", "-o", "-"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    programs = PROGRAM.findall(proc.stdout)
    if len(programs) != 1:
        sys.exit(f"{kernel} {shape}: expected one tensor-core program, found {programs}")
    candidates = []
    for line in proc.stderr.splitlines():
        m = RANKED.match(line)
        if m:
            candidates.append({"describe": m.group(2), "predicted_us": float(m.group(3)),
                               "compute_us": float(m.group(4)), "memory_us": float(m.group(5)),
                               "latency_us": float(m.group(6)),
                               "split_sum_us": float(m.group(7) or 0), "schedule": m.group(8)})
    if not candidates:
        sys.exit(f"{kernel} {shape}: no candidate in --explain:\n{proc.stderr}")
    return programs[0], candidates


def prepare(args):
    out = args.out_dir
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        if name.endswith(".json"):
            os.remove(os.path.join(out, name))
    plan = {"target": args.target, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name, file, kernel, shape in CASES[:args.cases]:
            path = os.path.join(ROOT, file)
            program, candidates = ranked_candidates(args.nautc, path, kernel, shape, args.target)
            entry = {"case": name, "kernel": kernel, "shape": shape, "program": program,
                     "candidates": []}
            for rank, c in enumerate(candidates[:args.top]):
                schedule = os.path.join(tmp, f"{name}_{rank}.json")
                with open(schedule, "w") as f:
                    json.dump({"programs": {program: c["schedule"]}}, f)
                bundle = f"{name}_{args.target}_r{rank}"
                cmd = [args.nautc, "compile", path, "-k", kernel, "--target", args.target,
                       "--shape", shape, "--schedule", schedule, "--emit", "bundle",
                       "-o", os.path.join(out, bundle + ".json")]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                if proc.returncode != 0:
                    sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
                entry["candidates"].append(dict(c, rank=rank, bundle=bundle))
                print(f"{bundle}: {c['describe']}, predicted {c['predicted_us']:.1f} us")
            plan["cases"].append(entry)
    # Beside the bundles but not one: run_gemms.py reads *.json bundles.
    with open(os.path.join(out, "tuning.plan"), "w") as f:
        json.dump(plan, f, indent=1)
    print(f"wrote {out}/tuning.plan")


def refit_prediction(c, alpha, beta):
    return max(alpha * c["compute_us"], beta * c["memory_us"]) + c["latency_us"] + c["split_sum_us"]


def refit(measured):
    """alpha, beta minimising the squared log error over every measured
    candidate (a grid search: two parameters, a few dozen points)."""
    best = None
    grid = [0.25 * 1.05 ** i for i in range(120)]  # 0.25 .. about 85
    for alpha in grid:
        for beta in grid:
            err = sum((math.log(refit_prediction(c, alpha, beta)) - math.log(c["measured_us"])) ** 2
                      for c in measured)
            if best is None or err < best[0]:
                best = (err, alpha, beta)
    return best[1], best[2]


def report(args):
    with open(args.plan) as f:
        plan = json.load(f)
    seconds = {}
    with open(args.results) as f:
        for line in f:
            row = json.loads(line)
            if row.get("ok") and "nautc" in row.get("seconds", {}):
                seconds[row["bundle"]] = row["seconds"]["nautc"]
    measured = []
    for case in plan["cases"]:
        for c in case["candidates"]:
            if c["bundle"] in seconds:
                c["measured_us"] = seconds[c["bundle"]] * 1e6
                measured.append(c)
    if not measured:
        sys.exit("no candidate was measured (and checked ok) in " + args.results)
    alpha, beta = refit(measured)
    lines = [f"# GPU tuning mode ({plan['target']})", "",
             f"Refit over {len(measured)} candidates: measured ~ max({alpha:.2f} x compute, "
             f"{beta:.2f} x memory) + latency + split sum.", "",
             "| case | rank | candidate | predicted us | refit us | measured us |",
             "|---|---|---|---|---|---|"]
    regrets, refit_regrets = [], []
    for case in plan["cases"]:
        done = [c for c in case["candidates"] if "measured_us" in c]
        for c in done:
            lines.append(f"| {case['case']} | {c['rank']} | {c['describe']} | {c['predicted_us']:.1f} | "
                         f"{refit_prediction(c, alpha, beta):.1f} | {c['measured_us']:.1f} |")
        if not done or done[0]["rank"] != 0:
            continue  # the model's choice was not measured
        best = min(c["measured_us"] for c in done)
        regrets.append(done[0]["measured_us"] / best - 1)
        chosen = min(done, key=lambda c: refit_prediction(c, alpha, beta))
        refit_regrets.append(chosen["measured_us"] / best - 1)
        lines.append(f"| {case['case']} | | regret: model {100 * regrets[-1]:.1f}%, refit "
                     f"{100 * refit_regrets[-1]:.1f}% | | | |")
    if regrets:
        lines += ["", f"Mean regret of the model's choice against the best measured of its top "
                      f"candidates: {100 * sum(regrets) / len(regrets):.1f}% (refit, in sample: "
                      f"{100 * sum(refit_regrets) / len(refit_regrets):.1f}%) over {len(regrets)} cases."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    p.add_argument("--target", default="sm_90", choices=["sm_80", "sm_90"])
    p.add_argument("--top", type=int, default=4)
    p.add_argument("--cases", type=int, default=len(CASES), help="the first N cases only")
    p.add_argument("--out-dir", default=TUNING)
    r = sub.add_parser("report")
    r.add_argument("results", help="run_gemms.py's .jsonl for the tuning bundles")
    r.add_argument("--plan", default=os.path.join(TUNING, "tuning.plan"))
    r.add_argument("--out")
    args = ap.parse_args()
    (prepare if args.command == "prepare" else report)(args)


if __name__ == "__main__":
    main()
