"""The C API (nautilus.h) through ctypes: the library, found once, and the
signatures of the functions the package calls."""
import ctypes
import os

NT_OK, NT_INVALID_ARGUMENT, NT_NOT_FOUND, NT_COMPILE_ERROR = 0, 1, 2, 3
NT_UNAVAILABLE, NT_CORRUPT, NT_LAUNCH_ERROR, NT_INTERNAL = 4, 5, 6, 7
NT_INPUT, NT_OUTPUT, NT_SCALAR = 0, 1, 2
NT_COMPILE_NO_DISK_CACHE, NT_COMPILE_NO_CACHE, NT_COMPILE_KERNEL_IR = 1, 2, 4
NT_COMPILE_NO_VERIFY = 8

# nt_dtype, in its order.
DTYPE_NAMES = ["f16", "bf16", "f32", "f64", "i8", "i32", "i64", "bool"]


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int),
                ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64))]


class ParamInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("role", ctypes.c_int),
                ("dtype", ctypes.c_int), ("ndim", ctypes.c_int32)]


class CompileOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("source", ctypes.c_char_p),
                ("path", ctypes.c_char_p), ("kernel", ctypes.c_char_p),
                ("target", ctypes.c_char_p), ("shapes", ctypes.c_char_p),
                ("schedule", ctypes.c_char_p), ("cache_dir", ctypes.c_char_p),
                ("flags", ctypes.c_uint32), ("explain", ctypes.c_int)]


def _candidates():
    root = os.environ.get("NAUTILUS_ROOT")
    if root:
        for lib in ("lib", "lib64"):
            yield os.path.join(root, lib, "libnautilus_jit.so")
        return
    yield "libnautilus_jit.so"  # the loader's search path


def _load():
    tried = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path}: {e}")
    hint = ("set NAUTILUS_ROOT to a Nautilus install prefix or build "
            "directory (the one holding lib/libnautilus_jit.so)")
    raise ImportError("cannot load the Nautilus library (" + "; ".join(tried) +
                      "): " + hint)


lib = _load()

_status = ctypes.c_void_p
_signatures = {
    "nt_version": (ctypes.c_char_p, []),
    "nt_status_code": (ctypes.c_int, [_status]),
    "nt_status_message": (ctypes.c_char_p, [_status]),
    "nt_status_free": (None, [_status]),
    "nt_compile": (_status, [ctypes.POINTER(CompileOptions),
                             ctypes.POINTER(ctypes.c_void_p)]),
    "nt_program_free": (None, [ctypes.c_void_p]),
    "nt_program_kernel": (ctypes.c_char_p, [ctypes.c_void_p]),
    "nt_program_target": (ctypes.c_char_p, [ctypes.c_void_p]),
    "nt_program_code": (ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_char_p]),
    "nt_program_explain": (ctypes.c_char_p, [ctypes.c_void_p]),
    "nt_program_cache_hit": (ctypes.c_int, [ctypes.c_void_p]),
    "nt_program_num_params": (ctypes.c_size_t, [ctypes.c_void_p]),
    "nt_program_param": (_status, [ctypes.c_void_p, ctypes.c_size_t,
                                   ctypes.POINTER(ParamInfo)]),
    "nt_program_param_shape": (_status, [ctypes.c_void_p,
                                         ctypes.POINTER(Tensor),
                                         ctypes.c_size_t, ctypes.c_size_t,
                                         ctypes.POINTER(ctypes.c_int64)]),
    "nt_device_open": (_status, [ctypes.c_char_p, ctypes.c_int,
                                 ctypes.POINTER(ctypes.c_void_p)]),
    "nt_device_free": (None, [ctypes.c_void_p]),
    "nt_device_describe": (ctypes.c_char_p, [ctypes.c_void_p]),
    "nt_device_alloc": (_status, [ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.c_void_p)]),
    "nt_device_free_memory": (None, [ctypes.c_void_p, ctypes.c_void_p]),
    "nt_device_copy_to_device": (_status, [ctypes.c_void_p, ctypes.c_void_p,
                                           ctypes.c_void_p, ctypes.c_size_t]),
    "nt_device_copy_to_host": (_status, [ctypes.c_void_p, ctypes.c_void_p,
                                         ctypes.c_void_p, ctypes.c_size_t]),
    "nt_launch": (_status, [ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.POINTER(Tensor), ctypes.c_size_t,
                            ctypes.c_void_p]),
}
for _name, (_result, _args) in _signatures.items():
    _fn = getattr(lib, _name)
    _fn.restype = _result
    _fn.argtypes = _args
