#!/usr/bin/env python3
"""Example kernels compiled without their sizes, run at random shapes.

A kernel compiled without sizes may hold copies of a program for ranges
of one or two sizes, each with its own tile, the copy launched chosen by
the sizes (docs/autoscheduler.md, "Tiles chosen at launch"). Each case
takes an example kernel (GEMMs, the MLP, the norms, attention), random sizes
(each 1 one time in three, else ragged: up to 80 mostly, up to 700 one
time in six, so that ranges of a few rows or columns and of many are
both met; a boundary above 700 is not reached), random inputs, and compares the output of the kernel compiled
once without sizes (through the Python package, as an application runs
it) with that of the kernel compiled for the case's sizes with the
hand-written heuristics' schedules (one tile, bound sizes: another
lowering of the same mathematics). Anything but a match within the
outputs' precision is reported with the case.

With `--target sm_80` or `sm_90` the kernel is compiled for that GPU
under `--schedule auto`, each size left unbound one time in two (a
tensor-core contraction whose M or N is unbound takes a schedule ranked
over sample shapes, or copies for ranges of M or N: "A contraction
whose M or N is unbound"; GPU element-wise programs, reductions and
flash kernels likewise: "GPU programs of unbound sizes"; attention one
time in three a decoding step, N, H and D bound), and run on the SIMT
emulator; the reference
is the heuristics' kernel for the case's sizes on the CPU. The work is
bounded lower there (the emulator runs every thread).

    python3 scripts/fuzz_launch_ranges.py [--start 0] [--count 60] [--target sm_90]

Needs the build's libnautilus_jit.so (NAUTILUS_ROOT, docs/python.md).
Not part of the test suite.
"""
import argparse
import os
import random
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python_stub"))
os.environ.setdefault("NAUTILUS_ROOT", os.path.join(ROOT, "build"))
import nautilus  # noqa: E402

# kernel: (file, {input: (dtype, dims)}, output, relative tolerance)
KERNELS = {
    "attention": ("attention.tensor", {"Q": ("bf16", "BHND"), "K": ("bf16", "BHMD"),
                                       "V": ("bf16", "BHMD")}, "O", 3e-2),
    "gemm": ("gemm.tensor", {"A": ("f16", "MK"), "B": ("f16", "KN")}, "C", 1e-3),
    "gemm_bias_gelu": ("gemm.tensor", {"A": ("bf16", "MK"), "B": ("bf16", "KN"),
                                       "bias": ("f32", "N")}, "C", 2e-2),
    "bmm_nt": ("gemm.tensor", {"A": ("bf16", "ZMK"), "B": ("bf16", "ZNK")}, "C", 1e-3),
    "swiglu_mlp": ("mlp.tensor", {"X": ("bf16", "TD"), "Wg": ("bf16", "DF"),
                                  "Wu": ("bf16", "DF"), "Wd": ("bf16", "FD")}, "Y", 3e-2),
    "softmax": ("norms.tensor", {"X": ("f32", "RC")}, "Y", 1e-4),
    "rmsnorm": ("norms.tensor", {"X": ("bf16", "TD"), "g": ("bf16", "D")}, "Y", 2e-2),
    "layernorm": ("norms.tensor", {"X": ("f32", "TD"), "g": ("f32", "D"),
                                   "b": ("f32", "D")}, "Y", 1e-3),
}


def to_bf16_bits(values):
    return (values.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def from_output(array, dtype):
    if dtype == "bf16":
        return (array.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return array.astype(np.float64)


def inputs_for(rng, spec, sizes):
    out = {}
    for name, (dtype, dims) in spec.items():
        shape = tuple(sizes[d] for d in dims)
        values = np.array([rng.uniform(-1, 1) for _ in range(int(np.prod(shape)))],
                          dtype=np.float32).reshape(shape)
        out[name] = (to_bf16_bits(values) if dtype == "bf16" else
                     values.astype(np.float16 if dtype == "f16" else np.float32))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=60)
    ap.add_argument("--target", default="cpu", choices=["cpu", "sm_80", "sm_90"])
    args = ap.parse_args()
    gpu = args.target != "cpu"
    unbound = {}
    failures = refused = 0
    for seed in range(args.start, args.start + args.count):
        rng = random.Random(seed)
        kernel = rng.choice(sorted(KERNELS))
        file, spec, output, tolerance = KERNELS[kernel]
        path = os.path.join(ROOT, "examples", file)
        names = sorted({d for _, dims in spec.values() for d in dims})
        def extent():
            draw = rng.random()
            return 1 if draw < 1 / 3 else rng.randint(81, 700) if draw < 1 / 2 else rng.randint(2, 80)
        sizes = {n: extent() for n in names}
        # For attention on a GPU one time in three, a decoding step: one
        # query and a few heads bound with D, B and M not (copies for
        # ranges of them, the copy for few heads and many keys splitting
        # the keys).
        decoding = gpu and kernel == "attention" and rng.random() < 1 / 3
        if decoding:
            sizes.update(N=1, H=rng.choice([1, 2, 4, 8]), D=64,
                         M=rng.randint(200, 1200))
        # (The work bounded: the largest size halved until the product of
        # them all is at most 2^25.)
        while np.prod([float(v) for v in sizes.values()]) > 2 ** (21 if gpu else 25):
            largest = max(sizes, key=lambda n: sizes[n])
            sizes[largest] //= 2
        # On a GPU, each size bound at compile time one time in two (a
        # decoding step: N, H and D).
        fixed = {n: v for n, v in sizes.items() if gpu and rng.random() < 0.5}
        if decoding:
            fixed = {n: sizes[n] for n in ("N", "H", "D")}
        key = (kernel, tuple(sorted(fixed.items())))
        if key not in unbound:
            unbound[key] = (nautilus.compile(path, kernel=kernel, target=args.target,
                                             shapes=fixed, schedule="auto",
                                             kernel_ir=True, cache=False, explain=True)
                            if gpu else nautilus.compile(path, kernel=kernel, cache=False))
        bound = nautilus.compile(path, kernel=kernel, shapes=sizes,
                                 schedule="heuristics", cache=False)
        inputs = inputs_for(rng, spec, sizes)
        program = unbound[key]
        out_dtype = next(p.dtype for p in program.params if p.name == output)
        case = f"seed {seed}: {kernel} " + ",".join(f"{k}={v}" for k, v in sizes.items())
        if fixed:
            case += " (bound: " + ",".join(sorted(fixed)) + ")"
        if gpu and "copies of the program" in program.explain():
            case += " [copies for launch ranges]"
        try:
            got = from_output(program.run(device="emu" if gpu else "cpu", **inputs)[output],
                              out_dtype)
        except nautilus.Error as e:
            # A launch the runtime refuses with its reason (sm_90's TMA
            # needs rows of a multiple of 16 bytes where nautc could not
            # see the sizes): not a wrong result.
            if gpu and "TMA needs" in str(e):
                refused += 1
                print(f"REFUSED {case}: TMA needs 16-byte rows")
                continue
            raise
        want = from_output(bound.run(**inputs)[output], out_dtype)
        error = np.abs(got - want).max() / max(np.abs(want).max(), 1e-30)
        if not np.isfinite(error) or error > tolerance:
            failures += 1
            print(f"FAIL {case}: relative error {error:.3g}")
        else:
            print(f"PASS {case}")
    print(f"{args.count - failures - refused} passed, {failures} failed"
          + (f", {refused} refused at launch" if refused else ""))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
