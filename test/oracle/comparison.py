"""Runs a kernel through the oracle and through `nautc run`, and compares
the outputs; shared by compare_examples.py and scripts/fuzz_kernels.py.

Tolerance (see README.md): integer and bool outputs must be equal. A float
output passes when at every element the oracle defines

    |nautc - oracle| <= C * u * (|oracle| + mean |oracle|)

where u is the unit roundoff (half an ulp at 1) of the narrowest float
dtype the output's computation rounds to: the output's dtype, and the
dtype of every operation, cast, reduction and stored intermediate it
depends on (inputs are exact and do not count; operations done in f32 in
the body of a half-precision reduction count as f32). C is 8 for f16 and
bf16, where the last roundings dominate, and 64 for f32 and f64, where
functions a few ulps from correctly rounded, amplified by exp of
arguments of several units, and reassociated sums dominate (about twice
the worst seen over every .tensor file of the repository; nautc's own
--check allows 4 u(bf16) and about 107 u(f32)). NaN must meet NaN and an infinity the
same infinity. Elements the oracle finds undefined (out-of-range reads)
are not compared.

On GPU devices (emu, cuda) the bound also counts the 16-bit type of a
contraction's load when the other factor is computed in f32 (attention's
P V): the compiler may round that factor to 16 bits for tensor cores, as
FlashAttention does (docs/architecture.md, "Contractions on tensor cores";
not in docs/language.md, which keeps the factor in f32). nautc's --check
widens its bound the same way.

Exactly rounded outputs must be equal: when every operation an output
depends on is correctly rounded in IEEE arithmetic (+ - * /, sqrt, casts,
comparisons, logic, where, max, min, abs, max and min reductions, integer
reductions; no float sums or products, which may be reassociated, and no
other function), the language fixes every bit of the result.
"""
import math
import os
import subprocess
from dataclasses import dataclass, field

import numpy as np

from tensorlang import bind_sizes, evaluate, load, random_inputs
from tensorlang.checker import CASTS, children
from tensorlang.dtypes import FLOATS
from tensorlang.evaluator import check_requirements, cost
from tensorlang.syntax import Access, Binary, Call, Name, Reduce

UNIT_ROUNDOFF = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11, "f32": 2.0 ** -24, "f64": 2.0 ** -53}
TOLERANCE_ULPS = {"bf16": 8, "f16": 8, "f32": 64, "f64": 64}
WIDTH = {"f16": 1, "bf16": 0, "f32": 2, "f64": 3}  # bf16 is the coarsest


def narrowest(types):
    floats = [t for t in types if t in FLOATS]
    return min(floats, key=WIDTH.get) if floats else None


def rounding_types(kernel, gpu=False):
    """name -> the float dtypes that the computation of that tensor rounds
    to, its dependencies' included (with `gpu`, the 16-bit operand types
    of contractions with a computed factor, see the module's doc)."""
    found = {}
    for definition in kernel.definitions:
        types, reads, seen = {definition.tensor.dtype}, set(), set()

        def visit(node):
            if id(node) in seen:  # expansions of scalar definitions are shared
                return
            seen.add(id(node))
            if isinstance(node, Name) and node.ref[0] == "macro":
                visit(node.expansion)
            if isinstance(node, Access):
                reads.add(node.tensor.name)
            elif isinstance(node, Name) and node.ref[0] == "tensor":
                reads.add(node.ref[1].name)
            elif isinstance(node, Call) and node.name in CASTS:
                types.add(node.type)
            elif hasattr(node, "optype") or isinstance(node, Reduce):
                types.add(node.compute)
            if gpu and isinstance(node, Reduce) and node.op == "sum":
                types.update(computed_operand_types(node.body))
            for child in children(node):
                visit(child)

        visit(definition.expr)
        for name in reads:
            types |= found.get(name, set())
        found[definition.tensor.name] = types
    return found


