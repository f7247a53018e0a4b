#!/usr/bin/env python3
"""Runs nautc's GEMM, mixture-of-experts and attention bundles on an NVIDIA
GPU, checks each result against a reference, times it against cuBLAS,
Triton and PyTorch, and writes a table.

    python3 bench/gpu/run_gemms.py [--out FILE.md] [--only REGEX] [--iters 20]
                                   [--reps 5] [--bundle-timeout 90] [--all-targets]
    python3 bench/gpu/run_gemms.py --dry-run     # no GPU: check the bundles

Needs on the GPU machine: the NVIDIA driver, PyTorch with CUDA, and Triton
(for the Triton column); nothing to build. The bundles come from
bench/gpu/prepare.sh on a build machine (nautc compile --emit bundle): each
is one kernel's launch plan and PTX for one shape, or for the sizes its
NAME.sizes.json gives where it was compiled without some (the format is described
in runtime/Bundle.h; from version 2 on a bundle's checksum is verified). This
script loads the PTX with the driver API (ctypes), builds the TMA tensor maps with cuTensorMapEncodeTiled, packs
the parameters as MLIR lowers them (a memref descriptor per tensor buffer,
each scalar by value, the sizes, then a pointer per tensor map), and
launches each program.

Each bundle runs in a child process (this script with --one) under a
deadline (--bundle-timeout): a kernel that hangs or faults loses its own
row only. The GEMMs run first (4096^3, 8192^3, then ragged, skinny and
unaligned shapes), then the mixtures of experts, then attention, then the
norms. The
table (--out) and a results.jsonl beside it (every number, raw timings
included) are rewritten after every bundle.

For each bundle: the largest error of nautc's output relative to the
largest |reference|, and whether it is within the tolerance of the
output's type; then seconds per call of nautc's programs and of each
baseline on the same inputs: --reps batches of --iters back-to-back calls,
each batch between one pair of CUDA events, the median batch. GEMMs
(A x B, f16/bf16 inputs, f32 C): the reference is the f64 product; the
baselines are torch.matmul (cuBLAS, f16/bf16 out), torch.mm with
out_dtype=f32 (cuBLAS writing f32 like nautc, where PyTorch has it) and
Triton's tutorial matmul; TFLOP/s = 2 M N K / time. Attention (Q, K, V,
O; unit-scale inputs, Q doubled so that the softmax is peaked and a wrong
P shows as an error of order 1): against PyTorch's
scaled_dot_product_attention, in f32 for the reference and on the bf16
inputs for time; TFLOP/s = 4 B H N M D / time. This is the check the
emulator cannot make of the P V program, whose producer warpgroup writes
shared memory that wgmma reads through the async proxy. Mixture of experts
(X, Wg, Wu, Wd, ids, w, Y; random top-J routings): against a naive
per-expert PyTorch loop, in f32 for the reference and in bf16 for time;
TFLOP/s = 6 T J D F / time. Norms (rmsnorm: X, g, Y; softmax: X, Y,
rows of the last dimension): against PyTorch's own kernels (F.rms_norm,
torch.softmax), in f32 for the reference; memory-bound, so their
"TFLOP/s" column is TB/s of the bytes read and written once (X and Y).
"""
import argparse
import ctypes
import dataclasses
import glob
import json
import math
import os
import re
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

# Driver API enums (cuda.h).
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76
CU_JIT_ERROR_LOG_BUFFER = 5
CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6
TENSOR_MAP_DTYPE = {"f16": 6, "bf16": 9, "f32": 7}
SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
L2_PROMOTION_128B = 2

ELEMENT_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i32": 4, "i64": 8, "bool": 1}
# Bytes of a kernel parameter by its PTX type.
PTX_PARAM_BYTES = {f"{kind}{bits}": bits // 8 for kind in "bsuf" for bits in (8, 16, 32, 64)}
UNSIGNED_OF_BYTES = {1: ctypes.c_uint8, 2: ctypes.c_uint16, 4: ctypes.c_uint32, 8: ctypes.c_uint64}
# The value a scalar buffer gets when the caller gives none.
SCALAR_DEFAULT = 1

# The largest error relative to max |reference| that passes, by the type
# of nautc's output (f32: GEMMs, expected about 1e-6; bf16: attention, MoE).
TOLERANCE = {"f32": 1e-4, "f16": 1e-2, "bf16": 2e-2}

# Run order: GEMMs (the target) first, the riskiest bundles last;
# within a kind, by the first of these that the bundle's name contains.
KIND_ORDER = ["gemm", "moe", "mlp", "attention", "rmsnorm", "layernorm", "softmax"]
SHAPE_ORDER = ["_4096", "_8192", "_ragged", "_skinny", "_splitk", "_unaligned"]

# The table's timed columns: key in the results, title.
COLUMNS = {"nautc": "nautc", "cublas": "cuBLAS", "cublas_f32": "cuBLAS f32 out", "triton": "Triton",
           "sdpa_flash": "SDPA flash", "sdpa_cudnn": "SDPA cuDNN",
           "sdpa_flash_gqa": "SDPA flash GQA", "sdpa_cudnn_gqa": "SDPA cuDNN GQA"}

# Triton's tutorial matmul: the one config this script runs.
TRITON_CONFIG = {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
                 "num_warps": 8, "num_stages": 4}

# Device copies of the tensor maps: never freed, so that no map's address
# is reused for another map while this process runs.
DEVICE_TENSOR_MAPS = []


# ---- Bundles, without a GPU -------------------------------------------

def bundle_checksum_error(data):
    """Why the checksum of a bundle's bytes (version 2 on) is wrong, or None: it
    is FNV-1a 64 of the file with its own 16 digits replaced by '0'
    (runtime/Bundle.h)."""
    m = re.search(rb'"checksum": "fnv1a64:([0-9a-f]{16})"', data)
    if not m:
        return "no checksum"
    h = 0xCBF29CE484222325
    for c in data[:m.start(1)] + b"0" * 16 + data[m.end(1):]:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    if m.group(1).decode() != f"{h:016x}":
        return f"checksum mismatch: the bundle says fnv1a64:{m.group(1).decode()}, its content hashes to fnv1a64:{h:016x} (truncated or edited)"
    return None


def load_bundle(path):
    with open(path, "rb") as f:
        data = f.read()
    try:
        b = json.loads(data)
    except ValueError as e:
        sys.exit(f"{path}: malformed JSON: {e}")
    if not isinstance(b, dict) or b.get("format") not in ("nautilus-bundle-1", "nautilus-bundle-2", "nautilus-bundle-3", "nautilus-bundle-4", "nautilus-bundle-5"):
        sys.exit(f"{path}: not a nautilus bundle")
    error = bundle_checksum_error(data) if b["format"] != "nautilus-bundle-1" else None
    if error:
        sys.exit(f"{path}: {error}")
    if os.path.exists(sizes_path(path)) or any("launch_when" in p for p in b.get("programs", [])):
        bind_at_launch(b, path)
    b["path"] = path
    return b


def sizes_path(path):
    """Where a bundle's launch sizes are given: NAME.sizes.json beside it."""
    return os.path.splitext(path)[0] + ".sizes.json"


def evaluate(expr, sizes):
    """A size expression of the bundle format (runtime/SizeExpr.h): an
    integer, a size's name, or [op, operands...]."""
    if isinstance(expr, int):
        return expr
    if isinstance(expr, str):
        return sizes[expr]
    op, *args = expr
    v = [evaluate(a, sizes) for a in args]
    table = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
             "min": min, "max": max, "eq": lambda a, b: int(a == b), "ne": lambda a, b: int(a != b),
             "lt": lambda a, b: int(a < b), "le": lambda a, b: int(a <= b),
             "gt": lambda a, b: int(a > b), "ge": lambda a, b: int(a >= b),
             "and": lambda a, b: a & b, "or": lambda a, b: a | b, "not": lambda a: int(not a)}
    if op not in table:
        raise ValueError(f"size operation '{op}' is not evaluated here")
    return table[op](*v)


