#!/usr/bin/env python3
"""CPU attention: nautc's JIT-compiled kernel against numpy, and its memory.

Usage:
    python3 bench/cpu_attention.py [PATH/TO/nautc] [--shapes 1x4x512x512x64,...]
                                   [--rounds 3] [--numpy-runs 5] [--no-verify]

The nautc binary defaults to ../build/bin/nautc relative to this script.

nautc runs `examples/attention.tensor` (bf16 inputs, f32 accumulation) with
`nautc run ... --time` (its own repetitions, the median printed); numpy runs
the same mathematics in float32 (S = Q K^T / sqrt(D), a stable softmax,
O = P V with BLAS) in a child process. Each tool's peak resident memory is
read from the kernel (getrusage of the child): the N x M score matrix that
an unfused program keeps in memory (4 bytes a score) shows there.

Before timing, `nautc run --check` compares nautc's result with the reference
interpreter at a small shape, so the table is about a correct kernel.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_FILE = os.path.join(HERE, "..", "examples", "attention.tensor")
KERNEL = "attention"
TIME_RE = re.compile(r"time:\s*median\s+([0-9.eE+-]+)\s*ms\s+over\s+(\d+)\s+runs")

NUMPY_CHILD = r"""
import json, sys, time
import numpy as np
b, h, n, m, d = (int(v) for v in sys.argv[1].split("x"))
runs = int(sys.argv[2])
rng = np.random.default_rng(0)
q = rng.standard_normal((b, h, n, d), dtype=np.float32)
k = rng.standard_normal((b, h, m, d), dtype=np.float32)
v = rng.standard_normal((b, h, m, d), dtype=np.float32)
def attention():
    s = np.matmul(q, k.transpose(0, 1, 3, 2)) * np.float32(d ** -0.5)
    s -= s.max(axis=-1, keepdims=True)
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return np.matmul(s, v)
attention()  # warm-up: thread pool start, page faults
ts = []
for _ in range(runs):
    t0 = time.perf_counter()
    attention()
    ts.append((time.perf_counter() - t0) * 1e3)
print(json.dumps({"numpy": np.__version__, "times_ms": ts}))
"""


def parse_shape(text):
    dims = [int(v) for v in text.split("x")]
    if len(dims) != 5:
        raise argparse.ArgumentTypeError(f"shape '{text}' is not BxHxNxMxD")
    return tuple(dims)


def shape_arg(shape):
    return ",".join(f"{k}={v}" for k, v in zip("BHNMD", shape))


def measure(cmd, timeout, env=None):
    """Runs cmd in a fresh Python grandchild so RUSAGE_CHILDREN is its own."""
    wrapper = ("import json, resource, subprocess, sys\n"
               "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
               "rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
               "print(json.dumps({'rc': p.returncode, 'out': p.stdout + p.stderr, 'rss': rss}))\n")
    try:
        p = subprocess.run([sys.executable, "-c", wrapper] + cmd, capture_output=True,
                           text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s: {' '.join(cmd)}", 0.0
    if p.returncode != 0:
        return p.returncode, p.stderr, 0.0
    r = json.loads(p.stdout.strip().splitlines()[-1])
    return r["rc"], r["out"], r["rss"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nautc", nargs="?",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--shapes", default="1x4x512x512x64,1x4x2048x2048x64",
                    help="BxHxNxMxD shapes, comma-separated")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of (nautc, then numpy), alternated (default 3)")
    ap.add_argument("--numpy-runs", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args()

    nautc = os.path.abspath(args.nautc)
    if not os.access(nautc, os.X_OK):
        sys.exit(f"nautc not found or not executable: {nautc}")
    shapes = [parse_shape(s) for s in args.shapes.split(",") if s]
    print(f"nautc: {nautc}\ncores: {os.cpu_count()}")

    if not args.no_verify:
        small = (1, 2, 100, 130, 64)
        rc, out, _ = measure([nautc, "run", KERNEL_FILE, "-k", KERNEL, "--shape",
                              shape_arg(small), "--check"], args.timeout)
        verdict = "PASS" if rc == 0 else "FAIL"
        last = out.strip().splitlines()[-1] if out.strip() else "no output"
        print(f"correctness at {shape_arg(small)}: {verdict}: {last}")

    env = dict(os.environ)
    for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(k, None)
    rows = []
    for shape in shapes:
        nautc_ms, numpy_ms, nautc_rss, numpy_rss, error = [], [], 0.0, 0.0, None
        for _ in range(args.rounds):
            rc, out, rss = measure([nautc, "run", KERNEL_FILE, "-k", KERNEL,
                                    "--shape", shape_arg(shape), "--time"],
                                   args.timeout)
            m = TIME_RE.search(out or "")
            if rc != 0 or not m:
                error = (out or "").strip().splitlines()[-1:] or ["no output"]
                break
            nautc_ms.append(float(m.group(1)))
            nautc_rss = max(nautc_rss, rss)
            rc, out, rss = measure([sys.executable, "-c", NUMPY_CHILD,
                                    "x".join(str(v) for v in shape),
                                    str(args.numpy_runs)], args.timeout, env)
            if rc != 0:
                error = ["numpy: " + out.strip()]
                break
            numpy_ms += json.loads(out.strip().splitlines()[-1])["times_ms"]
            numpy_rss = max(numpy_rss, rss)
        rows.append((shape, nautc_ms, numpy_ms, nautc_rss, numpy_rss, error))

    print()
    print(f"{'B x H x N x M x D':>22} {'nautc ms':>10} {'numpy ms':>10} "
          f"{'nautc/numpy':>11} {'nautc MiB':>10} {'numpy MiB':>10} {'S MiB':>8}")
    for shape, n_ms, np_ms, n_rss, np_rss, error in rows:
        name = "x".join(str(v) for v in shape)
        if error:
            print(f"{name:>22} error: {error[0]}")
            continue
        b, h, n, m, _ = shape
        score_mib = b * h * n * m * 4 / 2 ** 20
        nm, pm = statistics.median(n_ms), statistics.median(np_ms)
        print(f"{name:>22} {nm:>10.2f} {pm:>10.2f} {pm / nm:>11.2f} "
              f"{n_rss:>10.0f} {np_rss:>10.0f} {score_mib:>8.0f}")
    print("\nnautc/numpy: numpy's time over nautc's (above 1: nautc faster). "
          "MiB: peak resident memory of the process; S MiB: the f32 score "
          "matrix an unfused program would keep.")


if __name__ == "__main__":
    main()
