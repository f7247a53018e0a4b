#!/usr/bin/env python3
"""The tensor-core GEMMs of gemm.tensor, nautc against Triton, without a GPU.

Usage:
    python3 bench/tensor_cores_vs_triton.py [PATH/TO/nautc] [--runs 3] [--no-triton]

For each GEMM of examples/gemm.tensor (gemm: f16 in, f32 out;
gemm_bias_gelu: bf16 in, + bias, GELU, bf16 out; bmm_nt: bf16, 8 batches,
B stored [N, K]) at 4096^3, and each target (sm_80, sm_90), side by side:

- compile time: nautc's whole process `nautc compile ... --emit ptx`
  (median of --runs); Triton's `triton.compile` of an equivalent kernel
  written below (median of --runs, fresh cache each time), which runs the
  whole pipeline to a cubin;
- registers and spills from `ptxas -v` (sm_80 or sm_90a) on each PTX;
- shared memory: ptxas's static shared memory plus the dynamic shared
  memory the kernel asks for at launch (nautc: from its launch plan in
  `nautc compile --emit bundle`; Triton: its metadata);
- the instruction mix: per kernel (static counts in the PTX) and in the
  innermost loop that holds the tensor-core instructions (out-of-line
  blocks, such as a producer's TMA issue, may fall outside that span).

Triton's kernels use its tutorial's configuration for large GEMMs
(BLOCK 128 x 128 x 64, 8 warps, 3 stages on sm_80 and 4 on sm_90), plain
pointers with every pointer and size divisible by 16 (as Triton's launcher
specialises them for these shapes), and Triton decides itself how to copy
and whether to use wgmma on sm_90.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from ptxtools import (SASS_MIX, assemble, disassemble, find_nvdisasm, find_ptxas,  # noqa: E402
                      main_loop_mix, parse_report, ptxas_advisories, sass_main_loop,
                      sass_mix, sass_straight_path)

EXAMPLES = os.path.join(HERE, "..", "examples")
GEMMS = {
    "gemm": "M=4096,N=4096,K=4096",
    "gemm_bias_gelu": "M=4096,N=4096,K=4096",
    "bmm_nt": "Z=8,M=4096,N=4096,K=4096",
}
TARGETS = {"sm_80": ("sm_80", 80), "sm_90": ("sm_90a", 90)}
MIX_COLUMNS = ["mma", "wgmma", "ldmatrix", "cp.async", "tma", "mbarrier",
               "ld.shared", "st.shared", "ld.global", "bar.sync", "all"]


def nautc_run(nautc, kernel, target, runs):
    shape = GEMMS[kernel]
    src = os.path.join(EXAMPLES, "gemm.tensor")
    with tempfile.TemporaryDirectory(prefix="nautc_tc_") as d:
        out = os.path.join(d, "k.ptx")
        cmd = [nautc, "compile", src, "-k", kernel, "--target", target,
               "--shape", shape, "--emit", "ptx", "-o", out]
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True)
            times.append(time.perf_counter() - t0)
        ptx = open(out).read()
    tile = subprocess.run([nautc, "compile", src, "-k", kernel, "--target", target,
                           "--shape", shape, "--emit", "tile"],
                          capture_output=True, text=True, check=True).stdout
    schedule = re.search(r"schedule = (#tile\.schedule<.*?>>?)", tile)
    # The dynamic shared memory a launch requests, from the bundle's plan.
    bundle = json.loads(subprocess.run(
        [nautc, "compile", src, "-k", kernel, "--target", target, "--shape", shape,
         "--emit", "bundle"], capture_output=True, text=True, check=True).stdout)
    return {"time": statistics.median(times), "ptx": ptx,
            "schedule": schedule.group(1) if schedule else "?",
            "dynamic_shared": sum(p["dynamic_shared_bytes"] for p in bundle["programs"])}


TRITON_SOURCE = r'''
import triton
import triton.language as tl


@triton.jit
def gemm(a, b, c, bias, M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm,
         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
         EPILOGUE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    z = tl.program_id(2)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptr = a + z * sab + rm[:, None] * sam + rk[None, :] * sak
    b_ptr = b + z * sbb + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a_ptr, mask=(k + rk[None, :]) < K, other=0.0)
        y = tl.load(b_ptr, mask=(k + rk[:, None]) < K, other=0.0)
        acc += tl.dot(x, y)
        a_ptr += BK * sak
        b_ptr += BK * sbk
    if EPILOGUE:
        acc = acc + tl.load(bias + rn, mask=rn < N, other=0.0)[None, :]
        acc = 0.5 * acc * (1.0 + tl.math.erf(acc * 0.7071067811865476))
    c_ptr = c + z * scb + rm[:, None] * scm + rn[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr, acc.to(c.dtype.element_ty), mask=mask)
'''


def triton_kernel():
    path = os.path.join(tempfile.mkdtemp(prefix="tc_triton_"), "tc_gemm.py")
    with open(path, "w") as f:
        f.write(TRITON_SOURCE)
    sys.path.insert(0, os.path.dirname(path))
    import tc_gemm  # noqa: E402
    return tc_gemm.gemm


def triton_run(kernel_fn, kernel, arch, runs):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    dtype = "fp16" if kernel == "gemm" else "bf16"
    out = "fp32" if kernel != "gemm_bias_gelu" else "bf16"
    sig = {"a": f"*{dtype}", "b": f"*{dtype}", "c": f"*{out}", "bias": "*fp32"}
    for name in ["M", "N", "K", "sab", "sam", "sak", "sbb", "sbk", "sbn", "scb", "scm"]:
        sig[name] = "i32"
    constexprs = {"BM": 128, "BN": 128, "BK": 64,
                  "EPILOGUE": kernel == "gemm_bias_gelu",
                  # Strides fixed as in a contiguous 4096^3 problem (Triton
                  # specialises on them; 1 marks the contiguous index).
                  "sak": 1, "sbn": 1 if kernel != "bmm_nt" else 4096,
                  "sbk": 4096 if kernel != "bmm_nt" else 1}
    times, compiled = [], None
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="triton_cache_") as cache:
            os.environ["TRITON_CACHE_DIR"] = cache
            os.environ["TRITON_ALWAYS_COMPILE"] = "1"
            # Every pointer and integer argument divisible by 16, as Triton's
            # launcher specialises them for these shapes (what lets it use
            # 16-byte copies).
            attrs = {(kernel_fn.arg_names.index(name),): [["tt.divisibility", 16]]
                     for name in sig if kernel_fn.arg_names.index(name) < 15}
            src = ASTSource(fn=kernel_fn, signature=sig, constexprs=constexprs,
                            attrs=attrs)
            t0 = time.perf_counter()
            compiled = triton.compile(src, target=GPUTarget("cuda", arch, 32),
                                      options={"num_warps": 8,
                                               "num_stages": 4 if arch == 90 else 3})
            times.append(time.perf_counter() - t0)
    return {"time": statistics.median(times), "ptx": compiled.asm["ptx"],
            "schedule": "128x128x64, 8 warps, %d stages" % (4 if arch == 90 else 3),
            "dynamic_shared": compiled.metadata.shared}


def describe(label, res, ptxas, nvdisasm, arch):
    text, used, cubin = assemble(ptxas, res["ptx"], arch) if ptxas else ("no ptxas", None, None)
    report = parse_report(text) if used else text
    if isinstance(report, str):
        regs, spills, static = "?", "?", 0
    else:
        k = next(iter(report.values()))
        regs, spills, static = k["registers"], k["spill_bytes"], k["static_shared"]
    sass = None
    if cubin is not None and nvdisasm:
        loop = sass_main_loop(disassemble(nvdisasm, cubin))
        if loop:
            sass = {"path": sass_mix(sass_straight_path(loop)), "loop": sass_mix(loop),
                    "advisories": ptxas_advisories(text)}
    loop = main_loop_mix(res["ptx"]) or {}
    kernel_mix = {name: len(re.findall(pattern, res["ptx"], re.M))
                  for name, pattern in __import__("ptxtools").MIX}
    return {"who": label, "time": res["time"], "registers": regs, "spills": spills,
            "shared": static + res["dynamic_shared"], "schedule": res["schedule"],
            "loop": loop, "kernel": kernel_mix, "sass": sass}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("nautc", nargs="?", default=os.path.join(HERE, "..", "build", "bin", "nautc"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-triton", action="store_true")
    args = ap.parse_args()
    ptxas = find_ptxas()
    nvdisasm = find_nvdisasm()
    if not nvdisasm:
        print("nvdisasm not found (pip install nvidia-cuda-nvdisasm): no SASS tables")
    kernel_fn = None
    if not args.no_triton:
        try:
            kernel_fn = triton_kernel()
        except ImportError:
            print("Triton not installed (pip install triton): nautc only")
    rows = []
    for kernel in GEMMS:
        for target, (arch, cc) in TARGETS.items():
            rows.append((kernel, target, describe("nautc", nautc_run(args.nautc, kernel, target, args.runs),
                                                  ptxas, nvdisasm, arch)))
            if kernel_fn:
                rows.append((kernel, target, describe("triton", triton_run(kernel_fn, kernel, cc, args.runs),
                                                      ptxas, nvdisasm, arch)))
    print("| kernel | target | compiler | compile s | registers | spill B | shared B | schedule |")
    print("|---|---|---|---|---|---|---|---|")
    for kernel, target, r in rows:
        print(f"| {kernel} | {target} | {r['who']} | {r['time']:.2f} | {r['registers']} | "
              f"{r['spills']} | {r['shared']} | {r['schedule']} |")
    print()
    print("Instruction mix, main loop (whole kernel in parentheses):")
    print()
    print("| kernel | target | compiler | " + " | ".join(MIX_COLUMNS) + " |")
    print("|---|---|---|" + "---|" * len(MIX_COLUMNS))
    for kernel, target, r in rows:
        cells = [f"{r['loop'].get(c, '-')} ({r['kernel'].get(c, 0)})" for c in MIX_COLUMNS]
        print(f"| {kernel} | {target} | {r['who']} | " + " | ".join(cells) + " |")
    if any(r["sass"] for _, _, r in rows):
        print_sass(rows)


def print_sass(rows):
    """The SASS of each main loop: the instructions of one iteration on an
    interior tile (predicated branches falling through), the whole loop's
    static counts in parentheses, and the other instructions issued per
    unit of tensor-core work (comparable across mma.sync and wgmma)."""
    columns = [c for c in SASS_MIX if any(r["sass"] and r["sass"]["loop"][c]
                                          for _, _, r in rows)]
    print()
    print("SASS of the main loop (nvdisasm): one iteration on an interior tile "
          "(whole loop in parentheses), and the other instructions a warp issues "
          "per m16n8k16 product of tensor-core work (an HGMMA.64x256x16 is 32):")
    print()
    print("| kernel | target | compiler | " + " | ".join(columns) + " | other per m16n8k16 | advisories |")
    print("|---|---|---|" + "---|" * (len(columns) + 2))
    for kernel, target, r in rows:
        if not r["sass"]:
            continue
        path, loop = r["sass"]["path"], r["sass"]["loop"]
        cells = [f"{path[c]} ({loop[c]})" for c in columns]
        tensor = path["HMMA"] + path["HGMMA"]
        ratio = f"{(path['all'] - tensor) / path['work']:.2f}" if path["work"] else "-"
        notes = "; ".join(r["sass"]["advisories"]) or "none"
        print(f"| {kernel} | {target} | {r['who']} | " + " | ".join(cells) +
              f" | {ratio} | {notes} |")


if __name__ == "__main__":
    main()