def bind_at_launch(b, path):
    """A bundle compiled without some sizes, whose programs may be copies
    for ranges of them (launch_when, docs/autoscheduler.md "Tiles chosen at
    launch"): its sizes for this run come from NAME.sizes.json, and only the
    programs whose condition holds there are launched, as the runtime
    launches them (in the plan's order)."""
    where = os.path.basename(sizes_path(path))
    try:
        with open(sizes_path(path)) as f:
            given = json.load(f)
    except OSError:
        sys.exit(f"{path}: its programs are chosen by size at launch (launch_when): give the sizes to run it at in {where}, or compile with --shape")
    except ValueError as e:
        sys.exit(f"{path}: {where} is not JSON: {e}")
    if not isinstance(given, dict) or not all(isinstance(v, int) and v > 0 for v in given.values()):
        sys.exit(f'{path}: {where} must map sizes to positive integers, as {{"M": 16}}')
    for name, value in given.items():
        if name not in b["sizes"]:
            sys.exit(f"{path}: {where} gives '{name}', which is not one of the bundle's sizes {b['sizes']}")
        if b["bindings"].get(name, value) != value:
            sys.exit(f"{path}: {where} gives {name} = {value}, but the bundle was compiled for {name} = {b['bindings'][name]}")
    b["bindings"] = {**b["bindings"], **given}
    # (check_bundle checks every program, chosen or not.)
    b["all_programs"] = b["programs"]
    try:
        sizes = sizes_of(b)
        chosen = [p for p in b["programs"] if "launch_when" not in p
                  or evaluate(p["launch_when"]["condition"], sizes)]
    except (KeyError, ValueError) as e:
        sys.exit(f"{path}: its launch conditions cannot be evaluated at the sizes {where} gives: {e}")
    b["launched_copies"] = [p["name"] for p in chosen if "launch_when" in p]
    b["programs"] = chosen


def load_bundles(directory):
    bundles = [load_bundle(p) for p in sorted(glob.glob(os.path.join(directory, "*.json")))
               if not p.endswith(".sizes.json")]
    if not bundles:
        sys.exit(f"no bundles in {directory}: run bench/gpu/prepare.sh on a build machine")
    return bundles


def bundle_name(b):
    return os.path.splitext(os.path.basename(b["path"]))[0]


def extent(dim, sizes):
    return dim if isinstance(dim, int) else sizes[dim]


def sizes_of(b):
    """The bundle's sizes: the bound ones, and the derived ones computed in
    order by the plan's formula (see Bundle.h). Raises ValueError when a
    binding disagrees with the formula."""
    sizes = dict(b["bindings"])
    for d in b.get("derived_sizes", []):
        try:
            value = sum(t["coefficient"] * math.prod(sizes[f] for f in t["factors"]) for t in d["terms"])
        except KeyError:
            continue  # a factor is not bound: check_bundle reports it
        bound = b["bindings"].get(d["name"])
        if bound is not None and bound != value:
            raise ValueError(f"size {d['name']} is bound to {bound}, but the plan's formula gives {value}")
        sizes[d["name"]] = value
    return sizes


def buffer_named(b, name):
    return next(buf for buf in b["buffers"] if buf["name"] == name)


