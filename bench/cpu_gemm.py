#!/usr/bin/env python3
"""CPU f32 GEMM: nautc's JIT-compiled kernel against numpy's BLAS (A @ B).

Usage:
    python3 bench/cpu_gemm.py [PATH/TO/nautc] [--sizes 1024,512,2048,1024x1024x8192]
                              [--rounds 3]
                              [--numpy-runs 20] [--no-verify] [--schedule auto]
                              [--aim 0.8]

The nautc binary defaults to ../build/bin/nautc relative to this script.

nautc is timed with `nautc run bench/kernels/gemm_f32.tensor -k gemm_f32
--shape M=S,N=S,K=S --time` (nautc does its own repetitions and prints the
median), with `--schedule S` when given (`auto`: the CPU model's register
block, packing and blocks of K, issue 20's aim of 80% of numpy at 1024^3
and 2048^3); its inputs are random. A size is a square S or MxNxK (a
deep K: 1024x1024x8192, where the packed panel outgrows L2 and the model
folds K in blocks). numpy is timed in a separate child process so
that OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE, which OpenBLAS reads when it is
loaded, can be unset for the numpy measurement only (see the machine notes:
these variables are set on some hosts for old OpenBLAS builds and slow a
current numpy). The child reports which BLAS kernel it ran through
threadpoolctl when that is installed. numpy may use all cores.

Before timing, nautc's result at the first size is compared with numpy's on
the same inputs (--input/--save), so that the table is about a correct kernel.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_FILE = os.path.join(HERE, "kernels", "gemm_f32.tensor")
KERNEL = "gemm_f32"
AIM_FRACTION = 0.20  # the first aim: nautc at 20% of numpy's BLAS or better

# Run in a child process with the BLAS environment variables removed.
NUMPY_CHILD = r"""
import json, sys, time
import numpy as np
shapes = [tuple(int(v) for v in s.split("x")) for s in sys.argv[1].split(",")]
runs = int(sys.argv[2])
info = None
try:
    import threadpoolctl
    info = [
        {k: d.get(k) for k in ("internal_api", "architecture", "num_threads",
                                "version", "threading_layer", "filepath")}
        for d in threadpoolctl.threadpool_info() if d.get("user_api") == "blas"
    ]
except ImportError:
    pass
out = {"numpy": np.__version__, "blas": info, "times_ms": {}}
rng = np.random.default_rng(0)
for m, n, k in shapes:
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    c = np.empty((m, n), dtype=np.float32)
    for _ in range(3):  # warm-up: thread pool start, page faults
        np.matmul(a, b, out=c)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        np.matmul(a, b, out=c)
        ts.append((time.perf_counter() - t0) * 1e3)
    out["times_ms"][f"{m}x{n}x{k}"] = ts
