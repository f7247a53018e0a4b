#!/usr/bin/env python3
"""Random tensor-core schedules for the example GEMMs, on the SIMT emulator.

Each run gives one GEMM of examples/gemm.tensor (or a transposed
one from test/e2e/Inputs) a random `#tile.schedule` through --schedule:
tile M and N, threads, mma.sync or wgmma, tile K, warps, stages, group_m,
producers, persistent, swizzle and split_k, valid and invalid values alike, for sm_80
or sm_90, at a ragged shape. One run in four instead gives a program
without a contraction (the norms, attention's row sums) random tile extents
and threads, half of those a random reduce_threads and some a random
reduce_split, reduce_groups and vector. One in five gives sibling
contractions (a gated MLP's gate and up projections, three projections of
one X, a mixture of experts' grouped gate and up projections:
"fuse_shared_operands": true, on either target) a random
tensor-core schedule. And one in five gives a CPU contraction (the GEMMs,
a batched A B^T, sibling projections) a random register block, packed or
not, its reduction in random blocks (`reduce_block`, valid and invalid),
at a shape whose K spans several blocks, run on the host CPU. Every run
must end in one of two ways:

- PASS: the kernel compiled and matched the reference (--check); one
  whose shared-memory accesses conflict in the banks (--profile) is
  printed as a "pass with bank conflicts", with the profile's lines;
- a user error: exit status 1 and a message naming what is wrong with the
  schedule (`error:`, never `internal error`).

A crash, an internal error, a timeout or a FAIL is reported with its
command and schedule. Exercises the schedule verifier, the resource checks
and both tensor-core lowerings.

    python3 scripts/fuzz_schedules.py [--nautc build/bin/nautc] [--start 0] [--count 60] [--verbose]

Not part of the test suite.
"""
import json, os, random, subprocess, sys

import fuzzing

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
EXAMPLES = os.path.join(ROOT, "..", "shared", "examples", "gemm.tensor")
TRANSPOSED = os.path.join(ROOT, "test", "e2e", "Inputs", "transposed_gemms.tensor")
KERNELS = [(EXAMPLES, "gemm", "gemm_C", ""), (EXAMPLES, "gemm_bias_gelu", "gemm_bias_gelu_C", ""),
           (EXAMPLES, "bmm_nt", "bmm_nt_C", ",Z=2"), (TRANSPOSED, "gemm_tn", "gemm_tn_C", ""),
           (TRANSPOSED, "gemm_tt", "gemm_tt_C", "")]


MLP = os.path.join(ROOT, "..", "shared", "examples", "mlp.tensor")
SHARED = os.path.join(ROOT, "test", "Transforms", "Inputs", "shared-operands.tensor")
MOE = os.path.join(ROOT, "..", "shared", "examples", "moe.tensor")
# Sibling contractions (one tensor-core pipeline, mma.sync or wgmma, staging
# the shared lhs once; mixed_maps: their weights laid out differently;
# moe_ffn: grouped GEMMs over rows bucketed by expert, both experts'
# weights through one offset table, the lhs gathered once), with shapes.
PLAIN_SHAPES = ["T=150,D=104,F=72", "T=37,D=200,F=136", "T=64,D=40,F=264", "T=5,D=700,F=40"]
MOE_SHAPES = ["T=150,D=104,F=72,E=3,J=2", "T=37,D=200,F=136,E=4,J=2",
              "T=64,D=40,F=264,E=2,J=1", "T=5,D=700,F=40,E=5,J=2"]
SIBLINGS = [(MLP, "swiglu_mlp", "swiglu_mlp_A", PLAIN_SHAPES),
            (SHARED, "three", "three_A", PLAIN_SHAPES),
            (SHARED, "mixed_maps", "mixed_maps_A", PLAIN_SHAPES),
            (MOE, "moe_ffn", "moe_ffn_A", MOE_SHAPES)]


