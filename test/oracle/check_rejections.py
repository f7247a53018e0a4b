#!/usr/bin/env python3
"""Checks that the oracle rejects every malformed .tensor file of folders.

usage: check_rejections.py DIR ...

Runs oracle.py on each DIR/*.tensor (with the --shape and -k of the file's
RUN line, if any, and --seed 0) and expects exit status 1 and a first line
`FILE:LINE:COL: error: MESSAGE`, never a Python traceback. Prints one line
per file (REJECTED with the message, or WRONG with what happened), then a
count; exits 1 unless every file is rejected so.
"""
import glob
import os
import re
import subprocess
import sys

ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle.py")


def options_of(path):
    with open(path, encoding="latin-1") as f:
        run = next((line for line in f if "RUN:" in line), "")
    options = []
    for flag in ("--shape", "-k"):
        found = re.search(re.escape(flag) + r" (\S+)", run)
        if found:
            options += [flag, found.group(1)]
    return options


def main():
    files = sorted(f for folder in sys.argv[1:] for f in glob.glob(os.path.join(folder, "*.tensor")))
    wrong = 0
    for path in files:
        proc = subprocess.run([sys.executable, ORACLE, path, "--seed", "0", *options_of(path)],
                              capture_output=True, text=True)
        first = proc.stderr.splitlines()[0] if proc.stderr else ""
        located = re.match(re.escape(path) + r":\d+:\d+: error: ", first)
        name = os.path.basename(path)
        if proc.returncode == 1 and located and "Traceback" not in proc.stderr:
            print(f"REJECTED {name}: {first[len(path) + 1:]}")
        else:
            wrong += 1
            print(f"WRONG {name}: exit status {proc.returncode}\n{proc.stderr}{proc.stdout}")
    print(f"{len(files) - wrong} rejected, {wrong} wrong")
    return 1 if wrong or not files else 0


if __name__ == "__main__":
    sys.exit(main())