def grid_of(program, sizes):
    blocks = 1
    for dim, tile in zip(program["output_dims"], program["tile"]):
        blocks *= -(-extent(dim, sizes) // tile)
    return blocks


def ptx_param_types(ptx, kernel):
    """The PTX types of a kernel's parameters, in order (e.g. 'u64', 'f32')."""
    header = ptx.split(f".entry {kernel}(")[1].split(")")[0]
    return re.findall(r"\.param\s+\.(\w+)", header)


def param_bytes(b, program):
    """The width of each parameter the plan implies (Bundle.h): per tensor
    buffer a memref descriptor of 64-bit fields, per scalar its element,
    per size and per tensor map 64 bits."""
    widths = []
    for buf in b["buffers"]:
        if buf["role"] == "scalar":
            widths.append(ELEMENT_BYTES[buf["dtype"]])
        else:
            widths += [8] * (3 + 2 * len(buf["dims"]))
    return widths + [8] * (len(b["sizes"]) + len(program["tensor_maps"]))


def check_bundle(b):
    """What can be checked without a GPU: the plan is complete and the PTX
    declares the parameters it implies; '' if all is well."""
    try:
        sizes = sizes_of(b)
    except ValueError as e:
        return str(e)
    missing = [s for s in b["sizes"] if s not in sizes]
    if missing:
        return f"sizes not bound: {missing} (prepare.sh binds every size, or gives them in NAME.sizes.json)"
    for p in b.get("all_programs", b["programs"]):
        if f".entry {p['name']}(" not in b["ptx"]:
            return f"program {p['name']} has no kernel in the PTX"
        declared = ptx_param_types(b["ptx"], p["name"])
        implied = param_bytes(b, p)
        if len(declared) != len(implied):
            return f"{p['name']}: the PTX declares {len(declared)} parameters, the plan implies {len(implied)}"
        for i, (ptx_type, width) in enumerate(zip(declared, implied)):
            if PTX_PARAM_BYTES.get(ptx_type) != width:
                return f"{p['name']}: parameter {i} is .{ptx_type} in the PTX, the plan implies {width} bytes"
    return ""


def kind_of(b):
    """'gemm', 'moe', 'mlp', 'attention', 'rmsnorm', 'layernorm' or
    'softmax' by
    the bundle's buffers; None otherwise."""
    buffers = {buf["name"]: buf for buf in b["buffers"]}
    if {"Q", "K", "V", "O"} <= buffers.keys():
        return "attention"
    if {"X", "Wg", "Wu", "Wd", "ids", "w", "Y"} <= buffers.keys():
        return "moe"
    if {"X", "Wg", "Wu", "Wd", "Y"} <= buffers.keys():
        return "mlp"
    if {"A", "B", "C"} <= buffers.keys() and all(len(buffers[n]["dims"]) == 2 for n in "ABC"):
        return "gemm"
    if {"X", "g", "b", "Y"} <= buffers.keys() and len(buffers["X"]["dims"]) == 2:
        return "layernorm"
    if {"X", "g", "Y"} <= buffers.keys() and len(buffers["X"]["dims"]) == 2:
        return "rmsnorm"
    # (Its row maximum and sum are workspaces where Y is a program apart,
    # registers where Y is swept in the rows' program.)
    if {"X", "Y"} <= buffers.keys() and len(buffers["X"]["dims"]) == 2 \
            and len(buffers["Y"]["dims"]) == 2:
        return "softmax"
    return None


def run_order(b):
    kind = kind_of(b)
    name = bundle_name(b)
    kind_rank = KIND_ORDER.index(kind) if kind in KIND_ORDER else len(KIND_ORDER)
    shape_rank = next((i for i, tag in enumerate(SHAPE_ORDER) if tag in name), len(SHAPE_ORDER))
    return kind_rank, shape_rank, name


def chip_capability(chip):
    """'sm_90a' -> ((9, 0), True): the compute capability, and whether the
    code is specific to it (runs on no other)."""
    m = re.fullmatch(r"sm_(\d+)(\d)(a?)", chip)
    return (int(m.group(1)), int(m.group(2))), bool(m.group(3))


def runs_on(b, capability):
    wanted, specific = chip_capability(b.get("chip", b["target"]))
    return capability == wanted if specific else capability >= wanted


def for_device(bundles, capability):
    """The bundles of the newest target the device runs, and the others."""
    runnable = [b for b in bundles if runs_on(b, capability)]
    if not runnable:
        return [], bundles
    best = max(chip_capability(b.get("chip", b["target"]))[0] for b in runnable)
    chosen = [b for b in runnable if chip_capability(b.get("chip", b["target"]))[0] == best]
    return chosen, [b for b in bundles if b not in chosen]


# ---- The driver API ---------------------------------------------------

class Driver:
    """The CUDA driver API calls this script makes (ctypes on libcuda)."""

    def __init__(self):
        self.cuda = ctypes.CDLL("libcuda.so.1")
        self.multiprocessors = None

    def check(self, status, what):
        if status != 0:
            name = ctypes.c_char_p()
            self.cuda.cuGetErrorName(status, ctypes.byref(name))
            raise RuntimeError(f"{what}: {name.value.decode() if name.value else status}")

    def device_info(self):
        """Device 0: its name, compute capability, multiprocessors and the
        driver's version. Creates no context."""
        self.check(self.cuda.cuInit(0), "cuInit")
        device = ctypes.c_int()
        self.check(self.cuda.cuDeviceGet(ctypes.byref(device), 0), "cuDeviceGet")
        name = ctypes.create_string_buffer(256)
        self.check(self.cuda.cuDeviceGetName(name, len(name), device), "cuDeviceGetName")

        def attribute(which):
            value = ctypes.c_int()
            self.check(self.cuda.cuDeviceGetAttribute(ctypes.byref(value), which, device), "cuDeviceGetAttribute")
            return value.value
        version = ctypes.c_int()
        self.check(self.cuda.cuDriverGetVersion(ctypes.byref(version)), "cuDriverGetVersion")
        self.multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        return {"name": name.value.decode(),
                "capability": [attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                               attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)],
                "multiprocessors": self.multiprocessors,
                "driver": f"{version.value // 1000}.{version.value % 1000 // 10}"}

    def load_module(self, ptx):
        """Loads PTX (the driver compiles it); its error log on failure."""
        module = ctypes.c_void_p()
        log = ctypes.create_string_buffer(1 << 16)
        options = (ctypes.c_int * 2)(CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
        values = (ctypes.c_void_p * 2)(ctypes.addressof(log), len(log))
        status = self.cuda.cuModuleLoadDataEx(ctypes.byref(module), ctypes.c_char_p(ptx.encode() + b"\0"),
                                              2, options, values)
        if status != 0:
            jit_log = log.value.decode(errors="replace").strip()
            try:
                self.check(status, "cuModuleLoadDataEx")
            except RuntimeError as e:
                raise RuntimeError(f"{e}: {jit_log}" if jit_log else str(e)) from None
        return module

    def function(self, module, name, dynamic_shared):
        function = ctypes.c_void_p()
        self.check(self.cuda.cuModuleGetFunction(ctypes.byref(function), module, name.encode()),
                   "cuModuleGetFunction")
        # Opted into whenever there is any: a block's static and dynamic
        # shared memory together may pass 48 KiB only up to this limit
        # (by default 48 KiB less the static).
        if dynamic_shared > 0:
            self.check(self.cuda.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                    ctypes.c_int(dynamic_shared)), "cuFuncSetAttribute")
        return function

    def function_attributes(self, function):
        """What the driver's compiler made of a kernel."""
        def attribute(which):
            value = ctypes.c_int()
            self.check(self.cuda.cuFuncGetAttribute(ctypes.byref(value), which, function), "cuFuncGetAttribute")
            return value.value
        return {"registers": attribute(CU_FUNC_ATTRIBUTE_NUM_REGS),
                "local_bytes": attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
                "static_shared_bytes": attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)}

    def tensor_map(self, tensor, dtype, box, swizzle):
        """A CUtensorMap (128 bytes) over a contiguous torch tensor, innermost dim first."""
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

    def launch(self, launch, stream):
        self.check(self.cuda.cuLaunchKernel(launch.function, launch.blocks, 1, 1, launch.threads, 1, 1,
                                            launch.shared, ctypes.c_void_p(stream), launch.values, None),
                   "cuLaunchKernel")


class Launch:
    """One program's launch, its parameter array built once: `values` points
    at each of `params`, which it keeps alive."""

    def __init__(self, function, blocks, threads, shared, params):
        self.function, self.blocks, self.threads, self.shared = function, blocks, threads, shared
        self.params = params
        self.values = (ctypes.c_void_p * len(params))(*[ctypes.addressof(p) for p in params])


def scalar_bytes(value, dtype):
    """`value` as one element of `dtype`, little-endian."""
    if dtype == "bf16":  # f32's upper half, rounded to nearest even
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        return struct.pack("<H", (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16)
    formats = {"f16": "e", "f32": "f", "f64": "d", "i8": "b", "i32": "i", "i64": "q", "bool": "?"}
    return struct.pack("<" + formats[dtype], value)


def scalar_param(value, dtype, ptx_type):
    """A scalar buffer's parameter, passed by value as wide as its PTX .param."""
    data = scalar_bytes(value, dtype)
    if len(data) != PTX_PARAM_BYTES[ptx_type]:
        raise ValueError(f"a {dtype} scalar cannot be passed as .{ptx_type}")
    return UNSIGNED_OF_BYTES[len(data)].from_buffer_copy(data)


def torch_dtype(name):
    import torch
    return {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "f64": torch.float64,
            "i8": torch.int8, "i32": torch.int32, "i64": torch.int64, "bool": torch.bool}[name]


# ---- Launching through Nautilus's runtime (NAUTILUS_GPU_LAUNCHER=capi) --

DTYPE_CODES = {"f16": 0, "bf16": 1, "f32": 2, "f64": 3, "i8": 4, "i32": 5, "i64": 6, "bool": 7}


class NtTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int), ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64))]


