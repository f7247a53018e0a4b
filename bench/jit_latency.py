#!/usr/bin/env python3
"""Compile latency of the in-process JIT (nt_compile), against Triton.

Usage:
    python3 bench/jit_latency.py [--root BUILD_OR_PREFIX] [--runs 5] [--no-triton]

Measures, through the Python package (python_stub/: ctypes over the C API, so
the time is nt_compile's own plus a few microseconds of ctypes):

- cold JIT compile: attention (examples/attention.tensor, bf16, head dim 128,
  B=4, H=16, N=M=4096 bound) to sm_90 PTX in process, caches off
  (NT_COMPILE_NO_CACHE); median of --runs, and the first call apart (it pays
  one-time set-up: dialect registration, LLVM's targets, and the verifier's
  proofs unless its cache has them); then the same without verification
  (NT_COMPILE_NO_VERIFY);
- memory-cache hit: the same call again in the same process, caches on;
- disk-cache hit: the same call in a fresh process (its memory cache empty,
  the disk cache warm), timed inside that process; median of --runs
  processes.

Triton: its in-process time to PTX for the same attention (the flash
kernel of bench/compile_time.py, through triton.compile; Triton's own stage
timings up to PTX), median of --runs. The aim (issue 22): the JIT compile at
most half of Triton's; a warm cache hit under 2 ms.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
ATTENTION = os.path.join(ROOT, "examples", "attention.tensor")
SHAPES = {"B": 4, "H": 16, "N": 4096, "M": 4096, "D": 128}


def compile_once(nautilus, cache, cache_dir, verify=True):
    start = time.perf_counter()
    program = nautilus.compile(ATTENTION, kernel="attention", target="sm_90",
                               shapes=SHAPES, cache=cache, cache_dir=cache_dir,
                               verify=verify)
    elapsed = time.perf_counter() - start
    return elapsed, program


CHILD = """
import sys, time
sys.path.insert(0, {stub!r})
import nautilus
start = time.perf_counter()
p = nautilus.compile({path!r}, kernel="attention", target="sm_90",
                     shapes={shapes!r}, cache_dir={cache!r})
print(time.perf_counter() - start, p.cache_hit)
"""


def disk_hit_in_child(cache_dir):
    code = CHILD.format(stub=os.path.join(ROOT, "python_stub"),
                        path=ATTENTION, shapes=SHAPES, cache=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True,
                         text=True, check=True, env=os.environ).stdout.split()
    return float(out[0]), int(out[1])


def ms(seconds):
    return f"{seconds * 1e3:.2f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(ROOT, "build"),
                    help="a Nautilus build or install prefix (NAUTILUS_ROOT)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-triton", action="store_true")
    args = ap.parse_args()
    os.environ["NAUTILUS_ROOT"] = os.path.abspath(args.root)
    sys.path.insert(0, os.path.join(ROOT, "python_stub"))
    import nautilus

    print(f"{nautilus.version()}, {os.cpu_count()} cores; attention bf16 "
          f"{', '.join(f'{k}={v}' for k, v in SHAPES.items())} to sm_90 PTX")
    # The kernel caches off; the verifier's proofs come from its cache
    # after the first call (a repeated structure), or are skipped.
    cold = [compile_once(nautilus, False, None)[0] for _ in range(args.runs + 1)]
    print(f"JIT compile, caches off: median of {args.runs} {ms(statistics.median(cold[1:]))}"
          f"   first call in the process {ms(cold[0])}")
    unverified = [compile_once(nautilus, False, None, verify=False)[0]
                  for _ in range(args.runs)]
    print(f"  without verification (NT_COMPILE_NO_VERIFY): median "
          f"{ms(statistics.median(unverified))}")
    with tempfile.TemporaryDirectory() as cache_dir:
        _, program = compile_once(nautilus, True, cache_dir)
        assert program.cache_hit == 0, program.cache_hit
        memory = []
        for _ in range(max(args.runs, 20)):
            t, p = compile_once(nautilus, True, cache_dir)
            assert p.cache_hit == 1, p.cache_hit
            memory.append(t)
        print(f"memory-cache hit: median {ms(statistics.median(memory))}"
              f"   max {ms(max(memory))}")
        disk = []
        for _ in range(args.runs):
            t, hit = disk_hit_in_child(cache_dir)
            assert hit == 2, hit
            disk.append(t)
        print(f"disk-cache hit (a fresh process): median {ms(statistics.median(disk))}"
              f"   max {ms(max(disk))}")
    print(f"  PTX: {len(program.ptx)} bytes")
    if args.no_triton:
        print("Triton: skipped (--no-triton)")
        return 0
    sys.path.insert(0, HERE)
    from compile_time import bench_triton
    tres, terr = bench_triton(args.runs, "sm_90")
    if terr:
        print(f"Triton: {terr}")
        return 0
    if not tres["to_ptx"]:
        print("Triton: no stage timings up to PTX")
        return 0
    triton = statistics.median([t for t, _, _ in tres["to_ptx"]])
    jit = statistics.median(cold[1:])
    print(f"Triton {tres['version']}, in process, up to PTX: median {ms(triton)}")
    print(f"JIT / Triton: {jit / triton:.2f} (aim: at most 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
