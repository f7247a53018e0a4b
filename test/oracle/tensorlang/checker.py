"""Checks parsed kernels and types them (docs/language.md, sections 3 to 9).

The checker resolves every name, classifies every index, infers the extent
of every index variable and gives every expression node a dtype. It leaves
these attributes on the nodes of each definition's expression:

  node.type     the node's dtype in the language's type system (section 6)
  node.compute  the dtype its value is produced in: node.type, except for an
                operation or a literal inside the body of a reduction whose
                body is f16 or bf16, which is done in f32 (section 7)
  node.optype   (operations) the dtype the operands are converted to first
  Name.ref      ('var', IndexVar), ('size', NAME), ('tensor', Tensor) for
                a scalar input or a rank-0 definition, or ('macro', Symbol)
                for a scalar definition that reads no tensor
  Name.expansion  (macros) the checked expression the name stands for
  Access.tensor the Tensor read; Access.kinds: 'direct', 'affine' or
                'indirect' for each index (section 5)
  Reduce.vars   the IndexVars it binds

Scalar definitions that read no tensor are expanded where used: the Name
node gets the definition's expression, checked for the type its context
fixes (section 6) and for whether it is in a half-precision reduction body
(section 7). Each such variant is checked once and shared, so a chain of
definitions that each use the previous one twice stays linear.
"""
import copy

from .dtypes import (FLOATS, HALF, INTS, UNTYPED_FLOAT, UNTYPED_INT, default,
                     float_result, is_float, is_int, is_untyped,
                     promote, reduction_result)
from .bounds import always_out_of_range
from .errors import SourceError
from .model import Definition, IndexVar, Kernel, Requirement, Tensor
from .syntax import (Access, Binary, Boolean, Call, Name, Number, Reduce,
                     Require, ScalarDef, TensorDef, Unary, children)

UNARY_FLOAT_FUNCTIONS = ("exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh",
                         "erf", "sigmoid", "silu", "gelu")
FUNCTIONS = {**{f: 1 for f in UNARY_FLOAT_FUNCTIONS}, "abs": 1, "max": 2,
             "min": 2, "pow": 2, "where": 3}
CASTS = FLOATS + INTS + ("bool",)
ARITHMETIC = ("+", "-", "*", "/", "%")
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")
LOGIC = ("and", "or")
NOT_BOUND = ("index '{}' is not bound: there is no implicit summation; put it on the "
             "left-hand side or reduce over it, e.g. sum[{}](...)")


def check_file(source, kernels):
    """The checked kernels of a file, by name, in order."""
    checked = {}
    for syntax in kernels:
        if syntax.name in checked:
            raise SourceError(f"kernel '{syntax.name}' is already defined", source, syntax.offset,
                              ("previous definition is here", checked[syntax.name].offset))
        checked[syntax.name] = KernelChecker(source, syntax).kernel
    return checked


class Symbol:
    """What a name of the kernel stands for."""

    def __init__(self, kind, offset, tensor=None, macro=None):
        self.kind = kind  # size, input, scalar, output, intermediate, rank0, macro
        self.offset = offset
        self.tensor = tensor
        self.macro = macro  # the unchecked expression of an expanded scalar definition
        self.type = None  # a macro's type before its context fixes it
        self.variants = {}  # (fixed type, widen) -> checked expression
        self.defined = kind != "output"


class Context:
    """The statement being checked."""

    def __init__(self, defining=None, lhs=()):
        self.defining = defining
        self.lhs = set(lhs)
        self.vars = []  # every IndexVar of the statement
        self.sources = {}  # IndexVar -> [(extent, offset)]


