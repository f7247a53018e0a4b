#!/usr/bin/env python3
"""Checks the house's one-way data flow and that targets are asked, not named.

usage: scripts/check_layers.py [ROOT]

1. Layers: every #include "folder/..." of a source file names a folder at
   its own layer or below (runtime, dialects, frontend/interpreter, target,
   schedule, transforms, conversion, verify, pipeline, jit, tools); the runtime includes
   nothing of dialects/ or compiler/.
2. Targets: outside compiler/Target no source compares a target's name
   (== "sm_90", != "cpu", starts_with("sm_"), ...).
Prints each violation and a summary line; exits 1 if there is any.
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))

# The layers, lowest first: a folder may include its own layer and below.
LAYERS = [
    ["runtime"],
    ["dialects/Alg", "dialects/Tile/Layout"],
    ["dialects/Tile"],
    ["dialects/Tile/Utils", "compiler/Frontend", "compiler/Interpreter"],
    ["compiler/Target"],
    ["autoscheduler"],
    ["compiler/Schedule"],
    ["compiler/Transforms/Alg", "compiler/Transforms/Tile",
     "compiler/Transforms/LLVM"],
    ["compiler/Conversion"],
    ["compiler/Verify"],
    ["compiler/Pipeline"],
    ["compiler/Jit"],
    ["tools"],
]


def layer_of(path):
    """The layer of a path (longest folder prefix), or None."""
    best, level = "", None
    for i, folders in enumerate(LAYERS):
        for folder in folders:
            if (path == folder or path.startswith(folder + "/")) and \
                    len(folder) > len(best):
                best, level = folder, i
    return level


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
NAME_TEST = re.compile(
    r'(==|!=)\s*"(sm_\d+a?|gfx\d+\w*)"|'
    r'"(sm_\d+a?|gfx\d+\w*)"\s*(==|!=)|'
    r'[Tt]arget\w*(\.name|->name|\(\))?\s*(==|!=)\s*"cpu"|'
    r'starts_with\(\s*"(sm_|gfx)')


def main():
    problems = []
    files = 0
    for top in ["runtime", "dialects", "compiler", "autoscheduler", "tools"]:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if not name.endswith((".h", ".cpp", ".td")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), ROOT)
                files += 1
                level = layer_of(path)
                for number, line in enumerate(open(os.path.join(ROOT, path)),
                                              1):
                    m = INCLUDE.match(line)
                    if m:
                        included = layer_of(m.group(1))
                        if included is not None and level is not None and \
                                included > level:
                            problems.append(
                                f"{path}:{number}: includes {m.group(1)}, "
                                "a layer above it")
                    if not path.startswith("compiler/Target/") and \
                            NAME_TEST.search(line.split("//")[0]):
                        problems.append(
                            f"{path}:{number}: compares a target's name; ask "
                            "TargetInfo for the capability instead")
    for p in problems:
        print(p)
    print(f"layers: {files} files, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
