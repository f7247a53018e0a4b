#!/usr/bin/env python3
"""The auto-scheduler's GPU tuning mode: nautc tune's search over GEMMs,
flash kernels and row reductions, measured on a device nautc does not run
on, its records and the GPU models' refit written back by nautc.

On the build machine (nautc built; no GPU):

    python3 bench/gpu/tuning.py prepare [--nautc PATH] [--target sm_90] [--top 3]

asks `nautc tune --plan` for each case below what its search would measure
if the model ranked right (the heuristics' schedules, each structure's
model choice, each program's `--top` candidates with the others at the
model's choice: plannedAssignments in autoscheduler/Tuner.h), compiles
each assignment's schedule file into a bundle in bench/gpu/bundles/tuning/
(NAME_TARGET_pI, p0 the heuristics'), and writes the plan, with the
model's predicted time of each (every program of the kernel), to
bench/gpu/bundles/tuning/tuning.plan.

On the GPU machine, time them (nautc only; each checked against its
reference first, as every bundle is):

    python3 bench/gpu/run_gemms.py --bundles bench/gpu/bundles/tuning \\
        --no-baselines --out $OUT/tuning.md

then, anywhere (no nautc needed):

    python3 bench/gpu/tuning.py report $OUT/tuning.jsonl [--out tuning-report.md]

reports, per case, each assignment's predicted and measured time and the
regret of the model's choice (its measured time over the best measured,
less 1), and back on the build machine:

    python3 bench/gpu/tuning.py import $OUT/tuning.jsonl --db DB.json

gives each case's times to `nautc tune --measured` (the search again, with
the device's times: RecordedMeasurer.h), which writes the case's record
into DB.json with the GPU models' samples and prints their refit to the
device (`--schedule auto --db DB.json --refit` then ranks with it). Run it
when a device is lent (issue 20's GPU tuning mode).
"""
import argparse
import json
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

# name, file, kernel, shape: programs without a contraction problem
# (docs/autoscheduler.md, "GPU programs without tensor cores", "Flash
# kernels"), each run_gemms.py checks against its reference; their
# kernels have several structures (the alg rewrites), each planned.
PROGRAM_CASES = [
    ("attn_prefill", "examples/attention.tensor", "attention", "B=4,H=16,N=4096,M=4096,D=128"),
    ("attn_long_keys", "examples/attention.tensor", "attention", "B=1,H=32,N=512,M=8192,D=128"),
    ("attn_decode", "examples/attention.tensor", "attention", "B=1,H=32,N=1,M=8192,D=128"),
    ("softmax_rows", "examples/norms.tensor", "softmax", "R=4096,C=1024"),
    ("softmax_vocab", "examples/norms.tensor", "softmax", "R=4,C=50000"),
    ("rmsnorm_rows", "examples/norms.tensor", "rmsnorm", "T=4096,D=4096"),
    # layernorm's mean and variance: a row stream (Welford/Chan, f64).
    ("layernorm_rows", "examples/norms.tensor", "layernorm", "T=4096,D=4096"),
]


def nautc_tune(nautc, case, target, top, *flags, fail=sys.exit):
    """`nautc tune` on the case (its file, kernel and shape), with the
    model's best `top` schedules of each program; its stdout (where it
    fails, `fail` is given what it said, and None returned)."""
    _, file, kernel, shape = case
    cmd = [nautc, "tune", os.path.join(ROOT, file), "-k", kernel, "--target", target,
           "--shape", shape, "--per-program", str(top), *flags]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
        return None
    return proc.stdout


def prepare_case(args, out, tmp, case):
    """The case's plan, each assignment compiled into a bundle."""
    name, file, kernel, shape = case
    plan_path = os.path.join(tmp, name + ".plan.json")
    nautc_tune(args.nautc, case, args.target, args.top, "--plan", plan_path)
    with open(plan_path) as f:
        planned = json.load(f)
    entry = {"case": name, "file": file, "kernel": kernel, "shape": shape,
             "sizes": planned["sizes"], "assignments": []}
    for i, a in enumerate(planned["assignments"]):
        schedule = os.path.join(tmp, f"{name}_{i}.json")
        with open(schedule, "w") as f:
            json.dump(a["schedule"], f)
        bundle = f"{name}_{args.target}_p{i}"
        cmd = [args.nautc, "compile", os.path.join(ROOT, file), "-k", kernel, "--target",
               args.target, "--shape", shape, "--schedule", schedule, "--emit", "bundle",
               "-o", os.path.join(out, bundle + ".json")]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
        entry["assignments"].append(dict(a, bundle=bundle))
        predicted = f"{a['predicted_us']:.1f} us" if "predicted_us" in a else "not predicted"
        print(f"{bundle}: {a['label']}, predicted {predicted}")
    return entry


