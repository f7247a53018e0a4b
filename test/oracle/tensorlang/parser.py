"""A recursive-descent parser for `.tensor` files (docs/language.md,
sections 3 to 5). It stops at the first error."""
from .errors import SourceError
from .lexer import DTYPES, KEYWORDS, describe, tokenize
from .syntax import (Access, Binary, Binder, Boolean, Call, Dim, KernelSyntax,
                     Name, Number, Param, Reduce, Require, ScalarDef,
                     TensorDef, Unary)

MAX_DEPTH = 256
MAX_BINARY_OPERATORS = 4096  # in one expression (docs/language.md, section 5)
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def parse(source):
    """The kernels of a file, as a list of KernelSyntax."""
    return Parser(source).file()


class Parser:
    def __init__(self, source):
        self.source = source
        self.tokens = tokenize(source)
        self.pos = 0
        self.depth = 0
        self.binaries = 0

    # ---- Token helpers ------------------------------------------------------

    @property
    def tok(self):
        return self.tokens[self.pos]

    def peek(self, ahead=1):
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def advance(self):
        token = self.tok
        if token.kind != "eof":
            self.pos += 1
        return token

    def at(self, *kinds):
        return self.tok.kind in kinds

    def accept(self, kind):
        if self.tok.kind == kind:
            return self.advance()
        return None

    def fail(self, message, token=None):
        token = token or self.tok
        raise SourceError(message, self.source, token.offset)

    def expect(self, kind, what):
        if self.tok.kind != kind:
            self.fail(f"expected {what}, found {describe(self.tok)}")
        return self.advance()

    def expect_name(self, what):
        if self.tok.kind == "dtype" or self.tok.kind in KEYWORDS:
            self.fail(f"'{self.tok.text}' is reserved and cannot be {what}")
        return self.expect("name", what)

    def nest(self):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(f"expression is nested too deeply (more than {MAX_DEPTH} levels)")

    def unnest(self):
        self.depth -= 1

    # ---- File, kernel, signature -------------------------------------------

    def file(self):
        kernels = []
        while True:
            if self.accept("newline"):
                continue
            if self.at("eof"):
                if not kernels:
                    self.fail("file defines no kernel; expected 'kernel NAME(INPUTS) -> (OUTPUTS) { ... }'")
                return kernels
            if not self.at("kernel"):
                self.fail(f"expected 'kernel', found {describe(self.tok)}")
            kernels.append(self.kernel())

    def kernel(self):
        self.expect("kernel", "'kernel'")
        name = self.expect_name("a kernel name")
        self.expect("(", "'(' after the kernel's name")
        inputs = []
        if not self.at(")"):
            inputs.append(self.param("an input name"))
            while self.accept(","):
                inputs.append(self.param("an input name"))
        self.expect(")", "')' to close the inputs")
        self.expect("->", "'->' before the outputs")
        if self.accept("("):
            outputs = [self.param("an output name")]
            while self.accept(","):
                outputs.append(self.param("an output name"))
            self.expect(")", "')' to close the outputs")
        else:
            outputs = [self.param("an output name")]
        while self.accept("newline"):
            pass
        self.expect("{", "'{' to open the kernel's body")
        kernel = KernelSyntax(name.text, name.offset, inputs, outputs)
        while True:
            if self.accept("newline") or self.accept(";"):
                continue
            if self.accept("}"):
                return kernel
            if self.at("eof"):
                self.fail("expected '}' to close the kernel's body, found end of file")
            kernel.statements.append(self.statement())
            if not self.at("newline", ";", "}"):
                self.fail(f"expected the end of the statement, found {describe(self.tok)}")

    def param(self, what):
        name = self.expect_name(what)
        self.expect(":", f"':' and a dtype after '{name.text}'")
        if self.tok.kind != "dtype":
            if self.tok.kind == "name":
                self.fail(f"unknown dtype '{self.tok.text}'; the dtypes are {', '.join(DTYPES)}")
            self.fail(f"expected a dtype, found {describe(self.tok)}")
        dtype = self.advance().text
        dims = None
        if self.accept("["):
            dims = [self.dim()]
            while self.accept(","):
                dims.append(self.dim())
            self.expect("]", "']' to close the dimensions")
        return Param(name.text, name.offset, dtype, dims)

    def dim(self):
        token = self.tok
        if token.kind == "int":
            if token.value == 0:
                self.fail("a dimension must be positive, not 0")
            self.advance()
            return Dim(token.value, token.offset)
        if token.kind == "name":
            self.advance()
            return Dim(token.text, token.offset)
        if token.kind == "dtype" or token.kind in KEYWORDS:
            self.fail(f"'{token.text}' is reserved and cannot name a size")
        self.fail(f"expected a size name or a positive integer, found {describe(token)}")

    # ---- Statements ---------------------------------------------------------

    def statement(self):
        token = self.tok
        if token.kind == "require":
            self.advance()
            expr = self.expression()
            return Require(token.offset, expr,
                           self.condition_text(token.offset + len("require")))
        if token.kind == "name" and self.peek().kind == "[":
            self.advance()
            self.advance()
            indices = [self.left_index(token.text)]
            while self.accept(","):
                indices.append(self.left_index(token.text))
            self.expect("]", "']' to close the left-hand indices")
            self.expect("=", "'=' after the left-hand side")
            return TensorDef(token.text, token.offset, indices, self.expression())
        if token.kind == "name" and self.peek().kind == "=":
            self.advance()
            self.advance()
            return ScalarDef(token.text, token.offset, self.expression())
        if token.kind == "dtype" or (token.kind in KEYWORDS and self.peek().kind in ("[", "=")):
            self.fail(f"'{token.text}' is reserved and cannot be defined")
        self.fail(f"expected a statement ('NAME[i, ...] = ...', 'NAME = ...' or 'require ...'), "
                  f"found {describe(token)}")

    def left_index(self, defined):
        expr = self.expression()
        if not isinstance(expr, Name):
            raise SourceError(f"the left-hand indices of '{defined}' must be plain index variables",
                              self.source, expr.offset)
        return Binder(expr.name, expr.offset)

    def condition_text(self, start):
        """The condition as written, to the end of its statement (a newline
        or ';' outside parentheses), comments left out, blanks one space."""
        text = self.source.text
        out, depth, i = [], 0, start
        while i < len(text):
            c = text[i]
            if c == "#":
                i = text.find("\n", i)
                i = len(text) if i < 0 else i
                if depth <= 0:
                    break
                c = " "
            elif c in "\n;" and depth <= 0:
                break
            depth += (c in "([") - (c in ")]")
            out.append(" " if c.isspace() else c)
            i += 1
        return " ".join("".join(out).split())

    # ---- Expressions (loosest first) ----------------------------------------

    def expression(self):
        if self.depth == 0:
            self.binaries = 0
        return self.disjunction()

    def binary(self, left, right, op_text, op):
        self.binaries += 1
        if self.binaries > MAX_BINARY_OPERATORS:
            self.fail(f"expression has more than {MAX_BINARY_OPERATORS} operators; "
                      "split it into several definitions", op)
        return Binary(left.offset, right.end, op_text, left, right, op.offset)

    def disjunction(self):
        left = self.conjunction()
        while self.at("or"):
            op = self.advance()
            right = self.conjunction()
            left = self.binary(left, right, "or", op)
        return left

    def conjunction(self):
        left = self.negation()
        while self.at("and"):
            op = self.advance()
            right = self.negation()
            left = self.binary(left, right, "and", op)
        return left

    def negation(self):
        if self.at("not"):
            token = self.advance()
            self.nest()
            operand = self.negation()
            self.unnest()
            return Unary(token.offset, operand.end, "not", operand)
        return self.comparison()

    def comparison(self):
        left = self.additive()
        if self.at(*COMPARISONS):
            op = self.advance()
            right = self.additive()
            left = self.binary(left, right, op.text, op)
            if self.at(*COMPARISONS):
                self.fail("comparisons do not chain; write 'a < b and b < c'")
        return left

    def additive(self):
        left = self.multiplicative()
        while self.at("+", "-"):
            op = self.advance()
            right = self.multiplicative()
            left = self.binary(left, right, op.text, op)
        return left

    def multiplicative(self):
        left = self.unary()
        while self.at("*", "/", "%"):
            op = self.advance()
            if op.text == "*" and self.at("*"):
                self.fail("there is no '**' operator; write pow(a, b)")
            right = self.unary()
            left = self.binary(left, right, op.text, op)
        return left

    def unary(self):
        if self.at("-"):
            token = self.advance()
            self.nest()
            operand = self.unary()
            self.unnest()
            return Unary(token.offset, operand.end, "-", operand)
        if self.at("+"):
            self.fail("there is no unary '+'")
        return self.primary()

    def primary(self):
        token = self.tok
        kind = token.kind
        if kind == "int":
            self.advance()
            return Number(token.offset, token.end, token.value, False)
        if kind == "float":
            self.advance()
            return Number(token.offset, token.end, token.value, True)
        if kind == "inf":
            self.advance()
            return Number(token.offset, token.end, float("inf"), True)
        if kind in ("true", "false"):
            self.advance()
            return Boolean(token.offset, token.end, kind == "true")
        if kind == "(":
            self.advance()
            self.nest()
            inner = self.expression()
            self.unnest()
            if not self.at(")"):
                self.fail(f"expected ')' to close the parenthesis, found {describe(self.tok)}")
            self.advance()
            return inner
        if kind in ("sum", "prod") or (kind in ("max", "min") and self.peek().kind == "["):
            return self.reduction()
        if kind in ("max", "min", "where", "dtype", "name") and self.peek().kind == "(":
            return self.call()
        if kind == "dtype":
            self.fail(f"'{token.text}' is a dtype; a conversion is written {token.text}(x)")
        if kind in ("max", "min"):
            self.fail(f"'{token.text}' needs '(' (the function) or '[' (the reduction)")
        if kind == "where":
            self.fail("'where' needs its arguments: where(condition, a, b)")
        if kind == "name":
            self.advance()
            if self.at("["):
                return self.access(token)
            return Name(token.offset, token.end, token.text)
        self.fail(f"expected an expression, found {describe(token)}")

    def arguments(self, close, what):
        """Comma-separated expressions up to `close`, which is consumed."""
        self.nest()
        items = []
        if not self.at(close):
            items.append(self.expression())
            while self.accept(","):
                items.append(self.expression())
        self.unnest()
        if not self.at(close):
            self.fail(f"expected ',' or '{close}' in {what}, found {describe(self.tok)}")
        end = self.advance().end
        return items, end

    def access(self, name):
        self.advance()  # '['
        indices, end = self.arguments("]", f"the indices of '{name.text}'")
        if not indices:
            self.fail(f"'{name.text}[]' needs at least one index; a rank-0 tensor is read by its bare name")
        return Access(name.offset, end, name.text, indices)

    def call(self):
        name = self.advance()
        self.advance()  # '('
        args, end = self.arguments(")", f"the arguments of '{name.text}'")
        return Call(name.offset, end, name.text, args)

    def reduction(self):
        op = self.advance()
        if not self.at("["):
            self.fail(f"'{op.text}' needs the indices it reduces over in brackets, e.g. {op.text}[i](...)")
        self.advance()
        variables = []
        while True:
            if self.tok.kind != "name":
                self.fail(f"expected an index variable in {op.text}[...], found {describe(self.tok)}")
            token = self.advance()
            variables.append(Binder(token.text, token.offset))
            if self.accept("]"):
                break
            self.expect(",", f"',' or ']' in {op.text}[...]")
        if not self.at("("):
            self.fail(f"expected '(' and the expression to reduce after {op.text}[...], found {describe(self.tok)}")
        self.advance()
        self.nest()
        body = self.expression()
        self.unnest()
        if not self.at(")"):
            self.fail(f"expected ')' to close the {op.text}, found {describe(self.tok)}")
        end = self.advance().end
        return Reduce(op.offset, end, op.text, variables, body)
