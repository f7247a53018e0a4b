#!/usr/bin/env python3
"""Shared-memory bank conflicts and global sectors of the compiled kernels,
on the emulator.

usage: memory_profile.py [PATH/TO/nautc]

Runs `nautc run ... --device emu --profile` on the example kernels that
use shared memory (the tensor-core GEMMs' pipelines and epilogues, norms,
attention, and the row and column reductions of
test/e2e/Inputs/row_reductions.tensor) for sm_80 and sm_90, and prints, for
each program and kind of access, the warp requests, the wavefronts a GPU's
32 banks of 4 bytes serve them in (rt::bankWavefronts: quarter warps for
16-byte accesses, half warps for 8) and how many of those bank conflicts
add; then, for the global loads and stores, the requests, the 32-byte
sectors they touch and the share of those sectors' bytes they use. wgmma
and TMA are not counted (the hardware reads and writes their swizzled
tiles). No GPU needed; the counts do not depend on the machine.
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
nautc = args[0] if args else os.path.join(here, "..", "build", "bin", "nautc")
examples = os.path.join(here, "..", "..", "shared", "examples")
if not os.path.exists(os.path.join(examples, "gemm.tensor")):
    examples = os.path.join(here, "..", "examples")
reductions = os.path.join(here, "..", "test", "e2e", "Inputs", "row_reductions.tensor")

CASES = [
    (os.path.join(examples, "gemm.tensor"), "gemm", "M=256,N=256,K=256"),
    (os.path.join(examples, "gemm.tensor"), "gemm_bias_gelu", "M=256,N=256,K=256"),
    (os.path.join(examples, "gemm.tensor"), "bmm_nt", "Z=2,M=128,N=128,K=128"),
    (os.path.join(examples, "norms.tensor"), "rmsnorm", "T=64,D=1024"),
    (os.path.join(examples, "attention.tensor"), "attention", "B=1,H=2,N=130,M=136,D=64"),
    (os.path.join(examples, "attention.tensor"), "attention_gqa", "B=1,H=8,G=2,N=1,M=512,D=64"),
    (reductions, "row_stats", "R=8,C=3000"),
    (reductions, "column_sum", "R=3000,C=64"),
    (reductions, "pool_tokens", "B=2,T=3000,D=64"),
]
LINE = re.compile(r"profile: (\S+): shared (\S+) (\d+) requests, (\d+) wavefronts "
                  r"\((\d+) from bank conflicts\)")
GLOBAL = re.compile(r"profile: (\S+): global (\S+) (\d+) requests, (\d+) sectors of 32 "
                    r"bytes, (\d+)% of their bytes used")

shared, global_ = [], []
for path, kernel, shape in CASES:
    for target in ("sm_80", "sm_90"):
        cmd = [nautc, "run", path, "-k", kernel, "--device", "emu", "--target", target,
               "--shape", shape, "--multiprocessors", "1", "--profile"]
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            shared.append(f"| {kernel} | {target} | failed: {out.stderr.strip()[:80]} | | | | |")
            continue
        for m in LINE.finditer(out.stdout):
            shared.append(f"| {kernel} | {target} | " + " | ".join(m.groups()) + " |")
        for m in GLOBAL.finditer(out.stdout):
            program, access, requests, sectors, used = m.groups()
            global_.append(f"| {kernel} | {target} | {program} | {access} | {requests} | "
                           f"{sectors} | {used}% |")

print("Shared memory:\n")
print("| kernel | target | program | access | requests | wavefronts | from conflicts |")
print("|---|---|---|---|---|---|---|")
print("\n".join(shared))
print("\nGlobal memory:\n")
print("| kernel | target | program | access | requests | sectors | bytes used |")
print("|---|---|---|---|---|---|---|")
print("\n".join(global_))
