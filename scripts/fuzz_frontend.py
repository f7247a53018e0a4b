#!/usr/bin/env python3
"""Mutated example kernels: nautc must answer every input with a diagnostic,
never a crash.

Each case takes one of examples/*.tensor (or of bench/kernels and the
tests' Inputs) and applies a few random
mutations to its tokens, mostly ones that keep it well formed (a dtype,
function, reduction, operator or comparison swapped for another of its
kind, or an index variable, size or tensor name for another of the
file's), else ones that may break it (delete a token, duplicate one, swap
two neighbours, replace a number with 0, -1, 1 or a huge value, a name
with another name of the file, an operator or bracket with another, drop
a line), then compiles every kernel of the result (`nautc compile
--emit tile`, sizes left unbound, and at a small bound shape) for a random
target. A well-formed mutant compiles or is refused (exit 0, 1 or 2); a
case is reported when nautc crashes (a signal), reports an internal error
(exit 3, or an "internal error" message: a bug of nautc's, not of the
input), or hangs (60 s). With --run, each mutant that compiles also runs
at the small shape on the CPU and the emulator (sm_80 or sm_90) with
--check, and a mismatch (exit 4) is reported too.

    python3 scripts/fuzz_frontend.py [--nautc build/bin/nautc] [--start 0] [--count 200] [--jobs 2] [--run]
"""
import glob
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fuzzing  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The files mutated: the examples, the benchmarks' kernels and the tests'
# (the reduction chains alg-fuse-reductions streams or refuses, among them).
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "*.tensor")) +
                  glob.glob(os.path.join(ROOT, "bench", "kernels", "*.tensor")) +
                  glob.glob(os.path.join(ROOT, "test", "*", "Inputs", "*.tensor")))
TARGETS = ["cpu", "sm_80", "sm_90", "gfx90a", "gfx942"]

# A token: a comment, a name, a number, or one character of punctuation.
TOKEN = re.compile(r"#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\S")
OPERATORS = list("+-*/<>=()[]{},:;.@") + ["==", "<=", ">=", "!=", "->", "**"]
NUMBERS = ["0", "-1", "1", "4294967296", "1e309", "0.0", "3"]
# Words of the language a well-formed mutant swaps for one another
# (LANGUAGE.md): the result still parses, its meaning is odd.
WORD_CLASSES = [
    ["f16", "bf16", "f32", "f64", "i8", "i32", "i64", "bool"],
    ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "erf", "abs", "silu",
     "gelu", "f32", "bf16", "i32"],
    ["sum", "max", "min", "prod"],
    ["+", "-", "*", "/"],
    ["<", "<=", ">", ">=", "==", "!="],
]


def swap_word(text, rng, names_too=True):
    """`text` with one word of the language (and with `names_too`, one index
    variable, size or tensor name) replaced by another of its kind: a
    mutant that parses."""
    tokens = [m for m in TOKEN.finditer(text) if not m.group().startswith("#")]
    names = sorted({m.group() for m in tokens if re.match(r"[A-Za-z_]", m.group())})
    classes = WORD_CLASSES + ([
        [n for n in names if re.fullmatch(r"[a-z]", n)],  # index variables
        [n for n in names if re.fullmatch(r"[A-Z]", n)],  # sizes
        [n for n in names if len(n) > 1 and n[0].isupper()],  # tensors
    ] if names_too else [])
    candidates = [(m, c) for m in tokens for c in classes if m.group() in c and len(c) > 1]
    if not candidates:
        return text
    m, words = rng.choice(candidates)
    other = rng.choice([w for w in words if w != m.group()])
    return text[:m.start()] + other + text[m.end():]