def computed_operand_types(body):
    """The 16-bit dtype of a product `computed * load` (either order) whose
    load reads a 16-bit tensor and whose other factor is not a plain read."""
    if not (isinstance(body, Binary) and body.op == "*"):
        return set()
    found = set()
    for load, other in ((body.left, body.right), (body.right, body.left)):
        if isinstance(load, Access) and load.type in ("f16", "bf16") and not isinstance(other, Access):
            found.add(load.type)
    return found


EXACT_FUNCTIONS = ("where", "max", "min", "abs", "sqrt") + CASTS


def exactly_rounded(kernel):
    """The names of the tensors whose values the language fixes to the bit
    (see the module's doc)."""
    exact = set(t.name for t in kernel.inputs)
    for definition in kernel.definitions:
        ok, seen = True, set()

        def visit(node):
            nonlocal ok
            if id(node) in seen:
                return
            seen.add(id(node))
            if isinstance(node, Name) and node.ref[0] == "macro":
                visit(node.expansion)
            elif isinstance(node, Name) and node.ref[0] == "tensor":
                ok &= node.ref[1].name in exact
            elif isinstance(node, Access):
                ok &= node.tensor.name in exact
            elif isinstance(node, Call) and node.name not in EXACT_FUNCTIONS:
                ok = False
            elif isinstance(node, Reduce) and node.op in ("sum", "prod") and node.compute in FLOATS:
                ok = False
            for child in children(node):
                visit(child)

        visit(definition.expr)
        if ok:
            exact.add(definition.tensor.name)
    return exact


def tolerance(kernel, output, gpu=False):
    """The relative bound of an output (None for integers and bools)."""
    dtype = narrowest(rounding_types(kernel, gpu)[output.name] | {output.dtype})
    if output.dtype not in FLOATS:
        return None
    return TOLERANCE_ULPS[dtype] * UNIT_ROUNDOFF[dtype], dtype


def compare(expected, actual, bound, undefined=None):
    """(passed, worst error / bound, report)."""
    expected = np.asarray(expected, dtype=np.float64)
    actual = np.asarray(actual, dtype=np.float64)
    if expected.shape != actual.shape:
        return False, math.inf, f"shape {list(actual.shape)}, expected {list(expected.shape)}"
    defined = np.ones(expected.shape, bool) if undefined is None else ~undefined
    if bound is None:
        wrong = defined & (expected != actual) & ~(np.isnan(expected) & np.isnan(actual))
        if wrong.any():
            at = tuple(int(i) for i in np.argwhere(wrong)[0])
            return False, math.inf, (f"{int(wrong.sum())} elements differ, the first at {list(at)}: "
                                     f"{float(actual[at])!r} instead of {float(expected[at])!r}")
        return True, 0.0, "equal"
    both_nan = np.isnan(expected) & np.isnan(actual)
    same = (expected == actual) | both_nan
    finite = np.isfinite(expected)
    scale = np.abs(expected[finite & defined]).mean() if (finite & defined).any() else 0.0
    allowed = bound * (np.abs(expected) + scale)
    with np.errstate(invalid="ignore"):
        error = np.where(same, 0.0, np.abs(actual - expected))
        ratio = np.where(same, 0.0, np.where(finite, error / np.maximum(allowed, 1e-300), np.inf))
    ratio = np.where(defined, ratio, 0.0)
    worst = tuple(int(i) for i in np.unravel_index(np.argmax(ratio), ratio.shape)) if ratio.size else ()
    score = float(ratio[worst]) if ratio.size else 0.0
    report = (f"worst at {list(worst)}: {float(actual[worst])!r} vs oracle {float(expected[worst])!r}, "
              f"{score:.3g} of the bound")
    return score <= 1.0, score, report


