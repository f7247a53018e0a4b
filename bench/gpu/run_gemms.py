#!/usr/bin/env python3
"""Runs nautc's GEMM bundles on an NVIDIA GPU against torch.matmul (cuBLAS)
and Triton, and its attention bundles against PyTorch's scaled dot-product
attention, and writes a table.

    python3 bench/gpu/run_gemms.py [--bundles DIR] [--iters 20] [--out FILE.md]
    python3 bench/gpu/run_gemms.py --dry-run     # no GPU: check the bundles

Needs on the GPU machine: the NVIDIA driver, PyTorch with CUDA, and Triton
(for the Triton column); nothing to build. The bundles come from
bench/gpu/prepare.sh on a build machine (nautc compile --emit bundle): each
is one kernel's launch plan and PTX for one shape (the format is described
in compiler/Pipeline/Bundle.h). This script loads the PTX with the driver
API (ctypes), builds the TMA tensor maps with cuTensorMapEncodeTiled, packs
the parameters as MLIR lowers them (a memref descriptor per buffer, the
sizes, then a pointer per tensor map), and launches each program.

For each bundle: correctness against torch.matmul of the same inputs in
f32 (the largest error relative to the largest |C|), and the median time
over --iters launches (CUDA events) of nautc's kernel, of torch.matmul on
the same f16/bf16 inputs (cuBLAS, f16/bf16 output), and of Triton's matmul
(the tutorial's kernel, 128 x 128 x 64 blocks, 8 warps, 4 stages); TFLOP/s
= 2 M N K / time. An attention bundle (buffers Q, K, V, O: all of its
programs, launched in order) is checked against
torch.nn.functional.scaled_dot_product_attention in f32 and timed against it
on the bf16 inputs (FlashAttention's kernels where PyTorch has them); TFLOP/s
= 4 B H N M D / time. This is the check the emulator cannot make of the P V
program, whose producer warpgroup writes shared memory that wgmma reads
through the async proxy. A mixture-of-experts bundle (X, Wg, Wu, Wd, ids,
w, Y) runs on random top-J routings and is checked against a per-expert
PyTorch loop in f32 and timed against the same loop in bf16 (cuBLAS
matmuls); TFLOP/s = 6 T J D F / time. The table goes to stdout and to
--out.
"""
import argparse
import ctypes
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# Driver API enums (cuda.h).
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
TENSOR_MAP_DTYPE = {"f16": 6, "bf16": 9, "f32": 7}
SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
L2_PROMOTION_128B = 2
ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4}


def load_bundles(directory):
    bundles = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            b = json.load(f)
        if b.get("format") != "nautilus-bundle-1":
            sys.exit(f"{path}: not a nautilus bundle")
        b["path"] = path
        bundles.append(b)
    if not bundles:
        sys.exit(f"no bundles in {directory}: run bench/gpu/prepare.sh on a build machine")
    return bundles


def extent(dim, sizes):
    return dim if isinstance(dim, int) else sizes[dim]


def sizes_of(b):
    """The bundle's bound sizes, with the derived ones (see Bundle.h)."""
    sizes = dict(b["bindings"])
    for d in b.get("derived_sizes", []):
        if d["name"] in sizes:
            continue
        try:
            value = 0
            for t in d["terms"]:
                product = t["coefficient"]
                for f in t["factors"]:
                    product *= sizes[f]
                value += product
        except KeyError:
            continue
        sizes[d["name"]] = value
    return sizes


