#!/usr/bin/env python3
"""How long the verifier (compiler/Verify) takes, and what it adds to a compile.

Usage:
    python3 bench/verify_time.py [--nautc build/bin/nautc] [--runs 3]

For attention at head dim 128 (examples/attention.tensor, B=4, H=16,
N=M=4096 bound) and the gemm example (sizes dynamic), for sm_80 and sm_90:

- `nautc verify`, proof cache off (NAUTILUS_PROOF_CACHE=0): every query
  solved by Z3, the figure the issue's bound (under 2 s for attention at
  d128) is about; the verifier's own total (its last line) and the
  process's wall time;
- `nautc verify`, proof cache warm: what a repeated compile of the same
  structure pays;
- `nautc compile --emit ptx` with verification (cache off and warm) and
  with --no-verify: what verification adds to a compile.

Medians of --runs. The machine is shared and noisy: compare the rows of one
run, not runs of different days.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
CASES = [
    ("attention d128", os.path.join(ROOT, "examples", "attention.tensor"),
     "attention", "B=4,H=16,N=4096,M=4096,D=128"),
    ("gemm (dynamic)", os.path.join(ROOT, "examples", "gemm.tensor"),
     "gemm", None),
]


def timed(cmd, env):
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    m = re.search(r"in ([0-9.]+) s", proc.stdout)
    return wall, float(m.group(1)) if m else None


def median_of(runs, cmd, env):
    walls, own = [], []
    for _ in range(runs):
        w, o = timed(cmd, env)
        walls.append(w)
        if o is not None:
            own.append(o)
    return statistics.median(walls), (statistics.median(own) if own else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        cold = dict(os.environ, NAUTILUS_PROOF_CACHE="0")
        warm = dict(os.environ, NAUTILUS_CACHE_DIR=cache)
        print(f"{'kernel':16} {'target':6} {'verify cold':>12} {'verify warm':>12}"
              f" {'compile':>9} {'+verify cold':>13} {'+verify warm':>13}")
        for name, path, kernel, shape in CASES:
            for target in ["sm_80", "sm_90"]:
                base = [args.nautc, "verify", path, "-k", kernel, "--target", target]
                if shape:
                    base += ["--shape", shape]
                # Fill the warm cache once.
                timed(base, warm)
                _, cold_own = median_of(args.runs, base, cold)
                _, warm_own = median_of(args.runs, base, warm)
                comp = [args.nautc, "compile", path, "-k", kernel, "--target",
                        target, "--emit", "ptx", "-o", os.devnull]
                if shape:
                    comp += ["--shape", shape]
                plain, _ = median_of(args.runs, comp + ["--no-verify"], cold)
                with_cold, _ = median_of(args.runs, comp, cold)
                with_warm, _ = median_of(args.runs, comp, warm)
                print(f"{name:16} {target:6} {cold_own:10.2f} s {warm_own:10.2f} s"
                      f" {plain:7.2f} s {with_cold:11.2f} s {with_warm:11.2f} s")


if __name__ == "__main__":
    main()
