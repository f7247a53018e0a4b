#!/usr/bin/env python3
"""Kernels compiled without their sizes, with and without the copies the
CPU model makes for ranges of one size (docs/autoscheduler.md, "Sizes
unbound at compile time"), timed on the host CPU in turns.

    python3 bench/cpu_launch_ranges.py [--rounds 7] [--runs 5]

For each case three programs of one kernel run the same inputs:
  ranges    compiled without sizes, the default: where the model divides
            sizes' values, one copy of a program a range, chosen at launch;
  one tile  compiled without sizes, each program given the one tile the
            model ranks best over every sample shape (a schedule file; what
            the compiler gave before the copies);
  bound     compiled with the case's sizes (the model's tile for them: the
            best a launch-time choice could do).
Each round times each program once (the fastest of --runs launches), in
turns; printed: the median over rounds, and the one tile's and the bound
program's time over the ranges'. Results are checked against numpy first.
Needs the build's libnautilus_jit.so (NAUTILUS_ROOT, as docs/python.md).
"""
import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time

# numpy here computes references only: one BLAS thread, so that none is
# left spinning after a call, taking a core from the kernels' workers (on
# a 2-core host the timings ran up to 1.2x slower, unevenly).
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python_stub"))
os.environ.setdefault("NAUTILUS_ROOT", os.path.join(ROOT, "build"))
import nautilus  # noqa: E402

RNG = np.random.default_rng(7)


def gemm_case(m, n, k):
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    return {"A": a, "B": b}, "C", ref


def softmax_case(r, c):
    x = RNG.standard_normal((r, c)).astype(np.float32)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {"X": x}, "Y", e / e.sum(axis=1, keepdims=True)


def layernorm_case(t, d):
    x = RNG.standard_normal((t, d)).astype(np.float32)
    g = RNG.standard_normal(d).astype(np.float32)
    b = RNG.standard_normal(d).astype(np.float32)
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return {"X": x, "g": g, "b": b}, "Y", (x - mean) / np.sqrt(var + 1e-5) * g + b


# (file, kernel, sizes, inputs)
CASES = [
    ("gemm.tensor", "gemm", {"M": 4096, "N": 1, "K": 4096},
     lambda: gemm_case(4096, 1, 4096)),
    ("gemm.tensor", "gemm", {"M": 1, "N": 4096, "K": 4096},
     lambda: gemm_case(1, 4096, 4096)),
    ("gemm.tensor", "gemm", {"M": 512, "N": 512, "K": 512},
     lambda: gemm_case(512, 512, 512)),
    ("norms.tensor", "softmax", {"R": 65536, "C": 32},
     lambda: softmax_case(65536, 32)),
    ("norms.tensor", "softmax", {"R": 2048, "C": 2048},
     lambda: softmax_case(2048, 2048)),
    ("norms.tensor", "layernorm", {"T": 65536, "D": 32},
     lambda: layernorm_case(65536, 32)),
]


def one_tile_schedule(explain):
    """A schedule file's JSON giving each CPU program the model's one tile:
    a divided program's ("one tile:  8x32 packed: ..." in --explain), the
    others' chosen ("chosen:    4x32: ..."; "8 split 2": a split)."""
    programs = {}
    current = None
    for line in explain.splitlines():
        m = re.match(r"explain: CPU program (\S+) over", line)
        if m:
            current = m.group(1)
        m = re.match(r"\s+(one tile|chosen):\s+([0-9x]+)( packed)?( split (\d+))?:", line)
        if m and current and (m.group(1) == "one tile" or current not in programs):
            tile = ", ".join(m.group(2).split("x"))
            pack = ", pack = true" if m.group(3) else ""
            split = f", reduce_split = {m.group(5)}" if m.group(5) else ""
            programs[current] = f"#tile.schedule<tile = [{tile}], threads = 1{split}{pack}>"
    return {"programs": programs}


def time_once(program, inputs, runs):
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        program.run(**inputs)
        best = min(best, time.perf_counter() - start)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    folder = tempfile.mkdtemp(prefix="launch_ranges.")
    print(f"{'case':34} | {'ranges ms':>9} {'one tile':>9} {'bound':>9} | "
          f"{'one/ranges':>10} {'bound/ranges':>12} | copies")
    for file, kernel, sizes, make in CASES:
        path = os.path.join(ROOT, "examples", file)
        ranges = nautilus.compile(path, kernel=kernel, explain=True, cache=False)
        schedule = one_tile_schedule(ranges.explain())
        copies = sum(int(m.group(1)) for m in re.finditer(r"chosen:\s+(\d+) copies of the program", ranges.explain()))
        programs = {"ranges": ranges}
        if schedule["programs"]:
            file_path = os.path.join(folder, f"{kernel}.json")
            with open(file_path, "w") as f:
                json.dump(schedule, f)
            programs["one tile"] = nautilus.compile(path, kernel=kernel, schedule=file_path, cache=False)
        else:
            programs["one tile"] = ranges
        programs["bound"] = nautilus.compile(path, kernel=kernel, shapes=sizes, cache=False)
        inputs, output, ref = make()
        for name, p in programs.items():
            got = p.run(**inputs)[output].astype(np.float64)
            error = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
            if error > 1e-2:
                sys.exit(f"{kernel} {sizes} ({name}): relative error {error:.3g}")
        times = {name: [] for name in programs}
        for _ in range(args.rounds):
            for name, p in programs.items():
                times[name].append(time_once(p, inputs, args.runs))
        ms = {name: statistics.median(t) * 1e3 for name, t in times.items()}
        label = f"{kernel} " + ",".join(f"{k}={v}" for k, v in sizes.items())
        print(f"{label:34} | {ms['ranges']:9.3f} {ms['one tile']:9.3f} {ms['bound']:9.3f} | "
              f"{ms['one tile'] / ms['ranges']:9.2f}x {ms['bound'] / ms['ranges']:11.2f}x | {copies}")


if __name__ == "__main__":
    main()