def grid_of(program, sizes):
    blocks = 1
    for dim, tile in zip(program["output_dims"], program["tile"]):
        blocks *= -(-extent(dim, sizes) // tile)
    return blocks


def check_bundle(b):
    """What can be checked without a GPU: the plan is complete and the
    parameters it implies."""
    sizes = sizes_of(b)
    missing = [s for s in b["sizes"] if s not in sizes]
    if missing:
        return f"sizes not bound: {missing} (prepare.sh binds every size)"
    for p in b["programs"]:
        if f".entry {p['name']}(" not in b["ptx"]:
            return f"program {p['name']} has no kernel in the PTX"
        params = 0
        for buf in b["buffers"]:
            params += 1 if buf["role"] == "scalar" else 3 + 2 * len(buf["dims"])
        params += len(b["sizes"]) + len(p["tensor_maps"])
        declared = b["ptx"].split(f".entry {p['name']}(")[1].split(")")[0].count(".param")
        if declared != params:
            return f"{p['name']}: the PTX declares {declared} parameters, the plan implies {params}"
    return ""


class Driver:
    def __init__(self):
        self.cuda = ctypes.CDLL("libcuda.so.1")

    def check(self, status, what):
        if status != 0:
            name = ctypes.c_char_p()
            self.cuda.cuGetErrorName(status, ctypes.byref(name))
            raise RuntimeError(f"{what}: {name.value.decode() if name.value else status}")

    def load(self, ptx, name, shared):
        module = ctypes.c_void_p()
        self.check(self.cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(ptx.encode() + b"\0")),
                   "cuModuleLoadData")
        function = ctypes.c_void_p()
        self.check(self.cuda.cuModuleGetFunction(ctypes.byref(function), module, name.encode()),
                   "cuModuleGetFunction")
        if shared > 48 * 1024:
            self.check(self.cuda.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                    ctypes.c_int(shared)), "cuFuncSetAttribute")
        return function

    def tensor_map(self, tensor, dtype, box, swizzle):
        """A CUtensorMap over a contiguous torch tensor, innermost dim first."""
        rank = tensor.dim()
        shape = list(tensor.shape)[::-1]
        dims = (ctypes.c_uint64 * rank)(*shape)
        strides = (ctypes.c_uint64 * max(rank - 1, 1))(
            *[tensor.stride(rank - 1 - d) * ELEMENT_BYTES[dtype] for d in range(1, rank)])
        boxes = (ctypes.c_uint32 * rank)(*box)
        ones = (ctypes.c_uint32 * rank)(*([1] * rank))
        raw = (ctypes.c_uint8 * 192)()
        offset = (-ctypes.addressof(raw)) % 64
        at = ctypes.c_void_p(ctypes.addressof(raw) + offset)
        self.check(self.cuda.cuTensorMapEncodeTiled(
            at, TENSOR_MAP_DTYPE[dtype], rank, ctypes.c_void_p(tensor.data_ptr()), dims, strides,
            boxes, ones, 0, SWIZZLE[swizzle], L2_PROMOTION_128B, 0), "cuTensorMapEncodeTiled")
        return bytes(raw)[offset:offset + 128]

    def launch(self, function, blocks, threads, shared, params, stream):
        values = (ctypes.c_void_p * len(params))(*[ctypes.addressof(p) for p in params])
        self.check(self.cuda.cuLaunchKernel(function, blocks, 1, 1, threads, 1, 1, shared,
                                            ctypes.c_void_p(stream), values, None), "cuLaunchKernel")


def prepare(driver, b, given=None):
    """The bundle's buffers (inputs random unless `given`, the rest zero)
    and a function launching all its programs in order."""
    import torch
    sizes = sizes_of(b)
    torch_dtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
                   "i32": torch.int32}
    gen = torch.Generator(device="cuda").manual_seed(0)
    tensors = {}
    for buf in b["buffers"]:
        shape = [extent(d, sizes) for d in buf["dims"]]
        if given and buf["name"] in given:
            tensors[buf["name"]] = given[buf["name"]].contiguous()
        elif buf["role"] == "input":
            t = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32) * 0.1
            tensors[buf["name"]] = t.to(torch_dtype[buf["dtype"]]).contiguous()
        else:
            tensors[buf["name"]] = torch.zeros(shape, device="cuda", dtype=torch_dtype[buf["dtype"]])
    stream = torch.cuda.current_stream().cuda_stream
    launches = []
    keep = []
    for p in b["programs"]:
        function = driver.load(b["ptx"], p["name"], p["dynamic_shared_bytes"])
        params = []
        for buf in b["buffers"]:
            t = tensors[buf["name"]]
            params += [ctypes.c_uint64(t.data_ptr()), ctypes.c_uint64(t.data_ptr()), ctypes.c_int64(0)]
            params += [ctypes.c_int64(s) for s in t.shape]
            params += [ctypes.c_int64(s) for s in t.stride()]
        params += [ctypes.c_int64(sizes[s]) for s in b["sizes"]]
        for m in p["tensor_maps"]:
            buf = next(x for x in b["buffers"] if x["name"] == m["buffer"])
            raw = driver.tensor_map(tensors[m["buffer"]], buf["dtype"], m["box"], m["swizzle_bytes"])
            device_map = torch.frombuffer(bytearray(raw), dtype=torch.uint8).cuda()
            keep.append(device_map)
            params.append(ctypes.c_uint64(device_map.data_ptr()))
        blocks = grid_of(p, sizes)
        if p.get("persistent"):
            blocks = min(blocks, torch.cuda.get_device_properties(0).multi_processor_count)
        launches.append((function, blocks, p["threads"], p["dynamic_shared_bytes"], params))

    def run():
        for function, blocks, threads, shared, params in launches:
            driver.launch(function, blocks, threads, shared, params, stream)
    run.keep = keep  # the tensor maps must outlive the launches
    return tensors, run


