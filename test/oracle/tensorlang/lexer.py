"""Tokens of the `.tensor` language (docs/language.md, section 2).

Token kinds: 'name', 'int', 'float', 'dtype', 'newline', 'eof', and for
keywords and punctuation the text itself ('kernel', 'sum', '(', '<=', ...).
A newline inside (...) or [...] is not a token; braces do not count.
"""
from dataclasses import dataclass

from .errors import SourceError

KEYWORDS = {"kernel", "require", "where", "sum", "max", "min", "prod",
            "true", "false", "inf", "and", "or", "not"}
DTYPES = ("f16", "bf16", "f32", "f64", "i8", "i32", "i64", "bool")
PUNCTUATION = ["->", "<=", ">=", "==", "!=",  # two characters first
               "(", ")", "[", "]", "{", "}", ",", ":", ";", "=", "+", "-",
               "*", "/", "%", "<", ">"]
WHITESPACE = " \t\r\f\v"
INT_MAX = 2 ** 63 - 1


@dataclass
class Token:
    kind: str
    text: str
    offset: int
    value: object = None  # int or float for numbers

    @property
    def end(self):
        return self.offset + len(self.text)


def describe(token):
    """How a message names a token: 'x', ')', end of line, end of file."""
    if token.kind == "newline":
        return "end of line"
    if token.kind == "eof":
        return "end of file"
    return f"'{token.text}'"


def tokenize(source):
    text = source.text
    tokens = []
    depth = 0  # of ( and [
    i, n = 0, len(text)

    def fail(message, at):
        raise SourceError(message, source, at)

    while i < n:
        ch = text[i]
        if ch in WHITESPACE:
            i += 1
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif ch == "\n":
            if depth == 0:
                tokens.append(Token("newline", "\n", i))
            i += 1
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            start = i
            while i < n and text[i].isascii() and (text[i].isalnum() or text[i] == "_"):
                i += 1
            word = text[start:i]
            kind = word if word in KEYWORDS else "dtype" if word in DTYPES else "name"
            tokens.append(Token(kind, word, start))
        elif ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            token = _number(text, i, fail)
            tokens.append(token)
            i = token.end
        else:
            for p in PUNCTUATION:
                if text.startswith(p, i):
                    tokens.append(Token(p, p, i))
                    if p in "([":
                        depth += 1
                    elif p in ")]":
                        depth = max(0, depth - 1)
                    i += len(p)
                    break
            else:
                if ch == "!":
                    fail("unexpected character '!': write 'not' for negation, '!=' for inequality", i)
                if " " <= ch <= "~":
                    fail(f"unexpected character '{ch}'", i)
                fail(f"unexpected byte 0x{ord(ch):02X} (is this a .tensor text file?)", i)
    tokens.append(Token("eof", "", n))
    return tokens


def _digits(text, i):
    while i < len(text) and text[i].isdigit():
        i += 1
    return i


def _number(text, start, fail):
    """An integer or float literal at `start`."""
    i = _digits(text, start)
    is_float = False
    if i < len(text) and text[i] == ".":
        is_float = True
        i = _digits(text, i + 1)
    if i < len(text) and text[i] in "eE":
        j = i + 1
        if j < len(text) and text[j] in "+-":
            j += 1
        if j < len(text) and text[j].isdigit():
            is_float = True
            i = _digits(text, j)
    word = text[start:i]
    if i < len(text) and text[i].isascii() and (text[i].isalpha() or text[i] == "_"):
        fail(f"a number cannot be followed by a letter or '_' ('{word}{text[i]}')", i)
    if is_float:
        value = float(word)
        if value == float("inf"):
            fail(f"float literal '{word}' is beyond the range of f64; write 'inf' for infinity", start)
        return Token("float", word, start, value)
    value = int(word)
    if value > INT_MAX:
        fail(f"integer literal '{word}' does not fit in 64 bits", start)
    return Token("int", word, start, value)