def capi_library():
    """libnautilus_runtime (the C API, no LLVM): NAUTILUS_RUNTIME_LIB, else
    the copy prepare.sh puts beside the bundles."""
    path = os.environ.get("NAUTILUS_RUNTIME_LIB", os.path.join(HERE, "bundles", "libnautilus_runtime.so"))
    lib = ctypes.CDLL(path)
    status = ctypes.c_void_p
    for name, result, args in [
            ("nt_status_message", ctypes.c_char_p, [status]), ("nt_status_free", None, [status]),
            ("nt_program_load", status, [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]),
            ("nt_device_open", status, [ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p)]),
            ("nt_launch", status, [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(NtTensor), ctypes.c_size_t,
                                   ctypes.c_void_p])]:
        getattr(lib, name).restype = result
        getattr(lib, name).argtypes = args
    return lib


def capi_check(lib, status, what):
    if status:
        message = lib.nt_status_message(status).decode()
        lib.nt_status_free(status)
        raise RuntimeError(f"{what}: {message}")


def capi_run(b, tensors, given):
    """A function launching the bundle through the C API's cuda device
    (nt_launch, which checks the tensors and keeps its own workspaces and
    tensor maps) on PyTorch's current stream, with the tensors `prepare`
    made."""
    import torch
    lib = capi_library()
    with open(b["path"], "rb") as f:
        data = f.read()
    program, device = ctypes.c_void_p(), ctypes.c_void_p()
    capi_check(lib, lib.nt_program_load(data, len(data), ctypes.byref(program)), "nt_program_load")
    capi_check(lib, lib.nt_device_open(b"cuda", torch.cuda.current_device(), ctypes.byref(device)),
               "nt_device_open")
    keep, raw = [], []
    for buf in b["buffers"]:
        if buf["role"] == "workspace":
            continue
        if buf["role"] == "scalar":
            value = ctypes.create_string_buffer(scalar_bytes(given.get(buf["name"], SCALAR_DEFAULT), buf["dtype"]))
            keep.append(value)
            raw.append(NtTensor(ctypes.cast(value, ctypes.c_void_p), DTYPE_CODES[buf["dtype"]], 0, None, None))
            continue
        t = tensors[buf["name"]]
        shape = (ctypes.c_int64 * max(t.dim(), 1))(*t.shape)
        keep.append(shape)
        raw.append(NtTensor(t.data_ptr(), DTYPE_CODES[buf["dtype"]], t.dim(), shape, None))
    params = (NtTensor * len(raw))(*raw)
    stream = torch.cuda.current_stream().cuda_stream

    def run():
        capi_check(lib, lib.nt_launch(device, program, params, len(raw), stream), "nt_launch")
    run.keep = (keep, params, program, device, tensors)
    return run


def prepare(driver, b, given=None):
    """The bundle's buffers on the GPU (those in `given` as given, other
    inputs random, outputs and workspaces zero; scalars from `given` or
    SCALAR_DEFAULT), its PTX loaded once and every program's parameters
    packed once. Returns the tensors, a function launching all programs in
    order, and what the driver made of each program."""
    import torch
    given = given or {}
    sizes = sizes_of(b)
    gen = torch.Generator(device="cuda").manual_seed(0)
    tensors = {}
    for buf in b["buffers"]:
        if buf["role"] == "scalar":
            continue
        shape = [extent(d, sizes) for d in buf["dims"]]
        if "allocate_when" in buf and not evaluate(buf["allocate_when"]["condition"], sizes):
            shape = [0] * len(shape)  # (a copy's workspace where it does not launch)
        if buf["name"] in given:
            tensors[buf["name"]] = given[buf["name"]].contiguous()
        elif buf["role"] == "input":
            t = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32) * 0.1
            tensors[buf["name"]] = t.to(torch_dtype(buf["dtype"])).contiguous()
        else:
            tensors[buf["name"]] = torch.zeros(shape, device="cuda", dtype=torch_dtype(buf["dtype"]))
    if os.environ.get("NAUTILUS_GPU_LAUNCHER") == "capi":
        programs = [dict(name=p["name"], blocks=grid_of(p, sizes), threads=p["threads"],
                         dynamic_shared_bytes=p["dynamic_shared_bytes"]) for p in b["programs"]]
        return tensors, capi_run(b, tensors, given), programs
    module = driver.load_module(b["ptx"])
    stream = torch.cuda.current_stream().cuda_stream
    launches, programs = [], []
    for p in b["programs"]:
        function = driver.function(module, p["name"], p["dynamic_shared_bytes"])
        ptx_types = ptx_param_types(b["ptx"], p["name"])
        params = []
        for buf in b["buffers"]:
            if buf["role"] == "scalar":
                value = given.get(buf["name"], SCALAR_DEFAULT)
                params.append(scalar_param(value, buf["dtype"], ptx_types[len(params)]))
                continue
            t = tensors[buf["name"]]
            params += [ctypes.c_uint64(t.data_ptr()), ctypes.c_uint64(t.data_ptr()), ctypes.c_int64(0)]
            params += [ctypes.c_int64(s) for s in t.shape]
            params += [ctypes.c_int64(s) for s in t.stride()]
        params += [ctypes.c_int64(sizes[s]) for s in b["sizes"]]
        for m in p["tensor_maps"]:
            raw = driver.tensor_map(tensors[m["buffer"]], buffer_named(b, m["buffer"])["dtype"], m["box"],
                                    m["swizzle_bytes"])
            device_map = torch.frombuffer(bytearray(raw), dtype=torch.uint8).cuda()
            DEVICE_TENSOR_MAPS.append(device_map)
            params.append(ctypes.c_uint64(device_map.data_ptr()))
        blocks = grid_of(p, sizes)
        if p.get("persistent"):
            blocks = min(blocks, driver.multiprocessors)
        launches.append(Launch(function, blocks, p["threads"], p["dynamic_shared_bytes"], params))
        info = dict(name=p["name"], blocks=blocks, threads=p["threads"],
                    dynamic_shared_bytes=p["dynamic_shared_bytes"], **driver.function_attributes(function))
        programs.append(info)
        print(f"  {info['name']}: {info['registers']} registers, {info['local_bytes']} B local memory, "
              f"{info['static_shared_bytes']} B static + {info['dynamic_shared_bytes']} B dynamic shared memory; "
              f"{blocks} blocks of {info['threads']} threads", flush=True)

    def run():
        for launch in launches:
            driver.launch(launch, stream)
    run.buffers = tensors  # the parameters point into them: they live as long as `run`
    return tensors, run, programs


# ---- Measuring one bundle (in the child process) ----------------------

def timed(fn, iters, reps):
    """Seconds per call of `fn`: `reps` batches of `iters` back-to-back
    calls, each batch between one pair of CUDA events. Returns the median
    batch's and every batch's."""
    import torch
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    per_call = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        end.synchronize()
        per_call.append(start.elapsed_time(end) * 1e-3 / iters)
    return statistics.median(per_call), per_call


