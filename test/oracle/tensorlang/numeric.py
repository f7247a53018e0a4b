"""Values of each dtype held in numpy arrays, and conversions between dtypes
(docs/language.md, section 8).

Storage: floats of every width are float64 arrays holding values exactly
representable in their dtype; integers are int64 arrays holding values in
their dtype's range; bools are bool arrays. An operation computes in float64
(or int64) and `settle` brings the result back into its dtype: rounding to
nearest even for floats, wrapping for integers.
"""
import numpy as np

from .dtypes import FLOATS, INT_BITS, INTS

# Significand bits (with the implicit one), minimum and maximum exponents.
FLOAT_FORMATS = {"f16": (11, -14, 15), "bf16": (8, -126, 127), "f32": (24, -126, 127)}
STORAGE = {**{t: np.float64 for t in FLOATS}, **{t: np.int64 for t in INTS}, "bool": np.bool_}


def round_float(x, dtype):
    """float64 values rounded to the nearest `dtype` value, ties to even,
    with overflow to infinity (one rounding, straight from float64)."""
    x = np.asarray(x, dtype=np.float64)
    if dtype == "f64":
        return x
    if dtype == "f32":
        return x.astype(np.float32).astype(np.float64)
    p, emin, emax = FLOAT_FORMATS[dtype]
    regular = np.isfinite(x) & (x != 0)
    safe = np.where(regular, x, 1.0)
    _, e = np.frexp(safe)  # safe = m * 2**e with 0.5 <= |m| < 1
    quantum = np.maximum(e - 1, emin) - (p - 1)
    rounded = np.ldexp(np.rint(np.ldexp(safe, -quantum)), quantum)
    largest = (2.0 - 2.0 ** (1 - p)) * 2.0 ** emax
    rounded = np.where(np.abs(rounded) > largest, np.copysign(np.inf, safe), rounded)
    return np.where(regular, rounded, x)


def wrap_int(x, dtype):
    """int64 values wrapped (two's complement) into `dtype`."""
    x = np.asarray(x, dtype=np.int64)
    bits = INT_BITS[dtype]
    if bits == 64:
        return x
    half = np.int64(1 << (bits - 1))
    return ((x + half) & np.int64((1 << bits) - 1)) - half


def settle(x, dtype):
    """An operation's float64/int64/bool result as a value of `dtype`."""
    if dtype in FLOATS:
        return round_float(x, dtype)
    if dtype in INTS:
        return wrap_int(x, dtype)
    return np.asarray(x, dtype=np.bool_)


def convert(x, src, dst):
    """Converts values of dtype `src` to `dst` (casts, promotion, stores).
    Returns (values, undefined) where `undefined` is None or a bool mask of
    the elements whose conversion is undefined (a float out of an integer
    type's range, or NaN, converted to that integer type)."""
    x = np.asarray(x)
    if src == dst:
        return x, None
    if dst == "bool":
        return x != 0, None  # NaN != 0 holds
    if src == "bool":
        return settle(x.astype(STORAGE[dst]), dst), None
    if dst in FLOATS:
        return round_float(x.astype(np.float64), dst), None
    # To an integer.
    if src in INTS:
        return wrap_int(x, dst), None
    bits = INT_BITS[dst]
    truncated = np.trunc(x)
    limit = float(2 ** (bits - 1))
    defined = np.isfinite(truncated) & (truncated >= -limit) & (truncated < limit)
    values = np.where(defined, truncated, 0.0).astype(np.int64)
    undefined = ~defined
    return values, (undefined if undefined.any() else None)
