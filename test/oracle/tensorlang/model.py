"""What the checker hands to the evaluator: a kernel as a list of typed
definitions over index variables with known extents, and the size
requirements to verify before running it."""
from dataclasses import dataclass, field
from typing import List, Optional, Union

Extent = Union[str, int]  # a size name or a literal extent


@dataclass(eq=False)
class IndexVar:
    """One index variable: a left-hand index of a definition, or one bound
    by a reduction. Two reductions binding the same name bind two
    variables."""
    name: str
    offset: int
    extent: Optional[Extent] = None


@dataclass(eq=False)
class Tensor:
    """An input, output or defined tensor (rank 0 for scalar inputs and
    rank-0 definitions)."""
    name: str
    dtype: str
    dims: List[Extent]
    kind: str  # 'input', 'output' or 'intermediate'
    offset: int = 0


@dataclass(eq=False)
class Definition:
    """`tensor[variables] = expr`: the expression is checked and typed
    (see checker.py for the attributes of its nodes); its value is
    converted to `tensor.dtype` when stored."""
    tensor: Tensor
    variables: List[IndexVar]
    expr: object
    offset: int


@dataclass(eq=False)
class Requirement:
    """A condition on sizes: a `require` line, or the implicit `DIVISOR > 0`
    of a `/` or `%` in an index whose divisor involves sizes."""
    expr: object
    text: str
    offset: int
    sizes: List[str]


@dataclass(eq=False)
class Kernel:
    name: str
    offset: int
    source: object
    sizes: List[str]
    inputs: List[Tensor]
    outputs: List[Tensor]
    definitions: List[Definition] = field(default_factory=list)
    requirements: List[Requirement] = field(default_factory=list)
