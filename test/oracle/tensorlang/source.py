"""A source file's text, and line/column positions within it."""
import bisect


class Source:
    def __init__(self, path, data):
        """`data` is the file's bytes; they are decoded as Latin-1 so that
        every byte maps to one character and the lexer can name a bad
        byte (the language is ASCII)."""
        self.path = path
        self.text = data.decode("latin-1")
        self.line_starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                self.line_starts.append(i + 1)

    @classmethod
    def read(cls, path):
        with open(path, "rb") as f:
            return cls(path, f.read())

    def position(self, offset):
        """(line, column), both from 1."""
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def line_text(self, line):
        start = self.line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]

    def excerpt(self, severity, message, offset):
        line, col = self.position(offset)
        text = self.line_text(line).rstrip("\r")
        caret = "".join(ch if ch == "\t" else " " for ch in text[:col - 1]) + "^"
        printable = "".join(ch if " " <= ch <= "~" or ch == "\t" else "?" for ch in text)
        return f"{self.path}:{line}:{col}: {severity}: {message}\n  {printable}\n  {caret}"
