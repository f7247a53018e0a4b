"""The dtypes and the promotion rules of docs/language.md, section 6.

A type is a dtype name ('f16', ..., 'bool') or one of the two untyped
literal kinds, UNTYPED_INT and UNTYPED_FLOAT, which take the type of the
other operand (section 6, "Literals are untyped").
"""
UNTYPED_INT = "untyped int"
UNTYPED_FLOAT = "untyped float"

FLOATS = ("f16", "bf16", "f32", "f64")
INTS = ("i8", "i32", "i64")
HALF = ("f16", "bf16")
FLOAT_RANK = {"f16": 1, "bf16": 1, "f32": 2, "f64": 3}
INT_BITS = {"i8": 8, "i32": 32, "i64": 64}


def is_untyped(t):
    return t in (UNTYPED_INT, UNTYPED_FLOAT)


def is_float(t):
    return t in FLOATS or t == UNTYPED_FLOAT


def is_int(t):
    return t in INTS or t == UNTYPED_INT


def default(t):
    """The type an untyped value takes where nothing fixes it."""
    return {UNTYPED_INT: "i64", UNTYPED_FLOAT: "f32"}.get(t, t)


def promote(a, b):
    """The common type of two numeric operands."""
    if is_untyped(a) and is_untyped(b):
        return UNTYPED_FLOAT if UNTYPED_FLOAT in (a, b) else UNTYPED_INT
    if is_untyped(b):
        a, b = b, a
    if is_untyped(a):
        # A literal takes the other operand's type, except that a float
        # literal with an integer operand gives f32.
        return "f32" if a == UNTYPED_FLOAT and b in INTS else b
    if a == b:
        return a
    if a in FLOATS and b in FLOATS:
        if {a, b} == {"f16", "bf16"}:
            return "f32"
        return a if FLOAT_RANK[a] > FLOAT_RANK[b] else b
    if a in FLOATS:
        return a
    if b in FLOATS:
        return b
    return a if INT_BITS[a] > INT_BITS[b] else b


def float_result(t):
    """The result type of a float function (exp, ...) of a `t` argument:
    `t` if it is a float (untyped floats stay untyped), else f32."""
    return t if is_float(t) else "f32"


def reduction_result(t):
    """A reduction's type for a body of type `t`."""
    if t in HALF:
        return "f32"
    return default(t)
