"""A fake triton: @jit gives a kernel whose launch checks its arguments and
takes fake GPU time; MOCK_TRITON=broken makes importing it fail."""
import os
import time

import mockstate as S

if os.environ.get("MOCK_TRITON") == "broken":
    raise RuntimeError("(mock) libcuda.so cannot be found")

__version__ = "0.0-fake"
from . import language  # noqa: E402

def cdiv(a, b): return -(-a // b)

class _Kernel:
    def __init__(self, fn):
        self.fn = fn
        self.arg_names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            assert isinstance(grid, tuple) and len(grid) == 1 and grid[0] >= 1, grid
            meta = {k: v for k, v in kwargs.items() if k not in ("num_warps", "num_stages")}
            assert len(args) + len(meta) == len(self.arg_names), (len(args), meta, self.arg_names)
            assert kwargs.get("GROUP_SIZE_M") == 8 and kwargs.get("num_warps") == 8
            if S.fault("tritonfail"):
                raise RuntimeError("(mock) out of resource: shared memory, Required: 262144, Hardware limit: 232448")
            if S.fault("tritonhang"):
                S.hang()
            S.gpu_work(150e-6)
        return launch

def jit(fn): return _Kernel(fn)