def relative_error(got, want):
    """max |got - want| / max |want| (nan when either is)."""
    return ((got.to(want.dtype) - want).abs().max() / want.abs().max()).item()


@dataclasses.dataclass
class Case:
    """One bundle set up on the GPU: nautc's programs, how to check them,
    and the baselines to time them against on the same inputs."""
    run: object           # launches nautc's programs
    error: object         # () -> error of nautc's output against the reference
    output_dtype: str
    flops: float
    shape: str
    dtype: str
    pipeline: str
    programs: list
    baselines: list       # [(column, function)], timed in this order
    notes: list
    info: dict = dataclasses.field(default_factory=dict)  # more fields for the row


def gemm_case(driver, b):
    import torch
    tensors, run, programs = prepare(driver, b)
    a, bm, c = tensors["A"], tensors["B"], tensors["C"]
    m, k = a.shape
    n = bm.shape[1]
    baselines = [("cublas", lambda: torch.matmul(a, bm)),
                 ("cublas_f32", lambda: torch.mm(a, bm, out_dtype=torch.float32))]
    notes = []
    triton_matmul, triton_status = make_triton_matmul()
    if triton_matmul:
        baselines.append(("triton", lambda: triton_matmul(a, bm)))
        if k % 16 or n % 16:
            notes.append("Triton unpipelined (a row stride is not a multiple of 16 elements)")
    else:
        notes.append(f"Triton: {triton_status}")
    notes += launch_notes(b)
    return Case(run=run, error=lambda: relative_error(c, a.double() @ bm.double()),
                output_dtype=buffer_named(b, "C")["dtype"], flops=2.0 * m * n * k, shape=f"{m}x{n}x{k}",
                dtype=buffer_named(b, "A")["dtype"],
                pipeline="wgmma+TMA" if any(p["tensor_maps"] for p in b["programs"]) else "mma.sync",
                programs=programs, baselines=baselines, notes=notes,
                info={"triton": triton_status} if triton_matmul else {})


def attention_case(driver, b):
    """Unit-scale inputs, Q doubled: scores of standard deviation about 2,
    so a wrong P shows as an error of order 1 rather than of bf16 noise.
    attention_causal (query n sees keys up to n + M - N: PyTorch's is_causal
    where M = N) and grouped-query heads (K and V heads repeated for the
    reference) too. Baselines: scaled_dot_product_attention restricted to
    its flash backend (FlashAttention-2) and to cuDNN's, each where this
    PyTorch has it for the shape."""
    import torch
    import torch.nn.functional as F
    sizes = sizes_of(b)
    gen = torch.Generator(device="cuda").manual_seed(2)

    def random(name, scale):
        buf = buffer_named(b, name)
        shape = [extent(d, sizes) for d in buf["dims"]]
        t = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32) * scale
        return t.to(torch_dtype(buf["dtype"]))
    given = {"Q": random("Q", 2.0), "K": random("K", 1.0), "V": random("V", 1.0)}
    tensors, run, programs = prepare(driver, b, given)
    q, k, v, o = tensors["Q"], tensors["K"], tensors["V"], tensors["O"]
    bsz, heads, n, d = q.shape
    m = k.shape[2]
    causal = "causal" in b.get("kernel", "")
    if causal and m != n:
        raise RuntimeError("causal attention is benchmarked at M = N only (PyTorch's is_causal aligns "
                           "the mask at the top left, nautc's at the end)")
    group = heads // k.shape[1]
    kr, vr = (k, v) if group == 1 else (k.repeat_interleave(group, 1), v.repeat_interleave(group, 1))
    flops = 4.0 * bsz * heads * n * m * d / (2 if causal else 1)

    def sdpa(backend_name, gqa=False):
        """The backend on K and V repeated to every query head, or (`gqa`)
        on K and V as they are (enable_gqa: PyTorch 2.5 and later)."""
        def call():
            from torch.nn.attention import SDPBackend, sdpa_kernel
            with sdpa_kernel(getattr(SDPBackend, backend_name)):
                if gqa:
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)
                return F.scaled_dot_product_attention(q, kr, vr, is_causal=causal)
        return call
    baselines = [("sdpa_flash", sdpa("FLASH_ATTENTION")), ("sdpa_cudnn", sdpa("CUDNN_ATTENTION"))]
    if group > 1:
        baselines += [("sdpa_flash_gqa", sdpa("FLASH_ATTENTION", True)),
                      ("sdpa_cudnn_gqa", sdpa("CUDNN_ATTENTION", True))]
    return Case(run=run,
                error=lambda: relative_error(o, F.scaled_dot_product_attention(
                    q.float(), kr.float(), vr.float(), is_causal=causal)),
                output_dtype=buffer_named(b, "O")["dtype"], flops=flops,
                shape=f"B{bsz} H{heads} N{n} M{m} D{d}{' causal' if causal else ''}"
                      f"{f' GQA {group}' if group > 1 else ''}",
                dtype=buffer_named(b, "Q")["dtype"],
                pipeline=f"{len(b['programs'])} programs", programs=programs,
                baselines=baselines, notes=launch_notes(b))


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


def moe_case(driver, b):
    import torch
    sizes = sizes_of(b)
    t, e, j = sizes["T"], sizes["E"], sizes["J"]
    gen = torch.Generator(device="cuda").manual_seed(1)
    # Each token's J distinct experts, uniformly; softmax-like weights.
    ids = torch.rand(t, e, generator=gen, device="cuda").argsort(dim=1)[:, :j].to(torch.int32)
    w = torch.rand(t, j, generator=gen, device="cuda")
    w = w / w.sum(dim=1, keepdim=True)
    tensors, run, programs = prepare(driver, b, {"ids": ids, "w": w})
    x, wg, wu, wd, y = tensors["X"], tensors["Wg"], tensors["Wu"], tensors["Wd"], tensors["Y"]
    return Case(run=run, error=lambda: relative_error(y, moe_layer(x, wg, wu, wd, ids, w, torch.float32)),
                output_dtype=buffer_named(b, "Y")["dtype"], flops=6.0 * t * j * x.shape[1] * wg.shape[2],
                shape=f"T{t} D{x.shape[1]} F{wg.shape[2]} E{e} J{j}", dtype=buffer_named(b, "X")["dtype"],
                pipeline=f"{len(b['programs'])} programs", programs=programs,
                baselines=[("cublas", lambda: moe_layer(x, wg, wu, wd, ids, w, x.dtype))], notes=[])


