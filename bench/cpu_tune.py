#!/usr/bin/env python3
"""The auto-scheduler on the host CPU: the model's choice and `nautc tune`
against the best of a measured grid, on 20 workloads.

usage: python3 bench/cpu_tune.py [PATH/TO/nautc] [--only NAME,...]
                                 [--tune-budget SECONDS] [--grid-budget SECONDS]
                                 [--rounds N] [--log PATH.jsonl]

For each workload (GEMMs from square to skinny, batched, transposed, with an
epilogue; softmax; norms; attention; an MLP and a mixture of experts), four
schedules are timed by `nautc run --time` (the median of repeated runs),
one after the other in each of `--rounds` rounds (3), so that they see the
same machine, each reported as its median over the rounds:

  heuristics  the hand-written default schedules;
  model       `--schedule auto`: the CPU model's first choice (of the
              kernel's structure, then of each program's tile), no
              measurement;
  tune        `nautc tune --budget B` (each structure's model choice, then
              the model's best 8 per program, measured), then its schedule
              file;
  grid        `nautc tune --per-program 1000`: each structure's model
              choice, then every register block of the fastest structure's
              space measured (for a kernel of several programs, one program
              at a time from the best so far), then its schedule file.

Reported: each time, and for the model and tune the share of the best
speed reached (the fastest of the four times / its time: 100% is the best;
the grid's schedule is normally the fastest, but it is timed again here,
so noise can put another ahead). f32 GEMMs
also report numpy (OpenBLAS) on the same shapes as a peer. The aims (issue
20): the model within 10% of the grid, tune within 3%.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
KERNELS = os.path.join(HERE, "kernels")

# name, file, kernel, shape
WORKLOADS = [
    ("gemm_f32 512", "kernels/gemm_f32.tensor", "gemm_f32", "M=512,N=512,K=512"),
    ("gemm_f32 1024", "kernels/gemm_f32.tensor", "gemm_f32", "M=1024,N=1024,K=1024"),
    ("gemm_f32 2048x512x2048", "kernels/gemm_f32.tensor", "gemm_f32", "M=2048,N=512,K=2048"),
    ("gemm_f32 skinny M=16", "kernels/gemm_f32.tensor", "gemm_f32", "M=16,N=4096,K=2048"),
    ("gemm_f32 tall N=64", "kernels/gemm_f32.tensor", "gemm_f32", "M=4096,N=64,K=1024"),
    ("gemm_f32 long K", "kernels/gemm_f32.tensor", "gemm_f32", "M=128,N=128,K=16384"),
    ("gemm_f32 ragged", "kernels/gemm_f32.tensor", "gemm_f32", "M=1000,N=700,K=300"),
    ("gemm f16 1024", "examples/gemm.tensor", "gemm", "M=1024,N=1024,K=1024"),
    ("gemm_bias_gelu bf16", "examples/gemm.tensor", "gemm_bias_gelu", "M=512,N=1024,K=512"),
    ("bmm_nt 8x256", "examples/gemm.tensor", "bmm_nt", "Z=8,M=256,N=256,K=256"),
    ("bmm_nt 64x64", "examples/gemm.tensor", "bmm_nt", "Z=64,M=64,N=64,K=64"),
    ("softmax 4096x1024", "examples/norms.tensor", "softmax", "R=4096,C=1024"),
    ("softmax vocab", "examples/norms.tensor", "softmax", "R=32,C=32000"),
    ("rmsnorm 4096x4096", "examples/norms.tensor", "rmsnorm", "T=4096,D=4096"),
    ("layernorm 4096x1024", "examples/norms.tensor", "layernorm", "T=4096,D=1024"),
    ("layernorm 64x8192", "examples/norms.tensor", "layernorm", "T=64,D=8192"),
    ("attention prefill", "examples/attention.tensor", "attention", "B=1,H=8,N=512,M=512,D=64"),
    ("attention decode", "examples/attention.tensor", "attention", "B=1,H=8,N=1,M=4096,D=128"),
    ("swiglu_mlp", "examples/mlp.tensor", "swiglu_mlp", "T=256,D=512,F=1024"),
    ("moe_ffn", "examples/moe.tensor", "moe_ffn", "T=256,D=256,F=512,E=8,J=2"),
]

TIME = re.compile(r"time: median ([0-9.]+) ms")


def source(path):
    return os.path.join(HERE, "..", path) if path.startswith("examples/") \
        else os.path.join(HERE, path)


def run_time(nautc, workload, extra):
    _, path, kernel, shape = workload
    cmd = [nautc, "run", source(path), "-k", kernel, "--shape", shape,
           "--time"] + extra
    proc = subprocess.run(cmd, capture_output=True, text=True)
    m = TIME.search(proc.stdout)
    if proc.returncode != 0 or not m:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    return float(m.group(1))


def tune(nautc, workload, extra, out_path):
    """Runs nautc tune; writes its schedule file to out_path and returns
    (seconds it took, measurements it made)."""
    _, path, kernel, shape = workload
    cmd = [nautc, "tune", source(path), "-k", kernel, "--shape", shape] + extra
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stdout}{proc.stderr}")
    schedule = proc.stdout.strip().splitlines()[-1]
    json.loads(schedule)  # a schedule file
    with open(out_path, "w") as f:
        f.write(schedule + "\n")
    measured = len(re.findall(r"^tune: \[", proc.stderr, re.M))
    return seconds, measured


def model_choice(nautc, workload):
    """The model's tile for each program, as `--explain` prints it."""
    _, path, kernel, shape = workload
    proc = subprocess.run([nautc, "compile", source(path), "-k", kernel,
                           "--shape", shape, "--schedule", "auto",
                           "--explain", "-o", os.devnull],
                          capture_output=True, text=True)
    found = re.findall(r"explain: CPU program (\S+) .*\n\s+chosen:\s+([^:]+):",
                       proc.stdout)
    return {program: tile for program, tile in found}


