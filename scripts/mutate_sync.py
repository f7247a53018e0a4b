#!/usr/bin/env python3
"""Sync mutation testing: delete each synchronisation of each example kernel, one at a time.

usage: scripts/mutate_sync.py [--nautc build/bin/nautc] [--only KERNEL]
                              [--target sm_80|sm_90] [--list] [--jobs N]
                              [--report PATH]

For each example kernel (examples/*.tensor, at a small ragged shape with
several K steps and tiles), for sm_80 and sm_90, under the default
schedule and (sm_90) the persistent warp-specialised one (the target's
multiprocessors cut to 4 so that the persistent pipeline runs at a small
shape) and, for attention, FlashAttention-3's structure (a producer
warpgroup, ping-pong consumers, the softmax overlapped with the previous
block's P V, three stages), the kernels' NVVM-level IR (`nautc compile --emit llvm`) is
mutated by deleting one synchronisation:

- a block or named barrier (`llvm.nvvm.barrier.cta.sync...`);
- a cp.async wait (`llvm.nvvm.cp.async.wait.group` / `.all`);
- an mbarrier wait (the try_wait loop, inline PTX);
- a wgmma wait (`llvm.nvvm.wgmma.wait_group...`, or the epilogue's
  inline-PTX wait, whose accumulators then pass through unwaited);
- a fence (`llvm.nvvm.fence.*`, the proxy fences, `wgmma.fence`).

Each mutant runs on the emulator (`nautc run --device emu --kernel-ir
MUTANT --check`, in a random fibre order). It is killed when the run fails
in any way: a race, an async hazard, a deadlock, a barrier divergence, or
results that no longer match the reference. A few synchronisations order
performance, not data (EXPLAINED: the ping-pong turns); their survivors
are reported as explained. The verifier (nautc verify)
proves the tile programs, which a mutant of the LLVM IR does not change:
its share here is the protocol numbers these sites come from (see
docs/verification.md); the emulator is what judges the emitted code.

Prints one line a mutant and a summary (the kill rate); --report writes
the table as markdown. Exits 1 if any mutant survives unexplained. A survivor is a
synchronisation the compiler emits that nothing needs at that shape, or
a gap in the emulator's checks: each must be explained.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EX = os.path.join(ROOT, "examples")

# (file, kernel, shape): several K steps, ragged edges, more than one tile.
KERNELS = [
    ("gemm.tensor", "gemm", "M=150,N=136,K=200"),
    ("gemm.tensor", "gemm_bias_gelu", "M=256,N=256,K=256"),
    ("gemm.tensor", "bmm_nt", "Z=2,M=70,N=72,K=136"),  # K a multiple of 8: cp.async
    ("attention.tensor", "attention", "B=1,H=2,N=70,M=150,D=64"),
    ("attention.tensor", "attention_causal", "B=1,H=2,N=70,M=150,D=64"),
    ("attention.tensor", "attention_gqa", "B=1,H=4,G=2,N=70,M=150,D=64"),
    # A decoding step: a tile of 4 heads sharing each K and V block.
    ("attention.tensor", "attention_gqa", "B=1,H=8,G=2,N=1,M=300,D=64"),
    ("mlp.tensor", "swiglu_mlp", "T=70,D=320,F=136"),  # K steps past the stages
    ("moe.tensor", "moe_ffn", "T=19,D=320,F=72,E=5,J=2"),  # K steps past the stages
    ("norms.tensor", "softmax", "R=37,C=1001"),
    ("norms.tensor", "rmsnorm", "T=37,D=1001"),
    ("norms.tensor", "layernorm", "T=37,D=1001"),
]

# (name, pattern of the line, how to delete it)
SITES = [
    ("barrier", re.compile(r"^\s*call void @llvm\.nvvm\.barrier\S*\("), "drop"),
    ("cp.async wait", re.compile(r"^\s*call void @llvm\.nvvm\.cp\.async\.wait\S*\("), "drop"),
    ("mbarrier wait", re.compile(r"^\s*call void asm sideeffect \".*mbarrier\.try_wait"), "drop"),
    ("wgmma wait", re.compile(r"^\s*call void @llvm\.nvvm\.wgmma\.wait_group\S*\("), "drop"),
    ("wgmma wait (epilogue)", re.compile(r"^\s*%\S+ = call .* asm sideeffect \"wgmma\.wait_group"), "empty-asm"),
    ("fence", re.compile(r"^\s*call void @llvm\.nvvm\.(fence|wgmma\.fence)\S*\("), "drop"),
]

CONFIGS = [  # (target, schedule label, extra nautc options)
    ("sm_80", "default", []),
    ("sm_90", "default", []),
    ("sm_90", "persistent", ["--multiprocessors", "4"]),
]

# Flash kernels under FlashAttention-3's structure on sm_90 (a schedule
# file: a producer warpgroup, ping-pong consumers, the softmax overlapped,
# three stages): the
# attention kernels of KERNELS, their program, tile and a shape of their
# own (more blocks than stages, so that the producer reuses them, and
# blocks every row sees whole beside masked ones, so that both forms of
# the step run).
FA3_PROGRAMS = {
    "attention": ("attention_O", "[1, 1, 128, 64]", "B=1,H=1,N=130,M=400,D=64"),
    "attention_causal": ("attention_causal_O", "[1, 1, 128, 64]",
                         "B=1,H=1,N=130,M=400,D=64"),
}
FA3_SCHEDULE = ('{{"programs": {{"{program}": "#tile.schedule<tile = {tile}, '
                'threads = 384, mma = #tile.mma<instr = \\"wgmma\\", tile_k = 64, '
                'warps = [8, 1], stages = 3, producers = 1, ping_pong = 1, '
                'overlap_softmax = 1>>"}}}}')


# Synchronisations whose deletion nothing can catch, by construction: the
# class of the deleted line (its configuration's label and a pattern of
# the line), and why. Their survivors are reported as explained.
EXPLAINED = [
    ("fa3", re.compile(r"@llvm\.nvvm\.barrier\.cta\.sync\.aligned\.count\(i32 %\w+, i32 256\)"),
     "a ping-pong turn wait: it orders the consumer warpgroups' Q K^T issue, "
     "not data (the mbarriers hand the stages over)"),
]


def explained(label, line):
    for config, pattern, why in EXPLAINED:
        if config == label and pattern.search(line):
            return why
    return None


def configs_of(kernel, work):
    """The configurations a kernel runs under (target, label, options, a
    shape of their own or None): CONFIGS, and for the attention kernels
    FA3_PROGRAMS names, FlashAttention-3's structure."""
    configs = [(target, label, extra, None) for target, label, extra in CONFIGS]
    if kernel in FA3_PROGRAMS:
        program, tile, shape = FA3_PROGRAMS[kernel]
        path = os.path.join(work, f"{kernel}-fa3.json")
        with open(path, "w") as f:
            f.write(FA3_SCHEDULE.format(program=program, tile=tile))
        configs.append(("sm_90", "fa3", ["--schedule", path], shape))
    return configs


