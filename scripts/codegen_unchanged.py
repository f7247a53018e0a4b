#!/usr/bin/env python3
"""Checks that a change left the generated code as it was.

usage: scripts/codegen_unchanged.py OLD_COMMIT [--keep DIR] [--only KERNEL]

Builds nautc at OLD_COMMIT (a git worktree in build/codegen-baseline, built
in its own build/, so that ccache, given base_dir, shares objects with
other checkouts), then compiles every kernel of examples/*.tensor
with the old and the current nautc (build/bin/nautc, which must be built):
PTX for sm_80 and sm_90, AMDGCN for gfx90a and gfx942 and an object for the
host, each once with sizes left dynamic and once at the kernel's bench shape
(examples/bench_shapes.json). Both compilers read the current examples.

Prints one line per artefact that differs (or that one side failed to
compile) and exits 1 if any did; exits 0 when every artefact is
byte-identical. Intended differences are listed in the note of the change
that made them, with their reasons.
"""
import argparse
import concurrent.futures
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = [("sm_80", "ptx"), ("sm_90", "ptx"), ("gfx90a", "amdgcn"),
           ("gfx942", "amdgcn"), ("cpu", "obj")]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build_baseline(commit):
    base = os.path.join(ROOT, "build", "codegen-baseline")
    src = base
    sha = subprocess.run(["git", "-C", ROOT, "rev-parse", commit], check=True,
                         capture_output=True, text=True).stdout.strip()
    head = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"],
                          capture_output=True, text=True).stdout.strip() \
        if os.path.exists(os.path.join(src, ".git")) else ""
    if head != sha:
        if os.path.exists(src):
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force",
                            src])
            shutil.rmtree(src, ignore_errors=True)
        os.makedirs(os.path.dirname(src), exist_ok=True)
        run(["git", "-C", ROOT, "worktree", "add", "--detach", src, sha])
    build = os.path.join(src, "build")
    env = dict(os.environ,
               CCACHE_BASEDIR=os.path.dirname(ROOT))
    if not os.path.exists(os.path.join(build, "build.ninja")):
        run(["cmake", "-G", "Ninja", "-S", src, "-B", build,
             "-DCMAKE_BUILD_TYPE=Release"], env=env, stdout=subprocess.DEVNULL)
    run(["ninja", "-C", build, "nautc"], env=env)
    return os.path.join(build, "bin", "nautc")


def jobs(only):
    shapes = json.load(open(os.path.join(ROOT, "examples", "bench_shapes.json")))
    examples = os.path.join(ROOT, "examples")
    for name in sorted(os.listdir(examples)):
        if not name.endswith(".tensor"):
            continue
        path = os.path.join(examples, name)
        for kernel in re.findall(r"^kernel\s+(\w+)", open(path).read(), re.M):
            if only and kernel != only:
                continue
            for target, emit in TARGETS:
                yield path, kernel, target, emit, None
                yield path, kernel, target, emit, shapes[kernel]


def compile_one(nautc, out, job):
    path, kernel, target, emit, shape = job
    dest = os.path.join(out, artefact_name(job))
    cmd = [nautc, "compile", path, "-k", kernel, "--target", target,
           "--emit", emit, "-o", dest]
    if shape:
        cmd += ["--shape", shape]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return proc.returncode == 0 and os.path.exists(dest)


def artefact_name(job):
    _, kernel, target, emit, shape = job
    return f"{kernel}.{target}.{'bound' if shape else 'dyn'}.{emit}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("commit")
    parser.add_argument("--keep", help="write both sides' artefacts here")
    parser.add_argument("--only", help="one kernel")
    args = parser.parse_args()
    new_nautc = os.path.join(ROOT, "build", "bin", "nautc")
    if not os.path.exists(new_nautc):
        sys.exit("build nautc first (scripts/build.sh nautc)")
    old_nautc = build_baseline(args.commit)
    out = args.keep or os.path.join(ROOT, "build", "codegen-compare")
    shutil.rmtree(out, ignore_errors=True)
    sides = {"old": old_nautc, "new": new_nautc}
    for side in sides:
        os.makedirs(os.path.join(out, side))
    work = list(jobs(args.only))
    results = {}
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        futures = {pool.submit(compile_one, nautc, os.path.join(out, side), j):
                   (side, artefact_name(j))
                   for side, nautc in sides.items() for j in work}
        for f in concurrent.futures.as_completed(futures):
            results[futures[f]] = f.result()
    differ = 0
    for j in work:
        name = artefact_name(j)
        old_ok, new_ok = results[("old", name)], results[("new", name)]
        if not old_ok and not new_ok:
            print(f"both failed: {name}")
            differ += 1
        elif old_ok != new_ok:
            print(f"{'new' if old_ok else 'old'} failed: {name}")
            differ += 1
        elif not filecmp.cmp(os.path.join(out, "old", name),
                             os.path.join(out, "new", name), shallow=False):
            print(f"differs: {name}")
            differ += 1
    print(f"{len(work) - differ} identical, {differ} different "
          f"(artefacts in {out})")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
