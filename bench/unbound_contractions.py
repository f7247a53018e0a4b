#!/usr/bin/env python3
"""GPU tensor-core contractions compiled without some of their sizes: what
the contraction model chooses, and what it predicts (no GPU needed).

A kernel compiled without its M or N (a bundle an application launches
at every number of tokens) takes, under `--schedule auto`, the schedule
the model ranks best over sample shapes, or copies for ranges of M or N
launched by the size (docs/autoscheduler.md, "A contraction whose M or N
is unbound"). For each case and target this prints, from `nautc compile
--explain`, the one schedule and its regrets over the samples (its time
over the best schedule's at each sample shape: the geometric mean and the
worst), the hand-written heuristics' schedule and its regrets, and the
division where one is chosen (its copies and its geometric-mean regret
over its own samples, against the one schedule's there). These are the
model's predictions, unmeasured on a GPU (bench/gpu times a linear layer
compiled without M, its copies against the heuristics' one schedule,
whenever a device is lent).

    python3 bench/unbound_contractions.py [PATH/TO/nautc]
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")

# name, file, kernel, the sizes bound at compile time
CASES = [
    ("GEMM, M and N unbound", "gemm.tensor", "gemm", ""),
    ("GEMM, M unbound (N = K = 4096)", "gemm.tensor", "gemm", "N=4096,K=4096"),
    ("GEMM, M unbound (N = K = 512)", "gemm.tensor", "gemm", "N=512,K=512"),
    ("GEMM, M unbound (N = 11008, K = 4096)", "gemm.tensor", "gemm", "N=11008,K=4096"),
    ("GEMM + bias + GELU, M unbound (N = K = 1024)", "gemm.tensor",
     "gemm_bias_gelu", "N=1024,K=1024"),
    ("batched A B^T, 8 matrices, M and N unbound (K = 64)", "gemm.tensor",
     "bmm_nt", "Z=8,K=64"),
]

ONE = re.compile(r"^  (chosen|one schedule): +(.*?): ([0-9.]+)x the best \(geometric mean\), ([0-9.]+)x at worst")
HEUR = re.compile(r"^  heuristics: (.*?): ([0-9.]+)x the best \(geometric mean\), ([0-9.]+)x at worst")
DIVISION = re.compile(r"^  chosen: +(\d+) copies .*?ranges alone: ([0-9.]+)x the best .*against ([0-9.]+)x")
RANGE = re.compile(r"^    (\S.*?): (.*?): ([0-9.]+)x the best over its samples")


def explain(nautc, case, target):
    _, file, kernel, shape = case
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [nautc, "compile", os.path.join(EXAMPLES, file), "-k", kernel,
               "--target", target, "--schedule", "auto", "--explain",
               "-o", os.path.join(tmp, "k.bundle")]
        if shape:
            cmd += ["--shape", shape]
        proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout + proc.stderr


def first_contraction(text):
    """The lines of the first sampled contraction's explanation."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines)
                  if l.startswith("explain: contraction") and "sample shapes" in l), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines))
                if lines[i].startswith("explain:")), len(lines))
    return lines[start:end]


def main():
    nautc = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "build", "bin", "nautc")
    print(f"{'case':52} {'target':6} | {'one schedule (mean, worst regret)':44} | {'heuristics (mean, worst)':36} | division")
    print("-" * 180)
    for case in CASES:
        for target in ("sm_80", "sm_90"):
            lines = first_contraction(explain(nautc, case, target))
            one = next((m for m in map(ONE.match, lines) if m), None)
            heur = next((m for m in map(HEUR.match, lines) if m), None)
            division = next((m for m in map(DIVISION.match, lines) if m), None)
            one_text = f"{one.group(2)} ({one.group(3)}x, {one.group(4)}x)" if one else "-"
            heur_text = f"{heur.group(1)} ({heur.group(2)}x, {heur.group(3)}x)" if heur else "-"
            if division:
                ranges = "; ".join(f"{m.group(1)}: {m.group(2)}" for m in map(RANGE.match, lines) if m)
                div_text = (f"{division.group(1)} copies, {division.group(2)}x "
                            f"against {division.group(3)}x: {ranges}")
            else:
                div_text = "none"
            print(f"{case[0]:52} {target:6} | {one_text:44} | {heur_text:36} | {div_text}")


if __name__ == "__main__":
    main()
