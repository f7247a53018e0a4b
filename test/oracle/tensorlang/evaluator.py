"""Evaluates a checked kernel with numpy (docs/language.md, section 8).

A definition `T[i, j] = expr` is evaluated over its whole index space at
once: inside it, every value is an array with one axis per index variable
in scope (the left-hand indices, then those of the enclosing reductions, in
order), of length 1 where the value does not depend on that variable. A
reduction appends its variables' axes, evaluates its body over them and
folds them away. Tensor reads are numpy gathers with broadcast index arrays.

Every value carries an `undefined` mask (or None): the elements that read
out of range, or converted a float out of an integer type's range. A read
out of range is clamped to the tensor (any value would do) and marks the
element undefined; `where` keeps the mask of the branch it selects, so a
guarded read is defined (section 8). What remains in an output's mask is
reported.

Arithmetic: each operation is done in float64 (or int64) on values of its
operand type and its result is rounded (or wrapped) to its dtype, so f16,
bf16 and f32 arithmetic is IEEE arithmetic in that type, one rounding per
operation. Reductions accumulate in float64 (numpy's pairwise sums) and are
rounded once, to their type, at the end. With `arithmetic='f64'` floats are
not rounded after operations: only explicit casts, loaded inputs and stored
outputs are rounded to their dtypes.
"""
import math
from dataclasses import dataclass

import numpy as np

from .checker import children
from .dtypes import FLOATS, INTS
from .errors import SourceError
from .numeric import STORAGE, convert, round_float, settle
from .syntax import Reduce

# A definition is evaluated in slices of its first left-hand index when its
# largest index space (with its reductions' variables) has more elements.
SLICE_ELEMENTS = 1 << 22
_erf = np.frompyfunc(math.erf, 1, 1)


def erf(x):
    return _erf(x).astype(np.float64)


FLOAT_FUNCTIONS = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1.0 / np.sqrt(x), "tanh": np.tanh, "erf": erf,
    "sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
    "silu": lambda x: x / (1.0 + np.exp(-x)),
    "gelu": lambda x: x / 2 * (1.0 + erf(x / math.sqrt(2.0))),
}


@dataclass
class Value:
    data: np.ndarray  # float64, int64 or bool; one axis per variable in scope
    undefined: object = None  # None or a bool array broadcastable to data


def union(*masks):
    present = [m for m in masks if m is not None]
    if not present:
        return None
    result = present[0]
    for m in present[1:]:
        result = result | m
    return result


@dataclass
class Result:
    """A stored tensor: its values and its undefined elements (or None)."""
    data: np.ndarray
    undefined: object = None


def check_requirements(kernel, sizes):
    """Raises a SourceError for the first requirement that does not hold,
    among those whose sizes are all in `sizes`."""
    evaluator = Evaluator(kernel, sizes, {}, "typed")
    for requirement in kernel.requirements:
        if any(s not in sizes for s in requirement.sizes):
            continue
        with np.errstate(all="ignore"):
            holds = evaluator.value(requirement.expr).data
        if not bool(holds):
            values = ", ".join(f"{s}={sizes[s]}" for s in sorted(requirement.sizes))
            raise SourceError(f"requirement '{requirement.text}' does not hold ({values})",
                              kernel.source, requirement.offset)


def evaluate(kernel, sizes, inputs, arithmetic="typed"):
    """Runs `kernel` with every size bound (`sizes`: name -> int) on
    `inputs` (name -> array of its dtype's storage, see numeric.py).
    Returns the outputs, name -> Result."""
    check_requirements(kernel, sizes)
    tensors = {name: Result(np.asarray(data)) for name, data in inputs.items()}
    evaluator = Evaluator(kernel, sizes, tensors, arithmetic)
    with np.errstate(all="ignore"):
        for definition in kernel.definitions:
            tensors[definition.tensor.name] = evaluator.definition(definition)
    return {t.name: tensors[t.name] for t in kernel.outputs}


