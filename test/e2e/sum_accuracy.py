#!/usr/bin/env python3
"""Long float sums on a device against exact sums: rows of D values near
10^4, where a sum that adds one element at a time loses digits as the
row grows (issue 19: reductions as accurate as a blocked sum).

usage: sum_accuracy.py NAUTC SUMS_TENSOR WORK_DIR [--device D] [--target T]
Prints one line per measurement and exits 1 if any is outside its bound.
"""
import math
import os
import subprocess
import sys

import numpy as np

NAUTC, SOURCE, WORK = sys.argv[1:4]
EXTRA = sys.argv[4:]
T, D = 8, 4096
os.makedirs(WORK, exist_ok=True)
rng = np.random.default_rng(7)
x = (1e4 + rng.standard_normal((T, D))).astype(np.float32)
g = np.ones(D, dtype=np.float32)
b = np.zeros(D, dtype=np.float32)
for name, value in (("X", x), ("g", g), ("b", b)):
    np.save(os.path.join(WORK, name + ".npy"), value)


def run(kernel, inputs, extra=()):
    cmd = [NAUTC, "run", SOURCE, "-k", kernel, "--shape", f"T={T},D={D}",
           "--save", WORK] + EXTRA + list(extra)
    for name in inputs:
        cmd += ["--input", f"{name}={os.path.join(WORK, name + '.npy')}"]
    subprocess.run(cmd, check=True, capture_output=True)


failed = 0


def report(what, error, bound):
    global failed
    ok = error <= bound
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'}: {what}: {error:.3g} (bound {bound:.3g})")


# Row sums: exact (math.fsum of the f32 inputs), rounded once to f32, is
# within half an ulp; a sequential f32 sum of 4096 terms is off by tens of
# ulps, a blocked one by a few.
run("row_sum", ["X"])
sums = np.load(os.path.join(WORK, "S.npy")).astype(np.float64)
exact = np.array([math.fsum(row) for row in x.astype(np.float64)])
ulps = np.abs(sums - exact) / np.spacing(np.float32(exact).astype(np.float32))
report("row sums, worst error in f32 ulps of the sum", float(ulps.max()), 2.0)

# LayerNorm: the mean's error moves every output (values near 1 here).
run("layernorm", ["X", "g", "b"])
y = np.load(os.path.join(WORK, "Y.npy")).astype(np.float64)
x64 = x.astype(np.float64)
mu = x64.mean(axis=1, keepdims=True)
var = ((x64 - mu) ** 2).mean(axis=1, keepdims=True)
reference = (x64 - mu) / np.sqrt(var + 1e-5)
report("layernorm, max abs error", float(np.abs(y - reference).max()), 1.5e-3)
# The variance in one pass (on the CPU, a stream led by the mean: Welford/
# Chan, computed in f64) is as accurate as in two (the mean, then the sum
# of squares about it: the reductions kept apart by a schedule file). In f32
# the one pass was 1e-4 off, where two passes are 3e-7; sum(x^2)/n - mean^2
# in f32 is off by more than the variance itself.
exact_var = ((x64 - mu) ** 2).mean(axis=1)
# (On the CPU, one program a row: the heuristics would split the stream
# over the cores; the split is measured below.)
whole = []
if "--device" not in EXTRA:
    whole_path = os.path.join(WORK, "whole.json")
    with open(whole_path, "w") as f:
        f.write('{"programs": {"variance_Var": "#tile.schedule<tile = [1], '
                'threads = 1>"}}')
    whole = ["--schedule", whole_path]
run("variance", ["X"], whole)
one_pass = np.load(os.path.join(WORK, "Var.npy")).astype(np.float64)
apart = os.path.join(WORK, "apart.json")
with open(apart, "w") as f:
    f.write('{"fuse_reductions": false, "programs": {}}')
run("variance", ["X"], ["--schedule", apart])
two_pass = np.load(os.path.join(WORK, "Var.npy")).astype(np.float64)
two_pass_error = float(np.abs(two_pass / exact_var - 1).max())
report("variance in two passes, max relative error", two_pass_error, 1e-5)
report("variance in one pass, max relative error (bound: two passes')",
       float(np.abs(one_pass / exact_var - 1).max()),
       max(two_pass_error, 1.2e-7))
# On the CPU, the same stream split over 5 programs a row (chunks of 820
# and 816 values), their partial means and sums combined by Chan's rule.
if "--device" not in EXTRA:
    split = os.path.join(WORK, "split.json")
    with open(split, "w") as f:
        f.write('{"programs": {"variance_Var": "#tile.schedule<tile = [1], '
                'threads = 1, reduce_split = 5>"}}')
    tile = subprocess.run([NAUTC, "compile", SOURCE, "-k", "variance",
                           "--shape", f"T={T},D={D}", "--schedule", split,
                           "--emit", "tile"], check=True, capture_output=True,
                          text=True).stdout
    if "chunks(820 along 0)" not in tile or "@variance_Var_partial" not in tile:
        print("FAIL: the variance's stream was not split 5 ways")
        failed += 1
    run("variance", ["X"], ["--schedule", split])
    combined = np.load(os.path.join(WORK, "Var.npy")).astype(np.float64)
    report("variance in one pass split 5 ways, max relative error (bound: "
           "two passes')", float(np.abs(combined / exact_var - 1).max()),
           max(two_pass_error, 1.2e-7))
sys.exit(1 if failed else 0)