def mlp_case(driver, b):
    """A gated MLP (examples/mlp.tensor: Y = (silu(X Wg) * (X Wu)) Wd)
    against PyTorch's three matmuls (cuBLAS) and F.silu in the inputs'
    type; TFLOP/s = 6 T D F / time."""
    import torch
    import torch.nn.functional as F
    tensors, run, programs = prepare(driver, b)
    x, wg, wu, wd, y = (tensors[n] for n in ("X", "Wg", "Wu", "Wd", "Y"))
    t, d = x.shape
    f = wg.shape[1]

    def layer(dtype):
        xd = x.to(dtype)
        return (F.silu(xd @ wg.to(dtype)) * (xd @ wu.to(dtype))) @ wd.to(dtype)
    return Case(run=run, error=lambda: relative_error(y, layer(torch.float32)),
                output_dtype=buffer_named(b, "Y")["dtype"], flops=6.0 * t * d * f,
                shape=f"T{t} D{d} F{f}", dtype=buffer_named(b, "X")["dtype"],
                pipeline=f"{len(b['programs'])} programs", programs=programs,
                baselines=[("cublas", lambda: layer(x.dtype))], notes=[])


def launch_notes(b):
    """The copies of programs a bundle compiled without some sizes chose
    at launch (their launch_when held at this run's sizes)."""
    if b.get("launched_copies"):
        return ["chosen at launch: " + ", ".join(b["launched_copies"])]
    return []


def rmsnorm_case(driver, b):
    """rmsnorm (examples/norms.tensor, eps 1e-6) against
    F.rms_norm; "flops" is the bytes of X and Y (memory-bound)."""
    import torch
    import torch.nn.functional as F
    tensors, run, programs = prepare(driver, b)
    x, g, y = tensors["X"], tensors["g"], tensors["Y"]
    t, d = x.shape

    def reference():
        xf = x.float()
        return xf * torch.rsqrt((xf * xf).mean(dim=1, keepdim=True) + 1e-6) * g.float()
    baselines = []
    if hasattr(F, "rms_norm"):
        baselines.append(("cublas", lambda: F.rms_norm(x, (d,), g, eps=1e-6)))
    return Case(run=run, error=lambda: relative_error(y, reference()),
                output_dtype=buffer_named(b, "Y")["dtype"],
                flops=2.0 * x.numel() * x.element_size(), shape=f"T{t} D{d}",
                dtype=buffer_named(b, "X")["dtype"], pipeline=f"{len(b['programs'])} programs",
                programs=programs, baselines=baselines,
                notes=launch_notes(b) + ([] if baselines else
                                         ["no F.rms_norm in this PyTorch: no baseline"]))


def layernorm_case(driver, b):
    """layernorm (examples/norms.tensor, eps 1e-5) against F.layer_norm;
    "flops" is the bytes of X and Y (memory-bound)."""
    import torch
    import torch.nn.functional as F
    tensors, run, programs = prepare(driver, b)
    x, g, beta, y = tensors["X"], tensors["g"], tensors["b"], tensors["Y"]
    t, d = x.shape

    def reference():
        return F.layer_norm(x.double(), (d,), g.double(), beta.double(), eps=1e-5)
    return Case(run=run, error=lambda: relative_error(y, reference()),
                output_dtype=buffer_named(b, "Y")["dtype"],
                flops=2.0 * x.numel() * x.element_size(), shape=f"T{t} D{d}",
                dtype=buffer_named(b, "X")["dtype"], pipeline=f"{len(b['programs'])} programs",
                programs=programs,
                baselines=[("cublas", lambda: F.layer_norm(x, (d,), g, beta, eps=1e-5))],
                notes=launch_notes(b))


def softmax_case(driver, b):
    """Row softmax against torch.softmax; "flops" is the bytes of X and Y."""
    import torch
    tensors, run, programs = prepare(driver, b)
    x, y = tensors["X"], tensors["Y"]
    r, c = x.shape
    return Case(run=run, error=lambda: relative_error(y, torch.softmax(x.double(), dim=1)),
                output_dtype=buffer_named(b, "Y")["dtype"],
                flops=2.0 * x.numel() * x.element_size(), shape=f"R{r} C{c}",
                dtype=buffer_named(b, "X")["dtype"], pipeline=f"{len(b['programs'])} programs",
                programs=programs, baselines=[("cublas", lambda: torch.softmax(x, dim=1))],
                notes=launch_notes(b))


CASES = {"gemm": gemm_case, "attention": attention_case, "moe": moe_case,
         "mlp": mlp_case,
         "rmsnorm": rmsnorm_case, "layernorm": layernorm_case,
         "softmax": softmax_case}


def make_triton_matmul():
    """Triton's tutorial matmul (python/tutorials/03-matrix-multiplication.py)
    as published, at TRITON_CONFIG, its output in the inputs' type. Returns
    (matmul, Triton's version) or (None, why there is none)."""
    try:
        import triton
        import triton.language as tl
    except Exception as e:  # not installed, or broken
        return None, f"import triton failed: {type(e).__name__}: {e}"
    import torch

    @triton.jit
    def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                      stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                      BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                      GROUP_SIZE_M: tl.constexpr):
        pid = tl.program_id(axis=0)
        num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
        num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
        num_pid_in_group = GROUP_SIZE_M * num_pid_n
        group_id = pid // num_pid_in_group
        first_pid_m = group_id * GROUP_SIZE_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
        pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
        pid_n = (pid % num_pid_in_group) // group_size_m
        offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
        offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
        offs_k = tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
            a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
            accumulator = tl.dot(a, b, accumulator)
            a_ptrs += BLOCK_SIZE_K * stride_ak
            b_ptrs += BLOCK_SIZE_K * stride_bk
        c = accumulator.to(c_ptr.dtype.element_ty)
        offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
        offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
        c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
        c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
        tl.store(c_ptrs, c, mask=c_mask)

    def matmul(a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, TRITON_CONFIG["BLOCK_SIZE_M"]) * triton.cdiv(N, TRITON_CONFIG["BLOCK_SIZE_N"]),)
        matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                            c.stride(0), c.stride(1), **TRITON_CONFIG)
        return c
    matmul.kernel = matmul_kernel  # for compiling ahead of time in tests
    return matmul, triton.__version__


class Report:
    """A bundle's row as it grows, rewritten (JSON) to `path` after every
    step, so that the parent keeps what was measured if this process hangs
    or dies."""

    def __init__(self, path, bundle):
        self.path = path
        self.row = {"bundle": bundle, "stage": "starting", "seconds": {}, "samples": {}, "notes": []}
        self.save()

    def update(self, **fields):
        self.row.update(fields)
        self.save()

    def stage(self, stage, **fields):
        print(f"  {stage}", flush=True)
        self.update(stage=stage, **fields)

    def note(self, text):
        print(f"  note: {text}", flush=True)
        self.row["notes"].append(text)
        self.save()

    def timing(self, column, median, samples):
        self.row["seconds"][column] = median
        self.row["samples"][column] = samples
        self.save()

    def save(self):
        if not self.path:
            return
        temporary = self.path + ".tmp"
        with open(temporary, "w") as f:
            json.dump(self.row, f)
        os.replace(temporary, self.path)


def full_precision_baselines(report):
    """cuBLAS's f16/bf16 GEMMs without reduced-precision (split-K) reductions."""
    import torch
    try:
        torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
        torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    except Exception as e:
        report.note(f"could not turn off cuBLAS's reduced-precision reductions: {e}")