def prepare(args):
    out = args.out_dir
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        if name.endswith(".json"):
            os.remove(os.path.join(out, name))
    plan = {"target": args.target, "top": args.top, "cases": []}
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES[:args.cases] + PROGRAM_CASES[:args.programs]:
            plan["cases"].append(prepare_case(args, out, tmp, case))
    # Beside the bundles but not one: run_gemms.py reads *.json bundles.
    with open(os.path.join(out, "tuning.plan"), "w") as f:
        json.dump(plan, f, indent=1)
    print(f"wrote {out}/tuning.plan")


def measured_rows(path):
    """run_gemms.py's rows whose nautc time was measured and checked ok,
    by bundle (a bundle rerun: its last row)."""
    rows = {}
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            if row.get("ok") and "nautc" in row.get("seconds", {}):
                rows[row["bundle"]] = row
    if not rows:
        sys.exit("no bundle was measured (and checked ok) in " + path)
    return rows


def load_plan(path):
    """tuning.plan, as prepare writes it since nautc tune --plan."""
    if not os.path.exists(path):
        sys.exit(f"no plan at {path}: run `python3 bench/gpu/tuning.py prepare --top 3` "
                 f"on the build machine before the lease")
    with open(path) as f:
        plan = json.load(f)
    if any("assignments" not in case for case in plan.get("cases", [])):
        sys.exit(f"{path}: a plan of the tuning mode's first form (each case's top "
                 f"candidates of one program, before nautc tune --plan): its report is the "
                 f"tuning-report.md written beside it")
    return plan


