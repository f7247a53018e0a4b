"""A fake torch: shape-only CUDA tensors with fake device addresses (freed
blocks are reused, as PyTorch's caching allocator does), a fake GPU clock
for CUDA events, and the few functions run_gemms.py calls."""
import math
import os
import types

import mockstate as S

__version__ = "0.0-fake"

class DT:
    def __init__(self, n, b): self.n, self.itemsize = n, b
    def __repr__(self): return "torch." + self.n
float16, bfloat16, float32, float64 = DT("f16", 2), DT("bf16", 2), DT("f32", 4), DT("f64", 8)
int8, int32, int64, uint8 = DT("i8", 1), DT("i32", 4), DT("i64", 8), DT("u8", 1)
bool = DT("bool", 1)

_free = {}            # rounded size -> [addresses]
_next = [0x7f0000000000]

def _alloc(nbytes):
    size = max(512, (nbytes + 511) // 512 * 512)
    if _free.get(size):
        return _free[size].pop(), size
    at = _next[0]
    _next[0] += size
    return at, size

class Tensor:
    def __init__(self, shape, dtype, content=None):
        self.shape = tuple(int(x) for x in shape)
        self.dtype = dtype
        self._ptr, self._size = _alloc(math.prod(self.shape) * dtype.itemsize)
        self.content = content
        self.device = "cuda:0"
        S.live[self._ptr] = self
    def __del__(self):
        try:
            _free.setdefault(self._size, []).append(self._ptr)
        except Exception:
            pass
    # layout
    def dim(self): return len(self.shape)
    def stride(self, i=None):
        st, acc = [], 1
        for d in reversed(self.shape):
            st.append(acc); acc *= d
        st = tuple(reversed(st))
        return st if i is None else st[i]
    def data_ptr(self): return self._ptr
    def numel(self): return math.prod(self.shape)
    def element_size(self): return self.dtype.itemsize
    def contiguous(self): return self
    def cuda(self): return Tensor(self.shape, self.dtype, self.content)
    # conversions
    def to(self, dtype): S.gpu_work(1e-6); return Tensor(self.shape, dtype)
    def float(self): return self.to(float32)
    def double(self): return self.to(float64)
    def bfloat16(self): return self.to(bfloat16)
    def repeat_interleave(self, repeats, dim):
        S.gpu_work(1e-6)
        shape = list(self.shape)
        shape[dim] *= repeats
        return Tensor(shape, self.dtype)
    # arithmetic (shapes only)
    def _same(self, other=None): S.gpu_work(1e-6); return Tensor(self.shape, self.dtype)
    __mul__ = __rmul__ = __truediv__ = __sub__ = __add__ = _same
    def __eq__(self, other): S.gpu_work(1e-6); return Tensor(self.shape, bool)
    __hash__ = object.__hash__
    def __matmul__(self, other): return matmul(self, other)
    def abs(self): return self._same()
    def max(self): S.gpu_work(1e-6); return Tensor((), self.dtype)
    def sum(self, dim, keepdim=False):
        shape = list(self.shape)
        if keepdim: shape[dim] = 1
        else: del shape[dim]
        return Tensor(shape, self.dtype)
    mean = sum
    def argsort(self, dim=-1): return Tensor(self.shape, int64)
    def __getitem__(self, key):
        if isinstance(key, tuple) and all(isinstance(k, slice) for k in key):
            shape = [len(range(*k.indices(d))) for k, d in zip(key, self.shape)] + list(self.shape[len(key):])
            return Tensor(shape, self.dtype)
        if isinstance(key, Tensor):
            return Tensor(key.shape + self.shape[1:], self.dtype)
        if isinstance(key, int):
            return Tensor(self.shape[1:], self.dtype)
        return Tensor(self.shape, self.dtype)  # approximate
    def nonzero(self, as_tuple=False):
        n = max(1, self.shape[0] // 4)
        return Tensor((n,), int64), Tensor((n,), int64)
    def index_add_(self, dim, index, source): S.gpu_work(1e-6); return self
    def item(self):
        S.gpu_work(0)
        if S.fault("reffail"): raise RuntimeError("CUDA out of memory. Tried to allocate 4.00 GiB (mock)")
        if S.fault("nan"): return float("nan")
        if S.fault("wrong"): return 0.5
        return 1e-6

def randn(shape, generator=None, device=None, dtype=float32): return Tensor(shape, dtype or float32)
def rand(*shape, generator=None, device=None, dtype=float32): return Tensor(shape, dtype or float32)
def zeros(*shape, device=None, dtype=float32):
    if len(shape) == 1 and isinstance(shape[0], (list, tuple)): shape = shape[0]
    return Tensor(shape, dtype)
def empty(shape, device=None, dtype=float32): return Tensor(shape, dtype)
def frombuffer(buffer, dtype=None): return Tensor((len(buffer),), dtype, bytes(buffer))

class Generator:
    def __init__(self, device=None): pass
    def manual_seed(self, seed): return self

backends = types.SimpleNamespace(cuda=types.SimpleNamespace(matmul=types.SimpleNamespace(
    allow_tf32=False, allow_fp16_reduced_precision_reduction=True, allow_bf16_reduced_precision_reduction=True)))

def _matmul_shape(a, b):
    assert a.shape[-1] == b.shape[-2], (a.shape, b.shape)
    return a.shape[:-1] + b.shape[-1:]

def rsqrt(x): return x._same()
def softmax(x, dim): return x._same()


def matmul(a, b):
    if a.dtype in (float16, bfloat16):
        m = backends.cuda.matmul
        assert not m.allow_fp16_reduced_precision_reduction and not m.allow_bf16_reduced_precision_reduction, \
            "the cuBLAS baseline runs with reduced-precision reductions on"
    S.gpu_work(60e-6)
    return Tensor(_matmul_shape(a, b), a.dtype)

def mm(a, b, out_dtype=None):
    if out_dtype is not None and os.environ.get("MOCK_OLD_TORCH"):
        raise TypeError("mm() received an invalid combination of arguments - got (Tensor, Tensor, out_dtype=torch.dtype)")
    S.gpu_work(70e-6)
    return Tensor(_matmul_shape(a, b), out_dtype or a.dtype)

class _Event:
    def __init__(self, enable_timing=False): self.t = None
    def record(self): self.t = S.clock[0]
    def synchronize(self):
        if S.sticky[0]: raise RuntimeError(f"CUDA error: {S.sticky[0]}")
    def elapsed_time(self, end): return (end.t - self.t) * 1e3

def _synchronize():
    if S.sticky[0]: raise RuntimeError(f"CUDA error: {S.sticky[0]}")

cuda = types.SimpleNamespace(
    init=lambda: None, synchronize=_synchronize, Event=_Event,
    current_stream=lambda: types.SimpleNamespace(cuda_stream=0),
    get_device_name=lambda *a: "Fake H200")

from . import nn  # noqa: E402
