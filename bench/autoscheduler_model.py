#!/usr/bin/env python3
"""The auto-scheduler's choices on GPU workloads, under its own model.

usage: python3 bench/autoscheduler_model.py [PATH/TO/nautc] [--targets sm_80,sm_90]

For each workload (GEMMs from square to skinny, batched and transposed,
with an epilogue, attention at prefill, causal and decoding, a mixture of
experts' grouped GEMMs, a gated MLP, softmax and the norms) and target,
compiles with `--schedule auto --explain` and reports, per contraction
and per other program the model schedules (element-wise programs,
reductions, flash kernels), the predicted time of:
  - the model's choice (the exhaustive search's best),
  - today's hand-written heuristics (the default schedules),
  - for contractions, a deterministic wave heuristic (DeepGEMM's: fewest
    waves, then the fullest last wave), from the same space,
  - for contractions, Triton's autotuning configurations (the fp16 list of
    Triton's matmul tutorial, 03-matrix-multiplication.py): the best of
    those the space holds under the same model, i.e. what Triton's
    autotuner would pick if the model were the device (`--explain-candidates
    all` lists every candidate's prediction; a configuration matches a
    candidate of the same tile, K step and stages, its warps as the space
    lays them out),
  - for flash kernels, likewise Triton's fused-attention tutorial's
    configurations (06-fused-attention.py: on sm_90 its TMA kernel's,
    BLOCK_M 64 or 128, BLOCK_N 32, 64 or 128, 2, 3, 4 or 6 stages; on
    sm_80 its other kernel's, BLOCK_M 64 or 128, BLOCK_N 32 or 64, 3, 4
    or 7 stages): a configuration matches an unsplit candidate of Triton's
    instructions on the target (wgmma on sm_90, mma.sync on sm_80) with
    BLOCK_M rows, keys BLOCK_N and the same stages, its warps as the space
    lays them out (a warp a 16 rows, Triton's 4 or 8 warps notwithstanding;
    a split-KV candidate matches none: the tutorial does not split),
and the compile's wall time (the search included). These are the model's
predictions, not measurements: no GPU is needed, and none has measured
them yet (bench/gpu is where a device would).
"""
import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")

WORKLOADS = [
    ("gemm.tensor", "gemm", "M=4096,N=4096,K=4096"),
    ("gemm.tensor", "gemm", "M=8192,N=8192,K=1024"),
    ("gemm.tensor", "gemm", "M=1024,N=1024,K=4096"),
    ("gemm.tensor", "gemm", "M=16,N=4096,K=4096"),
    ("gemm.tensor", "gemm", "M=4096,N=128,K=8192"),
    ("gemm.tensor", "gemm", "M=128,N=128,K=16384"),
    ("gemm.tensor", "gemm", "M=2000,N=3000,K=1000"),
    ("gemm.tensor", "gemm_bias_gelu", "M=4096,N=4096,K=4096"),
    ("gemm.tensor", "gemm_bias_gelu", "M=512,N=1024,K=8192"),
    ("gemm.tensor", "bmm_nt", "Z=8,M=1024,N=1024,K=512"),
    ("gemm.tensor", "bmm_nt", "Z=64,M=256,N=256,K=64"),
    ("attention.tensor", "attention", "B=4,H=16,N=4096,M=4096,D=128"),
    ("attention.tensor", "attention", "B=1,H=32,N=512,M=8192,D=128"),
    ("attention.tensor", "attention", "B=1,H=32,N=1,M=8192,D=128"),
    ("attention.tensor", "attention_causal", "B=2,H=16,N=4096,M=4096,D=64"),
    ("attention.tensor", "attention", "B=2,H=8,N=2048,M=2048,D=256"),
    ("moe.tensor", "moe_ffn", "T=4096,D=1024,F=2816,E=8,J=2"),
    ("mlp.tensor", "swiglu_mlp", "T=4096,D=4096,F=11008"),
    ("norms.tensor", "softmax", "R=4096,C=1024"),
    ("norms.tensor", "softmax", "R=4,C=50000"),
    ("norms.tensor", "layernorm", "T=4096,D=1024"),
    ("norms.tensor", "layernorm", "T=64,D=8192"),
    ("norms.tensor", "rmsnorm", "T=4096,D=4096"),
]

LINE = re.compile(r"^\s*(chosen|heuristics|fewest waves):\s+(.*?): ([0-9.]+) us")
RANKED = re.compile(r"^\s*(?:chosen|runner-up|refuted):\s+(.*?): ([0-9.]+) us")
CANDIDATE = re.compile(r"^(wgmma|mma_sync) (\d+)x(\d+)x(\d+) warps \[(\d+), (\d+)\] "
                       r"stages (\d+)( split_k \d+)?$")

# Triton's matmul tutorial's fp16 autotuning configurations (BLOCK_SIZE_M,
# BLOCK_SIZE_N, BLOCK_SIZE_K, num_stages, num_warps), GROUP_SIZE_M 8.
TRITON_CONFIGS = [
    (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4),
    (128, 64, 32, 4, 4), (64, 128, 32, 4, 4), (128, 32, 32, 4, 4),
    (64, 32, 32, 5, 2), (32, 64, 32, 5, 2),
]