def measure_bundle(driver, b, report, iters, reps, baselines=True):
    """nautc's programs run once and checked against the reference, then
    timed, then each baseline timed on the same inputs; every step goes to
    `report` when it is done. A baseline's failure is noted and ends
    nothing else."""
    import torch
    kind = kind_of(b)
    if kind is None:
        raise RuntimeError("neither a GEMM (A, B, C of rank 2), an attention (Q, K, V, O), "
                           "a mixture-of-experts nor a norm (rmsnorm, softmax) bundle")
    report.stage("allocating the buffers and loading the PTX")
    case = CASES[kind](driver, b)
    report.update(kind=kind, shape=case.shape, dtype=case.dtype, pipeline=case.pipeline, flops=case.flops,
                  programs=case.programs, **case.info)
    for text in case.notes:
        report.note(text)
    report.stage("running nautc's programs once")
    case.run()
    torch.cuda.synchronize()
    report.stage("checking nautc's result")
    tolerance = TOLERANCE[case.output_dtype]
    try:
        error = case.error()
    except Exception as e:  # the reference failed (nautc's launches were synchronized above)
        report.note(f"no check: the reference failed: {type(e).__name__}: {first_line(e)}")
        report.update(ok=None)
    else:
        report.update(error=error, tolerance=tolerance, ok=error < tolerance)
        print(f"  error {error:.2e} (tolerance {tolerance:.0e}): {'ok' if error < tolerance else 'WRONG'}",
              flush=True)
    for column, fn in [("nautc", case.run)] + (case.baselines if baselines else []):
        report.stage(f"timing {COLUMNS[column]}", timing=column)
        try:
            median, samples = timed(fn, iters, reps)
        except Exception as e:
            if column == "nautc":
                raise
            report.note(f"{COLUMNS[column]}: {type(e).__name__}: {first_line(e)}")
            continue
        report.timing(column, median, samples)
        print(f"  {COLUMNS[column]}: {case.flops / median * 1e-12:.1f} TFLOP/s", flush=True)
    report.stage("done", timing=None)


def first_line(error):
    return (str(error).strip().splitlines() or [""])[0][:300]


def child_main(args):
    """--one: runs one bundle in this process, its row to --result."""
    b = load_bundle(args.one)
    report = Report(args.result, bundle_name(b))
    try:
        import torch
        torch.cuda.init()
        torch.zeros(1, device="cuda")  # makes the primary context current
        report.update(torch=torch.__version__)
        full_precision_baselines(report)
        driver = Driver()
        driver.device_info()
        measure_bundle(driver, b, report, args.iters, args.reps, not args.no_baselines)
    except Exception as e:
        traceback.print_exc()
        report.update(failure=f"{type(e).__name__} while {report.row['stage']}: {first_line(e)}")
        sys.exit(1)
    finally:
        if not args.result:
            print("RESULT " + json.dumps(report.row), flush=True)


# ---- Running every bundle (in the parent process) ---------------------

class Stopped(Exception):
    """SIGTERM: the run's time limit (see README: timeout 540)."""