def numpy_ms(shape, runs=10):
    try:
        import numpy as np
    except ImportError:
        return None
    sizes = dict(kv.split("=") for kv in shape.split(","))
    m, n, k = (int(sizes[x]) for x in "MNK")
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    c = np.empty((m, n), dtype=np.float32)
    for _ in range(3):
        np.matmul(a, b, out=c)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        np.matmul(a, b, out=c)
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2] * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nautc", nargs="?",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--only", default="")
    ap.add_argument("--tune-budget", type=float, default=20)
    ap.add_argument("--grid-budget", type=float, default=300)
    ap.add_argument("--log", default="",
                    help="append each workload's chosen schedules (JSON lines)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds timing the four schedules")
    args = ap.parse_args()
    only = [s for s in args.only.split(",") if s]
    workloads = [w for w in WORKLOADS
                 if not only or any(o in w[0] for o in only)]
    tmp = tempfile.mkdtemp(prefix="cpu_tune.")
    print(f"{'workload':24} | {'heur ms':>9} {'model ms':>9} {'tune ms':>9} "
          f"{'grid ms':>9} | {'model':>6} {'tune':>6} | tune s (n) | "
          f"grid s (n) | numpy ms")
    print("-" * 118)
    model_ok = tune_ok = 0
    for w in workloads:
        tuned = os.path.join(tmp, "tuned.json")
        grid = os.path.join(tmp, "grid.json")
        tune_s, tune_n = tune(args.nautc, w, ["--budget", str(args.tune_budget)],
                              tuned)
        grid_s, grid_n = tune(args.nautc, w, ["--per-program", "1000",
                                              "--budget", str(args.grid_budget)],
                              grid)
        schedules = {
            "heuristics": [],
            "model": ["--schedule", "auto"],
            "tune": ["--schedule", tuned],
            "grid": ["--schedule", grid],
        }
        # Interleaved rounds, each schedule's median over them: the
        # machine's drift falls on all four alike.
        rounds = {name: [] for name in schedules}
        for _ in range(args.rounds):
            for name, extra in schedules.items():
                rounds[name].append(run_time(args.nautc, w, extra))
        times = {name: sorted(t)[len(t) // 2] for name, t in rounds.items()}
        # The fastest of the four, the grid's best as a rule.
        best = min(times.values())
        model_share = best / times["model"]
        tune_share = best / times["tune"]
        model_ok += model_share >= 0.9
        tune_ok += tune_share >= 0.97
        peer = numpy_ms(w[3]) if w[2] == "gemm_f32" else None
        print(f"{w[0]:24} | {times['heuristics']:9.3f} {times['model']:9.3f} "
              f"{times['tune']:9.3f} {times['grid']:9.3f} | "
              f"{100 * model_share:5.0f}% {100 * tune_share:5.0f}% | "
              f"{tune_s:6.1f} ({tune_n:2}) | {grid_s:6.1f} ({grid_n:3}) | "
              + (f"{peer:.3f}" if peer else "-"), flush=True)
        if args.log:
            with open(args.log, "a") as log:
                chosen = {"workload": w[0], "times_ms": times,
                          "model": model_choice(args.nautc, w)}
                for name, path in (("tune", tuned), ("grid", grid)):
                    with open(path) as f:
                        # the schedule file: its programs, and the rewrite
                        # choices (the structure) where not the default
                        chosen[name] = json.load(f)
                log.write(json.dumps(chosen) + "\n")
    print(f"\nmodel within 10% of the best measured: {model_ok} of "
          f"{len(workloads)}; tune within 3%: {tune_ok} of {len(workloads)}")


if __name__ == "__main__":
    main()