def timed(fn, iters):
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1e-3)
    return statistics.median(times)


def run_attention(driver, b, iters):
    import torch
    import torch.nn.functional as F
    tensors, run = prepare(driver, b)
    q, k, v = tensors["Q"], tensors["K"], tensors["V"]
    run()
    torch.cuda.synchronize()
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float())
    got = tensors["O"].float()
    error = ((got - want).abs().max() / want.abs().max()).item()
    bsz, heads, n, d = q.shape
    flops = 4.0 * bsz * heads * n * k.shape[2] * d
    t_nautc = timed(run, iters)
    t_sdpa = timed(lambda: F.scaled_dot_product_attention(q, k, v), iters)
    return {"shape": f"B{bsz} H{heads} N{n} M{k.shape[2]} D{d}", "dtype": "bf16",
            "error": error, "nautc": flops / t_nautc * 1e-12, "cublas": flops / t_sdpa * 1e-12,
            "triton": None, "pipeline": f"{len(b['programs'])} programs"}


def moe_layer(x, wg, wu, wd, ids, w, dtype):
    """A mixture-of-experts layer as PyTorch runs it without a fused kernel:
    per expert, its rows gathered, three matmuls (cuBLAS), the weighted rows
    added back; in `dtype` (f32 for the reference)."""
    import torch
    import torch.nn.functional as F
    y = torch.zeros(x.shape[0], wd.shape[2], device=x.device, dtype=torch.float32)
    for e in range(wg.shape[0]):
        rows, picks = (ids == e).nonzero(as_tuple=True)
        if rows.numel() == 0:
            continue
        xe = x[rows].to(dtype)
        a = F.silu(xe @ wg[e].to(dtype)) * (xe @ wu[e].to(dtype))
        y.index_add_(0, rows, (a @ wd[e].to(dtype)).float() * w[rows, picks, None])
    return y


def run_moe(driver, b, iters):
    import torch
    sizes = sizes_of(b)
    t, e, j = sizes["T"], sizes["E"], sizes["J"]
    gen = torch.Generator(device="cuda").manual_seed(1)
    # Each token's J distinct experts, uniformly; softmax-like weights.
    ids = torch.rand(t, e, generator=gen, device="cuda").argsort(dim=1)[:, :j].to(torch.int32)
    w = torch.rand(t, j, generator=gen, device="cuda")
    w = w / w.sum(dim=1, keepdim=True)
    tensors, run = prepare(driver, b, {"ids": ids, "w": w})
    x, wg, wu, wd = tensors["X"], tensors["Wg"], tensors["Wu"], tensors["Wd"]
    run()
    torch.cuda.synchronize()
    want = moe_layer(x, wg, wu, wd, ids, w, torch.float32)
    got = tensors["Y"].float()
    error = ((got - want).abs().max() / want.abs().max()).item()
    flops = 2.0 * t * j * x.shape[1] * wg.shape[2] * 3
    t_nautc = timed(run, iters)
    t_torch = timed(lambda: moe_layer(x, wg, wu, wd, ids, w, x.dtype), iters)
    return {"shape": f"T{t} D{x.shape[1]} F{wg.shape[2]} E{e} J{j}", "dtype": "bf16",
            "error": error, "nautc": flops / t_nautc * 1e-12, "cublas": flops / t_torch * 1e-12,
            "triton": None, "pipeline": f"{len(b['programs'])} programs"}


