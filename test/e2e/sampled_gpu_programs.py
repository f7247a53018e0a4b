"""GPU programs compiled without their sizes under `--schedule auto` (one
schedule for every shape ranked over sample shapes, or copies for ranges
of a size: docs/autoscheduler.md, "GPU programs of unbound sizes"): row
and column reductions, a row stream (softmax) and a norm (each Y apart:
rows of unbound length are not swept), an element-wise program and a
flash kernel (its head dimension bound), each compiled once for sm_80 and
sm_90 through the Python package and run on the SIMT emulator at shapes
from a single element to ragged ones, against numpy in float64.

usage: sampled_gpu_programs.py (NAUTILUS_ROOT the build, PYTHONPATH the Python package)
"""
import sys

import numpy as np

import nautilus

SOURCE = """
kernel softmax(X: f32[R, C]) -> (Y: f32[R, C]) {
  Mx[r]   = max[c](X[r, c])
  E[r, c] = exp(X[r, c] - Mx[r])
  L[r]    = sum[c](E[r, c])
  Y[r, c] = E[r, c] / L[r]
}
kernel layernorm(X: f32[R, C], g: f32[C], b: f32[C]) -> (Y: f32[R, C]) {
  eps = 1e-5
  Mu[r]  = sum[c](X[r, c]) / C
  Var[r] = sum[c]((X[r, c] - Mu[r]) * (X[r, c] - Mu[r])) / C
  Y[r, c] = (X[r, c] - Mu[r]) * rsqrt(Var[r] + eps) * g[c] + b[c]
}
kernel colsum(X: f32[R, C]) -> (S: f32[C]) {
  S[c] = sum[r](X[r, c])
}
kernel pool(X: f32[B, R, C]) -> (P: f32[B, C]) {
  P[b, c] = sum[r](X[b, r, c]) / R
}
kernel scale_bias(X: f32[R, C], s: f32[R], b: f32[C]) -> (Y: f32[R, C]) {
  Y[r, c] = exp(X[r, c] * s[r]) + b[c]
}
"""


# Attention (f16) with its head dimension bound, the rest unbound: one
# flash kernel, its schedule ranked over sample shapes by the flash model.
FLASH = """
kernel attention(Q: f16[B, H, N, D], K: f16[B, H, M, D], V: f16[B, H, M, D]) -> (O: f16[B, H, N, D]) {
  S[b, h, n, m] = sum[d](Q[b, h, n, d] * K[b, h, m, d]) * rsqrt(D)
  Mx[b, h, n]   = max[m](S[b, h, n, m])
  P[b, h, n, m] = exp(S[b, h, n, m] - Mx[b, h, n])
  L[b, h, n]    = sum[m](P[b, h, n, m])
  O[b, h, n, d] = sum[m](P[b, h, n, m] * V[b, h, m, d]) / L[b, h, n]
}
"""
FLASH_SHAPES = [dict(B=1, H=1, N=1, M=1), dict(B=1, H=2, N=5, M=70),
                dict(B=2, H=1, N=70, M=33), dict(B=1, H=1, N=1, M=300)]


def attention_reference(q, k, v):
    """Attention in float64 at D = 64 (scaled by 1 / 8)."""
    s = np.einsum("bhnd,bhmd->bhnm", q.astype(np.float64),
                  k.astype(np.float64)) / 8.0
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.einsum("bhnm,bhmd->bhnd", p, v.astype(np.float64)) / \
        p.sum(axis=-1, keepdims=True)


def check_flash(target, bound, shapes, label, seed):
    """The flash kernel compiled once with only the sizes `bound` (D = 64
    among them), run at `shapes` (the other sizes), against numpy."""
    program = nautilus.compile(FLASH, kernel="attention", target=target,
                               shapes=bound, schedule="auto",
                               kernel_ir=True, cache=False, explain=True)
    print_choices(target, program.explain().splitlines())
    rng = np.random.default_rng(seed)
    failed = 0
    for shape in shapes:
        sizes = {**bound, **shape}
        b, h, n, m = sizes["B"], sizes["H"], sizes["N"], sizes["M"]
        q, k, v = (rng.uniform(-1, 1, (b, h, rows, 64)).astype(np.float16)
                   for rows in (n, m, m))
        o = program.run(device="emu", Q=q, K=k, V=v)["O"]
        want = attention_reference(q, k, v)
        ok = o.shape == want.shape and np.allclose(o, want, atol=5e-3, rtol=2e-2)
        failed += not ok
        print(f"  {'PASS' if ok else 'FAIL'} {label} {shape}")
    return failed


