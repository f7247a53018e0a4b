#!/usr/bin/env python3
"""CPU attention: nautc's JIT-compiled kernel against numpy, and its memory.

Usage:
    python3 bench/cpu_attention.py [PATH/TO/nautc] [--shapes 1x4x512x512x64,...]
                                   [--rounds 3] [--numpy-runs 5] [--no-verify]
                                   [--kernel K] [--group 2] [--compare NAUTC]

The nautc binary defaults to ../build/bin/nautc relative to this script.

nautc runs `examples/attention.tensor` (bf16 inputs, f32 accumulation) with
`nautc run ... --time` (its own repetitions, the median printed); numpy runs
the same mathematics in float32 (S = Q K^T / sqrt(D), masked for
attention_causal, a stable softmax, O = P V with BLAS) in a child process.
`--compare OLD_NAUTC` times another build in the same rounds (the
four-program attention before streams, say). Each tool's peak resident memory is
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
causal = sys.argv[3] == "attention_causal"
rng = np.random.default_rng(0)
# key m is seen by query row r when m <= r + (M - N)
hidden = np.arange(m)[None, :] > np.arange(n)[:, None] + (m - n)
q = rng.standard_normal((b, h, n, d), dtype=np.float32)
k = rng.standard_normal((b, h, m, d), dtype=np.float32)
v = rng.standard_normal((b, h, m, d), dtype=np.float32)
def attention():
    s = np.matmul(q, k.transpose(0, 1, 3, 2)) * np.float32(d ** -0.5)
    if causal:
        s[..., hidden] = -np.inf
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


def shape_arg(shape, kernel=KERNEL, group=2):
    text = ",".join(f"{k}={v}" for k, v in zip("BHNMD", shape))
    if kernel == "attention_gqa":
        text += f",G={max(shape[1] // group, 1)}"
    return text


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
    ap.add_argument("--kernel", default=KERNEL,
                    help="attention, attention_causal or attention_gqa (G = H / "
                         "--group)")
    ap.add_argument("--group", type=int, default=2,
                    help="attention_gqa: query heads a key/value head serves "
                         "(default 2); numpy computes the same attention with "
                         "every head's K and V")
    ap.add_argument("--compare", metavar="NAUTC",
                    help="another nautc (an older build) timed in the same rounds")
    args = ap.parse_args()

    nautc = os.path.abspath(args.nautc)
    if not os.access(nautc, os.X_OK):
        sys.exit(f"nautc not found or not executable: {nautc}")
    shapes = [parse_shape(s) for s in args.shapes.split(",") if s]
    print(f"nautc: {nautc}\ncores: {os.cpu_count()}")

    if not args.no_verify:
        small = (1, 2, 100, 130, 64)
        rc, out, _ = measure([nautc, "run", KERNEL_FILE, "-k", args.kernel,
                              "--shape", shape_arg(small, args.kernel, args.group),
                              "--check"],
                             args.timeout)
        verdict = "PASS" if rc == 0 else "FAIL"
        last = out.strip().splitlines()[-1] if out.strip() else "no output"
        print(f"correctness at {shape_arg(small)}: {verdict}: {last}")

    env = dict(os.environ)
    for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        env.pop(k, None)
    def time_nautc(binary, shape):
        rc, out, rss = measure([binary, "run", KERNEL_FILE, "-k", args.kernel,
                                "--shape",
                                shape_arg(shape, args.kernel, args.group),
                                "--time"], args.timeout)
        m = TIME_RE.search(out or "")
        if rc != 0 or not m:
            last = (out or "").strip().splitlines()[-1:] or ["no output"]
            return None, rss, last[0]
        return float(m.group(1)), rss, None

    rows = []
    for shape in shapes:
        times = {"nautc": [], "compare": [], "numpy": []}
        rss = {"nautc": 0.0, "compare": 0.0, "numpy": 0.0}
        error = None
        for _ in range(args.rounds):
            for name, binary in (("nautc", nautc), ("compare", args.compare)):
                if not binary:
                    continue
                ms, peak, error = time_nautc(os.path.abspath(binary), shape)
                if error:
                    error = f"{name}: {error}"
                    break
                times[name].append(ms)
                rss[name] = max(rss[name], peak)
            if error:
                break
            rc, out, peak = measure([sys.executable, "-c", NUMPY_CHILD,
                                     "x".join(str(v) for v in shape),
                                     str(args.numpy_runs), args.kernel],
                                    args.timeout, env)
            if rc != 0:
                error = "numpy: " + out.strip()
                break
            times["numpy"] += json.loads(out.strip().splitlines()[-1])["times_ms"]
            rss["numpy"] = max(rss["numpy"], peak)
        rows.append((shape, times, rss, error))

    print()
    compare = " compare ms | compare MiB |" if args.compare else ""
    print(f"kernel: {args.kernel}" + (f" (G = H / {args.group})"
                                       if args.kernel == "attention_gqa" else ""))
    print("| B x H x N x M x D | nautc ms | numpy ms | numpy/nautc | nautc MiB |"
          f" numpy MiB | S MiB |{compare}")
    print("|---" * (7 + (2 if args.compare else 0)) + "|")
    for shape, times, rss, error in rows:
        name = "x".join(str(v) for v in shape)
        if error:
            print(f"| {name} | error: {error} |")
            continue
        b, h, n, m, _ = shape
        score_mib = b * h * n * m * 4 / 2 ** 20
        nm, pm = statistics.median(times["nautc"]), statistics.median(times["numpy"])
        line = (f"| {name} | {nm:.2f} | {pm:.2f} | {pm / nm:.2f} | "
                f"{rss['nautc']:.0f} | {rss['numpy']:.0f} | {score_mib:.0f} |")
        if args.compare:
            line += (f" {statistics.median(times['compare']):.2f} |"
                     f" {rss['compare']:.0f} |")
        print(line)
    print("\nnumpy/nautc: numpy's time over nautc's (above 1: nautc faster). "
          "MiB: peak resident memory of the process; S MiB: the f32 score "
          "matrix an unfused program keeps (the compared nautc's, where it "
          "is older, in a workspace).")


if __name__ == "__main__":
    main()
