#!/usr/bin/env python3
"""Random GEMM epilogues, run on the SIMT emulator with --check.

Each kernel is C[m, n] = <expression> over sum[k](A[m, k] * B[k, n]), a
residual R[m, n], a bias[n], a scalar s and literals, built from +, *, gelu,
tanh, max(x, 0.0) and bf16/f32 casts, with random types for A/B, R and C.
It runs on one of the two GPU targets at a ragged shape. Any result but
PASS is reported with its source: a crash, an internal error or a FAIL.
Exercises tile-assign-layouts and the GPU lowering's epilogues.

    python3 scripts/fuzz_epilogues.py [--nautc build/bin/nautc] [--start 0] [--count 40]

Each run takes a few seconds (two at a time). Not part of the test suite.
"""
import os, random, subprocess, sys

import fuzzing


def expression(rng, depth):
    leaves = ["acc", "R[m, n]", "bias[n]", "s", "1.5"]
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves)
    a, b = expression(rng, depth - 1), expression(rng, depth - 1)
    return rng.choice([f"({a} + {b})", f"({a} * {b})", f"gelu({a})",
                       f"max({a}, 0.0)", f"bf16({a})", f"f32({a})",
                       f"tanh({a})"])


def kernel_source(rng):
    ab = rng.choice(["f16", "bf16"])
    r = rng.choice(["f16", "bf16", "f32"])
    c = rng.choice(["f32", "bf16", "f16"])
    e = expression(rng, 3)
    if "acc" not in e:
        e = f"({e} + acc)"
    body = e.replace("acc", "sum[k](A[m, k] * B[k, n])", 1).replace("acc", "1.0")
    return (f"kernel epi(A: {ab}[M, K], B: {ab}[K, N], R: {r}[M, N], "
            f"bias: f32[N], s: f32) -> (C: {c}[M, N]) {{\n  C[m, n] = {body}\n}}\n")


def run_one(nautc, folder, n):
    rng = random.Random(1000 + n)
    source = kernel_source(rng)
    path = os.path.join(folder, f"epi{n}.tensor")
    with open(path, "w") as f:
        f.write(source)
    target = rng.choice(["sm_80", "sm_90"])
    shape = rng.choice(["M=130,N=300,K=72", "M=70,N=136,K=64", "M=200,N=520,K=40"])
    cmd = [nautc, "run", path, "-k", "epi", "--device", "emu", "--target",
           target, "--shape", shape, "--check"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "timeout", " ".join(cmd) + "\n" + source
    out = r.stdout + r.stderr
    if r.returncode == 0 and "PASS" in out:
        return "pass", ""
    return "fail", " ".join(cmd) + "\n" + source + out[-800:]


if __name__ == "__main__":
    sys.exit(fuzzing.main(__doc__, run_one, name="epilogue"))
