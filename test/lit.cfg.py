# -*- Python -*-
# lit configuration of Nautilus's test suites (test/*), after MLIR's
# standalone example.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "Nautilus"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tensor", ".test"]
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.nautilus_obj_root, "test")

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%examples", config.nautilus_examples_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%nautilus_src", config.nautilus_src_root))
config.substitutions.append(("%nautilus_build", config.nautilus_obj_root))
# Debian's python3 (with python3-numpy): what the Python package's tests run
# with, as its users would.
config.substitutions.append(("%system_python",
                             "/usr/bin/python3" if os.path.exists("/usr/bin/python3")
                             else config.python_executable))
config.substitutions.append(("%scripts", os.path.join(config.nautilus_src_root, "test", "scripts")))
# The Python package's folder (DESIGN.md's layout): what PYTHONPATH names
# for the package's tests and the end-to-end scripts that import it.
config.substitutions.append(("%nautilus_package", os.path.join(config.nautilus_src_root, "python_stub")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.nautilus_tools_dir, config.llvm_tools_dir]
tools = [ToolSubst("nautc", unresolved="fatal"),
         ToolSubst("nautc-opt", unresolved="fatal")]
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# ptxas from the CUDA toolkit, when installed: every PTX the tests emit must
# pass it. Tests that need it say `REQUIRES: ptxas`.
ptxas = shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.path.exists("/usr/local/cuda/bin/ptxas") else None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas_arg", "--ptxas " + ptxas))
    config.substitutions.append(("%ptxas", ptxas))
else:
    config.substitutions.append(("%ptxas_arg", ""))
    lit_config.note("ptxas not found: PTX is generated but not assembled")

# NVRTC (the CUDA toolkit's libnvrtc), which `--emit reference-ptx` loads at
# run time from where compiler/Pipeline/Nvrtc.cpp looks: tests that compile
# the reference kernels with it say `REQUIRES: nvrtc`.
def find_nvrtc():
    import ctypes
    if os.environ.get("NAUTILUS_NVRTC"):
        candidates = [os.environ["NAUTILUS_NVRTC"]]
    else:
        names = ["libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2"]
        dirs = ([os.path.join(os.environ["CUDA_HOME"], "lib64")] if os.environ.get("CUDA_HOME") else []) + \
            ["/usr/local/cuda/lib64", "/usr/local/cuda/lib"]
        candidates = names + [os.path.join(d, n) for d in dirs for n in names]
    for path in candidates:
        try:
            ctypes.CDLL(path)
            return path
        except OSError:
            continue
    return None


if find_nvrtc():
    config.available_features.add("nvrtc")
else:
    lit_config.note("NVRTC not found: the reference kernels are not compiled to PTX")

# A host C++ compiler, which `nautc run --device reference-host` builds the
# reference kernels with: tests that run them say `REQUIRES: host-cxx`.
if shutil.which("c++"):
    config.available_features.add("host-cxx")
else:
    lit_config.note("no host C++ compiler (c++): the reference kernels are not run on the host")

# nvdisasm (the CUDA toolkit's, or NVIDIA's wheel from PyPI, which
# scripts/bootstrap.sh installs): tests of the SASS ptxas makes say
# `REQUIRES: ptxas, nvdisasm`.
def find_nvdisasm():
    import subprocess
    found = shutil.which("nvdisasm")
    if found:
        return found
    if os.path.exists("/usr/local/cuda/bin/nvdisasm"):
        return "/usr/local/cuda/bin/nvdisasm"
    # The wheel lives in the site-packages of the Python that pip installed
    # it with, which need not be the one running lit: ask each.
    probe = ("import glob, importlib.util, os\n"
             "spec = importlib.util.find_spec('nvidia')\n"
             "for root in (spec.submodule_search_locations if spec else []):\n"
             "    for p in sorted(glob.glob(os.path.join(root, '*', 'bin', 'nvdisasm'))):\n"
             "        print(p)\n")
    for python in dict.fromkeys(filter(None, [config.python_executable,
                                              shutil.which("python3")])):
        try:
            out = subprocess.run([python, "-c", probe], capture_output=True,
                                 text=True, timeout=30).stdout.split()
        except (OSError, subprocess.SubprocessError):
            continue
        for path in out:
            if os.access(path, os.X_OK):
                return path
    return None


nvdisasm = find_nvdisasm()
if nvdisasm:
    config.available_features.add("nvdisasm")
    config.substitutions.append(("%nvdisasm", nvdisasm))
else:
    lit_config.note("nvdisasm not found: SASS tests are skipped")

try:
    import numpy  # noqa: F401
    config.available_features.add("numpy")
except ImportError:
    lit_config.note("numpy not found: end-to-end comparisons with numpy are skipped")

# An NVIDIA driver (libcuda.so.1): `nautc run --device cuda` and the C
# API's cuda device run kernels on a GPU. Tests that need one say
# `REQUIRES: cuda-driver`; those of the driverless error, the opposite.
def has_cuda_driver():
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False


if has_cuda_driver():
    config.available_features.add("cuda-driver")
else:
    lit_config.note("no NVIDIA driver: GPU runs (REQUIRES: cuda-driver) skipped")


# ROCm's HIP runtime (libamdhip64.so, where runtime/HipDevice.cpp looks for
# it): `nautc run --device hip` and `nautc tune --device hip` run AMD
# kernels. Tests of the runtime's absence say `UNSUPPORTED: hip-runtime`.
def has_hip_runtime():
    import ctypes
    for name in ("libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5",
                 "/opt/rocm/lib/libamdhip64.so"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


if has_hip_runtime():
    config.available_features.add("hip-runtime")
