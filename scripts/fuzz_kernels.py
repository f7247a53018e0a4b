#!/usr/bin/env python3
"""Random multi-definition kernels, run on the CPU and the emulator with --check.

Each kernel has a few intermediates and one or two outputs over [M, N],
[M] and [N] (and a bool output now and then), built from element-wise
arithmetic, functions, casts, where (over a bool input's mask too), an
i8 input's values,
index variables used as values, broadcasts, transposed, reversed, strided
and gathered reads, reductions (sum, max, min over a row, a column or the
whole tensor), softmax-like divisions, contractions sum[k](A * B) with
plain or reversed operands, and a second contraction over a computed
operand (attention's P V).
Every kernel runs on the host CPU and on the SIMT emulator for a random GPU
target, at a ragged shape, against the reference interpreter (--check).
Anything but PASS is reported with its source: a crash, an internal error, a
timeout or a FAIL. Exercises the whole pipeline: fusion, scheduling,
layouts, both lowerings.

    python3 scripts/fuzz_kernels.py [--nautc build/bin/nautc] [--start 0] [--count 40] [--jobs 2]
                                    [--oracle] [--schedule auto]

With --schedule auto, every run takes the auto-scheduler's schedules (the
CPU model's tiles and structures; on the emulator the GPU models'
contractions, element-wise programs, reductions and flash kernels).
Without it, each target's default, except that the CPU run of one kernel
in two takes the heuristics (the CPU's default is the auto-scheduler).

With --oracle, each run also takes inputs drawn with numpy (ids valid
indices of W) and saves its outputs, which are compared with those of
test/oracle, an evaluator of the language written independently of the
compiler (numpy, float64, each operation rounded to its dtype; bound in
test/oracle/comparison.py, which on the emulator allows the documented
rounding of a contraction's computed factor to 16 bits). A disagreement is
reported as kind "oracle"; a where-flip (above) is one too.

Values stay bounded (no log or prod; exp only of tanh; division only by a
sum of values in [1/e, e]), so a FAIL (exit status 4) is not an overflow.
Two kinds of FAIL are not bugs:

- a `where` comparing two values that are equal within rounding, where a
  16-bit function value one unit from the reference's flips the branch
  (rare since 16-bit arithmetic rounds each op as the source says: before,
  chains of 16-bit ops were computed in f32 and rounded once, and such
  flips came about one kernel in 100);
- gelu(x) below x = -5 in an f32 output: 1 + erf(x / sqrt(2)) cancels (in
  f32 no formula of that form keeps a digit there) and the result is 0 or
  a few 1e-7 off, against a bound of about 5e-7 times the output's mean
  (8 units of the f32 arithmetic, and the accumulations').

Not part of the test suite.
"""
import os, random, subprocess, sys

import fuzzing

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "oracle")

# The index variables of each shape, and the extents they range over.
SHAPES = {"mn": ["m", "n"], "m": ["m"], "n": ["n"]}


