#!/usr/bin/env python3
"""Global traffic of a kernel's structures on the emulator: contractions
that share an operand as sibling contractions (the default on NVIDIA
GPUs) against the same contractions kept apart.

usage: structure_traffic.py [PATH/TO/nautc] [--cases N]

Runs `nautc run ... --device emu --profile --check` on the gated MLP and
the mixture of experts (the heuristics' schedules for the target's
multiprocessors), each as compiled by default and with a schedule
file's "fuse_shared_operands": false, for sm_80 and sm_90, and prints for
each program the 32-byte global sectors it loads (TMA boxes included) and
stores, and each structure's total. Every run must pass its check. No GPU
needed; the counts do not depend on the machine (a routed kernel's
gathered rows share sectors in the order the routing's atomics ran, so
those vary by a few percent).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
nautc = args[0] if args else os.path.join(here, "..", "build", "bin", "nautc")
examples = os.path.join(here, "..", "..", "shared", "examples")
if not os.path.exists(os.path.join(examples, "mlp.tensor")):
    examples = os.path.join(here, "..", "examples")
cases_arg = [a for a in sys.argv[1:] if a.startswith("--cases=")]

CASES = [
    ("mlp.tensor", "swiglu_mlp", "T=256,D=256,F=512"),
    ("moe.tensor", "moe_ffn", "T=512,D=128,F=256,E=4,J=2"),
    ("moe.tensor", "moe_ffn", "T=256,D=512,F=512,E=4,J=2"),
]
if cases_arg:
    CASES = CASES[:int(cases_arg[0].split("=", 1)[1])]

GLOBAL = re.compile(r"profile: (\S+): global (loads|stores|TMA loads) (\d+) requests, "
                    r"(\d+) sectors of 32 bytes")


def traffic(path, kernel, shape, target, schedule):
    cmd = [nautc, "run", path, "-k", kernel, "--device", "emu", "--target", target,
           "--shape", shape, "--profile", "--check"]
    if schedule:
        cmd += ["--schedule", schedule]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0 or "FAIL" in out.stdout:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    programs = {}
    for program, access, _, sectors in GLOBAL.findall(out.stdout):
        loaded, stored = programs.get(program, (0, 0))
        if access == "stores":
            stored += int(sectors)
        else:
            loaded += int(sectors)
        programs[program] = (loaded, stored)
    return programs


def main():
    with tempfile.TemporaryDirectory() as tmp:
        apart = os.path.join(tmp, "apart.json")
        with open(apart, "w") as f:
            json.dump({"fuse_shared_operands": False, "programs": {}}, f)
        print("| kernel | shape | target | structure | program | sectors loaded | sectors stored |")
        print("|---|---|---|---|---|---|---|")
        totals = []
        for file, kernel, shape in CASES:
            for target in ("sm_80", "sm_90"):
                row = []
                for name, schedule in (("siblings", None), ("apart", apart)):
                    programs = traffic(os.path.join(examples, file), kernel, shape, target,
                                       schedule)
                    for program, (loaded, stored) in programs.items():
                        print(f"| {kernel} | {shape} | {target} | {name} | {program} | "
                              f"{loaded} | {stored} |")
                    row.append((len(programs), sum(l + s for l, s in programs.values())))
                totals.append((kernel, shape, target, row))
        print()
        print("| kernel | shape | target | siblings: programs, sectors | apart: programs, "
              "sectors | siblings / apart |")
        print("|---|---|---|---|---|---|")
        for kernel, shape, target, ((p1, s1), (p2, s2)) in totals:
            print(f"| {kernel} | {shape} | {target} | {p1}, {s1} | {p2}, {s2} | "
                  f"{s1 / s2:.2f} |")


if __name__ == "__main__":
    main()
