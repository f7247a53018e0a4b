"""An independent evaluator of `.tensor` kernels with numpy, written from
docs/language.md alone (see ../README.md).

    program = load("examples/gemm.tensor")
    kernel = program.kernel("gemm")
    sizes = bind_sizes(kernel, {"M": 5, "N": 7, "K": 3}, {})
    outputs = evaluate(kernel, sizes, random_inputs(kernel, sizes, seed=0))
"""
from .errors import OracleError, SourceError
from .evaluator import evaluate
from .inputs import bind_sizes, index_bounds, random_inputs, to_dtype
from .program import Program, load

__all__ = ["OracleError", "SourceError", "Program", "load", "evaluate", "bind_sizes",
           "index_bounds", "random_inputs", "to_dtype"]