def report(args):
    plan = load_plan(args.plan)
    rows = measured_rows(args.results)
    lines = [f"# GPU tuning mode ({plan['target']})", "",
             "Each case's assignments as `nautc tune --plan` lists them (p0 the heuristics'; "
             "* the model's choice), the model's prediction of the whole kernel and the "
             "device's time.", "",
             "| case | bundle | assignment | predicted us | measured us |",
             "|---|---|---|---|---|"]
    regrets = []
    for case in plan["cases"]:
        done = []
        for a in case["assignments"]:
            us = rows[a["bundle"]]["seconds"]["nautc"] * 1e6 if a["bundle"] in rows else None
            predicted = f"{a['predicted_us']:.1f}" if "predicted_us" in a else ""
            measured = f"{us:.1f}" if us is not None else "not measured"
            star = " *" if a.get("model_choice") else ""
            lines.append(f"| {case['case']} | {a['bundle'].rsplit('_', 1)[1]} | {a['label']}{star} | "
                         f"{predicted} | {measured} |")
            if us is not None:
                done.append((a, us))
        chosen = [us for a, us in done if a.get("model_choice")]
        if not chosen:
            continue  # the model's choice was not measured
        best = min(us for _, us in done)
        regrets.append(chosen[0] / best - 1)
        heuristics = [us for a, us in done if a["bundle"].endswith("_p0")]
        lines.append(f"| {case['case']} | | regret of the model's choice {100 * regrets[-1]:.1f}%"
                     + (f"; heuristics {heuristics[0] / best:.2f}x the best" if heuristics else "")
                     + " | | |")
    if regrets:
        lines += ["", f"Mean regret of the model's choice against the best measured of its plan: "
                      f"{100 * sum(regrets) / len(regrets):.1f}% over {len(regrets)} cases."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


def machine_of(row):
    """The device as nautc's CUDA runtime describes it (a record's
    machine: runtime/CudaDevice.cpp)."""
    device = row.get("device") or {}
    if "name" not in device or "capability" not in device:
        sys.exit(f"{row['bundle']}: its row names no device (run_gemms.py writes it)")
    major, minor = device["capability"]
    return f"cuda:0: {device['name']} (sm_{major}{minor})"


def times_of(row):
    """A row's nautc times in microseconds: each timed batch's (its
    median where none is positive)."""
    samples = [t * 1e6 for t in row.get("samples", {}).get("nautc") or [] if t > 0]
    return samples or [row["seconds"]["nautc"] * 1e6]


# `nautc tune`'s outcome line: the best, the heuristics' and the model's
# choice (microseconds).
TUNE_RESULT = re.compile(r"^tune: best ([0-9.]+) us, heuristics ([0-9.]+) us \([0-9.]+x\)"
                         r"(?:, the model's choice ([0-9.]+) us)?")


def choice_regret(out):
    """The model's choice's regret against the best measured, from nautc
    tune's output (None where its choice was not measured)."""
    for line in out.splitlines():
        m = TUNE_RESULT.match(line)
        if m and m.group(3):
            return float(m.group(3)) / float(m.group(1)) - 1
    return None


# The fewest samples nautc refits the GPU models to (kMinRefitSamples).
MIN_REFIT_SAMPLES = 8


def held_out_regret(args, plan, case, spec, measured_path, tmp):
    """The regret of the choice `nautc tune --refit` makes for `case` with
    the GPU models refit to every other case's records (the case's own
    left out of a copy of the database), and the samples refit to."""
    with open(args.db) as f:
        db = json.load(f)
    with open(measured_path) as f:
        machine = json.load(f)["machine"]
    db["records"] = [r for r in db["records"]
                     if not (r["kernel"] == case["kernel"] and r["sizes"] == case["sizes"]
                             and r["target"] == plan["target"])]
    samples = sum(len(r.get("gpu_model", {}).get("samples", [])) for r in db["records"]
                  if r["target"] == plan["target"] and r["machine"] == machine)
    path = os.path.join(tmp, case["case"] + ".held-out.json")
    with open(path, "w") as f:
        json.dump(db, f)
    out = nautc_tune(args.nautc, spec, plan["target"], plan.get("top", 3), "--measured",
                     measured_path, "--db", path, "--refit", fail=lambda what: print(what, end=""))
    return (choice_regret(out) if out else None), samples


def write_measured(plan, case, measured, path):
    """The case's times as `nautc tune --measured` reads them."""
    times = {"machine": machine_of(measured[0][1]), "kernel": case["kernel"],
             "target": plan["target"], "sizes": case["sizes"],
             "measurements": [{"schedule": a["schedule"], "us": times_of(row)}
                              for a, row in measured]}
    with open(path, "w") as f:
        json.dump(times, f)


def import_results(args):
    plan = load_plan(args.plan)
    rows = measured_rows(args.results)
    failed, imported = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for case in plan["cases"]:
            measured = [(a, rows[a["bundle"]]) for a in case["assignments"] if a["bundle"] in rows]
            print(f"== {case['case']}")
            if not measured:
                print("nothing measured (and checked ok)")
                continue
            path = os.path.join(tmp, case["case"] + ".measured.json")
            write_measured(plan, case, measured, path)
            spec = (case["case"], case["file"], case["kernel"], case["shape"])
            out = nautc_tune(args.nautc, spec, plan["target"], plan.get("top", 3),
                             "--measured", path, "--db", args.db,
                             fail=lambda what: print(what, end=""))
            if out is None:
                failed.append(case["case"])
                continue
            print(out, end="")
            imported.append((case, spec, path, choice_regret(out)))
        # The refit's choices, each case held out of the refit it ranks by.
        lines = ["", "Regret against the best measured of each case's plan: the GPU "
                 "models' choice, and the choice of the models refit to the other cases' "
                 "samples (`--refit`, the case held out).", "",
                 "| case | the models' choice | the refit's, the case held out |",
                 "|---|---|---|"]
        for case, spec, path, regret in imported:
            held_out, samples = held_out_regret(args, plan, case, spec, path, tmp)
            cell = lambda r: "not measured" if r is None else f"{100 * r:.1f}%"
            refit = (cell(held_out) + f" ({samples} samples)" if samples >= MIN_REFIT_SAMPLES
                     else f"no refit ({samples} samples)")
            lines.append(f"| {case['case']} | {cell(regret)} | {refit} |")
        print("\n".join(lines))
        if args.out:
            with open(args.out, "w") as f:
                f.write("\n".join(lines[1:]) + "\n")
    if failed:
        sys.exit(f"not imported: {', '.join(failed)} (see above); the others' records are in "
                 f"{args.db}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    p.add_argument("--target", default="sm_90", choices=["sm_80", "sm_90"])
    p.add_argument("--top", type=int, default=3, help="each program's best N candidates")
    p.add_argument("--cases", type=int, default=len(CASES), help="the first N GEMM cases only")
    p.add_argument("--programs", type=int, default=len(PROGRAM_CASES),
                   help="the first N flash-kernel and reduction cases only")
    p.add_argument("--out-dir", default=TUNING)
    r = sub.add_parser("report")
    r.add_argument("results", help="run_gemms.py's .jsonl for the tuning bundles")
    r.add_argument("--plan", default=os.path.join(TUNING, "tuning.plan"))
    r.add_argument("--out")
    i = sub.add_parser("import")
    i.add_argument("results", help="run_gemms.py's .jsonl for the tuning bundles")
    i.add_argument("--db", required=True, help="the tuning database to write the records into")
    i.add_argument("--plan", default=os.path.join(TUNING, "tuning.plan"))
    i.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    i.add_argument("--out", help="where to write the regret table too")
    args = ap.parse_args()
    {"prepare": prepare, "report": report, "import": import_results}[args.command](args)


if __name__ == "__main__":
    main()
