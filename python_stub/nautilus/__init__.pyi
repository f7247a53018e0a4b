# Type stubs of the nautilus package.
import os
from typing import Any, Dict, List, Mapping, Optional, Union

import numpy as np

__all__ = ["compile", "Program", "Error", "CompileError", "version"]

class Error(Exception):
    code: int
    def __init__(self, code: int, message: str) -> None: ...

class CompileError(Error): ...

def version() -> str: ...

class _Param:
    name: str
    role: str  # "input", "output" or "scalar"
    dtype: str  # "f16", "bf16", "f32", "f64", "i8", "i32", "i64", "bool"
    ndim: int

class Program:
    kernel: str
    target: str
    cache_hit: int  # 0 compiled, 1 from memory, 2 from the disk cache
    params: List[_Param]
    @property
    def ptx(self) -> Optional[str]: ...
    def explain(self) -> str: ...
    def run(self, device: str = "cpu", **arrays: Any) -> Dict[str, np.ndarray]: ...
    def run_with(self, inputs: Dict[str, Any], device: str = "cpu") -> Dict[str, np.ndarray]: ...

def compile(
    source_or_path: Union[str, "os.PathLike[str]"],
    kernel: Optional[str] = None,
    target: str = "cpu",
    shapes: Optional[Mapping[str, int]] = None,
    schedule: str = "default",
    cache_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    explain: bool = False,
    cache: bool = True,
    kernel_ir: bool = False,
    verify: bool = True,
) -> Program: ...