def on_sigterm(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # `timeout` may send it twice
    raise Stopped()


def die_with_parent():
    """In a child before exec: be killed if the parent dies (Linux)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def kill_group(child):
    try:
        os.killpg(child.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        child.wait(timeout=30)
    except subprocess.TimeoutExpired:
        print(f"warning: child {child.pid} did not exit after SIGKILL", flush=True)


def exit_description(status):
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exited with status {status}"


def run_child(b, args, result_path):
    """Runs one bundle in a child process under --bundle-timeout. Returns its
    row, whatever happened to the child, and whether SIGTERM stopped it."""
    command = [sys.executable, os.path.abspath(__file__), "--one", b["path"], "--result", result_path,
               "--iters", str(args.iters), "--reps", str(args.reps)] + \
        (["--no-baselines"] if args.no_baselines else [])
    child = subprocess.Popen(command, env=dict(os.environ, PYTHONUNBUFFERED="1"), start_new_session=True,
                             preexec_fn=die_with_parent)
    outcome, stopped = None, False
    try:
        status = child.wait(timeout=args.bundle_timeout)
        if status != 0:
            outcome = exit_description(status)
    except subprocess.TimeoutExpired:
        outcome = f"no result within {args.bundle_timeout:g} s (a hang?)"
    except (Stopped, KeyboardInterrupt):
        outcome, stopped = "stopped by the run's time limit", True
    finally:
        if child.poll() is None:
            kill_group(child)
    try:
        with open(result_path) as f:
            row = json.load(f)
    except (OSError, ValueError):
        row = {"bundle": bundle_name(b), "stage": "starting Python", "seconds": {}, "samples": {}, "notes": []}
    if row.get("stage") != "done" and outcome and not row.get("failure"):
        what = f"{outcome}, while {row['stage']}"
        column = row.get("timing")
        if column and column != "nautc":  # a baseline: nautc's numbers stand
            row["notes"].append(f"{COLUMNS[column]}: {what}")
        else:
            row["failure"] = what
    return row, stopped


def pending_row(b, why):
    return {"bundle": bundle_name(b), "pending": why, "seconds": {}, "notes": []}


def cell(text):
    return str(text).replace("|", "/").replace("\n", " ")


def table_line(row):
    seconds = row.get("seconds", {})

    def tflops(column):
        return row["flops"] / seconds[column] * 1e-12 if column in seconds else None
    if "error" in row:
        ok = "yes" if row["ok"] else "NO"
        error = f"{row['error']:.1e}"
    else:
        ok = "FAILED" if row.get("failure") else "unchecked" if "ok" in row else "-"
        error = "-"
    mark = {True: "", None: " (unchecked)"}.get(row.get("ok"), " (wrong)")  # ok is set before any timing
    speeds = [tflops(c) for c in COLUMNS]
    ratios = []
    for baseline in speeds[1:]:
        if speeds[0] is None or baseline is None:
            ratios.append("-")
        else:
            ratios.append(f"{speeds[0] / baseline:.2f}{mark}")
    notes = ([f"FAILED: {row['failure']}"] if row.get("failure") else []) + row.get("notes", [])
    if row.get("pending"):
        notes.append(row["pending"])
    cells = [row["bundle"], row.get("shape", ""), row.get("dtype", ""), row.get("pipeline", ""), error, ok]
    cells += ["-" if s is None else f"{s:.1f}" for s in speeds] + ratios + ["; ".join(notes)[:400]]
    return "| " + " | ".join(cell(c) for c in cells) + " |"


def header_lines(device, rows, args):
    def version(package):
        return next((r[package] for r in rows if r.get(package)), "?")
    return [
        f"GPU: {device['name']}, compute capability {device['capability'][0]}.{device['capability'][1]}, "
        f"{device['multiprocessors']} multiprocessors (a persistent program gets one block each), "
        f"driver {device['driver']}, PyTorch {version('torch')}, Triton {version('triton')}.",
        "",
        f"TFLOP/s: the median of {args.reps} batches of {args.iters} back-to-back calls, each batch timed with "
        "one pair of CUDA events, the same way for every column.",
        "- error: max |nautc - reference| / max |reference|; reference: the f64 product (GEMMs), "
        "scaled_dot_product_attention in f32 (attention), the per-expert loop in f32 (MoE). "
        "ok: error < " + ", ".join(f"{v:.0e} ({k} output)" for k, v in TOLERANCE.items()) +
        "; unchecked: the reference failed (see notes).",
        "- nautc: the bundle's programs; GEMMs write C in f32.",
        "- cuBLAS: GEMMs: torch.matmul on the f16/bf16 inputs, writing f16/bf16 (half the bytes of nautc's C), "
        "reduced-precision reductions off. Attention: PyTorch's scaled_dot_product_attention on the bf16 inputs. "
        "MoE: a naive per-expert PyTorch loop (cuBLAS matmuls, a host sync per expert), a weak baseline. "
        "Norms: PyTorch's F.rms_norm, F.layer_norm and torch.softmax; their TFLOP/s columns are TB/s of X and Y.",
        "- cuBLAS f32 out: torch.mm(A, B, out_dtype=torch.float32), writing f32 like nautc (where PyTorch has it).",
        "- Triton: the Triton tutorial's matmul (128 x 128 x 64 blocks, GROUP_SIZE_M 8, 8 warps, 4 stages), "
        "writing f16/bf16; unpipelined where a row stride is not a multiple of 16 elements (see notes).",
        "- nautc/X: nautc's TFLOP/s over X's (above 1: nautc is faster); marked (wrong) where nautc's output "
        "failed the check, (unchecked) where it could not be checked.",
        "",
        "| bundle | shape | dtype | pipeline | error | ok | " + " | ".join(COLUMNS.values()) + " | " +
        " | ".join(f"nautc/{t}" for t in list(COLUMNS.values())[1:]) + " | notes |",
        "|" + "---|" * (6 + 2 * len(COLUMNS)),
    ]


def write_results(out, device, rows, args):
    """The table to `out` and every measured row to results.jsonl beside it."""
    text = "\n".join(header_lines(device, rows, args) + [table_line(r) for r in rows]) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out + ".tmp", "w") as f:
        f.write(text)
    os.replace(out + ".tmp", out)
    jsonl = os.path.splitext(out)[0] + ".jsonl"
    with open(jsonl + ".tmp", "w") as f:
        for r in rows:
            if not r.get("pending"):
                f.write(json.dumps(dict(r, device=device)) + "\n")
    os.replace(jsonl + ".tmp", jsonl)
    return text


def summary(row):
    if row.get("failure"):
        return f"FAILED: {row['failure']}"
    parts = [f"error {row['error']:.1e} {'ok' if row['ok'] else 'WRONG'}"] if "error" in row else []
    parts += [f"{COLUMNS[c]} {row['flops'] / s * 1e-12:.1f}" for c, s in row["seconds"].items()]
    return "; ".join(parts + row["notes"])


def run_all(bundles, args, device):
    """Each bundle in its own child process; the results rewritten after
    each. On SIGTERM (the run's time limit), what was measured is kept."""
    rows = [pending_row(b, "not run yet") for b in bundles]
    write_results(args.out, device, rows, args)
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for i, b in enumerate(bundles):
                print(f"[{i + 1}/{len(bundles)}] {bundle_name(b)} (at most {args.bundle_timeout:g} s)", flush=True)
                rows[i], stopped = run_child(b, args, os.path.join(scratch, f"{i}.json"))
                print(f"[{i + 1}/{len(bundles)}] {bundle_name(b)}: {summary(rows[i])}", flush=True)
                if stopped:
                    raise Stopped()
                write_results(args.out, device, rows, args)
    except (Stopped, KeyboardInterrupt):
        rows = [pending_row(b, "not run: stopped by the run's time limit") if r.get("pending") else r
                for b, r in zip(bundles, rows)]
        write_results(args.out, device, rows, args)
        print(f"stopped; the results so far are in {args.out}", flush=True)
        return 1
    print(write_results(args.out, device, rows, args))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bundles", default=os.path.join(HERE, "bundles"))
    ap.add_argument("--out", default=os.path.join(HERE, "results.md"),
                    help="the table; results.jsonl beside it has every number")
    ap.add_argument("--only", metavar="REGEX", help="run the bundles whose file name matches")
    ap.add_argument("--iters", type=int, default=20, help="back-to-back calls in a timed batch")
    ap.add_argument("--reps", type=int, default=5, help="timed batches; the median is reported")
    ap.add_argument("--bundle-timeout", type=float, default=90, help="seconds a bundle may take")
    ap.add_argument("--all-targets", action="store_true",
                    help="also run bundles compiled for another target than the device's newest")
    ap.add_argument("--dry-run", action="store_true", help="check the bundles; no GPU needed")
    ap.add_argument("--no-baselines", action="store_true",
                    help="time nautc only (bench/gpu/tuning.py's candidates)")
    ap.add_argument("--one", metavar="BUNDLE", help=argparse.SUPPRESS)  # the child: one bundle
    ap.add_argument("--result", help=argparse.SUPPRESS)  # the child's row, as JSON
    args = ap.parse_args()
    if args.one:
        return child_main(args)

    bundles = load_bundles(args.bundles)
    for b in bundles:
        problem = check_bundle(b)
        if problem:
            sys.exit(f"{b['path']}: {problem}")
    if args.only:
        bundles = [b for b in bundles if re.search(args.only, os.path.basename(b["path"]))]
        if not bundles:
            sys.exit(f"no bundle's name matches --only {args.only!r}")
    bundles.sort(key=run_order)
    if args.dry_run:
        for b in bundles:
            sizes = sizes_of(b)
            for p in b["programs"]:
                persistent = " (persistent: at most one a multiprocessor)" if p.get("persistent") else ""
                print(f"{os.path.basename(b['path'])}: {p['name']} on {grid_of(p, sizes)} blocks{persistent} of "
                      f"{p['threads']} threads, {p['dynamic_shared_bytes']} B dynamic shared memory, "
                      f"{len(p['tensor_maps'])} tensor maps")
        print(f"{len(bundles)} bundles ready")
        return 0

    try:
        device = Driver().device_info()
    except (OSError, RuntimeError) as e:
        sys.exit(f"no usable NVIDIA GPU: {e}")
    capability = tuple(device["capability"])
    chosen, others = for_device(bundles, capability)
    if others and not args.all_targets:
        print(f"skipping {len(others)} bundles compiled for another target than this device's newest "
              f"(--all-targets runs them): " + ", ".join(bundle_name(b) for b in others))
        bundles = chosen
    if not bundles:
        sys.exit("no bundle to run on this device")
    print(f"{device['name']}: cc {capability[0]}.{capability[1]}, {device['multiprocessors']} multiprocessors, "
          f"driver {device['driver']}; {len(bundles)} bundles, in this order: "
          + ", ".join(bundle_name(b) for b in bundles), flush=True)
    return run_all(bundles, args, device)


if __name__ == "__main__":
    sys.exit(main())