# A decoding step (one query, eight heads and the head dimension bound; B
# and M not): copies for ranges of B and, within the smallest, of M, the
# copy for few heads and many keys splitting them (split-KV, its chunks
# sized at launch, its partials allocated only where it runs). Each copy
# runs at one shape at least.
DECODE_SHAPES = [dict(B=1, M=1), dict(B=1, M=100), dict(B=1, M=700),
                 dict(B=3, M=1500), dict(B=7, M=256), dict(B=9, M=300)]


def softmax(X):
    e = np.exp(X - X.max(axis=1, keepdims=True))
    return {"Y": e / e.sum(axis=1, keepdims=True)}


def layernorm(X, g, b):
    mu = X.mean(axis=1, keepdims=True)
    var = ((X - mu) ** 2).mean(axis=1, keepdims=True)
    return {"Y": (X - mu) / np.sqrt(var + 1e-5) * g + b}


# kernel, its inputs' dims as sizes of the shape, the reference
KERNELS = [
    ("softmax", {"X": ("R", "C")}, softmax),
    ("layernorm", {"X": ("R", "C"), "g": ("C",), "b": ("C",)}, layernorm),
    ("colsum", {"X": ("R", "C")}, lambda X: {"S": X.sum(axis=0)}),
    ("pool", {"X": ("B", "R", "C")}, lambda X: {"P": X.mean(axis=1)}),
    ("scale_bias", {"X": ("R", "C"), "s": ("R",), "b": ("C",)},
     lambda X, s, b: {"Y": np.exp(X * s[:, None]) + b}),
]
# (Each copy of a program the model divided into launch ranges runs at
# one shape at least: C below and from 128 or 256, R below and from 128
# or 256 and from 4096, C from 2048, B from 128 where R is below 256.)
SHAPES = [dict(B=1, R=1, C=1), dict(B=2, R=3, C=77), dict(B=1, R=9, C=700),
          dict(B=3, R=130, C=20), dict(B=1, R=700, C=3),
          dict(B=1, R=260, C=260), dict(B=1, R=2, C=2100),
          dict(B=130, R=2, C=3), dict(B=1, R=4100, C=3)]


def print_choices(target, lines):
    """Each program's schedule ranked over the samples, and its launch
    ranges' copies where the model divided a size."""
    for i, line in enumerate(lines):
        if not (line.startswith("explain: GPU program ") and
                "sample shapes" in line):
            continue
        block = []
        for later in lines[i + 1:]:
            if not later.startswith("  "):
                break
            block.append(later)
        one = next(l for l in block
                   if l.startswith(("  chosen:", "  one schedule:")))
        print(f"{target} {line.split()[3]}: "
              f"{one.split(' = #tile.schedule')[-1]}")
        division = [l for l in block if "copies of the program" in l]
        if division:
            print(f"  {division[0].split(':')[1].split(';')[0].strip()}")
            for copy in block[block.index(division[0]) + 1:]:
                # (The range, and for a flash kernel's copy its schedule.)
                parts = copy.strip().split(": ")
                split = len(parts) > 1 and ", split " in parts[1]
                print(f"    {parts[0]}" + (f": {parts[1]}" if split else ""))


def main():
    failed = 0
    for target in ("sm_80", "sm_90"):
        for kernel, dims, reference in KERNELS:
            program = nautilus.compile(SOURCE, kernel=kernel, target=target,
                                       schedule="auto", kernel_ir=True,
                                       cache=False, explain=True)
            print_choices(target, program.explain().splitlines())
            rng = np.random.default_rng(5)
            for shape in SHAPES:
                arrays = {name: rng.uniform(-2, 2, tuple(shape[d] for d in
                                                         sizes))
                          .astype(np.float32)
                          for name, sizes in dims.items()}
                got = program.run(device="emu", **arrays)
                want = reference(**{k: v.astype(np.float64)
                                    for k, v in arrays.items()})
                ok = all(got[k].shape == w.shape and
                         np.allclose(got[k], w, rtol=2e-5, atol=2e-5)
                         for k, w in want.items())
                failed += not ok
                print(f"  {'PASS' if ok else 'FAIL'} {kernel} {shape}")
        # The flash kernel without B, H, N and M; a decoding step's
        # without B and M.
        failed += check_flash(target, {"D": 64}, FLASH_SHAPES, "attention", 3)
        failed += check_flash(target, {"N": 1, "H": 8, "D": 64},
                              DECODE_SHAPES, "decoding attention", 4)
    print(f"{'FAILED' if failed else 'all passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