def mutate(text, rng):
    """`text` with one to three random token mutations: mostly swaps that
    keep it well formed (swap_word), else edits that may break it; in half
    the cases one swap of a word of the language alone (a mutant most
    likely to mean something, so to reach the pipeline)."""
    if rng.random() < 0.5:
        return swap_word(text, rng, names_too=False)
    pieces = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    names = sorted({text[a:b] for a, b in pieces if re.match(r"[A-Za-z_]", text[a:b])})
    for _ in range(rng.randint(1, 3)):
        pieces = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
        code = [p for p in pieces if not text[p[0]:p[1]].startswith("#")]
        if not code:
            break
        i = rng.randrange(len(code))
        a, b = code[i]
        token = text[a:b]
        kind = rng.choice(["word"] * 14 + ["delete", "duplicate", "swap", "number", "name",
                                           "operator", "line"])
        if kind == "word":
            text = swap_word(text, rng)
        elif kind == "delete":
            text = text[:a] + text[b:]
        elif kind == "duplicate":
            text = text[:b] + " " + token + text[b:]
        elif kind == "swap" and i + 1 < len(code):
            c, d = code[i + 1]
            text = text[:a] + text[c:d] + text[b:c] + token + text[d:]
        elif kind == "number":
            numbers = [p for p in code if re.match(r"[0-9]", text[p[0]:p[1]])] or [code[i]]
            a, b = rng.choice(numbers)
            text = text[:a] + rng.choice(NUMBERS) + text[b:]
        elif kind == "name" and names:
            text = text[:a] + rng.choice(names) + text[b:]
        elif kind == "operator":
            text = text[:a] + rng.choice(OPERATORS) + text[b:]
        else:  # drop the line the token is on
            start = text.rfind("\n", 0, a) + 1
            end = text.find("\n", b)
            text = text[:start] + text[end + 1 if end >= 0 else len(text):]
    return text


def kernels_of(text):
    return re.findall(r"^\s*kernel\s+([A-Za-z_][A-Za-z0-9_]*)", text, re.M) or [""]


def sizes_of(text, kernel):
    """The size names in `kernel`'s signature (the names inside its
    parameters' brackets)."""
    m = re.search(r"kernel\s+" + re.escape(kernel) + r"\s*\((.*?)\{", text, re.S)
    if not m:
        return []
    dims = " ".join(re.findall(r"\[([^\]]*)\]", m.group(1)))
    return sorted(set(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\b", dims)))


def verdict(cmd, timeout):
    """Runs nautc's `cmd`: None where it answered properly (exit 0, 1 or
    2), else the kind of failure and a report (a mismatch, exit 4, is one)."""
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", " ".join(cmd)
    said = f"{' '.join(cmd)}\n{(proc.stdout + proc.stderr)[-3000:]}"
    if proc.returncode < 0:
        return "crash", f"{said}\nsignal {-proc.returncode}"
    if proc.returncode == 4:
        return "mismatch", said
    if proc.returncode == 3 or "internal error" in said:
        return "internal error", said
    if proc.returncode not in (0, 1, 2):
        return "exit %d" % proc.returncode, said
    return None


def compile_case(nautc, path, kernel, target, shape):
    """A verdict of one compile."""
    cmd = [nautc, "compile", path, "--target", target, "-o", os.devnull]
    cmd += ["-k", kernel] if kernel else []
    cmd += ["--shape", shape] if shape else []
    return verdict(cmd, 60)


def run_case(nautc, path, kernel, device, shape, target=None):
    """A verdict of `nautc run --check` at `shape` on `device` (for
    `target`)."""
    cmd = [nautc, "run", path, "--device", device, "--shape", shape, "--check"]
    cmd += ["--target", target] if target else []
    cmd += ["-k", kernel] if kernel else []
    return verdict(cmd, 120)


def run_one(nautc, folder, n, args):
    rng = random.Random(n)
    source = rng.choice(EXAMPLES)
    text = mutate(open(source).read(), rng)
    path = os.path.join(folder, f"case{n}.tensor")
    with open(path, "w") as f:
        f.write(text)
    target = rng.choice(TARGETS)
    for kernel in kernels_of(text)[:3]:
        # Every size of the kernel's signature small: 1, 3 or 16.
        sizes = sizes_of(text, kernel)
        for shape in ("", ",".join(f"{s}={rng.choice([1, 3, 16])}" for s in sizes)):
            verdict = compile_case(nautc, path, kernel, target, shape)
            if not verdict and shape and args.run:
                verdict = run_case(nautc, path, kernel, "cpu", shape) or \
                    run_case(nautc, path, kernel, "emu", shape, rng.choice(["sm_80", "sm_90"]))
            if verdict:
                kind, report = verdict
                return kind, f"{os.path.basename(source)} mutated ({path}):\n{report}"
    os.remove(path)
    return "pass", ""


def add_options(parser):
    parser.add_argument("--run", action="store_true",
                        help="also run each mutant that compiles, at the small shape, on the "
                             "CPU and the emulator with --check (a mismatch is reported)")


if __name__ == "__main__":
    sys.exit(fuzzing.main(__doc__, run_one, count=200, add_options=add_options))