def draw_sizes(kernel, rng, low, high, budget=1 << 21, tries=200):
    """Random sizes in [low, high] that meet the kernel's requirements and
    keep the oracle's largest index space under `budget` elements; `high`
    shrinks until they do."""
    for attempt in range(tries):
        top = max(low, high - attempt // 10 * max(1, (high - low) // 8))
        sizes = {s: int(rng.integers(low, top + 1)) for s in kernel.sizes}
        if index_space(kernel, sizes) > budget:
            continue
        try:
            check_requirements(kernel, sizes)
        except Exception:
            continue
        return sizes
    raise RuntimeError(f"no sizes in [{low}, {high}] fit kernel '{kernel.name}'")


def index_space(kernel, sizes):
    """The largest number of elements the oracle spans for one definition."""

    class Extents:
        def extent(self, e):
            return e if isinstance(e, int) else sizes[e]

    extents = Extents()
    return max([math.prod(extents.extent(v.extent) for v in d.variables) * cost(d.expr, extents)
                for d in kernel.definitions], default=1)


def save_inputs(kernel, inputs, folder):
    """Writes the inputs as .npy files (floats as float64, exactly), returns
    name -> path."""
    os.makedirs(folder, exist_ok=True)
    paths = {}
    for tensor in kernel.inputs:
        paths[tensor.name] = os.path.join(folder, tensor.name + ".npy")
        np.save(paths[tensor.name], inputs[tensor.name])
    return paths


def run_nautc(nautc, path, kernel_name, sizes, input_paths, folder, extra=(), timeout=600):
    """Runs `nautc run` saving the outputs in `folder`: (ok, output text)."""
    cmd = [nautc, "run", path, "-k", kernel_name, "--save", folder, *extra]
    if sizes:
        cmd += ["--shape", ",".join(f"{k}={v}" for k, v in sizes.items())]
    for name, p in input_paths.items():
        cmd += ["--input", f"{name}={p}"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, " ".join(cmd) + "\ntimeout"
    except OSError as error:
        return False, f"cannot run {nautc}: {error.strerror}"
    return proc.returncode == 0, " ".join(cmd) + "\n" + proc.stdout + proc.stderr


@dataclass
class Outcome:
    """One kernel run both ways: nautc ran (`nautc_ok`, its output in
    `log`), and the outputs agree (`passed`) up to `score` of the bound
    (> 1 fails), with a line per output in `lines`."""
    nautc_ok: bool
    log: str
    passed: bool = False
    score: float = math.inf
    lines: list = field(default_factory=list)


def check_kernel(nautc, path, kernel, sizes, inputs, folder, extra=(), arithmetic="typed",
                 expected=None, gpu=False):
    """Runs one kernel through the oracle (unless its outputs are given as
    `expected`) and `nautc run ... extra` on `inputs` (written under
    `folder`), and compares the outputs; `gpu` when `extra` runs it on a
    GPU device (see the module's doc)."""
    outputs = expected or evaluate(kernel, sizes, inputs, arithmetic)
    paths = save_inputs(kernel, inputs, os.path.join(folder, "inputs"))
    out_dir = os.path.join(folder, "nautc")
    ok, log = run_nautc(nautc, path, kernel.name, sizes, paths, out_dir, extra)
    outcome = Outcome(ok, log)
    if not ok:
        outcome.lines = [f"nautc failed: {log.strip()}"]
        return outcome
    outcome.passed, outcome.score = True, 0.0
    exact = exactly_rounded(kernel) if arithmetic == "typed" else set()
    for tensor in kernel.outputs:
        result = outputs[tensor.name]
        actual = np.load(os.path.join(out_dir, tensor.name + ".npy"))
        bound = None if tensor.name in exact else tolerance(kernel, tensor, gpu)
        good, score, report = compare(result.data, actual, bound and bound[0], result.undefined)
        outcome.passed &= good
        outcome.score = max(outcome.score, score)
        what = f"{tensor.dtype}, exact" if bound is None else \
            f"{tensor.dtype}, bound {TOLERANCE_ULPS[bound[1]]} u({bound[1]})"
        undefined = "" if result.undefined is None else \
            f", {int(result.undefined.sum())} undefined elements skipped"
        outcome.lines.append(f"{tensor.name} ({what}{undefined}): {report}")
    return outcome


def prepare(path, kernel_name, sizes, seed):
    """Loads a kernel and draws its inputs: (kernel, sizes, inputs)."""
    kernel = load(path).kernel(kernel_name)
    sizes = bind_sizes(kernel, sizes, {})
    return kernel, sizes, random_inputs(kernel, sizes, seed)
