#!/usr/bin/env python3
"""GPU element-wise programs, reductions and flash kernels compiled without
some of their sizes: what the GPU models choose, and what they predict (no
GPU needed).

A kernel compiled without its sizes (a bundle an application launches at
every shape) takes, under `--schedule auto`, the schedule the GPU model
ranks best over sample shapes, or copies for ranges of a size launched by
it (docs/autoscheduler.md, "GPU programs of unbound sizes"). For each
case and target this prints, from `nautc compile --explain`, each such
program's one schedule and its regrets over the samples (its predicted
time over the best schedule's at each sample shape: the geometric mean and
the worst), the heuristics' schedule and its regrets, and the division
where one is chosen (its copies, its geometric-mean regret over its own
samples against the one schedule's there). The model's predictions only,
unmeasured on a GPU.

    python3 bench/unbound_gpu_programs.py [PATH/TO/nautc]
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
KERNELS = os.path.join(HERE, "kernels")

# name, file, kernel, the sizes bound at compile time
CASES = [
    ("softmax, R and C unbound", os.path.join(EXAMPLES, "norms.tensor"), "softmax", ""),
    ("softmax over a vocabulary (C = 32000), R unbound",
     os.path.join(EXAMPLES, "norms.tensor"), "softmax", "C=32000"),
    ("layernorm, T and D unbound", os.path.join(EXAMPLES, "norms.tensor"), "layernorm", ""),
    ("rmsnorm (bf16), T unbound (D = 4096)", os.path.join(EXAMPLES, "norms.tensor"),
     "rmsnorm", "D=4096"),
    ("row maximum, R and C unbound", os.path.join(KERNELS, "reductions_f32.tensor"), "rowmax", ""),
    ("column sum, R and C unbound", os.path.join(KERNELS, "reductions_f32.tensor"), "colsum", ""),
    ("mean over tokens, B, T and D unbound", os.path.join(KERNELS, "reductions_f32.tensor"),
     "pool", ""),
    ("bias + GELU, T and D unbound", os.path.join(KERNELS, "reductions_f32.tensor"),
     "bias_gelu", ""),
    ("attention (D = 128), B, H, N and M unbound", os.path.join(EXAMPLES, "attention.tensor"),
     "attention", "D=128"),
    ("attention (B = 1, H = 32, D = 128), N and M unbound",
     os.path.join(EXAMPLES, "attention.tensor"), "attention", "B=1,H=32,D=128"),
    ("a decoding step (N = 1, H = 8, D = 128), B and M unbound",
     os.path.join(EXAMPLES, "attention.tensor"), "attention", "N=1,H=8,D=128"),
    ("a decoding step (N = 1, H = 32, D = 128), B and M unbound",
     os.path.join(EXAMPLES, "attention.tensor"), "attention", "N=1,H=32,D=128"),
]
TARGETS = ("sm_80", "sm_90", "gfx942")

HEADER = re.compile(r"^explain: GPU program (\S+) .*sample shapes")
ONE = re.compile(r"^  (?:chosen|one schedule): +([0-9.]+)x the best \(geometric mean\), "
                 r"([0-9.]+)x at worst.*?; at the largest: (.*?): [0-9.]+ us")
HEUR = re.compile(r"^  heuristics: ([0-9.]+)x the best \(geometric mean\), "
                  r"([0-9.]+)x at worst.*?; at the largest: (.*?): [0-9.]+ us")
DIVISION = re.compile(r"^  chosen: +(\d+) copies .*?ranges alone: ([0-9.]+)x the best .*?against ([0-9.]+)x for one")
RANGE = re.compile(r"^ {4,6}(\S.*?): (.*?): ([0-9.]+)x the best over its samples")


def explain(nautc, case, target):
    _, path, kernel, shape = case
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nautc, "compile", path, "-k", kernel, "--target", target,
               "--schedule", "auto", "--explain", "-o", os.path.join(tmp, "k.out")]
        if shape:
            cmd += ["--shape", shape]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout.splitlines()


def blocks(lines):
    """Each sampled GPU program's name and the lines of its explanation."""
    for i, line in enumerate(lines):
        header = HEADER.match(line)
        if not header:
            continue
        end = next((j for j in range(i + 1, len(lines))
                    if not lines[j].startswith("  ")), len(lines))
        yield header.group(1), lines[i + 1:end]


def main():
    nautc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build", "bin", "nautc")
    print(f"{'case':50} {'target':6} {'program':18} | {'one schedule (mean, worst regret)':52} "
          f"| {'heuristics (mean, worst)':44} | division")
    print("-" * 210)
    for case in CASES:
        for target in TARGETS:
            for program, lines in blocks(explain(nautc, case, target)):
                one = next((m for m in map(ONE.match, lines) if m), None)
                heur = next((m for m in map(HEUR.match, lines) if m), None)
                division = next((m for m in map(DIVISION.match, lines) if m), None)
                one_text = f"{one.group(3)} ({one.group(1)}x, {one.group(2)}x)" if one else "-"
                heur_text = f"{heur.group(3)} ({heur.group(1)}x, {heur.group(2)}x)" if heur else "-"
                div_text = "none"
                if division:
                    ranges = "; ".join(f"{m.group(1)}: {m.group(2)}"
                                       for m in map(RANGE.match, lines) if m)
                    div_text = (f"{division.group(1)} copies, {division.group(2)}x "
                                f"against {division.group(3)}x: {ranges}")
                print(f"{case[0]:50} {target:6} {program:18} | {one_text:52} | "
                      f"{heur_text:44} | {div_text}")


if __name__ == "__main__":
    main()
