"""A fake libcuda that enforces the driver's documented rules on what
run_gemms.py passes it, and checks every cuLaunchKernel's parameter array
against the PTX .entry declaration and the live fake torch tensors."""
import atexit
import ctypes
import json
import os
import re
import signal
import struct

import mockstate as S

PTX_BYTES = {f"{k}{b}": b // 8 for k in "bsuf" for b in (8, 16, 32, 64)}
_driver = None

def driver():
    global _driver
    if _driver is None:
        _driver = FakeCuda()
    return _driver

def _out(pointer, value, ctype=ctypes.c_void_p):
    ctypes.cast(pointer, ctypes.POINTER(ctype))[0] = value

class FakeCuda:
    def __init__(self):
        self.inited = False
        self.modules = {}
        self.functions = {}
        self.maps = {}          # host address of an encoded map -> record
        self.stats = {"module_loads": 0, "launches": {}, "values_arrays": {}, "attributes": 0,
                      "tensor_maps_checked": 0, "scalars": []}
        atexit.register(self.save_stats)

    def save_stats(self):
        d = os.environ.get("MOCK_STATS")
        if d and S.bundle():
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, S.bundle() + ".json"), "w") as f:
                json.dump(self.stats, f)

    # -- device queries (the parent) --
    def cuInit(self, flags):
        assert flags == 0
        self.inited = True
        return 0
    def cuDeviceGet(self, pdev, ordinal):
        assert self.inited and ordinal == 0
        _out(pdev, 0, ctypes.c_int)
        return 0
    def cuDeviceGetName(self, buf, length, dev):
        name = b"Fake H200"
        assert length >= len(name) + 1
        ctypes.memmove(buf, name + b"\0", len(name) + 1)
        return 0
    def cuDeviceGetAttribute(self, pvalue, attr, dev):
        assert self.inited
        _out(pvalue, {16: 132, 75: int(os.environ.get("MOCK_CC", "90")) // 10,
                      76: int(os.environ.get("MOCK_CC", "90")) % 10}[attr], ctypes.c_int)
        return 0
    def cuDriverGetVersion(self, pv):
        _out(pv, 13000, ctypes.c_int)
        return 0
    def cuGetErrorName(self, status, pname):
        names = {218: b"CUDA_ERROR_INVALID_PTX", 700: b"CUDA_ERROR_ILLEGAL_ADDRESS", 1: b"CUDA_ERROR_INVALID_VALUE"}
        ctypes.cast(pname, ctypes.POINTER(ctypes.c_char_p))[0] = names.get(status, b"CUDA_ERROR_UNKNOWN")
        return 0

    # -- modules and functions --
    def cuModuleLoadData(self, pmod, image):
        raise AssertionError("cuModuleLoadData: the script should use cuModuleLoadDataEx")
    def cuModuleLoadDataEx(self, pmod, image, n, options, values):
        assert n == 2 and list(options[:2]) == [5, 6], "error log options"
        log_at, log_size = values[0], values[1]
        assert log_at and log_size >= 1024
        ptx = image.value.decode()
        assert ".entry" in ptx
        if S.fault("jitfail"):
            msg = b"ptxas fatal   : (mock) Unresolved extern function 'foo'\0"
            ctypes.memmove(log_at, msg, len(msg))
            return 218
        self.stats["module_loads"] += 1
        handle = 100 + len(self.modules)
        self.modules[handle] = ptx
        _out(pmod, handle)
        return 0
    def cuModuleGetFunction(self, pfn, module, name):
        ptx = self.modules[module.value]
        name = name.decode()
        header = ptx.split(f".entry {name}(")[1].split(")")[0]
        handle = 1000 + len(self.functions)
        # The function's static shared memory: its body's `.shared` arrays
        # (up to the next entry: inline asm blocks end in "}" lines too).
        body = re.split(r"\.entry\s+\w+\(", ptx.split(f".entry {name}(")[1])[0]
        static = sum(int(n) for n in re.findall(r"\.shared\s+\.align\s+\d+\s+\.b8\s+\w+\[(\d+)\]", body))
        self.functions[handle] = {"name": name, "types": re.findall(r"\.param\s+\.(\w+)", header),
                                  "static_shared": static}
        _out(pfn, handle)
        return 0
    def cuFuncSetAttribute(self, fn, attr, value):
        assert attr == 8 and fn.value in self.functions
        static = self.functions[fn.value]["static_shared"]
        assert value.value + static <= 232448, "static + dynamic shared memory over the opt-in limit"
        self.functions[fn.value]["dynamic_shared_limit"] = value.value
        return 0
    def cuFuncGetAttribute(self, pvalue, attr, fn):
        assert fn.value in self.functions
        self.stats["attributes"] += 1
        static = self.functions[fn.value]["static_shared"]
        _out(pvalue, {4: 168, 3: 0, 1: static}[attr], ctypes.c_int)
        return 0

    # -- tensor maps --
    def cuTensorMapEncodeTiled(self, at, dtype, rank, addr, dims, strides, boxes, ones, inter, swz, l2, oob):
        eb = {6: 2, 9: 2, 7: 4}[dtype]
        assert at.value % 64 == 0, "map not 64-aligned"
        assert addr.value % 16 == 0, "global address"
        assert addr.value in S.live, "the map's global address is not a live tensor"
        assert 1 <= rank <= 5
        for i in range(rank):
            assert 1 <= dims[i] <= 2**32
            assert 1 <= boxes[i] <= 256, ("box", list(boxes))
            assert ones[i] == 1
        for i in range(rank - 1):
            assert strides[i] % 16 == 0 and strides[i] < 2**40, ("stride", i, strides[i])
        assert (boxes[0] * eb) % 16 == 0
        if swz:
            assert boxes[0] * eb <= {1: 32, 2: 64, 3: 128}[swz]
        assert inter == 0 and oob == 0 and l2 == 2
        rec = dict(addr=addr.value, dims=list(dims)[:rank], box=list(boxes))
        raw = json.dumps(rec).encode()
        assert len(raw) <= 128
        ctypes.memset(at.value, 0, 128)
        ctypes.memmove(at.value, raw, len(raw))
        return 0

    # -- launches --
    def cuLaunchKernel(self, fn, gx, gy, gz, bx, by, bz, shared, stream, values, extra):
        f = self.functions[fn.value]
        name, types = f["name"], f["types"]
        assert (gy, gz, by, bz) == (1, 1, 1, 1) and gx >= 1 and bx >= 1
        # Without the opt-in, static and dynamic together stop at 48 KiB.
        assert shared <= f.get("dynamic_shared_limit", 48 * 1024 - f["static_shared"]), \
            "dynamic shared memory past the limit"
        assert len(values) == len(types), (name, len(values), len(types))
        assert extra is None
        # The parameter array is built once per program (F5).
        first = self.stats["values_arrays"].setdefault(str(fn.value), ctypes.addressof(values))
        assert first == ctypes.addressof(values), f"{name}: a new kernelParams array at every launch"
        params = []
        for i, t in enumerate(types):
            raw = ctypes.string_at(values[i], PTX_BYTES[t])
            params.append((t, raw))
        self.check_params(name, params)
        self.stats["launches"][name] = self.stats["launches"].get(name, 0) + 1
        if S.fault("hang"):
            S.hang()
        if S.fault("crash"):
            os.kill(os.getpid(), signal.SIGSEGV)
        if S.fault("sticky"):
            S.sticky[0] = "an illegal memory access was encountered"
        S.gpu_work(50e-6)
        return 0

    def check_params(self, name, params):
        """Decodes the parameters against the bundle (Bundle.h): a memref
        descriptor per tensor buffer over the live tensor of the expected
        shape, each scalar by value, the sizes, a pointer per tensor map to a
        live device copy of a map over the live tensor it names."""
        b = S.bundle_json()
        if b is None:
            return
        sizes = dict(b["bindings"])
        for d in b.get("derived_sizes", []):
            v = 0
            for t in d["terms"]:
                prod = t["coefficient"]
                for f in t["factors"]:
                    prod *= sizes[f]
                v += prod
            sizes[d["name"]] = v
        program = next(p for p in b["programs"] if p["name"] == name)
        # A copy for a range of sizes is launched only where its range
        # holds (the launch conditions nautc emits: ge, lt, and).
        def holds(e):
            if isinstance(e, (int, str)):
                return e if isinstance(e, int) else sizes[e]
            op, x, y = e[0], holds(e[1]), holds(e[2])
            return {"ge": x >= y, "lt": x < y, "and": bool(x and y)}[op]
        if "launch_when" in program:
            assert holds(program["launch_when"]["condition"]), \
                f"{name} launched where its condition {program['launch_when']['text']} does not hold"
        i = 0
        def u64(k):
            t, raw = params[k]
            assert t == "u64", (name, k, t)
            return struct.unpack("<Q", raw)[0]
        by_name = {}
        for buf in b["buffers"]:
            if buf["role"] == "scalar":
                t, raw = params[i]
                fmt = {"f32": "<f", "f64": "<d", "u8": "<B", "b8": "<B", "u32": "<I", "s32": "<i", "b32": "<I",
                       "b16": "<H", "u16": "<H", "u64": "<Q", "s64": "<q"}[t]
                self.stats["scalars"].append([name, buf["name"], buf["dtype"], t, struct.unpack(fmt, raw)[0]])
                i += 1
                continue
            n = len(buf["dims"])
            alloc, aligned, off = u64(i), u64(i + 1), u64(i + 2)
            shape = [u64(i + 3 + k) for k in range(n)]
            strides = [u64(i + 3 + n + k) for k in range(n)]
            want = [d if isinstance(d, int) else sizes[d] for d in buf["dims"]]
            if "allocate_when" in buf and not holds(buf["allocate_when"]["condition"]):
                want = [0] * n  # (a copy's workspace where it does not launch)
            tensor = S.live.get(alloc)
            assert tensor is not None, f"{name}: {buf['name']} is not a live tensor"
            assert alloc == aligned and off == 0
            assert shape == want == list(tensor.shape), (name, buf["name"], shape, want)
            assert strides == list(tensor.stride()), (name, buf["name"], strides)
            assert tensor.dtype.n == buf["dtype"], (name, buf["name"], tensor.dtype, buf["dtype"])
            by_name[buf["name"]] = alloc
            i += 3 + 2 * n
        for s_ in b["sizes"]:
            assert u64(i) == sizes[s_], (name, s_, u64(i), sizes[s_])
            i += 1
        for m in program["tensor_maps"]:
            device_map = S.live.get(u64(i))
            assert device_map is not None, f"{name}: tensor map pointer to freed memory"
            assert device_map.dtype.n == "u8" and device_map.shape == (128,)
            rec = json.loads(device_map.content.rstrip(b"\0").decode())
            assert rec["addr"] == by_name[m["buffer"]], f"{name}: the map is not over {m['buffer']}"
            assert rec["box"] == m["box"], (name, rec["box"], m["box"])
            self.stats["tensor_maps_checked"] += 1
            i += 1
        assert i == len(params)