print(json.dumps(out))
"""

TIME_RE = re.compile(r"time:\s*median\s+([0-9.eE+-]+)\s*ms\s+over\s+(\d+)\s+runs")


def parse_shape(text):
    """(M, N, K) of a size: a square S, or MxNxK."""
    values = [int(v) for v in text.split("x")]
    if len(values) == 1:
        return (values[0],) * 3
    if len(values) != 3:
        raise ValueError(f"a size is S or MxNxK, not {text!r}")
    return tuple(values)


def label(shape):
    m, n, k = shape
    return str(m) if m == n == k else f"{m}x{n}x{k}"


def shape_flag(shape):
    m, n, k = shape
    return f"M={m},N={n},K={k}"


def gflops(shape, ms):
    m, n, k = shape
    return 2.0 * m * n * k / (ms * 1e-3) / 1e9


SCHEDULE = []  # ["--schedule", S] when --schedule is given


def run_nautc_time(nautc, shape, timeout):
    cmd = [nautc, "run", KERNEL_FILE, "-k", KERNEL,
           "--shape", shape_flag(shape), "--time"] + SCHEDULE
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None, f"timed out after {timeout} s: {' '.join(cmd)}"
    m = TIME_RE.search(p.stdout + p.stderr)
    if p.returncode != 0 or not m:
        err = (p.stderr or p.stdout).strip().splitlines()
        return None, None, (f"exit {p.returncode}: {' '.join(cmd)}: "
                            + (err[-1] if err else "no output"))
    return float(m.group(1)), int(m.group(2)), None


def verify_nautc(nautc, shape, timeout):
    """Run nautc on known inputs and compare with numpy (float64 reference)."""
    import numpy as np
    m, n, k = shape
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k), dtype=np.float32)
    b = rng.standard_normal((k, n), dtype=np.float32)
    with tempfile.TemporaryDirectory(prefix="nautc_gemm_") as d:
        np.save(os.path.join(d, "A.npy"), a)
        np.save(os.path.join(d, "B.npy"), b)
        cmd = [nautc, "run", KERNEL_FILE, "-k", KERNEL,
               "--shape", shape_flag(shape),
               "--input", f"A={d}/A.npy", "--input", f"B={d}/B.npy",
               "--save", d] + SCHEDULE
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        path = os.path.join(d, "C.npy")
        if p.returncode != 0 or not os.path.exists(path):
            return False, f"exit {p.returncode}: {(p.stderr or p.stdout).strip()}"
        c = np.load(path)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.abs(c.astype(np.float64) - ref).max())
    # f32 accumulation over K terms of N(0,1)*N(0,1): error ~ sqrt(K) * eps * |terms|
    tol = 1e-4 * k ** 0.5 * 4
    ok = c.shape == ref.shape and err <= tol
    return ok, f"max abs error vs float64 reference {err:.3g} (tolerance {tol:.3g})"


def run_numpy(sizes, runs, timeout):
    env = dict(os.environ)
    removed = {k: env.pop(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
               if k in env}
    p = subprocess.run([sys.executable, "-c", NUMPY_CHILD,
                        ",".join("x".join(map(str, s)) for s in sizes),
                        str(runs)],
                       capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("numpy child failed:\n" + p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1]), removed


def cpu_ticks():
    """(steal, total) jiffies from /proc/stat, or None where unavailable."""
    try:
        with open("/proc/stat") as f:
            vals = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (vals[7] if len(vals) > 7 else 0), sum(vals[:8])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nautc", nargs="?",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--sizes", default="1024,512,2048",
                    help="square sizes S or shapes MxNxK; the first is the "
                         "headline (default 1024,512,2048)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="rounds of (nautc, then numpy), alternated so both see the "
                         "same machine conditions (default 3)")
    ap.add_argument("--numpy-runs", type=int, default=20,
                    help="timed numpy runs per size per round (default 20)")
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds allowed for one nautc invocation")
    ap.add_argument("--no-verify", action="store_true",
                    help="skip the correctness check of nautc against numpy")
    ap.add_argument("--schedule", default=None,
                    help="nautc's --schedule (default: the CPU's, the "
                         "model's (auto); heuristics: the hand-written rules)")
    ap.add_argument("--aim", type=float, default=AIM_FRACTION,
                    help="the fraction of numpy's throughput each size >= "
                         "1024 should reach (default %(default)s)")
    args = ap.parse_args()
    if args.schedule:
        SCHEDULE[:] = ["--schedule", args.schedule]

    nautc = os.path.abspath(args.nautc)
    if not os.access(nautc, os.X_OK):
        sys.exit(f"nautc not found or not executable: {nautc}")
    try:
        sizes = [parse_shape(s) for s in args.sizes.split(",") if s]
    except ValueError as e:
        sys.exit(f"--sizes: {e}")

    print(f"nautc: {nautc}" + (f" --schedule {args.schedule}" if args.schedule else ""))
    print(f"cores: {os.cpu_count()}")

    if not args.no_verify:
        ok, msg = verify_nautc(nautc, sizes[0], args.timeout)
        print(f"correctness at {label(sizes[0])}: {'PASS' if ok else 'FAIL'}: {msg}")

    # Alternate nautc and numpy, never both at once (they would share the cores).
    nautc_meds = {s: [] for s in sizes}   # one median per nautc invocation
    nautc_runs = {s: 0 for s in sizes}
    errors = {}
    np_times = {s: [] for s in sizes}
    np_info = removed = None
    t0 = cpu_ticks()
    for _ in range(args.rounds):
        for s in sizes:
            if s in errors:
                continue
            ms, n, err = run_nautc_time(nautc, s, args.timeout)
            if err:
                errors[s] = err
            else:
                nautc_meds[s].append(ms)
                nautc_runs[s] += n
        np_info, removed = run_numpy(sizes, args.numpy_runs, args.timeout)
        for s in sizes:
            np_times[s] += np_info["times_ms"]["x".join(map(str, s))]
    t1 = cpu_ticks()

    if removed:
        print("numpy measured with " + ", ".join(f"{k} (was {v!r})" for k, v in removed.items())
              + " unset")
    else:
        print("numpy measured with OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset (neither was set)")
    print(f"numpy {np_info['numpy']}; BLAS: ", end="")
    if np_info["blas"] is None:
        print("unknown (threadpoolctl not installed; pip install threadpoolctl)")
    else:
        print("; ".join(f"{b['internal_api']} {b['version']} kernel={b['architecture']} "
                        f"threads={b['num_threads']}" for b in np_info["blas"]) or "none found")
    if t0 and t1 and t1[1] > t0[1]:
        print(f"CPU time stolen by the hypervisor during the run: "
              f"{(t1[0] - t0[0]) / (t1[1] - t0[1]):.1%}")

    print()
    width = max(5, max(len(label(s)) for s in sizes))
    hdr = (f"{'size':>{width}} | {'nautc ms':>9} {'GFLOP/s':>8} {'best ms':>8} | "
           f"{'numpy ms':>9} {'GFLOP/s':>8} {'best ms':>8} | {'nautc/numpy':>11} {'(best)':>7}")
    print(hdr)
    print("-" * len(hdr))
    for s in sizes:
        np_med, np_best = statistics.median(np_times[s]), min(np_times[s])
        np_cols = f"{np_med:9.3f} {gflops(s, np_med):8.1f} {np_best:8.3f}"
        if not nautc_meds[s]:
            print(f"{label(s):>{width}} | {'FAILED':>9} {'':>8} {'':>8} | {np_cols} | {'-':>11} {'-':>7}")
            continue
        n_med, n_best = statistics.median(nautc_meds[s]), min(nautc_meds[s])
        # nautc's throughput as a fraction of numpy's
        print(f"{label(s):>{width}} | {n_med:9.3f} {gflops(s, n_med):8.1f} {n_best:8.3f} | {np_cols} | "
              f"{np_med / n_med:11.1%} {np_best / n_best:7.1%}")
    print()
    print(f"nautc ms: median over {args.rounds} invocations of the median that "
          f"`nautc run --time` prints (random inputs); best ms: the lowest of those medians.")
    print(f"numpy ms: median of {args.numpy_runs} x {args.rounds} runs (3 warm-up runs per "
          f"round); best ms: the fastest single run. GFLOP/s = 2*M*N*K / ms.")
    for s in sizes:
        if min(s) < 1024 or not nautc_meds[s]:
            continue
        frac = statistics.median(np_times[s]) / statistics.median(nautc_meds[s])
        verdict = "meets" if frac >= args.aim else "misses"
        print(f"aim: nautc at >= {args.aim:.0%} of numpy at {label(s)} (medians): "
              f"measured {frac:.1%}, {verdict} the aim")
    for s, e in errors.items():
        print(f"nautc error at {label(s)}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
