#!/usr/bin/env python3
"""The auto-scheduler's GPU tuning mode: the model's top candidates for
GEMMs, flash kernels and row reductions measured on the device, the
contraction model refit to them, and the regret.

On the build machine (nautc built; no GPU):

    python3 bench/gpu/tuning.py prepare [--nautc PATH] [--target sm_90] [--top 4]

compiles, for each case below, the `--top` schedules the cost model
ranks first (`nautc compile --schedule auto --explain` lists them with
their predicted time and terms) into bench/gpu/bundles/tuning/, one bundle
a candidate (`--schedule` a file naming the case's program: a GEMM's
contraction, attention's flash kernel, softmax's or rmsnorm's row
reduction; the kernel's other programs keep the heuristics' schedules),
and writes what the model predicted to bench/gpu/bundles/tuning/tuning.plan.

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

# name, file, kernel, shape, program: programs without a contraction
# problem (docs/autoscheduler.md, "GPU programs without tensor cores",
# "Flash kernels"), each run_gemms.py checks against its reference.
PROGRAM_CASES = [
    ("attn_prefill", "examples/attention.tensor", "attention", "B=4,H=16,N=4096,M=4096,D=128",
     "attention_O"),
    ("attn_long_keys", "examples/attention.tensor", "attention", "B=1,H=32,N=512,M=8192,D=128",
     "attention_O"),
    ("attn_decode", "examples/attention.tensor", "attention", "B=1,H=32,N=1,M=8192,D=128",
     "attention_O"),
    # (Since the thirty-ninth session Y is swept into its rows' program
    # where the rows are shared: the merged program takes Y's name.)
    ("softmax_rows", "examples/norms.tensor", "softmax", "R=4096,C=1024", "softmax_Y"),
    ("softmax_vocab", "examples/norms.tensor", "softmax", "R=4,C=50000", "softmax_L"),
    ("rmsnorm_rows", "examples/norms.tensor", "rmsnorm", "T=4096,D=4096", "rmsnorm_Y"),
    # layernorm's mean and variance: a row stream (Welford/Chan, f64),
    # its Y swept in.
    ("layernorm_rows", "examples/norms.tensor", "layernorm", "T=4096,D=4096", "layernorm_Y"),
]

RANKED = re.compile(r"^\s*(chosen|runner-up):\s+(.*?): ([0-9.]+) us \(compute ([0-9.]+), "
                    r"memory ([0-9.]+), latency ([0-9.]+)(?:, split sum ([0-9.]+))?;.*?\) = "
                    r"(#tile\.schedule<.*>)\s*$")
PROGRAM = re.compile(r"tile\.program @(\w+) .*mma = #tile\.mma")
# A GPU program's block in --explain, and its ranked lines.
GPU_PROGRAM = re.compile(r"^explain: GPU program (\w+) ")
GPU_RANKED = re.compile(r"^\s*(chosen|runner-up):\s+(.*?): ([0-9.]+) us \(.*\) = "
                        r"(#tile\.schedule<.*>)\s*$")


def ranked_candidates(nautc, path, kernel, shape, target):
    """The model's ranked candidates for the case's contraction and its
    program's name."""
    cmd = [nautc, "compile", path, "-k", kernel, "--target", target, "--shape", shape,
           "--schedule", "auto", "--explain", "--emit", "tile", "-o", "-"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    # (A split contraction's tensor-core program is its `_partial`, made
    # after the schedules apply: a schedule file names the program itself.)
    programs = [re.sub(r"_partial$", "", p) for p in PROGRAM.findall(proc.stdout)]
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


def program_candidates(nautc, path, kernel, shape, target, program):
    """The model's ranked candidates for `program` (a GPU program without a
    contraction problem), as --explain lists them."""
    cmd = [nautc, "compile", path, "-k", kernel, "--target", target, "--shape", shape,
           "--schedule", "auto", "--explain", "-o", os.devnull]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    candidates, current = [], None
    for line in proc.stdout.splitlines() + proc.stderr.splitlines():
        if m := GPU_PROGRAM.match(line):
            current = m.group(1)
        elif current == program and (m := GPU_RANKED.match(line)):
            candidates.append({"describe": m.group(2), "predicted_us": float(m.group(3)),
                               "schedule": m.group(4)})
    if not candidates:
        sys.exit(f"{kernel} {shape}: no candidate for {program} in --explain")
    return candidates


def compile_candidates(args, out, tmp, name, path, kernel, shape, program, candidates):
    """One bundle a candidate, its schedule file naming `program`."""
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
    return entry


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
            plan["cases"].append(compile_candidates(args, out, tmp, name, path, kernel, shape,
                                                    program, candidates))
        for name, file, kernel, shape, program in PROGRAM_CASES[:args.programs]:
            path = os.path.join(ROOT, file)
            candidates = program_candidates(args.nautc, path, kernel, shape, args.target,
                                            program)
            plan["cases"].append(compile_candidates(args, out, tmp, name, path, kernel, shape,
                                                    program, candidates))
    # Beside the bundles but not one: run_gemms.py reads *.json bundles.
    with open(os.path.join(out, "tuning.plan"), "w") as f:
        json.dump(plan, f, indent=1)
    print(f"wrote {out}/tuning.plan")


def refit_prediction(c, alpha, beta):
    if "compute_us" not in c:  # not a contraction: the model's own prediction
        return c["predicted_us"]
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
    contractions = [c for c in measured if "compute_us" in c]
    alpha, beta = refit(contractions) if contractions else (1.0, 1.0)
    lines = [f"# GPU tuning mode ({plan['target']})", "",
             f"Refit over {len(contractions)} GEMM candidates: measured ~ max({alpha:.2f} x "
             f"compute, {beta:.2f} x memory) + latency + split sum (the other cases' refit "
             f"column is the model's own prediction).", "",
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
    p.add_argument("--cases", type=int, default=len(CASES), help="the first N GEMM cases only")
    p.add_argument("--programs", type=int, default=len(PROGRAM_CASES),
                   help="the first N flash-kernel and reduction cases only")
    p.add_argument("--out-dir", default=TUNING)
    r = sub.add_parser("report")
    r.add_argument("results", help="run_gemms.py's .jsonl for the tuning bundles")
    r.add_argument("--plan", default=os.path.join(TUNING, "tuning.plan"))
    r.add_argument("--out")
    args = ap.parse_args()
    (prepare if args.command == "prepare" else report)(args)


if __name__ == "__main__":
    main()