# Triton's fused-attention tutorial's forward configurations (BLOCK_M,
# BLOCK_N, num_stages), by target: the TMA kernel's on sm_90 (wgmma), the
# other's on sm_80 (mma.sync).
TRITON_FLASH_CONFIGS = {
    "sm_90": ("wgmma", [(m, n, s) for m in (64, 128) for n in (32, 64, 128)
                        for s in (2, 3, 4, 6)]),
    "sm_80": ("mma_sync", [(m, n, s) for m in (64, 128) for n in (32, 64)
                           for s in (3, 4, 7)]),
}
FLASH_CANDIDATE = re.compile(r"^(wgmma|mma_sync) (\d+) rows, keys (\d+)"
                             r"(?:, (\d+) stages)?(, split \d+)?$")


def triton_flash_best(candidates, target):
    """The best predicted of the flash candidates that stand for one of
    Triton's fused-attention configurations on `target` (see the file
    comment), how many of them the space holds, and how many there are."""
    instr, configs = TRITON_FLASH_CONFIGS.get(target, (None, []))
    best, held = None, set()
    for describe, us in candidates:
        m = FLASH_CANDIDATE.match(describe)
        if not m or m.group(5) or m.group(1) != instr:
            continue
        config = (int(m.group(2)), int(m.group(3)), int(m.group(4) or 2))
        if config in configs:
            held.add(config)
            if best is None or us < best[1]:
                best = (describe, us)
    return best, len(held), len(configs)


def triton_best(candidates):
    """The best predicted of the candidates that stand for one of Triton's
    configurations (the same tile, K step and stages, K unsplit; the warps
    as the space lays them out for that tile, which may differ from
    Triton's num_warps), and how many of the configurations the space
    holds."""
    best, held = None, set()
    for describe, us in candidates:
        m = CANDIDATE.match(describe)
        if not m or m.group(8):
            continue
        tm, tn, tk, wm, wn, stages = (int(m.group(i)) for i in (2, 3, 4, 5, 6, 7))
        config = (tm, tn, tk, stages)
        if config in {c[:4] for c in TRITON_CONFIGS}:
            held.add(config)
            if best is None or us < best[1]:
                best = (describe, us)
    return best, len(held)
HEAD = re.compile(r"^explain: (?:contraction|GPU program) (.*?): (\d+) candidates")


def explain(nautc, file, kernel, shape, target):
    cmd = [nautc, "compile", os.path.join(EXAMPLES, file), "-k", kernel,
           "--target", target, "--shape", shape, "--schedule", "auto",
           "--explain", "--explain-candidates", "all", "-o", os.devnull]
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr}")
    rows, row = [], None
    for line in proc.stdout.splitlines():
        if m := HEAD.match(line):
            row = {"problem": m.group(1), "space": int(m.group(2)), "ranked": []}
            rows.append(row)
            continue
        if row is None:
            continue
        if m := RANKED.match(line):
            row["ranked"].append((m.group(1), float(m.group(2))))
        if m := LINE.match(line):
            row[m.group(1)] = (m.group(2), float(m.group(3)))
    return rows, seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("nautc", nargs="?",
                        default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    parser.add_argument("--targets", default="sm_80,sm_90")
    args = parser.parse_args()
    print("| target | kernel | program | space | model's choice | us | "
          "heuristics | us | x | fewest waves | us | x | Triton's configs (held) | us | x | "
          "compile s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    ratios = {"heuristics": [], "fewest waves": [], "Triton's configurations": [],
              "Triton's attention configurations": []}
    for target in args.targets.split(","):
        for file, kernel, shape in WORKLOADS:
            rows, seconds = explain(args.nautc, file, kernel, shape, target)
            for row in rows:
                chosen = row["chosen"]
                cells = [target, kernel, row["problem"], str(row["space"]),
                         chosen[0], f"{chosen[1]:.1f}"]
                for other in ("heuristics", "fewest waves"):
                    if other in row:
                        name, us = row[other]
                        ratios[other].append(us / chosen[1])
                        cells += [name, f"{us:.1f}", f"{us / chosen[1]:.2f}"]
                    else:
                        cells += ["-", "-", "-"]
                best, held = triton_best(row["ranked"])
                configs, kind = len(TRITON_CONFIGS), "Triton's configurations"
                if not best:
                    best, held, configs = triton_flash_best(row["ranked"], target)
                    kind = "Triton's attention configurations"
                if best:
                    ratios[kind].append(best[1] / chosen[1])
                    cells += [f"{best[0]} ({held} of {configs})", f"{best[1]:.1f}",
                              f"{best[1] / chosen[1]:.2f}"]
                else:
                    cells += ["-", "-", "-"]
                cells.append(f"{seconds:.2f}")
                print("| " + " | ".join(cells) + " |")
    for other, values in ratios.items():
        if values:
            geo = 1.0
            for v in values:
                geo *= v
            geo **= 1.0 / len(values)
            print(f"\n{other}: predicted time / the model's choice, geometric "
                  f"mean {geo:.2f} over {len(values)} programs, worst "
                  f"{max(values):.2f}")


if __name__ == "__main__":
    main()
