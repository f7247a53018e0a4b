#!/usr/bin/env python3
"""Compile time of attention to PTX, and its main loop: nautc against Triton.

Usage:
    python3 bench/compile_time.py [PATH/TO/nautc] [--runs 5] [--no-triton]
                                  [--target sm_90|sm_80]

The nautc binary defaults to ../build/bin/nautc relative to this script.

nautc: the wall time of the whole process
    nautc compile examples/attention.tensor -k attention
          --target sm_90 --shape B=4,H=16,N=4096,M=4096,D=128 --emit ptx -o F
(process start to exit, PTX written to a temporary file), median of --runs
runs and, separately, the first run.

Triton: the time of one `triton.compile(ASTSource(...), target=GPUTarget("cuda",
90, 32))` call on a compact forward-only flash-attention kernel written in the
style of Triton's tutorial 06 (below; the tutorial itself is not installed with
the wheel), for the same problem (bf16, head dim 128, N = M = 4096, non-causal).
No GPU is needed: Triton compiles ahead of time. Each call gets a fresh, empty
TRITON_CACHE_DIR (and TRITON_ALWAYS_COMPILE=1), and the script checks that
Triton reports no cache hit, so every run really compiles. triton.compile runs
the whole pipeline down to a cubin, i.e. it also runs ptxas; the stage timings
Triton reports are used to give its time up to PTX as well, the measure that
matches nautc's `--emit ptx`. The first (cold) call in the process pays
one-time initialisation (imports, LLVM/MLIR set-up) and is reported
separately; `import triton` itself is timed apart.

The main loop of each PTX (the innermost loop holding the tensor-core
instructions, bench/ptxtools.py) is counted too: its instructions, its
tensor-core instructions, and the other instructions per m16n8k16-sized
multiply (a wgmma m64nNk16 counts as N / 2 of them), the issue's measure of
how much besides the tensor cores a main loop asks of a multiprocessor.

Registers and spills come from `ptxas -v` for sm_90a (sm_80) on each PTX (the CUDA
toolkit's ptxas, else one on PATH, else Triton's bundled ones: Triton 3.9
emits PTX ISA 9.4, which CUDA 13.0's ptxas does not read).
"""

import argparse
import importlib.util
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptxtools import find_ptxas, innermost_loop, ptxas_usage  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ATTENTION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                         "examples", "attention.tensor")
SHAPE = dict(B=4, H=16, N=4096, M=4096, D=128)
AIM_S = 1.0  # the aim: attention to PTX in under one second


TARGETS = {"sm_90": ("sm_90a", 90), "sm_80": ("sm_80", 80)}


def main_loop_report(ptx):
    """The innermost loop holding tensor-core instructions: its instruction
    count, its tensor-core instructions, and the other instructions per
    m16n8k16-sized multiply (a wgmma m64nNk16 is N / 2 of them)."""
    loop = innermost_loop(
        ptx.splitlines(), r"^(\$L__\w+):", r"\bbra(?:\.uni)?\s+(\$L__\w+);",
        lambda l: re.search(r"\b(?:mma\.sync|wgmma\.mma_async)\.", l))
    if loop is None:
        return "no loop holds tensor-core instructions"
    instructions = [l for l in loop
                    if re.match(r"^\s*(?:@%?!?\w+\s+)?[a-z]", l) and not l.strip().startswith("//")]
    mma = sum(1 for l in instructions if re.search(r"\bmma\.sync\.aligned\.m16n8k16\b", l))
    wgmma_units = 0
    wgmma = 0
    for l in instructions:
        m = re.search(r"\bwgmma\.mma_async\.sync\.aligned\.m64n(\d+)k16\b", l)
        if m:
            wgmma += 1
            wgmma_units += int(m.group(1)) // 2
    units = mma + wgmma_units
    other = len(instructions) - mma - wgmma
    per = f"{other / units:.2f}" if units else "n/a"
    return (f"main loop: {len(instructions)} instructions, {mma} mma.sync m16n8k16, "
            f"{wgmma} wgmma; {per} other instructions per m16n8k16-sized multiply")


def print_usage(result, arch):
    usage, ptxas = result
    if isinstance(usage, str):
        print(f"  registers/spills unavailable: {usage}")
        return
    print(f"  ptxas -v ({arch}) with {ptxas}:")
    for k, (regs, st, ld) in usage.items():
        print(f"    {k}: {regs} registers, spill stores {st} B, spill loads {ld} B")


# --------------------------------------------------------------------------- nautc

def bench_nautc(nautc, runs, target):
    shape = ",".join(f"{k}={v}" for k, v in SHAPE.items())
    with tempfile.TemporaryDirectory(prefix="nautc_ptx_") as d:
        out = os.path.join(d, "attention.ptx")
        cmd = [nautc, "compile", ATTENTION, "-k", "attention", "--target", target,
               "--shape", shape, "--emit", "ptx", "-o", out]
        times = []
        for _ in range(runs):
            if os.path.exists(out):
                os.remove(out)
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, text=True)
            times.append(time.perf_counter() - t0)
            if p.returncode != 0 or not os.path.exists(out):
                return None, (f"exit {p.returncode}: {' '.join(cmd)}\n"
                              + (p.stderr or p.stdout).strip())
        with open(out) as f:
            ptx = f.read()
    return {"times": times, "ptx": ptx, "cmd": " ".join(cmd)}, None


