#!/usr/bin/env python3
"""Compares nautc with the oracle on every kernel of the example files.

usage: compare_examples.py [--nautc PATH] [--examples DIR ...] [--work DIR]
                           [--device cpu] [--nautc-options '...'] [--shapes 2]
                           [--seed 0] [--arithmetic typed|f64]

For each kernel of each DIR/*.tensor (default: the repository's examples/)
and each of --shapes random small shapes (the first with sizes in [1, 9],
the others ragged, in [10, 47], shrunk until the oracle's index spaces stay
small; all meeting the kernel's `require` lines), draws inputs with numpy
(integer tensors read in an indirect index hold valid indices), runs
`nautc run --device DEVICE --input ... --save` and the oracle on them, and
compares each output within the bound described in comparison.py. Prints a
PASS or FAIL line per kernel and shape, then a count; exits 1 if any fails.
"""
import argparse
import glob
import os
import shlex
import shutil
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from comparison import check_kernel, draw_sizes  # noqa: E402
from tensorlang import OracleError, load, random_inputs  # noqa: E402

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SHAPE_RANGES = [(1, 9), (10, 47)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nautc", default=os.path.join(REPO, "build", "bin", "nautc"))
    parser.add_argument("--examples", action="append",
                        help="a folder of .tensor files (repeatable; default: examples/)")
    parser.add_argument("--work", help="where to write inputs and outputs (default: a temporary folder)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--nautc-options", default="",
                        help="more options for nautc run, e.g. '--target sm_90'")
    parser.add_argument("--shapes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--arithmetic", choices=("typed", "f64"), default="typed")
    parser.add_argument("--verbose", action="store_true", help="print each output's worst error")
    args = parser.parse_args()

    if not shutil.which(args.nautc):
        print(f"compare_examples.py: cannot run nautc at {args.nautc} (give it with --nautc)", file=sys.stderr)
        return 2
    folders = args.examples or [os.path.join(REPO, "examples")]
    files = sorted(f for folder in folders for f in glob.glob(os.path.join(folder, "*.tensor")))
    if not files:
        print(f"no .tensor files in {', '.join(folders)}", file=sys.stderr)
        return 1
    work = args.work or tempfile.mkdtemp(prefix="oracle-compare-")
    if os.path.exists(work):
        shutil.rmtree(work)
    rng = np.random.default_rng(args.seed)
    passed = failed = 0
    for path in files:
        try:
            program = load(path)
        except OracleError as error:
            print(f"FAIL {os.path.basename(path)}: the oracle rejects it:\n{error.render()}")
            failed += 1
            continue
        for name, kernel in program.kernels.items():
            for n in range(args.shapes):
                low, high = SHAPE_RANGES[min(n, len(SHAPE_RANGES) - 1)]
                sizes = draw_sizes(kernel, rng, low, high)
                inputs = random_inputs(kernel, sizes, seed=int(rng.integers(1 << 30)))
                folder = os.path.join(work, os.path.splitext(os.path.basename(path))[0], name, str(n))
                outcome = check_kernel(args.nautc, path, kernel, sizes, inputs, folder,
                                       ["--device", args.device, *shlex.split(args.nautc_options)],
                                       args.arithmetic, gpu=args.device in ("emu", "cuda"))
                ok, score, lines = outcome.passed, outcome.score, outcome.lines
                shape = ",".join(f"{k}={v}" for k, v in sizes.items())
                print(f"{'PASS' if ok else 'FAIL'} {os.path.basename(path)} -k {name} --shape {shape}"
                      f" (worst {score:.3g} of the bound)")
                if not ok or args.verbose:
                    for line in lines:
                        print("    " + line)
                if not ok:
                    print(f"    inputs and outputs in {folder}")
                passed += ok
                failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
