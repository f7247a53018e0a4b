#!/usr/bin/env python3
"""How long the SIMT emulator takes to run a 256x256x256 f16 GEMM kernel.

usage: emulator_gemm.py [PATH/TO/nautc] [--size 256]

Runs `nautc run examples/gemm.tensor -k gemm --device emu --target sm_80
--shape M=S,N=S,K=S --time` (the kernel as compiled for sm_80, executed by
the emulator with every global access bounds-checked) and reports the median
time of one launch. The issue's aim: under 10 seconds on two cores.
"""
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
nautc = args[0] if args else os.path.join(here, "..", "build", "bin", "nautc")
size = 256
if "--size" in sys.argv:
    size = int(sys.argv[sys.argv.index("--size") + 1])
examples = os.path.join(here, "..", "..", "shared", "examples")
if not os.path.exists(os.path.join(examples, "gemm.tensor")):
    examples = os.path.join(here, "..", "examples")

for target in ("sm_80", "sm_90"):
    cmd = [nautc, "run", os.path.join(examples, "gemm.tensor"), "-k", "gemm",
           "--device", "emu", "--target", target,
           "--shape", f"M={size},N={size},K={size}", "--time"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    match = re.search(r"time: median ([0-9.]+) ms over (\d+) runs", out.stdout)
    if out.returncode != 0 or not match:
        print(f"{target}: failed: {out.stderr.strip()}")
        continue
    ms = float(match.group(1))
    verdict = "meets" if ms < 10000 else "misses"
    print(f"{target}: {size}^3 f16 GEMM on the emulator: median {ms:.1f} ms "
          f"over {match.group(2)} runs ({verdict} the 10 s aim)")
