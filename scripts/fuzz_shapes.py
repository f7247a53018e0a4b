#!/usr/bin/env python3
"""The example kernels at random shapes, on the CPU and the emulator, with --check.

Each case takes one kernel of examples/ (GEMMs, attention, causal
and grouped-query attention, the mixture of experts, the norms), random
sizes (ragged, small enough for the emulator; one GEMM in three with a
long K over few tiles, which splits K; one norm or attention in four
with few long rows, which groups of threads and programs share), a random
device (the host CPU, or the emulator for sm_80 or sm_90) and, one time in
two, the largest tiles (--multiprocessors 1) rather than the default's, and on the
CPU one time in two the heuristics' schedules rather than the auto-scheduler's
(the CPU's default). Anything but PASS
is reported with its command: a crash, an internal error, a timeout or a
FAIL.

    python3 scripts/fuzz_shapes.py [--nautc build/bin/nautc] [--start 0] [--count 40]

Not part of the test suite.
"""
import os, random, subprocess, sys

import fuzzing

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                        "shared", "examples")


def sizes(rng, kernel):
    r = lambda lo, hi: rng.randint(lo, hi)
    # One GEMM in three has a long K and few tiles: the default schedule
    # splits K (split_k) when the machine is not filled.
    long_k = kernel in ("gemm", "gemm_bias_gelu", "bmm_nt") and rng.random() < 1 / 3
    # One norm and one attention in four has few long rows: groups of
    # threads share each row and programs split it (reduce_split).
    long_rows = rng.random() < 1 / 4
    if kernel in ("gemm", "gemm_bias_gelu"):
        if long_k:
            return f"M={r(1, 100)},N={r(1, 100)},K={r(300, 3000)}"
        return f"M={r(1, 300)},N={r(1, 300)},K={r(1, 200)}"
    if kernel == "bmm_nt":
        if long_k:
            return f"Z={r(1, 3)},M={r(1, 60)},N={r(1, 60)},K={r(300, 2000)}"
        return f"Z={r(1, 3)},M={r(1, 150)},N={r(1, 300)},K={r(1, 150)}"
    if kernel in ("attention", "attention_causal"):
        if long_rows:
            return f"B=1,H={r(1, 2)},N={r(1, 3)},M={r(8000, 20000)},D={rng.choice([32, 64])}"
        return f"B={r(1, 2)},H={r(1, 2)},N={r(1, 150)},M={r(1, 200)},D={rng.choice([16, 32, 40, 64, 128])}"
    if kernel == "attention_gqa":
        g = r(1, 2)
        return f"B=1,H={g * r(1, 2)},G={g},N={r(1, 100)},M={r(1, 150)},D={rng.choice([32, 64])}"
    if kernel == "moe_ffn":
        e = r(1, 4)
        return f"T={r(1, 200)},D={rng.choice([8, 16, 40, 64, 72])},F={r(8, 160)},E={e},J={r(1, min(e, 2))}"
    if kernel == "softmax":
        if long_rows:
            return f"R={r(1, 3)},C={r(8000, 70000)}"
        return f"R={r(1, 100)},C={r(1, 600)}"
    if long_rows:
        return f"T={r(1, 3)},D={r(8000, 70000)}"
    return f"T={r(1, 100)},D={r(1, 600)}"


KERNELS = [("gemm.tensor", k) for k in ("gemm", "gemm_bias_gelu", "bmm_nt")] + \
          [("attention.tensor", k) for k in ("attention", "attention_causal", "attention_gqa")] + \
          [("moe.tensor", "moe_ffn")] + \
          [("norms.tensor", k) for k in ("softmax", "rmsnorm", "layernorm")]


def run_one(nautc, folder, n):
    rng = random.Random(20000 + n)
    file, kernel = rng.choice(KERNELS)
    shape = sizes(rng, kernel)
    device = rng.choice(["cpu", "sm_80", "sm_90", "sm_90"])
    cmd = [nautc, "run", os.path.join(EXAMPLES, file), "-k", kernel, "--shape", shape,
           "--check", "--seed", str(n)]
    if device != "cpu":
        cmd += ["--device", "emu", "--target", device]
    if rng.random() < 0.5:
        cmd += ["--multiprocessors", "1"]
    if device == "cpu" and rng.random() < 0.5:
        # (The CPU's default is the auto-scheduler: the heuristics too.)
        cmd += ["--schedule", "heuristics"]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "timeout", " ".join(cmd)
    out = r.stdout + r.stderr
    if r.returncode == 0 and "PASS" in out and "FAIL" not in out:
        return "pass", ""
    return "fail", " ".join(cmd) + "\n" + out[-1500:]


if __name__ == "__main__":
    sys.exit(fuzzing.main(__doc__, run_one, name="shape"))
