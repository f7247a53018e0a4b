"""Split streams over extents not bound at compile time (split-KV and
split rows: `chunks(G along 0 in P)`, docs/architecture.md, "Split
streams"): attention (a flash kernel on GPUs), a logsumexp (max-led) and
a layernorm's variance (mean-led, combined by Chan's rule), each compiled
once without its sizes with a schedule file that splits the stream, for
the CPU, sm_80 and sm_90, and run (on the CPU, and on the SIMT emulator)
at shapes with fewer points than parts (parts past the extent stream
nothing), one chunk, and ragged ones, against numpy in float64.

usage: split_unbound.py (NAUTILUS_ROOT the build, PYTHONPATH the Python package)
"""
import json
import os
import sys
import tempfile

import numpy as np

import nautilus

ATTENTION = """
kernel attention(Q: f16[B, H, N, D], K: f16[B, H, M, D], V: f16[B, H, M, D]) -> (O: f16[B, H, N, D]) {
  S[b, h, n, m] = sum[d](Q[b, h, n, d] * K[b, h, m, d]) * rsqrt(D)
  Mx[b, h, n]   = max[m](S[b, h, n, m])
  P[b, h, n, m] = exp(S[b, h, n, m] - Mx[b, h, n])
  L[b, h, n]    = sum[m](P[b, h, n, m])
  O[b, h, n, d] = sum[m](P[b, h, n, m] * V[b, h, m, d]) / L[b, h, n]
}
"""
ROWS = """
kernel layernorm(X: f32[R, C], g: f32[C], b: f32[C]) -> (Y: f32[R, C]) {
  eps = 1e-5
  Mu[r]  = sum[c](X[r, c]) / C
  Var[r] = sum[c]((X[r, c] - Mu[r]) * (X[r, c] - Mu[r])) / C
  Y[r, c] = (X[r, c] - Mu[r]) * rsqrt(Var[r] + eps) * g[c] + b[c]
}
kernel logsumexp(X: f32[R, C]) -> (Y: f32[R]) {
  Mx[r] = max[c](X[r, c])
  Y[r]  = log(sum[c](exp(X[r, c] - Mx[r]))) + Mx[r]
}
"""

# Each target's split schedules (the heuristics' own, with reduce_split).
FLASH = {
    "cpu": "#tile.schedule<tile = [1, 1, 8, 64], threads = 1, reduce_split = 4>",
    "sm_80": '#tile.schedule<tile = [1, 1, 64, 64], threads = 128, mma = #tile.mma<instr = "mma_sync", tile_k = 64, warps = [4, 1], stages = 2>, reduce_split = 4>',
    "sm_90": '#tile.schedule<tile = [1, 1, 128, 64], threads = 256, mma = #tile.mma<instr = "wgmma", tile_k = 64, warps = [8, 1], stages = 2>, reduce_split = 4>',
}
VARIANCE = {
    "cpu": "#tile.schedule<tile = [4], threads = 1, reduce_split = 3>",
    "sm_80": "#tile.schedule<tile = [64], threads = 64, reduce_split = 3>",
    "sm_90": "#tile.schedule<tile = [1], threads = 128, reduce_threads = 128, vector = 4, reduce_split = 4>",
}
LOGSUMEXP = {
    "cpu": "#tile.schedule<tile = [4], threads = 1, reduce_split = 5>",
    "sm_80": "#tile.schedule<tile = [2], threads = 64, reduce_threads = 32, vector = 4, reduce_split = 7>",
    "sm_90": "#tile.schedule<tile = [64], threads = 64, reduce_split = 5>",
}
KEYS = [(1, 1, 1, 1), (1, 2, 1, 63), (1, 1, 3, 65), (2, 1, 1, 700), (1, 1, 17, 2049)]
ROW_SHAPES = [(1, 1), (3, 63), (5, 65), (2, 700), (1, 5000)]


def compiled(source, kernel, target, program, schedule, directory, **extra):
    path = os.path.join(directory, kernel + "_" + target + ".json")
    with open(path, "w") as f:
        json.dump({"programs": {program: schedule}}, f)
    return nautilus.compile(source, kernel=kernel, target=target,
                            schedule=path, cache=False,
                            kernel_ir=target != "cpu", **extra)


def attention_reference(q, k, v):
    s = np.einsum("bhnd,bhmd->bhnm", q.astype(np.float64),
                  k.astype(np.float64)) / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    o = np.einsum("bhnm,bhmd->bhnd", p, v.astype(np.float64))
    return o / p.sum(axis=-1)[..., None]


def check(target, directory):
    device = "cpu" if target == "cpu" else "emu"
    rng = np.random.default_rng(5)
    failed = 0
    flash = compiled(ATTENTION, "attention", target, "attention_O",
                     FLASH[target], directory, shapes={"D": 64})
    for b, h, n, m in KEYS:
        q, k, v = (rng.uniform(-1, 1, (b, h, rows, 64)).astype(np.float16)
                   for rows in (n, m, m))
        o = flash.run(device=device, Q=q, K=k, V=v)["O"]
        error = np.abs(o.astype(np.float64) - attention_reference(q, k, v)).max()
        ok = error < 2e-3
        failed += not ok
        print(target, "attention B=%d H=%d N=%d M=%d" % (b, h, n, m),
              "PASS" if ok else "FAIL (error %.3g)" % error)
    norm = compiled(ROWS, "layernorm", target, "layernorm_Var",
                    VARIANCE[target], directory)
    lse = compiled(ROWS, "logsumexp", target, "logsumexp_Y",
                   LOGSUMEXP[target], directory)
    for r, c in ROW_SHAPES:
        # Values near 100 with a spread of 3: a variance a one-pass sum
        # of squares would lose.
        x = (rng.standard_normal((r, c)) * 3 + 100).astype(np.float32)
        g = rng.standard_normal(c).astype(np.float32)
        bias = rng.standard_normal(c).astype(np.float32)
        xd = x.astype(np.float64)
        mu = xd.mean(axis=1, keepdims=True)
        var = ((xd - mu) ** 2).mean(axis=1, keepdims=True)
        expected = {
            "layernorm": (xd - mu) / np.sqrt(var + 1e-5) * g + bias,
            "logsumexp": np.log(np.exp(xd - xd.max(axis=1, keepdims=True))
                                .sum(axis=1)) + xd.max(axis=1),
        }
        got = {
            "layernorm": norm.run(device=device, X=x, g=g, b=bias)["Y"],
            "logsumexp": lse.run(device=device, X=x)["Y"],
        }
        for kernel in ("layernorm", "logsumexp"):
            error = (np.abs(got[kernel] - expected[kernel]).max() /
                     np.abs(expected[kernel]).max())
            ok = error < 1e-5
            failed += not ok
            print(target, kernel, "R=%d C=%d" % (r, c),
                  "PASS" if ok else "FAIL (relative error %.3g)" % error)
    return failed


def main():
    with tempfile.TemporaryDirectory() as directory:
        failed = sum(check(t, directory) for t in ("cpu", "sm_80", "sm_90"))
    print("FAILED" if failed else "ALL PASSED")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
