"""Reads out of range at every point (docs/language.md, section 8).

A read that no `where` guards, whose affine index lies outside its
dimension at every point of the index space for every value of the sizes
(each at least 1), is an error: `A[7]` of an `f32[4]`, `A[N]` of an
`f32[N]`. A read out of range at only some points stays undefined.
"""
from .syntax import Access, Binary, Call, Name, Number, Reduce, Unary, children

# A form is a dict: size name -> coefficient, and "" -> the constant.


def _form_of(extent):
    return {"": extent} if isinstance(extent, int) else {"": 0, extent: 1}


def _combine(a, x, b, y):
    out = {"": 0}
    for c, form in ((a, x), (b, y)):
        for name, v in form.items():
            out[name] = out.get(name, 0) + c * v
    return out


def _non_negative(form):
    """Whether the form is at least 0 whatever the sizes (each >= 1)."""
    coefficients = [v for name, v in form.items() if name]
    return all(c >= 0 for c in coefficients) and form[""] + sum(coefficients) >= 0


def _text(form):
    text = ""
    for name in sorted(n for n in form if n):
        c = form[name]
        if c == 0:
            continue
        if text:
            text += " - " if c < 0 else " + "
        elif c < 0:
            text += "-"
        text += ("" if abs(c) == 1 else f"{abs(c)} * ") + name
    constant = form[""]
    if not text:
        return str(constant)
    if constant:
        text += (" - " if constant < 0 else " + ") + str(abs(constant))
    return text


def _constant(form):
    return all(v == 0 for name, v in form.items() if name)


def _range(node):
    """(least, greatest) of an affine index, or None where not followed."""
    if isinstance(node, Number) and not node.is_float:
        return {"": node.value}, {"": node.value}
    if isinstance(node, Name):
        kind, what = getattr(node, "ref", (None, None))
        if kind == "size":
            return {"": 0, what: 1}, {"": 0, what: 1}
        if kind == "var" and what.extent is not None:
            return {"": 0}, _combine(1, _form_of(what.extent), 1, {"": -1})
        return None
    if isinstance(node, Unary) and node.op == "-":
        r = _range(node.operand)
        return None if r is None else (_combine(-1, r[1], 0, {}), _combine(-1, r[0], 0, {}))
    if isinstance(node, Binary) and node.op in "+-*":
        a, b = _range(node.left), _range(node.right)
        if a is None or b is None:
            return None
        if node.op == "+":
            return _combine(1, a[0], 1, b[0]), _combine(1, a[1], 1, b[1])
        if node.op == "-":
            return _combine(1, a[0], -1, b[1]), _combine(1, a[1], -1, b[0])
        for k, other in ((a, b), (b, a)):
            if _constant(k[0]) and _constant(k[1]) and k[0][""] == k[1][""]:
                c = k[0][""]
                low, high = (other[1], other[0]) if c < 0 else other
                return _combine(c, low, 0, {}), _combine(c, high, 0, {})
    return None


def always_out_of_range(node, guarded=False):
    """(offset, message) of the first unguarded read out of range at every
    point in the checked expression `node`, or None."""
    if isinstance(node, Call) and node.name == "where":
        return (always_out_of_range(node.args[0], guarded)
                or always_out_of_range(node.args[1], True)
                or always_out_of_range(node.args[2], True))
    if isinstance(node, Access) and not guarded:
        for k, index in enumerate(node.indices):
            if node.kinds[k] == "indirect":
                continue
            r = _range(index)
            if r is None:
                continue
            extent = _form_of(node.tensor.dims[k])
            if _non_negative(_combine(1, r[0], -1, extent)):
                bound = "at least " + _text(r[0])
            elif _non_negative(_combine(-1, r[1], 1, {"": -1})):
                bound = "at most " + _text(r[1])
            else:
                continue
            return index.offset, (
                f"this index of '{node.name}' is {bound} at every point, and dimension {k + 1} "
                f"has extent {_text(extent)}: the read is always out of range (only a branch "
                f"of where(...) may read out of range)")
    for child in children(node):
        found = always_out_of_range(child, guarded)
        if found:
            return found
    return None
