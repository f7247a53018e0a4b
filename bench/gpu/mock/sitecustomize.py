"""Loaded at start-up when PYTHONPATH holds this folder: with MOCK_CUDA set,
ctypes.CDLL("libcuda.so.1") gives the fake driver (fakecuda.FakeCuda)."""
import ctypes
import os

if os.environ.get("MOCK_CUDA"):
    _real_cdll = ctypes.CDLL

    def _cdll(name, *args, **kwargs):
        if name == "libcuda.so.1":
            import fakecuda
            return fakecuda.driver()
        return _real_cdll(name, *args, **kwargs)
    ctypes.CDLL = _cdll
