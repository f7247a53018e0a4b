#!/usr/bin/env python3
"""A decoding step's products on the host CPU: one row times a matrix
(f32), nautc's kernel against numpy's BLAS (sgemv), in turns.

    python3 bench/cpu_decode.py [--sizes 1024,4096,16384] [--rounds 5]

For each size S and each layout of the matrix: `gemm_f32`
(bench/kernels/gemm_f32.tensor: `x @ B`, B stored [in, out]) at M = 1,
N = K = S, and `linear_f32` (bench/kernels/linear_f32.tensor: `x @
W.T`, W stored [out, in], PyTorch's layout) at T = 1, D = F = S, with
the default schedule (the CPU model's: for x @ B, tiles up to 2048
elements wide, unpacked; for x @ W.T, a few dot products a tile, folded
along the reduced lanes; docs/autoscheduler.md), its result checked
against numpy's first (through the Python package); then each round
times `nautc run --time` (the median of its repeated runs) and numpy's
product in a child process of its own (the median of 20 calls after a
warm-up), in turns. Each in a process of its own: on a
2-core host, OpenBLAS's threads spin after a call and would take the
cores from the kernel's workers. Printed: the medians over the rounds,
numpy's over nautc's, and the tile the model chose. Needs the build
(nautc, and libnautilus_jit.so for the check: NAUTILUS_ROOT, as
docs/python.md).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

# This process only checks results: one BLAS thread, none left spinning.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python_stub"))
os.environ.setdefault("NAUTILUS_ROOT", os.path.join(ROOT, "build"))
import nautilus  # noqa: E402

NAUTC = os.path.join(ROOT, "build", "bin", "nautc")
TIME = re.compile(r"time: median ([0-9.]+) ms")
NUMPY_CHILD = r"""
import sys, time, statistics
import numpy as np
size = int(sys.argv[1])
product = sys.argv[2]
rng = np.random.default_rng(0)
x = rng.standard_normal((1, size), dtype=np.float32)
b = rng.standard_normal((size, size), dtype=np.float32)
run = eval("lambda: " + product)
for _ in range(3):
    run()
times = []
for _ in range(20):
    start = time.perf_counter()
    run()
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1e3)
"""
# (kernel, file, its shape at size S, its inputs from x and the matrix,
# numpy's product)
CASES = [
    ("gemm_f32", "gemm_f32.tensor", "M=1,N={s},K={s}", ("A", "B"), "x @ b"),
    ("linear_f32", "linear_f32.tensor", "T=1,D={s},F={s}", ("X", "W"),
     "x @ b.T"),
]


def kernel_file(file):
    return os.path.join(ROOT, "bench", "kernels", file)


def nautc_ms(kernel, file, shape):
    run = subprocess.run([NAUTC, "run", kernel_file(file), "-k", kernel,
                          "--shape", shape, "--time"],
                         capture_output=True, text=True, check=True)
    return float(TIME.search(run.stdout + run.stderr).group(1))


def numpy_ms(size, product):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OPENBLAS_CORETYPE",
                        "OPENBLAS_L2_SIZE")}
    run = subprocess.run([sys.executable, "-c", NUMPY_CHILD, str(size),
                          product],
                         capture_output=True, text=True, check=True, env=env)
    return float(run.stdout.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1024,4096,16384")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    rng = np.random.default_rng(11)
    print(f"{'product':22} | {'nautc ms':>9} {'numpy ms':>9} | "
          f"{'numpy/nautc':>11} | tile")
    for size in (int(s) for s in args.sizes.split(",") if s):
        for kernel, file, shape, names, product in CASES:
            shape = shape.format(s=size)
            program = nautilus.compile(
                kernel_file(file), kernel=kernel,
                shapes={k: int(v) for k, v in
                        (kv.split("=") for kv in shape.split(","))},
                explain=True, cache=False)
            chosen = re.search(r"chosen:\s+([0-9x]+( packed)?)",
                               program.explain())
            x = rng.standard_normal((1, size), dtype=np.float32)
            b = rng.standard_normal((size, size), dtype=np.float32)
            got = program.run(**{names[0]: x, names[1]: b})
            got = next(iter(got.values())).astype(np.float64)
            ref = eval(product, {"x": x.astype(np.float64),
                                 "b": b.astype(np.float64)})
            error = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
            if error > 1e-4:
                sys.exit(f"{product} at {size}: relative error {error:.3g}")
            del program, b
            times = {"nautc": [], "numpy": []}
            for _ in range(args.rounds):
                times["nautc"].append(nautc_ms(kernel, file, shape))
                times["numpy"].append(numpy_ms(size, product))
            ms = {k: statistics.median(v) for k, v in times.items()}
            label = f"{product} at {size}"
            print(f"{label:22} | {ms['nautc']:9.3f} {ms['numpy']:9.3f} | "
                  f"{ms['numpy'] / ms['nautc']:10.2f}x | "
                  f"{chosen.group(1) if chosen else '?'}", flush=True)

if __name__ == "__main__":
    main()
