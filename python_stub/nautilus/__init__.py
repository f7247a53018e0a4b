"""Nautilus from Python: compile `.tensor` kernels in-process and run them
on numpy arrays, through the C API (nautilus.h) and ctypes.

    import nautilus, numpy as np
    program = nautilus.compile("examples/gemm.tensor", kernel="gemm")
    outputs = program.run(A=a, B=b)          # {"C": numpy array}

The library is found through NAUTILUS_ROOT (an install prefix or a build
directory); see docs/python.md.
"""
import ctypes
import os

import numpy as np

from . import _capi

__all__ = ["compile", "Program", "Error", "CompileError", "version"]


class Error(Exception):
    """An error of the C API; `code` is its nt_code."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class CompileError(Error):
    """The source is wrong: the message is the compiler's diagnostic,
    "FILE:LINE:COL: error: ..."."""


def _check(status):
    if not status:
        return
    try:
        code = _capi.lib.nt_status_code(status)
        # A diagnostic quotes the source's line as it is: bytes that are
        # not UTF-8 are replaced, not an error of their own.
        message = _capi.lib.nt_status_message(status).decode(
            errors="replace")
    finally:
        _capi.lib.nt_status_free(status)
    raise (CompileError if code == _capi.NT_COMPILE_ERROR else Error)(
        code, message)


def version():
    """The library's version ("nautilus 0.1")."""
    return _capi.lib.nt_version().decode()


def _numpy_dtype(name):
    if name == "bf16":
        try:
            import ml_dtypes
        except ImportError:  # bf16 bits as uint16, as stored
            return np.dtype(np.uint16)
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype({"f16": np.float16, "f32": np.float32,
                     "f64": np.float64, "i8": np.int8, "i32": np.int32,
                     "i64": np.int64, "bool": np.bool_}[name])


class _Param:
    def __init__(self, info):
        self.name = info.name.decode()
        self.role = ("input", "output", "scalar")[info.role]
        self.dtype = _capi.DTYPE_NAMES[info.dtype]
        self.dtype_code = info.dtype
        self.ndim = info.ndim

    def __repr__(self):
        return f"{self.name}: {self.role} {self.dtype} (rank {self.ndim})"


def _raw(array, code):
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    tensor = _capi.Tensor(array.ctypes.data, code, array.ndim, shape, None)
    return tensor, shape  # the shape array must outlive the call


class Program:
    """A compiled kernel. `params` lists its tensors in launch order."""

    def __init__(self, handle):
        self._handle = ctypes.c_void_p(handle)
        lib = _capi.lib
        self.kernel = lib.nt_program_kernel(self._handle).decode()
        self.target = lib.nt_program_target(self._handle).decode()
        self.cache_hit = lib.nt_program_cache_hit(self._handle)
        self.params = []
        for i in range(lib.nt_program_num_params(self._handle)):
            info = _capi.ParamInfo()
            _check(lib.nt_program_param(self._handle, i, ctypes.byref(info)))
            self.params.append(_Param(info))

    def __del__(self):
        if getattr(self, "_handle", None) and _capi is not None:
            _capi.lib.nt_program_free(self._handle)
            self._handle = None

    @property
    def ptx(self):
        """The PTX of a program compiled for an NVIDIA target (else None)."""
        code = _capi.lib.nt_program_code(self._handle, b"ptx")
        return code.decode() if code is not None else None

    def explain(self):
        """What --explain said when it was compiled (compile(explain=True))."""
        return _capi.lib.nt_program_explain(self._handle).decode()

    def _inputs(self, arrays):
        """The inputs and scalars, in order, as contiguous arrays."""
        unknown = set(arrays) - {p.name for p in self.params
                                 if p.role != "output"}
        if unknown:
            raise Error(_capi.NT_INVALID_ARGUMENT,
                        f"kernel '{self.kernel}' has no input "
                        f"{', '.join(sorted(unknown))}")
        out = []
        for p in self.params:
            if p.role == "output":
                continue
            if p.name not in arrays:
                raise Error(_capi.NT_INVALID_ARGUMENT,
                            f"missing input '{p.name}' of kernel "
                            f"'{self.kernel}'")
            dtype = _numpy_dtype(p.dtype)
            value = np.asarray(arrays[p.name])
            if value.dtype != dtype:
                if p.dtype == "bf16" and dtype == np.uint16:
                    raise Error(_capi.NT_INVALID_ARGUMENT,
                                f"'{p.name}' is bf16: pass its bits as "
                                "uint16, or install ml_dtypes")
                value = value.astype(dtype)
            # (ascontiguousarray makes a scalar's 0-d array 1-d.)
            out.append((p, np.ascontiguousarray(value).reshape(value.shape)))
        return out

    def run(self, device="cpu", **arrays):
        """Runs the kernel on `device` ("cpu", "cuda" or "emu": the SIMT
        emulator, for NVIDIA programs compiled with kernel_ir) with the inputs by
        name (numpy arrays; scalars as numbers) and returns the outputs by
        name. Arrays are converted to the kernel's dtypes. A kernel with an
        input named `device` or `self` takes its inputs through run_with."""
        return self.run_with(arrays, device)

    def run_with(self, inputs, device="cpu"):
        """run, with the inputs in a dict (any names)."""
        if not isinstance(device, str):
            raise Error(_capi.NT_INVALID_ARGUMENT,
                        "device must be a name ('cpu', 'cuda', 'hip' or "
                        "'emu'); an input named 'device' goes through "
                        "run_with({...})")
        arrays = inputs
        inputs = self._inputs(arrays)
        raw = [_raw(a, p.dtype_code) for p, a in inputs]
        tensors = (_capi.Tensor * max(len(raw), 1))(*[t for t, _ in raw])
        outputs = []
        for index, p in enumerate(self.params):
            if p.role != "output":
                continue
            shape = (ctypes.c_int64 * max(p.ndim, 1))()
            _check(_capi.lib.nt_program_param_shape(
                self._handle, tensors, len(raw), index, shape))
            outputs.append((p, np.empty(tuple(shape[:p.ndim]),
                                        _numpy_dtype(p.dtype))))
        with _Device(device) as dev:
            dev.launch(self._handle, inputs + outputs)
        return {p.name: a for p, a in outputs}


