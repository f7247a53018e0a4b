"""What the fuzz scripts share: the command line and the run of many cases.

Each script defines `run_one(nautc, folder, n) -> (kind, report)` for case
n (seeded by n, so a case is reproduced by its number) and calls `main`.
A script with options of its own passes `add_options(parser)`; its
`run_one` then takes the parsed arguments as a fourth argument.
"""
import argparse, os, shutil, tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

NAUTC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin", "nautc")


def main(doc, run_one, count=40, quiet=("pass",), good=("pass",), name="case",
         add_options=None):
    """Runs cases --start .. --start + --count, two at a time, printing each
    whose kind is not in `quiet` as it ends, then the count of each kind.
    Exit status 0 when every case's kind is in `good`."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--nautc", default=NAUTC)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=count)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--verbose", action="store_true", help="print every case that is not a pass")
    if add_options:
        add_options(parser)
    args = parser.parse_args()
    if add_options:
        one = run_one
        run_one = lambda nautc, folder, n: one(nautc, folder, n, args)  # noqa: E731
    folder = tempfile.mkdtemp(prefix="nautilus-fuzz-")
    counts = Counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        jobs = [(n, pool.submit(run_one, args.nautc, folder, n))
                for n in range(args.start, args.start + args.count)]
        for n, job in jobs:
            try:
                kind, report = job.result()
            except Exception as error:  # the case's own failure, not nautc's
                kind, report = "script error", repr(error)
            counts[kind] += 1
            if kind not in quiet or (args.verbose and kind != "pass"):
                print(f"--- {name} {n}: {kind}\n{report}\n", flush=True)
    passed = all(kind in good for kind in counts)
    if passed:  # nothing to reproduce: leave no files behind
        shutil.rmtree(folder, ignore_errors=True)
    print(", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
          "" if passed else f"(files in {folder})")
    return 0 if passed else 1