def schedule(rng, target):
    """A schedule that follows the rules of its instruction (threads from
    the warps, tile_k from the swizzle, ...), then, one time in three, with
    one field set at random."""
    wgmma = target == "sm_90" and rng.random() < 0.8
    if wgmma:
        groups = rng.choice([1, 2, 2, 3])
        producers = rng.choice([0, 1, 1])
        warps = [4 * groups, 1]
        threads = 128 * (groups + producers)
        tm = 64 * groups * rng.choice([1, 1, 2])
        tn = rng.choice([16, 32, 64, 128, 128, 256])
        swizzle = rng.choice([32, 64, 128, 128])
        tile_k = swizzle // 2
        stages = rng.choice([2, 3, 4, 5])
    else:
        warps = rng.choice([[1, 1], [2, 2], [2, 4], [4, 2], [1, 4], [4, 1]])
        threads = 32 * warps[0] * warps[1]
        tm = 16 * warps[0] * rng.choice([1, 2, 4])
        tn = 8 * warps[1] * rng.choice([1, 2, 4, 8])
        swizzle = rng.choice([0, 32, 64, 128])
        tile_k = rng.choice([16, 32, 32, 64])
        stages = rng.choice([2, 3, 4])
        producers = 0
    fields = {"instr": f'"{"wgmma" if wgmma else "mma_sync"}"', "tile_k": tile_k,
              "warps": f"[{warps[0]}, {warps[1]}]", "stages": stages}
    if rng.random() < 0.6:
        fields["group_m"] = rng.choice([1, 4, 8])
    if producers:
        fields["producers"] = 1
        if rng.random() < 0.7:
            fields["persistent"] = 1
    if rng.random() < 0.7:
        fields["swizzle"] = swizzle
    if rng.random() < 0.3:
        fields["split_k"] = rng.choice([2, 3, 4, 7, 64])
    if rng.random() < 1 / 3:  # one field broken, or at least unusual
        field = rng.choice(["tm", "tn", "threads", "tile_k", "stages", "warps",
                            "instr", "swizzle", "group_m", "persistent", "split_k"])
        value = {"tm": [0, 8, 48, 512], "tn": [0, 4, 24, 512],
                 "threads": [0, 1, 96, 1024, 2048], "tile_k": [0, 8, 24, 256],
                 "stages": [0, 1, 8, 64], "warps": ["[0, 1]", "[3, 1]", "[16, 1]", "[2, 3]"],
                 "instr": ['"wgmma"', '"mma_sync"', '"bogus"'],
                 "swizzle": [0, 16, 256], "group_m": [0, 1000000],
                 "persistent": [0, 1], "split_k": [0, -1, 1, 1000]}[field]
        v = rng.choice(value)
        if field == "tm":
            tm = v
        elif field == "tn":
            tn = v
        elif field == "threads":
            threads = v
        else:
            fields[field] = v
    return tm, tn, threads, [f"{k} = {v}" for k, v in fields.items()]


NORMS = os.path.join(ROOT, "..", "shared", "examples", "norms.tensor")
ROWS = os.path.join(ROOT, "test", "e2e", "Inputs", "row_reductions.tensor")
ATTENTION = os.path.join(ROOT, "..", "shared", "examples", "attention.tensor")
# Programs without a contraction: (file, kernel, program, rank, shape).
SIMT_PROGRAMS = [
    # (softmax's maximum and sum, and layernorm's mean and variance, are
    # row streams on GPUs: tile.online_reduce programs)
    (NORMS, "softmax", "softmax_L", 1, "R=70,C=300"),
    (NORMS, "softmax", "softmax_L", 1, "R=5,C=1000"),
    (NORMS, "layernorm", "layernorm_Var", 1, "T=45,D=200"),
    (ROWS, "column_sum", "column_sum_S", 1, "R=300,C=45"),
    (ATTENTION, "attention", "attention_Mx", 3, "B=1,H=3,N=1,M=700,D=64"),
    (NORMS, "softmax", "softmax_Y", 2, "R=70,C=300"),
    (NORMS, "rmsnorm", "rmsnorm_R", 1, "T=45,D=200"),
    (NORMS, "layernorm", "layernorm_Y", 2, "T=45,D=200"),
    (ATTENTION, "attention", "attention_L", 3, "B=1,H=2,N=70,M=136,D=64"),
]


def simt_case(rng):
    """A schedule of threads alone (no tensor cores) for a program without a
    contraction: random tile extents and thread counts, valid or not."""
    path, kernel, program, rank, shape = rng.choice(SIMT_PROGRAMS)
    extent = lambda: rng.choice([1, 2, 4, 16, 32, 64, 128, 256, 3, 0, 100])
    tile = [extent() for _ in range(rank)]
    threads = rng.choice([1, 32, 64, 128, 256, 1024, 96, 0, 2048])
    shared = ""
    if rng.random() < 0.5:  # groups of threads sharing each reduction
        shared = f", reduce_threads = {rng.choice([1, 2, 8, 32, 64, 256, 3, 0, 4096])}"
    if rng.random() < 0.3:  # the reduction split across programs
        shared += f", reduce_split = {rng.choice([1, 2, 3, 16, 1000, 0, -2])}"
    if rng.random() < 0.3:  # groups interleaved (for columns) or not
        shared += f", reduce_groups = \"{rng.choice(['interleaved', 'consecutive', 'bogus'])}\""
    if rng.random() < 0.3:  # runs of consecutive elements a thread
        shared += f", vector = {rng.choice([1, 2, 4, 8, 16, 3, 0])}"
    text = (f"#tile.schedule<tile = [{', '.join(map(str, tile))}], "
            f"threads = {threads}{shared}>")
    return path, kernel, program, text, shape