class _Device:
    """A device for one run; but on the cpu, each array goes to the device's
    memory and the outputs come back."""

    _handles = {}  # one handle a kind, kept: programs stay loaded on it

    def __init__(self, kind):
        self.kind = kind
        if kind not in _Device._handles:
            handle = ctypes.c_void_p()
            _check(_capi.lib.nt_device_open(kind.encode(), 0,
                                            ctypes.byref(handle)))
            _Device._handles[kind] = handle
        self.handle = _Device._handles[kind]
        self.memory = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        for m in self.memory:
            _capi.lib.nt_device_free_memory(self.handle, m)

    def _place(self, array, role):
        # The cpu takes the arrays themselves; every device takes a
        # scalar's value from host memory.
        if self.kind == "cpu" or role == "scalar":
            return array.ctypes.data
        memory = ctypes.c_void_p()
        _check(_capi.lib.nt_device_alloc(self.handle, array.nbytes,
                                         ctypes.byref(memory)))
        self.memory.append(memory)
        _check(_capi.lib.nt_device_copy_to_device(
            self.handle, memory, array.ctypes.data, array.nbytes))
        return memory.value

    def launch(self, program, params):
        raw = [_raw(a, p.dtype_code) for p, a in params]
        for (tensor, _), (p, array) in zip(raw, params):
            tensor.data = self._place(array, p.role)
        tensors = (_capi.Tensor * len(raw))(*[t for t, _ in raw])
        _check(_capi.lib.nt_launch(self.handle, program, tensors, len(raw),
                                   None))
        if self.kind != "cpu":
            for (tensor, _), (p, array) in zip(raw, params):  # outputs back
                if p.role == "output":
                    _check(_capi.lib.nt_device_copy_to_host(
                        self.handle, array.ctypes.data, tensor.data,
                        array.nbytes))


def compile(source_or_path, kernel=None, target="cpu", shapes=None,
            schedule="default", cache_dir=None, explain=False, cache=True,
            kernel_ir=False, verify=True):
    """Compiles a kernel: `source_or_path` is a path to a .tensor file or
    the source text itself. `shapes` fixes sizes at compile time
    ({"N": 128}); `schedule` is "default" (the target's: "auto" on
    the CPU, "heuristics" on GPUs), "heuristics", "auto" or a schedule file;
    `kernel_ir` keeps an NVIDIA program's kernels as LLVM IR too, so that
    `run(device="emu")` can emulate them; `verify=False` skips the
    verifier's proofs of the tile programs. Raises CompileError with the
    compiler's diagnostic."""
    options = _capi.CompileOptions()
    options.struct_size = ctypes.sizeof(_capi.CompileOptions)
    text = os.fspath(source_or_path)
    if isinstance(source_or_path, os.PathLike) or os.path.isfile(text):
        options.path = text.encode()
    elif "kernel" in text and "{" in text:
        options.source = text.encode()
    else:
        raise FileNotFoundError(f"no .tensor file '{text}' (and it is not "
                                "source text: it defines no kernel)")
    options.kernel = kernel.encode() if kernel else None
    options.target = target.encode()
    if shapes:
        options.shapes = ",".join(f"{k}={v}" for k, v in shapes.items()).encode()
    options.schedule = schedule.encode()
    options.cache_dir = os.fspath(cache_dir).encode() if cache_dir else None
    options.flags = ((0 if cache else _capi.NT_COMPILE_NO_CACHE)
                     | (_capi.NT_COMPILE_KERNEL_IR if kernel_ir else 0)
                     | (0 if verify else _capi.NT_COMPILE_NO_VERIFY))
    options.explain = 1 if explain else 0
    handle = ctypes.c_void_p()
    _check(_capi.lib.nt_compile(ctypes.byref(options), ctypes.byref(handle)))
    return Program(handle.value)
