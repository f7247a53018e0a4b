#!/usr/bin/env python3
"""A row variance on the CPU: one pass (a stream led by the mean, Welford/
Chan, in f64) against two passes (the mean, then the squares about it) and
numpy's float32 var.

Usage:
    python3 bench/cpu_variance.py [--nautc build/bin/nautc]

For each shape: the median time of `nautc run --time` with the heuristics'
schedules (`--schedule heuristics`: the stream; the CPU's default, the
auto-scheduler, chooses between the structures) and with a schedule file that keeps the reductions
apart (`"fuse_reductions": false`), numpy's `x.var(axis=1)` timed in the
same run, and each result's worst relative error against the variance in
f64. Rows are values near 10^4 with unit variance, where a naive one pass
(sum(x^2)/n - mean^2) in f32 loses every digit.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import timeit

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
SOURCE = os.path.join(ROOT, "test", "e2e", "Inputs", "sums.tensor")
SHAPES = [(4096, 1024), (64, 8192), (8, 65536)]


def nautc_run(nautc, shape, x_path, out_dir, schedule=None):
    t, d = shape
    cmd = [nautc, "run", SOURCE, "-k", "variance", "--shape", f"T={t},D={d}",
           "--input", f"X={x_path}", "--save", out_dir, "--time"]
    if schedule:
        cmd += ["--schedule", schedule]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    median = re.search(r"median ([0-9.]+) ms", out.stdout + out.stderr)
    result = np.load(os.path.join(out_dir, "Var.npy")).astype(np.float64)
    return float(median.group(1)), result


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    args = ap.parse_args()
    rng = np.random.default_rng(11)
    print(f"{'shape':>12} | {'one pass':>9} {'two passes':>10} {'numpy':>8} | "
          f"{'1-pass/2-pass':>13} {'1-pass/numpy':>12} | error: "
          f"{'one pass':>8} {'two':>8} {'numpy':>8}")
    with tempfile.TemporaryDirectory() as work:
        apart = os.path.join(work, "apart.json")
        with open(apart, "w") as f:
            json.dump({"fuse_reductions": False, "programs": {}}, f)
        for shape in SHAPES:
            x = (1e4 + rng.standard_normal(shape)).astype(np.float32)
            x_path = os.path.join(work, "X.npy")
            np.save(x_path, x)
            x64 = x.astype(np.float64)
            exact = ((x64 - x64.mean(axis=1, keepdims=True)) ** 2).mean(axis=1)
            one_ms, one = nautc_run(args.nautc, shape, x_path, work, "heuristics")
            two_ms, two = nautc_run(args.nautc, shape, x_path, work, apart)
            timer = timeit.Timer(lambda: x.var(axis=1))
            loops, _ = timer.autorange()
            numpy_ms = min(timer.repeat(5, loops)) / loops * 1e3
            ref = x.var(axis=1).astype(np.float64)

            def err(v):
                return float(np.abs(v / exact - 1).max())

            print(f"{shape[0]:>5}x{shape[1]:<6} | {one_ms:7.3f}ms {two_ms:8.3f}ms "
                  f"{numpy_ms:6.3f}ms | {one_ms / two_ms:13.2f} "
                  f"{one_ms / numpy_ms:12.2f} |        {err(one):8.1e} "
                  f"{err(two):8.1e} {err(ref):8.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
