#!/usr/bin/env python3
"""Compiles every kernel of the example files for every target.

usage: compile_all.py NAUTC EXAMPLES_DIR OUT_DIR [--ptxas PTXAS]
Each kernel is compiled for sm_80 and sm_90 (--emit ptx), gfx90a and gfx942
(--emit amdgcn) and cpu (--emit obj), once with sizes left dynamic and, for
PTX, once with sizes bound. With --ptxas, every PTX file must assemble.
"""
import json
import os
import re
import subprocess
import sys

nautc, examples, out = sys.argv[1:4]
ptxas = sys.argv[5] if len(sys.argv) > 5 and sys.argv[4] == "--ptxas" else None

# Each kernel's bench shape (the sizes bound once per kernel).
BOUND = json.load(open(os.path.join(examples, "bench_shapes.json")))

jobs = []
for name in sorted(os.listdir(examples)):
    if not name.endswith(".tensor"):
        continue
    path = os.path.join(examples, name)
    kernels = re.findall(r"^kernel\s+(\w+)", open(path).read(), re.M)
    for k in kernels:
        for target, emit in [("sm_80", "ptx"), ("sm_90", "ptx"),
                             ("gfx90a", "amdgcn"), ("gfx942", "amdgcn"),
                             ("cpu", "obj")]:
            jobs.append((path, k, target, emit, None))
        for target in ("sm_80", "sm_90"):
            jobs.append((path, k, target, "ptx", BOUND[k]))
        jobs.append((path, k, "gfx942", "amdgcn", BOUND[k]))
        jobs.append((path, k, "cpu", "obj", BOUND[k]))

ok = failed = 0
ptx_files = []
for path, k, target, emit, shape in jobs:
    suffix = "bound" if shape else "dyn"
    dest = os.path.join(out, f"{k}.{target}.{suffix}.{emit}")
    cmd = [nautc, "compile", path, "-k", k, "--target", target, "--emit", emit, "-o", dest]
    if shape:
        cmd += ["--shape", shape]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0 or not os.path.getsize(dest):
        print(f"FAIL: {' '.join(cmd)}\n{proc.stderr}")
        failed += 1
        continue
    ok += 1
    if emit == "ptx":
        ptx_files.append((dest, target))
print(f"{ok} compiled, {failed} failed")

if not ptxas:
    print("ptxas not installed: PTX not assembled")
else:
    accepted = 0
    for dest, target in ptx_files:
        arch = "sm_90a" if target == "sm_90" else "sm_80"
        proc = subprocess.run([ptxas, f"-arch={arch}", dest, "-o", dest + ".cubin"],
                              capture_output=True, text=True)
        if proc.returncode == 0:
            accepted += 1
        else:
            print(f"ptxas rejected {dest}:\n{proc.stderr}")
    print(f"ptxas accepted {accepted} of {len(ptx_files)}")
sys.exit(1 if failed else 0)
