"""Sizes and input tensors of a run: binding sizes, loading .npy files into
a dtype's storage (numeric.py), and drawing random inputs."""
import math

import numpy as np

from .checker import children
from .dtypes import FLOATS, INT_BITS, INTS
from .errors import OracleError, SourceError
from .evaluator import check_requirements
from .numeric import round_float
from .syntax import Access, Name

INT_MAX = 2 ** 63 - 1
# The oracle materialises every tensor and every reduction's index space.
MAX_ELEMENTS = 1 << 28
ITEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i32": 4, "i64": 8, "bool": 1}


def bind_sizes(kernel, given, arrays):
    """The value of every size: from `given` (name -> int, as --shape) and
    the shapes of the input `arrays` (name -> ndarray)."""
    sizes = {}
    for name, value in given.items():
        if name not in kernel.sizes:
            raise OracleError(f"kernel '{kernel.name}' has no size named '{name}' "
                              f"(its sizes: {', '.join(kernel.sizes) or 'none'})")
        if not 1 <= value <= INT_MAX:
            raise OracleError(f"size {name}={value} is out of range [1, 2^63-1]")
        sizes[name] = value
    origin = {name: "--shape" for name in sizes}
    for tensor in kernel.inputs:
        if tensor.name not in arrays:
            continue
        shape = np.shape(arrays[tensor.name])
        if len(shape) != len(tensor.dims):
            raise OracleError(f"input '{tensor.name}' has rank {len(tensor.dims)}, but its array "
                              f"has shape {list(shape)}")
        for dim, n in zip(tensor.dims, shape):
            if isinstance(dim, int):
                if dim != n:
                    raise OracleError(f"input '{tensor.name}' has a dimension of {dim}, but its "
                                      f"array has shape {list(shape)}")
            elif dim in sizes and sizes[dim] != n:
                raise OracleError(f"size {dim} is {sizes[dim]} by {origin[dim]} but {n} by the "
                                  f"shape of input '{tensor.name}'")
            else:
                sizes[dim] = n
                origin[dim] = f"input '{tensor.name}'"
    check_requirements(kernel, sizes)
    for name in kernel.sizes:
        if name not in sizes:
            raise OracleError(f"size {name} of kernel '{kernel.name}' has no value: give it with "
                              f"--shape {name}=...")
    check_volumes(kernel, sizes)
    return sizes


def check_volumes(kernel, sizes):
    for tensor in kernel.inputs + kernel.outputs + [d.tensor for d in kernel.definitions]:
        count = math.prod(d if isinstance(d, int) else sizes[d] for d in tensor.dims)
        if count * ITEM_BYTES[tensor.dtype] > INT_MAX:
            raise SourceError(f"integer overflow in sizes: '{tensor.name}' would need more than "
                              f"2^63 bytes", kernel.source, tensor.offset)
        if count > MAX_ELEMENTS:
            raise OracleError(f"'{tensor.name}' has {count} elements, more than the oracle "
                              f"handles ({MAX_ELEMENTS}); give smaller sizes")


def to_dtype(name, array, dtype):
    """An input array as values of `dtype` (floats in float64, integers in
    int64, bools as bool). Float data is rounded to a float dtype (ties to
    even); integer data must fit its dtype exactly."""
    array = np.asarray(array)
    kind = array.dtype.kind
    if dtype == "bool":
        if kind != "b":
            raise OracleError(f"input '{name}' is bool, but its array holds {array.dtype}")
        return array.astype(np.bool_)
    if dtype in FLOATS:
        if kind not in "fiu":
            raise OracleError(f"input '{name}' is {dtype}, but its array holds {array.dtype}")
        data = array.astype(np.float64)
        rounded = round_float(data, dtype)
        if kind in "iu" and not np.array_equal(rounded, data):
            raise OracleError(f"input '{name}' holds integers that {dtype} cannot represent exactly")
        return rounded
    if kind not in "iu":
        raise OracleError(f"input '{name}' is {dtype}, but its array holds {array.dtype}")
    bits = INT_BITS[dtype]
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if array.size and (int(array.min()) < low or int(array.max()) > high):
        raise OracleError(f"input '{name}' holds values outside the range of {dtype}")
    return array.astype(np.int64)


def index_bounds(kernel, sizes):
    """For each integer input read inside an indirect index, the smallest
    extent of the dimensions those indices select: values in [0, bound)
    are valid indices (for plain gathers such as W[ids[t, j], d])."""
    bounds = {}

    def visit(node, bound):
        if isinstance(node, Access):
            if bound is not None:
                bounds[node.tensor.name] = min(bound, bounds.get(node.tensor.name, bound))
            for index, kind, dim in zip(node.indices, node.kinds, node.tensor.dims):
                extent = dim if isinstance(dim, int) else sizes[dim]
                visit(index, extent if kind == "indirect" else bound)
            return
        if isinstance(node, Name) and node.ref[0] == "tensor" and bound is not None:
            bounds[node.ref[1].name] = min(bound, bounds.get(node.ref[1].name, bound))
        for child in children(node):
            visit(child, bound)

    for definition in kernel.definitions:
        visit(definition.expr, None)
    return bounds


def random_inputs(kernel, sizes, seed, given=()):
    """Random values for the inputs not in `given`: floats uniform in
    [-1, 1] rounded to their dtype; integers used in indirect indices
    uniform over the valid indices (index_bounds), other integers in
    [-8, 8]; bools fair coins."""
    rng = np.random.default_rng(seed)
    bounds = index_bounds(kernel, sizes)
    drawn = {}
    for tensor in kernel.inputs:
        if tensor.name in given:
            continue
        shape = tuple(d if isinstance(d, int) else sizes[d] for d in tensor.dims)
        if tensor.dtype in FLOATS:
            drawn[tensor.name] = round_float(rng.uniform(-1, 1, size=shape), tensor.dtype)
        elif tensor.dtype in INTS:
            low, high = (0, bounds[tensor.name]) if tensor.name in bounds else (-8, 9)
            drawn[tensor.name] = rng.integers(low, high, size=shape, dtype=np.int64)
        else:
            drawn[tensor.name] = rng.integers(0, 2, size=shape).astype(np.bool_)
    return drawn