# --------------------------------------------------------------------------- Triton

def define_triton_kernel():
    import triton
    import triton.language as tl

    @triton.jit
    def attn_fwd(Q, K, V, Out, sm_scale,
                 stride_qz, stride_qh, stride_qm,
                 stride_kz, stride_kh, stride_kn,
                 stride_vz, stride_vh, stride_vn,
                 stride_oz, stride_oh, stride_om,
                 H, N_CTX: tl.constexpr, M_CTX: tl.constexpr,
                 HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        # One program: BLOCK_M query rows of one (batch, head); the innermost
        # dimension of every tensor is contiguous.
        start_m = tl.program_id(0)
        off_hz = tl.program_id(1)
        off_z = off_hz // H
        off_h = off_hz % H
        offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        offs_n = tl.arange(0, BLOCK_N)
        offs_d = tl.arange(0, HEAD_DIM)
        q_ptrs = (Q + off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
                  + offs_m[:, None] * stride_qm + offs_d[None, :])
        k_ptrs = (K + off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
                  + offs_n[None, :] * stride_kn + offs_d[:, None])   # K^T tile: [D, BLOCK_N]
        v_ptrs = (V + off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
                  + offs_n[:, None] * stride_vn + offs_d[None, :])   # [BLOCK_N, D]
        m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
        l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
        acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
        qk_scale = sm_scale * 1.44269504  # 1/log(2): use exp2
        q = tl.load(q_ptrs)
        for start_n in range(0, M_CTX, BLOCK_N):
            start_n = tl.multiple_of(start_n, BLOCK_N)
            k = tl.load(k_ptrs + start_n * stride_kn)
            qk = tl.dot(q, k)
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
            p = tl.math.exp2(qk)
            l_ij = tl.sum(p, 1)
            alpha = tl.math.exp2(m_i - m_ij)
            l_i = l_i * alpha + l_ij
            acc = acc * alpha[:, None]
            v = tl.load(v_ptrs + start_n * stride_vn)
            acc = tl.dot(p.to(v.dtype), v, acc)
            m_i = m_ij
        acc = acc / l_i[:, None]
        o_ptrs = (Out + off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
                  + offs_m[:, None] * stride_om + offs_d[None, :])
        tl.store(o_ptrs, acc.to(Out.type.element_ty))

    return attn_fwd


def bench_triton(runs, target_name):
    # Triton 3.9 warns when this is unset; 1 is its current default.
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    t0 = time.perf_counter()
    try:
        import triton
        from triton.backends.compiler import GPUTarget
        from triton.compiler import ASTSource
    except ImportError as e:
        return None, f"triton not installed: skipped ({e})"
    import_s = time.perf_counter() - t0

    try:
        from triton import knobs
    except ImportError:
        knobs = None

    fn = define_triton_kernel()
    D, N, M, H = SHAPE["D"], SHAPE["N"], SHAPE["M"], SHAPE["H"]
    sig = {"Q": "*bf16", "K": "*bf16", "V": "*bf16", "Out": "*bf16", "sm_scale": "fp32"}
    for t in "qkvo":
        for s in ("z", "h", "m" if t in "qo" else "n"):
            sig[f"stride_{t}{s}"] = "i32"
    sig["H"] = "i32"
    constexprs = {"N_CTX": N, "M_CTX": M, "HEAD_DIM": D, "BLOCK_M": 128, "BLOCK_N": 64}
    for k in constexprs:
        sig[k] = "constexpr"
    # What the JIT would infer for 16-byte-aligned pointers and strides that are
    # multiples of 16 (every stride here is).
    attrs = {(fn.arg_names.index(k),): [["tt.divisibility", 16]]
             for k in sig if k.startswith("stride_") or sig[k].startswith("*")}
    capability = TARGETS[target_name][1]
    target = GPUTarget("cuda", capability, 32)
    # Tutorial 06's choices for D = 128: 8 warps on Hopper, 4 on Ampere.
    options = {"num_warps": 8 if capability >= 90 else 4, "num_stages": 3}

    events = []
    if knobs is not None and hasattr(knobs, "compilation") and hasattr(knobs.compilation, "listener"):
        def listener(*, src, metadata, metadata_group, times, cache_hit):
            events.append((times, cache_hit))
        knobs.compilation.listener = listener

    old_env = {k: os.environ.get(k) for k in ("TRITON_CACHE_DIR", "TRITON_ALWAYS_COMPILE")}
    times, to_ptx, kernel = [], [], None
    try:
        for _ in range(runs):
            with tempfile.TemporaryDirectory(prefix="triton_cache_") as cache:
                os.environ["TRITON_CACHE_DIR"] = cache
                os.environ["TRITON_ALWAYS_COMPILE"] = "1"
                events.clear()
                src = ASTSource(fn=fn, signature=sig, constexprs=constexprs, attrs=attrs)
                t0 = time.perf_counter()
                kernel = triton.compile(src, target=target, options=options)
                times.append(time.perf_counter() - t0)
                if events:
                    ct, hit = events[-1]
                    if hit:
                        return None, "Triton reported a cache hit despite a fresh cache dir"
                    # Up to and including the 'ptx' stage: make_ir + lowering stages.
                    us = ct.ir_initialization
                    for stage, dur in ct.lowering_stages:
                        us += dur
                        if stage == "ptx":
                            break
                    to_ptx.append((us / 1e6, dict(ct.lowering_stages), ct.ir_initialization))
    except Exception as e:  # report, and still let nautc's numbers stand
        return None, f"triton.compile failed: {type(e).__name__}: {e}"
    finally:
        for k, v in old_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        if knobs is not None and events is not None and hasattr(knobs, "compilation"):
            try:
                knobs.compilation.listener = None
            except Exception:
                pass
    return {"version": triton.__version__, "import_s": import_s, "times": times,
            "to_ptx": to_ptx, "ptx": kernel.asm.get("ptx", ""),
            "shared": getattr(kernel.metadata, "shared", None), "options": options,
            "blocks": (constexprs["BLOCK_M"], constexprs["BLOCK_N"])}, None


# --------------------------------------------------------------------------- main

def fmt_s(s):
    return f"{s * 1e3:8.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("nautc", nargs="?",
                    default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-triton", action="store_true", help="measure nautc only")
    ap.add_argument("--target", choices=sorted(TARGETS), default="sm_90")
    args = ap.parse_args()

    nautc = os.path.abspath(args.nautc)
    if not os.access(nautc, os.X_OK):
        sys.exit(f"nautc not found or not executable: {nautc}")
    ptxas = find_ptxas()
    print(f"nautc: {nautc}")
    print(f"cores: {os.cpu_count()}")
    arch = TARGETS[args.target][0]
    print(f"problem: attention, bf16, {', '.join(f'{k}={v}' for k, v in SHAPE.items())}, {args.target}")
    print()

    rc = 0
    nres, nerr = bench_nautc(nautc, args.runs, args.target)
    print("nautc (process wall time, `nautc compile ... --emit ptx`):")
    if nerr:
        print(f"  FAILED: {nerr}")
        rc = 1
    else:
        med = statistics.median(nres["times"])
        print(f"  median of {args.runs}: {fmt_s(med)}   first (cold): {fmt_s(nres['times'][0])}"
              f"   all: {', '.join(f'{t * 1e3:.0f}' for t in nres['times'])} ms")
        entries = re.findall(r"\.entry\s+(\w+)", nres["ptx"])
        print(f"  PTX: {len(nres['ptx'])} bytes, {len(entries)} kernel(s): {', '.join(entries)}")
        print_usage(ptxas_usage(ptxas, nres["ptx"], arch), arch)
        print(f"  {main_loop_report(nres['ptx'])}")
        verdict = "meets" if med < AIM_S else "misses"
        print(f"  aim: attention to PTX in under {AIM_S:.0f} s: {verdict} it ({med:.3f} s)")
    print()

    if args.no_triton:
        print("Triton: skipped (--no-triton)")
        return rc
    tres, terr = bench_triton(args.runs, args.target)
    if terr:
        print(f"Triton: {terr}")
        return rc
    print(f"Triton {tres['version']} (triton.compile to cubin, in process; "
          f"BLOCK_M={tres['blocks'][0]}, BLOCK_N={tres['blocks'][1]}, "
          f"num_warps={tres['options']['num_warps']}, num_stages={tres['options']['num_stages']}):")
    print(f"  import triton: {fmt_s(tres['import_s'])}")
    med = statistics.median(tres["times"])
    print(f"  full compile (to cubin, includes ptxas): median of {args.runs}: {fmt_s(med)}"
          f"   first (cold): {fmt_s(tres['times'][0])}"
          f"   all: {', '.join(f'{t * 1e3:.0f}' for t in tres['times'])} ms")
    if tres["to_ptx"]:
        ptx_times = [t for t, _, _ in tres["to_ptx"]]
        print(f"  up to PTX (Triton's own stage timings): median {fmt_s(statistics.median(ptx_times))}"
              f"   first (cold): {fmt_s(ptx_times[0])}")
        _, stages, init = tres["to_ptx"][len(tres["to_ptx"]) // 2]
        print("  stages of one run: make_ir " + f"{init / 1e3:.0f} ms, "
              + ", ".join(f"{k} {v / 1e3:.0f} ms" for k, v in stages.items()))
    entries = re.findall(r"\.entry\s+(\w+)", tres["ptx"])
    print(f"  PTX: {len(tres['ptx'])} bytes, {len(entries)} kernel(s): {', '.join(entries)}"
          + (f"; shared memory {tres['shared']} B" if tres["shared"] is not None else ""))
    print_usage(ptxas_usage(ptxas, tres["ptx"], arch), arch)
    print(f"  {main_loop_report(tres['ptx'])}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