def run_bundle(driver, b, iters, triton_matmul):
    import torch
    names = {buf["name"] for buf in b["buffers"]}
    if {"Q", "K", "V", "O"} <= names:
        return run_attention(driver, b, iters)
    if {"X", "Wg", "Wu", "Wd", "ids", "w", "Y"} <= names:
        return run_moe(driver, b, iters)
    tensors, run = prepare(driver, b)
    a, bm = tensors["A"], tensors["B"]
    run()
    torch.cuda.synchronize()
    want = a.float() @ bm.float()
    got = tensors["C"].float()
    error = ((got - want).abs().max() / want.abs().max()).item()
    flops = 2.0 * a.shape[0] * bm.shape[1] * a.shape[1]
    t_nautc = timed(run, iters)
    t_cublas = timed(lambda: torch.matmul(a, bm), iters)
    t_triton = timed(lambda: triton_matmul(a, bm), iters) if triton_matmul else None
    return {"shape": f"{a.shape[0]}x{bm.shape[1]}x{a.shape[1]}", "dtype": b["buffers"][0]["dtype"],
            "error": error, "nautc": flops / t_nautc * 1e-12, "cublas": flops / t_cublas * 1e-12,
            "triton": flops / t_triton * 1e-12 if t_triton else None,
            "pipeline": "wgmma+TMA" if any(p["tensor_maps"] for p in b["programs"]) else "mma.sync"}


def make_triton_matmul():
    try:
        import triton
        import triton.language as tl
    except ImportError:
        return None
    import torch

    @triton.jit
    def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
        pid_m = tl.program_id(0)
        pid_n = tl.program_id(1)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        rk = tl.arange(0, BK)
        a_ptr = a + rm[:, None] * sam + rk[None, :] * sak
        b_ptr = b + rk[:, None] * sbk + rn[None, :] * sbn
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BK)):
            x = tl.load(a_ptr, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
            y = tl.load(b_ptr, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(x, y)
            a_ptr += BK * sak
            b_ptr += BK * sbk
        tl.store(c + rm[:, None] * scm + rn[None, :] * scn, acc.to(c.dtype.element_ty),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))

    def matmul(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, 128), triton.cdiv(N, 128))
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), BM=128, BN=128, BK=64, num_warps=8, num_stages=4)
        return c
    return matmul


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bundles", default=os.path.join(HERE, "bundles"))
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"))
    ap.add_argument("--dry-run", action="store_true")
    args = ap.parse_args()
    bundles = load_bundles(args.bundles)
    for b in bundles:
        problem = check_bundle(b)
        if problem:
            sys.exit(f"{b['path']}: {problem}")
    if args.dry_run:
        for b in bundles:
            sizes = sizes_of(b)
            for p in b["programs"]:
                persistent = " (persistent: at most one a multiprocessor)" if p.get("persistent") else ""
                print(f"{os.path.basename(b['path'])}: {p['name']} on {grid_of(p, sizes)} blocks{persistent} of "
                      f"{p['threads']} threads, {p['dynamic_shared_bytes']} B dynamic shared memory, "
                      f"{len(p['tensor_maps'])} tensor maps")
        print(f"{len(bundles)} bundles ready")
        return
    import torch
    torch.cuda.init()
    torch.zeros(1, device="cuda")  # makes the primary context current
    driver = Driver()
    triton_matmul = make_triton_matmul()
    rows = []
    for b in bundles:
        try:
            r = run_bundle(driver, b, args.iters, triton_matmul)
        except Exception as e:  # report and go on with the next bundle
            r = {"shape": os.path.basename(b["path"]), "dtype": "?", "failure": str(e)}
        r["bundle"] = os.path.basename(b["path"])
        rows.append(r)
        print(r, flush=True)
    name = torch.cuda.get_device_name()
    lines = [f"GPU: {name}; TFLOP/s, median of {args.iters} launches "
             "(attention rows: the cuBLAS column is PyTorch's scaled_dot_product_attention; "
             "MoE rows: PyTorch's per-expert loop of cuBLAS matmuls)", "",
             "| bundle | M x N x K | dtype | pipeline | max rel. error | nautc | cuBLAS | Triton | nautc/cuBLAS | nautc/Triton |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "failure" in r:
            lines.append(f"| {r['bundle']} | | | | FAILED: {r['failure']} | | | | | |")
            continue
        tri = f"{r['triton']:.1f}" if r["triton"] else "-"
        vs_tri = f"{r['nautc'] / r['triton']:.2f}" if r["triton"] else "-"
        lines.append(f"| {r['bundle']} | {r['shape']} | {r['dtype']} | {r['pipeline']} | {r['error']:.1e} | "
                     f"{r['nautc']:.1f} | {r['cublas']:.1f} | {tri} | {r['nautc'] / r['cublas']:.2f} | {vs_tri} |")
    text = "\n".join(lines) + "\n"
    print(text)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
