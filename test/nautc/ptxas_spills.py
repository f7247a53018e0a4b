#!/usr/bin/env python3
"""Assembles PTX files with `ptxas -v` and reports their spills.

usage: ptxas_spills.py [--ptxas PATH] FILE:ARCH ...
Prints each file's registers and spills, then "N of N files: no spills"
(or the files that spill, exit 1). A "Potential Performance Loss" warning
(ptxas serialising wgmma, C7514) fails the check too. Without --ptxas it
says so and checks nothing.
"""
import re
import subprocess
import sys

args = sys.argv[1:]
ptxas = None
if args[:1] == ["--ptxas"]:
    ptxas, args = args[1], args[2:]
if not ptxas:
    print("ptxas not installed: spills not checked")
    sys.exit(0)
spilling = []
for item in args:
    path, arch = item.rsplit(":", 1)
    out = subprocess.run([ptxas, "-v", "-arch=" + arch, path, "-o", "/dev/null"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"{path}: ptxas failed:\n{out.stderr}")
        sys.exit(1)
    spills = [int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", out.stderr)]
    registers = re.findall(r"Used (\d+) registers", out.stderr)
    print(f"{path} ({arch}): {', '.join(registers)} registers, "
          f"{sum(spills)} bytes spilled")
    if any(spills):
        spilling.append(path)
    for warning in re.findall(r"Potential Performance Loss: (.*)", out.stderr):
        print(f"{path} ({arch}): {warning}")
        spilling.append(path)
if spilling:
    print("spills or performance warnings in: " + ", ".join(spilling))
    sys.exit(1)
print(f"{len(args)} of {len(args)} files: no spills")