class Evaluator:
    def __init__(self, kernel, sizes, tensors, arithmetic):
        self.kernel = kernel
        self.sizes = sizes
        self.tensors = tensors
        self.exact = arithmetic == "f64"
        self.axes = []  # the IndexVars in scope, one per axis
        self.macros = {}  # id(expansion) -> its 0-d Value
        self.ranges = {}  # IndexVar -> (first, end) of the values it takes

    def extent(self, extent):
        return extent if isinstance(extent, int) else self.sizes[extent]

    def operation_result(self, data, dtype):
        """An operation's result brought into `dtype`."""
        if self.exact and dtype in FLOATS:
            return np.asarray(data, dtype=np.float64)
        return settle(data, dtype)

    def to(self, value, src, dst):
        """Implicit conversion of an operand (promotion)."""
        if src == dst:
            return value
        if self.exact and dst in FLOATS:
            return Value(value.data.astype(np.float64), value.undefined)
        data, undefined = convert(value.data, src, dst)
        return Value(data, union(value.undefined, undefined))

    # ---- Definitions --------------------------------------------------------

    def definition(self, definition):
        variables = definition.variables
        shape = [self.extent(v.extent) for v in variables]
        dtype = definition.tensor.dtype
        data = np.zeros(shape, dtype=STORAGE[dtype])
        undefined = np.zeros(shape, dtype=bool)
        rows = shape[0] if shape else 1
        per_row = cost(definition.expr, self) * math.prod(shape[1:])
        step = max(1, SLICE_ELEMENTS // max(1, per_row))
        for first in range(0, rows, step):
            end = min(rows, first + step)
            self.axes = list(variables)
            self.ranges = {v: (0, n) for v, n in zip(variables, shape)}
            if variables:
                self.ranges[variables[0]] = (first, end)
            value = self.value(definition.expr)
            stored, bad = self.store(value, definition.expr.compute, definition.tensor)
            part = (slice(first, end),) if shape else ()
            data[part] = np.broadcast_to(stored, data[part].shape)
            if bad is not None:
                undefined[part] = np.broadcast_to(bad, data[part].shape)
        return Result(data, undefined if undefined.any() else None)

    def store(self, value, src, tensor):
        """Converts a definition's value to its tensor's dtype (with
        arithmetic='f64', float intermediates are kept unrounded)."""
        dst = tensor.dtype
        if self.exact and dst in FLOATS and tensor.kind == "intermediate":
            return value.data.astype(np.float64), value.undefined
        data, undefined = convert(value.data, src, dst)
        if dst in FLOATS:
            data = round_float(data, dst)
        return data, union(value.undefined, undefined)

    # ---- Expressions ----------------------------------------------------------

    def value(self, node):
        return getattr(self, "value_" + type(node).__name__)(node)

    def constant(self, x, dtype):
        return Value(np.full((1,) * len(self.axes), x, dtype=STORAGE[dtype]))

    def value_Number(self, node):
        if node.compute in FLOATS:
            data = self.operation_result(np.float64(node.value), node.compute)
            return self.constant(data, node.compute)
        return self.constant(settle(np.int64(node.value), node.compute), node.compute)

    def value_Boolean(self, node):
        return self.constant(node.value, "bool")

    def value_Name(self, node):
        kind, what = node.ref
        if kind == "size":
            return self.constant(self.sizes[what], "i64")
        if kind == "var":
            return Value(self.index_values(what))
        if kind == "macro":
            return self.macro_value(node.expansion)
        tensor = self.tensors[what.name]
        data = np.reshape(tensor.data, (1,) * len(self.axes))
        undefined = None if tensor.undefined is None else np.reshape(tensor.undefined, data.shape)
        return Value(data, undefined)

    def macro_value(self, expansion):
        """The value of a scalar definition's expression (which reads no
        index variable), computed once per evaluation."""
        if id(expansion) not in self.macros:
            axes = self.axes
            self.axes = []
            self.macros[id(expansion)] = self.value(expansion)
            self.axes = axes
        value = self.macros[id(expansion)]
        shape = (1,) * len(self.axes)
        undefined = None if value.undefined is None else np.reshape(value.undefined, shape)
        return Value(np.reshape(value.data, shape), undefined)

    def index_values(self, var):
        """The values of an index variable, along its axis."""
        first, end = self.ranges[var]
        shape = [1] * len(self.axes)
        shape[self.axes.index(var)] = end - first
        return np.arange(first, end, dtype=np.int64).reshape(shape)

    def value_Access(self, node):
        tensor = self.tensors[node.tensor.name]
        indices, masks = [], []
        for index, extent in zip(node.indices, tensor.data.shape):
            value = self.value(index)
            data = value.data.astype(np.int64)
            outside = (data < 0) | (data >= extent)
            masks.append(value.undefined)
            if outside.any():
                masks.append(outside)
                data = np.clip(data, 0, extent - 1)
            indices.append(data)
        indices = np.broadcast_arrays(*indices)
        data = tensor.data[tuple(indices)]
        if tensor.undefined is not None:
            masks.append(tensor.undefined[tuple(indices)])
        return Value(data, union(*masks))

    def value_Unary(self, node):
        operand = self.value(node.operand)
        if node.op == "not":
            return Value(~operand.data, operand.undefined)
        operand = self.to(operand, node.operand.compute, node.optype)
        return Value(self.operation_result(-operand.data, node.compute), operand.undefined)

    def value_Binary(self, node):
        left, right = self.value(node.left), self.value(node.right)
        undefined = union(left.undefined, right.undefined)
        op = node.op
        if op in ("and", "or"):
            data = (left.data & right.data) if op == "and" else (left.data | right.data)
            return Value(data, undefined)
        left = self.to(left, node.left.compute, node.optype)
        right = self.to(right, node.right.compute, node.optype)
        a, b = left.data, right.data
        if op in ("<", "<=", ">", ">=", "==", "!="):
            compare = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal,
                       "==": np.equal, "!=": np.not_equal}[op]
            return Value(compare(a, b), undefined)
        if node.optype in INTS:
            data = integer_operation(op, a, b)
        else:
            data = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op](a, b)
        return Value(self.operation_result(data, node.compute), undefined)

    def value_Call(self, node):
        name = node.name
        args = [self.value(arg) for arg in node.args]
        if name in FLOATS + INTS + ("bool",):
            data, undefined = convert(args[0].data, node.args[0].compute, name)
            return Value(data, union(args[0].undefined, undefined))
        if name == "where":
            condition, a, b = args
            a = self.to(a, node.args[1].compute, node.optype)
            b = self.to(b, node.args[2].compute, node.optype)
            data = np.where(condition.data, a.data, b.data)
            undefined = None
            if a.undefined is not None or b.undefined is not None:
                false = np.zeros((1,) * len(self.axes), dtype=bool)
                undefined = np.where(condition.data,
                                     false if a.undefined is None else a.undefined,
                                     false if b.undefined is None else b.undefined)
            return Value(data, union(undefined, condition.undefined))
        args = [self.to(v, arg.compute, node.optype) for v, arg in zip(args, node.args)]
        undefined = union(*(v.undefined for v in args))
        data = [v.data for v in args]
        if name == "abs":
            result = np.abs(data[0])
        elif name in ("max", "min"):
            result = (np.maximum if name == "max" else np.minimum)(*data)
        elif name == "pow":
            result = np.power(data[0].astype(np.float64), data[1].astype(np.float64))
        else:
            result = FLOAT_FUNCTIONS[name](data[0].astype(np.float64))
        return Value(self.operation_result(result, node.compute), undefined)

    def value_Reduce(self, node):
        outer = len(self.axes)
        saved = (list(self.axes), dict(self.ranges))
        for var in node.vars:
            self.axes.append(var)
            self.ranges[var] = (0, self.extent(var.extent))
        body = self.value(node.body)
        self.axes, self.ranges = saved
        extents = tuple(self.extent(v.extent) for v in node.vars)
        data = body.data
        data = np.broadcast_to(data, data.shape[:outer] + extents)
        axes = tuple(range(outer, outer + len(extents)))
        fold = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min}[node.op]
        source = node.body.compute
        if source in FLOATS:
            data = data.astype(np.float64)
        result = fold(data, axis=axes)
        undefined = None
        if body.undefined is not None:
            mask = np.broadcast_to(body.undefined, body.undefined.shape[:outer] + extents)
            undefined = np.any(mask, axis=axes)
        return Value(self.operation_result(result, node.compute), undefined)


def integer_operation(op, a, b):
    """Wrapping int64 arithmetic with floor division and modulo; dividing
    by 0 gives 0 (section 8). The caller wraps the result to its type."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    a, b = np.broadcast_arrays(a, b)
    safe = np.where((b == 0) | (b == -1), 1, b)
    if op == "/":
        quotient = np.floor_divide(a, safe)
        return np.where(b == 0, 0, np.where(b == -1, -a, quotient))
    remainder = np.mod(a, safe)
    return np.where((b == 0) | (b == -1), 0, remainder)


def cost(node, evaluator):
    """The largest number of elements a reduction of `node` spans per
    element of the definition (1 without reductions)."""
    inner = max([cost(child, evaluator) for child in children(node)], default=1)
    if isinstance(node, Reduce):
        return inner * math.prod(evaluator.extent(v.extent) for v in node.vars)
    return inner