def cpu_case(rng):
    """A CPU contraction's schedule: a random register block, packed (mostly)
    or not, and its reduction in random blocks, at a ragged shape whose K
    spans several of them; with sibling projections one time in three."""
    structure = {}
    if rng.random() < 1 / 3:
        path, kernel, program, shapes = rng.choice(SIBLINGS[:3])
        shape = rng.choice(shapes)
        structure = {"fuse_shared_operands": True}
    else:
        path, kernel, program, extra = rng.choice(KERNELS)
        shape = (f"M={rng.randint(1, 90)},N={rng.randint(1, 150)},"
                 f"K={rng.randint(1, 700)}" + extra)
    rows, width = rng.choice([1, 2, 3, 6, 8, 16]), rng.choice([1, 8, 16, 20, 32, 64, 128])
    tile = f"[1, {rows}, {width}]" if kernel == "bmm_nt" else f"[{rows}, {width}]"
    fields = ", pack = true" if rng.random() < 0.85 else ""
    if rng.random() < 0.85:
        fields += f", reduce_block = {rng.choice([1, 7, 16, 64, 100, 512, 0, -3])}"
    text = f"#tile.schedule<tile = {tile}, threads = 1{fields}>"
    return path, kernel, program, text, shape, structure


def run_one(nautc, folder, n):
    rng = random.Random(9000 + n)
    target = rng.choice(["sm_80", "sm_90"])
    structure = {}
    device = ["--device", "emu", "--target", target]
    if rng.random() < 0.2:
        path, kernel, program, text, shape, structure = cpu_case(rng)
        device = ["--device", "cpu"]
    elif rng.random() < 0.25:
        path, kernel, program, text, shape = simt_case(rng)
    elif rng.random() < 0.25:
        path, kernel, program, shapes = rng.choice(SIBLINGS)
        tm, tn, threads, fields = schedule(rng, target)
        text = (f"#tile.schedule<tile = [{tm}, {tn}], threads = {threads}, "
                f"mma = #tile.mma<{', '.join(fields)}>>")
        shape = rng.choice(shapes)
        structure = {"fuse_shared_operands": True}
    else:
        path, kernel, program, extra = rng.choice(KERNELS)
        tm, tn, threads, fields = schedule(rng, target)
        tile = f"[1, {tm}, {tn}]" if kernel == "bmm_nt" else f"[{tm}, {tn}]"
        text = (f"#tile.schedule<tile = {tile}, threads = {threads}, "
                f"mma = #tile.mma<{', '.join(fields)}>>")
        shape = rng.choice(["M=150,N=72,K=104", "M=200,N=136,K=200",
                            "M=64,N=264,K=40", "M=40,N=72,K=700"]) + extra
    sched = os.path.join(folder, f"s{n}.json")
    with open(sched, "w") as f:
        json.dump({"programs": {program: text}, **structure}, f)
    cmd = [nautc, "run", path, "-k", kernel] + device + [
        "--shape", shape, "--schedule", sched, "--check"]
    if device[1] == "emu":
        cmd.append("--profile")
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "timeout", " ".join(cmd) + "\n" + text
    out = r.stdout + r.stderr
    if r.returncode == 0 and "PASS" in out and "FAIL" not in out:
        # Correct; shared-memory bank conflicts are reported, not failed.
        conflicts = [line for line in out.splitlines() if line.startswith("profile:")
                     and "wavefronts" in line and "(0 from bank conflicts)" not in line]
        if conflicts:
            return "pass with bank conflicts", text + "\n" + "\n".join(conflicts)
        return "pass", ""
    if r.returncode == 1 and "error:" in out and "internal error" not in out:
        return "rejected", out.strip().splitlines()[0][:200]
    return "bug", " ".join(cmd) + "\n" + text + "\n" + out[-1500:]


if __name__ == "__main__":
    sys.exit(fuzzing.main(__doc__, run_one, count=60, quiet=("pass", "rejected"),
                          good=("pass", "pass with bank conflicts", "rejected"),
                          name="schedule"))