class Generator:
    def __init__(self, rng):
        self.rng = rng
        self.tensors = []  # (name, shape) of intermediates defined so far
        self.scalars = []  # scalar intermediates defined so far

    def leaf(self, shape):
        rng = self.rng
        idx = SHAPES[shape]
        choices = ["s", "1.5", "0.25"]
        if "m" in idx and "n" in idx:
            choices += ["X[m, n]", "Xt[n, m]", "W[ids[m], n]",
                        # A bool read (bytes in memory, bits in a vector).
                        "where(mask[m, n], X[m, n], 0.25)",
                        # A byte-wide integer read, exact in any float.
                        "f32(I[m, n]) * 0.125",
                        # Affine reads beyond plain indices.
                        "X[M - 1 - m, n]", "X[m - m % 2, n]",
                        "Xt[(n / 3) * 3, m]"]
        if "n" in idx:
            choices += ["v[n]"]
        if "m" in idx:
            choices += ["u[m]"]
        if len(idx) == 2:
            choices += ["f32(m - n) * 0.125"]
        elif idx:
            choices += [f"f32({idx[0]}) * 0.0625"]
        choices += [name for name in self.scalars]
        for name, tshape in self.tensors:
            if all(i in idx for i in SHAPES[tshape]):
                choices += [f"{name}[{', '.join(SHAPES[tshape])}]"] * 2
        return rng.choice(choices)

    def anchored(self, shape, depth):
        """An expression that reads a tensor directly at each index of
        `shape`, so the extents of those indices can be inferred."""
        anchor = {"mn": self.rng.choice(["X[m, n]", "Xt[n, m]"]),
                  "m": "u[m]", "n": "v[n]"}[shape]
        return f"({self.expression(shape, depth)} + {anchor})"

    def reduction(self, shape, depth):
        rng = self.rng
        if shape == "mn":
            return rng.choice(["sum[k](A[m, k] * B[k, n])",
                               "sum[k](A[m, k] * Bt[n, k])",
                               "sum[k](A[M - 1 - m, k] * B[k, n])",
                               "sum[k](A[m, k] * B[K - 1 - k, n])",
                               "sum[k](f32(A[m, k]) * f32(B[k, n]))"])
        if shape == "m":
            op = rng.choice(["sum", "max", "min"])
            return f"{op}[n]({self.anchored('mn', depth - 1)})"
        op = rng.choice(["sum", "max", "min"])
        return f"{op}[m]({self.anchored('mn', depth - 1)})"

    def expression(self, shape, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf(shape)
        if rng.random() < 0.2:
            return self.reduction(shape, depth)
        a = self.expression(shape, depth - 1)
        b = self.expression(shape, depth - 1)
        return rng.choice([
            f"({a} + {b})", f"({a} - {b})", f"({a} * {b})", f"(-{a})",
            f"tanh({a})", f"sigmoid({a})", f"gelu({a})", f"silu({a})",
            f"exp(tanh({a}))", f"abs({a})", f"sqrt(abs({a}) + 0.25)",
            f"max({a}, {b})", f"min({a}, {b})", f"bf16({a})", f"f16({a})",
            f"f32({a})", f"where({a} > {b}, {a}, {b} * 0.5)",
            # Softmax-like: divided by a sum of values in [e^-1, e].
            f"({a} / sum[{self.other(shape)}](exp(tanh({self.anchored('mn', depth - 1)}))))"
            if shape in ("m", "n") else f"({a} * {b})",
        ])

    def other(self, shape):
        return {"m": "n", "n": "m"}[shape]

    def kernel(self):
        rng = self.rng
        types = lambda: rng.choice(["f16", "bf16", "f32"])
        ab = rng.choice(["f16", "bf16"])
        lines = []
        if rng.random() < 0.3:
            op = rng.choice(["sum", "max", "min"])
            lines.append(f"  x0 = {op}[m, n]({self.anchored('mn', 2)})")
            self.scalars.append("x0")
        for i in range(rng.randint(0, 3)):
            shape = rng.choice(["mn", "mn", "m", "n"])
            lines.append(f"  T{i}[{', '.join(SHAPES[shape])}] = "
                         f"{self.anchored(shape, 3)}")
            self.tensors.append((f"T{i}", shape))
        outputs = []
        if rng.random() < 0.3:
            # A second contraction over a computed operand, as attention's
            # P V: sum over n of an [M, N] expression times V[n, d].
            outputs.append(f"Y: {types()}[M, D]")
            scale = rng.choice(["", " * u[m]", " + u[m]"])
            lines.append(f"  Y[m, d] = sum[n]({self.anchored('mn', 2)} * "
                         f"V[n, d]){scale}")
        if rng.random() < 0.2:
            # A bool output, of inputs alone (no rounding to flip it).
            outputs.append("Z: bool[M, N]")
            lines.append(rng.choice([
                "  Z[m, n] = mask[m, n] and X[m, n] > 0.0",
                "  Z[m, n] = not mask[m, n] or X[m, n] < v[n]"]))
        for j in range(rng.randint(1, 2)):
            shape = rng.choice(["mn", "mn", "m", "n"])
            dims = {"mn": "M, N", "m": "M", "n": "N"}[shape]
            outputs.append(f"O{j}: {types()}[{dims}]")
            lines.append(f"  O{j}[{', '.join(SHAPES[shape])}] = "
                         f"{self.expression(shape, 3)}")
        inputs = (f"A: {ab}[M, K], B: {ab}[K, N], Bt: {ab}[N, K], "
                  f"X: {types()}[M, N], Xt: {types()}[N, M], "
                  f"W: {types()}[G, N], ids: i32[M], v: {types()}[N], "
                  f"V: {ab}[N, D], u: f32[M], mask: bool[M, N], "
                  f"I: i8[M, N], s: f32")
        return (f"kernel fuzz({inputs}) -> ({', '.join(outputs)}) {{\n"
                + "\n".join(lines) + "\n}\n")


def run(cmd):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return False, "timeout"
    out = r.stdout + r.stderr
    return r.returncode == 0 and "PASS" in out and "FAIL" not in out, out


def run_one(nautc, folder, n, options):
    rng = random.Random(5000 + n)
    source = Generator(rng).kernel()
    path = os.path.join(folder, f"fuzz{n}.tensor")
    with open(path, "w") as f:
        f.write(source)
    # Ragged shapes, and one whose tiles all fit whole (where bound sizes
    # fold every mask and clamp).
    shape = rng.choice(["M=37,N=45,K=24,G=5,D=16", "M=70,N=136,K=40,G=9,D=64",
                        "M=130,N=72,K=64,G=3,D=24", "M=64,N=128,K=32,G=4,D=32"])
    target = rng.choice(["sm_80", "sm_90"])
    devices = [[], ["--device", "emu", "--target", target]]
    if options.schedule:
        devices = [[*device, "--schedule", options.schedule] for device in devices]
    elif rng.random() < 0.5:
        devices[0] += ["--schedule", "heuristics"]
    if options.oracle:
        return run_with_oracle(nautc, folder, n, path, source, shape, devices)
    for device in devices:
        cmd = [nautc, "run", path, *device, "--shape", shape, "--check"]
        ok, out = run(cmd)
        if not ok:
            kind = "timeout" if out == "timeout" else "fail"
            return kind, " ".join(cmd) + "\n" + source + out[-1200:]
    return "pass", ""


def run_with_oracle(nautc, folder, n, path, source, shape, devices):
    """Runs the case on each device with --check, on inputs drawn by the
    oracle's rules, and compares the saved outputs with the oracle's."""
    if ORACLE not in sys.path:
        sys.path.insert(0, ORACLE)
    import comparison
    sizes = {k: int(v) for k, v in (item.split("=") for item in shape.split(","))}
    kernel, sizes, inputs = comparison.prepare(path, None, sizes, seed=n)
    expected = comparison.evaluate(kernel, sizes, inputs)
    for number, device in enumerate(devices):
        outcome = comparison.check_kernel(nautc, path, kernel, sizes, inputs,
                                          os.path.join(folder, f"fuzz{n}", str(number)),
                                          [*device, "--check"], expected=expected,
                                          gpu=bool(device))
        checked = outcome.nautc_ok and "PASS" in outcome.log and "FAIL" not in outcome.log
        if not checked:
            kind = "timeout" if outcome.log.endswith("timeout") else "fail"
            return kind, source + outcome.log[-1200:]
        if not outcome.passed:
            return "oracle", (outcome.log.splitlines()[0] + "\n" + source
                              + "\n".join(outcome.lines))
    return "pass", ""


def add_options(parser):
    parser.add_argument("--oracle", action="store_true",
                        help="also compare the outputs with test/oracle's (see above)")
    parser.add_argument("--schedule", default="",
                        help="passed to nautc run (auto: the auto-scheduler's schedules)")


if __name__ == "__main__":
    sys.exit(fuzzing.main(__doc__, run_one, name="kernel", add_options=add_options))
