#!/usr/bin/env python3
"""Regenerates test/unit/Inputs/triton_*_sm{80,90}.ll: kernels written here
in Triton, compiled by Triton (from PyPI) ahead of time for sm_80 and sm_90
without a GPU (sm_90: wgmma from shared-memory descriptors, TMA copies
through tensor-map parameters, mbarriers, as inline PTX).
The emulator runs them in test/unit/EmulatorTest.cpp and compares with a
plain C++ reference: kernels from another compiler, known to be right on
hardware, check that the emulator is right and not merely consistent with
nautilus.

usage: python3 test/scripts/triton_fixtures.py   (needs `pip install triton`)
"""
import os
import re
import struct

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "unit", "Inputs")


@triton.jit
def add(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)


@triton.jit
def softmax(x, y, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + row * stride + offs, mask=m, other=-float("inf"))
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(y + row * stride + offs, e / tl.sum(e, axis=0), mask=m)


@triton.jit
def matmul(a, b, c, M, N, K, sam, sbk, scm,
           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        am = (rm[:, None] < M) & (k + rk[None, :] < K)
        bm = (k + rk[:, None] < K) & (rn[None, :] < N)
        x = tl.load(a + rm[:, None] * sam + (k + rk[None, :]), mask=am, other=0.0)
        y = tl.load(b + (k + rk[:, None]) * sbk + rn[None, :], mask=bm, other=0.0)
        acc += tl.dot(x, y)
    tl.store(c + rm[:, None] * scm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def tma_matmul(a_desc, b_desc, c, M, N, K, scm,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # A and B through TMA tensor maps (host-built descriptors), C stored
    # with masks.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = a_desc.load([pid_m * BM, k])
        y = b_desc.load([k, pid_n * BN])
        acc += tl.dot(x, y)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    tl.store(c + rm[:, None] * scm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def attention(Q, K, V, O, scale, N_CTX: tl.constexpr, M_CTX: tl.constexpr,
              D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # Flash attention, forward, one (batch x head) slice per program column:
    # online softmax over blocks of keys. Q, O: [Z, N_CTX, D]; K, V:
    # [Z, M_CTX, D], contiguous.
    start_m = tl.program_id(0)
    z = tl.program_id(1)
    offs_m = start_m * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + z * N_CTX * D + offs_m[:, None] * D + offs_d[None, :])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32)
    acc = tl.zeros([BM, D], dtype=tl.float32)
    qk_scale = scale * 1.44269504
    for start_n in range(0, M_CTX, BN):
        k = tl.load(K + z * M_CTX * D + (start_n + offs_n)[None, :] * D + offs_d[:, None])
        qk = tl.dot(q, k)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
        p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + z * M_CTX * D + (start_n + offs_n)[:, None] * D + offs_d[None, :])
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + z * N_CTX * D + offs_m[:, None] * D + offs_d[None, :], acc)


def llvm22_syntax(ir):
    """Writes f32 constants as LLVM 22 parses them: Triton's newer LLVM
    prints `f0x3FB8AA3B`, LLVM 22 wants the value as a 64-bit hex double."""
    def convert(match):
        value = struct.unpack("<f", struct.pack("<I", int(match.group(1), 16)))[0]
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    ir = re.sub(r"\bf0x([0-9A-Fa-f]{8})\b", convert, ir)
    # Infinities and NaN are words in the newer syntax.
    ir = re.sub(r"(?<=[\s\[,(])-inf\b", "0xFFF0000000000000", ir)
    ir = re.sub(r"(?<=[\s\[,(])\+?inf\b", "0x7FF0000000000000", ir)
    return re.sub(r"(?<=[\s\[,(])nan\b", "0x7FF8000000000000", ir)


def build(fn, signature, constexprs, name, arch=80, stages=2):
    src = ASTSource(fn=fn, signature=signature, constexprs=constexprs)
    kernel = triton.compile(src, target=GPUTarget("cuda", arch, 32),
                            options={"num_warps": 4, "num_stages": stages})
    path = os.path.join(OUT, f"triton_{name}_sm{arch}.ll")
    with open(path, "w") as f:
        f.write(llvm22_syntax(kernel.asm["llir"]))
    print(f"{path}: {kernel.metadata.num_warps} warps, "
          f"{kernel.metadata.shared} bytes of shared memory")


MATMUL = {"a": "*fp16", "b": "*fp16", "c": "*fp32", "M": "i32", "N": "i32",
          "K": "i32", "sam": "i32", "sbk": "i32", "scm": "i32"}
ATTENTION = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp32",
             "scale": "fp32"}
ATTENTION_SIZES = {"N_CTX": 64, "M_CTX": 96, "D": 32, "BM": 32, "BN": 32}
build(add, {"x": "*fp32", "y": "*fp32", "out": "*fp32", "n": "i32"},
      {"BLOCK": 256}, "add")
build(matmul, MATMUL, {"BM": 32, "BN": 32, "BK": 32}, "matmul")
build(matmul, dict(MATMUL, a="*fp32", b="*fp32"), {"BM": 32, "BN": 32, "BK": 32},
      "matmul_tf32")  # f32 operands: tf32 mma.sync
build(attention, ATTENTION, ATTENTION_SIZES, "attention")
build(softmax, {"x": "*fp32", "y": "*fp32", "stride": "i32", "n": "i32"},
      {"BLOCK": 128}, "softmax")
# sm_90: wgmma with a 64-byte-swizzled K-major A and a 128-byte-swizzled
# N-major B; TMA loads in a 3-stage mbarrier pipeline; attention with the
# second product's A operand from registers.
build(matmul, MATMUL, {"BM": 64, "BN": 64, "BK": 32}, "matmul", arch=90,
      stages=3)
build(tma_matmul, {"a_desc": "tensordesc<fp16[64,32]>",
                   "b_desc": "tensordesc<fp16[32,64]>", "c": "*fp32",
                   "M": "i32", "N": "i32", "K": "i32", "scm": "i32"},
      {"BM": 64, "BN": 64, "BK": 32}, "tma_matmul", arch=90, stages=3)
build(attention, ATTENTION, dict(ATTENTION_SIZES, BM=64, BN=32), "attention",
      arch=90)
