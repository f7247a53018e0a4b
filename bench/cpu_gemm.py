#!/usr/bin/env python3
"""CPU f32 GEMM: nautc's JIT-compiled kernel against numpy's BLAS (A @ B).

Usage:
    python3 bench/cpu_gemm.py [PATH/TO/nautc] [--sizes 1024,512,2048]
                              [--numpy-runs 20] [--no-verify]

The nautc binary defaults to ../build/bin/nautc relative to this script.

nautc is timed with `nautc run bench/kernels/gemm_f32.tensor -k gemm_f32
--shape M=S,N=S,K=S --time` (nautc does its own repetitions and prints the
median); its inputs are random. numpy is timed in a separate child process so
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
AIM_FRACTION = 0.20  # the aim: nautc at 20% of numpy's BLAS or better

# Run in a child process with the BLAS environment variables removed.
NUMPY_CHILD = r"""
import json, sys, time
import numpy as np
sizes = [int(s) for s in sys.argv[1].split(",")]
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
for s in sizes:
    a = rng.standard_normal((s, s), dtype=np.float32)
    b = rng.standard_normal((s, s), dtype=np.float32)
    c = np.empty((s, s), dtype=np.float32)
    for _ in range(3):  # warm-up: thread pool start, page faults
        np.matmul(a, b, out=c)
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        np.matmul(a, b, out=c)
        ts.append((time.perf_counter() - t0) * 1e3)
    out["times_ms"][str(s)] = ts
print(json.dumps(out))
"""

TIME_RE = re.compile(r"time:\s*median\s+([0-9.eE+-]+)\s*ms\s+over\s+(\d+)\s+runs")


def gflops(size, ms):
    return 2.0 * size ** 3 / (ms * 1e-3) / 1e9


def run_nautc_time(nautc, size, timeout):
    cmd = [nautc, "run", KERNEL_FILE, "-k", KERNEL,
           "--shape", f"M={size},N={size},K={size}", "--time"]
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


def verify_nautc(nautc, size, timeout):
    """Run nautc on known inputs and compare with numpy (float64 reference)."""
    import numpy as np
    rng = np.random.default_rng(1)
    a = rng.standard_normal((size, size), dtype=np.float32)
    b = rng.standard_normal((size, size), dtype=np.float32)
    with tempfile.TemporaryDirectory(prefix="nautc_gemm_") as d:
        np.save(os.path.join(d, "A.npy"), a)
        np.save(os.path.join(d, "B.npy"), b)
        cmd = [nautc, "run", KERNEL_FILE, "-k", KERNEL,
               "--shape", f"M={size},N={size},K={size}",
               "--input", f"A={d}/A.npy", "--input", f"B={d}/B.npy",
               "--save", d]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        path = os.path.join(d, "C.npy")
        if p.returncode != 0 or not os.path.exists(path):
            return False, f"exit {p.returncode}: {(p.stderr or p.stdout).strip()}"
        c = np.load(path)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    err = float(np.abs(c.astype(np.float64) - ref).max())
    # f32 accumulation over K terms of N(0,1)*N(0,1): error ~ sqrt(K) * eps * |terms|
    tol = 1e-4 * size ** 0.5 * 4
    ok = c.shape == ref.shape and err <= tol
    return ok, f"max abs error vs float64 reference {err:.3g} (tolerance {tol:.3g})"


def run_numpy(sizes, runs, timeout):
    env = dict(os.environ)
    removed = {k: env.pop(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
               if k in env}
    p = subprocess.run([sys.executable, "-c", NUMPY_CHILD,
                        ",".join(str(s) for s in sizes), str(runs)],
                       capture_output=True, text=True, env=env, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError("numpy child failed:\n" + p.stderr)
    return json.loads(p.stdout.strip().splitlines()[-1]), removed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nautc", nargs="?",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--sizes", default="1024,512,2048",
                    help="square sizes; the first is the headline (default 1024,512,2048)")
    ap.add_argument("--numpy-runs", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=300,
                    help="seconds allowed for one nautc invocation")
    ap.add_argument("--no-verify", action="store_true",
                    help="skip the correctness check of nautc against numpy")
    args = ap.parse_args()

    nautc = os.path.abspath(args.nautc)
    if not os.access(nautc, os.X_OK):
        sys.exit(f"nautc not found or not executable: {nautc}")
    sizes = [int(s) for s in args.sizes.split(",") if s]

    print(f"nautc: {nautc}")
    print(f"cores: {os.cpu_count()}")

    if not args.no_verify:
        ok, msg = verify_nautc(nautc, sizes[0], args.timeout)
        print(f"correctness at {sizes[0]}^3: {'PASS' if ok else 'FAIL'}: {msg}")

    # nautc first, then numpy: never both at once (they would share 2 cores).
    nautc_res = {}
    for s in sizes:
        nautc_res[s] = run_nautc_time(nautc, s, args.timeout)

    np_res, removed = run_numpy(sizes, args.numpy_runs, args.timeout)
    if removed:
        print("numpy measured with " + ", ".join(f"{k} (was {v!r})" for k, v in removed.items())
              + " unset")
    else:
        print("numpy measured with OPENBLAS_CORETYPE/OPENBLAS_L2_SIZE unset (neither was set)")
    print(f"numpy {np_res['numpy']}; BLAS: ", end="")
    if np_res["blas"] is None:
        print("unknown (threadpoolctl not installed; pip install threadpoolctl)")
    else:
        print("; ".join(f"{b['internal_api']} {b['version']} kernel={b['architecture']} "
                        f"threads={b['num_threads']}" for b in np_res["blas"]) or "none found")

    print()
    hdr = f"{'size':>6} | {'nautc ms':>9} {'GFLOP/s':>8} | {'numpy ms':>9} {'GFLOP/s':>8} | {'nautc/numpy':>11}"
    print(hdr)
    print("-" * len(hdr))
    errors = []
    for s in sizes:
        n_ms, n_runs, err = nautc_res[s]
        np_ms = statistics.median(np_res["times_ms"][str(s)])
        if n_ms is None:
            errors.append(f"{s}^3: {err}")
            print(f"{s:>6} | {'FAILED':>9} {'':>8} | {np_ms:9.3f} {gflops(s, np_ms):8.1f} | {'-':>11}")
            continue
        frac = np_ms / n_ms  # nautc throughput as a fraction of numpy's
        print(f"{s:>6} | {n_ms:9.3f} {gflops(s, n_ms):8.1f} | {np_ms:9.3f} "
              f"{gflops(s, np_ms):8.1f} | {frac:10.1%}")
    print()
    print(f"nautc: median of its own --time runs (inputs random); numpy: median of "
          f"{args.numpy_runs} runs after 3 warm-up runs. GFLOP/s = 2*S^3/time.")
    head = sizes[0]
    n_ms = nautc_res[head][0]
    if n_ms is not None:
        frac = statistics.median(np_res["times_ms"][str(head)]) / n_ms
        verdict = "meets" if frac >= AIM_FRACTION else "misses"
        print(f"aim: nautc >= {AIM_FRACTION:.0%} of numpy at {head}^3: "
              f"measured {frac:.1%}, {verdict} the aim")
    for e in errors:
        print("nautc error: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
