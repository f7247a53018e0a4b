#!/usr/bin/env python3
"""Runs every example kernel on a device through `nautc run` and compares the
outputs with a numpy implementation of the same mathematics, at ragged
shapes. Independent of nautilus's own reference interpreter.

usage: numpy_reference.py NAUTC EXAMPLES_DIR WORK_DIR [--device cpu]
Prints one PASS/FAIL line per kernel; exits 1 if any kernel fails.
"""
import math
import os
import subprocess
import sys

import numpy as np

NAUTC, EXAMPLES, WORK = sys.argv[1:4]
DEVICE = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--device" else "cpu"
rng = np.random.default_rng(1234)


def bf16_round(x):
    """float32 values rounded to the nearest bfloat16 (ties to even)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return bits.astype(np.uint32).view(np.float32)


def draw(shape, dtype):
    x = rng.uniform(-1, 1, size=shape).astype(np.float32)
    if dtype == "bf16":
        return bf16_round(x)
    if dtype == "f16":
        return x.astype(np.float16)
    return x


erf = np.vectorize(math.erf)


def gelu(x):
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def silu(x):
    return x / (1 + np.exp(-x))


def softmax(s, axis=-1):
    e = np.exp(s - s.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attention(q, k, v, causal=False, groups=None):
    q, k, v = (a.astype(np.float64) for a in (q, k, v))
    if groups:
        rep = q.shape[1] // k.shape[1]
        k, v = np.repeat(k, rep, axis=1), np.repeat(v, rep, axis=1)
    s = np.einsum("bhnd,bhmd->bhnm", q, k) / math.sqrt(q.shape[-1])
    if causal:
        n, m = s.shape[-2:]
        mask = np.arange(m)[None, :] <= np.arange(n)[:, None] + (m - n)
        s = np.where(mask, s, -np.inf)
    return np.einsum("bhnm,bhmd->bhnd", softmax(s), v)


def moe(X, Wg, Wu, Wd, ids, w):
    x, wg, wu, wd = (a.astype(np.float64) for a in (X, Wg, Wu, Wd))
    y = np.zeros((x.shape[0], x.shape[1]))
    for t in range(x.shape[0]):
        for j in range(ids.shape[1]):
            e = ids[t, j]
            a = silu(x[t] @ wg[e]) * (x[t] @ wu[e])
            y[t] += w[t, j] * (a @ wd[e])
    return y


CASES = [
    # file, kernel, sizes, inputs (name: (shape, dtype)), reference, out dtype
    ("gemm.tensor", "gemm", dict(M=37, N=29, K=51),
     dict(A=(("M", "K"), "f16"), B=(("K", "N"), "f16")),
     lambda A, B: A.astype(np.float64) @ B.astype(np.float64), "f32"),
    ("gemm.tensor", "gemm_bias_gelu", dict(M=37, N=29, K=51),
     dict(A=(("M", "K"), "bf16"), B=(("K", "N"), "bf16"), bias=(("N",), "f32")),
     lambda A, B, bias: gelu(A.astype(np.float64) @ B + bias), "bf16"),
    ("gemm.tensor", "bmm_nt", dict(Z=3, M=37, N=29, K=51),
     dict(A=(("Z", "M", "K"), "bf16"), B=(("Z", "N", "K"), "bf16")),
     lambda A, B: np.einsum("zmk,znk->zmn", A.astype(np.float64), B), "f32"),
    ("attention.tensor", "attention", dict(B=2, H=3, N=37, M=45, D=24),
     dict(Q=(("B", "H", "N", "D"), "bf16"), K=(("B", "H", "M", "D"), "bf16"),
          V=(("B", "H", "M", "D"), "bf16")),
     lambda Q, K, V: attention(Q, K, V), "bf16"),
    ("attention.tensor", "attention_causal", dict(B=2, H=3, N=37, M=45, D=24),
     dict(Q=(("B", "H", "N", "D"), "bf16"), K=(("B", "H", "M", "D"), "bf16"),
          V=(("B", "H", "M", "D"), "bf16")),
     lambda Q, K, V: attention(Q, K, V, causal=True), "bf16"),
    ("attention.tensor", "attention_gqa", dict(B=2, H=6, G=2, N=37, M=45, D=24),
     dict(Q=(("B", "H", "N", "D"), "bf16"), K=(("B", "G", "M", "D"), "bf16"),
          V=(("B", "G", "M", "D"), "bf16")),
     lambda Q, K, V: attention(Q, K, V, groups=True), "bf16"),
    ("moe.tensor", "moe_ffn", dict(T=19, D=40, F=33, E=5, J=2),
     dict(X=(("T", "D"), "bf16"), Wg=(("E", "D", "F"), "bf16"),
          Wu=(("E", "D", "F"), "bf16"), Wd=(("E", "F", "D"), "bf16"),
          ids=(("T", "J"), "ids:E"), w=(("T", "J"), "f32")),
     moe, "bf16"),
    ("norms.tensor", "softmax", dict(R=37, C=101),
     dict(X=(("R", "C"), "f32")),
     lambda X: softmax(X.astype(np.float64)), "f32"),
    ("norms.tensor", "rmsnorm", dict(T=37, D=101),
     dict(X=(("T", "D"), "bf16"), g=(("D",), "bf16")),
     lambda X, g: X * (1 / np.sqrt((X.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-6)) * g,
     "bf16"),
    ("norms.tensor", "layernorm", dict(T=37, D=101),
     dict(X=(("T", "D"), "f32"), g=(("D",), "f32"), b=(("D",), "f32")),
     lambda X, g, b: (X - X.mean(-1, keepdims=True)) / np.sqrt(X.astype(np.float64).var(-1, keepdims=True) + 1e-5) * g + b,
     "f32"),
]

TOLERANCE = {"f32": 1e-4, "bf16": 2e-2, "f16": 4e-3}

failed = 0
os.makedirs(WORK, exist_ok=True)
for file, kernel, sizes, inputs, reference, out_dtype in CASES:
    case_dir = os.path.join(WORK, kernel)
    os.makedirs(case_dir, exist_ok=True)
    args = []
    arrays = {}
    for name, (dims, dtype) in inputs.items():
        shape = tuple(sizes[d] for d in dims)
        if dtype.startswith("ids:"):
            arr = rng.integers(0, sizes[dtype[4:]], size=shape).astype(np.int32)
        else:
            arr = draw(shape, dtype)
        arrays[name] = arr
        path = os.path.join(case_dir, name + ".npy")
        np.save(path, arr)
        args += ["--input", f"{name}={path}"]
    shape_arg = ",".join(f"{k}={v}" for k, v in sizes.items())
    cmd = [NAUTC, "run", os.path.join(EXAMPLES, file), "-k", kernel,
           "--shape", shape_arg, "--device", DEVICE, "--save", case_dir] + args
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"{kernel}: FAIL (nautc exited {proc.returncode})\n{proc.stderr}{proc.stdout}")
        failed += 1
        continue
    out_name = {"moe_ffn": "Y", "softmax": "Y", "rmsnorm": "Y", "layernorm": "Y"}.get(
        kernel, "O" if kernel.startswith("attention") else "C")
    got = np.load(os.path.join(case_dir, out_name + ".npy")).astype(np.float64)
    want = np.asarray(reference(**arrays), dtype=np.float64)
    scale = np.abs(want).mean()
    err = np.abs(got - want)
    worst = (err / (np.abs(want) + scale)).max()
    ok = got.shape == want.shape and worst <= TOLERANCE[out_dtype]
    print(f"{kernel}: max abs error {err.max():.3g}, scaled error {worst:.3g} "
          f"(tolerance {TOLERANCE[out_dtype]}) {'PASS' if ok else 'FAIL'}")
    failed += not ok
print(f"{len(CASES) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