class KernelChecker:
    def __init__(self, source, syntax):
        self.source = source
        self.symbols = {}
        self.statement_names = {s.name for s in syntax.statements if not isinstance(s, Require)}
        self.kernel = self.signature(syntax)
        for statement in syntax.statements:
            if isinstance(statement, TensorDef):
                self.tensor_definition(statement)
            elif isinstance(statement, ScalarDef):
                self.scalar_definition(statement)
            else:
                self.require(statement)
        for tensor in self.kernel.outputs:
            if not self.symbols[tensor.name].defined:
                self.fail(f"output '{tensor.name}' is never defined; add a statement "
                          f"'{tensor.name}[...] = ...' to the kernel body", tensor.offset)

    def fail(self, message, offset, note=None):
        raise SourceError(message, self.source, offset, note)

    def text(self, node):
        return self.source.text[node.offset:node.end]

    # ---- Signature ----------------------------------------------------------

    def signature(self, syntax):
        sizes, seen = [], {}
        for param in syntax.inputs + syntax.outputs:
            if param.name in seen:
                self.fail(f"parameter '{param.name}' is declared twice", param.offset,
                          ("previous declaration is here", seen[param.name]))
            seen[param.name] = param.offset
            for dim in param.dims or []:
                if isinstance(dim.value, str) and dim.value not in sizes:
                    sizes.append(dim.value)
                    self.symbols[dim.value] = Symbol("size", dim.offset)
        for param in syntax.inputs + syntax.outputs:
            if param.name in self.symbols:
                self.fail(f"'{param.name}' names both a size and a parameter", param.offset)
        inputs, outputs = [], []
        for param in syntax.inputs:
            dims = [d.value for d in param.dims or []]
            tensor = Tensor(param.name, param.dtype, dims, "input", param.offset)
            inputs.append(tensor)
            self.symbols[param.name] = Symbol("input" if param.dims else "scalar", param.offset, tensor)
        for param in syntax.outputs:
            if param.dims is None:
                self.fail(f"output '{param.name}' must be a tensor: give its dimensions, "
                          f"e.g. {param.name}: {param.dtype}[N]", param.offset)
            tensor = Tensor(param.name, param.dtype, [d.value for d in param.dims], "output", param.offset)
            outputs.append(tensor)
            self.symbols[param.name] = Symbol("output", param.offset, tensor)
        return Kernel(syntax.name, syntax.offset, self.source, sizes, inputs, outputs)

    # ---- Statements -----------------------------------------------------------

    def definable(self, name, offset):
        """Checks that a statement may define `name`."""
        symbol = self.symbols.get(name)
        if symbol is None:
            return
        if symbol.kind == "size":
            self.fail(f"'{name}' is a size and cannot be defined", offset)
        if symbol.kind in ("input", "scalar"):
            self.fail(f"'{name}' is an input and cannot be defined", offset)
        if symbol.defined:
            self.fail(f"'{name}' is already defined", offset, ("previous definition is here", symbol.offset))

    def binder_name(self, name, offset, what):
        """Checks that a sizes, tensor or scalar is not used as an index."""
        symbol = self.symbols.get(name)
        if symbol is not None:
            kind = {"size": "a size", "macro": "a scalar", "scalar": "a scalar",
                    "rank0": "a scalar"}.get(symbol.kind, "a tensor")
            self.fail(f"'{name}' is {kind} and cannot be {what}", offset)

    def tensor_definition(self, statement):
        name = statement.name
        self.definable(name, statement.offset)
        symbol = self.symbols.get(name)
        output = symbol.tensor if symbol is not None else None
        if output is not None and len(output.dims) != len(statement.indices):
            self.fail(f"output '{name}' has rank {len(output.dims)} but is defined with "
                      f"{len(statement.indices)} indices", statement.offset)
        ctx = Context(name, [b.name for b in statement.indices])
        scope, variables = {}, []
        for k, binder in enumerate(statement.indices):
            if binder.name in scope:
                self.fail(f"index '{binder.name}' appears twice on the left-hand side", binder.offset)
            self.binder_name(binder.name, binder.offset, "an index variable")
            var = IndexVar(binder.name, binder.offset)
            scope[binder.name] = var
            variables.append(var)
            ctx.vars.append(var)
            ctx.sources[var] = [(output.dims[k], binder.offset)] if output is not None else []
        expr = self.root(statement.expr, scope, ctx)
        self.infer_extents(ctx)
        self.reads_in_range(expr)
        if output is not None:
            tensor = output
            symbol.defined = True
            symbol.offset = statement.offset
        else:
            tensor = Tensor(name, expr.type, [v.extent for v in variables], "intermediate", statement.offset)
            self.symbols[name] = Symbol("intermediate", statement.offset, tensor)
        self.kernel.definitions.append(Definition(tensor, variables, expr, statement.offset))

    def scalar_definition(self, statement):
        name = statement.name
        self.definable(name, statement.offset)
        symbol = self.symbols.get(name)
        if symbol is not None and symbol.kind == "output":
            self.fail(f"output '{name}' is a tensor: define it with indices, "
                      f"e.g. {name}[i, ...] = ...", statement.offset)
        ctx = Context(name)
        if not self.reads_tensor(statement.expr, {}):
            symbol = Symbol("macro", statement.offset, macro=copy.deepcopy(statement.expr))
            symbol.type = self.expr(statement.expr, {}, ctx).type
            self.symbols[name] = symbol
            return
        expr = self.root(statement.expr, {}, ctx)
        self.infer_extents(ctx)
        self.reads_in_range(expr)
        tensor = Tensor(name, expr.type, [], "intermediate", statement.offset)
        self.symbols[name] = Symbol("rank0", statement.offset, tensor)
        self.kernel.definitions.append(Definition(tensor, [], expr, statement.offset))

    def require(self, statement):
        sizes = self.require_names(statement.expr)
        expr = self.root(statement.expr, {}, Context())
        if expr.type != "bool":
            self.fail("'require' needs a condition, such as 'H % G == 0'", statement.expr.offset)
        self.kernel.requirements.append(Requirement(expr, statement.text, statement.offset, sizes))

    def require_names(self, node):
        """The sizes a `require` condition mentions; anything but sizes,
        integer literals, bools, arithmetic, comparisons and logic is an
        error."""
        problem = "'require' may only use sizes and integer constants; "
        if isinstance(node, Number):
            if node.is_float:
                self.fail(problem + f"'{self.text(node)}' is not an integer", node.offset)
            return []
        if isinstance(node, Boolean):
            return []
        if isinstance(node, Name):
            symbol = self.symbols.get(node.name)
            if symbol is None or symbol.kind != "size":
                self.fail(problem + f"'{node.name}' is not a size", node.offset)
            return [node.name]
        if isinstance(node, Unary):
            return self.require_names(node.operand)
        if isinstance(node, Binary):
            return sorted(set(self.require_names(node.left) + self.require_names(node.right)))
        what = {Access: "a tensor", Call: "a call", Reduce: "a reduction"}[type(node)]
        self.fail(problem + f"{what} cannot appear in it", node.offset)

    def reads_in_range(self, expr):
        found = always_out_of_range(expr)
        if found:
            self.fail(found[1], found[0])

    def infer_extents(self, ctx):
        conflicts = []  # (offset, message)
        for var in ctx.vars:
            sources = ctx.sources[var]
            if not sources:
                self.fail(f"cannot infer the extent of index '{var.name}': it never indexes "
                          f"a tensor dimension directly", var.offset)
            first = sources[0][0]
            for extent, offset in sources[1:]:
                if extent != first:
                    conflicts.append((offset, f"conflicting extents for index '{var.name}': "
                                              f"{first} and {extent}"))
            var.extent = first
        if conflicts:
            offset, message = min(conflicts)
            self.fail(message, offset)

    # ---- Expressions ----------------------------------------------------------

    def root(self, node, scope, ctx):
        """A statement's expression, checked, typed and finalised."""
        node = self.expr(node, scope, ctx)
        self.fix(node, default(node.type))
        self.finalize(node, widen=False)
        return node

    def reads_tensor(self, node, scope):
        """Whether an expression reads a tensor or reduces (which makes a
        scalar definition a rank-0 tensor, and an index indirect)."""
        if isinstance(node, (Access, Reduce)):
            return True
        if isinstance(node, Name):
            symbol = self.symbols.get(node.name)
            return node.name not in scope and symbol is not None and symbol.kind == "rank0"
        return any(self.reads_tensor(child, scope) for child in children(node))

    def expr(self, node, scope, ctx):
        """Checks `node` and sets its type (possibly untyped); returns the
        node to use in its place (a Name of an expanded scalar definition
        becomes the definition's expression)."""
        method = getattr(self, "expr_" + type(node).__name__)
        return method(node, scope, ctx)

    def expr_Number(self, node, scope, ctx):
        node.type = UNTYPED_FLOAT if node.is_float else UNTYPED_INT
        return node

    def expr_Boolean(self, node, scope, ctx):
        node.type = "bool"
        return node

    def undefined_name(self, name, offset, ctx, in_index=False):
        if name == ctx.defining:
            self.fail(f"'{name}' is used in its own definition", offset)
        if name in self.statement_names:
            self.fail(f"'{name}' is used before its definition; define it earlier in the kernel", offset)
        if in_index:
            self.fail(NOT_BOUND.format(name, name), offset)
        self.fail(f"unknown name '{name}'", offset)

    def expr_Name(self, node, scope, ctx, in_index=False):
        if node.name in scope:
            node.ref = ("var", scope[node.name])
            node.type = "i64"
            return node
        symbol = self.symbols.get(node.name)
        if symbol is None or not symbol.defined:
            self.undefined_name(node.name, node.offset, ctx, in_index)
        if symbol.kind == "size":
            node.ref = ("size", node.name)
            node.type = "i64"
            return node
        if symbol.kind == "macro":
            node.ref = ("macro", symbol)
            node.type = symbol.type
            return node
        if symbol.kind in ("scalar", "rank0"):
            node.ref = ("tensor", symbol.tensor)
            node.type = symbol.tensor.dtype
            return node
        self.fail(f"tensor '{node.name}' needs indices here", node.offset)

    def expr_Access(self, node, scope, ctx):
        symbol = self.symbols.get(node.name)
        if node.name in scope:
            self.fail(f"'{node.name}' is an index variable, not a tensor", node.offset)
        if symbol is None or not symbol.defined:
            self.undefined_name(node.name, node.offset, ctx)
        if symbol.kind == "size":
            self.fail(f"'{node.name}' is a size, not a tensor", node.offset)
        if symbol.kind in ("scalar", "macro"):
            self.fail(f"'{node.name}' is a scalar, not a tensor", node.offset)
        tensor = symbol.tensor
        if symbol.kind == "rank0":
            self.fail(f"'{node.name}' has rank 0: read it by its bare name", node.offset)
        if len(node.indices) != len(tensor.dims):
            self.fail(f"tensor '{node.name}' has rank {len(tensor.dims)} but is indexed with "
                      f"{len(node.indices)} indices", node.offset)
        node.tensor = tensor
        node.kinds = []
        for k, index in enumerate(node.indices):
            node.indices[k], kind = self.index(index, scope, ctx, tensor.dims[k])
            node.kinds.append(kind)
        node.type = tensor.dtype
        return node

    def index(self, node, scope, ctx, extent):
        """One index of a tensor access: (checked node, kind)."""
        reduction = find(node, Reduce)
        if reduction is not None:
            self.fail("a reduction cannot appear inside an index; define it as a tensor first",
                      reduction.offset)
        if isinstance(node, Name) and node.name in scope:
            ctx.sources[scope[node.name]].append((extent, node.offset))
            return self.expr_Name(node, scope, ctx), "direct"
        if self.reads_tensor(node, scope):
            node = self.expr(node, scope, ctx)
            if not is_int(node.type):
                self.fail(f"an indirect index must be an integer, but '{self.text(node)}' has dtype "
                          f"{node.type}; an index must come from an integer tensor", node.offset)
            self.fix(node, default(node.type))
            return node, "indirect"
        self.affine(node, scope, ctx)
        node = self.expr(node, scope, ctx)
        self.fix(node, "i64")
        return node, "affine"

    def affine(self, node, scope, ctx):
        """Checks an affine index; returns whether it holds index variables."""
        if isinstance(node, Number):
            if node.is_float:
                self.fail(f"an index cannot hold a float ('{self.text(node)}')", node.offset)
            return False
        if isinstance(node, Name):
            if node.name in scope:
                return True
            symbol = self.symbols.get(node.name)
            if symbol is None or not symbol.defined:
                self.undefined_name(node.name, node.offset, ctx, in_index=True)
            if symbol.kind == "size":
                return False
            if symbol.kind in ("scalar", "macro"):
                self.fail(f"an index cannot hold the scalar '{node.name}': an affine index combines "
                          f"index variables, sizes and integer constants", node.offset)
            self.fail(f"tensor '{node.name}' needs indices here", node.offset)
        if isinstance(node, Unary) and node.op == "-":
            return self.affine(node.operand, scope, ctx)
        if isinstance(node, Binary) and node.op in ARITHMETIC:
            left = self.affine(node.left, scope, ctx)
            right = self.affine(node.right, scope, ctx)
            if node.op == "*" and left and right:
                self.fail("index is not affine: it multiplies two index variables", node.op_offset)
            if node.op in ("/", "%"):
                if right:
                    self.fail(f"index is not affine: the divisor of '{node.op}' holds an index variable",
                              node.op_offset)
                self.positive_divisor(node, ctx)
            return left or right
        what = "a call" if isinstance(node, Call) else "a bool" if isinstance(node, Boolean) else \
            "a comparison or logic"
        self.fail(f"an index cannot hold {what}: an affine index combines index variables, sizes "
                  f"and integer constants with + - * / %", node.offset)

    def positive_divisor(self, node, ctx):
        divisor = node.right
        sizes = self.require_names(divisor)
        if not sizes:
            value = constant_value(divisor)
            if value <= 0:
                self.fail(f"'{node.op}' in an index needs a positive divisor, but this one is {value}",
                          divisor.offset)
            return
        condition = Binary(divisor.offset, divisor.end, ">", copy.deepcopy(divisor),
                           Number(divisor.end, divisor.end, 0, False), divisor.end)
        condition = self.root(condition, {}, Context())
        self.kernel.requirements.append(
            Requirement(condition, f"{self.text(divisor)} > 0", divisor.offset, sizes))

    def expr_Unary(self, node, scope, ctx):
        node.operand = self.expr(node.operand, scope, ctx)
        t = node.operand.type
        if node.op == "not":
            if t != "bool":
                self.fail("'not' needs a bool operand; compare numbers first", node.offset)
            node.type = "bool"
        else:
            self.need_number(node.op, t, node.offset)
            node.type = t
        return node

    def need_number(self, what, t, offset):
        if t == "bool":
            self.fail(f"'{what}' needs a number, not a bool; convert with i32(...) or where(...)", offset)

    def expr_Binary(self, node, scope, ctx):
        node.left = self.expr(node.left, scope, ctx)
        node.right = self.expr(node.right, scope, ctx)
        a, b, op = node.left.type, node.right.type, node.op
        if op in LOGIC:
            if a != "bool" or b != "bool":
                self.fail(f"'{op}' needs bool operands; compare numbers first", node.op_offset)
            node.type = "bool"
            return node
        if op in COMPARISONS:
            if a == "bool" and b == "bool":
                if op not in ("==", "!="):
                    self.fail(f"'{op}' compares numbers, not bools", node.op_offset)
                node.type = node.optype = "bool"
                return node
            if "bool" in (a, b):
                self.fail(f"'{op}' cannot compare a bool with a number", node.op_offset)
            operands = default(promote(a, b))
            self.fix(node.left, operands)
            self.fix(node.right, operands)
            node.optype = operands
            node.type = "bool"
            return node
        self.need_number(op, a, node.left.offset)
        self.need_number(op, b, node.right.offset)
        if op == "%" and not (is_int(a) and is_int(b)):
            self.fail("'%' needs integer operands", node.op_offset)
        node.type = promote(a, b)
        self.fix_operands(node, [node.left, node.right])
        return node

    def fix_operands(self, node, operands):
        if not is_untyped(node.type):
            for operand in operands:
                self.fix(operand, node.type)

    def expr_Call(self, node, scope, ctx):
        name = node.name
        if name in CASTS:
            arity = 1
        elif name in FUNCTIONS:
            arity = FUNCTIONS[name]
        else:
            self.fail(f"unknown function '{name}'; known: {', '.join(FUNCTIONS)}, and casts "
                      f"such as f32(...)", node.offset)
        if len(node.args) != arity:
            plural = "argument" if arity == 1 else "arguments"
            self.fail(f"'{name}' takes {arity} {plural}, but {len(node.args)} given", node.offset)
        node.args = [self.expr(arg, scope, ctx) for arg in node.args]
        types = [arg.type for arg in node.args]
        if name in CASTS:
            # A cast fixes the type of an untyped argument: f64(0.1) is the
            # f64 nearest 0.1.
            node.type = name
            self.fix(node.args[0], name if name in FLOATS else default(types[0]))
        elif name == "where":
            if types[0] != "bool":
                self.fail(f"the condition of 'where' must be a bool, not {default(types[0])}",
                          node.args[0].offset)
            if types[1] == "bool" and types[2] == "bool":
                node.type = "bool"
            elif "bool" in types[1:]:
                self.fail("the branches of 'where' must both be numbers or both be bools", node.offset)
            else:
                node.type = promote(types[1], types[2])
                self.fix_operands(node, node.args[1:])
        else:
            for arg in node.args:
                self.need_number(name, arg.type, arg.offset)
            if name in ("max", "min"):
                node.type = promote(*types)
            elif name == "pow":
                node.type = float_result(promote(*types))
            elif name == "abs":
                node.type = types[0]
            else:
                node.type = float_result(types[0])
            self.fix_operands(node, node.args)
        return node

    def expr_Reduce(self, node, scope, ctx):
        inner = dict(scope)
        node.vars = []
        for binder in node.variables:
            if binder.name in ctx.lhs:
                self.fail(f"index '{binder.name}' is bound by {node.op}[...] and must not appear "
                          f"on the left-hand side", binder.offset)
            if binder.name in inner:
                self.fail(f"index '{binder.name}' is already bound", binder.offset)
            self.binder_name(binder.name, binder.offset, "an index variable")
            var = IndexVar(binder.name, binder.offset)
            inner[binder.name] = var
            node.vars.append(var)
            ctx.vars.append(var)
            ctx.sources[var] = []
        node.body = self.expr(node.body, inner, ctx)
        t = node.body.type
        if t == "bool":
            self.fail(f"cannot {node.op} booleans; convert with i32(...)", node.offset)
        self.fix(node.body, default(t))
        node.type = reduction_result(node.body.type)
        return node

    def finalize(self, node, widen):
        """Sets `compute` and `optype` (see the module's doc), and the
        expansion of macros; `widen` is set inside the body of a reduction
        whose body is f16 or bf16."""
        assert not is_untyped(node.type), node
        node.compute = node.type
        if widen and isinstance(node, Number) and node.type in HALF:
            node.compute = "f32"  # a literal in a half body is an f32 constant
        is_operation = (isinstance(node, (Unary, Binary)) and node.op not in ("not", "and", "or")) or \
            (isinstance(node, Call) and node.name not in CASTS)
        if is_operation:
            if not hasattr(node, "optype"):
                node.optype = node.type
            if widen and node.optype in HALF:
                node.optype = "f32"
            if widen and node.type in HALF:
                node.compute = "f32"
        if isinstance(node, Name) and node.ref[0] == "macro":
            node.expansion = self.expansion(node.ref[1], node.type, widen)
            node.compute = node.expansion.compute
        if isinstance(node, Reduce):
            self.finalize(node.body, widen=node.body.type in HALF)
            return
        for child in children(node):
            self.finalize(child, widen)

    def expansion(self, symbol, fixed, widen):
        """A macro's expression checked for the type `fixed` its use takes
        (when the macro is untyped) and for `widen`."""
        key = (fixed if is_untyped(symbol.type) else None, widen)
        if key not in symbol.variants:
            node = self.expr(copy.deepcopy(symbol.macro), {}, Context())
            self.fix(node, fixed)
            self.finalize(node, widen)
            symbol.variants[key] = node
        return symbol.variants[key]


    # ---- Untyped literals -------------------------------------------------------

    def fix(self, node, t):
        """Gives an untyped expression the type `t` its context fixes
        (section 6). An untyped float expression is computed in `t`: its
        untyped operands take `t` too. An untyped integer expression is
        computed in i64 and converted to `t` by its user ("an integer
        literal is an i64 converted to the type it takes", applied to
        integer expressions of literals: `x * (7 / 2)` multiplies by 3)."""
        if not is_untyped(node.type):
            return
        if node.type == UNTYPED_INT:
            t = "i64"
        elif not is_float(t):
            t = "f32"  # a float literal never becomes an integer
        node.type = t
        if isinstance(node, Unary):
            self.fix(node.operand, t)
        elif isinstance(node, Binary):
            self.fix(node.left, t)
            self.fix(node.right, t)
        elif isinstance(node, Call):
            for arg in node.args[1:] if node.name == "where" else node.args:
                self.fix(arg, t)


def find(node, kind):
    """The first node of type `kind` in an expression, or None."""
    if isinstance(node, kind):
        return node
    for child in children(node):
        found = find(child, kind)
        if found is not None:
            return found
    return None


def constant_value(node):
    """The value of an index expression of integer literals (floor division
    and modulo, as the language's integers)."""
    if isinstance(node, Number):
        return node.value
    if isinstance(node, Unary):
        return -constant_value(node.operand)
    a, b = constant_value(node.left), constant_value(node.right)
    if node.op == "+":
        return a + b
    if node.op == "-":
        return a - b
    if node.op == "*":
        return a * b
    if b == 0:
        return 0
    return a // b if node.op == "/" else a % b
