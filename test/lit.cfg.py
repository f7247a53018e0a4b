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
config.substitutions.append(("%scripts", os.path.join(config.nautilus_src_root, "test", "scripts")))

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

try:
    import numpy  # noqa: F401
    config.available_features.add("numpy")
except ImportError:
    lit_config.note("numpy not found: end-to-end comparisons with numpy are skipped")