def sites_of(ir):
    """(line index, kind, how) of every synchronisation in the IR."""
    out = []
    for i, line in enumerate(ir):
        for kind, pattern, how in SITES:
            if pattern.search(line):
                out.append((i, kind, how))
                break
    return out


def mutate(ir, index, how):
    lines = list(ir)
    if how == "drop":
        lines[index] = "; deleted by mutate_sync.py: " + lines[index].strip()
    else:  # the asm's text emptied: its tied outputs pass the inputs through
        lines[index] = re.sub(r'asm sideeffect "wgmma\.wait_group[^"]*"',
                              'asm sideeffect ""', lines[index])
    return lines


def run(cmd, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env=env)
        return p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def reason(output):
    for pattern in ["race", "hazard", "deadlock", "divergence", "FAIL",
                    "out of bounds", "poison", "error"]:
        for line in output.splitlines():
            if pattern in line:
                return line.strip()[:160]
    return output.strip().splitlines()[-1][:160] if output.strip() else ""


def base_command(nautc, file, kernel, shape, target, extra):
    return [nautc, "run", os.path.join(EX, file), "-k", kernel, "--device",
            "emu", "--target", target, "--shape", shape, "--check"] + extra


def try_mutant(args, work, job):
    file, kernel, shape, target, label, extra, ir, (index, kind, how) = job
    path = os.path.join(work, f"{kernel}-{target}-{label}-{index}.ll")
    with open(path, "w") as f:
        f.write("\n".join(mutate(ir, index, how)) + "\n")
    env = dict(os.environ, NAUTILUS_EMU_FIBRE_ORDER=f"random:{index}")
    status, output = run(base_command(args.nautc, file, kernel, shape, target,
                                      extra) + ["--kernel-ir", path], env=env)
    os.remove(path)
    killed = status != 0
    why = explained(label, ir[index])
    return (kernel, target, label, index + 1, kind, killed,
            reason(output) if killed
            else f"survived, explained: {why}" if why else "survived")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nautc", default=os.path.join(ROOT, "build", "bin", "nautc"))
    ap.add_argument("--only", help="one kernel")
    ap.add_argument("--target", choices=["sm_80", "sm_90"])
    ap.add_argument("--list", action="store_true", help="list the sites only")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--report", help="write the results as markdown here")
    args = ap.parse_args()
    jobs = []
    with tempfile.TemporaryDirectory() as work:
        for file, kernel, default_shape in KERNELS:
            if args.only and kernel != args.only:
                continue
            for target, label, extra, own_shape in configs_of(kernel, work):
                shape = own_shape or default_shape
                if args.target and target != args.target:
                    continue
                ll = os.path.join(work, "base.ll")
                status, output = run([args.nautc, "compile", os.path.join(EX, file),
                                      "-k", kernel, "--target", target, "--shape",
                                      shape, "--emit", "llvm", "-o", ll] + extra)
                if status != 0:
                    sys.exit(f"compile failed: {kernel} {target} {label}\n{output}")
                ir = open(ll).read().splitlines()
                # The unmutated kernels must pass, or no kill means anything.
                status, output = run(base_command(args.nautc, file, kernel, shape,
                                                  target, extra) + ["--kernel-ir", ll])
                if status != 0:
                    sys.exit(f"the unmutated kernels fail: {kernel} {target} "
                             f"{label}\n{output}")
                for site in sites_of(ir):
                    if args.list:
                        print(f"{kernel} {target} {label} line {site[0] + 1}: "
                              f"{site[1]}: {ir[site[0]].strip()[:100]}")
                    jobs.append((file, kernel, shape, target, label, extra, ir, site))
        if args.list:
            print(f"{len(jobs)} sites")
            return 0
        results = []
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for r in pool.map(lambda j: try_mutant(args, work, j), jobs):
                results.append(r)
                kernel, target, label, line, kind, killed, why = r
                print(f"{'KILLED  ' if killed else 'SURVIVED'} {kernel} {target} "
                      f"{label} line {line} ({kind}): {why}", flush=True)
    killed = sum(1 for r in results if r[5])
    excused = sum(1 for r in results if not r[5] and "explained" in r[6])
    rate = 100.0 * killed / len(results) if results else 100.0
    print(f"{killed} of {len(results)} mutants killed ({rate:.1f}%); "
          f"{excused} survivors explained")
    if args.report:
        with open(args.report, "w") as f:
            f.write("| kernel | target | schedule | IR line | deleted | result |\n")
            f.write("| --- | --- | --- | --- | --- | --- |\n")
            for kernel, target, label, line, kind, k, why in results:
                f.write(f"| {kernel} | {target} | {label} | {line} | {kind} | "
                        f"{'killed: ' + why if k else '**survived**'} |\n")
            f.write(f"\n{killed} of {len(results)} mutants killed ({rate:.1f}%); "
                    f"{excused} survivors explained.\n")
    return 0 if killed + excused == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
