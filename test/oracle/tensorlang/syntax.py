"""The syntax tree the parser builds.

Every node records `offset` (where it starts in the source, for messages)
and `end` (one past its last character, for quoting it). The checker adds
its findings to expression nodes as attributes (see checker.py).
"""
from dataclasses import dataclass, field
from typing import List, Optional, Union


# ---- Expressions -----------------------------------------------------------

@dataclass(eq=False)
class Expr:
    offset: int
    end: int


@dataclass(eq=False)
class Number(Expr):
    value: Union[int, float]
    is_float: bool


@dataclass(eq=False)
class Boolean(Expr):
    value: bool


@dataclass(eq=False)
class Name(Expr):
    name: str


@dataclass(eq=False)
class Access(Expr):
    """`X[e1, ..., en]`."""
    name: str
    indices: List[Expr]


@dataclass(eq=False)
class Call(Expr):
    """A function, `where`, or a cast (`name` is then a dtype)."""
    name: str
    args: List[Expr]


@dataclass(eq=False)
class Reduce(Expr):
    """`op[v1, ...](body)` with op one of sum, prod, max, min."""
    op: str
    variables: List["Binder"]
    body: Expr


@dataclass(eq=False)
class Unary(Expr):
    op: str  # '-' or 'not'
    operand: Expr


@dataclass(eq=False)
class Binary(Expr):
    op: str  # + - * / % < <= > >= == != and or
    left: Expr
    right: Expr
    op_offset: int = 0  # where the operator is


@dataclass(eq=False)
class Binder:
    """An index variable named on a left-hand side or in a reduction."""
    name: str
    offset: int


# ---- Statements and kernels -------------------------------------------------

@dataclass(eq=False)
class TensorDef:
    name: str
    offset: int
    indices: List[Binder]
    expr: Expr


@dataclass(eq=False)
class ScalarDef:
    name: str
    offset: int
    expr: Expr


@dataclass(eq=False)
class Require:
    offset: int
    expr: Expr
    text: str  # the condition as written, up to the end of line, ';' or '#'


@dataclass(eq=False)
class Dim:
    value: Union[str, int]  # a size name or a positive literal
    offset: int


@dataclass(eq=False)
class Param:
    name: str
    offset: int
    dtype: str
    dims: Optional[List[Dim]]  # None for a scalar


@dataclass(eq=False)
class KernelSyntax:
    name: str
    offset: int
    inputs: List[Param]
    outputs: List[Param]
    statements: list = field(default_factory=list)


def children(node):
    """The expressions directly inside `node`."""
    if isinstance(node, Access):
        return node.indices
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Reduce):
        return [node.body]
    if isinstance(node, Unary):
        return [node.operand]
    if isinstance(node, Binary):
        return [node.left, node.right]
    return []
